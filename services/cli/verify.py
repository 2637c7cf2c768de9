"""`sahra verify`: is a deal exactly what its committed secret, its seeds and the rules make?

    sahra verify DEAL_ID                    a finished deal of the store ("<table>-<n>")
    sahra verify --file RECORD.json         a deal record, offline (no database)
    sahra verify --all [--since WHEN]       every finished deal of the store: an audit

The store is --database-url, else $SAHRA_DATABASE_URL, else the embedded PostgreSQL that
`sahra up` keeps in its data dir (--data-dir, else $SAHRA_DATA_DIR, else .sahra): found
while `sahra up` runs (shared with it, never stopped under it), or started for the check
and stopped after it. The answer is short sentences, one line per check, the first
difference named by its field (brief.py); `--json` prints {"deal_id", "record", "verdict"}
instead, whole (for --all, the audit's summary). `--since` is an ISO 8601 time (deals that
ended at or after it) or a global store position (deals that ended after it). --all shows
its progress on stderr.

Exit status: 0 verified (every deal, for --all), 1 not verified, 2 bad input (a malformed
deal id or file, an unknown or unfinished deal, a database that cannot be reached).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import sys
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TextIO, TypeVar

import msgspec

from engine.replay import RecordError
from engine.verify import Verdict
from services.runtime.infra import embedded_postgres
from services.store.port import EventStore
from services.tables import sealing
from services.verifier.audit import AuditSummary, Since, audit
from services.verifier.brief import brief_lines
from services.verifier.reading import read_record, verify_any
from services.verifier.records import RecordProblem, deal_record, parse_deal_id

__all__ = ["ProgressBar", "main", "parse_since", "register"]

_VERIFIED, _NOT_VERIFIED, _BAD_INPUT = 0, 1, 2
_T = TypeVar("_T")
_ENCODER = msgspec.json.Encoder()


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add `verify` to the sub-commands of `sahra`."""
    parser = sub.add_parser(
        "verify",
        help="verify a finished deal (or a deal record, or every deal) against its seed",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("deal_id", nargs="?", help='a finished deal: "<table id>-<deal number>"')
    parser.add_argument("--file", type=Path, help="verify this deal record instead (offline)")
    parser.add_argument("--all", action="store_true", help="verify every finished deal")
    parser.add_argument(
        "--since",
        help="with --all: only deals that ended at/after this ISO time, or after this position",
    )
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    parser.add_argument("--database-url", help="PostgreSQL URL (env SAHRA_DATABASE_URL)")
    parser.add_argument(
        "--data-dir", help="`sahra up`'s data, when no URL is given (env SAHRA_DATA_DIR)"
    )
    parser.set_defaults(run=run)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="sahra")
    register(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(["verify", *(argv or [])])
    code: int = args.run(args)
    return code


def parse_since(text: str) -> Since:
    """A global position (digits) or an ISO 8601 time (UTC when it names no zone)."""
    if text.isdigit():
        return int(text)
    try:
        when = datetime.fromisoformat(text)
    except ValueError:
        raise ValueError(
            f"--since is an ISO 8601 time (2026-11-29T18:00:00Z) or a position, not {text!r}"
        ) from None
    return when if when.tzinfo else when.replace(tzinfo=UTC)


def run(args: argparse.Namespace) -> int:
    modes = sum((args.deal_id is not None, args.file is not None, bool(args.all)))
    if modes != 1:
        return _bad("name one deal id, or --file RECORD.json, or --all")
    if args.since is not None and not args.all:
        return _bad("--since goes with --all")
    if args.file is not None:
        return _file(args.file, args.json)
    since = None
    try:
        if args.all and args.since is not None:
            since = parse_since(args.since)
        if not args.all:
            parse_deal_id(args.deal_id)
    except ValueError as exc:
        return _bad(str(exc))
    except RecordProblem as problem:
        return _bad(problem.message)
    unkeyed = _install_seed_key(args)
    if unkeyed is not None:
        return _bad(unkeyed)
    with contextlib.ExitStack() as servers:
        url = args.database_url or os.environ.get("SAHRA_DATABASE_URL")
        if not url:
            data = Path(
                getattr(args, "data_dir", None) or os.environ.get("SAHRA_DATA_DIR") or ".sahra"
            )
            if not (data / "postgres" / "PG_VERSION").exists():
                return _bad(
                    "a deal of the store needs --database-url or SAHRA_DATABASE_URL, or the "
                    f"data dir of `sahra up` (--data-dir; {str(data)!r} holds no database)"
                )
            try:
                url = servers.enter_context(embedded_postgres(data.resolve() / "postgres"))
            except Exception as exc:  # pgserver's errors name no common type
                return _bad(f"cannot open the embedded PostgreSQL in {data}: {_first_line(exc)}")
        if args.all:
            return _all(url, since, args.json)
        return _one(url, args.deal_id, args.json)


def _install_seed_key(args: argparse.Namespace) -> str | None:
    """Hold the key that opens the stored deals' hidden cards (docs/fairness.md, section
    10): SAHRA_SEED_KEY, else the data dir's seed.key; never made here. Without either, the
    first sealed card met says which key it needs. The reason when the key is unusable."""
    data = getattr(args, "data_dir", None) or os.environ.get("SAHRA_DATA_DIR") or ".sahra"
    try:
        key = sealing.existing_key(Path(data))
    except (sealing.SealError, OSError) as exc:
        return str(exc)
    if key is not None:
        sealing.install_key(key)
    return None


def _bad(message: str) -> int:
    print(f"sahra verify: {message}", file=sys.stderr)
    return _BAD_INPUT


def _file(path: Path, as_json: bool) -> int:
    try:
        data = path.read_bytes()
    except OSError as exc:
        return _bad(f"cannot read {path}: {exc.strerror or exc}")
    try:
        _, record = read_record(data)
    except RecordError as exc:
        return _bad(f"{path}: {exc}")
    verdict = verify_any(record)
    if as_json:
        _print_json({"deal_id": None, "record": msgspec.Raw(data), "verdict": verdict})
    else:
        _print_verdict(f"record {path}", verdict)
    return _VERIFIED if verdict.passed else _NOT_VERIFIED


def _one(url: str, deal: str, as_json: bool) -> int:
    async def fetch(store: EventStore) -> Any:
        return await deal_record(store, deal)

    try:
        record = _with_store(url, fetch)
    except RecordProblem as problem:
        return _bad(problem.message)
    except _Unreachable as exc:
        return _bad(str(exc))
    verdict = verify_any(record)
    if as_json:
        _print_json({"deal_id": deal, "record": record, "verdict": verdict})
    else:
        _print_verdict(f"deal {deal}", verdict)
    return _VERIFIED if verdict.passed else _NOT_VERIFIED


def _all(url: str, since: Since, as_json: bool) -> int:
    bar = ProgressBar(sys.stderr)

    async def check(store: EventStore) -> AuditSummary:
        return await audit(store, since, bar.update)

    try:
        summary = _with_store(url, check)
    except _Unreachable as exc:
        return _bad(str(exc))
    finally:
        bar.close()
    if as_json:
        _print_json({"passed": summary.passed, **msgspec.structs.asdict(summary)})
    else:
        print("\n".join(summary.sentences()))
    return _VERIFIED if summary.passed else _NOT_VERIFIED


class _Unreachable(Exception):
    pass


def _with_store(url: str, use: Callable[[EventStore], Awaitable[_T]]) -> _T:
    async def go() -> _T:
        from services.store.postgres import PostgresEventStore

        try:
            store = await PostgresEventStore.connect(url, min_size=1, max_size=2, timeout=5)
        except Exception as exc:
            raise _Unreachable(f"cannot reach PostgreSQL: {_first_line(exc)}") from None
        try:
            return await use(store)
        finally:
            await store.close()

    return asyncio.run(go())


def _first_line(exc: BaseException) -> str:
    return (str(exc).strip() or type(exc).__name__).splitlines()[0]


def _print_verdict(what: str, verdict: Any) -> None:
    head = "verified" if verdict.passed else "NOT verified"
    print(f"{what}: {head}")
    # Banakil's verdict in short sentences; another game's verdict as its own JSON.
    lines = (
        brief_lines(verdict)
        if isinstance(verdict, Verdict)
        else [_ENCODER.encode(verdict).decode()]
    )
    for line in lines:
        print(f"  {line}")
    if not verdict.passed:
        print("  (--json prints the record and the verdict whole, both events included)")


def _print_json(value: Any) -> None:
    sys.stdout.buffer.write(msgspec.json.format(_ENCODER.encode(value), indent=2) + b"\n")
    sys.stdout.flush()


class ProgressBar:
    """`[#####.....] 120/400 deals` on one line of `out`, redrawn at most 10 times a
    second; on a stream that is not a terminal, one line per tenth of the work."""

    def __init__(self, out: TextIO, width: int = 30) -> None:
        self._out = out
        self._width = width
        self._tty = out.isatty()
        self._drawn = 0.0
        self._tenth = -1
        self._shown = False

    def update(self, done: int, total: int) -> None:
        if total <= 0:
            return
        now = time.monotonic()
        if self._tty:
            if done < total and now - self._drawn < 0.1:
                return
            self._drawn = now
            filled = self._width * done // total
            bar = "#" * filled + "." * (self._width - filled)
            self._out.write(f"\r[{bar}] {done}/{total} deals")
        else:
            tenth = 10 * done // total
            if tenth == self._tenth:
                return
            self._tenth = tenth
            self._out.write(f"verified {done}/{total} deals\n")
        self._shown = True
        self._out.flush()

    def close(self) -> None:
        if self._shown and self._tty:
            self._out.write("\n")
            self._out.flush()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
