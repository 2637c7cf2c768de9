"""Rummy through the running services, end to end, in each of its seven variants.

The gateway over HTTP and WebSocket, PostgreSQL (a database of this module's own) and
NATS, the bots worker: for each variant (RM-CORE-3) a two-seat table is made with
`POST /play-vs-computer` (PF-MODE-1, the variant named as the issue writes it) or
`POST /tables` with a bot seat (PF-ROOM-2, PF-ROOM-5), its host plays over his socket with
the game's scripted client (the bot's own move on his own view, PF-BOT-4) while the bots
worker plays the other seat, and a spectator watches; every round is committed, dealt and
revealed by the services' follow-ups (PF-FAIR-1..3, RM-CORE-7) until the game ends
(RM-MAN-8, RM-CAR-21, single rounds elsewhere; Shanghai's host stops it in its second
round, RM-AMB-22). Then every round verifies from the store (PF-FAIR-5), and neither the
spectator nor the host was ever shown a card he may not know.
"""

from __future__ import annotations

import asyncio
import hashlib
import io
import json
import time
from collections.abc import AsyncIterator
from contextlib import redirect_stdout
from dataclasses import dataclass
from typing import Any

import asyncpg
import pytest
from msgspec.structs import replace

from engine.rummy.messages import CardsDrawn, PlayReminded, RoundDealt, SeedCommitted
from services.cli import verify as verify_cli
from services.tables.codec import decode_event, encode_event
from tests.e2e.gateway_support import Client, states_by_version
from tests.e2e.rummy_support import (
    VARIANTS,
    Played,
    Served,
    bots_running,
    cards_in,
    leaks,
    play_seat,
    secret,
    served_gateway,
)

# Options that keep a game short: the smallest table; Manipulation to its lower target.
_OPTIONS: dict[str, dict[str, Any]] = {v: {"seats": 2} for v in VARIANTS}
# Made with `POST /tables` and a bot seat; the others with `POST /play-vs-computer`.
_LOBBY = ("machiavelli", "guadeloupe", "vatican")
_STOP_IN_ROUND = 2  # Shanghai never ends by itself (RM-AMB-22): its host stops it here
SECONDS: dict[str, float] = {}  # each variant's game, from its creation to its end


@dataclass
class Game:
    """A game played to its end: the table, the host's socket and the spectator's."""

    played: Played
    host: Client
    spectator: Client
    last: dict[str, Any]  # the spectator's last view
    seconds: float


@pytest.fixture(scope="module")
async def served(database_url: str, nats_url: str) -> AsyncIterator[Served]:
    async with served_gateway(database_url, nats_url, "rummy_e2e") as it:
        yield it


class _Games:
    """Each variant's game, played once for the module (the audit test reads them all)."""

    def __init__(self, served: Served) -> None:
        self.served = served
        self.games: dict[str, Game] = {}

    async def get(self, variant: str) -> Game:
        if variant not in self.games:
            self.games[variant] = await _play(self.served, variant)
        return self.games[variant]

    async def close(self) -> None:
        for game in self.games.values():
            await game.host.close()
            await game.spectator.close()


@pytest.fixture(scope="module")
async def games(served: Served) -> AsyncIterator[_Games]:
    made = _Games(served)
    yield made
    await made.close()


async def _create(served: Served, variant: str) -> tuple[str, str]:
    """A started two-seat table of `variant`, the host (seat 1) against a bot; its id and
    the host's token."""
    http = served.http
    options = _OPTIONS[variant]
    if variant in _LOBBY:
        body = {
            "game": "rummy",
            "variant": variant,
            "options": options,
            "seats": ["human", "bot"],
            "player": "Salma",
        }
        created = await http.post("/tables", json=body)
        assert created.status_code == 201, created.text
        table_id, token = created.json()["table_id"], created.json()["token"]
        started = await http.post(
            f"/tables/{table_id}/start", headers={"Authorization": f"Bearer {token}"}
        )
        assert started.status_code == 200, started.text
        return table_id, token
    body = {"game": "rummy", "variant": variant, "options": options, "player": "Salma"}
    created = await http.post("/play-vs-computer", json=body)
    assert created.status_code == 201, created.text
    answer = created.json()
    assert answer["seat"] == 1
    return answer["table_id"], answer["token"]


async def _play(served: Served, variant: str) -> Game:
    began = time.perf_counter()
    served.fix_secrets(secret(variant))
    table_id, token = await _create(served, variant)
    lobby = (await served.http.get(f"/tables/{table_id}")).json()
    assert lobby["status"] == "playing"
    assert [s["kind"] for s in lobby["seats"]] == ["human", "bot"]
    assert lobby["view"]["variant"] == variant
    host = await Client.open(served.base, table_id, token)
    spectator = await Client.open(served.base, table_id)
    played = Played(table_id=table_id, variant=variant)
    stop = None
    if variant == "shanghai":

        def stop(view: dict[str, Any]) -> bool:
            return bool(view["round"] >= _STOP_IN_ROUND and view["phase"] == "play")

    async with bots_running(served, {table_id}):
        await play_seat(host, played, stop_after=stop)
        last = await spectator.wait_for_view(lambda m: m["status"] == "finished")
    seconds = time.perf_counter() - began
    SECONDS[variant] = seconds
    return Game(played=played, host=host, spectator=spectator, last=last, seconds=seconds)


def _rounds(view: dict[str, Any]) -> int:
    return int(view["round"])


@pytest.mark.parametrize("variant", VARIANTS)
async def test_a_game_of_each_variant_is_played_to_its_end_through_the_services(
    games: _Games, served: Served, variant: str
) -> None:
    """RM-CORE-1, RM-CORE-3, RM-CORE-7, PF-ROOM-2, PF-ROOM-5, PF-MODE-1, PF-BOT-4,
    PF-FAIR-1, PF-FAIR-2, PF-FAIR-3, RM-MAN-8, RM-SHA-5, RM-AMB-22, RM-MAC-5, RM-GUA-7,
    RM-CAR-21, RM-VAT-6, RM-TAH-11: the table plays to the end of its game; every round
    was committed before it was dealt and revealed when it ended."""
    game = await games.get(variant)
    table_id = game.played.table_id
    view = game.last["view"]
    assert view["phase"] == "over" and view["variant"] == variant
    rounds = _rounds(view)
    if variant == "shanghai":
        assert game.played.stopped and rounds == _STOP_IN_ROUND
    else:
        assert view["result"]["game_over"] is True and rounds >= 1
    if variant in ("machiavelli", "guadeloupe", "vatican", "tahiti"):
        assert rounds == 1  # single-round variants
    # The lobby lists it as finished, with its variant (PF-ROOM-2).
    finished = (await served.http.get("/tables", params={"status": "finished"})).json()
    listed = {t["table_id"]: t for t in finished}
    assert listed[table_id]["options"]["variant"] == variant
    # The host played over his socket: every command he sent was his seat's.
    assert game.played.sent, "the host never acted"
    assert all(r["code"] != "not_your_turn" for r in game.played.refused)
    # Every round: committed first, revealed last, the secret hashing to the commitment.
    for number in range(1, rounds + 1):
        log = await served.http.get(f"/tables/{table_id}/deals/{number}/events")
        assert log.status_code == 200, log.text
        events = [e["event"] for e in log.json()["events"]]
        assert events[0]["type"] == "SeedCommitted" and events[0]["deal"] == number
        assert events[-1]["type"] == "SeedRevealed"
        dealt = next(e for e in events if e["type"] == "RoundDealt")
        assert dealt["round"] == number and len(dealt["hands"]) == 2
        revealed = bytes.fromhex(events[-1]["secret"])
        assert hashlib.sha256(revealed).hexdigest() == events[0]["commitment"]


@pytest.mark.parametrize("variant", VARIANTS)
async def test_no_frame_shows_the_spectator_or_the_host_a_card_he_may_not_know(
    games: _Games, served: Served, variant: str
) -> None:
    """RM-CORE-5, PF-FAIR-3, PF-HINT-3: a spectator's frames carry only the table's cards; a
    seat's only the table's and its own hand, never the other seat's hand or the stock
    (the end of a round shows every hand, in `result`)."""
    game = await games.get(variant)
    states = await states_by_version(served.store, game.played.table_id)
    seen = [m for m in game.spectator.messages if m["type"] in ("welcome", "view")]
    assert len(seen) > 3 and all(m["view"]["hand"] is None for m in seen if m["view"])
    assert await leaks(game.spectator, states) == []
    assert await leaks(game.host, states) == []
    hands = [m["view"]["hand"] for m in game.host.messages if m["type"] in ("welcome", "view")]
    assert any(hands), "the host was never shown his own hand"


@pytest.mark.parametrize("variant", VARIANTS)
async def test_every_round_of_each_variant_verifies_from_the_store(
    games: _Games, served: Served, variant: str
) -> None:
    """PF-FAIR-5, PF-EX-8: the record of the game's last round (every round from the
    first) is built from the store, names its game and passes the rummy verifier, round by
    round; the record download is the same record."""
    game = await games.get(variant)
    table_id = game.played.table_id
    rounds = _rounds(game.last["view"])
    deal_id = f"{table_id}-{rounds}"
    verified = await served.http.get(f"/verify/{deal_id}")
    assert verified.status_code == 200, verified.text
    answer = verified.json()
    record, verdict = answer["record"], answer["verdict"]
    assert record["game"] == "rummy" and record["options"]["variant"] == variant
    assert [r["number"] for r in record["rounds"]] == list(range(1, rounds + 1))
    assert verdict["passed"] is True, verdict
    assert [(r["number"], r["passed"]) for r in verdict["rounds"]] == [
        (n, True) for n in range(1, rounds + 1)
    ]
    download = await served.http.get(f"/deals/{deal_id}/record")
    assert download.status_code == 200 and download.json() == record


async def test_no_hand_card_rests_in_clear_in_postgresql(games: _Games, served: Served) -> None:
    """RM-CORE-5, PF-FAIR-3 (docs/fairness.md, "Who can learn what"): read straight from
    PostgreSQL, a rummy table's dealt hands and stock, its drawn cards and a reminder's
    card rest sealed (their public form shows "??"; Tahiti's face-up singletons stay
    public), a round's secret is sealed until its reveal and recorded nowhere in clear,
    and the table's snapshot holds no card."""
    checked = {"RoundDealt": 0, "CardsDrawn": 0, "SeedCommitted": 0}
    for variant in VARIANTS:
        table_id = (await games.get(variant)).played.table_id
        opened = {r.version: decode_event(r) for r in await served.store.read_stream(table_id)}
        conn = await asyncpg.connect(served.url)
        try:
            rows = await conn.fetch(
                "SELECT version, type, data::text, metadata::text FROM events "
                "WHERE stream_id = $1 ORDER BY version",
                table_id,
            )
            snapshots = await conn.fetch(
                "SELECT state FROM snapshots WHERE stream_id = $1", table_id
            )
        finally:
            await conn.close()
        secrets = {e.secret for e in opened.values() if isinstance(e, SeedCommitted)}
        assert secrets and all(secrets)
        for version, kind, data, metadata in rows:
            assert not any(s in data or s in metadata for s in secrets if kind != "SeedRevealed")
            event = opened[version]
            match event:
                case RoundDealt():
                    assert cards_in(data) <= set(event.singletons), (variant, kind)
                    public = json.loads(data)["public"]
                    assert {c for h in public["hands"] for c in h} == {"??"}
                    assert set(public["stock"]) == {"??"}
                case CardsDrawn() | PlayReminded():
                    assert cards_in(data) == set() and '"sealed"' in data, (variant, kind)
                case _:
                    pass
            if kind in checked:
                checked[kind] += 1
        assert all(cards_in(bytes(s["state"]).decode()) == set() for s in snapshots)
    assert all(checked.values()), checked


async def test_verify_all_audits_every_round_and_finds_a_changed_card_at_its_round(
    games: _Games, served: Served
) -> None:
    """PF-FAIR-5, PF-EX-8: `sahra verify --all` over the store of every variant's game
    verifies each finished round by the rummy verifier; a card changed in a stored deal
    (resealed with the key, as a tamperer holding it would) is reported at that round,
    the rounds after it not checked, every other table's rounds still verified. Runs last
    in the module: it changes the stored games."""
    tables = {v: (await games.get(v)).played.table_id for v in VARIANTS}
    rounds = {v: _rounds((await games.get(v)).last["view"]) for v in VARIANTS}
    total = sum(rounds.values())
    code, out = await asyncio.to_thread(_verify_all, served.url)
    assert code == 0, out
    assert f"audited {total} finished deals at {len(VARIANTS)} tables" in out
    assert f"{total} verified, 0 NOT verified" in out

    # Carousel: a card of round 1's deal moved between hands; Vatican: a drawn card changed.
    assert rounds["carousel"] >= 2
    await _change_stored(served.url, tables["carousel"], "RoundDealt", _swap_dealt)
    await _change_stored(served.url, tables["vatican"], "CardsDrawn", _other_card)
    code, out = await asyncio.to_thread(_verify_all, served.url)
    assert code == 1, out
    unchecked = rounds["carousel"] - 1
    assert f"{total - 2 - unchecked} verified, 2 NOT verified, {unchecked} not checked" in out
    assert f"  {tables['carousel']}-1: FAILED: events: event " in out
    assert f"  {tables['carousel']}-2: UNCHECKED:" in out
    assert f"  {tables['vatican']}-1: FAILED: events: event " in out
    # The table's own record says the same, at the same round.
    answer = (await served.http.get(f"/verify/{tables['carousel']}-{rounds['carousel']}")).json()
    assert [(r["number"], r["passed"]) for r in answer["verdict"]["rounds"]] == [(1, False)]


def _verify_all(url: str) -> tuple[int, str]:
    out = io.StringIO()
    with redirect_stdout(out):
        code = verify_cli.main(["--all", "--database-url", url])
    return code, out.getvalue()


async def _change_stored(url: str, table_id: str, kind: str, change: Any) -> None:
    """Change the first stored event of `kind` at the table, sealed again for it."""
    conn = await asyncpg.connect(url)
    try:
        row = await conn.fetchrow(
            "SELECT version, data::text FROM events WHERE stream_id = $1 AND type = $2 "
            "ORDER BY version LIMIT 1",
            table_id,
            kind,
        )
        assert row is not None
        version, data = row
        event = decode_event(data.encode(), table_id, game="rummy")
        changed = change(event)
        assert changed != event
        await conn.execute(
            "UPDATE events SET data = $3::jsonb WHERE stream_id = $1 AND version = $2",
            table_id,
            version,
            encode_event(changed, table_id).data.decode(),
        )
    finally:
        await conn.close()


def _swap_dealt(event: RoundDealt) -> RoundDealt:
    first, second = list(event.hands[0]), list(event.hands[1])
    first[0], second[0] = second[0], first[0]
    return replace(event, hands=(tuple(first), tuple(second)))


def _other_card(event: CardsDrawn) -> CardsDrawn:
    card = event.cards[0]
    other = "KS#1" if card != "KS#1" else "QS#1"
    return replace(event, cards=(other, *event.cards[1:]))
