"""`python -m services.bench.soak`: many tables against the computer, through the whole service,
for N minutes; then every finished deal is verified.

Processes, as deployed: a gateway (`services.gateway.serve`), a clock
(`services.cli.clock clock`), a relay (`services.cli.relay relay`) and `--bots` bots
workers (`services.cli.bots bots`, one shard of the tables each), over real
PostgreSQL and NATS JetStream (--database-url / --nats-url, else $SAHRA_DATABASE_URL /
$SAHRA_NATS_URL, else embedded servers in a temporary directory). They share one token
secret and one seed key, made for the run.

`--tables` tables of `--game` (default banakil) play at once, half `classic` and half
`sahrat` (`--rulesets`, the game's presets). Each is made as POST /play-vs-computer makes
one: POST /tables with the player in seat 1, bots in the others and `--options` (a free
table that allows bots), then POST /tables/{id}/start. Its player is a scripted client on
one WebSocket that acts only on its own view (the game's scripted client from
`engine.players`, as in the service bench, plus its client seed when the deal waits for
it); the bots workers play the bots. This module names no game.
Some players disturb the table on purpose: with `--drop` probability per deal the socket
closes and comes back a moment later (recorded away, then back), and with `--leave`
probability per table the player leaves after the first deal (a bot takes the seat and
plays the table to the end of the match). A table whose match is over is replaced by a
new one until the time is up.

Figures: the player's commands per second and their latency (command sent → "accepted",
p50/p99), events and appends per second in the store, deals and matches finished, errors
(refusals a correct client never gets, exceptions, replies that never came, error lines
in the processes' logs) and, at the end, `services.verifier.audit` over every deal that
finished during the run: each re-derived from its seed and commands, event for event.
Human-readable lines go to stdout, then one JSON line. Not part of the test suite.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import secrets
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter, deque
from collections.abc import AsyncIterator, Iterator, Sequence
from pathlib import Path
from typing import Any

import msgspec

from engine import protocol
from services.bench.service import Client, percentile, wait_answering
from services.tables import sealing

__all__ = ["main"]

_ROOT = Path(__file__).resolve().parents[2]  # the checkout (services/bench/ is two down)
_REPLY_TIMEOUT = 10.0
_GAME = protocol.DEFAULT_GAME  # the default of --game
# The default options over each preset: a free table that allows bots, as POST
# /play-vs-computer makes (Banakil's option names).
_OPTIONS = '{"table_kind": "free", "bots_allowed": true}'


class _Tally:
    def __init__(self, until: float) -> None:
        self.until = until
        self.latencies: list[float] = []
        self.accepted = 0
        self.rejections: Counter[str] = Counter()
        self.refusals: list[str] = []  # each refusal with where the player stood (first 20)
        self.exceptions: Counter[str] = Counter()
        self.lost = 0
        self.tables = 0
        self.matches = 0
        self.left = 0
        self.drops = 0

    @property
    def over(self) -> bool:
        return time.perf_counter() >= self.until


class _Table:
    def __init__(self, table_id: str, token: str, leaves: bool) -> None:
        self.table_id = table_id
        self.token = token
        self.leaves = leaves  # the player leaves after the first deal
        self.deal = 0  # the newest deal the player has seen


class _Player:
    """The human seat of one table after another, over its WebSocket."""

    def __init__(self, tally: _Tally, http: Any, ws_base: str, args: argparse.Namespace) -> None:
        self.clients = {r: Client(args.game, r, args.options) for r in args.rulesets}
        self.tally = tally
        self.http = http
        self.ws_base = ws_base
        self.args = args
        self.rng = random.Random(secrets.token_hex(8))

    async def play_tables(self, index: int) -> None:
        """Tables one after the other until the time is up."""
        rulesets = self.args.rulesets
        while not self.tally.over:
            ruleset = rulesets[index % len(rulesets)]
            index += len(rulesets)
            try:
                await self._one_table(ruleset)
            except Exception as exc:
                self.tally.exceptions[type(exc).__name__] += 1
                await asyncio.sleep(1)

    async def _one_table(self, ruleset: str) -> None:
        from websockets.asyncio.client import connect

        client = self.clients[ruleset]
        created = await self.http.post(
            "/tables",
            json={
                "game": self.args.game,
                "ruleset": ruleset,
                "options": self.args.options,
                "seats": ["human"] + ["bot"] * (client.seats - 1),
                "player": f"soak-{secrets.token_hex(3)}",
            },
        )
        created.raise_for_status()
        body = created.json()
        table = _Table(body["table_id"], body["token"], self.rng.random() < self.args.leave)
        started = await self.http.post(
            f"/tables/{table.table_id}/start", headers={"Authorization": f"Bearer {table.token}"}
        )
        started.raise_for_status()
        self.tally.tables += 1
        url = f"{self.ws_base}/tables/{table.table_id}/ws?token={table.token}"
        while not self.tally.over:
            async with connect(url, open_timeout=30) as ws:
                outcome = await self._session(ws, client, table)
            if outcome == "over":
                self.tally.matches += 1
                return
            if outcome == "drop":
                self.tally.drops += 1
                await asyncio.sleep(self.rng.uniform(0.5, 2.0))  # back within the grace
                continue
            if outcome == "leave":
                left = await self.http.post(
                    f"/tables/{table.table_id}/leave",
                    headers={"Authorization": f"Bearer {table.token}"},
                )
                left.raise_for_status()
                self.tally.left += 1
            return

    async def _session(self, ws: Any, client: Client, table: _Table) -> str:
        """Play on one socket until the match is "over", the player "drop"s his socket
        or "leave"s (rolled once per deal), or the "time" is up."""
        pending: str | None = None
        sent_at = 0.0
        wait_for = version = refused = ids = 0
        # The last messages, for the report of a refusal (formatted only then).
        heard: deque[tuple[float, Any]] = deque(maxlen=8)
        began = time.perf_counter()
        view: Any = None  # the client's view Struct (`engine.players`) of the newest view
        while True:
            if self.tally.over and pending is None:
                return "time"
            try:
                raw = await asyncio.wait_for(ws.recv(), _REPLY_TIMEOUT)
            except TimeoutError:
                if pending is not None:
                    self.tally.lost += 1
                    pending = None
                continue
            message = client.decode(raw)
            heard.append((time.perf_counter() - began, message))
            if message.type in ("welcome", "view") and message.version > version:
                version, view, refused = message.version, message.view, 0
                if message.status == "finished" or (view and view.match_winner is not None):
                    return "over"
                if view is not None and view.deal > table.deal and pending is None:
                    first = table.deal == 0
                    table.deal = view.deal  # a new deal: roll the dice once
                    if not first and table.leaves:
                        return "leave"
                    if not first and self.rng.random() < self.args.drop:
                        return "drop"
            elif message.type in ("accepted", "rejected") and message.command_id == pending:
                self.tally.latencies.append(time.perf_counter() - sent_at)
                pending = None
                if message.type == "accepted":
                    self.tally.accepted += 1
                    wait_for = message.version
                else:
                    self.tally.rejections[message.code or "?"] += 1
                    refused += 1
                    if len(self.tally.refusals) < 20 and view is not None:
                        self.tally.refusals.append(
                            f"{table.table_id} {message.code} at v{version} (deal {view.deal}, "
                            f"turn {view.turn_no}, seat {view.seat}, window {view.window}); "
                            f"the messages before it: {' | '.join(_trace(m, t) for t, m in heard)}"
                        )
            elif message.type == "error":
                self.tally.exceptions[f"error:{message.code}"] += 1
                return "time"
            if pending is not None or view is None or version < wait_for or refused >= 2:
                continue
            command = self._choose(view, client, refused)
            if command is None:
                continue
            ids += 1
            pending, sent_at = f"s{ids}", time.perf_counter()
            payload = msgspec.json.encode(command).decode()
            await ws.send(f'{{"type":"command","command_id":"{pending}","command":{payload}}}')

    def _choose(self, view: Any, client: Client, refused: int) -> Any:
        seat = view.seat
        if (
            view.phase == "seeded"
            and seat is not None
            and "SendClientSeed" in view.legal.commands
            and len(view.client_seeds) >= seat
            and not view.client_seeds[seat - 1]
            and "Cut" not in view.legal.commands
        ):  # PF-AMB-12 h: the seat's client seed, through the game's command union
            seed = {"type": "SendClientSeed", "seed": secrets.token_hex(8)}
            return msgspec.convert(seed, client.game.command)
        return client.choose(view, self.rng, safe=refused > 0)


# --- the processes -----------------------------------------------------------------------


@contextlib.contextmanager
def _servers(args: argparse.Namespace) -> Iterator[tuple[str, str]]:
    from services.runtime.infra import embedded_nats, embedded_postgres

    database_url = args.database_url or os.environ.get("SAHRA_DATABASE_URL")
    nats_url = args.nats_url or os.environ.get("SAHRA_NATS_URL")
    with contextlib.ExitStack() as stack:
        tmp = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="sahra-soak-")))
        if not database_url:
            database_url = stack.enter_context(embedded_postgres(tmp / "pg", keep=False))
        if not nats_url:
            nats_url = stack.enter_context(embedded_nats(tmp / "nats")).url
        yield database_url, nats_url


@contextlib.asynccontextmanager
async def _processes(
    database_url: str, nats_url: str, logs: Path, workers: int
) -> AsyncIterator[tuple[str, dict[str, Path]]]:
    """Gateway, clock and bots workers; yields the gateway's base URL and the log files."""

    from services.runtime.infra import free_port

    port = free_port()
    urls = ["--database-url", database_url, "--nats-url", nats_url]
    data = ["--data-dir", str(logs / "data")]
    commands = {
        "gateway": ["services.gateway.serve", *urls, "--port", str(port)],
        "clock": ["services.cli.clock", "clock", *urls, *data],
        # As deployed: what a writer committed and did not publish, the relay publishes.
        "relay": ["services.cli.relay", "relay", *urls],
    }
    for i in range(workers):  # each takes one shard of the tables
        shard = ["--shard", f"{i}/{workers}"]
        commands[f"bots-{i}"] = ["services.cli.bots", "bots", *urls, *data, *shard]
    # One seed key for the services and for this process, whose audit at the end opens
    # the hidden cards they sealed (with a key of its own, every deal was "unverifiable").
    key = secrets.token_bytes(32)
    sealing.install_key(key)
    env = {
        **os.environ,
        "SAHRA_TOKEN_SECRET": secrets.token_hex(32),
        "SAHRA_SEED_KEY": key.hex(),
        "PYTHONUNBUFFERED": "1",
    }
    children: dict[str, subprocess.Popen[bytes]] = {}
    paths = {name: logs / f"{name}.log" for name in commands}
    try:
        for name, command in commands.items():
            with paths[name].open("ab") as out:
                children[name] = subprocess.Popen(
                    [sys.executable, "-m", *command],
                    cwd=_ROOT,
                    env=env,
                    stdout=out,
                    stderr=subprocess.STDOUT,
                    start_new_session=True,
                )
        base = f"http://127.0.0.1:{port}"
        # the gateway first: its log is named when none answers
        watched = {"gateway": (children["gateway"], paths["gateway"])}
        watched |= {name: (child, paths[name]) for name, child in children.items()}
        await wait_answering(base, "/readyz", watched)
        yield base, paths
    finally:
        for child in children.values():
            if child.poll() is None:
                child.send_signal(signal.SIGINT)
        for child in children.values():
            try:
                await asyncio.to_thread(child.wait, 30)
            except subprocess.TimeoutExpired:
                child.kill()


def _log_errors(path: Path) -> list[str]:
    try:
        lines = path.read_text(errors="replace").splitlines()
    except OSError:
        return []
    return [ln for ln in lines if " ERROR " in ln or ln.startswith(("ERROR", "Traceback"))]


# --- the run -------------------------------------------------------------------------------


async def _soak(args: argparse.Namespace) -> dict[str, Any]:
    import asyncpg
    import httpx

    from services.store.migrate import migrate
    from services.store.postgres import PostgresEventStore
    from services.verifier.audit import audit

    with _servers(args) as (database_url, nats_url):
        await migrate(database_url)
        logs = Path(tempfile.mkdtemp(prefix="sahra-soak-logs-"))
        admin = await asyncpg.connect(database_url)
        start_position = int(await admin.fetchval("SELECT coalesce(max(position), 0) FROM events"))
        async with _processes(database_url, nats_url, logs, args.bots) as (base, paths):
            _say(f"soak: {args.tables} tables for {args.minutes:g} min at {base}; logs in {logs}")
            seconds = args.minutes * 60
            tally = _Tally(time.perf_counter() + seconds)
            began = time.perf_counter()
            async with httpx.AsyncClient(base_url=base, timeout=60) as http:
                ws_base = base.replace("http", "ws", 1)
                players = [_Player(tally, http, ws_base, args) for _ in range(args.tables)]
                reporter = asyncio.create_task(_report(tally, began))
                await asyncio.gather(*(p.play_tables(i) for i, p in enumerate(players)))
                reporter.cancel()
            wall = time.perf_counter() - began
            counted = await admin.fetchrow(
                "SELECT count(*), count(command_id) FROM events WHERE position > $1",
                start_position,
            )
            await asyncio.sleep(2)  # let the bots worker and the clock finish what they began
            # Read before the processes are stopped: shutdown noise is not the run's.
            errors_in_logs = {name: _log_errors(path) for name, path in paths.items()}
        store = await PostgresEventStore.connect(database_url)
        try:
            summary = await audit(store, since=start_position)
        finally:
            await store.close()
            await admin.close()
    rows, appends = (0, 0) if counted is None else (int(counted[0]), int(counted[1]))
    log_errors = sum(len(v) for v in errors_in_logs.values())
    errors = sum(tally.rejections.values()) + sum(tally.exceptions.values()) + tally.lost
    return {
        "tables_at_once": args.tables,
        "bots_workers": args.bots,
        "minutes": args.minutes,
        "wall_s": round(wall, 1),
        "tables_played": tally.tables,
        "matches_finished_by_players": tally.matches,
        "players_left": tally.left,
        "socket_drops": tally.drops,
        "player_commands": tally.accepted,
        "player_commands_per_s": round(tally.accepted / wall, 1),
        "events_per_s": round(rows / wall, 1),
        "appends_per_s": round(appends / wall, 1),
        "latency_ms": {
            "p50": _ms(percentile(tally.latencies, 50)),
            "p99": _ms(percentile(tally.latencies, 99)),
            "max": _ms(max(tally.latencies, default=None)),
        },
        "errors": errors + log_errors,
        "rejections": dict(tally.rejections),
        "refusals": tally.refusals,
        "exceptions": dict(tally.exceptions),
        "lost_replies": tally.lost,
        "log_errors": {k: v[:5] for k, v in errors_in_logs.items() if v},
        "verified": {
            "deals": summary.deals,
            "verified": summary.verified,
            "failed": summary.failed,
            "unchecked": summary.unchecked,
            "unverifiable": summary.unverifiable,
            "passed": summary.passed,
        },
    }


async def _report(tally: _Tally, began: float) -> None:
    while True:
        await asyncio.sleep(30)
        wall = time.perf_counter() - began
        p99 = _ms(percentile(tally.latencies[-5000:], 99))
        _say(
            f"  {wall:5.0f} s: {tally.accepted} commands ({tally.accepted / wall:.0f}/s), "
            f"p99 {p99} ms, {tally.tables} tables, {tally.matches} matches over"
        )


def _trace(message: Any, at: float) -> str:
    """One received message, in a line of a refusal's report."""
    view = message.view
    where = "" if view is None else f" d{view.deal} t{view.turn_no} {view.phase} w{view.window}"
    return f"{at:.1f}s {message.type} v{message.version}{where}"


def _ms(seconds: float | None) -> float | None:
    return None if seconds is None else round(seconds * 1000, 2)


def _say(text: str) -> None:
    print(text, flush=True)


def _describe(result: dict[str, Any]) -> list[str]:
    latency, verified = result["latency_ms"], result["verified"]
    return [
        f"{result['player_commands_per_s']} player commands/s "
        f"({result['player_commands']} in {result['wall_s']} s), "
        f"{result['events_per_s']} events/s, {result['appends_per_s']} appends/s",
        f"latency p50 {latency['p50']} ms, p99 {latency['p99']} ms, max {latency['max']} ms",
        f"{result['tables_played']} tables, {result['matches_finished_by_players']} matches "
        f"seen to the end, {result['players_left']} left to the bots, "
        f"{result['socket_drops']} socket drops",
        f"errors: {result['errors']} {result['rejections'] or ''} "
        f"{result['exceptions'] or ''} {result['log_errors'] or ''}".rstrip(),
        f"verified {verified['verified']} of {verified['deals']} finished deals "
        f"({verified['failed']} failed, {verified['unchecked']} unchecked, "
        f"{verified['unverifiable']} unverifiable)",
        *(f"  refused: {line}" for line in result["refusals"]),
    ]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m services.bench.soak", description=__doc__)
    parser.add_argument("--tables", type=int, default=50, help="tables playing at once")
    parser.add_argument("--minutes", type=float, default=3.0, help="how long to play")
    parser.add_argument(
        "--rulesets",
        type=lambda text: text.split(","),
        default=["classic", "sahrat"],
        help="comma-separated, used in turn",
    )
    parser.add_argument("--game", default=_GAME, help=f"the game (default {_GAME})")
    parser.add_argument(
        "--options",
        type=json.loads,
        default=_OPTIONS,
        help=f"the tables' options over each preset, as JSON (default {_OPTIONS})",
    )
    parser.add_argument("--bots", type=int, default=2, help="bots worker processes")
    parser.add_argument("--drop", type=float, default=0.05, help="socket drops per deal")
    parser.add_argument("--leave", type=float, default=0.1, help="players who leave")
    parser.add_argument("--database-url", help="default: $SAHRA_DATABASE_URL, else embedded")
    parser.add_argument("--nats-url", help="default: $SAHRA_NATS_URL, else embedded")
    args = parser.parse_args(argv)
    try:
        result = asyncio.run(_soak(args))
    except RuntimeError as error:
        print(f"soak: {error}", file=sys.stderr)
        return 2
    for line in _describe(result):
        _say(line)
    print(json.dumps(result), flush=True)
    return 0 if result["verified"]["passed"] and not result["errors"] else 1


if __name__ == "__main__":
    sys.exit(main())
