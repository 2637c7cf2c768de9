"""The mutation score per module from mutmut 3's results (scripts/mutate.sh, docs/testing.md).

Reads each ``mutants/<path>.meta`` that mutmut wrote and prints, per module: mutants
killed (a test failed, or the mutant timed out), survived, with no test, and the score
killed / (killed + survived + no tests), first over all mutants and then without the
equivalent ones listed in ``scripts/mutation_equivalent.txt`` (a mutant name, then why
no test can tell it from the original). Survivors are listed by name for ``mutmut show``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

_KILLED = {1, 3, 36, -24, 24, 152, 255}  # a failing test, or a timeout (an endless loop)
_SURVIVED = {0}
_NO_TESTS = {5, 33}
_EQUIVALENT = Path(__file__).with_name("mutation_equivalent.txt")


def _equivalent() -> dict[str, str]:
    out = {}
    for line in _EQUIVALENT.read_text(encoding="utf-8").splitlines():
        name, _, why = line.partition(" ")
        if name and not name.startswith("#"):
            out[name] = why.strip()
    return out


def main(mutants: Path, modules: list[str]) -> int:
    equivalent = _equivalent()
    for meta in sorted(mutants.rglob("*.py.meta")):
        module = str(meta.relative_to(mutants))[: -len(".py.meta")].replace("/", ".")
        if modules and module not in modules:
            continue
        codes = json.loads(meta.read_text(encoding="utf-8"))["exit_code_by_key"]
        if not codes:
            continue
        killed = [k for k, c in codes.items() if c in _KILLED]
        survived = sorted(k for k, c in codes.items() if c in _SURVIVED | _NO_TESTS)
        unchecked = [k for k in codes if k not in killed and k not in survived]
        kept = [k for k in survived if k not in equivalent]
        judged = len(killed) + len(survived)
        net = len(killed) + len(kept)
        print(
            f"{module}: {len(codes)} mutants, {len(killed)} killed, {len(survived)} survived"
            f" ({len(survived) - len(kept)} equivalent), {len(unchecked)} not run;"
            f" score {100 * len(killed) / max(judged, 1):.1f}%,"
            f" {100 * len(killed) / max(net, 1):.1f}% without equivalent mutants"
        )
        for name in kept:
            print(f"  survived: {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]), sys.argv[2:]))
