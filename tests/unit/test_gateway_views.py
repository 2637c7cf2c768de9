"""The gateway's view pushes: a seat's view built from the shared spectator view is the
engine's own view, the messages are byte for byte what the protocol says, and a session
shows the newest version it was offered, in order, after its welcome."""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import msgspec
import pytest

from engine import banakil, protocol
from engine.replay import decode_record, record_options, run_record
from engine.table import SeatInfo, TableState, new_table
from services.gateway.hub import Frame, Session, table_view
from services.gateway.messages import SharedView, view_message, welcome_message
from services.tables.codec import encode_json
from services.tables.service import Loaded
from services.tables.turns import Wait
from tests.unit.bunco_support import playing

_EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _states(name: str) -> list[banakil.State]:
    record = decode_record((_EXAMPLES / f"{name}.json").read_bytes())
    state = banakil.initial(record_options(record), record.host)
    states = [state]
    for event in run_record(record).events:
        state = banakil.evolve(state, event)
        states.append(state)
    return states


def _loaded(version: int, game: banakil.State | None) -> Loaded:
    seats = tuple(SeatInfo(kind="human", player=f"p{i}") for i in (1, 2, 3, 4))
    state = TableState(table_id="t1", status="playing", seats=seats, game_state=game)
    return Loaded(version=version, state=state)


@pytest.mark.parametrize("example", ["classic-stacked-deal", "sahrat-stacked-deal"])
def test_a_frames_view_of_each_seat_is_the_engines_view(example: str) -> None:
    for version, game in enumerate(_states(example), start=1):
        frame = Frame(_loaded(version, game))
        assert frame.view(None).hand is None
        for seat in (None, 1, 2, 3, 4):
            assert frame.view(seat) == banakil.view(game, seat), seat


def test_a_seat_view_that_differs_from_the_spectators_beyond_its_own_part_is_encoded_whole() -> (
    None
):
    states = _states("sahrat-stacked-deal")
    game = states[len(states) // 2]
    loaded = _loaded(9, game)
    public = banakil.view(game, None)
    other = msgspec.structs.replace(banakil.view(game, 2), stock_size=public.stock_size + 1)
    spliced = SharedView(loaded, public).message(other)
    assert spliced == view_message(loaded, other)
    assert msgspec.json.decode(spliced)["view"]["stock_size"] == public.stock_size + 1


def test_the_messages_are_the_protocols_bytes() -> None:
    states = _states("sahrat-stacked-deal")
    game = states[len(states) * 3 // 4]
    for loaded in (_loaded(41, game), Loaded(version=1, state=new_table("t2"))):
        frame = Frame(loaded)
        for seat in (None, 1, 3):
            old_view = encode_json({"type": "view", **table_view(loaded, seat)})
            assert frame.message(seat) == old_view
            assert view_message(loaded, frame.view(seat)) == old_view
            old_welcome = encode_json({"type": "welcome", "seat": seat, **table_view(loaded, seat)})
            assert welcome_message(loaded, seat, frame.view(seat)) == old_welcome


@pytest.mark.parametrize("example", ["classic-stacked-deal", "sahrat-stacked-deal"])
def test_each_seats_message_spliced_from_the_shared_one_is_its_own_encoding(
    example: str,
) -> None:
    # Player names that look like the keys the splice looks for change nothing.
    names = ('"view":{"seat":null', ',"hand":null', '"legal":{"commands":[]}}}', "p4")
    seats = tuple(SeatInfo(kind="human", player=name) for name in names)
    for version, game in enumerate(_states(example), start=1):
        loaded = Loaded(
            version=version,
            state=TableState(table_id="t1", status="playing", seats=seats, game_state=game),
        )
        frame = Frame(loaded)
        for seat in (None, 1, 2, 3, 4):
            expected = encode_json({"type": "view", **table_view(loaded, seat)})
            assert frame.message(seat) == expected, (version, seat)


def test_a_seat_awaited_beside_the_first_is_shown_its_own_countdown_pf_timer_8() -> None:
    """PF-TIMER-7/8: at a Bunco evening of 12 each play table's roller has his own wait.
    Every message lists them all; an awaited roller's `deadline` is his own wait's, every
    other seat's and the spectator's the first's (the head table's), byte for byte what
    the table's view gives, each seat's message encoded once a version."""
    bunco = playing(12)
    running = protocol.get("bunco").running(bunco)
    assert len(running) == 3
    start = datetime(2026, 12, 1, 20, 14, tzinfo=UTC)
    waits = tuple(  # the head table rolled last: its wait ends last
        Wait(seat=t.seat, stage=t.kind, deadline=start + timedelta(seconds=10 - i))
        for i, t in enumerate(running)
    )
    seats = tuple(SeatInfo(kind="human", player=f"p{i}") for i in range(1, 13))
    state = TableState(table_id="t1", status="playing", game="bunco", seats=seats, game_state=bunco)
    loaded = Loaded(version=30, state=state, deadline=waits[0].deadline, waits=waits)
    frame = Frame(loaded)
    own = {w.seat: w.deadline for w in waits}
    for seat in (None, *range(1, 13)):
        message = frame.message(seat)
        assert message is frame.message(seat)  # once, however many sockets show it
        assert message == encode_json({"type": "view", **table_view(loaded, seat)})
        decoded = msgspec.json.decode(message)
        expected = own.get(seat, waits[0].deadline) if seat is not None else waits[0].deadline
        assert datetime.fromisoformat(decoded["deadline"]) == expected, seat
        assert decoded["deadlines"] == json.loads(encode_json(waits))
        welcome = msgspec.json.decode(welcome_message(loaded, seat, frame.view(seat)))
        assert welcome["deadline"] == decoded["deadline"]
        assert welcome["deadlines"] == decoded["deadlines"]


class _Socket:
    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []
        self.gate = asyncio.Event()
        self.gate.set()

    async def send(self, data: bytes) -> None:
        await self.gate.wait()
        self.sent.append(json.loads(data))


async def test_a_session_shows_the_newest_offer_in_order_after_its_welcome() -> None:
    states = _states("classic-stacked-deal")
    socket = _Socket()
    session = Session("t1", 2, socket.send)
    session.offer(Frame(_loaded(3, states[3])))  # before the welcome: held back
    await asyncio.sleep(0)
    assert socket.sent == []

    await session.greet(_loaded(2, states[2]), [{"type": "missed", "events": []}])
    assert [m["type"] for m in socket.sent] == ["welcome", "missed"]
    async with asyncio.timeout(5):
        while len(socket.sent) < 3:
            await asyncio.sleep(0)
    assert socket.sent[2]["type"] == "view" and socket.sent[2]["version"] == 3

    # A slow socket: what was offered meanwhile is shown once, as of the newest.
    socket.gate.clear()
    session.offer(Frame(_loaded(4, states[4])))
    await asyncio.sleep(0)
    for version in (5, 6, 7):
        session.offer(Frame(_loaded(version, states[version])))
    session.offer(Frame(_loaded(6, states[6])))  # older than one already offered: ignored
    socket.gate.set()
    async with asyncio.timeout(5):
        while socket.sent[-1]["version"] < 7:
            await asyncio.sleep(0)
    assert [m["version"] for m in socket.sent[2:]] == [3, 4, 7]
    assert socket.sent[-1]["view"] == json.loads(encode_json(banakil.view(states[7], 2)))

    # A reply goes out between pushes, never inside one.
    await session.send({"type": "accepted", "command_id": "c1"})
    assert socket.sent[-1]["type"] == "accepted"
    session.offer(Frame(_loaded(7, states[7])))  # already shown
    await asyncio.sleep(0.01)
    assert socket.sent[-1]["type"] == "accepted"
    session.stop()
    session.offer(Frame(_loaded(8, states[8])))
    await asyncio.sleep(0.01)
    assert socket.sent[-1]["type"] == "accepted"
