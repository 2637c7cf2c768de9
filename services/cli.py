"""The `sahra` command line: one sub-command per module, wired here and nowhere else."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from services import (
    bench_cli,
    fair_cli,
    migrate_cli,
    quarantine_cli,
    replay_cli,
    serve_cli,
    up_cli,
)
from services.verifier import cli as verify_cli

__all__ = ["main"]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="sahra", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    modules = (up_cli, serve_cli, migrate_cli, replay_cli, verify_cli, fair_cli, bench_cli)
    for module in (*modules, quarantine_cli):
        module.register(sub)
    args = parser.parse_args(argv)
    code: int = args.run(args)
    return code


if __name__ == "__main__":
    sys.exit(main())
