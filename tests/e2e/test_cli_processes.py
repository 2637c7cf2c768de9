"""The `sahra` command line as an operator runs it: real processes, signals, exit codes.

`sahra up` on a fresh data directory brings up embedded PostgreSQL and NATS and the
gateway; Ctrl-C (SIGINT) stops all of it with status 0 and leaves no server of that
directory running; the next `sahra up` on the same directory finds the data it left, and
the seat tokens it gave.
A gateway pointed at servers that are not there says so in one line and exits at once;
`sahra migrate` can be run again and again, even by two processes at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import secrets
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import asyncpg
import httpx
import pytest

from services.runtime.infra import free_port
from services.store.migrate import migration_files
from tests.e2e.process_support import SAHRA, alive_with, wait_ready

_UNREACHABLE = [
    "--database-url",
    "postgresql://nobody@127.0.0.1:1/x",
    "--nats-url",
    "nats://127.0.0.1:1",
]


def _env(**extra: str) -> dict[str, str]:
    """This environment without any SAHRA_* setting (so `sahra up` embeds its servers),
    plus `extra`."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("SAHRA_")}
    return {**env, "PYTHONUNBUFFERED": "1", **extra}


@pytest.fixture
def data_dir() -> Iterator[Path]:
    # Not under pytest's basetemp: the embedded PostgreSQL runs as its own user, which
    # must be able to enter every folder above its data directory (see tests/conftest.py).
    top = Path(tempfile.mkdtemp(prefix="sahra-up-test-"))
    yield top / "data"
    shutil.rmtree(top, ignore_errors=True)


def _postgres_family(data: Path) -> set[int]:
    """The running postmaster of `data` (first line of postmaster.pid) and its children."""
    postmaster = int((data / "postgres" / "postmaster.pid").read_text().split()[0])
    family = {postmaster}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError):
                continue
            if parent == postmaster:
                family.add(int(entry.name))
    return family


def _running(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


class _Up:
    """`sahra up` running in its own session, its output in a log file."""

    def __init__(self, args: list[str], env: dict[str, str], log: Path) -> None:
        self.log = log
        with log.open("ab") as out:
            self.process = subprocess.Popen(
                [str(SAHRA), "up", *args],
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )

    async def interrupt(self) -> int:
        """Ctrl-C: SIGINT to the whole process group, as a terminal sends it; the exit
        status."""
        os.killpg(self.process.pid, signal.SIGINT)
        try:
            return await asyncio.to_thread(self.process.wait, 45)
        except subprocess.TimeoutExpired:
            self.kill()
            raise AssertionError(f"still running 45 s after SIGINT:\n{self.output()}") from None

    def kill(self) -> None:
        """SIGKILL to the whole process group: `sahra up` and the embedded NATS it started
        (killing `sahra up` alone left its nats-server running after a failed test)."""
        if self.process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()

    def output(self) -> str:
        return self.log.read_text(errors="replace")


async def _stop_cleanly(up: _Up, data: Path) -> None:
    family = _postgres_family(data)
    servers = alive_with(str(data))
    assert any("nats-server" in s for s in servers), servers
    assert any("postgres" in s.split()[1] for s in servers), servers
    assert await up.interrupt() == 0, up.output()
    assert "Traceback" not in up.output(), up.output()
    assert alive_with(str(data)) == []
    assert [pid for pid in family if _running(pid)] == []


async def test_sahra_up_starts_everything_stops_on_ctrl_c_and_starts_again(
    data_dir: Path, tmp_path: Path
) -> None:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    first = _Up(["--port", str(port), "--data-dir", str(data_dir)], _env(), tmp_path / "1.log")
    try:
        await wait_ready(base, first.process, first.log)
        async with httpx.AsyncClient(base_url=base, timeout=10) as http:
            assert (await http.get("/healthz")).json() == {"status": "alive"}
            ready = (await http.get("/readyz")).json()
            assert ready == {
                "status": "ready",
                "checks": {"postgresql": "ok", "nats": "ok"},
                "down": [],
            }
            created = await http.post(
                "/tables",
                json={
                    "ruleset": "classic",
                    "player": "Amira",
                    "seats": ["human", "bot", "bot", "bot"],
                },
            )
            assert created.status_code == 201, created.text
            table_id, host_token = created.json()["table_id"], created.json()["token"]
            listed = await http.get("/tables")
            assert table_id in [t["table_id"] for t in listed.json()]
        await _stop_cleanly(first, data_dir)
    finally:
        first.kill()

    # The same directory again, named by the environment this time: the data is there.
    second = _Up(["--port", str(port)], _env(SAHRA_DATA_DIR=str(data_dir)), tmp_path / "2.log")
    try:
        await wait_ready(base, second.process, second.log)
        assert "migrations: up to date" in second.output()
        async with httpx.AsyncClient(base_url=base, timeout=10) as http:
            listed = await http.get("/tables")
            assert table_id in [t["table_id"] for t in listed.json()]
            table = (await http.get(f"/tables/{table_id}")).json()
            assert table["seats"][0]["player"] == "Amira"
            # A token from before the restart still holds the seat: the token secret is
            # kept in the data dir like the seed key (it was random per process).
            started = await http.post(
                f"/tables/{table_id}/start", headers={"Authorization": f"Bearer {host_token}"}
            )
            assert started.status_code in (200, 201), started.text
        assert (data_dir / "token.key").stat().st_mode & 0o777 == 0o600
        # `sahra verify` as the README shows it finds the running embedded database: the
        # deal is known to be in play (it said "needs --database-url" before).
        verdict = _verify(f"{table_id}-1", data_dir)
        assert verdict.returncode == 2, verdict.stderr
        assert f"deal {table_id}-1 has not begun" in verdict.stderr or (
            "is still being played" in verdict.stderr
        ), verdict.stderr
        await _stop_cleanly(second, data_dir)
    finally:
        second.kill()
    # With `sahra up` stopped, it starts that database for the check and stops it after.
    verdict = _verify(f"{table_id}-1", data_dir)
    assert verdict.returncode == 2 and "PostgreSQL" not in verdict.stderr, verdict.stderr
    assert table_id in verdict.stderr, verdict.stderr
    assert alive_with(str(data_dir)) == []


def _verify(deal: str, data_dir: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(SAHRA), "verify", deal],
        env=_env(SAHRA_DATA_DIR=str(data_dir)),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


@pytest.mark.parametrize("service", ["gateway", "relay"])
def test_a_service_without_its_servers_says_so_in_one_line_and_exits(service: str) -> None:
    began = time.monotonic()
    done = subprocess.run(
        [str(SAHRA), "serve", service, *_UNREACHABLE],
        env=_env(),
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    assert time.monotonic() - began < 15
    assert done.returncode != 0
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert "Traceback" not in done.stderr + done.stdout
    assert "127.0.0.1:1" in lines[0], lines[0]


async def _fresh_database(database_url: str) -> str:
    """A new, empty database on the session's server; its URL."""
    name = f"sahra_cli_{secrets.token_hex(4)}"
    conn = await asyncpg.connect(database_url)
    try:
        await conn.execute(f'CREATE DATABASE "{name}"')
    finally:
        await conn.close()
    return urlunsplit(urlsplit(database_url)._replace(path=f"/{name}"))


def _migrate(url: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [str(SAHRA), "migrate", "--database-url", url],
        env=_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


async def _applied(url: str) -> list[str]:
    conn = await asyncpg.connect(url)
    try:
        rows = await conn.fetch("SELECT name FROM schema_migrations ORDER BY name")
    finally:
        await conn.close()
    return [row["name"] for row in rows]


async def test_sahra_migrate_twice_applies_once(database_url: str) -> None:
    url = await _fresh_database(database_url)
    every = [name for name, _ in migration_files()]
    outputs = []
    for _ in range(2):
        out, err = await asyncio.to_thread(_migrate(url).communicate, timeout=30)
        assert err == ""
        outputs.append(out.splitlines())
    assert outputs == [[f"applied {name}" for name in every], ["already up to date"]]
    assert await _applied(url) == every


async def test_two_sahra_migrate_at_once_apply_once(database_url: str) -> None:
    url = await _fresh_database(database_url)
    both = [_migrate(url), _migrate(url)]
    for process in both:
        _, err = await asyncio.to_thread(process.communicate, timeout=30)
        assert process.returncode == 0, err
    assert await _applied(url) == [name for name, _ in migration_files()]
