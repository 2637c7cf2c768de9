"""Every refusal of a Bunco table says its code, its rule and its sentence, and what each
event leaves in the state (written against the survivors of mutation testing,
docs/testing.md).

Rules: BU-SET-7, BU-ROLL-1, BU-END-2, BU-END-5, BU-RND-3, BU-OPT-2, BU-SIZE-4, BU-EVE-1,
BU-AMB-1, BU-AMB-4, BU-AMB-6, BU-AMB-9, PF-FAIR-1, PF-FAIR-3, PF-TIMER-7, PF-TIMER-8,
PF-AMB-12, PF-ROOM-2.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import msgspec
import pytest
from msgspec.structs import replace

from engine.bunco.autoplay import next_table, random_step
from engine.bunco.game import GAME
from engine.bunco.messages import (
    AssignSeats,
    CommitSeed,
    Deal,
    DiceRolled,
    EveningEnded,
    Roll,
    RollOffRolled,
    RoundEnded,
    SendClientSeed,
    Timeout,
)
from engine.bunco.movement import rotation
from engine.bunco.options import options_from
from engine.bunco.rules import decide
from engine.bunco.state import Evening, State
from engine.bunco.view import view
from engine.errors import RuleViolation
from engine.fairness import CloseSeedWindow, SeedWindowClosed
from engine.rummy.messages import Draw
from tests.unit.bunco_support import (
    ENTROPY,
    SECRET,
    find,
    fresh_caches,  # noqa: F401 - autouse, see its docstring
    playing,
    step,
)

_SYSTEM = 0
Dice = tuple[int, int, int]


def _refusal(state: State, seat: int, command: object) -> tuple[str, str, str]:
    before = msgspec.json.encode(state)
    with pytest.raises(RuleViolation) as caught:
        decide(state, seat, command)  # type: ignore[arg-type]
    assert msgspec.json.encode(state) == before
    return caught.value.code, caught.value.rule_id, caught.value.message


def _hits(n: int, target: int) -> Callable[[Dice], bool]:
    return lambda d: d.count(target) == n and len(set(d)) > 1


def _committed(players: int = 8, **options: object) -> State:
    state = GAME.initial(options_from(players=players, **options), 1)
    _, state = step(state, _SYSTEM, CommitSeed(secret=SECRET))
    return state


# --- the round's start and the host's seating -------------------------------------------


def test_only_the_system_starts_a_committed_round_pf_fair_1() -> None:
    fresh = GAME.initial(options_from(players=8), 1)
    waiting = ("wrong_phase", "PF-FAIR-1", "no committed round is waiting")
    assert _refusal(fresh, _SYSTEM, Deal()) == waiting
    assert _refusal(_committed(), 2, Deal()) == (
        "system_only",
        "PF-FAIR-1",
        "only the system starts a round",
    )
    assert _refusal(playing(8), _SYSTEM, Deal()) == waiting  # a round in play has its secret


def test_the_hosts_seating_refusals_bu_set_7() -> None:
    state = _committed()
    good = ((1, 2, 3, 4), (5, 6, 7, 8))
    assert _refusal(state, 2, AssignSeats(tables=good)) == (
        "host_only",
        "BU-SET-7",
        "only the host assigns the seats",
    )
    sizes = "8 places sit at 2 table(s) of 4"
    assert _refusal(state, 1, AssignSeats(tables=((1, 2, 3, 4, 5), (6, 7, 8)))) == (
        "bad_seating",
        "BU-SET-7",
        sizes,
    )
    assert _refusal(state, 1, AssignSeats(tables=good[:1])) == ("bad_seating", "BU-SET-7", sizes)
    assert _refusal(state, 1, AssignSeats(tables=((1, 2, 3, 4), (5, 6, 7, 9)))) == (
        "bad_seating",
        "BU-SET-7",
        "every place from 1 to 8 sits exactly once",
    )
    fresh = GAME.initial(options_from(players=8), 1)
    assert _refusal(fresh, 1, AssignSeats(tables=good)) == (
        "wrong_phase",
        "BU-SET-7",
        "seats are assigned once the first round is committed",
    )
    rolled = replace(playing(8), rolled=True)
    assert _refusal(rolled, 1, AssignSeats(tables=good)) == (
        "seats_fixed",
        "BU-SET-7",
        "seats are assigned before the first roll of the evening",
    )


def test_the_hosts_seating_of_four_is_the_rotations_p1_to_p4_bu_amb_9() -> None:
    state = _committed(4)
    _, state = step(state, 1, AssignSeats(tables=((3, 1, 4, 2),)))
    assert state.order == (3, 1, 4, 2)
    k = find(_hits(2, 1))
    _, state = step(state, _SYSTEM, Deal())
    table = replace(state.tables[0], scores=(19, 0))
    state = replace(state, rolls=k, entropy=ENTROPY, tables=(table,))
    events, _ = step(state, 3, Roll())
    ended = next(e for e in events if isinstance(e, RoundEnded))
    assert ended.tables == rotation((3, 1, 4, 2), 2) == ((3, 4, 1, 2),)


# --- rolls ------------------------------------------------------------------------------


def test_roll_refusals_name_the_reason_bu_roll_1() -> None:
    assert _refusal(_committed(), 1, Roll()) == (
        "wrong_phase",
        "BU-ROLL-1",
        "no round is being played",
    )
    state = playing(8)
    assert _refusal(state, 9, Roll()) == ("not_a_player", "BU-ROLL-1", "seat 9 plays at no table")
    assert _refusal(state, 0, Roll()) == ("not_a_player", "BU-ROLL-1", "seat 0 plays at no table")
    assert _refusal(state, 6, Roll()) == (
        "not_your_turn",
        "BU-ROLL-1",
        "it is seat 5's roll at your table",
    )
    assert _refusal(state, 2, Roll()) == (
        "not_your_turn",
        "BU-ROLL-1",
        "it is seat 1's roll at your table",
    )
    over = replace(state, phase="over")
    assert _refusal(over, 1, Roll()) == (
        "evening_over",
        "BU-RND-3",
        "the evening's last round is over",
    )
    rang = replace(state, bell=1)
    assert _refusal(rang, 5, Roll()) == (
        "bell_rang",
        "BU-END-2",
        "the bell has rung: no further rolls at your table in this round",
    )


def test_timeout_refusals_pf_timer_8() -> None:
    state = playing(8)
    stale = ("stale_timeout", "PF-TIMER-8", "that roll is already made")
    assert _refusal(state, 1, Timeout(round=1, table=1, roll=1)) == (
        "system_only",
        "PF-TIMER-8",
        "only the clock times a roll out",
    )
    assert _refusal(state, _SYSTEM, Timeout(round=2, table=1, roll=1)) == stale
    assert _refusal(state, _SYSTEM, Timeout(round=1, table=3, roll=1)) == stale
    assert _refusal(state, _SYSTEM, Timeout(round=1, table=0, roll=1)) == stale
    assert _refusal(state, _SYSTEM, Timeout(round=1, table=1, roll=2)) == stale
    assert _refusal(_committed(), _SYSTEM, Timeout(round=1, table=1, roll=1)) == stale


def test_another_games_command_is_not_a_command_of_this_table() -> None:
    assert _refusal(playing(4), 1, Draw()) == (
        "not_now",
        "",
        "Draw is not a command of this table",
    )


# --- the seeds of a round ---------------------------------------------------------------


def test_one_client_seed_a_seat_while_the_window_is_open_pf_amb_12() -> None:
    state = _committed()
    _, state = step(state, 3, SendClientSeed(seed="abc"))
    assert state.seeds_sent == (False, False, True, False, False, False, False, False)
    assert _refusal(state, 3, SendClientSeed(seed="again"))[0] == "seed_already_sent"
    (closed,), shut = step(state, _SYSTEM, CloseSeedWindow())
    assert closed == SeedWindowClosed(deal=1) and shut.seed_window is False
    assert _refusal(shut, 4, SendClientSeed(seed="late"))[0] == "seed_window_closed"
    _, started = step(state, _SYSTEM, Deal())
    assert started.seed_window is False  # a bool in the state, as its snapshot stores it
    assert _refusal(started, 4, SendClientSeed(seed="late"))[0] == "seed_window_closed"
    assert started.entropy != playing(8).entropy  # seat 3's seed is in E


# --- what the events leave --------------------------------------------------------------


def test_a_round_starts_clean_and_shows_the_commitment_pf_fair_3() -> None:
    state = _committed()
    assert view(state, 1).commitment == state.commitment is not None
    state = replace(state, bell=2, last_table=2)
    _, started = step(state, _SYSTEM, Deal())
    assert (started.bell, started.last_table, started.rolls) == (0, 0, 0)
    assert view(started, 1).bell == 0 and GAME.summary(started) is None


def test_a_roll_leaves_its_table_its_dice_and_the_next_table_bu_amb_4() -> None:
    state = playing(12)
    (rolled,), after = step(state, 5, Roll())
    assert isinstance(rolled, DiceRolled)
    assert after.last_table == 2 and next_table(after) == 3
    assert after.tables[1].last == rolled.dice
    assert view(after, 6).tables[1].last == rolled.dice


def test_two_tied_tables_both_roll_off_before_the_round_ends_bu_end_5() -> None:
    """BU-END-5, BU-AMB-6: the middle table decides first; the round waits for the low."""
    k = find(_hits(1, 2), _hits(1, 2), _hits(0, 2), _hits(1, 2), _hits(0, 2))
    state = playing(12, target=2, rolls=k, scores=[(20, 0), (3, 3), (5, 5)])
    events, state = step(state, 1, Roll())
    assert events[1].ties == (2, 3)  # type: ignore[attr-defined]
    _, state = step(state, 5, Roll())
    (decided,), state = step(state, 6, Roll())
    assert isinstance(decided, RollOffRolled) and decided.winner == 1
    assert state.last_table == 2 and state.tables[1].last == decided.dice
    assert GAME.awaiting(state) == (9,)
    _, state = step(state, 9, Roll())
    events, state = step(state, 10, Roll())
    ended = next(e for e in events if isinstance(e, RoundEnded))
    assert ended.winners == (1, 1, 1)


def test_the_rounds_end_is_kept_with_its_revealed_secret_pf_fair_3() -> None:
    k = find(_hits(1, 3))
    state = playing(8, target=3, rolls=k, scores=[(20, 4), (6, 2)])
    _, after = step(state, 1, Roll())
    assert after.secret is None and after.phase == "seeding"
    result = GAME.summary(after)
    assert result is not None
    assert (result.round, result.target, result.winners) == (3, 3, (1, 1))
    assert result.scores == ((21, 4), (6, 2))
    assert result.tables == ((1, 2, 3, 4), (5, 6, 7, 8)) and result.secret == SECRET
    assert after.seating == ((1, 3, 5, 7), (6, 8, 2, 4))


def test_the_evenings_end_ranks_the_players_not_the_ghost_bu_amb_1_bu_eve_1() -> None:
    """The last round (sets = 1: round 6) of 3 players: the ghost (place 4) has the most
    wins and Buncos; the ranking is of the seats only."""
    k = find(_hits(1, 6))
    state = playing(3, target=6, round_no=6, rolls=k, scores=[(20, 0)], sets=1)
    state = replace(state, wins=(2, 3, 1, 5), losses=(3, 2, 4, 0), buncos=(1, 0, 0, 4))
    events, after = step(state, 1, Roll())
    evening = events[-1]
    assert isinstance(evening, EveningEnded)
    # round 6's table (1, 2, 3, 4): team 1 = places 1 and 3 win
    assert evening.wins == (3, 3, 2, 5)
    assert evening.winners == (1, 2) and evening.most_buncos == (1,)
    assert after.evening == Evening(winners=(1, 2), most_buncos=(1,))
    assert after.phase == "over"


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"players": 5}, "players must be one of 3, 4, 7, 8, 11, 12"),
        ({"sets": 21}, "sets must be between 1 and 20"),
        ({"turn_seconds": 601}, "turn_seconds must be between 10 and 600 seconds"),
    ],
)
def test_option_refusals_name_the_option_and_its_range(
    overrides: dict[str, object], message: str
) -> None:
    with pytest.raises(RuleViolation) as refused:
        options_from(**overrides)
    assert refused.value.message == message


def test_the_ends_of_each_range_are_accepted_pf_timer_7_bu_opt_2() -> None:
    for players in (3, 12):
        assert options_from(players=players).players == players
    assert options_from(sets=1, turn_seconds=10).rounds == 6
    assert options_from(sets=20, turn_seconds=600).turn_seconds == 600


def test_a_preset_or_value_that_is_not_one_is_named_pf_room_2() -> None:
    with pytest.raises(RuleViolation) as refused:
        options_from("party")
    assert (refused.value.code, refused.value.rule_id, refused.value.message) == (
        "bad_option",
        "PF-ROOM-2",
        "the Bunco preset is classic, not 'party'",
    )
    with pytest.raises(RuleViolation) as refused:
        options_from(wipeout="yes")
    assert "wipeout" in refused.value.message and refused.value.rule_id == "PF-ROOM-2"


def test_the_clock_rolls_a_roll_off_roll_too_pf_timer_8() -> None:
    k = find(_hits(1, 2), _hits(1, 2))
    state = playing(8, target=2, rolls=k, scores=[(20, 0), (4, 4)])
    _, state = step(state, 1, Roll())
    (rolled,), _ = step(state, _SYSTEM, Timeout(round=2, table=2, roll=1))
    assert isinstance(rolled, RollOffRolled) and rolled.auto and rolled.seat == 5


def test_the_wait_names_the_first_waiting_tables_roll() -> None:
    """What a table waits for (Game.wait): out of play, the phase and round alone; in play,
    the first waiting table and its rolls so far; no timer out of play."""
    committed = _committed()
    assert GAME.wait(committed) == ("seeded", 1, 0, False)
    assert GAME.timer(committed) is None and GAME.awaiting(committed) == ()
    state = replace(playing(8, round_no=3, target=3), tables=playing(8).tables)
    state = replace(state, tables=(replace(state.tables[0], rolls=7), state.tables[1]))
    assert GAME.wait(state) == ("play", 3, 1_000_007, False)
    rang = replace(state, bell=1, tables=(state.tables[0], replace(state.tables[1], rolloff=True)))
    assert GAME.wait(rang) == ("play", 3, 2_000_000, False)


def test_a_random_roll_draws_nothing_from_the_players_generator() -> None:
    """autoplay.random_step: without timeouts a roll takes no number from the generator
    (the round's secrets are the only draws), so a seeded evening replays."""
    state = playing(8)
    rng, twin = random.Random(5), random.Random(5)
    seat, command, _ = random_step(state, rng)
    assert (seat, command) == (1, Roll())
    assert rng.random() == twin.random()
    seat, command, _ = random_step(state, rng, timeouts=1.0)
    assert (seat, command) == (_SYSTEM, Timeout(round=1, table=1, roll=1))


def test_the_next_rounds_start_clears_the_last_rounds_end() -> None:
    """The summary shows a round's end between rounds only (Game.summary)."""
    k = find(_hits(1, 3))
    state = playing(8, target=3, rolls=k, scores=[(20, 4), (6, 2)])
    _, ended = step(state, 1, Roll())
    _, ended = step(ended, _SYSTEM, CommitSeed(secret="cd" * 32))
    assert GAME.summary(ended) is not None and view(ended, 1).result is not None
    _, started = step(ended, _SYSTEM, Deal())
    assert GAME.summary(started) is None and view(started, 1).result is None
    assert tuple(t.seats for t in started.tables) == ((1, 3, 5, 7), (6, 8, 2, 4))
