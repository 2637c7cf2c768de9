"""Is a group a set or a run, and is a rebuilt table a valid partition (RM-GRP, RM-MOVE)?

Pure and exact, with no search: a group's cards are read as faces (a joker as the face it
was named), and sorting the ranks decides. A set is one rank in distinct suits
(RM-GRP-2); a run is one suit on consecutive places with the ace placed as the variant
allows (RM-GRP-3, RM-ACE-1..4). The joker movement rules between two tables (RM-CAR-5/6,
RM-VAT-4, RM-TAH-8..10) are not checked here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Literal

import msgspec

from engine.cards import JOKER, RANKS, SUITS, Card
from engine.errors import RuleViolation
from engine.rummy.variants import Variant

__all__ = ["Group", "TableViolation", "check_group", "check_table"]

_RANK_OF = {name: i + 1 for i, name in enumerate(RANKS)}
# Every identity of every rummy deck: (rank 1..13, suit), a joker (0, "").
_CARD: dict[str, tuple[int, str]] = {
    f"{r}{s}#{c}": (_RANK_OF[r], s) for c in (1, 2) for s in SUITS for r in RANKS
}
_CARD.update({f"{JOKER}#{j}": (0, "") for j in range(1, 5)})
_FACE: dict[str, tuple[int, str]] = {f"{r}{s}": (_RANK_OF[r], s) for s in SUITS for r in RANKS}


class Group(msgspec.Struct, frozen=True, kw_only=True):
    """A valid group: its cards in order (a run low to high) and the face each stands for."""

    kind: Literal["set", "run"]
    cards: tuple[Card, ...]
    faces: tuple[str, ...]


class TableViolation(RuleViolation):
    """A refused table: `group` is the index of the wrong group in the submitted table
    (``None`` when the fault is a card missing from it)."""

    def __init__(self, code: str, rule_id: str, message: str, group: int | None) -> None:
        super().__init__(code, rule_id, message)
        self.group = group

    def as_dict(self) -> dict[str, str]:
        out = super().as_dict()
        if self.group is not None:
            out["group"] = str(self.group)
        return out


def check_group(
    cards: Sequence[Card], variant: Variant, named: Mapping[Card, str] | None = None
) -> Group:
    """The group `cards` make, or RuleViolation. `named` gives each joker its face."""
    faces = _faces(cards, variant, named or {})
    n = len(cards)
    ranks = {r for r, _ in faces}
    suits = {s for _, s in faces}
    if n < variant.min_group:
        rule = "RM-GRP-2" if len(ranks) == 1 else "RM-GRP-3"
        raise RuleViolation(
            "group_too_short", rule, f"a group needs {variant.min_group} cards or more, not {n}"
        )
    if len(set(faces)) < n:
        raise RuleViolation(
            "identical_cards", "RM-GRP-4", "two identical cards can never share a group"
        )
    if len(ranks) == 1:
        return _set(cards, faces, variant)
    if len(suits) == 1:
        return _run(cards, faces, variant)
    raise RuleViolation(
        "not_a_group",
        "RM-GRP-1",
        "a group is a set (one rank) or a run (one suit); these cards mix ranks and suits",
    )


def check_table(
    groups: Sequence[Sequence[Card]],
    before: Sequence[Sequence[Card]],
    hand_cards: Sequence[Card],
    variant: Variant,
    *,
    named: Mapping[Card, str] | None = None,
    first_play: bool = False,
) -> tuple[Group | None, ...]:
    """Check a rebuilt table against the table `before` it and the mover's hand.

    Returns each group checked (``None`` for a Tahiti singleton left alone, RM-TAH-3), or
    raises TableViolation naming the group at fault.
    """
    where: dict[Card, int] = {}
    for i, group in enumerate(groups):
        for card in group:
            if card in where:
                raise TableViolation(
                    "duplicate_card", "RM-MOVE-5", f"{card} lies twice on the table", i
                )
            where[card] = i
    was = {c for g in before for c in g}
    missing = sorted(was - where.keys())
    if missing:
        raise TableViolation(
            "table_card_removed",
            "RM-MOVE-3",
            f"every card on the table must stay on it; missing {', '.join(missing)}",
            None,
        )
    hand = set(hand_cards)
    added = [c for c in where if c not in was]
    for card in added:
        if card not in hand:
            raise TableViolation(
                "not_in_hand", "RM-MOVE-5", f"{card} is not in the mover's hand", where[card]
            )
    if not added:
        raise TableViolation(
            "no_card_added", "RM-MOVE-1", "a move must add at least one card from the hand", None
        )
    singles = {g[0] for g in before if len(g) == 1} if variant.singletons else set()
    out: list[Group | None] = []
    for i, group in enumerate(groups):
        if len(group) == 1 and group[0] in singles:
            out.append(None)  # RM-TAH-3: an untouched singleton is exempt from RM-GRP-1
            continue
        try:
            out.append(_known_group(tuple(group), variant, _names_in(group, named)))
        except RuleViolation as e:
            raise TableViolation(e.code, e.rule_id, f"group {i + 1}: {e.message}", i) from None
    if first_play and variant.first_play_natural_run:
        _first_run(out, hand, variant.first_play_natural_run)
    return tuple(out)


# Most groups of a rebuilt table are the groups it already held, checked again at every
# play: a group's check depends only on its cards, the variant and its jokers' names, so
# the answers are kept (a few thousand, enough for every table in play in a process; a
# refusal is not kept and is raised again each time).
@lru_cache(maxsize=4096)
def _known_group(cards: tuple[Card, ...], variant: Variant, names: tuple[str, ...]) -> Group:
    jokers = [c for c in cards if _CARD.get(c, (1, ""))[0] == 0]
    return check_group(cards, variant, {j: n for j, n in zip(jokers, names, strict=False) if n})


def _names_in(group: Sequence[Card], named: Mapping[Card, str] | None) -> tuple[str, ...]:
    """The names of the group's jokers, in its order ("" for one without a name)."""
    if not named:
        return ()
    return tuple(named.get(c, "") for c in group if _CARD.get(c, (1, ""))[0] == 0)


def _faces(
    cards: Sequence[Card], variant: Variant, named: Mapping[Card, str]
) -> list[tuple[int, str]]:
    faces: list[tuple[int, str]] = []
    jokers = 0
    for card in cards:
        rs = _CARD.get(card)
        if rs is None:
            raise RuleViolation("bad_card", "", f"{card!r} is not a card of a rummy deck")
        if rs[0] == 0:
            jokers += 1
            if jokers > variant.jokers_per_group:
                rule = variant.joker_rule_id
                raise RuleViolation(
                    "too_many_jokers" if variant.jokers_per_group else "no_jokers",
                    rule,
                    f"this variant allows at most {variant.jokers_per_group} joker(s) a group",
                )
            name = named.get(card)
            if name is None:
                raise RuleViolation(
                    "joker_unnamed", "RM-JOKER-2", f"{card} must be named as the card it stands for"
                )
            rs = _FACE.get(name, (0, ""))
            if rs[0] == 0:
                raise RuleViolation("bad_card", "RM-JOKER-1", f"{card} named {name!r}: not a card")
        faces.append(rs)
    if len(set(cards)) < len(cards):
        raise RuleViolation("duplicate_card", "RM-MOVE-5", "a card is listed twice in a group")
    return faces


def _set(cards: Sequence[Card], faces: list[tuple[int, str]], variant: Variant) -> Group:
    if len(cards) > variant.max_set:
        raise RuleViolation(
            "set_too_long", "RM-GRP-2", f"a set holds {variant.max_set} cards at most"
        )
    # Distinct suits follow from distinct faces of one rank (checked by the caller).
    order = sorted(range(len(cards)), key=lambda k: SUITS.index(faces[k][1]))
    return _group("set", cards, faces, order)


def _run(cards: Sequence[Card], faces: list[tuple[int, str]], variant: Variant) -> Group:
    n = len(cards)
    low = [r for r, _ in faces]  # ace = 1
    high = [14 if r == 1 else r for r in low]  # ace = 14
    has_ace = 1 in low
    if n > variant.max_run:
        raise RuleViolation(
            "run_too_long", variant.ace_rule_id, f"a run holds {variant.max_run} cards at most"
        )
    readings = {"low": (low,), "high": (high,), "high_or_low": (low, high)}[variant.ace]
    for places in readings:
        if max(places) - min(places) == n - 1:  # faces are distinct, so consecutive
            order = sorted(range(n), key=places.__getitem__)
            return _group("run", cards, faces, order)
    if has_ace and any(max(p) - min(p) == n - 1 for p in (low, high)):
        raise RuleViolation(
            "ace_misplaced",
            variant.ace_rule_id,
            f"in {variant.name} the ace ranks {variant.ace.replace('_', ' ')} only",
        )
    if has_ace and _wraps(low):
        raise RuleViolation(
            "ace_round_the_corner",
            variant.ace_rule_id,
            "a run never turns the corner from king to ace to 2",
        )
    raise RuleViolation("run_gap", "RM-GRP-3", "a run's cards must follow each other")


def _wraps(ranks: list[int]) -> bool:
    """True if the ranks are consecutive only round the corner (… K A 2 …)."""
    taken = set(ranks)
    gaps = [r for r in range(1, 14) if r not in taken]
    return bool(gaps) and max(gaps) - min(gaps) == len(gaps) - 1 and 1 in taken and 13 in taken


def _group(
    kind: Literal["set", "run"],
    cards: Sequence[Card],
    faces: list[tuple[int, str]],
    order: list[int],
) -> Group:
    return Group(
        kind=kind,
        cards=tuple(cards[k] for k in order),
        faces=tuple(f"{RANKS[faces[k][0] - 1]}{faces[k][1]}" for k in order),
    )


def _first_run(groups: list[Group | None], hand: set[Card], need: int) -> None:
    """RM-VAT-5, RM-AMB-11: a new run from the hand with `need` natural cards in sequence."""
    for g in groups:
        if g is None or g.kind != "run" or not all(c in hand for c in g.cards):
            continue
        streak = 0
        for card, name in zip(g.cards, g.faces, strict=True):
            streak = streak + 1 if not card.startswith(JOKER) and card[:-2] == name else 0
            if streak >= need:
                return
    raise TableViolation(
        "first_play_needs_run",
        "RM-VAT-5",
        f"a first play must lay a new run of {need} natural cards of one suit from the hand",
        None,
    )
