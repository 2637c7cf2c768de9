"""The end-of-deal screen (seed 000 «تُكشف أوراق اللاعبين المتبقية», PF-REVEAL-1/2): when a
deal ends every view — each seat's and a spectator's — shows every seat's remaining cards
with the breakdown, until the next deal is dealt; while a deal is played no view shows
another seat's hand."""

from __future__ import annotations

import random

import msgspec
import pytest

from engine import banakil
from engine.banakil.autoplay import random_step
from engine.banakil.messages import CommitSeed, Deal, DealEnded, DealScored
from engine.banakil.scoring import hand_value
from engine.banakil.state import State
from engine.banakil.view import DealReveal
from tests.support import apply


def _finished(preset: str, seed: int) -> State:
    """A deal played at random to its end, where seat 1 is left holding cards."""
    rng = random.Random(seed)
    for _ in range(50):
        state = banakil.initial(banakil.options_from(preset, target_score=1_000_000))
        state, _ = apply(state, 0, CommitSeed(secret=rng.randbytes(32).hex()))
        while True:
            seat, command, events = random_step(state, rng)
            state, _ = apply(state, seat, command)
            if any(isinstance(e, DealEnded) for e in events):
                break
        if state.hands[0]:
            return state
    raise AssertionError("no deal left seat 1 with cards")


@pytest.mark.parametrize("preset", ["classic", "sahrat"])
def test_a_finished_deal_shows_every_seats_remaining_cards_to_every_view_pf_reveal_1(
    preset: str,
) -> None:
    state = _finished(preset, seed=7)
    scores = state.last_scores
    assert isinstance(scores, DealScored)
    expected = DealReveal(
        deal=1,
        reason=state.end_reason or "",
        finisher=state.finisher,
        hands=state.hands,
        scores=scores,
    )
    assert state.hands[0] and expected.hands[0] == state.hands[0]
    public = banakil.view(state, None)
    for seat in (None, 1, 2, 3, 4):
        shown = banakil.view(state, seat)
        assert shown.reveal == expected, seat  # seat 2 and the spectator see seat 1's cards
    # The breakdown: each hand's value, each seat's melds, bonus and score, the teams'
    # deal scores and running totals (PF-REVEAL-1; in sahrat the team figures, -2).
    for player in scores.players:
        assert player.hand == hand_value(state.hands[player.seat - 1])
    assert tuple(t.total for t in scores.teams) == public.totals
    if preset == "sahrat":
        assert all(t.melds >= 0 and t.hands >= 0 for t in scores.teams)
    wire = msgspec.json.decode(msgspec.json.encode(banakil.view(state, 2)))
    assert wire["reveal"]["hands"][0] == list(state.hands[0])


def test_the_reveal_stays_up_until_the_next_deal_is_dealt_and_no_longer() -> None:
    """PF-REVEAL-1/3: the next commitment comes while the screen is up; the next deal's
    cards take its place, and then every other hand is hidden again."""
    state = _finished("sahrat", seed=3)
    state, _ = apply(state, 0, CommitSeed(secret="77" * 32))
    assert banakil.view(state, None).reveal is not None
    state, _ = apply(state, 0, Deal())
    for seat in (None, 1, 2, 3, 4):
        shown = banakil.view(state, seat)
        assert shown.reveal is None
        assert shown.hand == (state.hands[seat - 1] if seat else None)


def test_no_view_shows_another_hand_while_a_deal_is_played() -> None:
    rng = random.Random(5)
    state = banakil.initial(banakil.options_from("classic"))
    state, _ = apply(state, 0, CommitSeed(secret="31" * 32))
    while True:
        seat, command, events = random_step(state, rng)
        if any(isinstance(e, DealEnded) for e in events):
            break
        state, _ = apply(state, seat, command)
        for viewer in (None, 1, 2):
            assert banakil.view(state, viewer).reveal is None
