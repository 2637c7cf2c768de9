"""`sahra up`'s embedded NATS requires a password (issue 10, item 2).

Whoever could reach the bus could publish on it. The password is made on first start and
kept in the data dir like `seed.key` (owner-only), every service of the process connects
with it, and a client without it is refused. It never appears in the output.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
from pathlib import Path

import httpx
import nats

from services.runtime.infra import free_port
from tests.e2e.process_support import wait_ready
from tests.e2e.test_cli_processes import _env, _stop_cleanly, _Up, data_dir

__all__ = ["data_dir"]  # fixture

_EMBEDDED = re.compile(r"NATS: embedded with JetStream at nats://sahra:\*\*\*@127\.0\.0\.1:(\d+)")


async def _answer(host: str, port: int, credentials: dict[str, str]) -> str:
    """The server's answer to a CONNECT with `credentials` and a PING, in NATS's own text
    protocol (nats-py leaves a socket open when a connection is refused)."""
    reader, writer = await asyncio.open_connection(host, port)
    try:
        info = await asyncio.wait_for(reader.readline(), 5)
        assert info.startswith(b"INFO "), info
        connect = {"verbose": False, "pedantic": False, **credentials}
        writer.write(b"CONNECT " + json.dumps(connect).encode() + b"\r\nPING\r\n")
        await writer.drain()
        return (await asyncio.wait_for(reader.readline(), 5)).decode().strip()
    finally:
        writer.close()
        with contextlib.suppress(OSError):
            await writer.wait_closed()


async def test_sahra_up_makes_a_nats_password_and_its_nats_refuses_clients_without_it(
    data_dir: Path, tmp_path: Path
) -> None:
    port = free_port()
    up = _Up(["--port", str(port), "--data-dir", str(data_dir)], _env(), tmp_path / "up.log")
    try:
        await wait_ready(f"http://127.0.0.1:{port}", up.process, up.log)
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=10) as http:
            ready = (await http.get("/readyz")).json()
            assert ready["checks"]["nats"] == "ok"  # the gateway connected with it

        key = data_dir / "nats.key"
        assert key.stat().st_mode & 0o777 == 0o600
        assert (data_dir / "nats" / "nats-server.conf").stat().st_mode & 0o777 == 0o600
        password = key.read_text().strip()
        assert len(password) >= 32
        output = up.output()
        assert password not in output
        found = _EMBEDDED.search(output)
        assert found is not None, output

        host, nats_port = "127.0.0.1", int(found[1])
        refused = "-ERR 'Authorization Violation'"
        assert await _answer(host, nats_port, {}) == refused
        assert await _answer(host, nats_port, {"user": "sahra", "pass": "0" * 48}) == refused
        assert await _answer(host, nats_port, {"user": "sahra", "pass": password}) == "PONG"
        client = await nats.connect(f"nats://sahra:{password}@{host}:{nats_port}")
        try:
            await client.jetstream().account_info()
        finally:
            await client.close()
        await _stop_cleanly(up, data_dir)
    finally:
        up.kill()
