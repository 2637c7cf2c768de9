"""Every state the rummy events fold into is a State the store can keep: its snapshot (the
game's State Struct, docs/deal-format.md §9) encodes and decodes to the same state, field
types included, after every event of whole games.

Written against the survivors of mutation testing (scripts/mutate.sh, docs/testing.md):
a flag folded as None instead of False (`locked`, `reminded`, the seed window) behaved
the same in every rule, but a snapshot holding it could no longer be read back; and no
test read every field a new round starts from, or what a stopped Shanghai game shows.

Rules: PF-FAIR-1, PF-AMB-12, RM-CORE-5, RM-CORE-7, RM-OPT-1a, RM-OPT-3b, RM-AMB-22,
RM-TAH-2, RM-CAR-18, RM-BLOCK-2, RM-VAT-5, PF-FAIR-3.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec
import pytest

from engine.rummy.evolve import evolve
from engine.rummy.messages import (
    Command,
    CommitSeed,
    Deal,
    Event,
    Pass,
    Play,
    RoundDealt,
    StopGame,
    Touch,
)
from engine.rummy.options import options_from
from engine.rummy.state import State
from engine.rummy.view import view
from tests.unit.rummy_support import SECRET, cards, playing, step, table

_SYSTEM = 0
_GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "rummy"
_decode = msgspec.json.Decoder(State).decode


class _Step(msgspec.Struct, frozen=True, kw_only=True):
    seat: int
    command: Command
    events: tuple[Event, ...]


class _Golden(msgspec.Struct, frozen=True, kw_only=True):
    options: dict[str, Any]
    steps: tuple[_Step, ...]


@pytest.mark.parametrize("variant", sorted(p.stem for p in _GOLDEN.glob("*.json")))
def test_every_folded_state_of_a_golden_game_reads_back_as_itself(variant: str) -> None:
    """docs/deal-format.md §9: a snapshot is the State encoded; after every stored event
    of each variant's golden game (deals, draws, plays, scores, the blocked round,
    Carousel's knock, Shanghai stopped by its host) the state encodes and decodes to
    itself, so no field holds a value of another type."""
    golden = msgspec.json.decode((_GOLDEN / f"{variant}.json").read_bytes(), type=_Golden)
    options = dict(golden.options)
    state = State(options=options_from(options.pop("variant"), **options))
    for entry in golden.steps:
        for event in entry.events:
            state = evolve(state, event)
            assert _decode(msgspec.json.encode(state)) == state, type(event).__name__
    assert state.phase == "over"


def test_a_dealt_round_starts_unlocked_and_without_a_reminder_for_every_seat() -> None:
    """RM-OPT-3b, RM-OPT-1a, PF-AMB-12: a round is dealt with no seat locked, no reminder
    shown and the client seeds' window closed, as plain booleans in every view."""
    golden = msgspec.json.decode((_GOLDEN / "tahiti.json").read_bytes(), type=_Golden)
    options = dict(golden.options)
    state = State(options=options_from(options.pop("variant"), **options))
    for entry in golden.steps:
        for event in entry.events:
            state = evolve(state, event)
        if state.phase == "play":
            break
    assert (state.locked, state.reminded, state.seed_window) == (False, False, False)
    assert view(state, 1).locked is False


@pytest.mark.parametrize("variant", sorted(p.stem for p in _GOLDEN.glob("*.json")))
def test_every_round_of_a_golden_game_is_dealt_on_a_fresh_table(variant: str) -> None:
    """RM-CORE-5, RM-CORE-7, RM-TAH-2, RM-CAR-18, RM-BLOCK-2, RM-VAT-5: a dealt round starts
    with the dealt hands and stock, only Tahiti's singletons on the table, no joker named,
    nobody opened, no pass counted, no final turns, no lock, no reminder, the client
    seeds' window closed, the last round's end no longer shown, and the first player on
    turn 1; the running totals carry on."""
    golden = msgspec.json.decode((_GOLDEN / f"{variant}.json").read_bytes(), type=_Golden)
    options = dict(golden.options)
    state = State(options=options_from(options.pop("variant"), **options))
    dealt = 0
    for entry in golden.steps:
        for event in entry.events:
            before = state
            state = evolve(state, event)
            if not isinstance(event, RoundDealt):
                continue
            dealt += 1
            seats = state.seats
            assert (state.hands, state.stock) == (event.hands, event.stock)
            assert state.table == tuple((c,) for c in event.singletons)
            assert (state.phase, state.turn, state.turn_no, state.first) == (
                "play",
                event.first,
                1,
                event.first,
            )
            assert (state.names, state.opened) == ((), (False,) * seats)
            assert (state.drawn, state.passes, state.final_last) == (0, 0, 0)
            assert (state.locked, state.reminded, state.seed_window) == (False, False, False)
            assert state.result is None
            assert state.totals == (before.totals or (0,) * seats)
    assert dealt >= 1


def test_a_lock_folds_to_a_plain_flag_the_snapshot_reads_back() -> None:
    """RM-OPT-3b: a Tahiti seat under revert_draw_3 touches the table (locked), then goes
    out with the move; the state reads back from its snapshot after each step."""
    state = playing(
        "tahiti",
        ["7S 7H 7D", "3D 4D 9C"],
        stock="9D 9H",
        secret=SECRET,
        incomplete_move="revert_draw_3",
    )
    _, state = step(state, 1, Touch())
    assert state.locked is True and state.reminded is False
    assert _decode(msgspec.json.encode(state)) == state
    _, state = step(state, 1, Play(table=table("7S 7H 7D"), added=cards("7S 7H 7D")))
    assert state.result is not None and state.result.how == "out"
    assert _decode(msgspec.json.encode(state)) == state


def _next_round(state: State) -> State:
    for command in (CommitSeed(secret="6f" * 32), Deal()):
        _, state = step(state, _SYSTEM, command)
    assert state.phase == "play"
    return state


def test_a_round_after_a_blocked_one_starts_with_no_pass_counted() -> None:
    """RM-BLOCK-2: Manipulation's round 1 ends blocked (every seat passed in a row with the
    stock empty); round 2 counts its passes from 0."""
    state = playing(
        "manipulation",
        ["7S 9H", "3D 5C"],
        stock="",
        passes=1,
        turn=2,
        secret=SECRET,
        compulsory_play="trust_player",
    )
    _, state = step(state, 2, Pass())
    assert state.result is not None and state.result.how == "blocked"
    assert _next_round(state).passes == 0


def test_a_round_after_carousels_final_turns_has_no_final_turns() -> None:
    """RM-CAR-18: round 1 ends with the last final turn (seat 2 passes); round 2 starts
    with no final turns pending."""
    state = playing("carousel", ["2C 3C", "4D 5D"], stock="", final_last=2, turn=2, secret=SECRET)
    _, state = step(state, 2, Pass())
    assert state.result is not None and not state.result.game_over
    assert _next_round(state).final_last == 0


def test_a_shanghai_game_stopped_in_a_round_counts_nothing_of_it_and_nobody_is_on_turn() -> None:
    """RM-AMB-22: the host ends the game during a round: that round is not counted (no
    points), nobody is on turn any more, and the round's secret is revealed."""
    state = playing(
        "shanghai",
        ["7S 8S 9S", "3D 4D"],
        stock="9C",
        secret=SECRET,
        compulsory_play="trust_player",
        host=2,
        turn=2,
        totals=(30, 12),
    )
    _, over = step(state, 2, StopGame())
    assert over.result is not None
    assert (over.phase, over.turn) == ("over", 0)
    assert (over.result.how, over.result.points, over.result.totals) == (
        "stopped",
        (0, 0),
        (30, 12),
    )
    assert over.result.secret == SECRET


def test_a_shanghai_game_stopped_between_rounds_keeps_the_last_rounds_secret() -> None:
    """RM-AMB-22, PF-FAIR-3: stopped after round 1 was scored and revealed, the game's end
    still shows round 1's revealed secret (there is no round in play to reveal)."""
    state = playing(
        "shanghai",
        ["7S 8S 9S", "3D 4D"],
        stock="9C",
        secret=SECRET,
        compulsory_play="trust_player",
        host=2,
    )
    _, state = step(state, 1, Play(table=table("7S 8S 9S"), added=cards("7S 8S 9S")))
    assert state.phase == "seeding"
    _, over = step(state, 2, StopGame())
    assert over.result is not None and over.result.game_over
    assert (over.turn, over.result.secret) == (0, SECRET)
