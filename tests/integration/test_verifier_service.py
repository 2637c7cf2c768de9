"""The verifier on deals played through the table service into real PostgreSQL (with the
NATS bus): the deal verifies over HTTP and from the command line; its secret is nowhere in
plain form (events table, snapshots, views, bus) before the reveal; and each kind of
tampering with the stored log is caught at the check it breaks (PF-FAIR-1..7, PF-EX-8).
Hidden cards rest sealed for their table (services/tables/hidden.py): a tamperer that
changes them, or copies a table, holds the seed key and seals again (an operator); one
without the key can only break a seal, and the verifier says so.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import random
import secrets
import subprocess
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import asyncpg
import httpx
import pytest
from msgspec.structs import replace

from engine import banakil
from engine.banakil.autoplay import random_step
from engine.banakil.messages import CardDrawn, CardsDealt, SendClientSeed
from engine.verify import verify_record
from services.bench.verify import bench_database
from services.bus.nats import NatsBus
from services.bus.port import BusMessage, Subscription
from services.gateway.app import create_app
from services.gateway.hub import table_view
from services.gateway.settings import Settings
from services.store.migrate import migrate
from services.store.postgres import PostgresEventStore
from services.tables.codec import decode_event, encode_event, encode_json
from services.tables.seeds import SeedTiming
from services.tables.service import Loaded, TableService
from services.verifier.audit import audit
from services.verifier.records import deal_record


@dataclass
class Played:
    """A sahrat table (seats 1 and 3 human, 2 and 4 bots) whose deal 1 was played to its
    end through the service, and everything that left the service meanwhile."""

    table_id: str
    secret: str = ""
    commitment: str = ""
    reveal_version: int = 0
    views: list[tuple[int, bytes]] = field(default_factory=list)  # (version, view JSON)
    bus: list[tuple[int, bytes]] = field(default_factory=list)  # (version, message JSON)
    dumps: list[tuple[str, int]] = field(default_factory=list)  # the database, mid-deal


@pytest.fixture(scope="module")
async def http(store: PostgresEventStore, bus: NatsBus) -> AsyncIterator[httpx.AsyncClient]:
    app = create_app(store, bus, Settings(token_secret=b"verifier-test-secret-0123456789"))
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://gateway") as client:
        yield client
    await app.state.gateway.close()


async def _dump(conn: asyncpg.Connection[Any], table_id: str) -> tuple[str, int]:
    """Everything the database holds about a table, as text; and how many snapshots."""
    rows = await conn.fetch(
        "SELECT type, data::text, metadata::text FROM events WHERE stream_id = $1", table_id
    )
    snaps = await conn.fetch("SELECT state FROM snapshots WHERE stream_id = $1", table_id)
    text = json.dumps([list(r) for r in rows]) + "".join(bytes(s[0]).decode() for s in snaps)
    return text, len(snaps)


async def _play(
    service: TableService,
    table_id: str,
    rng: random.Random,
    until: Callable[[Any], bool],
    each: Callable[[], Awaitable[None]] | None = None,
) -> None:
    for step in range(3_000):
        game = (await service.load(table_id)).state.game_state
        assert game is not None
        if until(game):
            return
        if each is not None:
            await each()
        seat, command, _ = random_step(game, rng)
        outcome = await service.handle(table_id, seat, command, f"t{step}")
        assert outcome.accepted, outcome
    raise AssertionError("the deal did not end")  # pragma: no cover


@pytest.fixture(scope="module")
async def played(store: PostgresEventStore, bus: NatsBus, database_url: str) -> Played:
    timing = SeedTiming(seed_window=60, cut_seconds=60)
    service = TableService(store, bus, snapshot_every=5, timing=timing)
    created = await service.create_table(
        banakil.options_from("sahrat"), ("human", "bot", "human", "bot")
    )
    out = Played(table_id=created.state.table_id)
    table_id = out.table_id

    def seen(changed: str, loaded: Loaded) -> None:
        if changed == table_id:
            for seat in (None, 1, 2, 3, 4):
                out.views.append((loaded.version, encode_json(table_view(loaded, seat))))

    async def heard(message: BusMessage) -> None:
        # The whole message as published: a notice (issue 10 item 2), no event data.
        out.bus.append((message.version, encode_json(message)))

    service.add_listener(seen)
    subscription: Subscription = await bus.subscribe(table_id, heard)
    conn = await asyncpg.connect(database_url)
    try:
        assert (await service.take_seat(table_id, 1, "Amal")).accepted
        assert (await service.take_seat(table_id, 3, "Chadi")).accepted
        assert (await service.start(table_id, 1)).accepted
        loaded = await service.load(table_id)
        game = loaded.state.game_state
        assert game is not None and game.phase == "seeded"
        # PF-FAIR-2: every seat sees the commitment before any card is dealt.
        view = table_view(loaded, 1)["view"]
        assert view.commitment == game.commitment and not view.hand
        out.commitment = view.commitment
        # At rest, the secret is sealed: a reader of the table cannot use it.
        sealed = await conn.fetchval(
            "SELECT data->>'secret' FROM events WHERE stream_id = $1 AND type = 'SeedCommitted'",
            table_id,
        )
        assert sealed.startswith("enc:v2:")
        assert (await service.handle(table_id, 1, SendClientSeed(seed="alpha"), "c1")).accepted
        assert (await service.handle(table_id, 3, SendClientSeed(seed="gamma"), "c3")).accepted
        rng = random.Random(7)

        async def look() -> None:  # at the database, before each move of the deal
            out.dumps.append(await _dump(conn, table_id))

        await _play(service, table_id, rng, lambda g: g.phase != "play", look)
        rows = await store.read_stream(table_id)
        revealed = next(r for r in rows if r.type == "SeedRevealed")
        out.secret = json.loads(revealed.data)["secret"]
        out.reveal_version = revealed.version
        await asyncio.sleep(0.3)  # the last bus messages
    finally:
        await subscription.unsubscribe()
        await conn.close()
        await service.deadlines.close()
    return out


async def test_a_genuine_deal_verifies_over_http_pf_fair_5_pf_ex_8(
    played: Played, http: httpx.AsyncClient
) -> None:
    deal_id = f"{played.table_id}-1"
    answer = (await http.get(f"/verify/{deal_id}")).json()
    assert set(answer) == {"deal_id", "record", "verdict"}
    assert answer["deal_id"] == deal_id
    verdict = answer["verdict"]
    assert verdict["passed"] is True, verdict
    assert {c["status"] for c in verdict["deals"][0]["checks"]} == {"pass"}
    assert verdict["deals"][0]["commitment"] == played.commitment
    assert hashlib.sha256(bytes.fromhex(played.secret)).hexdigest() == played.commitment
    record = answer["record"]
    assert record["options"] == {"preset": "sahrat"}
    assert record["seats"] == ["Amal", "Bot 2", "Chadi", "Bot 4"]
    deal = record["deals"][0]
    # PF-AMB-12 h: the seats' seeds are in the record, and the replay used them.
    assert deal["seed"] == {"secret": played.secret, "client_seeds": ["alpha", "", "gamma", ""]}
    opening = [(c["seat"], c["command"]["type"]) for c in deal["commands"][:3]]
    assert opening == [(1, "SendClientSeed"), (3, "SendClientSeed"), (0, "Deal")]
    assert deal["events"][0]["type"] == "SeedCommitted" and deal["events"][0]["secret"] == ""
    assert (await http.get(f"/deals/{deal_id}/record")).json() == record
    posted = (await http.post("/verify", content=json.dumps(record))).json()
    assert posted["deal_id"] is None and posted["verdict"]["passed"] is True
    assert posted["record"] == record


async def test_only_a_finished_deal_has_a_record(played: Played, http: httpx.AsyncClient) -> None:
    """PF-FAIR-3: the next deal is committed but not played: no record, no secret."""
    early = await http.get(f"/verify/{played.table_id}-2")
    assert early.status_code == 409
    assert early.json() == {
        "code": "deal_not_finished",
        "rule_id": "PF-FAIR-3",
        "message": early.json()["message"],
    }
    assert (await http.get(f"/deals/{played.table_id}-2/record")).status_code == 409
    assert (await http.get(f"/verify/{played.table_id}-9")).json()["code"] == "no_such_deal"
    assert (await http.get("/verify/nosuchtable-1")).json()["code"] == "no_such_table"
    bad = await http.get("/verify/not-a-deal")
    assert (bad.status_code, bad.json()["code"]) == (400, "bad_deal_id")
    refused = await http.post("/verify", content=b'{"game": "banakil"}')
    assert (refused.status_code, refused.json()["code"]) == (400, "bad_record")


async def test_the_secret_is_not_readable_before_the_reveal_pf_fair_3(played: Played) -> None:
    """Not in the events table nor the snapshots (read directly), not in any view any
    seat or spectator was given, not on the bus — until SeedRevealed."""
    secret = played.secret
    assert len(played.dumps) >= 5
    for dump, snapshots in played.dumps:
        assert dump.count("enc:v2:") >= 1  # the event; a snapshot is sealed whole
        assert dump.count("sahra-sealed:v1:") == snapshots
        assert secret not in dump
    assert played.dumps[-1][1] == 1  # snapshot_every=5: one was taken during the deal
    before = [v for version, v in played.views if version < played.reveal_version]
    assert len(before) > 100
    assert not any(secret.encode() in view for view in before)
    # The bus carries notices, never an event's data: not even the revealed secret.
    heard = [m for _, m in played.bus]
    assert len(heard) > 20 and max(v for v, _ in played.bus) >= played.reveal_version
    assert not any(secret.encode() in message for message in heard)


async def _copy(conn: asyncpg.Connection[Any], table_id: str) -> str:
    """A copy of a table's stream under a new id, to tamper with: what is sealed for the
    table is opened and sealed again for the copy, as only a holder of the key can."""
    copy = f"tampered{secrets.token_hex(6)}"
    rows = await conn.fetch(
        "SELECT version, type, data::text, metadata::text, command_id FROM events "
        "WHERE stream_id = $1 ORDER BY version",
        table_id,
    )
    for version, kind, data, metadata, command_id in rows:
        event = decode_event(data.encode(), table_id)
        await conn.execute(
            "INSERT INTO events (stream_id, version, type, data, metadata, command_id) "
            "VALUES ($1, $2, $3, $4::jsonb, $5::jsonb, $6)",
            copy,
            version,
            kind,
            encode_event(event, copy).data.decode(),
            metadata,
            command_id,
        )
    return copy


async def _reseal(conn: asyncpg.Connection[Any], stream: str, version: int, event: Any) -> None:
    """Replace a stored event, sealed for its stream (a tamperer holding the key)."""
    await conn.execute(
        "UPDATE events SET data = $3::jsonb WHERE stream_id = $1 AND version = $2",
        stream,
        version,
        encode_event(event, stream).data.decode(),
    )


async def _version(conn: asyncpg.Connection[Any], stream: str, kind: str, nth: int = 0) -> int:
    versions = await conn.fetch(
        "SELECT version FROM events WHERE stream_id = $1 AND type = $2 ORDER BY version",
        stream,
        kind,
    )
    return int(versions[nth][0])


async def _set(conn: asyncpg.Connection[Any], stream: str, version: int, path: str, v: Any) -> None:
    await conn.execute(
        "UPDATE events SET data = jsonb_set(data, $3::text[], $4::jsonb) "
        "WHERE stream_id = $1 AND version = $2",
        stream,
        version,
        path.strip("{}").split(","),
        json.dumps(v),
    )


async def _data(conn: asyncpg.Connection[Any], stream: str, version: int) -> Any:
    text = await conn.fetchval(
        "SELECT data::text FROM events WHERE stream_id = $1 AND version = $2", stream, version
    )
    return json.loads(text)


async def _tamper(conn: asyncpg.Connection[Any], stream: str, kind: str) -> int:
    """Change the stored log; returns the version of the event that was changed."""
    if kind == "seed":
        v = await _version(conn, stream, "SeedRevealed")
        await _set(conn, stream, v, "{secret}", "0" * 64)
    elif kind == "commitment":
        v = await _version(conn, stream, "SeedCommitted")
        await _set(conn, stream, v, "{commitment}", "ab" * 32)
    elif kind == "dealt card":
        v = await _version(conn, stream, "CardsDealt")
        dealt = decode_event(json.dumps(await _data(conn, stream, v)).encode(), stream)
        assert isinstance(dealt, CardsDealt)
        hands, stock = [list(h) for h in dealt.hands], list(dealt.stock)
        hands[1][0], stock[0] = stock[0], hands[1][0]
        changed = replace(dealt, hands=tuple(tuple(h) for h in hands), stock=tuple(stock))
        await _reseal(conn, stream, v, changed)
    elif kind == "drawn card":
        v = await _version(conn, stream, "CardDrawn", 2)
        drawn = decode_event(json.dumps(await _data(conn, stream, v)).encode(), stream)
        assert isinstance(drawn, CardDrawn)
        card = "JK#2" if drawn.card != "JK#2" else "JK#1"
        await _reseal(conn, stream, v, replace(drawn, card=card))
    elif kind == "score":
        v = await _version(conn, stream, "DealScored")
        score = (await _data(conn, stream, v))["teams"][0]["score"]
        await _set(conn, stream, v, "{teams,0,score}", score + 2)
    elif kind == "removed event":  # an event of the deal's last command, which stays
        v = await _version(conn, stream, "DealEnded")
        await conn.execute("DELETE FROM events WHERE stream_id = $1 AND version = $2", stream, v)
    elif kind == "removed command":  # a whole append: the command and its event
        v = await _version(conn, stream, "CardDiscarded", 3)
        await conn.execute("DELETE FROM events WHERE stream_id = $1 AND version = $2", stream, v)
    elif kind == "reordered events":
        v = await _version(conn, stream, "CardDrawn", 3)  # swapped with the event after it
        await conn.execute(
            "UPDATE events e SET type = o.type, data = o.data "
            "FROM events o WHERE e.stream_id = $1 AND o.stream_id = $1 "
            "AND ((e.version = $2 AND o.version = $2 + 1) "
            "OR (e.version = $2 + 1 AND o.version = $2))",
            stream,
            v,
        )
    else:  # "rejected command": a second Draw inserted right after a Draw
        v = await _version(conn, stream, "CardDrawn", 2) + 1
        drawn = await _data(conn, stream, v - 1)
        await conn.execute(
            "UPDATE events SET version = version + 1000000 WHERE stream_id = $1 AND version >= $2",
            stream,
            v,
        )
        await conn.execute(
            "UPDATE events SET version = version - 999999 WHERE stream_id = $1 "
            "AND version > 1000000",
            stream,
        )
        # The draw before, replayed as it is stored: its sealed card opens here too (the
        # seal binds the table and the type, not the version), and the rules refuse it.
        forged = drawn
        seat = drawn["public"]["seat"]
        meta = {"command_id": "forged", "seat": seat, "command": {"type": "Draw"}}
        await conn.execute(
            "INSERT INTO events (stream_id, version, type, data, metadata, command_id) "
            "VALUES ($1, $2, 'CardDrawn', $3::jsonb, $4::jsonb, 'forged')",
            stream,
            v,
            json.dumps(forged),
            json.dumps(meta),
        )
    return v


TAMPERING = {
    "seed": ("commitment", "SHA-256 of the revealed seed"),
    "commitment": ("commitment", "ab" * 32),
    "dealt card": ("deck", "CardsDealt"),
    "drawn card": ("draws", "CardDrawn"),
    "removed event": ("commands", "is missing from the log"),
    "removed command": ("commands", "is refused by the rules"),
    "reordered events": ("draws", "in the wrong order"),
    "score": ("scores", "DealScored"),
    "rejected command": ("commands", "is refused by the rules"),
}


@pytest.mark.parametrize("kind", list(TAMPERING))
async def test_tampering_with_the_stored_log_is_caught_at_its_check(
    played: Played, http: httpx.AsyncClient, store: PostgresEventStore, database_url: str, kind: str
) -> None:
    """A changed seed or commitment (PF-FAIR-1/2/3), a card changed in a dealt hand or a
    drawn card (PF-FAIR-1/5), an event removed, events reordered, a score changed, and a
    command the rules reject inserted into the log."""
    conn = await asyncpg.connect(database_url)
    try:
        copy = await _copy(conn, played.table_id)
        await _tamper(conn, copy, kind)
    finally:
        await conn.close()
    answer = (await http.get(f"/verify/{copy}-1")).json()
    verdict = answer["verdict"]
    assert verify_record(await deal_record(store, f"{copy}-1")).passed is False
    assert verdict["passed"] is False
    failed = [c for c in verdict["deals"][0]["checks"] if c["status"] == "fail"]
    check, words = TAMPERING[kind]
    assert [c["name"] for c in failed] == [check], failed
    assert words in failed[0]["detail"], failed[0]["detail"]
    if kind not in ("seed", "commitment"):
        assert verdict["deals"][0]["checks"][0] == {
            "name": "commitment",
            "status": "pass",
            "detail": "the revealed seed hashes to the commitment shown before the deal",
            "difference": None,
        }


async def test_a_seal_broken_without_the_key_is_reported_not_verified(
    played: Played, http: httpx.AsyncClient, database_url: str
) -> None:
    """A reader of the database without the seed key cannot change a hidden card: the
    most it can do is break its seal, and the deal then has no record (and no verdict)."""
    conn = await asyncpg.connect(database_url)
    try:
        copy = await _copy(conn, played.table_id)
        v = await _version(conn, copy, "CardsDealt")
        sealed = (await _data(conn, copy, v))["sealed"]
        await _set(
            conn, copy, v, "{sealed}", sealed[:-6] + ("AAAA==" if sealed[-6] != "A" else "BBBB==")
        )
    finally:
        await conn.close()
    answer = await http.get(f"/verify/{copy}-1")
    assert answer.status_code == 500
    assert answer.json()["code"] == "cannot_open_sealed"
    assert "does not open: it was altered" in answer.json()["message"]


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "services.cli.verify", *args],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


async def _fresh_database(database_url: str) -> str:
    name = f"sahra_verify_{secrets.token_hex(4)}"
    conn = await asyncpg.connect(database_url)
    try:
        await conn.execute(f'CREATE DATABASE "{name}"')
    finally:
        await conn.close()
    return urlunsplit(urlsplit(database_url)._replace(path=f"/{name}"))


async def test_sahra_verify_checks_a_stored_deal_and_audits_them_all(
    database_url: str, bus: NatsBus
) -> None:
    url = await _fresh_database(database_url)
    await migrate(url)
    store = await PostgresEventStore.connect(url)
    service = TableService(store, bus, timing=SeedTiming(seed_window=0, reveal_seconds=0))
    try:
        tables = []
        for preset in ("classic", "sahrat"):
            created = await service.create_table(
                banakil.options_from(preset), ("human", "bot", "bot", "bot")
            )
            table_id = created.state.table_id
            await service.take_seat(table_id, 1, "Amal")
            await service.start(table_id, 1)
            await _play(service, table_id, random.Random(3), lambda g: g.deal > 2)
            tables.append(table_id)
        summary = await audit(store)
        assert (summary.deals, summary.verified, summary.tables) == (4, 4, 2)
    finally:
        await service.deadlines.close()
        await store.close()

    one = await asyncio.to_thread(_cli, f"{tables[0]}-2", "--database-url", url)
    assert one.returncode == 0, one.stderr
    assert one.stdout.splitlines()[0] == f"deal {tables[0]}-2: verified"
    as_json = await asyncio.to_thread(_cli, f"{tables[1]}-1", "--json", "--database-url", url)
    assert json.loads(as_json.stdout)["verdict"]["passed"] is True
    unfinished = await asyncio.to_thread(_cli, f"{tables[1]}-3", "--database-url", url)
    assert unfinished.returncode == 2 and "still being played" in unfinished.stderr
    every = await asyncio.to_thread(_cli, "--all", "--database-url", url)
    assert every.returncode == 0, every.stdout + every.stderr
    assert "audited 4 finished deals at 2 tables" in every.stdout
    assert "verified 4/4 deals" in every.stderr  # the progress, on stderr

    conn = await asyncpg.connect(url)
    try:
        await _tamper(conn, tables[1], "score")
        since = await conn.fetchval(
            "SELECT max(position) FROM events WHERE stream_id = $1 AND type = 'DealScored'",
            tables[0],
        )
    finally:
        await conn.close()
    failed = await asyncio.to_thread(_cli, "--all", "--database-url", url)
    assert failed.returncode == 1
    assert f"{tables[1]}-1: FAILED: scores:" in failed.stdout
    assert f"{tables[1]}-2: UNCHECKED" in failed.stdout
    later = await asyncio.to_thread(_cli, "--all", "--since", str(since), "--database-url", url)
    assert "audited 2 finished deals at 1 table" in later.stdout
    offline = await asyncio.to_thread(_cli, "--file", "/nonexistent.json")
    assert offline.returncode == 2


async def test_the_database_bench_audits_what_it_stored(database_url: str) -> None:
    figures = await bench_database(database_url, 3, seed=2)
    assert figures["deals"] >= 3 and figures["deals_per_s"] > 0
