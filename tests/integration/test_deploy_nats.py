"""deploy/nats.conf on a real nats-server: a user per service, each allowed only what it
needs (issue 10 item 2).

The file is run as deployed but for its addresses and store dir (rewritten to this
machine's), with the passwords in the environment as compose passes them.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import secrets
import socket
import subprocess
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import nats
import nats.errors
import pytest
from nats.aio.client import Client as NatsClient
from nats.js.api import DeliverPolicy

from services.bus.nats import STREAM, NatsBus
from services.bus.port import BusError, decode_message, subject_for
from services.runtime.infra import free_port, nats_binary
from tests.integration.bus_support import Collector, event, jetstream_versions, unique_table

_CONF = Path(__file__).resolve().parents[2] / "deploy" / "nats.conf"
_USERS = ("gateway", "relay", "clock", "bots", "reader")
_WRITERS = ("gateway", "relay", "clock", "bots")


class _Server:
    def __init__(self, port: int, passwords: dict[str, str]) -> None:
        self.port = port
        self.passwords = passwords

    def url(self, user: str | None, password: str | None = None) -> str:
        if user is None:
            return f"nats://127.0.0.1:{self.port}"
        secret = self.passwords[user] if password is None else password
        return f"nats://{user}:{secret}@127.0.0.1:{self.port}"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[_Server]:
    folder = tmp_path_factory.mktemp("deploy-nats")
    port = free_port()
    text = _CONF.read_text()
    for deployed, here in (
        ("listen: 0.0.0.0:4222", f"listen: 127.0.0.1:{port}"),
        ("http: 0.0.0.0:8222", f"http: 127.0.0.1:{free_port()}"),
        ("store_dir: /data", f"store_dir: {folder / 'js'}"),
    ):
        assert deployed in text, deployed  # the test follows the file
        text = text.replace(deployed, here)
    conf = folder / "nats.conf"
    conf.write_text(text)
    passwords = {user: secrets.token_hex(16) for user in _USERS}
    env = {**os.environ, **{f"NATS_{u.upper()}_PASSWORD": p for u, p in passwords.items()}}
    process = subprocess.Popen(
        [nats_binary(), "-c", str(conf)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + 15
        while True:
            if process.poll() is not None:
                assert process.stderr is not None
                raise AssertionError(f"nats-server refused the config: {process.stderr.read()!r}")
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.2):
                break
            assert time.monotonic() < deadline, "nats-server did not start"
            time.sleep(0.05)
        yield _Server(port, passwords)
    finally:
        process.terminate()
        process.wait(10)
        if process.stderr is not None:
            process.stderr.close()


@contextlib.asynccontextmanager
async def _bus(server: _Server, user: str) -> AsyncIterator[NatsBus]:
    bus = await NatsBus.connect(server.url(user), timeout=2.0)
    try:
        yield bus
    finally:
        await bus.close()


async def test_a_client_without_a_user_or_with_a_wrong_password_is_refused(
    server: _Server,
) -> None:
    # The server answers "-ERR 'Authorization Violation'" and closes; the client may read
    # the close before the answer ("Connection reset by peer"), so the refusal is what is
    # asserted, against the same server accepting the right password.
    for url in (server.url(None), server.url("gateway", "0" * 32)):
        with pytest.raises(BusError, match=r"cannot reach NATS|Authorization Violation"):
            await NatsBus.connect(url, timeout=1.0)
    async with _bus(server, "gateway") as gateway:
        assert gateway.status().connected


async def test_every_writer_publishes_notices_a_gateway_follows(server: _Server) -> None:
    table, got = unique_table(), Collector()
    async with _bus(server, "gateway") as gateway:
        await gateway.subscribe(table, got)
        for version, user in enumerate(_WRITERS, start=1):
            async with _bus(server, user) as writer:
                result = await writer.publish([event(table, version)])
                assert result.stored == 1, user
        await got.wait_for_version(len(_WRITERS))
    assert got.versions == [1, 2, 3, 4]


async def test_only_the_gateways_follow_tables(server: _Server) -> None:
    async with _bus(server, "clock") as clock:
        with pytest.raises(BusError, match=f"cannot subscribe to {subject_for('t')}"):
            await clock.subscribe("t", Collector())


async def test_a_reader_follows_the_notices_and_cannot_publish_one(server: _Server) -> None:
    table = unique_table()
    async with _bus(server, "gateway") as gateway:
        await gateway.publish([event(table, 1)])
    reader = await nats.connect(server.url("reader"), error_cb=_quiet)
    try:
        js = reader.jetstream(timeout=2.0)
        sub = await js.subscribe(
            subject_for(table),
            stream=STREAM,
            ordered_consumer=True,
            deliver_policy=DeliverPolicy.ALL,
        )
        first = await sub.next_msg(timeout=5)
        assert decode_message(first.data).version == 1
        await sub.unsubscribe()
        with pytest.raises((nats.errors.TimeoutError, nats.errors.NoRespondersError)):
            await js.publish(subject_for(table), b"{}", timeout=1.0)
    finally:
        await reader.close()
    assert await jetstream_versions(server.url("gateway"), table) == [1]


async def test_no_service_may_delete_or_purge_the_stream(server: _Server) -> None:
    async with _bus(server, "gateway") as gateway:
        await gateway.publish([event(unique_table(), 1)])
    for user in _USERS:
        client = await nats.connect(server.url(user), error_cb=_quiet)
        try:
            manager = client.jetstream(timeout=0.3)  # a refused request gets no answer
            for attempt in (manager.purge_stream, manager.delete_stream):
                with pytest.raises((nats.errors.TimeoutError, nats.errors.NoRespondersError)):
                    await attempt(STREAM)
            info = await asyncio.wait_for(_stream_messages(server), 5)
            assert info >= 1, user
        finally:
            await client.close()


async def _stream_messages(server: _Server) -> int:
    client = NatsClient()
    await client.connect(server.url("gateway"), error_cb=_quiet)
    try:
        info = await client.jetstream().stream_info(STREAM)
        return info.state.messages
    finally:
        await client.close()


async def _quiet(_: Exception) -> None:
    return None
