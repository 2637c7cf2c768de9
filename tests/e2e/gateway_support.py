"""Running the gateway for tests: uvicorn in this process on a free port, real adapters,
and a small WebSocket client that records everything it is sent."""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
from collections.abc import AsyncIterator, Callable
from typing import Any

import uvicorn
from websockets.asyncio.client import ClientConnection, connect

from engine.table import TableState, evolve, new_table
from services.runtime.infra import free_port
from services.store.port import EventStore
from services.tables.codec import decode_event

__all__ = ["Client", "identities", "running", "states_by_version"]

# A card identity: "7H#2", "10S#1", "JK#2" (faces alone name no particular copy).
_IDENTITY = re.compile(r"(?<![0-9A-Z])(?:10|[2-9AJQK])[SHDC]#[12]|JK#[12]")


def identities(text: str) -> set[str]:
    return set(_IDENTITY.findall(text))


@contextlib.asynccontextmanager
async def running(app: Any) -> AsyncIterator[str]:
    """Serve `app` with uvicorn on 127.0.0.1:<free port>; yields the base URL."""
    port = free_port()
    # The server keeps an idle connection longer than httpx's pool does (5 s): with equal
    # times a request can go out on a connection the server is closing (httpx.ReadError).
    config = uvicorn.Config(
        app,
        host="127.0.0.1",
        port=port,
        log_level="warning",
        lifespan="on",
        ws_max_size=1 << 20,
        timeout_keep_alive=60,
    )
    server = uvicorn.Server(config)
    task = asyncio.create_task(server.serve())
    try:
        async with asyncio.timeout(15):
            while not server.started:
                if task.done():
                    task.result()
                await asyncio.sleep(0.02)
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        await asyncio.wait_for(task, 15)


class Client:
    """One WebSocket: a reader task keeps every message (raw text and decoded)."""

    def __init__(self, ws: ClientConnection, seat: int | None) -> None:
        self.ws = ws
        self.seat = seat
        self.raw: list[str] = []
        self.messages: list[dict[str, Any]] = []
        self._changed = asyncio.Condition()
        self._reader = asyncio.create_task(self._read())
        self._ids = 0

    @classmethod
    async def open(
        cls, base: str, table_id: str, token: str | None = None, since: int | None = None
    ) -> Client:
        query = [f"token={token}"] if token else []
        if since is not None:
            query.append(f"since={since}")
        url = base.replace("http", "ws", 1) + f"/tables/{table_id}/ws"
        ws = await connect(url + ("?" + "&".join(query) if query else ""))
        seat = None
        client = cls(ws, seat)
        welcome = await client.wait_for(lambda m: m["type"] in ("welcome", "error"))
        client.seat = welcome.get("seat")
        return client

    async def _read(self) -> None:
        with contextlib.suppress(Exception):
            async for text in self.ws:
                assert isinstance(text, str)
                async with self._changed:
                    self.raw.append(text)
                    self.messages.append(json.loads(text))
                    self._changed.notify_all()
        async with self._changed:
            self._changed.notify_all()

    async def wait_for(
        self, match: Callable[[dict[str, Any]], bool], timeout: float = 15, start: int = 0
    ) -> dict[str, Any]:
        """The first message from index `start` on that matches, old ones included (all of
        them by default); `wait_for_view` for the table as it is now."""
        async with asyncio.timeout(timeout), self._changed:
            while True:
                for message in self.messages[start:]:
                    if match(message):
                        return message
                if self._reader.done():
                    raise AssertionError(f"socket closed; got {self.messages[-3:]}")
                await self._changed.wait()

    def newest_view(self) -> dict[str, Any] | None:
        """The last welcome or view received: the table as this socket was last shown it."""
        found: dict[str, Any]
        for found in reversed(self.messages):
            if found["type"] in ("welcome", "view"):
                return found
        return None

    async def wait_for_view(
        self, match: Callable[[dict[str, Any]], bool], timeout: float = 15
    ) -> dict[str, Any]:
        """The newest welcome or view, once it matches. Older ones are never looked at: a
        view the table has moved on from (a bot's turn, an earlier deal) would put a test's
        next command on a hand or a turn that is gone."""
        async with asyncio.timeout(timeout), self._changed:
            while True:
                newest = self.newest_view()
                if newest is not None and match(newest):
                    return newest
                if self._reader.done():
                    raise AssertionError(f"socket closed; got {self.messages[-3:]}")
                await self._changed.wait()

    async def round_trip(self) -> None:
        """Until the gateway has answered a message sent now, so that whatever it sent this
        socket before (a warning, say) has arrived: the answer is a refusal of a command
        that does not exist, which touches no table."""
        reply = await self.command({"type": "RoundTrip"})
        assert reply["type"] == "rejected" and reply["code"] == "unknown_command", reply

    async def send(self, command: dict[str, Any], command_id: str | None = None) -> str:
        self._ids += 1
        command_id = command_id or f"c{self._ids}"
        envelope = {"type": "command", "command_id": command_id, "command": command}
        await self.ws.send(json.dumps(envelope))
        return command_id

    async def reply(self, command_id: str, timeout: float = 15) -> dict[str, Any]:
        return await self.wait_for(
            lambda m: m["type"] in ("accepted", "rejected") and m.get("command_id") == command_id,
            timeout,
        )

    async def command(
        self, command: dict[str, Any], command_id: str | None = None
    ) -> dict[str, Any]:
        return await self.reply(await self.send(command, command_id))

    async def view_at(self, version: int, timeout: float = 15) -> dict[str, Any]:
        """The first welcome or view at `version` or later."""
        return await self.wait_for(
            lambda m: m["type"] in ("welcome", "view") and m["version"] >= version, timeout
        )

    async def close(self) -> None:
        await self.ws.close()
        with contextlib.suppress(Exception):
            await self._reader


async def states_by_version(store: EventStore, table_id: str) -> list[TableState]:
    """The table after each version (index 0: before the first event)."""
    states = [new_table(table_id)]
    for row in await store.read_stream(table_id):
        assert row.version == len(states)
        states.append(evolve(states[-1], decode_event(row)))
    return states
