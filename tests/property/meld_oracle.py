"""A brute-force oracle for Banakil melds and add-ons, written from `rules/banakil.md` alone.

It shares no code with `engine/banakil/melds.py` (not even the card tables): it tries every
reading a meld could have — each run direction, suit and starting place, the ace as 1 or
as 14, every place or suit each joker and wild two could take — and keeps the readings that
satisfy the definitions. An outcome is the whole meld as the engine records it: its kind
and, for each card, (card, seat that placed it, face it stands for); a run low to high, a
set sorted. A command is legal exactly when the set of outcomes is not empty, and a legal
engine answer must be one of them.

Definitions used, by rule ID:
- BK-MELD-1: 3 or more cards. BK-MELD-2/3: a run is one suit on consecutive places 1..14
  (an ace is 1 or 14), never both ends (BK-AMB-15, so at most 13 cards).
- BK-MELD-4..7: a set is 3 or 4 cards of rank A or 3, no suit twice; its substitutes stand
  for distinct missing suits (BK-AMB-10); 2s alone never form one (BK-MELD-6).
- BK-WILD-1: at most one joker and one wild two per meld. BK-WILD-3, BK-AMB-14: a 2 is a
  natural (real) card only in a run, of the run's suit, on place 2; in a set a 2 is always a
  substitute. BK-WILD-C1/S1 (BK-OPT-12): at least `min_real_cards` real cards.
  BK-MELD-C1/S1 (BK-OPT-13): a wild two in a set only with `wild_two_in_sets`.
- BK-EX-6 reads A♠ JK 2♣ as a set (illegal in both rule sets) although a run reading
  A♠ JK=2♠ 2♣=3♠ would have one real card: when the kind is not named, a meld whose only
  real card is an ace or a three, with substitutes, is a set. (This oracle's reading of the
  example; the rules give no general statement.)
- Add-ons (BK-TEAM-3/4): every table card stays in the meld; real cards keep their place;
  a joker keeps the card it stands for (BK-JOKER-1), except that in a set it stands for "a
  missing suit" (BK-AMB-10) and moves to another missing suit only when its own suit is
  filled. The meld's wild two keeps its card unless moved: `classic` (`any_position`,
  BK-WILD-C2/C3, BK-AMB-13) lets it go to any legal place, and must when its real card
  arrives; `sahrat` (`ends_on_real_card`, BK-WILD-S2, BK-AMB-12) moves it only when its
  real card arrives, and then only to an end of the resulting run, or in a set to another
  missing suit.
- The command's `wild_as` names the card the meld's wild two stands for afterwards (the
  old one or one added now) and `joker_as` the card an added joker stands for; a name no
  outcome can honour makes the command illegal. Unnamed, any legal place will do.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import permutations, product
from typing import NamedTuple

__all__ = ["Rules", "add_outcomes", "meld_outcomes", "place_name"]

_NAMES = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
_SUITS = ("C", "D", "H", "S")
_PLACES = range(1, 15)  # 1 = ace low … 13 = king, 14 = ace high

Entry = tuple[str, int, str]  # (card id, seat, face it stands for)
Outcome = tuple[str, tuple[Entry, ...]]  # (kind, entries)


class Rules(NamedTuple):
    """The three options that decide melds (BK-OPT-12, BK-OPT-13, BK-OPT-16)."""

    min_real_cards: int
    wild_two_in_sets: bool
    wild_two_relocation: str  # "any_position" (classic) | "ends_on_real_card" (sahrat)


def _face(card: str) -> str:
    return card.split("#", maxsplit=1)[0]


def _is_joker(card: str) -> bool:
    return _face(card) == "JK"


def _rank(card: str) -> int:
    """1 (A) … 13 (K); 0 for a joker."""
    f = _face(card)
    return 0 if f == "JK" else _NAMES.index(f[:-1]) + 1


def _suit(card: str) -> str:
    return "" if _is_joker(card) else _face(card)[-1]


def place_name(place: int, suit: str) -> str:
    """The face a run place names: place 14 is the high ace."""
    return f"{_NAMES[(place - 1) % 13]}{suit}"


def _place_of(face: str, top: bool) -> int:
    """The place of a run face; an ace is 14 when it is the top card."""
    r = _NAMES.index(face[:-1]) + 1
    return 14 if r == 1 and top else r


# --- whole runs -----------------------------------------------------------------------------


def _run_ok(placed: dict[int, str], suit: str, rules: Rules) -> bool:
    """A run given as place -> card, judged by BK-MELD-1..3, BK-WILD-1..3, C1/S1."""
    if len(placed) < 3 or len(placed) > 13:
        return False
    lo, hi = min(placed), max(placed)
    if lo < 1 or hi > 14 or hi - lo + 1 != len(placed):
        return False
    jokers = wild_twos = real = 0
    for place, card in placed.items():
        r = _rank(card)
        if r == 0:
            jokers += 1
        elif r == 2 and not (_suit(card) == suit and place == 2):
            wild_twos += 1
        elif _suit(card) == suit and (r == place or (r == 1 and place == 14)):
            real += 1
        else:
            return False
    return jokers <= 1 and wild_twos <= 1 and real >= rules.min_real_cards


def _run_entries(placed: dict[int, str], suit: str, seats: dict[str, int]) -> tuple[Entry, ...]:
    return tuple((placed[p], seats[placed[p]], place_name(p, suit)) for p in sorted(placed))


def _real_in_run(placed: dict[int, str], suit: str) -> int:
    return sum(
        1
        for p, c in placed.items()
        if _rank(c) not in (0, 2) or (_rank(c) == 2 and _suit(c) == suit and p == 2)
    )


def _new_runs(cards: Sequence[str], seat: int, rules: Rules, kind_named: bool) -> set[Outcome]:
    out: set[Outcome] = set()
    seats = dict.fromkeys(cards, seat)
    n = len(cards)
    for listed in (list(cards), list(reversed(cards))):  # low to high, or high to low
        for suit in _SUITS:
            for lo in _PLACES:
                placed = {lo + i: c for i, c in enumerate(listed)}
                if not _run_ok(placed, suit, rules):
                    continue
                if not kind_named and _real_in_run(placed, suit) == 1 and n >= 3:
                    (only,) = (
                        c
                        for p, c in placed.items()
                        if _rank(c) not in (0, 2) or (_suit(c) == suit and p == 2)
                    )
                    if _rank(only) in (1, 3):
                        continue  # BK-EX-6: read as a set
                out.add(("run", _run_entries(placed, suit, seats)))
    return out


# --- whole sets -----------------------------------------------------------------------------


def _set_readings(
    cards: Sequence[str], seats: dict[str, int], rules: Rules, held: dict[str, str]
) -> set[Outcome]:
    """Every legal reading of `cards` as a set. `held`: substitute -> suit it stood for on
    the table, kept while that suit is still missing (BK-JOKER-1, BK-AMB-10/12)."""
    if not 3 <= len(cards) <= 4:
        return set()
    real = [c for c in cards if _rank(c) not in (0, 2)]
    subs = [c for c in cards if _rank(c) in (0, 2)]
    if not real or len({_rank(c) for c in real}) != 1 or _rank(real[0]) not in (1, 3):
        return set()
    suits = [_suit(c) for c in real]
    twos = sum(1 for c in subs if _rank(c) == 2)
    jokers = len(subs) - twos
    if len(set(suits)) != len(suits) or jokers > 1 or twos > 1:
        return set()
    if twos and not rules.wild_two_in_sets:
        return set()
    if len(real) < rules.min_real_cards:
        return set()
    name = _NAMES[_rank(real[0]) - 1]
    missing = [s for s in _SUITS if s not in suits]
    out: set[Outcome] = set()
    for chosen in permutations(missing, len(subs)):
        given = dict(zip(subs, chosen, strict=True))
        if any(s in missing and given[c] != s for c, s in held.items()):
            continue
        entries = [(c, seats[c], _face(c)) for c in real]
        entries += [(c, seats[c], f"{name}{given[c]}") for c in subs]
        out.add(("set", tuple(sorted(entries))))
    return out


# --- public: new melds and add-ons --------------------------------------------------------


def meld_outcomes(cards: Sequence[str], kind: str | None, seat: int, rules: Rules) -> set[Outcome]:
    """Every legal way to lay `cards` (listed as in the command) as a new meld."""
    if len(set(cards)) != len(cards):
        return set()
    out: set[Outcome] = set()
    if kind in (None, "run"):
        out |= _new_runs(cards, seat, rules, kind_named=kind == "run")
    if kind in (None, "set"):
        out |= _set_readings(cards, dict.fromkeys(cards, seat), rules, {})
    return out


def add_outcomes(
    meld: Sequence[Entry],
    kind: str,
    added: Sequence[str],
    seat: int,
    rules: Rules,
    wild_as: str | None = None,
    joker_as: str | None = None,
) -> set[Outcome]:
    """Every legal result of adding `added` to the table meld `meld` (entries low to high
    for a run), honouring `wild_as` and `joker_as` when they are named."""
    seats = {c: s for c, s, _ in meld} | dict.fromkeys(added, seat)
    every = [c for c, _, _ in meld] + list(added)
    if len(set(every)) != len(every) or sum(1 for c in every if _is_joker(c)) > 1:
        return set()  # one card twice, or two jokers (BK-WILD-1)
    if kind == "set":
        if wild_as is not None or joker_as is not None:
            return set()  # a set's substitutes take missing suits; there is no place to name
        held = {c: f[-1] for c, _, f in meld if _rank(c) in (0, 2)}
        return _set_readings([c for c, _, _ in meld] + list(added), seats, rules, held)
    return set(_add_to_run(meld, added, seats, rules, wild_as, joker_as))


def _add_to_run(
    meld: Sequence[Entry],
    added: Sequence[str],
    seats: dict[str, int],
    rules: Rules,
    wild_as: str | None,
    joker_as: str | None,
) -> Iterator[Outcome]:
    suit = meld[0][2][-1]
    first = _place_of(meld[0][2], top=False)  # a run of 3+ never starts on the high ace
    fixed: dict[int, str] = {}
    old_wild: tuple[str, int] | None = None
    for i, (card, _, stands) in enumerate(meld):
        if _rank(card) == 2 and stands != _face(card):
            old_wild = (card, first + i)
        else:
            fixed[first + i] = card  # real cards and the locked joker keep their place
    # Each moving card with the places it may take.
    choices: list[tuple[str, list[int]]] = []
    for card in added:
        r = _rank(card)
        if r == 0:
            places = _named(joker_as, suit) if joker_as is not None else list(_PLACES)
        elif r == 2:
            places = list(_PLACES)
        elif _suit(card) != suit:
            return
        else:
            places = [1, 14] if r == 1 else [r]
        choices.append((card, places))
    if old_wild is not None:
        choices.append((old_wild[0], list(_PLACES)))
    if sum(1 for c, _ in choices if _rank(c) == 2) > 2:
        return  # at most one natural 2 (place 2) and one wild two: no need to try them all
    wild_targets = _named(wild_as, suit) if wild_as is not None else None
    if joker_as is not None and not any(_rank(c) == 0 for c in added):
        return  # only an added joker takes a named card; a table joker is locked
    cards = [c for c, _ in choices]
    for places in product(*(p for _, p in choices)):
        if len(set(places)) != len(places) or set(places) & set(fixed):
            continue
        placed = dict(fixed) | dict(zip(places, cards, strict=True))
        if not _run_ok(placed, suit, rules):
            continue
        wilds = [
            p for p, c in placed.items() if _rank(c) == 2 and not (_suit(c) == suit and p == 2)
        ]
        if wild_targets is not None and not (len(wilds) == 1 and wilds[0] in wild_targets):
            continue
        if old_wild is not None and not _wild_move_ok(old_wild, placed, suit, rules, wild_as):
            continue
        yield "run", _run_entries(placed, suit, seats)


def _wild_move_ok(
    old: tuple[str, int], placed: dict[int, str], suit: str, rules: Rules, wild_as: str | None
) -> bool:
    """BK-WILD-C2/C3 (classic) and BK-WILD-S2 (sahrat): where the meld's wild two may go."""
    card, was = old
    now = next(p for p, c in placed.items() if c == card)
    # Displaced: its real card now holds its place (a substitute never pushes it out).
    occupant = placed.get(was, card)
    displaced = occupant != card and (
        _rank(occupant) not in (0, 2) or (_rank(occupant) == 2 and was == 2)
    )
    if not displaced:
        # It stays unless `wild_as` moves it (classic, BK-WILD-C3): then to the named card.
        moved = rules.wild_two_relocation == "any_position" and wild_as is not None
        return now == was or (moved and now in _named(wild_as or "", suit))
    if rules.wild_two_relocation == "any_position":
        return True
    return now in (min(placed), max(placed))  # BK-WILD-S2: to an end of the run


def _named(text: str, suit: str) -> list[int]:
    """The places a named face can take in a run of `suit` (an ace: 1 or 14); none when
    the face is not of the run's suit or not a face at all."""
    f = text.strip().upper()
    if len(f) < 2 or f[-1] != suit or f[:-1] not in _NAMES:
        return []
    r = _NAMES.index(f[:-1]) + 1
    return [1, 14] if r == 1 else [r]
