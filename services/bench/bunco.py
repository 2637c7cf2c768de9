"""`sahra bench bunco`: the figures of a Bunco evening (issue 13, Benchmarks), in one run.

- engine: whole evenings of random play per second (12 players, 24 rounds: the default
  options), the registry's rules and random player folding every event, in this one
  process (run it on one core: `taskset -c 1 sahra bench bunco`); rates over wall-clock
  and over CPU time. Nothing is kept while timed (a list of every state would make the
  garbage collector part of the figure); the same evenings are then played again untimed
  from the same seed to write their records (docs/deal-format.md 10.3, as the platform
  builds them), and those records are audited by the registry's `RecordSection` (decode
  and verify, as `sahra verify` does, in a new process: this one holds the dice of the
  rounds it played): rolls verified per second. Goal: >= 200 whole
  evenings/s on one core.
- gateway: one evening through a real gateway over real PostgreSQL and NATS (as `sahra
  bench service`: given URLs, else embedded servers), its 12 seats played by 12 WebSocket
  clients in this process, each rolling as soon as its view says it is awaited, so the
  three play tables roll on the one table stream at once. Rolls/s over the evening, p50/p99
  of a roll (command sent -> its reply), refusals (a roll sent on a view that the round's
  end, the bell or the evening's end overtook is refused, `wrong_phase`, `bell_rang`,
  `not_playing`: a race of the game, not an error) and the optimistic-concurrency
  retries: the gateway runs in a child process whose store's `append` is wrapped to count
  each ConcurrencyError (a lost race, after which TableService._execute decides again).
  The seed window and the reveal pause are shortened (0 s by default, `--seed-window`,
  `--reveal`): the clients send no client seeds, and the round's end screen is not what is
  measured. Goal: p99 < 50 ms.

A readable summary goes to stdout, then one JSON line (or only the JSON with `--json`).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import os
import random
import secrets
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from engine import players, protocol
from engine.fairness import CommitSeed
from services.bench import service

__all__ = ["GAME", "engine", "gateway", "register_bench", "run"]

GAME = __name__.rpartition(".")[2]  # the game this bench measures: the module's name
_GOAL_EVENINGS = 200.0  # whole evenings/s of random play, one core
_GOAL_P99_MS = 50.0
_REPLY_TIMEOUT = 10.0  # seconds without a reply: the roll counts as lost
_SYSTEM = 0

# The gateway with its store's appends counted: every ConcurrencyError the store raises is
# one lost race, after which the table service decides the command again (a retry). The
# count is written to argv[1] when the gateway stops.
_COUNTED_GATEWAY = """
import sys
from services.store import postgres
from services.store.port import ConcurrencyError
lost = [0]
append = postgres.PostgresEventStore.append
async def counted(self, *args, **kwargs):
    try:
        return await append(self, *args, **kwargs)
    except ConcurrencyError:
        lost[0] += 1
        raise
postgres.PostgresEventStore.append = counted
from services.gateway.serve import main
try:
    main(sys.argv[2:])
finally:
    with open(sys.argv[1], "w") as out:
        out.write(str(lost[0]))
"""


def register_bench(bench_subparsers: Any) -> None:
    """Add this game's bench to the sub-commands of `sahra bench`."""
    parser = bench_subparsers.add_parser(
        GAME, help=f"{GAME}: evenings/s of random play, rolls verified/s, an evening served"
    )
    parser.add_argument("--parts", default="engine,gateway", help="of engine,gateway (both)")
    parser.add_argument("--evenings", type=int, default=30, help="random evenings timed (30)")
    parser.add_argument("--players", type=int, default=12, help="seats of an evening (12)")
    parser.add_argument("--sets", type=int, default=4, help="sets of 6 rounds (4: 24 rounds)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--seed-window", type=float, default=0.0, help="the gateway's seed window, s (0)"
    )
    parser.add_argument("--reveal", type=float, default=0.0, help="the gateway's reveal, s (0)")
    parser.add_argument(
        "--evening-timeout", type=float, default=600.0, help="give up the served evening (600 s)"
    )
    parser.add_argument("--database-url", help="default: $SAHRA_DATABASE_URL, else embedded")
    parser.add_argument("--nats-url", help="default: $SAHRA_NATS_URL, else embedded")
    parser.add_argument("--json", action="store_true", help="only the JSON line")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    parts = set(args.parts.split(","))
    options = {"players": args.players, "sets": args.sets}
    report: dict[str, Any] = {"bench": GAME, "options": options, "seed": args.seed}
    say = (lambda _: None) if args.json else _say
    say(f"sahra bench {GAME}: load {_loadavg()}, CPU affinity {sorted(os.sched_getaffinity(0))}")
    if "engine" in parts:
        report["engine"] = engine(args.evenings, args.seed, options)
        say(_describe_engine(report["engine"]))
    if "gateway" in parts:
        try:
            report["gateway"] = asyncio.run(gateway(args, options))
        except RuntimeError as error:
            print(f"sahra bench {GAME}: {error}", file=sys.stderr)
            return 2
        say(_describe_gateway(report["gateway"]))
    report["load_after"] = _loadavg()
    print(json.dumps(report), flush=True)
    return 0


# --- the engine -----------------------------------------------------------------------------


def engine(evenings: int, seed: int, options: dict[str, Any]) -> dict[str, Any]:
    """Random play of `evenings` whole evenings, timed; then their records audited."""
    game = protocol.get(GAME)
    step = players.get(GAME).step
    chosen = game.options_from(None, **options)
    start = game.initial(chosen, 1)
    rolls = 0
    t0, c0 = time.perf_counter(), time.process_time()
    for n in range(evenings):
        rolls += _play(game, step, start, random.Random(f"{seed}:{n}"))
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    # the same evenings again, untimed, written as records (JSON, as stored and verified)
    records = [_record(game, step, start, random.Random(f"{seed}:{n}")) for n in range(evenings)]
    # audited in a new process, as `sahra verify` would: this one still holds the dice of
    # the rounds just played (the game may cache a round's open dice stream)
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
        passed, decode_wall, decode_cpu, verify_wall, verify_cpu = pool.submit(
            _audit, records
        ).result()
    audit_wall, audit_cpu = decode_wall + verify_wall, decode_cpu + verify_cpu
    return {
        "evenings": evenings,
        "rounds_per_evening": chosen.rounds,
        "rolls": rolls,
        "rolls_per_evening": round(rolls / evenings, 1) if evenings else 0,
        "random_play": {
            "seconds": round(wall, 3),
            "cpu_seconds": round(cpu, 3),
            "evenings_per_s": _rate(evenings, wall),
            "cpu_evenings_per_s": _rate(evenings, cpu),
            "rolls_per_s": _rate(rolls, wall),
            "cpu_rolls_per_s": _rate(rolls, cpu),
        },
        "verify": {
            "records_passed": passed,
            "records": len(records),
            "record_kib": round(sum(map(len, records)) / len(records) / 1024, 1) if records else 0,
            "rolls_per_s": _rate(rolls, audit_wall),
            "cpu_rolls_per_s": _rate(rolls, audit_cpu),
            "evenings_per_s": _rate(evenings, audit_wall),
            "decode_share": round(decode_cpu / audit_cpu, 2) if audit_cpu else None,
        },
        "goal_evenings_per_s": _GOAL_EVENINGS,
        "goal_met": _rate(evenings, wall) >= _GOAL_EVENINGS,
        "goal_met_cpu": _rate(evenings, cpu) >= _GOAL_EVENINGS,
    }


def _audit(records: list[bytes]) -> tuple[int, float, float, float, float]:
    """The records decoded and verified by the game's record section: (records passed,
    decode wall and CPU seconds, verify wall and CPU seconds)."""
    section = protocol.get(GAME).records
    assert section is not None  # Bunco registers its records
    t0, c0 = time.perf_counter(), time.process_time()
    decoded = [section.decode(r) for r in records]
    decode_wall, decode_cpu = time.perf_counter() - t0, time.process_time() - c0
    t0, c0 = time.perf_counter(), time.process_time()
    verdicts = [section.verify(r) for r in decoded]
    verify_wall, verify_cpu = time.perf_counter() - t0, time.process_time() - c0
    passed = sum(bool(v.passed) for v in verdicts)
    return passed, decode_wall, decode_cpu, verify_wall, verify_cpu


def _play(game: protocol.Game, step: Any, state: Any, rng: random.Random) -> int:
    """One whole evening of random play from `state`, nothing kept: its rolls."""
    evolve, over = game.evolve, game.over
    rolls = 0
    while not over(state):
        seat, _, events = step(state, rng)
        for event in events:
            state = evolve(state, event)
        rolls += seat != _SYSTEM  # a player's roll (the system's are its seeds and deals)
    return rolls


def _record(game: protocol.Game, step: Any, state: Any, rng: random.Random) -> bytes:
    """The record of the evening `_play` plays from the same generator: each round's
    secret, the seats' (absent) client seeds, the commands after its commitment and its
    events as stored (the commitment's secret written empty), built by the game."""
    import msgspec

    section = game.records
    assert section is not None
    evolve, over = game.evolve, game.over
    rounds: list[protocol.UnitLog] = []
    secret = ""
    commands: list[tuple[int, Any]] = []
    events: list[Any] = []
    seats = game.seats(state.options)

    def close() -> None:
        if events:
            stored = (msgspec.structs.replace(events[0], secret=""), *events[1:])
            number = len(rounds) + 1
            rounds.append(
                protocol.UnitLog(
                    number=number,
                    secret=secret,
                    client_seeds=("",) * seats,
                    commands=tuple(commands),
                    events=stored,
                )
            )

    while not over(state):
        seat, command, new = step(state, rng)
        if isinstance(command, CommitSeed):
            close()
            secret, commands, events = command.secret, [], []
        else:
            commands.append((seat, command))
        events.extend(new)
        for event in new:
            state = evolve(state, event)
    close()
    log = protocol.TableLog(
        options=section.options_of(state.options),
        seats=tuple(f"p{s}" for s in range(1, seats + 1)),
        host=1,
        units=tuple(rounds),
    )
    encoded: bytes = msgspec.json.encode(section.build(log))
    return encoded


# --- through the gateway --------------------------------------------------------------------


async def gateway(args: argparse.Namespace, options: dict[str, Any]) -> dict[str, Any]:
    """One evening served by a gateway over real PostgreSQL and NATS, 12 sockets rolling."""
    from services.store.migrate import migrate

    probe = service._CpuProbe()
    with (
        service._servers(args, probe) as (database_url, nats_url, servers),
        tempfile.TemporaryDirectory(prefix="sahra-bench-bunco-") as tmp,
    ):
        await migrate(database_url)
        settings = await service._server_settings(database_url)
        log, counts = Path(tmp) / "gateway.log", Path(tmp) / "retries"
        timing = {"seed_window_s": args.seed_window, "reveal_s": args.reveal}
        async with _gateway(database_url, nats_url, log, counts, timing) as (base, child):
            probe.groups["gateway"] = child.pid
            result = await _evening(base, args, options, probe)
        logged = service._log_errors(log, 0)
        retries = int(counts.read_text()) if counts.exists() else None
    result.update(
        servers=servers,
        server_settings=settings,
        shortened=timing,
        retries=retries,
        gateway_log_errors=len(logged),
        goal_p99_ms=_GOAL_P99_MS,
    )
    if logged:
        result["gateway_log_sample"] = logged[:5]
    p99 = result["latency_ms"]["p99"]
    result["goal_met"] = bool(result["finished"] and p99 is not None and p99 < _GOAL_P99_MS)
    return result


@contextlib.asynccontextmanager
async def _gateway(
    database_url: str, nats_url: str, log: Path, counts: Path, timing: dict[str, float]
) -> AsyncIterator[tuple[str, subprocess.Popen[bytes]]]:
    """The counting gateway in a child process; yields its base URL once /healthz answers."""
    from services.runtime.infra import free_port

    port = free_port()
    command = [
        sys.executable,
        "-c",
        _COUNTED_GATEWAY,
        str(counts),
        *("--database-url", database_url, "--nats-url", nats_url, "--port", str(port)),
    ]
    env = {
        **os.environ,
        "SAHRA_TOKEN_SECRET": secrets.token_hex(32),
        "SAHRA_SEED_WINDOW_SECONDS": str(timing["seed_window_s"]),
        "SAHRA_REVEAL_SECONDS": str(timing["reveal_s"]),
    }
    with log.open("ab") as out:
        child = subprocess.Popen(
            command,
            cwd=service._ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    base = f"http://127.0.0.1:{port}"
    try:
        await service.wait_answering(base, "/healthz", {"gateway": (child, log)})
        yield base, child
    finally:
        if child.poll() is None:
            child.send_signal(signal.SIGINT)  # uvicorn shuts down; the count is written
            try:
                await asyncio.to_thread(child.wait, 30)
            except subprocess.TimeoutExpired:
                child.kill()
                child.wait()


async def _evening(
    base: str, args: argparse.Namespace, options: dict[str, Any], probe: Any
) -> dict[str, Any]:
    import httpx
    from websockets.asyncio.client import connect

    client = service.Client(GAME, "classic", options)
    spec = argparse.Namespace(game=GAME, ruleset="classic", options=options)
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        table_id, tokens = await service._create_table(http, spec, client.seats, 0)
        table = service._Table(table_id, tokens)
        run = service._Run(client, 0.0, float("inf"))  # every reply is timed
        ws_base = base.replace("http", "ws", 1)
        seats = [
            service._Seat(
                run,
                table,
                seat,
                await connect(f"{ws_base}/tables/{table_id}/ws?token={tokens[seat]}"),
            )
            for seat in range(1, client.seats + 1)
        ]
        playing = [asyncio.create_task(seat.play()) for seat in seats]
        started = await http.post(
            f"/tables/{table_id}/start", headers={"Authorization": f"Bearer {tokens[1]}"}
        )
        started.raise_for_status()
        t0 = time.perf_counter()
        cpu_before = probe.sample()
        finished = await _until_over(run, seats, t0 + args.evening_timeout)
        cpu_after = probe.sample()
        elapsed = time.perf_counter() - t0
        run.stopping = True
        await asyncio.gather(*(s.ws.close() for s in seats), return_exceptions=True)
        await asyncio.gather(*playing, return_exceptions=True)
    rounds = max((s.view.round for s in seats if s.view is not None), default=0)
    refused = sum(run.rejections.values())
    accepted = run.accepted_total
    cpu = service._cpu_shares(cpu_before, cpu_after)
    return {
        "table_id": table_id,
        "sockets": len(seats),
        "finished": finished,
        "rounds": rounds,
        "seconds": round(elapsed, 2),
        "rolls": accepted,
        "rolls_per_s": _rate(accepted, elapsed),
        "latency_ms": {
            "n": len(run.latencies),
            "p50": service._ms(service.percentile(run.latencies, 50)),
            "p90": service._ms(service.percentile(run.latencies, 90)),
            "p99": service._ms(service.percentile(run.latencies, 99)),
            "max": service._ms(max(run.latencies, default=None)),
        },
        "refusals": dict(run.rejections),
        "refused_share": round(refused / (refused + accepted), 4) if refused + accepted else 0,
        "exceptions": dict(run.exceptions),
        "lost_replies": run.lost,
        "cpu": cpu,
        "cpu_ms_per_roll": service._per_unit(cpu, accepted / elapsed if elapsed else 0),
    }


async def _until_over(run: Any, seats: list[Any], deadline: float) -> bool:
    """Until a seat's view shows the evening over (True) or the deadline (False); replies
    that do not come within _REPLY_TIMEOUT are counted as lost."""
    counted: set[tuple[int, str]] = set()
    while time.perf_counter() < deadline:
        if any(s.view is not None and s.view.phase == "over" for s in seats):
            return True
        await asyncio.sleep(0.05)
        now = time.perf_counter()
        for i, seat in enumerate(seats):
            late = seat.pending and now - seat.sent_at > _REPLY_TIMEOUT
            if late and (i, seat.pending) not in counted:
                counted.add((i, str(seat.pending)))
                run.lost += 1
        if run.exceptions:
            return False
    return False


# --- output ---------------------------------------------------------------------------------


def _describe_engine(r: dict[str, Any]) -> str:
    play, audit = r["random_play"], r["verify"]
    return "\n".join(
        [
            f"engine: {r['evenings']} evenings of {r['rounds_per_evening']} rounds,"
            f" {r['rolls_per_evening']} rolls each",
            f"  random play: {play['evenings_per_s']} evenings/s"
            f" ({play['cpu_evenings_per_s']} per CPU second), {play['rolls_per_s']} rolls/s;"
            f" goal >= {r['goal_evenings_per_s']:g}: {'met' if r['goal_met'] else 'NOT met'}",
            f"  records audited: {audit['records_passed']}/{audit['records']} passed,"
            f" {audit['rolls_per_s']} rolls verified/s ({audit['cpu_rolls_per_s']} per CPU"
            f" second), {audit['evenings_per_s']} evenings/s; {audit['record_kib']} KiB a record",
        ]
    )


def _describe_gateway(r: dict[str, Any]) -> str:
    lat = r["latency_ms"]
    shortened = r["shortened"]
    return "\n".join(
        [
            f"gateway ({r['servers']}: {r['server_settings']};"
            f" seed window {shortened['seed_window_s']:g} s and reveal"
            f" {shortened['reveal_s']:g} s, shortened for the bench):",
            f"  one evening, {r['sockets']} sockets: {r['rounds']} rounds,"
            f" {'finished' if r['finished'] else 'NOT finished'} in {r['seconds']} s;"
            f" {r['rolls']} rolls, {r['rolls_per_s']} rolls/s",
            f"  roll latency p50 {lat['p50']} ms, p90 {lat['p90']} ms, p99 {lat['p99']} ms,"
            f" max {lat['max']} ms; goal p99 < {r['goal_p99_ms']:g} ms:"
            f" {'met' if r['goal_met'] else 'NOT met'}",
            f"  optimistic-concurrency retries {r['retries']}; refusals {r['refusals'] or 0};"
            f" exceptions {r['exceptions'] or 0}; lost replies {r['lost_replies']};"
            f" gateway log errors {r['gateway_log_errors']}",
            f"  CPU (1.0 = one core): {service._fmt(_shares(r['cpu']))};"
            f" CPU ms per roll {service._fmt(r['cpu_ms_per_roll'])}",
        ]
    )


def _shares(cpu: dict[str, Any]) -> dict[str, float]:
    names = ("client", "gateway", "postgres", "nats", "other", "machine_busy")
    return {n: cpu[n] for n in names if cpu.get(n) is not None}


def _rate(count: float, seconds: float) -> float:
    return round(count / seconds, 1) if seconds > 0 else 0.0


def _loadavg() -> str:
    try:
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "?"


def _say(text: str) -> None:
    print(text, flush=True)
