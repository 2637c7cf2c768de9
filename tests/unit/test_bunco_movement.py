"""Where the players sit: round 1's seating, the movement between tables, new partners,
the 4-player rotation and the ghost (rules/bunco.md §1, §5, §7, BU-EX-9/10).

Rules: BU-SET-7, BU-MOVE-1, BU-MOVE-2, BU-MOVE-3, BU-MOVE-4, BU-MOVE-5, BU-SIZE-1,
BU-SIZE-2, BU-SIZE-3, BU-SIZE-4, BU-EX-9, BU-EX-10, BU-AMB-1, BU-AMB-2, BU-AMB-8,
BU-AMB-9, PF-FAIR-6, PF-ROOM-5.
"""

from __future__ import annotations

import pytest

from engine import fair
from engine.bunco.game import GAME
from engine.bunco.messages import (
    AssignSeats,
    CommitSeed,
    Deal,
    DiceRolled,
    Roll,
    RoundEnded,
    RoundStarted,
    SeatsAssigned,
)
from engine.bunco.movement import check_seating, moved, rotation, team_of
from engine.bunco.view import legal
from tests.unit.bunco_support import (
    SECRET,
    evening,
    find,
    fresh_caches,  # noqa: F401 - autouse, see its docstring
    playing,
    refused,
    step,
)

_SYSTEM = 0
A, B, C, D, E, F, G, H, I, J, K, L = range(1, 13)  # noqa: E741 - the rules name them so


def _teams(seats: tuple[int, ...]) -> set[frozenset[int]]:
    return {frozenset((seats[0], seats[2])), frozenset((seats[1], seats[3]))}


# --- BU-EX-9 / BU-EX-10: the movement ---------------------------------------------------


def test_twelve_players_move_and_change_partners_bu_ex_9() -> None:
    """BU-EX-9, BU-MOVE-1..5, BU-AMB-8: head (A, B win) stay, C, D go low; middle winners
    E, F go up; low winners I, J to the middle; the others stay. New teams: head A+E, B+F;
    middle G+I, H+J; low K+C, L+D (stayers seats 1-2, arrivals 3-4, by old seat)."""
    tables = ((A, C, B, D), (E, G, F, H), (I, K, J, L))
    after = moved(tables, (1, 1, 1))
    assert after == ((A, B, E, F), (G, H, I, J), (K, L, C, D))
    assert [_teams(t) for t in after] == [
        {frozenset((A, E)), frozenset((B, F))},
        {frozenset((G, I)), frozenset((H, J))},
        {frozenset((K, C)), frozenset((L, D))},
    ]


def test_the_lower_old_seat_takes_the_lower_new_seat_bu_move_5() -> None:
    """Team 2 winning everywhere: the stayers and arrivals keep their old seats' order."""
    tables = ((C, A, D, B), (G, E, H, F), (K, I, L, J))
    assert moved(tables, (2, 2, 2)) == ((A, B, E, F), (G, H, I, J), (K, L, C, D))


def test_eight_players_two_tables_bu_ex_10_bu_size_1() -> None:
    """BU-EX-10, BU-SIZE-1: head winners stay, head losers go low, low winners go up to
    the head table, low losers stay; partners change by BU-MOVE-4."""
    tables = ((A, C, B, D), (E, G, F, H))
    after = moved(tables, (1, 2))
    assert after == ((A, B, G, H), (E, F, C, D))
    assert _teams(after[0]) == {frozenset((A, G)), frozenset((B, H))}
    assert _teams(after[1]) == {frozenset((E, C)), frozenset((F, D))}


@pytest.mark.parametrize("players", [7, 8, 11, 12])
def test_in_a_whole_evening_stayers_split_and_partner_arrivals_bu_move_4(players: int) -> None:
    """BU-MOVE-2..4: every round after the first starts as the last one's movement left it;
    at every table the two who stayed are split, each with one who just arrived, and the
    arrivals came from one table."""
    before: tuple[tuple[int, ...], ...] = ()
    announced: tuple[tuple[int, ...], ...] = ()
    checked = 0
    for _, _, events in evening(players):
        for e in events:
            if isinstance(e, RoundEnded):
                announced = e.tables
            if not isinstance(e, RoundStarted):
                continue
            if before:
                assert e.tables == announced
                old_table = {p: i for i, t in enumerate(before) for p in t}
                for i, seats in enumerate(e.tables):
                    stay = {p for p in seats if old_table[p] == i}
                    come = [p for p in seats if old_table[p] != i]
                    assert seats[:2] == tuple(p for p in seats if p in stay)
                    assert len({old_table[p] for p in come}) == 1
                    assert all(not stay <= team for team in _teams(seats))
                    checked += 1
            before = e.tables
    assert checked == 23 * GAME.options_from(players=players).places // 4


def test_head_winners_stay_and_losers_go_to_the_low_table_in_a_round_bu_move_1() -> None:
    """BU-MOVE-1, BU-MOVE-2, BU-MOVE-3 through the rules: the round's end names the seating."""
    k = find(lambda d: d.count(1) == 1 and len(set(d)) > 1)
    state = playing(12, target=1, rolls=k, scores=[(20, 0), (3, 5), (7, 2)])
    events, _ = step(state, 1, Roll())
    ended = next(e for e in events if isinstance(e, RoundEnded))
    assert ended.winners == (1, 2, 1)
    # head (1, 2, 3, 4): 1, 3 stay, 2, 4 go low; middle (5..8): 6, 8 go up, 5, 7 stay;
    # low (9..12): 9, 11 go to the middle, 10, 12 stay
    assert ended.tables == ((1, 3, 6, 8), (5, 7, 9, 11), (10, 12, 2, 4))


# --- four players: the rotation ---------------------------------------------------------


def test_four_players_rotate_through_the_three_pairings_bu_amb_9() -> None:
    """BU-SIZE-2, BU-AMB-9: rounds 1, 4, 7: P1+P3 vs P2+P4; 2, 5, 8: P1+P2 vs P3+P4;
    3, 6, 9: P1+P4 vs P2+P3; P1 in seat 1, the other pair's lower player in seat 2."""
    p1, p2, p3, p4 = (3, 1, 4, 2)
    assert rotation((p1, p2, p3, p4), 1) == ((p1, p2, p3, p4),)
    assert rotation((p1, p2, p3, p4), 2) == ((p1, p3, p2, p4),)
    assert rotation((p1, p2, p3, p4), 3) == ((p1, p2, p4, p3),)
    assert rotation((p1, p2, p3, p4), 4) == rotation((p1, p2, p3, p4), 1)
    assert rotation((p1, p2, p3, p4), 8) == rotation((p1, p2, p3, p4), 2)


@pytest.mark.parametrize("players", [3, 4])
def test_a_four_place_evening_never_moves_and_rotates_partners_bu_size_2(players: int) -> None:
    started = [
        e for _, _, events in evening(players) for e in events if isinstance(e, RoundStarted)
    ]
    order = started[0].tables[0]
    for e in started:
        assert e.tables == rotation(order, e.round)


# --- the ghost --------------------------------------------------------------------------


def test_the_ghosts_partner_rolls_its_turns_bu_size_3_bu_amb_1() -> None:
    """BU-SIZE-3, BU-AMB-1: with 3 players place 4 is the ghost; on its turn its partner
    (seat 2 sits opposite seat 4) rolls, and a Bunco on that turn is the ghost's."""
    k = find((3, 3, 3))
    state = playing(3, target=3, rolls=k, rollers=[4])
    assert GAME.awaiting(state) == (2,)
    assert "Roll" in legal(state, 2).commands
    assert refused(state, 4, Roll())[0] == "not_a_player"
    events, after = step(state, 2, Roll())
    rolled = events[0]
    assert isinstance(rolled, DiceRolled)
    assert (rolled.player, rolled.seat, rolled.ghost, rolled.kind) == (4, 2, True, "bunco")
    assert after.buncos == (0, 0, 0, 1)  # the head table's 21: the bell and the round's end
    ended = next(e for e in events if isinstance(e, RoundEnded))
    assert ended.buncos == (0, 0, 0, 1) and ended.winners == (2,)


@pytest.mark.parametrize("players", [7, 11])
def test_the_ghost_moves_between_tables_like_a_player_bu_amb_1(players: int) -> None:
    ghost = players + 1
    tables_of_ghost = set()
    for _, _, events in evening(players):
        for e in events:
            if isinstance(e, RoundStarted):
                tables_of_ghost.add(next(i for i, t in enumerate(e.tables) if ghost in t))
            if isinstance(e, DiceRolled) and e.player == ghost:
                assert e.ghost and e.seat != ghost and 1 <= e.seat <= players
    assert len(tables_of_ghost) > 1


def test_supported_counts_are_three_to_twelve_with_one_ghost_bu_size_4() -> None:
    """BU-SIZE-4, PF-ROOM-5: 4, 8, 12, or one fewer with the ghost."""
    assert GAME.seat_counts == (3, 4, 7, 8, 11, 12)
    for players, places in ((3, 4), (4, 4), (7, 8), (8, 8), (11, 12), (12, 12)):
        options = GAME.options_from(players=players)
        assert GAME.seats(options) == players and options.places == places
        assert options.ghost == (places if players < places else 0)


# --- round 1's seating ------------------------------------------------------------------


def _committed(players: int = 12) -> object:
    state = GAME.initial(GAME.options_from(players=players), 1)
    _, state = step(state, _SYSTEM, CommitSeed(secret=SECRET))
    return state


def test_round_one_is_seated_by_the_fair_draw_bu_set_7_bu_amb_2() -> None:
    """BU-SET-7, BU-AMB-2, PF-FAIR-6: the places shuffled under "first" from round 1's
    secret and E, four a table, head table first."""
    (started,), _ = step(_committed(11), _SYSTEM, Deal())
    assert isinstance(started, RoundStarted) and started.drawn
    order = fair.shuffle(
        tuple(range(1, 13)), bytes.fromhex(SECRET), "first", fair.entropy([""] * 11)
    )
    assert started.tables == (order[:4], order[4:8], order[8:])


def test_the_host_may_seat_round_one_before_the_first_roll_bu_set_7() -> None:
    """BU-SET-7, BU-AMB-2: the host's seating replaces the draw; later refused."""
    state = _committed(8)
    seating = ((8, 7, 6, 5), (4, 3, 2, 1))
    (assigned,), state = step(state, 1, AssignSeats(tables=seating))
    assert assigned == SeatsAssigned(tables=seating)
    (started,), state = step(state, _SYSTEM, Deal())
    assert isinstance(started, RoundStarted) and started.tables == seating and not started.drawn
    again = ((1, 2, 3, 4), (5, 6, 7, 8))
    _, state = step(state, 1, AssignSeats(tables=again))  # round 1 started, nobody rolled
    assert tuple(t.seats for t in state.tables) == again
    _, state = step(state, 1, Roll())
    assert "AssignSeats" not in legal(state, 1).commands
    assert refused(state, 1, AssignSeats(tables=seating)) == ("seats_fixed", "BU-SET-7")


def test_a_seating_is_the_hosts_and_seats_every_place_once_bu_set_7() -> None:
    state = _committed(7)
    good = ((1, 2, 3, 4), (5, 6, 7, 8))
    assert refused(state, 2, AssignSeats(tables=good)) == ("host_only", "BU-SET-7")
    assert refused(state, 1, AssignSeats(tables=((1, 2, 3, 4), (5, 6, 7, 7)))) == (
        "bad_seating",
        "BU-SET-7",
    )
    assert refused(state, 1, AssignSeats(tables=((1, 2, 3, 4),))) == ("bad_seating", "BU-SET-7")
    assert check_seating(good, 8) is None
    fresh = GAME.initial(GAME.options_from(players=8), 1)
    assert refused(fresh, 1, AssignSeats(tables=good)) == ("wrong_phase", "BU-SET-7")


def test_team_of_a_table_seat() -> None:
    assert team_of(1) == team_of(3) == 1 and team_of(2) == team_of(4) == 2
