"""A seat's questions through the running gateway (issue 14, "In the game"): hints
(PF-HINT-1..3, PF-AMB-20), staging checks (PF-STAGE-4/5/8, PF-AMB-22, RM-MOVE-4) and the
hand order (PF-SORT-1..3), over real PostgreSQL and NATS and real sockets.

Each answer goes to the asking socket alone: no other seat, no spectator and no bus
subscriber hears of it, and the store holds no new event (its stream version and the
global log are the same before and after). A hint is exactly `Game.hints` of the state the
gateway holds; a staging answer is the refusal laying the same group gets; the hand order
comes back after a reconnect, and cards drawn since come last.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import msgspec
import pytest

from engine import protocol
from services.bus.nats import NatsBus
from services.bus.port import BusMessage
from services.gateway.app import create_app
from services.gateway.settings import Settings
from services.gateway.wiring import Gateway
from services.store.migrate import migrate
from services.store.port import Checkpoint
from services.store.postgres import PostgresEventStore
from tests.e2e.gateway_support import Client, running

_EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
_ASKS = ("hint", "staged", "hand_order", "refused")


@dataclass
class Served:
    base: str
    http: httpx.AsyncClient
    store: PostgresEventStore
    bus: NatsBus
    gateway: Gateway


@pytest.fixture(scope="module")
async def served(database_url: str, nats_url: str) -> AsyncIterator[Served]:
    await migrate(database_url)
    store = await PostgresEventStore.connect(database_url)
    bus = await NatsBus.connect(nats_url)
    settings = Settings(
        token_secret=b"seat-asks-secret-0123456789abc",
        allow_stacked_decks=True,
        hints_per_second=0.5,
        hints_burst=3,
    )
    app = create_app(store, bus, settings)
    try:
        async with (
            running(app) as base,
            httpx.AsyncClient(base_url=base, timeout=15) as http,
        ):
            yield Served(base=base, http=http, store=store, bus=bus, gateway=app.state.gateway)
    finally:
        await bus.close()
        await store.close()


class _Asker:
    """Questions on one socket, each answered by the message naming its request."""

    def __init__(self, client: Client) -> None:
        self.client = client
        self._n = 0

    async def ask(self, message: dict[str, Any]) -> dict[str, Any]:
        self._n += 1
        request_id = f"q{self._n}"
        await self.client.ws.send(json.dumps({**message, "request_id": request_id}))
        return await self.client.wait_for(
            lambda m: m["type"] in _ASKS and m.get("request_id") == request_id
        )


async def _sahrat_table(served: Served) -> tuple[str, dict[int, str]]:
    """The stacked deal of the protocol's examples: seat 1 starts with 19 cards, drawn."""
    record = json.loads((_EXAMPLES / "sahrat-stacked-deal.json").read_text())
    response = await served.http.post(
        "/tables",
        json={
            "ruleset": "sahrat",
            "seats": ["human"] * 4,
            "player": record["seats"][0],
            "deck": record["deals"][0]["deck"],
        },
    )
    assert response.status_code == 201, response.text
    table_id = response.json()["table_id"]
    tokens = {1: response.json()["token"]}
    for seat, name in enumerate(record["seats"][1:], start=2):
        joined = await served.http.post(f"/tables/{table_id}/seats/{seat}", json={"player": name})
        tokens[seat] = joined.json()["token"]
    started = await served.http.post(
        f"/tables/{table_id}/start", headers={"Authorization": f"Bearer {tokens[1]}"}
    )
    assert started.status_code == 200, started.text
    return table_id, tokens


async def _log_mark(served: Served) -> Checkpoint:
    """Where the global log ends now."""
    mark = Checkpoint()
    while True:
        events, after = await served.store.read_all(mark, limit=10_000)
        if not events:
            return mark
        mark = after


async def _listening(served: Served, table_id: str) -> list[BusMessage]:
    heard: list[BusMessage] = []

    async def hear(message: BusMessage) -> None:
        heard.append(message)

    await served.bus.subscribe(table_id, hear)
    return heard


async def test_hints_go_to_the_asking_seat_alone_and_equal_game_hints(served: Served) -> None:
    """PF-HINT-1, PF-HINT-3, PF-AMB-20: seat 1's hint is `Game.hints` of the table the
    gateway holds, sent to seat 1's socket alone (not seat 1's partner, not the opponents,
    not a spectator, not the bus); nothing is stored; the hint restricts no play."""
    table_id, tokens = await _sahrat_table(served)
    clients = {
        seat: await Client.open(served.base, table_id, token) for seat, token in tokens.items()
    }
    watcher = await Client.open(served.base, table_id)
    heard = await _listening(served, table_id)
    version = await served.store.stream_version(table_id)
    mark = await _log_mark(served)
    try:
        got = await _Asker(clients[1]).ask({"type": "hint"})
        loaded = await served.gateway.service.load(table_id)
        game = protocol.get("banakil")
        expected = json.loads(msgspec.json.encode(game.hints(loaded.state.game_state, 1)))
        assert got["type"] == "hint" and got["version"] == version == loaded.version
        assert got["hint"] == expected
        assert got["hint"]["melds"], "the stacked hand holds ready melds"
        for other in (*(clients[s] for s in (2, 3, 4)), watcher):
            await other.round_trip()
            assert not [m for m in other.messages if m["type"] in _ASKS]
            assert not [r for r in other.raw if '"lay_offs"' in r]
        await asyncio.sleep(0.3)  # a notice, had there been one, would be here by now
        assert heard == []
        assert await served.store.stream_version(table_id) == version
        assert await _log_mark(served) == mark

        # PF-HINT-3: a command the hint does not suggest is accepted all the same.
        hand = clients[1].newest_view()["view"]["hand"]  # type: ignore[index]
        hinted = {card for meld in got["hint"]["melds"] for card in meld}
        plain = next(c for c in hand if c.split("#")[0] not in hinted)
        reply = await clients[1].command({"type": "Discard", "card": plain})
        assert reply["type"] == "accepted", reply

        # A spectator asks about nothing.
        refused = await _Asker(watcher).ask({"type": "hint"})
        assert (refused["type"], refused["code"]) == ("refused", "spectator")
    finally:
        for client in (*clients.values(), watcher):
            await client.close()


async def test_hints_are_rate_limited_per_seat_and_refused_where_the_rules_have_none(
    served: Served,
) -> None:
    """At most `hints_burst` hints at once, then `too_many_requests` (PF-HINT-3); another
    seat's own hints are counted apart. `classic` offers none (BK-AMB-30, PF-AMB-19)."""
    table_id, tokens = await _sahrat_table(served)
    three = _Asker(await Client.open(served.base, table_id, tokens[3]))
    four = _Asker(await Client.open(served.base, table_id, tokens[4]))
    try:
        answers = [await three.ask({"type": "hint"}) for _ in range(5)]
        assert [a["type"] for a in answers] == ["hint"] * 3 + ["refused"] * 2
        assert answers[3]["code"] == "too_many_requests"
        assert answers[3]["rule_id"] == "PF-HINT-3" and "a second per seat" in answers[3]["message"]
        assert (await four.ask({"type": "hint"}))["type"] == "hint"
    finally:
        await three.client.close()
        await four.client.close()

    created = await served.http.post("/tables", json={"ruleset": "classic", "player": "Hala"})
    classic = created.json()
    asker = _Asker(await Client.open(served.base, classic["table_id"], classic["token"]))
    try:
        refused = await asker.ask({"type": "hint"})
        assert (refused["type"], refused["code"], refused["rule_id"]) == (
            "refused",
            "no_hints",
            "BK-AMB-30",
        )
    finally:
        await asker.client.close()


async def test_a_staged_group_is_answered_as_laying_it_would_be_and_nothing_is_stored(
    served: Served,
) -> None:
    """PF-STAGE-4, PF-STAGE-5, PF-STAGE-8: the seat on turn and a seat waiting may ask; a
    red group's refusal is the one its Meld gets (code, rule, sentence); a green one is laid
    as it was shown; asking stores no event (staging produces no server event)."""
    table_id, tokens = await _sahrat_table(served)
    one = _Asker(await Client.open(served.base, table_id, tokens[1]))
    two = _Asker(await Client.open(served.base, table_id, tokens[2]))
    heard = await _listening(served, table_id)
    version = await served.store.stream_version(table_id)
    mark = await _log_mark(served)
    try:
        groups = [{"cards": ["5H", "JK", "7H"]}, {"cards": ["9C", "KS", "AD"]}]
        staged = await one.ask({"type": "stage", "proposal": {"groups": groups}})
        assert staged["type"] == "staged" and staged["version"] == version
        green, red = staged["staged"]["groups"]
        assert green["ok"] and green["kind"] == "run"
        assert not red["ok"] and red["code"]
        # The seat waiting for its turn may stage too (PF-STAGE-4).
        waiting = await two.ask({"type": "stage", "proposal": {"groups": groups}})
        assert [g["ok"] for g in waiting["staged"]["groups"]] == [False, False]
        assert waiting["staged"]["groups"][0]["code"] == "card_not_in_hand"
        bad = await one.ask({"type": "stage", "proposal": {"groups": [{"cards": ["AS"]}] * 13}})
        assert (bad["type"], bad["code"]) == ("refused", "bad_proposal")
        await asyncio.sleep(0.3)
        assert heard == []
        assert await served.store.stream_version(table_id) == version
        assert await _log_mark(served) == mark

        rejected = await one.client.command({"type": "Meld", "cards": groups[1]["cards"]})
        assert rejected["type"] == "rejected"
        assert (rejected["code"], rejected["rule_id"], rejected["message"]) == (
            red["code"],
            red["rule_id"],
            red["message"],
        )
        accepted = await one.client.command({"type": "Meld", "cards": groups[0]["cards"]})
        assert accepted["type"] == "accepted"
        view = await one.client.view_at(accepted["version"])
        assert view["view"]["melds"][-1]["cards"] == green["cards"]
    finally:
        await one.client.close()
        await two.client.close()


async def test_a_hand_order_survives_a_reconnect_and_drawn_cards_come_last(
    served: Served,
) -> None:
    """PF-SORT-1..3: seat 2 orders its hand by hand; a card not in it is refused; after a
    reconnect the welcome shows the hand in that order and says the order; the card it
    draws next comes last; no event was stored for any of it."""
    table_id, tokens = await _sahrat_table(served)
    one = await Client.open(served.base, table_id, tokens[1])
    two = _Asker(await Client.open(served.base, table_id, tokens[2]))
    version = await served.store.stream_version(table_id)
    hand = two.client.newest_view()["view"]["hand"]  # type: ignore[index]
    mine = list(reversed(hand))
    try:
        wrong = await two.ask({"type": "hand_order", "order": "manual", "cards": ["QH#9"]})
        assert (wrong["type"], wrong["code"], wrong["rule_id"]) == (
            "refused",
            "card_not_in_hand",
            "PF-SORT-1",
        )
        set_ = await two.ask({"type": "hand_order", "order": "manual", "cards": mine})
        assert set_["type"] == "hand_order" and set_["order"] == "manual"
        assert set_["cards"] == set_["hand"] == mine
        assert await served.store.stream_version(table_id) == version  # PF-SORT-3
    finally:
        await two.client.close()

    back = await Client.open(served.base, table_id, tokens[2])
    try:
        assert back.messages[0]["type"] == "welcome"
        assert back.messages[0]["view"]["hand"] == mine
        told = await back.wait_for(lambda m: m["type"] == "hand_order")
        assert told["request_id"] is None and told["hand"] == mine
        # Seat 1 discards, seat 2 draws: the drawn card follows the arranged ones.
        discard = await one.command({"type": "Discard", "card": "QH#2"})
        assert discard["type"] == "accepted", discard
        drawn = await back.command({"type": "Draw"})
        assert drawn["type"] == "accepted", drawn
        view = await back.view_at(drawn["version"])
        assert (
            view["view"]["hand"][: len(mine)] == mine and len(view["view"]["hand"]) == len(mine) + 1
        )
        by_suit = await _Asker(back).ask({"type": "hand_order", "order": "suit"})
        assert by_suit["cards"] == [] and by_suit["hand"] != view["view"]["hand"]
        assert sorted(by_suit["hand"]) == sorted(view["view"]["hand"])
    finally:
        await back.close()
        await one.close()


async def test_rummy_hints_and_private_tables_are_the_engines_own(served: Served) -> None:
    """A rummy seat's hint is `Game.hints` (RM-OPT-1a's hint, PF-HINT-2); its private copy
    is checked as a Play of that table is (RM-MOVE-4, PF-AMB-22): the same refusal."""
    served.gateway.service.secrets_source = lambda: bytes(range(32))
    created = await served.http.post(
        "/tables",
        json={
            "game": "rummy",
            "variant": "manipulation",
            "options": {"seats": 2},
            "player": "Hala",
        },
    )
    table_id, host = created.json()["table_id"], created.json()["token"]
    joined = await served.http.post(f"/tables/{table_id}/seats/2", json={"player": "Ilyas"})
    tokens = {1: host, 2: joined.json()["token"]}
    await served.http.post(f"/tables/{table_id}/start", headers={"Authorization": f"Bearer {host}"})
    clients = {s: await Client.open(served.base, table_id, t) for s, t in tokens.items()}
    try:
        view = await clients[1].wait_for_view(lambda m: (m["view"] or {}).get("phase") == "play")
        turn = view["view"]["turn"]
        asker = _Asker(clients[turn])
        version = await served.store.stream_version(table_id)
        got = await asker.ask({"type": "hint"})
        loaded = await served.gateway.service.load(table_id)
        game = protocol.get("rummy")
        assert got["hint"] == json.loads(
            msgspec.json.encode(game.hints(loaded.state.game_state, turn))
        )

        hand = (await clients[turn].wait_for_view(lambda m: True))["view"]["hand"]
        proposal = {"table": [hand[:2]], "names": {}}
        staged = await asker.ask({"type": "stage", "proposal": proposal})
        assert staged["type"] == "staged" and not staged["staged"]["ok"]
        assert await served.store.stream_version(table_id) == version
        played = await clients[turn].command({"type": "Play", **proposal, "added": hand[:2]})
        assert played["type"] == "rejected"
        answer = staged["staged"]
        assert (played["code"], played["rule_id"], played["message"]) == (
            answer["code"],
            answer["rule_id"],
            answer["message"],
        )
    finally:
        for client in clients.values():
            await client.close()


async def test_a_slow_hint_is_searched_off_the_event_loop(served: Served) -> None:
    """A hint that searches for a long time holds neither the loop nor other tables: while
    one runs (a hint made slow on purpose), the gateway answers HTTP at once, and the hint
    is given up after `hint_seconds` with `hint_timeout`."""
    table_id, tokens = await _sahrat_table(served)
    asks = served.gateway.asks
    game = protocol.get("banakil")

    def slow(state: Any, seat: int) -> Any:
        time.sleep(3.0)  # as a search would, but without holding the GIL's share of a test
        return game.hints(state, seat)

    original = asks._hint_seconds  # the test shortens the cap
    asks._hint_seconds = 0.5
    # The registered Game is frozen: the registry holds a copy with a slow `hints` meanwhile.
    protocol._GAMES["banakil"] = dataclasses.replace(game, hints=slow)
    asker = _Asker(await Client.open(served.base, table_id, tokens[1]))
    try:
        asking = asyncio.create_task(asker.ask({"type": "hint"}))
        await asyncio.sleep(0.1)
        started = time.perf_counter()
        health = await served.http.get("/tables")
        assert health.status_code == 200 and time.perf_counter() - started < 0.4
        refused = await asking
        assert (refused["type"], refused["code"], refused["rule_id"]) == (
            "refused",
            "hint_timeout",
            "PF-HINT-3",
        )
    finally:
        protocol._GAMES["banakil"] = game
        asks._hint_seconds = original
        await asker.client.close()
