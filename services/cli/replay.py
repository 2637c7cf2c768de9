"""`sahra replay FILE [--keep-going]`: replay a deal record and print its report as JSON.

The record format is `docs/deal-format.md`. Exit status: 0 when every command was
accepted (or `--keep-going` went past the rejected ones), 1 when the replay stopped at a
rejected command, 2 when the file cannot be read as a deal record.

A game's replay either reports a rejected command in its report (Banakil's, which can
also go past it) or refuses it outright (RuleViolation, rummy's): the latter is said in
one sentence naming the rule, never a traceback; `--keep-going` is refused for a game
whose replay cannot go past a rejected command.
"""

from __future__ import annotations

import argparse
import inspect
import sys
from pathlib import Path

import msgspec

from engine.errors import RuleViolation
from engine.replay import RecordError
from services.verifier.reading import read_record

__all__ = ["register", "replay"]

_OK, _REJECTED, _BAD_FILE = 0, 1, 2


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser(
        "replay",
        help="replay a deal record (docs/deal-format.md) and print the report",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("file", type=Path, help="the deal record, a JSON file")
    parser.add_argument(
        "--keep-going",
        action="store_true",
        help="report a rejected command and go on with the next one instead of stopping",
    )
    parser.set_defaults(run=replay)


def replay(args: argparse.Namespace) -> int:
    path: Path = args.file
    try:
        data = path.read_bytes()
    except OSError as exc:
        # A user's typo deserves a sentence, not a traceback; 2 matches argparse's usage errors.
        print(f"sahra replay: cannot read {path}: {exc.strerror or exc}", file=sys.stderr)
        return _BAD_FILE
    try:
        game, record = read_record(data)
    except RecordError as exc:
        print(f"sahra replay: {path}: {exc}", file=sys.stderr)
        return _BAD_FILE
    # The game the record names replays it (Banakil: `engine.replay.run_record`).
    try:
        if args.keep_going:
            if "keep_going" not in inspect.signature(game.records.replay).parameters:
                print(
                    f"sahra replay: {path}: a {game.name} record cannot be replayed past a "
                    "rejected command (--keep-going)",
                    file=sys.stderr,
                )
                return _BAD_FILE
            report = game.records.replay(record, keep_going=True)
        else:
            report = game.records.replay(record)
    except RuleViolation as exc:
        print(f"sahra replay: {path}: a command is rejected: {exc}", file=sys.stderr)
        return _REJECTED
    sys.stdout.buffer.write(msgspec.json.format(msgspec.json.encode(report), indent=2) + b"\n")
    sys.stdout.flush()
    return _REJECTED if getattr(report, "stopped", False) else _OK
