"""A round of Bunco from its start to its end (rules/bunco.md §1, §2, §4, BU-EX-7/8/11/12).

Given a round in play (built by hand, or a whole random evening), when the tables roll,
the head table reaches 21, the other tables are stopped and tied ones roll off, then
exactly these events, or this refusal and nothing changed.

Rules: BU-SET-1, BU-SET-2, BU-SET-3, BU-SET-4, BU-SET-5, BU-SET-6, BU-RND-1, BU-RND-2,
BU-RND-3, BU-RND-4, BU-ROLL-2, BU-END-1, BU-END-2, BU-END-3, BU-END-4, BU-END-5,
BU-END-6, BU-EX-7, BU-EX-8, BU-EX-11, BU-EX-12, BU-AMB-3, BU-AMB-4, BU-AMB-5, BU-AMB-6,
BU-AMB-13, BU-AMB-14, PF-TIMER-8, PF-FAIR-1.
"""

from __future__ import annotations

from collections.abc import Callable

from msgspec.structs import replace

from engine.bunco.autoplay import next_table, random_step
from engine.bunco.game import GAME, timers
from engine.bunco.messages import (
    BellRang,
    CommitSeed,
    Deal,
    DiceRolled,
    EveningEnded,
    Roll,
    RollOffRolled,
    RoundEnded,
    RoundStarted,
    SeedRevealed,
    Timeout,
)
from engine.bunco.movement import TABLE_NAMES, team_of
from engine.bunco.state import State
from engine.bunco.view import legal, view
from tests.unit.bunco_support import (
    SECRET,
    evening,
    find,
    fold,
    fresh_caches,  # noqa: F401 - autouse, see its docstring
    playing,
    refused,
    same,
    step,
)

_SYSTEM = 0
Dice = tuple[int, int, int]


def _hits(n: int, target: int) -> Callable[[Dice], bool]:
    """A roll with exactly n dice showing the target and no triple."""
    return lambda d: d.count(target) == n and len(set(d)) > 1


# --- BU-EX-7: the bell ------------------------------------------------------------------


def _ex7() -> State:
    """Round 3: head table 18 vs 0, middle 13 vs 12, low 9 vs 9; seat 1 rolls everywhere."""
    k = find(same(3, 3, 5), same(3, 1, 6), _hits(1, 3), _hits(0, 3))
    return playing(12, target=3, rolls=k, scores=[(18, 0), (13, 12), (9, 9)])


def test_the_head_table_reaching_21_rings_the_bell_bu_ex_7() -> None:
    """BU-EX-7, BU-END-1, BU-AMB-5, BU-SET-5: 18 + 2 = 20 rolls again, + 1 = 21: the bell,
    logged with the middle table at 13 vs 12 and the low table's tie to roll off."""
    events, state = step(_ex7(), 1, Roll())
    (first,) = events
    assert isinstance(first, DiceRolled)
    assert sorted(first.dice) == [3, 3, 5] and first.scores == (20, 0) and first.next == 1
    events, state = step(state, 1, Roll())
    rolled, bell = events
    assert isinstance(rolled, DiceRolled) and sorted(rolled.dice) == [1, 3, 6]
    assert rolled.scores == (21, 0)
    assert bell == BellRang(round=3, team=1, scores=((21, 0), (13, 12), (9, 9)), ties=(3,))
    for seat in range(1, 13):  # every seat sees the bell at once
        assert view(state, seat).bell == 1


def test_after_the_bell_no_table_rolls_on_bu_end_2_bu_amb_4() -> None:
    """BU-EX-7, BU-END-2, BU-AMB-4: a middle-table roll after the bell is refused; so is
    the head roller's next roll, though his roll scored (BU-AMB-5)."""
    _, state = step(_ex7(), 1, Roll())
    _, state = step(state, 1, Roll())
    assert refused(state, 5, Roll()) == ("bell_rang", "BU-END-2")
    assert refused(state, 1, Roll()) == ("bell_rang", "BU-END-2")
    assert refused(state, _SYSTEM, Timeout(round=3, table=2, roll=1)) == (
        "stale_timeout",
        "PF-TIMER-8",
    )
    assert GAME.awaiting(state) == (9,)  # only the low table's roll-off


def test_a_tie_rolls_off_and_the_more_points_win_bu_ex_7() -> None:
    """BU-EX-7, BU-END-3/4/5, BU-AMB-6: the low table rolls off, 1 point vs 0, the first
    team wins; the round ends: head team 1 (reached 21), middle team 1 (13 > 12)."""
    _, state = step(_ex7(), 1, Roll())
    _, state = step(state, 1, Roll())
    (first,), state = step(state, 9, Roll())
    assert isinstance(first, RollOffRolled)
    assert (first.team, first.points, first.winner) == (1, 1, 0)
    assert state.tables[2].scores == (9, 9)  # BU-AMB-6: not added to the round's points
    events, state = step(state, 10, Roll())
    second, ended, revealed = events
    assert isinstance(second, RollOffRolled) and (second.team, second.points) == (2, 0)
    assert second.winner == 1
    assert isinstance(ended, RoundEnded) and ended.winners == (1, 1, 1)
    assert ended.scores == ((21, 0), (13, 12), (9, 9))
    assert revealed == SeedRevealed(deal=3, secret=SECRET)  # PF-FAIR-3, at the round's end


def _scores(d: Dice) -> bool:
    return any(x == 2 for x in d) or d[0] == d[1] == d[2]


def test_a_roll_off_repeats_while_equal_bu_end_5_bu_amb_6() -> None:
    """BU-END-5, BU-AMB-6: the next roller's team rolls first (here team 2, seat 2), the
    dice passing left; 1 vs 1 is equal, so again: 0 vs 1, team 1 wins; no round points."""
    k = find(_scores, _hits(1, 2), _hits(1, 2), _hits(0, 2), _hits(1, 2))
    state = playing(8, target=2, rolls=k, scores=[(20, 0), (4, 4)], rollers=[1, 2])
    events, state = step(state, 1, Roll())
    assert isinstance(events[1], BellRang) and events[1].ties == (2,)
    (a,), state = step(state, 6, Roll())  # table 2 seat 2 (team 2) would roll next
    assert refused(state, 6, Roll()) == ("bell_rang", "BU-END-2")  # one roll a team
    (b,), state = step(state, 7, Roll())  # then seat 3 (team 1)
    assert isinstance(a, RollOffRolled) and isinstance(b, RollOffRolled)
    assert (a.team, a.points, b.team, b.points, b.winner) == (2, 1, 1, 1, 0)
    (c,), state = step(state, 8, Roll())
    events, state = step(state, 5, Roll())
    assert isinstance(c, RollOffRolled) and (c.team, c.points) == (2, 0)
    d, ended = events[0], events[1]
    assert isinstance(d, RollOffRolled) and (d.team, d.points, d.winner) == (1, 1, 1)
    assert isinstance(ended, RoundEnded) and ended.winners == (1, 1)
    assert ended.scores[1] == (4, 4)


def test_a_bunco_in_a_roll_off_is_not_tallied_bu_amb_6() -> None:
    k = find(_scores, (2, 2, 2), _hits(0, 2))
    state = playing(8, target=2, rolls=k, scores=[(20, 0), (4, 4)])
    _, state = step(state, 1, Roll())
    (a,), state = step(state, 5, Roll())
    events, state = step(state, 6, Roll())
    assert isinstance(a, RollOffRolled) and (a.kind, a.points) == ("bunco", 21)
    ended = events[1]
    assert isinstance(ended, RoundEnded) and ended.winners[1] == 1
    assert sum(state.buncos) == 0 and ended.buncos == (0,) * 8


def test_a_wiped_roll_off_roll_counts_zero_bu_amb_6() -> None:
    k = find(_hits(1, 2), (1, 1, 1), _hits(0, 2))
    state = playing(8, target=2, rolls=k, scores=[(20, 0), (4, 4)], wipeout=True)
    _, state = step(state, 1, Roll())
    (a,), state = step(state, 5, Roll())
    assert isinstance(a, RollOffRolled) and (a.kind, a.points) == ("wipeout", 0)
    (b,), state = step(state, 6, Roll())
    assert isinstance(b, RollOffRolled) and b.winner == 0  # 0 vs 0: another pass


def test_a_non_head_table_past_21_plays_on_bu_ex_8() -> None:
    """BU-EX-8, BU-END-6: the middle table's team reaches 26: nothing happens."""
    k = find(_hits(2, 3))
    state = playing(12, target=3, rolls=k, scores=[(0, 0), (24, 3), (0, 0)], rollers=[1, 1, 1])
    (rolled,), after = step(state, 5, Roll())
    assert isinstance(rolled, DiceRolled) and rolled.scores == (26, 3)
    assert after.bell == 0 and GAME.awaiting(after) == (1, 5, 9)


def test_with_four_players_the_first_team_to_21_wins_bu_ex_11() -> None:
    """BU-EX-11, BU-SIZE-2: one table; its team reaching 21 wins the round."""
    k = find(_hits(2, 5))
    state = playing(4, target=5, rolls=k, scores=[(0, 19)], rollers=[4])
    events, after = step(state, 4, Roll())
    assert [type(e).__name__ for e in events] == [
        "DiceRolled",
        "BellRang",
        "RoundEnded",
        "SeedRevealed",
    ]
    ended = events[2]
    assert isinstance(ended, RoundEnded) and ended.winners == (2,)
    assert after.wins == (0, 1, 0, 1) and after.losses == (1, 0, 1, 0)


# --- the round's start and the evening's length -----------------------------------------


def test_rounds_target_one_to_six_and_start_again_over_24_rounds_bu_ex_12() -> None:
    """BU-EX-12, BU-RND-1..3, BU-OPT-2: 4 sets end after round 24, targets 1-6 four times."""
    steps = evening(12)
    started = [e for _, _, events in steps for e in events if isinstance(e, RoundStarted)]
    assert [e.round for e in started] == list(range(1, 25))
    assert [e.target for e in started] == [1, 2, 3, 4, 5, 6] * 4
    ended = [e for _, _, events in steps for e in events if isinstance(e, RoundEnded)]
    assert [e.last for e in ended] == [False] * 23 + [True]
    assert isinstance(steps[-1][2][-1], EveningEnded)


def test_one_set_is_six_rounds_bu_rnd_1() -> None:
    steps = evening(4, sets=1)
    started = [e for _, _, events in steps for e in events if isinstance(e, RoundStarted)]
    assert [e.target for e in started] == [1, 2, 3, 4, 5, 6]


def test_every_round_starts_at_zero_and_seat_one_rolls_first_bu_rnd_4_bu_roll_2() -> None:
    """BU-RND-4, BU-AMB-14: team points belong to one round; BU-ROLL-2, BU-AMB-3: seat 1
    rolls first at every table in every round."""
    tables: tuple[tuple[int, ...], ...] = ()
    first: set[int] = set()
    for _, _, events in evening(12):
        for e in events:
            if isinstance(e, RoundStarted):
                tables, first = e.tables, set()
            elif isinstance(e, DiceRolled) and e.table not in first:
                first.add(e.table)
                assert e.player == tables[e.table - 1][0]
                assert e.scores[team_of(1) - 1] == e.points or e.kind == "wipeout"
                assert e.scores[1] == 0


def test_twelve_players_sit_at_three_ranked_tables_of_four_bu_set_1_bu_set_6() -> None:
    """BU-SET-1, BU-SET-3, BU-SET-6: 12 players, 3 tables of 4, each rolling its own
    three dice; the tables are the head, middle and low tables."""
    state = playing(12)
    assert len(state.tables) == 3 and all(len(t.seats) == 4 for t in state.tables)
    assert [t.name for t in view(state, None).tables] == ["head", "middle", "low"]
    assert TABLE_NAMES[2] == ("head", "low") and TABLE_NAMES[1] == ("head",)
    assert GAME.awaiting(state) == (1, 5, 9)


def test_partners_sit_opposite_bu_set_2() -> None:
    assert [team_of(s) for s in (1, 2, 3, 4)] == [1, 2, 1, 2]


def test_each_table_keeps_its_score_pad_and_each_player_a_tally_sheet_bu_set_4() -> None:
    state = playing(12, scores=[(3, 4), (5, 6), (7, 8)])
    seen = view(state, None)
    assert [t.scores for t in seen.tables] == [(3, 4), (5, 6), (7, 8)]
    assert len(seen.wins) == len(seen.buncos) == len(seen.losses) == 12


def test_the_system_starts_each_round_from_its_commitment_pf_fair_1() -> None:
    state = GAME.initial(GAME.options_from(), 1)
    assert refused(state, _SYSTEM, Deal()) == ("wrong_phase", "PF-FAIR-1")
    _, state = step(state, _SYSTEM, CommitSeed(secret=SECRET))
    assert refused(state, 1, Deal()) == ("system_only", "PF-FAIR-1")
    assert refused(state, 1, Roll()) == ("wrong_phase", "BU-ROLL-1")
    (started,), state = step(state, _SYSTEM, Deal())
    assert isinstance(started, RoundStarted) and (started.round, started.target) == (1, 1)
    assert started.drawn and state.phase == "play"


def test_a_seat_rolls_only_on_its_turn_bu_roll_1() -> None:
    state = playing(12)
    assert refused(state, 2, Roll()) == ("not_your_turn", "BU-ROLL-1")
    assert refused(state, 12, Roll()) == ("not_your_turn", "BU-ROLL-1")


def test_the_evening_over_refuses_every_roll_bu_rnd_3() -> None:
    steps = evening(4, sets=1)
    state = GAME.initial(GAME.options_from(players=4, sets=1), 1)
    for _, _, events in steps:
        for e in events:
            state = GAME.evolve(state, e)
    assert state.phase == "over"
    assert refused(state, 1, Roll()) == ("evening_over", "BU-RND-3")


# --- the clock and the simulated tables -------------------------------------------------


def test_a_timeout_rolls_for_the_awaited_player_never_skips_him_pf_timer_8() -> None:
    """PF-TIMER-8, BU-AMB-13: the system's roll is the player's roll (auto)."""
    k = find(_hits(1, 1))
    state = playing(8, target=1, rolls=k, rollers=[1, 3])
    (rolled,), after = step(state, _SYSTEM, Timeout(round=1, table=2, roll=1))
    assert isinstance(rolled, DiceRolled)
    assert (rolled.table, rolled.player, rolled.seat, rolled.auto) == (2, 7, 7, True)
    assert rolled.points == 1 and after.tables[1].roller == 3  # he rolls again himself
    assert refused(after, _SYSTEM, Timeout(round=1, table=2, roll=1)) == (
        "stale_timeout",
        "PF-TIMER-8",
    )
    assert refused(after, 7, Timeout(round=1, table=2, roll=2)) == ("system_only", "PF-TIMER-8")


def test_every_waiting_table_has_its_own_timer_pf_timer_7() -> None:
    state = playing(12)
    running = timers(state)
    assert [t.seat for t in running] == [1, 5, 9]
    assert [t.command for t in running] == [Timeout(round=1, table=n, roll=1) for n in (1, 2, 3)]
    assert len({t.command_id for t in running}) == 3
    assert all(t.seconds == 10.0 for t in running)
    assert GAME.timer(state) == running[0]


def test_simulated_tables_roll_in_turn_head_middle_low_bu_amb_4() -> None:
    """BU-AMB-4: one roll a table in turn, so the outcome is reproducible."""
    order = []
    for _, _, events in evening(12)[:40]:
        order += [e.table for e in events if isinstance(e, DiceRolled)]
    assert order[:9] == [1, 2, 3] * 3
    state = playing(12)
    assert next_table(state) == 1


def test_legal_lists_the_roll_for_the_awaited_seats_only() -> None:
    state = playing(8)
    assert [s for s in range(1, 9) if "Roll" in legal(state, s).commands] == [1, 5]
    assert legal(state, _SYSTEM).commands == ("Timeout",)


class _Draw:
    """A generator whose every draw is `value` (the random player's share of timeouts)."""

    def __init__(self, value: float) -> None:
        self.value = value

    def random(self) -> float:
        return self.value

    def randrange(self, stop: int, /) -> int:
        return 0


def test_the_random_player_rolls_at_one_table_after_another_bu_amb_4() -> None:
    """BU-AMB-4: with the tables simulated, one roll a table in turn (head, middle, low,
    head again); after the bell only the tied tables, in the same turn."""
    state = playing(12, target=6)
    tables = []
    for _ in range(4):
        _, _, events = random_step(state, _Draw(0.9))
        tables.append(events[0].table)
        state = fold(state, events)
    assert tables == [1, 2, 3, 1]
    tied = replace(
        state,
        bell=1,
        last_table=2,
        tables=tuple(replace(t, rolloff=i > 1) for i, t in enumerate(state.tables, 1)),
    )
    assert next_table(tied) == 3
    assert next_table(replace(tied, last_table=3)) == 2
    assert random_step(tied, _Draw(0.9))[2][0].table == 3


def test_the_random_player_times_out_a_share_of_the_rolls_pf_timer_8() -> None:
    """PF-TIMER-8: the share `timeouts` of the rolls are the clock's Timeout, the rest the
    player's Roll; a draw below the share is a timeout, the share itself is not; no share,
    no timeout whatever the generator draws."""
    state = playing(12, target=6)
    assert isinstance(random_step(state, _Draw(0.24), 0.25)[1], Timeout)
    assert isinstance(random_step(state, _Draw(0.25), 0.25)[1], Roll)
    assert isinstance(random_step(state, _Draw(0.0), 0.0)[1], Roll)
