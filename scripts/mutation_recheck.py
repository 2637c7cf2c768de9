"""Re-check mutmut's survivors in the mutated tree, each in a fresh child (docs/testing.md).

    .venv/bin/python scripts/mutation_recheck.py MUTANTS_DIR OUT_FILE TEST [TEST ...] < names

The documented re-check, `MUTANT_UNDER_TEST=<name> pytest -x <tests>` from the mutated
tree, one survivor after another, without paying for the interpreter and the engine's
imports each time: this process imports pytest and the engine once, then forks one child
per mutant name read from stdin, which sets MUTANT_UNDER_TEST and runs `pytest -x` on the
tests given. No engine function runs at import time in the rummy modules scored, so each
child's caches start empty. That is the point: mutmut forks its workers from a process
that has already run the whole selection, so a `functools.cache`/`lru_cache` filled there
by the original code (the lesson's stages, the group checks, the random player's wanted
faces) answers for the mutant too, and mutants behind a cache "survive" in mutmut's run.

Appends "name exit_code seconds" lines to OUT_FILE (0: survived; any other code: a test
failed or collection broke, killed; -9: killed after 900 s) and skips names already
there, so a stopped run resumes.
"""

from __future__ import annotations

import os
import signal
import sys
import time
from pathlib import Path

_LIMIT = 900.0  # seconds a child may take; mutmut counts a timeout as killed


def _run(name: str, args: list[str]) -> int:
    import pytest

    pid = os.fork()
    if pid == 0:  # the child: quiet, then the tests under the mutant
        os.environ["MUTANT_UNDER_TEST"] = name
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 1)
        os.dup2(devnull, 2)
        try:
            code = int(pytest.main(args))
        except BaseException:
            code = 99
        os._exit(code)
    deadline = time.monotonic() + _LIMIT
    while True:
        got, status = os.waitpid(pid, os.WNOHANG)
        if got:
            return os.waitstatus_to_exitcode(status)
        if time.monotonic() > deadline:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            return -9
        time.sleep(0.2)


def main(mutants: str, out_file: str, tests: list[str]) -> int:
    out = Path(out_file).resolve()
    os.chdir(mutants)
    sys.path.insert(0, ".")
    os.environ.setdefault("SAHRA_ORACLE_EXAMPLES", "200")
    import pytest  # noqa: F401  (imported once, before the forks)

    import engine.rummy.game  # noqa: F401
    import services.runtime.infra  # noqa: F401  (tests/conftest.py imports it)

    done = set()
    if out.exists():
        done = {line.split()[0] for line in out.read_text().splitlines() if line.strip()}
    args = [
        "--rootdir=.",
        "-x",
        "-q",
        "-p",
        "no:cacheprovider",
        "-p",
        "no:randomly",
        "--deselect",
        "tests/unit/test_fair.py::test_the_fair_module_has_no_source_of_its_own_randomness_or_time",
        *tests,
    ]
    for name in (n.strip() for n in sys.stdin):
        if not name or name in done:
            continue
        start = time.monotonic()
        code = _run(name, args)
        with out.open("a") as f:
            f.write(f"{name} {code} {time.monotonic() - start:.1f}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2], sys.argv[3:]))
