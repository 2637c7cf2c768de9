"""Sahra as real operating-system processes, for the fault and command-line tests.

`GatewayProcess` runs `sahra serve gateway` (the deployed entry point) in its own process
group, waits until /readyz answers 200, and can be SIGKILLed like a crashed machine.
`alive_with` finds the processes whose command line names a path (the servers `sahra up`
started for one data directory).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx

__all__ = ["SAHRA", "TOKEN_SECRET", "GatewayProcess", "alive_with", "wait_ready"]

SAHRA = Path(sys.executable).parent / "sahra"
TOKEN_SECRET = "crash-recovery-secret-0123456789"  # every gateway process shares it
_START_TIMEOUT = 30.0


class GatewayProcess:
    """One `sahra serve gateway` process on a fixed port; its output goes to `log`."""

    def __init__(self, database_url: str, nats_url: str, port: int, log: Path) -> None:
        self.port = port
        self.base = f"http://127.0.0.1:{port}"
        self.log = log
        env = {
            **os.environ,
            "SAHRA_TOKEN_SECRET": TOKEN_SECRET,
            "SAHRA_ALLOW_STACKED_DECKS": "1",
            "PYTHONUNBUFFERED": "1",
        }
        args = ["serve", "gateway", "--database-url", database_url, "--nats-url", nats_url]
        with log.open("ab") as out:
            self.process = subprocess.Popen(
                [str(SAHRA), *args, "--port", str(port)],
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # its own group: a signal for it reaches nothing else
            )

    async def ready(self) -> None:
        await wait_ready(self.base, self.process, self.log)

    def kill(self) -> None:
        """SIGKILL: no shutdown handler runs, sockets drop, nothing is flushed."""
        if self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGKILL)
            assert self.process.wait(timeout=10) == -signal.SIGKILL

    def stop(self) -> None:
        if self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGINT)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.kill()


async def wait_ready(base: str, process: subprocess.Popen[bytes], log: Path) -> None:
    """Until GET /readyz says 200; fails at once (with the process's output) if it exits."""
    deadline = time.monotonic() + _START_TIMEOUT
    async with httpx.AsyncClient(base_url=base, timeout=2) as http:
        while True:
            if process.poll() is not None:
                raise AssertionError(f"the process exited with {process.returncode}:\n{_tail(log)}")
            with contextlib.suppress(httpx.TransportError):
                if (await http.get("/readyz")).status_code == 200:
                    return
            if time.monotonic() > deadline:
                raise AssertionError(f"not ready within {_START_TIMEOUT:g} s:\n{_tail(log)}")
            await asyncio.sleep(0.1)


def alive_with(text: str) -> list[str]:
    """The command lines of running processes that contain `text` (zombies excluded)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:  # gone meanwhile
            continue
        if text in cmdline and state != "Z":
            found.append(f"{entry.name}: {cmdline.strip()}")
    return found


def _tail(log: Path, lines: int = 40) -> str:
    try:
        return "\n".join(log.read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return "(no output)"
