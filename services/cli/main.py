"""The `sahra` command line: one sub-command per module, wired here and nowhere else."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from services.cli import bench, fair, migrate, quarantine, replay, serve, up, verify

__all__ = ["main"]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="sahra", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    for module in (up, serve, migrate, replay, verify, fair, bench, quarantine):
        module.register(sub)
    args = parser.parse_args(argv)
    code: int = args.run(args)
    return code


if __name__ == "__main__":
    sys.exit(main())
