"""Print the examples of docs/protocol.md, as the running gateway sends them.

    .venv/bin/python -m scripts.protocol_examples > /tmp/examples.md

The gateway runs in this process over the in-memory store and bus (uvicorn on a free port),
with stacked decks allowed: four players open a `sahrat` table on the deck of
`examples/sahrat-stacked-deal.json` and play that deal to its end over their WebSockets,
with a refused command, a repeated one and a reconnect with `since=` on the way. Every
message printed is one the gateway sent or accepted, byte for byte (only re-indented), each
under the `<!-- example: NAME -->` marker docs/protocol.md uses.
`tests/e2e/test_protocol_doc.py` decodes every example of the doc with the real decoders,
so the doc cannot drift from the code unnoticed; paste this script's output in when it does.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, cast

import httpx

from engine import protocol
from engine.banakil.messages import SeedCommitted, SeedRevealed, Timeout
from services.bus.memory import MemoryBus
from services.gateway.app import create_app
from services.gateway.messages import seat_event
from services.gateway.presence import Presence
from services.gateway.settings import Settings
from services.gateway.turn_warnings import TurnWarnings
from services.projections.deadlines import Deadline
from services.store.memory import MemoryEventStore
from services.tables.codec import encode_json
from services.tables.service import TableService
from tests.e2e.gateway_support import Client, running

_ROOT = Path(__file__).resolve().parent.parent
_DEAL = json.loads((_ROOT / "examples" / "sahrat-stacked-deal.json").read_text())
_NAMES = ("Hala", "Ilyas", "Jana", "Karim")
_SECRET = "8d1f0c5a" * 8  # an example secret (32 bytes, hex) for the reveal's events


def _short(value: Any, indent: str = "") -> str:
    """JSON with lists of plain values on one line, so a hand reads as a hand."""
    if isinstance(value, list) and all(not isinstance(v, dict | list) for v in value):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list):
        inner = ",\n".join(indent + "  " + _short(v, indent + "  ") for v in value)
        return "[\n" + inner + "\n" + indent + "]" if value else "[]"
    if isinstance(value, dict) and all(not isinstance(v, dict | list) for v in value.values()):
        flat = json.dumps(value, ensure_ascii=False)
        if len(flat) + len(indent) < 90:
            return flat
    if isinstance(value, dict):
        inner = ",\n".join(
            f"{indent}  {json.dumps(k)}: {_short(v, indent + '  ')}" for k, v in value.items()
        )
        return "{\n" + inner + "\n" + indent + "}" if value else "{}"
    return json.dumps(value, ensure_ascii=False)


def _show(name: str, message: dict[str, Any] | str) -> None:
    value = json.loads(message) if isinstance(message, str) else message
    print(f"<!-- example: {name} -->\n```json\n{_short(value)}\n```\n")


async def _play() -> None:
    settings = Settings(
        token_secret=b"protocol-examples-0123456789abcdef", allow_stacked_decks=True
    )
    app = create_app(MemoryEventStore(), MemoryBus(), settings)
    async with running(app) as base, httpx.AsyncClient(base_url=base) as http:
        deck = _DEAL["deals"][0]["deck"]
        body = {"ruleset": "sahrat", "player": _NAMES[0], "deck": deck}
        created = (await http.post("/tables", json=body)).json()
        table_id, tokens = created["table_id"], {1: created["token"]}
        for seat, name in enumerate(_NAMES[1:], start=2):
            joined = await http.post(f"/tables/{table_id}/seats/{seat}", json={"player": name})
            tokens[seat] = joined.json()["token"]
        refused = await http.post(f"/tables/{table_id}/start")
        _show("http-error", refused.json())
        started = await http.post(
            f"/tables/{table_id}/start", headers={"Authorization": f"Bearer {tokens[1]}"}
        )
        assert started.status_code == 200, started.text

        seats = {s: await Client.open(base, table_id, tokens[s]) for s in tokens}
        watcher = await Client.open(base, table_id)
        _show("welcome", seats[1].messages[0])

        commands = _DEAL["deals"][0]["commands"]
        first = commands[0]
        command_id = await seats[1].send(first["command"], "c-1")
        sent = {"type": "command", "command_id": command_id, "command": first["command"]}
        _show("command", sent)
        _show("accepted", await seats[1].reply(command_id))
        start = len(seats[1].messages)
        await seats[1].send(first["command"], "c-1")  # sent again, e.g. after a lost answer
        again = await seats[1].wait_for(lambda m: m["type"] == "accepted", start=start)
        _show("accepted-duplicate", again)
        out_of_turn = await seats[2].command({"type": "Draw"}, "c-7")
        _show("rejected", out_of_turn)
        _show("rejected-unknown", await seats[2].command({"type": "Pass"}, "c-8"))

        since = 0
        for step in commands[1:]:
            reply = await seats[step["seat"]].command(step["command"])
            assert reply["type"] == "accepted", reply
            if step["seat"] == 2 and step["command"]["type"] == "Draw":
                drawn = await seats[2].view_at(reply["version"])
                _show("view-after-draw", drawn)
            if step["seat"] == 4:  # then seat 1 draws and goes out
                since = reply["version"]
        end = await seats[1].wait_for(lambda m: m["type"] == "view" and m["view"]["last_scores"])
        _show("view-deal-end", end)

        back = await Client.open(base, table_id, tokens[3], since=since)
        missed = await back.wait_for(lambda m: m["type"] == "missed")
        _show("missed", missed)

        for client in [*seats.values(), watcher, back]:
            await client.close()
        bad = await Client.open(base, table_id, "not-a-token")
        _show("error", bad.messages[0])
        await bad.close()

        log = (await http.get(f"/tables/{table_id}/deals/1/events")).json()
        log["events"] = [log["events"][1], log["events"][-2]]  # the deal and its end
        _show("deal-events", log)

    # A deal with a secret: what a seat is sent when it is committed, and its reveal.
    commitment = hashlib.sha256(bytes.fromhex(_SECRET)).hexdigest()
    committed = SeedCommitted(
        deal=2, commitment=commitment, algorithm="sahra-fair-v1", secret=_SECRET
    )
    _show(
        "event-committed", encode_json(seat_event(committed, 1, protocol.get("banakil"))).decode()
    )
    _show("event-revealed", encode_json(SeedRevealed(deal=2, secret=_SECRET)).decode())
    _show("warning", await warning_message())


class _Sent:
    """A session that keeps what it is sent, as its socket would read it (JSON)."""

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []

    async def send(self, message: dict[str, Any]) -> None:
        self.sent.append(json.loads(encode_json(message)))  # as the hub encodes it


class _Seated:
    """The presence of one socket, at seat 2 of table "a055889f56e49f2d"."""

    def __init__(self, session: _Sent) -> None:
        self.session = session

    def sessions(self, table_id: str, seat: int) -> frozenset[_Sent]:
        return frozenset({self.session})

    def watch(self, watcher: object) -> None:
        pass


class _Service:
    def add_listener(self, listener: object) -> None:
        pass


async def warning_message() -> dict[str, Any]:
    """The "warning" the real `TurnWarnings` sends a seat 5 s before its turn ends."""
    now = datetime(2026, 12, 1, 14, 24, 0, 250000, tzinfo=UTC)
    session = _Sent()
    warnings = TurnWarnings(
        cast(TableService, _Service()),
        cast(MemoryEventStore, None),
        cast(Presence, _Seated(session)),
        lambda: now,
    )
    deadline = Deadline(
        table_id="a055889f56e49f2d",
        kind="turn",
        at=now + timedelta(seconds=4.75),
        seat=2,
        command=Timeout(deal=1, turn=6),
        command_id="timeout:1:6",
        deal=1,
        turn=6,
    )
    await warnings._warn(deadline, now)
    return session.sent[0]


if __name__ == "__main__":
    asyncio.run(_play())
