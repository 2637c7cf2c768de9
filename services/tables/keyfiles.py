"""Secrets kept in the data directory: read one, or make it the first time.

`sahra up` and the processes of one machine keep their secrets next to the embedded
servers' data (the seed key, the token secret, the NATS credentials), so that a restart
finds the same ones: a new secret at every start would lock every player out of his seat
and leave every unfinished deal's secret sealed for good.

A file is made owner-only (0600) under a temporary name and linked into place: two
processes that start at the same moment either link first or read the other's complete
file, never half of one, and both end up with the same secret.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

__all__ = ["load_or_make"]

T = TypeVar("T")


def load_or_make(path: Path, make: Callable[[], str], parse: Callable[[str], T]) -> tuple[T, bool]:
    """The secret in `path` parsed by `parse`, and whether it was made now (by `make`, whose
    text is written as the file's one line). A file that does not parse is an error named
    with its path (ValueError), never replaced: it may be the only copy of a key in use."""
    if path.exists():
        return _parse(path, parse), False
    path.parent.mkdir(parents=True, exist_ok=True)
    text = make()
    value = parse(text)  # a maker that makes what its parser refuses is a bug: fail now
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}-")  # mode 0600
    try:
        with os.fdopen(fd, "w") as out:
            out.write(text + "\n")
        try:
            os.link(tmp, path)
        except FileExistsError:  # another process made it meanwhile: use that one
            return _parse(path, parse), False
    finally:
        os.unlink(tmp)
    return value, True


def _parse(path: Path, parse: Callable[[str], T]) -> T:
    try:
        return parse(path.read_text().strip())
    except ValueError as exc:
        raise ValueError(f"{path}: {exc}") from None
