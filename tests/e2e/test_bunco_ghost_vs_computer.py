"""Bunco with the ghost, and against the computer, through the running services.

`POST /play-vs-computer` with a Bunco body makes an 11-player evening (one set) with the
player in seat 1 and bots in the ten other seats (PF-MODE-1, PF-BOT-1); the ghost is place
12, never a seat (BU-SIZE-3, BU-AMB-1), and its turns are rolled by its partner of the
round, the player himself when he sits opposite it. The player rolls over his socket,
the bots worker rolls the bots; the evening ends, every round verifies, and the ghost is
ranked nowhere. Tables of 3 and 7 players are made with as many seats (PF-ROOM-5).
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from engine.bunco.messages import DiceRolled, EveningEnded
from tests.e2e.bunco_support import RACES, Rolled, read_store, roll_until, tallies
from tests.e2e.gateway_support import Client
from tests.e2e.rummy_support import Served, bots_running, served_gateway

_PLAYERS = 11
_GHOST = 12


@pytest.fixture(scope="module")
async def served(database_url: str, nats_url: str) -> AsyncIterator[Served]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("SAHRA_SEED_WINDOW_SECONDS", "0")
        patch.setenv("SAHRA_REVEAL_SECONDS", "0")
        async with served_gateway(database_url, nats_url, "bunco_ghost") as it:
            yield it


@pytest.mark.parametrize("players", [3, 7, 11])
async def test_a_table_one_short_has_a_seat_for_each_player_and_none_for_the_ghost(
    served: Served, players: int
) -> None:
    """PF-ROOM-5, BU-SIZE-3, BU-SIZE-4, BU-AMB-1: 3, 7 or 11 players make as many seats;
    the view names the ghost's place (one past the last seat)."""
    created = await served.http.post(
        "/tables", json={"game": "bunco", "options": {"players": players}}
    )
    assert created.status_code == 201, created.text
    table = (await served.http.get(f"/tables/{created.json()['table_id']}")).json()
    assert len(table["seats"]) == players and table["status"] == "open"
    assert table["view"]["players"] == players and table["view"]["ghost"] == players + 1


async def test_an_evening_with_the_ghost_against_the_computer_is_played_to_its_end(
    served: Served,
) -> None:
    """PF-MODE-1, PF-BOT-1, PF-BOT-4, BU-SIZE-3, BU-AMB-1, BU-AMB-10, PF-FAIR-5: the player
    against ten bots and the ghost; every roll of the ghost's turns is made by its partner
    of that round (a seat, never the ghost); the evening ends after its 6 rounds, every
    round verifies, the tallies are those the rounds' winners make, and the ghost is in
    neither ranking."""
    made = await served.http.post(
        "/play-vs-computer",
        json={"game": "bunco", "options": {"players": _PLAYERS, "sets": 1}, "player": "Hala"},
    )
    assert made.status_code == 201, made.text
    table_id, token = made.json()["table_id"], made.json()["token"]
    table = (await served.http.get(f"/tables/{table_id}")).json()
    assert table["status"] == "playing"
    assert [s["kind"] for s in table["seats"]] == ["human"] + ["bot"] * (_PLAYERS - 1)
    player = await Client.open(served.base, table_id, token)
    rolled = Rolled(1)
    try:
        async with bots_running(served, {table_id}):
            last = await roll_until(player, rolled)
    finally:
        await player.close()
    view = last["view"]
    assert last["status"] == "finished" and view["phase"] == "over" and view["round"] == 6
    assert rolled.accepted > 0 and rolled.duplicates == 0
    assert {r["code"] for r in rolled.refused} <= RACES, rolled.refused
    stored = await read_store(served, table_id)
    rolls = [e for _, e in stored.of(DiceRolled)]
    ghost_rolls = [e for e in rolls if e.player == _GHOST]
    assert ghost_rolls and all(e.ghost and 1 <= e.seat <= _PLAYERS for e in ghost_rolls)
    assert all(not e.ghost and e.seat == e.player for e in rolls if e.player != _GHOST)
    wins, losses, buncos = tallies(stored, _PLAYERS + 1)
    assert view["wins"] == wins and view["losses"] == losses and view["buncos"] == buncos
    result = stored.of(EveningEnded)[0][1]
    assert _GHOST not in result.winners and _GHOST not in result.most_buncos
    best = max(wins[:_PLAYERS])
    assert list(result.winners) == [s for s in range(1, _PLAYERS + 1) if wins[s - 1] == best]
    verified = await served.http.get(f"/verify/{table_id}-6")
    assert verified.status_code == 200, verified.text
    verdict = verified.json()["verdict"]
    assert verdict["passed"] is True
    assert [(r["number"], r["passed"]) for r in verdict["rounds"]] == [
        (n, True) for n in range(1, 7)
    ]
