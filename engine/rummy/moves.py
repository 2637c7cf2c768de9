"""May the table after a move follow from the table before it, jokers included (RM-JOKER-1..5,
RM-CAR-5..7, RM-VAT-3/4, RM-TAH-7..10, RM-AMB-7..10, RM-AMB-25)?

`check_table` (groups.py) decides the partition and each group; only a comparison of the
two tables decides how jokers may move, so this module adds it. No search: every check
walks the cards once or a handful of times.

Definitions (the decisions the rules leave to us):

- *Continues.* An after-group continues a before-group B when it holds at least one of B's
  cards other than the joker in question (other jokers count) and no after-group holds more
  of them. A split into equal halves leaves two groups that both continue B.
- *Freed* (RM-JOKER-4, RM-AMB-7, RM-CAR-6, RM-TAH-9). A joker named f lying in B is freed by
  this move when a real card of face f (either copy) that was not in B lies, after the move,
  in a group that continues B. Carousel and Vatican take that card from the hand or from
  another group; Tahiti from the hand only. A real copy anywhere else frees nothing.
- *Names* (RM-JOKER-2, RM-JOKER-3, RM-AMB-8). A table joker keeps its old name when
  `after_names` omits it; an unfreed one may not change it. A joker from the hand (or a
  Tahiti singleton joker used for the first time, which never had a name) takes the name
  given, else the one identity that makes its group valid; two or more fitting ones and no
  name is `joker_unnamed`. Two unnamed jokers in one group always fit two ways (swapped),
  so only a single unnamed joker a group is ever filled in. A freed joker may take any name
  that fits where it goes, its old one included (RM-JOKER-5, RM-TAH-10: chosen anew).
- *Vatican* (RM-VAT-4, RM-AMB-10). An unfreed joker's group after the move holds a card that
  lay next to it before: a run neighbour in run order, or any other card of its set.
- *Tahiti* (RM-TAH-8, RM-AMB-25). A group holding an unfreed joker stays together in one
  group, which gains only cards from the hand (no table card, no singleton).

Order of the checks, so that a refusal names the first fault a player would see: names
given to non-jokers or as non-faces; a freed joker left off the table; the partition faults
of check_table (a card twice, a table card missing); an unfreed joker renamed; Vatican's
joker leaving its group; Tahiti's frozen group; then check_table (cards from the hand, at
least one added, every group valid with the names resolved, Vatican's first play).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import combinations

import msgspec

from engine.cards import JOKER, RANKS, SUITS, Card
from engine.errors import RuleViolation
from engine.rummy.groups import Group, TableViolation, check_group, check_table
from engine.rummy.variants import Variant

__all__ = ["Checked", "Table", "check_move"]

Table = tuple[tuple[Card, ...], ...]

_RANK_OF = {name: i + 1 for i, name in enumerate(RANKS)}
_FACE: dict[str, tuple[int, str]] = {f"{r}{s}": (_RANK_OF[r], s) for s in SUITS for r in RANKS}
# The jokers of every rummy deck (Tahiti has the most: four, RM-TAH-1), looked up rather
# than parsed: the check runs on every submitted move.
_JOKERS = tuple(f"{JOKER}#{j}" for j in range(1, 5))
_JOKER_SET = frozenset(_JOKERS)
# The rule an unfreed joker's new name breaks: Vatican's jokers work as Carousel's (RM-VAT-3).
_NOT_FREED_RULE = {"fixed": "RM-CAR-6", "stays": "RM-CAR-6", "freezes": "RM-TAH-9"}
_FITS_SHOWN = 3


class Checked(msgspec.Struct, frozen=True, kw_only=True):
    """An accepted move: each group as check_table returns it (``None`` for an untouched
    Tahiti singleton), every joker lying in a group with its face (sorted by card), and the
    hand cards the move adds, in table order."""

    groups: tuple[Group | None, ...]
    names: tuple[tuple[Card, str], ...]
    added: tuple[Card, ...]


def check_move(
    before: Table,
    before_names: Mapping[Card, str],
    after: Table,
    after_names: Mapping[Card, str],
    hand: Sequence[Card],
    variant: Variant,
    *,
    first_play: bool = False,
) -> Checked:
    """Check the table `after` a move against the table `before` it and the mover's hand.

    `before_names` names every joker lying in a group before; `after_names` the jokers
    placed or re-identified (a table joker left out keeps its name). Raises TableViolation
    (the group at fault is an index into `after`) or returns the checked move.
    """
    # the last group holding a card, as the rules read it; a card held twice is a clash
    where = {card: i for i, group in enumerate(after) for card in group}
    clash = len(where) != sum(map(len, after))
    was = {card: i for i, group in enumerate(before) for card in group}
    _check_given(after_names, where)
    lone = {i for i, g in enumerate(before) if len(g) == 1} if variant.singletons else set()
    old = _old_names(was, before_names, lone)
    freed = {j for j, name in old.items() if _freed(j, name, before[was[j]], where, was, variant)}
    off = sorted(freed - where.keys())
    if off:
        raise TableViolation(
            "freed_joker_off_table",
            "RM-TAH-10" if variant.jokers == "freezes" else "RM-JOKER-5",
            f"{off[0]} was freed: it must go into a group on the table with an identity",
            None,
        )
    if clash or not where.keys() >= was.keys():
        check_table(after, before, hand, variant, first_play=first_play)  # raises the fault
    for joker, name in old.items():
        now = after_names.get(joker, name)
        if joker not in freed and now != name:
            raise TableViolation(
                "joker_not_freed",
                _NOT_FREED_RULE.get(variant.jokers, "RM-JOKER-3"),
                f"{joker} stands for {name} until the real {name}"
                f"{' from the hand' if variant.jokers == 'freezes' else ''} takes its place "
                f"in its group; it cannot become {now}",
                where[joker],
            )
    stuck = sorted(old.keys() - freed)
    if variant.jokers == "stays":
        for joker in stuck:
            _stays(joker, before[was[joker]], before_names, where, variant)
    elif variant.jokers == "freezes":
        for joker in stuck:
            _frozen(joker, before[was[joker]], where, was, after)
    names, pending = _resolve(after, where, was, lone, old, after_names, variant)
    try:
        groups = check_table(after, before, hand, variant, named=names, first_play=first_play)
    except TableViolation as e:
        if e.code == "joker_unnamed" and e.group in pending:
            raise pending[e.group] from None
        raise
    return Checked(
        groups=groups,
        names=tuple(sorted(names.items())),
        added=tuple(card for group in after for card in group if card not in was),
    )


def _is_joker(card: Card) -> bool:
    return card in _JOKER_SET


def _check_given(after_names: Mapping[Card, str], where: Mapping[Card, int]) -> None:
    """RM-JOKER-1: a name goes to a joker on the table, and names a real card."""
    for card, name in sorted(after_names.items()):
        if not _is_joker(card) or card not in where:
            raise TableViolation(
                "named_card_not_a_joker",
                "RM-JOKER-1",
                f"{card} is given the name {name!r}, but it is not a joker on the table",
                where.get(card),
            )
        if name not in _FACE:
            raise TableViolation(
                "bad_card", "RM-JOKER-1", f"{card} named {name!r}: not a card", where[card]
            )


def _old_names(
    was: Mapping[Card, int], before_names: Mapping[Card, str], lone: set[int]
) -> dict[Card, str]:
    """Each joker lying in a group before the move, with its name (a singleton has none)."""
    old: dict[Card, str] = {}
    for joker in _JOKERS:
        if was.get(joker, -1) in lone or joker not in was:
            continue
        name = before_names.get(joker, "")
        if name not in _FACE:
            raise TableViolation(
                "bad_before_table", "", f"{joker} lies on the table without a name", None
            )
        old[joker] = name
    return old


def _freed(
    joker: Card,
    name: str,
    group: tuple[Card, ...],
    where: Mapping[Card, int],
    was: Mapping[Card, int],
    variant: Variant,
) -> bool:
    """RM-JOKER-4, RM-AMB-7: the real card lies in a group continuing the joker's group."""
    held: dict[int, int] = {}
    for card in group:
        if card != joker and card in where:
            held[where[card]] = held.get(where[card], 0) + 1
    if not held:
        return False
    most = max(held.values())
    for copy in ("#1", "#2"):
        real = name + copy
        home = where.get(real)
        if home is None or held.get(home, 0) < most or real in group:
            continue
        if variant.jokers == "freezes" and real in was:
            continue  # RM-TAH-9: from the hand, never a card already on the table
        return True
    return False


def _stays(
    joker: Card,
    group: tuple[Card, ...],
    before_names: Mapping[Card, str],
    where: Mapping[Card, int],
    variant: Variant,
) -> None:
    """RM-VAT-4, RM-AMB-10: an unfreed joker keeps a former neighbour in its group."""
    home = where[joker]
    if all(where.get(card) == home for card in group):
        return  # its whole group is still around it (the usual case: no run to read)
    try:
        ordered = check_group(group, variant, before_names)
    except RuleViolation as e:
        raise TableViolation("bad_before_table", "", e.message, None) from None
    cards = ordered.cards
    if ordered.kind == "run":
        k = cards.index(joker)
        near = cards[max(k - 1, 0) : k] + cards[k + 1 : k + 2]
    else:
        near = tuple(c for c in cards if c != joker)
    if not any(where.get(card) == home for card in near):
        raise TableViolation(
            "joker_left_its_group",
            "RM-VAT-4",
            f"group {home + 1}: {joker} cannot leave its group until its real card takes its "
            f"place; keep one of {', '.join(near)} beside it",
            home,
        )


def _frozen(
    joker: Card,
    group: tuple[Card, ...],
    where: Mapping[Card, int],
    was: Mapping[Card, int],
    after: Table,
) -> None:
    """RM-TAH-8, RM-AMB-25: a joker's group stays whole and gains only hand cards."""
    home = where[joker]
    for card in group:
        if where[card] != home:
            raise TableViolation(
                "frozen_group_split",
                "RM-TAH-8",
                f"{card} cannot leave the group of {joker} until the real card frees it",
                home,
            )
    for card in after[home]:
        if card in was and card not in group:
            raise TableViolation(
                "frozen_group_table_card",
                "RM-TAH-8",
                f"group {home + 1}: only cards from the hand may join the group of {joker}; "
                f"{card} was on the table",
                home,
            )


def _resolve(
    after: Table,
    where: Mapping[Card, int],
    was: Mapping[Card, int],
    lone: set[int],
    old: Mapping[Card, str],
    after_names: Mapping[Card, str],
    variant: Variant,
) -> tuple[dict[Card, str], dict[int, TableViolation]]:
    """Every joker in a group with its name, and the refusal kept for each group whose
    unnamed joker has no single fitting identity (raised only if check_table gets there)."""
    names: dict[Card, str] = {}
    unnamed: dict[int, list[Card]] = {}
    for card in _JOKERS:
        i = where.get(card, -1)
        if i < 0 or (was.get(card, -1) in lone and len(after[i]) == 1):
            continue  # not on the table, or an untouched singleton: no name (RM-TAH-3)
        if card in old:
            names[card] = after_names.get(card, old[card])
        elif card in after_names:
            names[card] = after_names[card]
        else:
            unnamed.setdefault(i, []).append(card)
    pending: dict[int, TableViolation] = {}
    for i, jokers in unnamed.items():
        if sum(1 for card in after[i] if _is_joker(card)) > variant.jokers_per_group:
            pending[i] = TableViolation(
                "too_many_jokers" if variant.jokers_per_group else "no_jokers",
                variant.joker_rule_id,
                f"group {i + 1}: this variant allows at most {variant.jokers_per_group} "
                "joker(s) a group",
                i,
            )
            continue
        fits = _fits(after[i], names, jokers, variant)
        if fits is None:
            continue  # a card of the group cannot be read: check_table says which
        if len(jokers) == 1 and len(fits) == 1:
            names[jokers[0]] = fits[0][0]
        else:
            pending[i] = _unnamed(i, jokers, fits)
    return names, pending


def _fits(
    cards: tuple[Card, ...], names: Mapping[Card, str], jokers: list[Card], variant: Variant
) -> list[tuple[str, ...]] | None:
    """Up to a few sets of faces the unnamed `jokers` could stand for together so that the
    group is valid (each set fits in every order); None if a card cannot be read."""
    known: set[tuple[int, str]] = set()
    for card in cards:
        if card in jokers:
            continue
        rs = _FACE.get(names[card] if _is_joker(card) else card.partition("#")[0])
        if rs is None:
            return None
        known.add(rs)
    n, u = len(cards), len(jokers)
    if n < variant.min_group or len(known) + u < n:
        return []  # too short, or two identical cards (RM-GRP-4)
    out: list[tuple[str, ...]] = []
    ranks = {r for r, _ in known}
    suits = {s for _, s in known}
    if len(ranks) <= 1 and n <= variant.max_set:
        for rank in ranks or range(1, 14):
            free = [s for s in SUITS if (rank, s) not in known]
            out += [tuple(RANKS[rank - 1] + s for s in pick) for pick in combinations(free, u)]
            if len(out) > _FITS_SHOWN:
                return out
    if len(suits) <= 1 and n <= variant.max_run:
        for suit in suits or SUITS:
            for low in range(1, 16 - n):
                high = low + n - 1
                if (low == 1 and variant.ace == "high") or (high == 14 and variant.ace == "low"):
                    continue  # the ace may not stand on that side (RM-ACE-1, RM-ACE-2)
                window = [(p - 1) % 13 + 1 for p in range(low, high + 1)]
                fit = tuple(RANKS[r - 1] + suit for r in window if (r, suit) not in known)
                # A 13-card run fits both with its ace low and high: the same faces once.
                if all(r in window for r in ranks) and fit not in out:
                    out.append(fit)
                    if len(out) > _FITS_SHOWN:
                        return out
    return out


def _unnamed(i: int, jokers: list[Card], fits: list[tuple[str, ...]]) -> TableViolation:
    who = ", ".join(jokers)
    if not fits:
        return TableViolation(
            "no_identity_fits",
            "RM-JOKER-1",
            f"group {i + 1}: no card {who} could stand for makes a set or a run",
            i,
        )
    shown = " or ".join(" and ".join(f) for f in fits[:_FITS_SHOWN])
    more = ", among others" if len(fits) > _FITS_SHOWN else ""
    either = " (in either order)" if len(jokers) > 1 else ""
    return TableViolation(
        "joker_unnamed",
        "RM-JOKER-2",
        f"group {i + 1}: name {who}: it could stand for {shown}{more}{either}",
        i,
    )
