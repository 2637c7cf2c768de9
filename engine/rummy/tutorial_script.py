"""The data of the guided Manipulation lesson (engine/rummy/tutorial.py): the published
secret its round is dealt from, the table, and every move of it, the learner's and the
computer's (PF-MODE-3, PF-AMB-14).

A move is "draw" or the edits it makes to the table before it, groups named by their index
there: ("lay", cards) lays new cards as a group, ("add", group, cards) adds cards to a
group, ("take", ((group, card), ...), cards) takes cards out of groups (a run cut where the
card was, a set left as it is) to form a new group with the hand cards. `play_of` builds
the whole table a Play command carries from them, so the script stays readable and each
card it names can be checked against the deal.

The secret and the moves were found by scripts/find_rummy_lesson.py, which tries the
secrets SHA-256("sahra rummy lesson <i>"), deals each as the engine does and prints every
round that shows the lesson's steps, as the data below; here, i = 20862. Anyone can deal
the round again from `SECRET` with empty client seeds and compare.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal, NamedTuple

from engine.rummy.options import RummyOptions, options_from

__all__ = [
    "COMPUTER",
    "LEARNER",
    "OPTIONS",
    "SCRIPT",
    "SECRET",
    "SEEDS",
    "Edit",
    "Move",
    "Step",
    "Table",
    "play_of",
]

Table = tuple[tuple[str, ...], ...]
# ("lay", cards) | ("add", group, cards) | ("take", ((group, card), ...), cards)
Edit = tuple[Any, ...]
Move = Literal["draw"] | tuple[Edit, ...]

LEARNER = 1
COMPUTER = 2

OPTIONS: RummyOptions = options_from("manipulation", seats=2)
SEEDS = ("", "")  # PF-AMB-14: no client seeds, so E is the same for everyone
SECRET = "50a7622f272979cc7627493d51d16890a186b6cee71199a932c155b49aeb9cee"


class Step(NamedTuple):
    """One step: one command of the learner, then the computer's turn if it is its."""

    topic: str  # what the step teaches: the key of its texts (tutorial_text.py)
    move: Move  # the learner's
    computer: tuple[Move, ...]  # the computer's turn after it


SCRIPT: tuple[Step, ...] = (
    Step(
        "lay",
        (("lay", ("8C#1", "8D#2", "8H#1")),),
        ("draw", "draw", (("lay", ("5D#1", "5H#2", "5S#2")),)),
    ),
    Step(
        "add",
        (("add", 1, ("5C#2",)),),
        ("draw",) * 6 + ((("add", 0, ("8S#2",)),),),
    ),
    Step("draw_nothing", "draw", ()),
    Step(
        "take",
        (("take", ((0, "8S#2"),), ("9S#2", "10S#2")),),
        ("draw", (("lay", ("AC#2", "AH#1", "AS#2")),)),
    ),
    Step("remind", "draw", ()),
    Step(
        "play",
        (("add", 3, ("AD#2",)),),
        ("draw",) * 6 + ((("lay", ("KC#2", "KH#2", "KS#1")),),),
    ),
    Step("out", (("add", 4, ("KD#1",)),), ()),
)


def play_of(table: Sequence[Sequence[str]], edits: Sequence[Edit]) -> Table:
    """The whole table after `edits` of `table` (indexes are the table's before the move;
    new groups go at the end, a run split in two keeps its lower part in place)."""
    groups = [list(g) for g in table]
    new: list[list[str]] = []
    for edit in edits:
        match edit:
            case ("lay", cards):
                new.append(list(cards))
            case ("add", int(i), cards):
                groups[i].extend(cards)
            case ("take", taken, cards):
                for i, card in taken:
                    rest = [c for c in groups[i] if c != card]
                    low, high = _split(rest, card)
                    groups[i] = low or high
                    if low and high:
                        new.append(high)
                new.append([*(card for _, card in taken), *cards])
            case _:
                raise ValueError(f"not an edit of the lesson: {edit!r}")
    return tuple(tuple(sorted(g, key=_order)) for g in (*groups, *new))


def _split(rest: list[str], card: str) -> tuple[list[str], list[str]]:
    """A run without `card`: the cards below it and above it; a set: all of them, nothing."""
    place, suit = _place(card)
    if any(_place(c)[1] != suit for c in rest):
        return rest, []
    return [c for c in rest if _place(c)[0] < place], [c for c in rest if _place(c)[0] > place]


def _place(card: str) -> tuple[int, str]:
    """RM-ACE-1: the ace above the king (place 14)."""
    f = _face(card)
    rank = f[:-1]
    return _PLACES[rank], f[-1]


def _order(card: str) -> tuple[int, int]:
    place, suit = _place(card)
    return place, "CDHS".index(suit)


def _face(card: str) -> str:
    return card.split("#", 1)[0]


_PLACES = {r: i for i, r in enumerate(("2", "3", "4", "5", "6", "7", "8", "9", "10"), 2)}
_PLACES.update({"J": 11, "Q": 12, "K": 13, "A": 14})
