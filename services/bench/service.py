"""`sahra bench service`: whole-service throughput and latency, against raw INSERTs.

For each table count N (`--tables 1,10,100`) a fresh gateway is started in a child process
(`python -m services.gateway.serve`, uvicorn, with SAHRA_TOKEN_SECRET set) over real
PostgreSQL and NATS JetStream: --database-url / --nats-url, else $SAHRA_DATABASE_URL /
$SAHRA_NATS_URL, else embedded servers started in a temporary directory for the run. N
tables are created over HTTP with four human seats each, and every seat is played by a
scripted client over its own WebSocket, all of them on one asyncio loop in this process.

A seat acts only on what its view shows: when the view says it is its turn it sends one
command, chosen by the game's scripted client (`engine.players`; Banakil's draws, lays
the melds it finds that the rules accept, then discards), waits for the reply and times
command → reply. Tables play deal after deal (the service seeds and deals the next one
itself; the default `--options` set Banakil's match target out of reach). `--game` names
the game (default banakil): this module names none.
After `--warmup` seconds the `--seconds` window is measured: accepted commands per
second, p50/p99 latency, errors over the whole run (rejections a correct client never
gets, client exceptions, replies that never came, errors in the gateway's log) and the CPU
time of every process involved (client, gateway, PostgreSQL, NATS, the whole machine),
also per command: unlike rates, CPU per command hardly moves when other work on a shared
machine takes cores away. `--profile-gateway DIR` runs the gateway under cProfile with a
CPU-time clock, enabled for the measuring window only, and prints its top functions.

Then, in the same run and on the same server, the raw baseline: N concurrent writers
(one connection each, fewer if the server's max_connections cannot give N) insert single
rows into a scratch table made `LIKE events INCLUDING ALL` (same columns, defaults,
unique keys and indexes; dropped after), one transaction per row. The headline ratio is
commands/s ÷ raw inserts/s. Human-readable lines go to stdout, then one JSON line.

The tables a run creates stay in the events table (they are ordinary tables); only the
scratch table is dropped. `websockets` and `httpx` (the dev extra) are needed to run it.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import os
import random
import secrets
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import AsyncIterator, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import msgspec

from engine import players as game_players
from engine import protocol

if TYPE_CHECKING:
    import httpx
    from websockets.asyncio.client import ClientConnection

__all__ = ["Client", "main", "percentile", "register_bench", "wait_answering"]

_ROOT = Path(__file__).resolve().parents[2]  # the checkout (services/bench/ is two down)
_GAME = protocol.DEFAULT_GAME  # the default of --game
# The default options of the tables: Banakil's match target out of reach, so a table never
# finishes.
_OPTIONS = '{"target_score": 1000000}'
_REPLY_TIMEOUT = 10.0  # seconds without a reply before a command counts as lost
_STALL = 5.0  # seconds without an accepted command at the end of the window: stalled
_GOAL_RATIO, _GOAL_P99_MS, _GOAL_TABLES = 0.5, 50.0, 100
_CLIENT_BUSY = 0.8  # a client loop busier than this share of one core may be the limit


# --- the client policy ---------------------------------------------------------------------


class Client:
    """A game's scripted client (`engine.players`): how a seat reads a view message and
    chooses its command, and the options of the tables it plays at."""

    def __init__(self, game: str, ruleset: str, options: dict[str, Any]) -> None:
        rules = protocol.get(game)
        found = game_players.get(game)
        self.game = rules
        self.options = rules.options_from(ruleset, **options)
        self.seats = rules.seats(self.options)
        self._choose = found.client
        # Any server message with the view decoded into the client's view Struct.
        message: Any = msgspec.defstruct(
            "Message",
            [
                ("type", str),
                ("version", int, 0),
                ("status", str, ""),
                ("command_id", str | None, None),
                ("code", str | None, None),
                ("message", str | None, None),
                ("view", found.client_view | None, None),
            ],
            frozen=True,
        )
        self.decode = msgspec.json.Decoder(message).decode

    def choose(self, view: Any, rng: random.Random, *, safe: bool = False) -> Any:
        """The command this seat sends now from its own view (None: nothing to send)."""
        return self._choose(view, self.options, rng, safe)


async def wait_answering(
    base: str, path: str, children: dict[str, tuple[subprocess.Popen[bytes], Path]]
) -> None:
    """Until GET `path` answers 200 at `base` (within 60 s); RuntimeError naming the log
    of a child process that exits meanwhile, or of the first one when time runs out."""
    import httpx

    async with httpx.AsyncClient(base_url=base, timeout=2) as http:
        deadline = time.monotonic() + 60
        while True:
            for name, (child, log) in children.items():
                if child.poll() is not None:
                    raise RuntimeError(f"the {name} exited ({child.returncode}); see {log}")
            with contextlib.suppress(httpx.HTTPError):
                if (await http.get(path)).status_code == 200:
                    return
            if time.monotonic() > deadline:
                log = next(iter(children.values()))[1]
                raise RuntimeError(f"no answer at {base}{path} within 60 s; see {log}")
            await asyncio.sleep(0.1)


def percentile(values: Sequence[float], q: float) -> float | None:
    """The q-th percentile (0–100) with linear interpolation between closest ranks (as
    numpy's default); None for no values."""
    if not 0 <= q <= 100:
        raise ValueError(f"a percentile is between 0 and 100, not {q}")
    if not values:
        return None
    ordered = sorted(values)
    k = (len(ordered) - 1) * q / 100
    lo, hi = math.floor(k), math.ceil(k)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (k - lo)


# --- the wire ------------------------------------------------------------------------------


_ENCODE = msgspec.json.encode


def _envelope(command_id: str, command: Any) -> str:
    return f'{{"type":"command","command_id":"{command_id}","command":{_ENCODE(command).decode()}}}'


# --- one run at N tables ---------------------------------------------------------------------


class _Run:
    """What the seats of one N share: the clock window and the tallies."""

    def __init__(self, client: Client, window_start: float, window_end: float) -> None:
        self.client = client
        self.window_start = window_start
        self.window_end = window_end
        self.stopping = False
        self.latencies: list[float] = []  # seconds, replies received in the window
        self.accepted = 0  # in the window
        self.accepted_total = 0
        self.rejections: Counter[str] = Counter()
        self.exceptions: Counter[str] = Counter()
        self.lost = 0
        self.lags: list[float] = []

    def measuring(self, now: float) -> bool:
        return self.window_start <= now < self.window_end


class _Seat:
    def __init__(self, run: _Run, table: _Table, seat: int, ws: ClientConnection) -> None:
        self.run = run
        self.table = table
        self.seat = seat
        self.ws = ws
        self.rng = random.Random(f"{table.table_id}:{seat}")
        self.view: Any = None  # the client's view Struct of the newest view
        self.version = 0  # of the newest view
        self.wait_for = 0  # act only on a view at least this new (our last command's)
        self.pending: str | None = None
        self.sent_at = 0.0
        self.refused_at = -1  # the view version of the last refusal
        self.refusals = 0  # refusals at that version
        self.ids = 0

    async def play(self) -> None:
        try:
            async for raw in self.ws:
                message = self.run.client.decode(raw)
                kind = message.type
                if kind in ("view", "welcome"):
                    if message.version > self.version and message.view is not None:
                        self.version, self.view = message.version, message.view
                        # the unit of play the view shows (a deal), where the view says
                        shown = getattr(message.view, "deal", 0)
                        self.table.deal = max(self.table.deal, shown)
                elif kind in ("accepted", "rejected"):
                    self._replied(message)
                elif kind == "error":
                    self.run.exceptions[f"error:{message.code}"] += 1
                    return
                if self.pending is None and not self.run.stopping:
                    await self._act()
        except Exception as exc:
            if not self.run.stopping:
                self.run.exceptions[type(exc).__name__] += 1

    def _replied(self, message: Any) -> None:
        if message.command_id != self.pending:
            self.run.exceptions["unexpected_reply"] += 1
            return
        now = time.perf_counter()
        self.pending = None
        in_window = self.run.measuring(now)
        if in_window:
            self.run.latencies.append(now - self.sent_at)
        if message.type == "accepted":
            self.wait_for = message.version
            self.refusals = 0
            self.table.last_accepted = now
            self.run.accepted_total += 1
            if in_window:
                self.run.accepted += 1
        else:
            self.run.rejections[message.code or "?"] += 1
            if self.refused_at == self.version:
                self.refusals += 1
            else:
                self.refused_at, self.refusals = self.version, 1

    async def _act(self) -> None:
        view = self.view
        if view is None or self.version < self.wait_for:
            return
        refused = self.refusals if self.refused_at == self.version else 0
        if refused >= 2:  # refused twice on this view: wait for a newer one
            return
        command = self.run.client.choose(view, self.rng, safe=refused > 0)
        if command is None:
            return
        self.ids += 1
        command_id = f"b{self.ids}"
        self.pending, self.sent_at = command_id, time.perf_counter()
        await self.ws.send(_envelope(command_id, command))


class _Table:
    def __init__(self, table_id: str, tokens: dict[int, str]) -> None:
        self.table_id = table_id
        self.tokens = tokens
        self.deal = 0
        self.first_deal: int | None = None
        self.last_accepted = 0.0


async def _create_table(
    http: httpx.AsyncClient, args: argparse.Namespace, seats: int, index: int
) -> tuple[str, dict[int, str]]:
    created = await http.post(
        "/tables",
        json={
            "game": args.game,
            "ruleset": args.ruleset,
            "options": args.options,
            "player": f"b{index}-1",
        },
    )
    created.raise_for_status()
    table_id: str = created.json()["table_id"]
    tokens = {1: str(created.json()["token"])}
    for seat in range(2, seats + 1):
        joined = await http.post(
            f"/tables/{table_id}/seats/{seat}", json={"player": f"b{index}-{seat}"}
        )
        joined.raise_for_status()
        tokens[seat] = str(joined.json()["token"])
    return table_id, tokens


async def _bounded(limit: int, jobs: Sequence[Any]) -> list[Any]:
    gate = asyncio.Semaphore(limit)

    async def one(job: Any) -> Any:
        async with gate:
            return await job

    return list(await asyncio.gather(*(one(j) for j in jobs)))


async def _lag_monitor(run: _Run, interval: float = 0.02) -> None:
    """How late the client loop wakes up: a busy loop delays every reply it reads."""
    while True:
        t = time.perf_counter()
        await asyncio.sleep(interval)
        now = time.perf_counter()
        if run.measuring(now):
            run.lags.append(now - t - interval)


async def _play_tables(
    base: str,
    n: int,
    args: argparse.Namespace,
    probe: _CpuProbe,
    database_url: str,
    profiled: int | None = None,
) -> dict[str, Any]:
    import asyncpg
    import httpx
    from websockets.asyncio.client import connect

    client = Client(args.game, args.ruleset, args.options)
    ws_base = base.replace("http", "ws", 1)
    compression = None if args.compression == "none" else "deflate"
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        t0 = time.perf_counter()
        made = await _bounded(16, [_create_table(http, args, client.seats, i) for i in range(n)])
        tables = [_Table(table_id, tokens) for table_id, tokens in made]
        run = _Run(client, math.inf, math.inf)
        each = range(1, client.seats + 1)
        sockets = await _bounded(
            32,
            [
                connect(
                    f"{ws_base}/tables/{t.table_id}/ws?token={t.tokens[s]}",
                    compression=compression,
                    open_timeout=30,
                )
                for t in tables
                for s in each
            ],
        )
        seats = [
            _Seat(run, t, s, sockets[client.seats * i + s - 1])
            for i, t in enumerate(tables)
            for s in each
        ]
        players = [asyncio.create_task(seat.play()) for seat in seats]
        lag = asyncio.create_task(_lag_monitor(run))

        async def start(table: _Table) -> None:
            started = await http.post(
                f"/tables/{table.table_id}/start",
                headers={"Authorization": f"Bearer {table.tokens[1]}"},
            )
            started.raise_for_status()

        await _bounded(16, [start(t) for t in tables])
        setup = time.perf_counter() - t0
        run.window_start = time.perf_counter() + args.warmup
        run.window_end = run.window_start + args.seconds
        admin = await asyncpg.connect(database_url)
        try:
            await asyncio.sleep(max(0.0, run.window_start - time.perf_counter()))
            for t in tables:
                t.first_deal = t.deal
            first_position = await _position(admin)
            _signal(profiled, signal.SIGUSR1)
            cpu_before = probe.sample()
            await _watch(run, seats, run.window_end)
            cpu_after = probe.sample()
            _signal(profiled, signal.SIGUSR2)
            last_position = await _position(admin)
            counted = await admin.fetchrow(
                "SELECT count(*), count(command_id) FROM events"
                " WHERE position > $1 AND position <= $2",
                first_position,
                last_position,
            )
            rows, appends = (0, 0) if counted is None else (int(counted[0]), int(counted[1]))
        finally:
            await admin.close()
        run.stopping = True
        stalled = sum(1 for t in tables if run.window_end - t.last_accepted > _STALL)
        deals = sum(t.deal - (t.deal if t.first_deal is None else t.first_deal) for t in tables)
        # Let the last replies come in, then close every socket.
        deadline = time.perf_counter() + 5
        while any(s.pending for s in seats) and time.perf_counter() < deadline:
            await asyncio.sleep(0.05)
        lag.cancel()
        await asyncio.gather(*(s.ws.close() for s in seats), return_exceptions=True)
        await asyncio.gather(*players, return_exceptions=True)
    window = args.seconds
    cpu = _cpu_shares(cpu_before, cpu_after)
    errors = sum(run.rejections.values()) + sum(run.exceptions.values()) + run.lost
    return {
        "tables": n,
        "sockets": client.seats * n,
        "setup_s": round(setup, 2),
        "window_s": window,
        "commands": run.accepted,
        "commands_per_s": round(run.accepted / window, 1),
        "events_per_s": round(rows / window, 1),
        "appends_per_s": round(appends / window, 1),
        "deals_per_s": round(deals / window, 2),
        "latency_ms": {
            "p50": _ms(percentile(run.latencies, 50)),
            "p90": _ms(percentile(run.latencies, 90)),
            "p99": _ms(percentile(run.latencies, 99)),
            "max": _ms(max(run.latencies, default=None)),
        },
        "errors": errors,
        "rejections": dict(run.rejections),
        "exceptions": dict(run.exceptions),
        "lost_replies": run.lost,
        "stalled_tables": stalled,
        "client_loop_lag_ms": {
            "p50": _ms(percentile(run.lags, 50)),
            "p99": _ms(percentile(run.lags, 99)),
        },
        "cpu": cpu,
        "cpu_ms_per_command": _per_unit(cpu, run.accepted / window),
    }


async def _watch(run: _Run, seats: list[_Seat], until: float) -> None:
    """Sleep to the end of the window, counting replies that do not come."""
    counted: set[tuple[int, str]] = set()
    while (left := until - time.perf_counter()) > 0:
        await asyncio.sleep(min(1.0, left))
        now = time.perf_counter()
        for i, seat in enumerate(seats):
            late = seat.pending and now - seat.sent_at > _REPLY_TIMEOUT
            if late and (i, seat.pending) not in counted:
                counted.add((i, str(seat.pending)))
                run.lost += 1


async def _position(conn: Any) -> int:
    return int(await conn.fetchval("SELECT coalesce(max(position), 0) FROM events"))


def _per_unit(cpu: dict[str, Any], rate: float) -> dict[str, float]:
    """CPU milliseconds per unit of work (command, insert) of each measured process:
    unlike rates, these hardly change when other work on the machine takes CPU away."""
    names = ("client", "gateway", "postgres", "nats")
    out = {n: round(cpu[n] / rate * 1000, 3) for n in names if cpu.get(n) is not None and rate}
    if out:
        out["total"] = round(sum(out.values()), 3)
    return out


def _signal(pid: int | None, number: int) -> None:
    if pid is not None:
        with contextlib.suppress(OSError):
            os.kill(pid, number)


def _ms(seconds: float | None) -> float | None:
    return None if seconds is None else round(seconds * 1000, 2)


# --- the raw baseline ------------------------------------------------------------------------

_RAW_DATA = json.dumps({"type": "CardDiscarded", "seat": 2, "card": "7H#2"})
_RAW_META = json.dumps(
    {"command_id": "seat2:b17", "seat": 2, "player": "b0-2", "server_time": "2025-01-01T00:00Z"}
)


async def raw_inserts(
    database_url: str, writers: int, seconds: float, probe: _CpuProbe | None = None
) -> dict[str, Any]:
    """Single-row INSERTs (one transaction each) by `writers` concurrent connections into
    a scratch copy of the events table; rows per second over `seconds` after a warm-up."""
    import asyncpg

    table = f"sahra_bench_raw_{secrets.token_hex(5)}"
    admin = await asyncpg.connect(database_url)
    try:
        await admin.execute(f"CREATE TABLE {table} (LIKE events INCLUDING ALL)")
        most = int(await admin.fetchval("SHOW max_connections"))
        used = int(await admin.fetchval("SELECT count(*) FROM pg_stat_activity"))
        connections = max(1, min(writers, most - used - 10))
        conns = [await asyncpg.connect(database_url) for _ in range(connections)]
        sql = (
            f"INSERT INTO {table} (stream_id, version, type, data, metadata, command_id)"
            " VALUES ($1, $2, $3, $4, $5, $6)"
        )
        counts = [0] * connections
        state = {"measuring": False, "stop": False}

        async def writer(i: int, conn: Any) -> None:
            version = 0
            stream = f"raw-{i}"
            while not state["stop"]:
                version += 1
                await conn.execute(
                    sql, stream, version, "CardDiscarded", _RAW_DATA, _RAW_META, f"c{version}"
                )
                if state["measuring"]:
                    counts[i] += 1

        try:
            tasks = [asyncio.create_task(writer(i, c)) for i, c in enumerate(conns)]
            await asyncio.sleep(1.0)
            cpu_before = (probe or _CpuProbe()).sample()
            state["measuring"] = True
            t0 = time.perf_counter()
            await asyncio.sleep(seconds)
            state["measuring"] = False
            elapsed = time.perf_counter() - t0
            cpu = _cpu_shares(cpu_before, (probe or _CpuProbe()).sample())
            state["stop"] = True
            await asyncio.gather(*tasks)
        finally:
            for c in conns:
                await c.close()
        rate = sum(counts) / elapsed
        return {
            "writers": connections,
            "inserts_per_s": round(rate, 1),
            "capped": connections < writers,
            "cpu": cpu,
            "cpu_ms_per_insert": _per_unit(cpu, rate),
        }
    finally:
        await admin.execute(f"DROP TABLE IF EXISTS {table}")
        await admin.close()


# --- CPU accounting (Linux /proc; None elsewhere) ------------------------------------------

_TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def _proc_stat(pid: int) -> tuple[int, float, float] | None:
    """(parent pid, user CPU seconds, system CPU seconds) of a process."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2 :].split()
    return int(fields[1]), int(fields[11]) / _TICK, int(fields[12]) / _TICK


def _children(parent: int) -> list[int]:
    found = []
    with contextlib.suppress(OSError):
        for entry in os.scandir("/proc"):
            if entry.name.isdigit():
                stat = _proc_stat(int(entry.name))
                if stat is not None and stat[0] == parent:
                    found.append(int(entry.name))
    return found


def _machine() -> tuple[float, float] | None:
    """(busy, total) CPU seconds of the whole machine, all cores."""
    try:
        first = Path("/proc/stat").read_text().splitlines()[0].split()
    except OSError:
        return None
    ticks = [int(v) for v in first[1:9]]
    idle = ticks[3] + ticks[4]  # idle + iowait
    return (sum(ticks) - idle) / _TICK, sum(ticks) / _TICK


class _CpuProbe:
    """CPU seconds of the processes of a run: named pids, each with its children."""

    def __init__(self) -> None:
        self.groups: dict[str, int] = {}

    def sample(self) -> dict[str, Any]:
        own = os.times()
        out: dict[str, Any] = {
            "wall": time.perf_counter(),
            "client": own.user + own.system,
            "client_sys": own.system,
            "machine": _machine(),
        }
        for name, pid in self.groups.items():
            stats = [_proc_stat(p) for p in (pid, *_children(pid))]
            alive = stats[0] is not None
            out[name] = sum(s[1] + s[2] for s in stats if s is not None) if alive else None
            out[f"{name}_sys"] = sum(s[2] for s in stats if s is not None) if alive else None
        return out


def _cpu_shares(before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any]:
    """Share of one core each process used over the window (1.0 = one full core)."""
    wall = after["wall"] - before["wall"]
    shares: dict[str, Any] = {}
    for name, a in before.items():
        if name in ("wall", "machine"):
            continue
        b = after.get(name)
        shares[name] = None if a is None or b is None else round((b - a) / wall, 2)
    m0, m1 = before["machine"], after["machine"]
    if m0 is not None and m1 is not None:
        busy, total = m1[0] - m0[0], m1[1] - m0[1]
        cores = os.cpu_count() or 1
        shares["machine_busy"] = round(busy / total * cores, 2) if total else None
        known = sum(
            v
            for k, v in shares.items()
            if k != "machine_busy" and not k.endswith("_sys") and v is not None
        )
        if shares["machine_busy"] is not None:
            shares["other"] = round(max(0.0, shares["machine_busy"] - known), 2)
        shares["cores"] = cores
    return shares


# --- servers ---------------------------------------------------------------------------------


@contextlib.contextmanager
def _servers(args: argparse.Namespace, probe: _CpuProbe) -> Iterator[tuple[str, str, str]]:
    """(database URL, NATS URL, description): given, from the environment, or embedded."""
    from services.runtime.infra import embedded_nats, embedded_postgres

    database_url = args.database_url or os.environ.get("SAHRA_DATABASE_URL")
    nats_url = args.nats_url or os.environ.get("SAHRA_NATS_URL")
    with contextlib.ExitStack() as stack:
        tmp = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="sahra-bench-svc-")))
        what = []
        if not database_url:
            database_url = stack.enter_context(embedded_postgres(tmp / "pg", keep=False))
            with contextlib.suppress(OSError, ValueError, IndexError):
                postmaster = (tmp / "pg" / "postmaster.pid").read_text().split()[0]
                probe.groups["postgres"] = int(postmaster)
            what.append("embedded PostgreSQL")
        else:
            what.append("PostgreSQL from URL")
        if not nats_url:
            nats = stack.enter_context(embedded_nats(tmp / "nats"))
            nats_url = nats.url
            probe.groups["nats"] = nats.process.pid
            what.append("embedded NATS")
        else:
            what.append("NATS from URL")
        yield database_url, nats_url, ", ".join(what)


# The gateway under cProfile with a CPU-time clock: the time a thread waits for a core on a
# busy machine (or in a system call that wakes the client up) is not charged to the code.
# SIGUSR1 starts it and SIGUSR2 stops it, so that only the measuring window is profiled.
_PROFILED = """
import cProfile, signal, sys, time
from services.gateway.serve import main
profile = cProfile.Profile(time.thread_time)
signal.signal(signal.SIGUSR1, lambda *_: profile.enable())
signal.signal(signal.SIGUSR2, lambda *_: profile.disable())
try:
    main(sys.argv[2:])
finally:
    profile.disable()
    profile.dump_stats(sys.argv[1])
"""


@contextlib.asynccontextmanager
async def _gateway(
    database_url: str, nats_url: str, log: Path, profile: Path | None
) -> AsyncIterator[tuple[str, subprocess.Popen[bytes]]]:
    """The gateway in a child process; yields its base URL once /healthz answers."""

    from services.runtime.infra import free_port

    port = free_port()
    serve = ["--database-url", database_url, "--nats-url", nats_url, "--port", str(port)]
    if profile is None:
        command = [sys.executable, "-m", "services.gateway.serve", *serve]
    else:
        command = [sys.executable, "-c", _PROFILED, str(profile), *serve]
    # The scripted seats send no client seeds: without a window each deal is dealt at once
    # instead of waiting for seeds that never come.
    env = {
        **os.environ,
        "SAHRA_TOKEN_SECRET": secrets.token_hex(32),
        "SAHRA_SEED_WINDOW_SECONDS": "0",
        "SAHRA_REVEAL_SECONDS": "0",
    }
    with log.open("ab") as out:
        child = subprocess.Popen(
            command,
            cwd=_ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    base = f"http://127.0.0.1:{port}"
    try:
        await wait_answering(base, "/healthz", {"gateway": (child, log)})
        yield base, child
    finally:
        if child.poll() is None:
            child.send_signal(signal.SIGINT)  # uvicorn shuts down; the profile is written
            try:
                await asyncio.to_thread(child.wait, 30)
            except subprocess.TimeoutExpired:
                child.kill()
                child.wait()


def _log_errors(log: Path, start: int) -> list[str]:
    """Error lines the gateway logged since byte `start` of its log."""
    try:
        with log.open("rb") as f:
            f.seek(start)
            text = f.read().decode(errors="replace")
    except OSError:
        return []
    lines = text.splitlines()
    return [ln for ln in lines if ln.startswith(("ERROR", "Traceback")) or " failed" in ln]


# --- the bench -------------------------------------------------------------------------------


async def _bench(args: argparse.Namespace) -> dict[str, Any]:
    from services.store.migrate import migrate

    probe = _CpuProbe()
    results: list[dict[str, Any]] = []
    with (
        _servers(args, probe) as (database_url, nats_url, servers),
        tempfile.TemporaryDirectory(prefix="sahra-bench-gw-") as logs,
    ):
        await migrate(database_url)
        settings = await _server_settings(database_url)
        _say(f"sahra bench service: {servers}; {settings}; client CPUs {os.cpu_count()}")
        for n in args.tables:
            log = Path(logs) / f"gateway-{n}.log"
            profile = args.profile_gateway / f"gateway-{n}.prof" if args.profile_gateway else None
            async with _gateway(database_url, nats_url, log, profile) as (base, child):
                probe.groups["gateway"] = child.pid
                profiled = child.pid if profile is not None else None
                result = await _play_tables(base, n, args, probe, database_url, profiled)
                logged = _log_errors(log, 0)
            probe.groups.pop("gateway", None)
            result["gateway_log_errors"] = len(logged)
            result["errors"] += len(logged)
            if logged:
                result["gateway_log_sample"] = logged[:5]
            raw = await raw_inserts(database_url, n, args.raw_seconds, probe)
            result["raw"] = raw
            rate = raw["inserts_per_s"]
            result["ratio"] = round(result["commands_per_s"] / rate, 3) if rate else None
            result["ratio_appends"] = round(result["appends_per_s"] / rate, 3) if rate else None
            results.append(result)
            _say(_describe(result))
            if profile is not None:
                _say(_profile_top(profile))
    summary: dict[str, Any] = {
        "bench": "service",
        "servers": servers,
        "server_settings": settings,
        "game": args.game,
        "ruleset": args.ruleset,
        "compression": args.compression,
        "warmup_s": args.warmup,
        "results": results,
    }
    goal = next((r for r in results if r["tables"] == _GOAL_TABLES), None)
    summary["goal"] = (
        f"at {_GOAL_TABLES} tables: commands/s >= {_GOAL_RATIO} x raw inserts/s"
        f" and p99 < {_GOAL_P99_MS:g} ms"
    )
    if goal is not None:
        p99 = goal["latency_ms"]["p99"]
        summary["goal_met"] = bool(
            goal["ratio"] is not None
            and goal["ratio"] >= _GOAL_RATIO
            and p99 is not None
            and p99 < _GOAL_P99_MS
        )
    busy = [r["tables"] for r in results if (r["cpu"].get("client") or 0) >= _CLIENT_BUSY]
    summary["client_may_limit"] = busy
    return summary


async def _server_settings(database_url: str) -> str:
    import asyncpg

    conn = await asyncpg.connect(database_url)
    try:
        names = ("server_version", "fsync", "synchronous_commit", "max_connections")
        values = [await conn.fetchval(f"SHOW {name}") for name in names]
    finally:
        await conn.close()
    return ", ".join(f"{k}={v}" for k, v in zip(names, values, strict=True))


def _describe(r: dict[str, Any]) -> str:
    lat, cpu, raw = r["latency_ms"], r["cpu"], r["raw"]

    def share(name: str) -> str:
        value, system = cpu.get(name), cpu.get(f"{name}_sys")
        if value is None:
            return "?"
        return f"{value * 100:.0f}%" + ("" if system is None else f" (sys {system * 100:.0f}%)")

    lines = [
        f"N={r['tables']} tables ({r['sockets']} sockets, set up in {r['setup_s']} s):"
        f" {r['commands_per_s']} commands/s over {r['window_s']:g} s"
        f" ({r['commands']} commands, {r['appends_per_s']} appends/s,"
        f" {r['events_per_s']} events/s, {r['deals_per_s']} deals/s)",
        f"  latency p50 {lat['p50']} ms, p90 {lat['p90']} ms, p99 {lat['p99']} ms,"
        f" max {lat['max']} ms",
        f"  errors {r['errors']}: rejections {r['rejections'] or 0},"
        f" exceptions {r['exceptions'] or 0}, lost replies {r['lost_replies']},"
        f" gateway log errors {r['gateway_log_errors']}; stalled tables {r['stalled_tables']}",
        f"  raw INSERTs, {raw['writers']} writers{' (capped)' if raw['capped'] else ''}:"
        f" {raw['inserts_per_s']}/s; commands/s / raw = {r['ratio']}"
        f" (appends/s / raw = {r['ratio_appends']})",
        f"  CPU ms per command {_fmt(r['cpu_ms_per_command'])};"
        f" per raw insert {_fmt(raw['cpu_ms_per_insert'])}",
        f"  CPU (1.0 = one core): client {share('client')}, gateway {share('gateway')},"
        f" postgres {share('postgres')}, nats {share('nats')}, other {share('other')};"
        f" machine busy {cpu.get('machine_busy')} of {cpu.get('cores')} cores;"
        f" client loop lag p99 {r['client_loop_lag_ms']['p99']} ms",
    ]
    if (cpu.get("client") or 0) >= _CLIENT_BUSY:
        lines.append("  WARNING: the client loop is nearly saturated and may be the limit")
    return "\n".join(lines)


def _fmt(per: dict[str, float]) -> str:
    return ", ".join(f"{k} {v}" for k, v in per.items()) or "?"


def _profile_top(path: Path, count: int = 25) -> str:
    import io
    import pstats

    if not path.exists():
        return f"  (no profile written at {path})"
    out = io.StringIO()
    stats = pstats.Stats(str(path), stream=out)
    stats.sort_stats("tottime").print_stats(count)
    return f"  gateway profile ({path}), top {count} by own CPU time:\n{out.getvalue()}"


def _say(text: str) -> None:
    print(text, flush=True)


# --- command line ----------------------------------------------------------------------------


def _counts(text: str) -> list[int]:
    try:
        values = [int(v) for v in text.split(",") if v.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"table counts are like 1,10,100, not {text!r}") from None
    if not values or any(v < 1 for v in values):
        raise argparse.ArgumentTypeError("each table count must be 1 or more")
    return values


def _add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--tables", type=_counts, default=[1, 10, 100], help="e.g. 1,10,100")
    parser.add_argument("--seconds", type=float, default=20.0, help="measuring window")
    parser.add_argument("--warmup", type=float, default=5.0, help="play before measuring")
    parser.add_argument(
        "--raw-seconds", type=float, default=10.0, help="measuring time of the raw INSERTs"
    )
    parser.add_argument("--game", default=_GAME, help=f"the game (default {_GAME})")
    parser.add_argument("--ruleset", default="sahrat", help="a preset of the game")
    parser.add_argument(
        "--options",
        type=json.loads,
        default=_OPTIONS,
        help=f"the tables' options over the preset, as JSON (default {_OPTIONS})",
    )
    parser.add_argument(
        "--compression",
        choices=("deflate", "none"),
        default="deflate",
        help="WebSocket permessage-deflate, offered by browsers (default) or not",
    )
    parser.add_argument("--database-url", help="default: $SAHRA_DATABASE_URL, else embedded")
    parser.add_argument("--nats-url", help="default: $SAHRA_NATS_URL, else embedded")
    parser.add_argument(
        "--profile-gateway",
        type=Path,
        metavar="DIR",
        help="run the gateway under cProfile (CPU time), write DIR/gateway-N.prof (slow)",
    )
    parser.set_defaults(run=_run)


def register_bench(bench_subparsers: Any) -> None:
    """Add `service` to the sub-commands of `sahra bench`."""
    parser = bench_subparsers.add_parser(
        "service", help="commands/s and latency through gateway, PostgreSQL and NATS"
    )
    _add_arguments(parser)


def _run(args: argparse.Namespace) -> int:
    if args.profile_gateway is not None:
        args.profile_gateway.mkdir(parents=True, exist_ok=True)
        args.profile_gateway = args.profile_gateway.resolve()
    try:
        summary = asyncio.run(_bench(args))
    except RuntimeError as error:
        print(f"sahra bench service: {error}", file=sys.stderr)
        return 2
    print(json.dumps(summary), flush=True)
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m services.bench.service", description=__doc__)
    _add_arguments(parser)
    args = parser.parse_args(argv)
    code: int = args.run(args)
    return code


if __name__ == "__main__":
    sys.exit(main())
