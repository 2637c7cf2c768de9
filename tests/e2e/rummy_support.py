"""A rummy table played through the running services, for the rummy end-to-end tests.

One gateway (HTTP and WebSocket) over a PostgreSQL database of the module's own and real
NATS; a bots worker for the test's tables, as `sahra serve bots` runs one; a WebSocket
client that plays its seat from the views it is sent — cheaply, so that the bots' search
is the only thinking a game waits for: it lays a new run or set from its hand when it
holds one (RM-MOVE-1), else draws, passes on an empty stock or gives up as its legal
commands allow, and after a refusal sends the game's plain command (`engine.players`,
`bot_fallback`) — and a check that no frame a socket was sent holds a card it may not know.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import re
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import Any

import httpx
import msgspec

from engine import players, protocol
from engine.table import TableState
from services.bots.worker import BotsWorker
from services.bus.nats import NatsBus
from services.gateway.app import create_app
from services.gateway.settings import Settings
from services.gateway.wiring import Gateway
from services.projections.in_play import TablesInPlay
from services.store.postgres import PostgresEventStore
from services.tables.service import TableService
from tests.e2e.gateway_support import Client, running, states_by_version
from tests.service_support import scratch_database

__all__ = [
    "VARIANTS",
    "Played",
    "Served",
    "bots_running",
    "cards_in",
    "leaks",
    "new_group",
    "play_seat",
    "secret",
    "served_gateway",
]

VARIANTS = (
    "manipulation",
    "machiavelli",
    "shanghai",
    "guadeloupe",
    "carousel",
    "vatican",
    "tahiti",
)
# A card identity of any rummy deck: two 52-card decks, jokers JK#1..JK#4 (Tahiti).
_CARD = re.compile(r"(?<![0-9A-Z])(?:10|[2-9AJQK])[SHDC]#[12]|JK#[1-4]")
_GAME = "rummy"

# Each variant's rounds are dealt from a secret chosen for a short game (every round of a
# game from the same one): the bot's search takes from milliseconds to many seconds a
# move depending on the hands, and a test of the services should not wait on its worst.
_SECRET_OF = {
    "manipulation": 4,
    "machiavelli": 9,
    "shanghai": 5,
    "guadeloupe": 4,
    "carousel": 3,
    "vatican": 4,
    "tahiti": 2,
}


def secret(variant: str) -> str:
    return hashlib.sha256(f"rummy-e2e:{variant}:{_SECRET_OF[variant]}".encode()).hexdigest()


def cards_in(value: Any) -> set[str]:
    """Every card identity written anywhere in a JSON value (or text)."""
    text = value if isinstance(value, str) else msgspec.json.encode(value).decode()
    return set(_CARD.findall(text))


@dataclass
class Served:
    base: str
    http: httpx.AsyncClient
    store: PostgresEventStore
    bus: NatsBus
    url: str  # the module's own database
    service: TableService  # the gateway's own table service
    gateway: Gateway  # the gateway's parts (its turn warnings, its hub)

    def fix_secrets(self, secret: str) -> None:
        """Every round committed from now on, by the gateway or a bots worker of
        `bots_running`, has this secret (hex): a game the test has chosen, replayed."""
        self.service.secrets_source = lambda: bytes.fromhex(secret)


@contextlib.asynccontextmanager
async def served_gateway(database_url: str, nats_url: str, prefix: str) -> AsyncIterator[Served]:
    """A gateway over a database of its own (dropped after), so that a clock or an audit
    sees only the tables of the module."""
    async with scratch_database(database_url, prefix) as url:
        store = await PostgresEventStore.connect(url)
        bus = await NatsBus.connect(nats_url)
        app = create_app(store, bus, Settings(token_secret=b"rummy-e2e-secret-0123456789ab"))
        gateway = app.state.gateway
        try:
            async with (
                running(app) as base,
                httpx.AsyncClient(base_url=base, timeout=15) as http,
            ):
                yield Served(
                    base=base,
                    http=http,
                    store=store,
                    bus=bus,
                    url=url,
                    service=gateway.service,
                    gateway=gateway,
                )
        finally:
            await bus.close()
            await store.close()


@contextlib.asynccontextmanager
async def bots_running(served: Served, tables: set[str]) -> AsyncIterator[BotsWorker]:
    """A bots worker for `tables` (as `sahra serve bots` runs one), until the block ends;
    the rounds it commits take their secret where the gateway's do."""
    service = TableService(served.store, served.bus, served.service.secrets_source)
    worker = BotsWorker(TablesInPlay(served.store, accept=tables.__contains__), service)
    done = asyncio.Event()
    task = asyncio.create_task(worker.run(done, interval=0.02))
    try:
        yield worker
    finally:
        done.set()
        await task
        await service.deadlines.close()
        await service.close()


@dataclass
class Played:
    """What one seat's socket did at a table: its commands and the refusals it got."""

    table_id: str
    variant: str
    sent: list[dict[str, Any]] = field(default_factory=list)
    refused: list[dict[str, Any]] = field(default_factory=list)
    stopped: bool = False


def _my_turn(message: dict[str, Any]) -> bool:
    view = message["view"]
    return (
        view is not None
        and view["phase"] == "play"
        and view["turn"] == view["seat"]
        and bool(view["legal"]["commands"])
    )


async def play_seat(
    client: Client,
    played: Played,
    *,
    stop_after: Callable[[dict[str, Any]], bool] | None = None,
    timeout: float = 60,
) -> dict[str, Any]:
    """Play the client's seat until the table is finished; the last view. `stop_after(view)`:
    the host sends StopGame once it holds (Shanghai, RM-AMB-22). Each command is decided on
    the newest view the socket was shown, and the next one only on a view after the one it
    answered."""
    plain = players.get(_GAME)
    acted = -1
    async with asyncio.timeout(timeout):
        while True:
            message = await client.wait_for_view(_due(acted, stop_after))
            if message["status"] == "finished":
                return message
            acted = message["version"]
            if _stop_now(message, stop_after) and not played.stopped:
                reply = await client.command({"type": "StopGame"})
                assert reply["type"] == "accepted", reply
                played.stopped = True
                continue
            view: Any = msgspec.convert(message["view"], plain.client_view)
            laid = new_group(message["view"])
            tries = [] if laid is None else [laid]
            tries.append(msgspec.to_builtins(plain.bot_fallback(view)))
            for body in tries:
                reply = await client.command(body)
                played.sent.append(body)
                if reply["type"] == "accepted":
                    break
                played.refused.append(reply)
            else:
                raise AssertionError(f"even the plain command was refused: {played.refused[-1]}")


def new_group(view: dict[str, Any]) -> dict[str, Any] | None:
    """A Play laying a new run (three in sequence, 2 to K, one suit) or set (three of a
    rank, three suits) from the hand onto the table, when the seat may play and holds one;
    a run first (Vatican's first play must be one, RM-VAT-5). No ace and no joker, so that
    it is a group in every variant (RM-ACE-1..4, RM-JOKER-1)."""
    if "Play" not in view["legal"]["commands"] or not view["hand"]:
        return None
    by_face: dict[str, str] = {}
    for card in view["hand"]:
        by_face.setdefault(card.split("#")[0], card)
    for suit in "CDHS":
        for low in range(len(_RANKS) - 2):
            faces = [f"{rank}{suit}" for rank in _RANKS[low : low + 3]]
            if all(face in by_face for face in faces):
                return _laid(view, [by_face[face] for face in faces])
    for rank in _RANKS:
        same = [by_face[f"{rank}{suit}"] for suit in "CDHS" if f"{rank}{suit}" in by_face]
        if len(same) >= 3:
            return _laid(view, same[:3])
    return None


def _laid(view: dict[str, Any], group: list[str]) -> dict[str, Any]:
    return {"type": "Play", "table": [*view["table"], group], "added": group, "names": {}}


_RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")


def _due(
    acted: int, stop_after: Callable[[dict[str, Any]], bool] | None
) -> Callable[[dict[str, Any]], bool]:
    """A view to act on: the table finished, or, after the version last acted on, the
    seat's turn or the moment to stop the game."""

    def due(message: dict[str, Any]) -> bool:
        if message["status"] == "finished":
            return True
        return message["version"] > acted and (_my_turn(message) or _stop_now(message, stop_after))

    return due


def _stop_now(message: dict[str, Any], stop_after: Callable[[dict[str, Any]], bool] | None) -> bool:
    view = message["view"]
    return stop_after is not None and view is not None and stop_after(view)


async def leaks(client: Client, states: list[TableState]) -> list[str]:
    """Every card the socket was shown that it may not know: in each welcome or view, a card
    that is neither on the table then nor in the socket's own hand then (the last round's
    end, `result`, shows every hand once the round is over: left out); in a "missed"
    message, another seat's dealt or drawn card, or the stock. (A refusal may name the
    seat's own cards, from its own command.) Empty: nothing leaked."""
    found: list[str] = []
    for text, message in zip(client.raw, client.messages, strict=True):
        kind = message["type"]
        if kind in ("welcome", "view") and message["view"] is not None:
            game = states[message["version"]].game_state
            assert game is not None
            view = dict(message["view"])
            view.pop("result", None)
            allowed = {c for group in game.table for c in group}
            if client.seat is not None and game.hands:
                allowed |= set(game.hands[client.seat - 1])
            extra = cards_in(view) - allowed
            if extra:
                found.append(f"{kind} at {message['version']}: {sorted(extra)}")
        elif kind == "missed":
            for entry in message["events"]:
                found.extend(_missed_leaks(entry, client.seat))
        elif kind in ("accepted", "warning", "error") and cards_in(text):
            found.append(f"{kind}: {sorted(cards_in(text))}")  # none carries a card
    return found


def _missed_leaks(entry: dict[str, Any], seat: int | None) -> list[str]:
    event, at = entry["event"], entry["version"]
    match event["type"]:
        case "RoundDealt":
            others = [h for i, h in enumerate(event["hands"], 1) if i != seat]
            hidden = cards_in(others) | cards_in(event["stock"])
        case "CardsDrawn" | "PlayReminded" if event["seat"] != seat:
            hidden = cards_in(event)
        case "SeedCommitted":
            return [f"SeedCommitted at {at}: its secret"] if event["secret"] else []
        case _:
            hidden = set()
    return [f"{event['type']} at {at}: {sorted(hidden)}"] if hidden else []


async def final_states(served: Served, table_id: str) -> list[TableState]:
    return await states_by_version(served.store, table_id)


def game() -> protocol.Game:
    return protocol.get(_GAME)
