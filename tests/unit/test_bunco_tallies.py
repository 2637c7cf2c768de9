"""The tally sheets and the evening's result (rules/bunco.md §6, BU-EX-13, BU-AMB-10/11).

Rules: BU-TALLY-1, BU-TALLY-2, BU-EVE-1, BU-EVE-2, BU-EVE-3, BU-EX-13, BU-AMB-1,
BU-AMB-10, BU-AMB-11.
"""

from __future__ import annotations

import pytest

from engine.bunco.messages import DiceRolled, EveningEnded, RoundEnded, RoundStarted
from engine.bunco.movement import team_of
from engine.bunco.scoring import standings
from tests.unit.bunco_support import (
    evening,
    fresh_caches,  # noqa: F401 - autouse, see its docstring
)


def test_shared_most_wins_and_a_separate_most_buncos_bu_ex_13() -> None:
    """BU-EX-13, BU-EVE-1..3, BU-AMB-11: P1 15 wins 2 Buncos, P2 15 wins 0 Buncos, P3 14
    wins 3 Buncos: P1 and P2 share most wins; P3 has the most Buncos (no tie-break)."""
    wins = (15, 15, 14, 10)
    buncos = (2, 0, 3, 1)
    assert standings(4, wins, buncos) == ((1, 2), (3,))


def test_players_tied_for_most_buncos_share_it_bu_eve_3() -> None:
    assert standings(4, (1, 2, 3, 4), (2, 2, 0, 1)) == ((4,), (1, 2))


def test_nobody_has_most_buncos_when_none_was_rolled_bu_eve_2() -> None:
    assert standings(4, (6, 6, 6, 6), (0, 0, 0, 0)) == ((1, 2, 3, 4), ())


def test_the_ghost_is_not_ranked_bu_amb_1() -> None:
    """BU-AMB-1: the ghost's results are recorded (place 4) but it is in no ranking."""
    assert standings(3, (5, 6, 4, 9), (0, 1, 0, 7)) == ((2,), (2,))


@pytest.mark.parametrize("players", [3, 4, 7, 8, 11, 12])
def test_every_place_tallies_one_win_or_loss_a_round_bu_tally_1_bu_amb_10(players: int) -> None:
    """BU-TALLY-1, BU-AMB-10: after each round every place (the ghost's too) has one more
    win if its team won at its table, else one more loss; the ghost's partner once."""
    wins: tuple[int, ...] = ()
    losses: tuple[int, ...] = ()
    tables: tuple[tuple[int, ...], ...] = ()
    rounds = 0
    for _, _, events in evening(players):
        for e in events:
            if isinstance(e, RoundStarted):
                tables = e.tables
            if not isinstance(e, RoundEnded):
                continue
            rounds += 1
            before_w = wins or (0,) * len(e.wins)
            before_l = losses or (0,) * len(e.losses)
            for seats, winner in zip(tables, e.winners, strict=True):
                for s, place in enumerate(seats, 1):
                    won = team_of(s) == winner
                    assert e.wins[place - 1] - before_w[place - 1] == won
                    assert e.losses[place - 1] - before_l[place - 1] == (not won)
            wins, losses = e.wins, e.losses
    assert all(w + lost == rounds for w, lost in zip(wins, losses, strict=True))


@pytest.mark.parametrize("players", [7, 12])
def test_every_bunco_a_player_rolled_is_on_his_sheet_bu_tally_2(players: int) -> None:
    """BU-TALLY-2, BU-AMB-1: Buncos counted per place that rolled them (the ghost's on its
    own turns), and nothing else."""
    counted = [0] * GAME_PLACES[players]
    last = None
    for _, _, events in evening(players):
        for e in events:
            if isinstance(e, DiceRolled) and e.kind == "bunco":
                counted[e.player - 1] += 1
            if isinstance(e, EveningEnded):
                last = e
    assert last is not None and last.buncos == tuple(counted)
    best = max(last.wins[:players])
    assert last.winners == tuple(s for s in range(1, players + 1) if last.wins[s - 1] == best)


GAME_PLACES = {3: 4, 4: 4, 7: 8, 8: 8, 11: 12, 12: 12}
