"""The random rummy player (engine/rummy/autoplay.py), read exhaustively: with a generator
that picks each choice in turn, every play it can make from a hand, each once.

Written against the survivors of mutation testing (scripts/mutate.sh, docs/testing.md):
the random player's tests sampled a few seeded commands, so a run missing from its list,
or listed twice, or the two kinds of play swapped at exactly one half, went unnoticed.

Rules: RM-GRP-2, RM-GRP-3, RM-GRP-4, RM-ACE-1, RM-ACE-3, RM-AMB-6, RM-MOVE-1.
"""

from __future__ import annotations

from engine.rummy.autoplay import random_command
from engine.rummy.messages import Play
from engine.rummy.state import State
from tests.unit.rummy_support import cards, playing, table, trusting


class _Pick:
    """A generator whose `random()` is `half` and whose `randrange` picks index `at`."""

    def __init__(self, at: int, half: float) -> None:
        self.at, self.half, self.choices = at, half, 0

    def random(self) -> float:
        return self.half

    def randrange(self, stop: int, /) -> int:
        self.choices = stop
        return min(self.at, stop - 1)


def _every_play(state: State, half: float = 0.0) -> list[tuple[tuple[str, ...], ...]]:
    """Every table the random player can lay from seat 1's hand, in its order, with
    repeats (`half` below 0.5 puts a new group first, else a card laid off)."""
    first = _Pick(0, half)
    random_command(state, 1, first)
    out = []
    for at in range(first.choices):
        command = random_command(state, 1, _Pick(at, half))
        assert isinstance(command, Play)
        out.append(command.table)
    return out


def _new_groups(variant: str, hand: str) -> list[tuple[str, ...]]:
    state = playing(variant, [hand, "3D 9D"], stock="9C 9H")
    return [t[-1] for t in _every_play(state)]


def test_a_whole_suit_in_hand_gives_every_run_once_the_ace_low_or_high_never_both() -> None:
    """RM-GRP-3, RM-ACE-3, RM-AMB-6: with A..K of hearts (Machiavelli), every run of 3 to
    13 cards: A 2 3 with the ace low, Q K A with it high, A..K and 2..K A both 13 long;
    none with the ace at both ends, none listed twice."""
    runs = _new_groups("machiavelli", "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH")
    assert len(runs) == len(set(runs))
    hearts = cards("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH")
    high = (*hearts[1:], hearts[0])
    expected = {row[a:b] for row in (hearts, high) for a in range(11) for b in range(a + 3, 14)}
    assert set(runs) == expected
    assert len(runs) == 2 * 66 - 55  # the 55 runs of 2H..KH, without the ace, in both rows
    assert cards("AH 2H 3H") in runs and cards("QH KH AH") in runs
    assert hearts in runs and high in runs


def test_with_the_ace_high_only_q_k_a_is_a_run_and_a_2_3_is_not() -> None:
    """RM-ACE-1 (Manipulation): A H with Q H K H is laid as Q K A; with 2H 3H, nothing."""
    assert _new_groups("manipulation", "AH QH KH 2C") == [cards("QH KH AH")]
    state = playing(
        "manipulation", ["AH 2H 3H 9C", "3D 9D"], stock="9C#2 9H", **trusting("manipulation")
    )
    assert not isinstance(random_command(state, 1, _Pick(0, 0.0)), Play)


def test_a_suit_too_short_for_a_run_leaves_the_others_runs() -> None:
    """RM-GRP-3: one diamond makes no run, the hearts after it still do."""
    assert _new_groups("machiavelli", "2D 5H 6H 7H") == [cards("5H 6H 7H")]


def test_four_of_a_rank_in_four_suits_give_every_set_of_three_and_the_four() -> None:
    """RM-GRP-2: 7C 7D 7H 7S lay as any three of them or all four, each once."""
    sets = _new_groups("machiavelli", "7C 7D 7H 7S")
    expected = ("7C 7D 7H", "7C 7D 7S", "7C 7H 7S", "7D 7H 7S", "7C 7D 7H 7S")
    assert sorted(map(sorted, sets)) == sorted(sorted(cards(s)) for s in expected)


def test_from_one_half_up_a_card_laid_off_comes_first() -> None:
    """RM-MOVE-1: below one half the random player lays a new group first, from one half
    up it lays a card off first; with both kinds in hand the choice shows."""
    state = playing("machiavelli", ["7C 9S 9H 9D", "3D 9D#2"], stock="9C", on_table="4C 5C 6C")
    laid_off = table("4C 5C 6C 7C")
    assert _every_play(state, 0.5) == [laid_off]
    assert _every_play(state, 0.9) == [laid_off]
    new = _every_play(state, 0.4999)
    assert new and all(t[0] == table("4C 5C 6C")[0] for t in new)
