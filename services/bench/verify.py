"""`sahra bench verify`: complete deals (units of play) verified per second.

Offline: deals are played by the game's random player in memory (not timed), each kept as
a deal record with its events, then verified one by one with the game's own audit
(`Game.records.verify`, `engine.verify.verify_record` for Banakil) in this process, on
one core. From the database: N deals are played through the table
service into PostgreSQL (--database-url, else $SAHRA_DATABASE_URL, else an embedded server
in a temporary directory; always in a scratch schema dropped at the end), then the batch
audit (`sahra verify --all`) reads and verifies all of them. Figures go to stdout as JSON
lines: wall-clock rates and, offline, rates over this process's CPU time too.

`--game` names the game (default banakil), reached through the registry and
`engine.players` like everything else: this module names no game.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

import msgspec

from engine import players, protocol
from engine.replay import DealRecord, Record, SeatCommand, Seed

__all__ = [
    "GOAL",
    "bench_database",
    "bench_offline",
    "random_record",
    "register_bench",
    "store_deals",
]

GOAL = 500.0  # complete deals verified per second, offline, one core
_GAME = protocol.DEFAULT_GAME  # the default of --game
_NAMES = ("Amal", "Badr", "Chadi", "Dunya", "Elias", "Farah", "Ghada", "Hadi")


def register_bench(bench_subparsers: Any) -> None:
    """Add `verify` to the sub-commands of `sahra bench`."""
    parser = bench_subparsers.add_parser(
        "verify", help="deals verified per second: offline, and an audit of stored deals"
    )
    parser.add_argument("--game", default=_GAME, help=f"the game (default {_GAME})")
    parser.add_argument("--deals", type=int, default=300, help="offline deals per rule set")
    parser.add_argument(
        "--stored", type=int, default=100, help="deals stored for the database case (0: skip)"
    )
    parser.add_argument(
        "--database-url",
        help="PostgreSQL URL (default: $SAHRA_DATABASE_URL, else an embedded server)",
    )
    parser.add_argument("--seed", type=int, default=1, help="the random bot's seed")
    parser.set_defaults(run=_run)


def random_record(preset: str, rng: random.Random, game_name: str = _GAME) -> Record:
    """One complete deal from a random secret and client seeds, played by the game's random
    player, as a record with its events (what the service stores for a deal)."""
    game = protocol.get(game_name)
    step = players.get(game_name).step
    evolve, ends = game.evolve, game.unit.ends
    options = game.options_from(preset)
    state = game.initial(options, 1)
    secret = rng.randbytes(32).hex()
    names = _NAMES[: game.seats(options)]
    seeds = tuple(rng.choice(("", "", f"seed-{rng.randrange(1000)}")) for _ in names)
    commands: list[SeatCommand] = []
    events: list[Any] = []

    def apply(seat: int, command: Any) -> None:
        nonlocal state
        new = game.decide(state, seat, command)
        for event in new:
            state = evolve(state, event)
        events.extend(new)

    apply(0, game.unit.commit(secret))
    for seat, seed in enumerate(seeds, start=1):
        if seed:  # PF-AMB-12 h: a seat's client seed, through the game's command union
            sent = msgspec.convert({"type": "SendClientSeed", "seed": seed}, game.command)
            apply(seat, sent)
            commands.append(SeatCommand(seat=seat, command=sent))
    ended = False
    while not ended:
        seat, command, new = step(state, rng)
        for event in new:
            state = evolve(state, event)
            ended = ended or ends(event) is not None
        events.extend(new)
        commands.append(SeatCommand(seat=seat, command=command))
    deal = DealRecord(
        seed=Seed(secret=secret, client_seeds=seeds),
        commands=tuple(commands),
        events=tuple(events),
    )
    # Any: Record still names Banakil alone; the deal format names every game later.
    named: Any = game.name
    return Record(game=named, options={"preset": preset}, seats=names, deals=(deal,))


def bench_offline(deals: int, seed: int, game_name: str = _GAME) -> list[dict[str, Any]]:
    """Per rule set and all of them together: deals verified per second (wall and CPU)."""
    game = protocol.get(game_name)
    verify_record = game.records.verify
    rng = random.Random(seed)
    records = {
        p: [random_record(p, rng, game_name) for _ in range(deals)] for p in sorted(game.presets)
    }
    # The records are input, not garbage: keep the cyclic collector from walking them again
    # and again while the verifier allocates (as a long-running server would after start).
    gc.collect()
    gc.freeze()
    out: list[dict[str, Any]] = []
    totals = [0, 0.0, 0.0]
    for preset, batch in records.items():
        t0, c0 = time.perf_counter(), time.process_time()
        passed = sum(verify_record(r).passed for r in batch)
        wall, cpu = time.perf_counter() - t0, time.process_time() - c0
        if passed != len(batch):  # pragma: no cover - the engine disagrees with itself
            raise AssertionError(f"{len(batch) - passed} genuine {preset} deals failed")
        totals[0] += len(batch)
        totals[1] += wall
        totals[2] += cpu
        out.append(_figures(preset, batch, wall, cpu))
    gc.unfreeze()
    out.append(
        {
            "bench": "verify",
            "case": "offline",
            "ruleset": "both" if len(records) == 2 else "all",
            "deals": totals[0],
            "deals_per_s": round(totals[0] / totals[1], 1),
            "cpu_deals_per_s": round(totals[0] / totals[2], 1),
        }
    )
    return out


def _figures(preset: str, batch: list[Record], wall: float, cpu: float) -> dict[str, Any]:
    commands = sum(len(r.deals[0].commands) for r in batch)
    events = sum(len(r.deals[0].events or ()) for r in batch)
    return {
        "bench": "verify",
        "case": "offline",
        "ruleset": preset,
        "deals": len(batch),
        "commands_per_deal": round(commands / len(batch), 1),
        "events_per_deal": round(events / len(batch), 1),
        "deals_per_s": round(len(batch) / wall, 1),
        "cpu_deals_per_s": round(len(batch) / cpu, 1),
    }


async def bench_database(dsn: str, deals: int, seed: int, game_name: str = _GAME) -> dict[str, Any]:
    """Store `deals` deals through the table service (in a scratch schema), then time the
    batch audit of every finished deal."""
    from services.store.migrate import apply_migrations, connect
    from services.store.postgres import PostgresEventStore
    from services.verifier.audit import audit

    schema = f"sahra_bench_verify_{uuid.uuid4().hex[:10]}"
    admin = await connect(dsn)
    try:
        await admin.execute(f"CREATE SCHEMA {schema}")
        await admin.execute(f"SET search_path TO {schema}")
        await apply_migrations(admin)
        store = await PostgresEventStore.connect(dsn, 1, 8, server_settings={"search_path": schema})
        try:
            t0 = time.perf_counter()
            stored = await store_deals(store, deals, seed, game_name)
            storing = time.perf_counter() - t0
            c0 = time.process_time()
            summary = await audit(store)
            cpu = time.process_time() - c0
        finally:
            await store.close()
    finally:
        await admin.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
        await admin.close()
    if summary.verified != summary.deals:  # pragma: no cover - a stored deal failed
        raise AssertionError("\n".join(summary.sentences()))
    return {
        "bench": "verify",
        "case": "database",
        "server": str(await _server_version(dsn)),
        "deals": summary.deals,
        "tables": summary.tables,
        "stored_in_s": round(storing, 1),
        "stored_deals": stored,
        "seconds": round(summary.seconds, 3),
        "deals_per_s": round(summary.deals / summary.seconds, 1),
        "cpu_deals_per_s": round(summary.deals / cpu, 1) if cpu > 0 else None,
    }


async def _server_version(dsn: str) -> str:
    from services.store.migrate import connect

    conn = await connect(dsn)
    try:
        return "PostgreSQL " + str(await conn.fetchval("SHOW server_version"))
    finally:
        await conn.close()


async def store_deals(store: Any, deals: int, seed: int, game_name: str = _GAME) -> int:
    """Play tables (one human seat moved by the random player, bots in the others) through
    the table service until `deals` deals have ended; four tables at a time."""
    from engine.table import SeatKind
    from services.bus.memory import MemoryBus
    from services.tables.seeds import SeedTiming
    from services.tables.service import TableService

    service = TableService(
        store, MemoryBus(), timing=SeedTiming(seed_window=0.0, reveal_seconds=0.0)
    )
    finished: dict[str, int] = {}
    rules = protocol.get(game_name)
    play = players.get(game_name).step
    presets = sorted(rules.presets)

    def ended(state: Any) -> int:
        """The units finished at a table: its unit number (the game's state counts them),
        less the one in play."""
        game = state.game_state
        between = state.status == "finished" or rules.unit.needs_secret(game)
        return int(game.deal) - (0 if between else 1)

    async def table(k: int) -> None:
        rng = random.Random(seed * 1_000 + k)
        options = rules.options_from(presets[k % len(presets)])
        human: SeatKind = "human"
        bot: SeatKind = "bot"
        created = await service.create_table(
            options, (human,) + (bot,) * (rules.seats(options) - 1)
        )
        table_id = created.state.table_id
        await service.take_seat(table_id, 1, "Amal")
        await service.start(table_id, 1)
        step = 0
        while True:
            # Counted from a fresh load before every check, so a table leaves with its count
            # current: the deal its last command ended is counted (it once was not, and the
            # bench reported fewer deals than it had stored).
            state = (await service.load(table_id)).state
            game = state.game_state
            assert game is not None
            finished[table_id] = ended(state)
            if state.status == "finished" or sum(finished.values()) >= deals:
                return
            if rules.unit.needs_secret(game):  # a deal just ended: the follow-ups seed the next
                await service.follow_up(table_id)
                continue
            seat, command, _ = play(game, rng)
            step += 1
            outcome = await service.handle(table_id, seat, command, f"bench:{step}")
            assert outcome.accepted, outcome

    k = 0
    try:
        while sum(finished.values()) < deals:
            await asyncio.gather(*(table(k + i) for i in range(4)))
            k += 4
    finally:
        await service.deadlines.close()
    return sum(finished.values())


def _run(args: argparse.Namespace) -> int:
    figures = bench_offline(args.deals, args.seed, args.game)
    for line in figures:
        print(json.dumps(line), flush=True)
    if args.stored > 0:
        url = args.database_url or os.environ.get("SAHRA_DATABASE_URL")
        try:
            if url:
                print(
                    json.dumps(asyncio.run(bench_database(url, args.stored, args.seed, args.game)))
                )
            else:
                from services.runtime.infra import embedded_postgres

                with (
                    tempfile.TemporaryDirectory(prefix="sahra-bench-verify-") as tmp,
                    embedded_postgres(Path(tmp) / "pg", keep=False) as embedded,
                ):
                    line = asyncio.run(bench_database(embedded, args.stored, args.seed, args.game))
                    line["server"] += " (embedded)"
                    print(json.dumps(line))
        except Exception as exc:
            print(f"sahra bench verify: {type(exc).__name__}: {exc}", file=sys.stderr)
            return 2
    both = figures[-1]
    print(
        json.dumps(
            {
                "bench": "verify",
                "goal": f"offline deals_per_s >= {GOAL:g} (one core)",
                "deals_per_s": both["deals_per_s"],
                "cpu_deals_per_s": both["cpu_deals_per_s"],
                "goal_met": both["cpu_deals_per_s"] >= GOAL,
            }
        )
    )
    return 0
