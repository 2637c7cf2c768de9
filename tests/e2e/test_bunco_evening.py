"""A 12-player Bunco evening through the running services, end to end (issue 13).

The gateway over HTTP and WebSocket, PostgreSQL (a database of this module's own) and NATS,
a bots worker: a table for 12 players and one set (6 rounds, BU-OPT-2, BU-AMB-12) is made
with three bot seats (PF-ROOM-5, PF-BOT-1), nine players take their seats and roll over
their sockets whenever their view asks them to, the bots worker rolls for the bots
(PF-BOT-4), a spectator watches, and one player drops his connection in round 2 and comes
back with `since=` (PF-CONN-2). The seed window is closed at once and the end-of-round
screen lasts 0.4 s (the platform's 3 s and 8 s would make the evening wait 60 s on
nothing), so that the view of the rung bell stays up long enough for every socket to be
shown it. Then: every round verifies from the store (PF-FAIR-5), every seat was shown its
own play table in full and the other tables' scores only, every seat of every table saw
each round's bell, no round's secret was shown before its reveal (PF-FAIR-3), and the
tallies are those the rounds' winners make (BU-TALLY-1/2, BU-EVE-1/2).
"""

from __future__ import annotations

import asyncio
import hashlib
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import pytest

from engine.bunco.messages import BellRang, DiceRolled, EveningEnded, RoundEnded, RoundStarted
from engine.fairness import SeedCommitted
from tests.e2e.bunco_support import (
    RACES,
    Rolled,
    Stored,
    create,
    read_store,
    roll_until,
    tallies,
)
from tests.e2e.gateway_support import Client
from tests.e2e.rummy_support import Served, bots_running, served_gateway

_PLAYERS = 12
_BOTS = (10, 11, 12)  # bot seats made at creation
_LEAVER = 5  # drops his socket in round 2 and comes back with since=
_ROUNDS = 6
_REVEAL = "0.4"


@dataclass
class Evening:
    table_id: str
    seats: dict[int, list[Client]]  # each human seat's sockets, in the order opened
    rolled: dict[int, Rolled]
    spectator: Client
    last: dict[str, Any]  # the spectator's last view
    since: int  # the version the leaver reconnected with
    away_seen: bool  # the spectator was shown the leaver's seat away
    seconds: float
    bot_moves: int
    stored: Stored


@pytest.fixture(scope="module")
async def served(database_url: str, nats_url: str) -> AsyncIterator[Served]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("SAHRA_SEED_WINDOW_SECONDS", "0")
        patch.setenv("SAHRA_REVEAL_SECONDS", _REVEAL)
        async with served_gateway(database_url, nats_url, "bunco_e2e") as it:
            yield it


@pytest.fixture(scope="module")
async def evening(served: Served) -> AsyncIterator[Evening]:
    played = await _play(served)
    yield played
    for sockets in played.seats.values():
        for socket in sockets:
            await socket.close()
    await played.spectator.close()


async def _play(served: Served) -> Evening:
    began = time.perf_counter()
    kinds = ["bot" if seat in _BOTS else "human" for seat in range(1, _PLAYERS + 1)]
    table_id, tokens = await create(served, _PLAYERS, kinds, {"sets": 1})
    lobby = {t["table_id"]: t for t in (await served.http.get("/tables")).json()}
    assert lobby[table_id]["game"] == "bunco" and lobby[table_id]["free_seats"] == []
    assert [s["kind"] for s in lobby[table_id]["seats"]] == kinds
    seats = {seat: [await Client.open(served.base, table_id, t)] for seat, t in tokens.items()}
    spectator = await Client.open(served.base, table_id)
    rolled = {seat: Rolled(seat) for seat in tokens}
    started = await served.http.post(
        f"/tables/{table_id}/start", headers={"Authorization": f"Bearer {tokens[1]}"}
    )
    assert started.status_code == 200, started.text
    reconnect: dict[str, Any] = {}

    async def leaver() -> dict[str, Any]:
        first = seats[_LEAVER][0]

        def in_round_2(message: dict[str, Any]) -> bool:
            view = message["view"]
            return view is not None and view["round"] >= 2 and view["phase"] == "play"

        await roll_until(first, rolled[_LEAVER], stop=in_round_2)
        since = max(m["version"] for m in first.messages if m["type"] in ("welcome", "view"))
        await first.close()
        # recorded away once the socket has stayed closed for the settle delay (2 s)
        away = await spectator.wait_for_view(
            lambda m: m["seats"][_LEAVER - 1]["presence"] == "away" or m["status"] == "finished",
            timeout=20,
        )
        reconnect["away_seen"] = away["seats"][_LEAVER - 1]["presence"] == "away"
        again = await Client.open(served.base, table_id, tokens[_LEAVER], since=since)
        seats[_LEAVER].append(again)
        reconnect["since"] = since
        return await roll_until(again, rolled[_LEAVER])

    async with bots_running(served, {table_id}) as worker:
        players = [
            roll_until(sockets[0], rolled[seat])
            for seat, sockets in seats.items()
            if seat != _LEAVER
        ]
        try:
            await asyncio.gather(*players, leaver())
        except TimeoutError:
            refused = {seat: r.refused[-2:] for seat, r in rolled.items() if r.refused}
            stalled = _stalled(spectator, seats)
            raise AssertionError(f"the evening stalled: {stalled}; refused {refused}") from None
        last = await spectator.wait_for_view(lambda m: m["status"] == "finished", timeout=30)
        moves = worker.moves
    return Evening(
        table_id=table_id,
        seats=seats,
        rolled=rolled,
        spectator=spectator,
        last=last,
        since=reconnect["since"],
        away_seen=reconnect["away_seen"],
        seconds=time.perf_counter() - began,
        bot_moves=moves,
        stored=await read_store(served, table_id),
    )


def _stalled(spectator: Client, seats: dict[int, list[Client]]) -> str:
    """What the spectator and each seat were last shown: who was awaited, who was away."""
    seen = spectator.newest_view() or {"version": None, "view": None, "seats": []}
    view = seen["view"] or {}
    mine = {
        seat: [
            (v["version"], v["view"] and v["view"]["legal"])
            for v in map(Client.newest_view, s)
            if v
        ]
        for seat, s in seats.items()
    }
    return (
        f"version {seen['version']}, awaiting {view.get('awaiting')}, bell {view.get('bell')}, "
        f"presence {[x['presence'] for x in seen['seats']]}; each seat's last view: {mine}"
    )


def _shown(sockets: list[Client]) -> list[dict[str, Any]]:
    return [m for s in sockets for m in s.messages if m["type"] in ("welcome", "view")]


async def test_twelve_players_roll_a_whole_evening_to_its_end_through_the_services(
    evening: Evening, served: Served
) -> None:
    """BU-SET-1, BU-RND-1, BU-OPT-2, BU-AMB-12, PF-ROOM-5, PF-BOT-1, PF-BOT-4, PF-FAIR-1..3:
    a 12-seat table with three bot seats is played over nine players' sockets and the bots
    worker to the end of its 6 rounds; every round was committed before it started and
    revealed when it ended; every seat and the bots rolled; a roll refused was one that
    met the bell, a round's end or a busy table, never one out of turn."""
    view = evening.last["view"]
    assert view["phase"] == "over" and view["round"] == _ROUNDS and view["players"] == _PLAYERS
    assert evening.seconds < 60, evening.seconds
    for seat, rolled in evening.rolled.items():
        assert rolled.accepted > 0 and rolled.duplicates == 0, f"seat {seat}: {rolled}"
        assert {r["code"] for r in rolled.refused} <= RACES, rolled.refused
    assert evening.bot_moves > 0
    rolls = evening.stored.of(DiceRolled)
    by_seat = {e.seat for _, e in rolls}
    assert set(range(1, _PLAYERS + 1)) <= by_seat  # the bots rolled for their seats
    assert not any(e.auto for _, e in rolls)  # nobody was timed out: no clock ran
    finished = {t["table_id"] for t in (await served.http.get("/tables?status=finished")).json()}
    assert evening.table_id in finished
    for number in range(1, _ROUNDS + 1):
        log = await served.http.get(f"/tables/{evening.table_id}/deals/{number}/events")
        assert log.status_code == 200, log.text
        events = [e["event"] for e in log.json()["events"]]
        assert events[0]["type"] == "SeedCommitted" and events[0]["deal"] == number
        reveals = [e for e in events if e["type"] == "SeedRevealed"]
        assert len(reveals) == 1 and reveals[0]["deal"] == number
        ended = [i for i, e in enumerate(events) if e["type"] == "RoundEnded"]
        assert ended and events.index(reveals[0]) > ended[0]  # revealed once the round ended
        assert [e["round"] for e in events if e["type"] == "RoundStarted"] == [number]
        revealed = bytes.fromhex(reveals[0]["secret"])
        assert hashlib.sha256(revealed).hexdigest() == events[0]["commitment"]


async def test_every_round_of_the_evening_verifies_from_the_store(
    evening: Evening, served: Served
) -> None:
    """PF-FAIR-5, PF-FAIR-6, PF-DICE-2: the record of the last round holds every round, and
    the Bunco verifier re-derives each round's seating and dice from its revealed secret;
    each round's own record passes too; the download is the same record."""
    table_id = evening.table_id
    for number in range(1, _ROUNDS + 1):
        answer = await served.http.get(f"/verify/{table_id}-{number}")
        assert answer.status_code == 200, answer.text
        verdict = answer.json()["verdict"]
        assert verdict["passed"] is True, verdict
        assert [(r["number"], r["passed"]) for r in verdict["rounds"]] == [
            (n, True) for n in range(1, number + 1)
        ]
    record = (await served.http.get(f"/verify/{table_id}-{_ROUNDS}")).json()["record"]
    assert record["game"] == "bunco" and record["options"]["players"] == _PLAYERS
    assert [r["number"] for r in record["rounds"]] == list(range(1, _ROUNDS + 1))
    download = await served.http.get(f"/deals/{table_id}-{_ROUNDS}/record")
    assert download.status_code == 200 and download.json() == record


async def test_each_seat_sees_its_own_play_table_in_full_and_the_others_scores(
    evening: Evening,
) -> None:
    """BU-SET-4, BU-SET-6, PF-FAIR-3: in every view a seat was shown, its own table (the
    one it sits at in the stored state of that version) is shown in full, its places and
    dice as stored; every other table shows its two scores only; views go forward."""
    states = evening.stored.states
    checked = 0
    for seat, sockets in evening.seats.items():
        for socket in sockets:
            shown = [m for m in socket.messages if m["type"] in ("welcome", "view")]
            versions = [m["version"] for m in shown]
            assert versions == sorted(set(versions)), f"seat {seat}: views went back"
            for message in shown:
                game = states[message["version"]].game_state
                view = message["view"]
                if game is None or not game.tables:
                    continue
                own = next(i for i, t in enumerate(game.tables, 1) if seat in t.seats)
                assert view["table"] == own, (seat, message["version"])
                for number, (table, stored) in enumerate(
                    zip(view["tables"], game.tables, strict=True), 1
                ):
                    assert tuple(table["scores"]) == stored.scores
                    assert table["full"] is (number == own)
                    if number == own:
                        assert tuple(table["seats"]) == stored.seats
                        assert tuple(table["last"]) == stored.last
                    else:
                        assert table["seats"] == [] and table["last"] == []
                checked += 1
        assert shown[-1]["status"] == "finished", f"seat {seat} did not see the end"
    assert checked > 100 * len(evening.seats)


async def test_every_seat_of_every_table_sees_each_rounds_bell(evening: Evening) -> None:
    """BU-SET-5, BU-END-1, BU-END-2, BU-AMB-4: each round's BellRang is logged right after
    the head-table roll that reached 21, and every seat (nine sockets, the leaver's two
    together) and the spectator were shown that round with the bell rung by that team
    (the leaver, if away then, in the events sent to him on his return);
    no roll of the round at any table is logged after the bell but a tied table's
    roll-off."""
    stored = evening.stored
    bells = {e.round: e for _, e in stored.of(BellRang)}
    assert sorted(bells) == list(range(1, _ROUNDS + 1))
    for number, bell in bells.items():
        at = next(v for v, e in stored.of(BellRang) if e.round == number)
        head = stored.events[at - 2][1]  # the event just before the bell
        assert isinstance(head, DiceRolled) and head.table == 1 and head.round == number
        assert max(head.scores) >= 21 and head.scores[bell.team - 1] >= 21
        after = [e for v, e in stored.of(DiceRolled) if v > at and e.round == number]
        assert after == [], after
    watchers = {seat: _shown(sockets) for seat, sockets in evening.seats.items()}
    watchers[0] = _shown([evening.spectator])
    # the leaver, away when a bell rang, is sent it among the events he missed
    missed = [
        entry["event"]
        for socket in evening.seats[_LEAVER]
        for m in socket.messages
        if m["type"] == "missed"
        for entry in m["events"]
    ]
    heard = {(e["round"], e["team"]) for e in missed if e["type"] == "BellRang"}
    for who, shown in watchers.items():
        for number, bell in bells.items():
            assert any(
                m["view"] is not None
                and m["view"]["round"] == number
                and m["view"]["bell"] == bell.team
                for m in shown
            ) or (who == _LEAVER and (number, bell.team) in heard), (
                f"{'the spectator' if who == 0 else f'seat {who}'} missed round {number}'s bell"
            )


async def test_no_round_secret_is_shown_before_its_reveal(evening: Evening) -> None:
    """PF-FAIR-2, PF-FAIR-3: no frame any socket was sent (views, and the events missed
    while away) carries a round's secret before the version that revealed it; each
    view of a round in play carries its commitment."""
    secrets = evening.stored.secrets()
    assert len(secrets) == _ROUNDS
    sockets = [s for group in evening.seats.values() for s in group] + [evening.spectator]
    for socket in sockets:
        for text, message in zip(socket.raw, socket.messages, strict=True):
            version = message.get("version")
            if message["type"] == "missed":
                for entry in message["events"]:
                    if entry["event"]["type"] == "SeedCommitted":
                        assert entry["event"]["secret"] == ""
                continue
            if version is None:
                assert not any(s in text for s in secrets), message["type"]
                continue
            early = [s for s, revealed in secrets.items() if revealed > version]
            assert not any(s in text for s in early), (socket.seat, version)
            view = message.get("view")
            if view is not None and view["phase"] == "play":
                commitments = evening.stored.of(SeedCommitted)
                committed = [e.commitment for _, e in commitments if e.deal == view["round"]]
                assert view["commitment"] == committed[0]


async def test_a_player_who_drops_comes_back_with_since_and_rolls_on(evening: Evening) -> None:
    """PF-CONN-1, PF-CONN-2: the leaver's socket closed in round 2; the spectator was shown
    his seat away; he reconnected within the grace with `since=` and was sent, after the
    welcome, every event after `since` up to the welcome's version in order (no secret
    before its reveal); he was recorded back, and rolled on to the end from his new
    socket."""
    _, again = evening.seats[_LEAVER]
    assert evening.away_seen
    assert again.messages[0]["type"] == "welcome"
    missed = again.messages[1]
    assert missed["type"] == "missed" and missed["since"] == evening.since
    versions = [e["version"] for e in missed["events"]]
    assert versions == list(range(evening.since + 1, missed["version"] + 1))
    assert missed["version"] == again.messages[0]["version"]
    stored = dict(evening.stored.events)
    kinds = [e["event"]["type"] for e in missed["events"]]
    assert kinds == [type(stored[v]).__name__ for v in versions]
    assert "SeatDisconnected" in kinds
    assert any(
        type(e).__name__ == "SeatReconnected" and e.seat == _LEAVER
        for v, e in evening.stored.events
        if v > evening.since
    )
    rolls_after = [
        e for v, e in evening.stored.of(DiceRolled) if e.seat == _LEAVER and v > missed["version"]
    ]
    assert rolls_after, "the leaver never rolled after he came back"
    assert again.messages[-1]["type"] in ("view", "accepted", "rejected")
    assert _shown([again])[-1]["status"] == "finished"


async def test_tallies_are_those_the_rounds_winners_make_and_the_evening_ranks_them(
    evening: Evening,
) -> None:
    """BU-TALLY-1, BU-TALLY-2, BU-EVE-1..3, BU-MOVE-3: every player won or lost each of the
    6 rounds; the wins, losses and Buncos the spectator was shown at the end are those
    the stored rounds' winners and Buncos make; the evening's winners are the players with
    the most wins and the Bunco ranking the players with the most Buncos; every round
    after the first was seated as the round before left it."""
    view = evening.last["view"]
    wins, losses, buncos = tallies(evening.stored, _PLAYERS)
    assert view["wins"] == wins and view["losses"] == losses and view["buncos"] == buncos
    assert all(w + lost == _ROUNDS for w, lost in zip(wins, losses, strict=True))
    assert sum(wins) == sum(losses) == _ROUNDS * _PLAYERS // 2
    ended = evening.stored.of(EveningEnded)
    assert len(ended) == 1
    result = ended[0][1]
    best = max(wins)
    assert list(result.winners) == [s for s in range(1, _PLAYERS + 1) if wins[s - 1] == best]
    assert view["evening"]["winners"] == list(result.winners)
    most = max(buncos)
    expected = [s for s in range(1, _PLAYERS + 1) if most and buncos[s - 1] == most]
    assert list(result.most_buncos) == expected
    # BU-MOVE-1..5: the next round sits as the last one's RoundEnded said
    moved = {e.round: e.tables for _, e in evening.stored.of(RoundEnded)}
    for _, started in evening.stored.of(RoundStarted):
        if started.round > 1:
            assert started.tables == moved[started.round - 1]
    # the spectator's last view shows every table in full
    assert all(t["full"] and len(t["seats"]) == 4 for t in view["tables"])
    assert view["table"] == 0 and view["legal"]["commands"] == []
