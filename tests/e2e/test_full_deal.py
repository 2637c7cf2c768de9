"""Four players play a whole Banakil deal over WebSockets against the running gateway.

The deal is a golden example record with a stacked deck; the table is created with the
same options and that deck. The scores must be those of `engine.replay.run_record` on the
same record, and the events stored in PostgreSQL must fold to the replay's state. Over the
whole deal no socket may receive the identity of a card in another hand or in the stock.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import msgspec
import pytest

from engine import banakil
from engine.banakil.messages import DealScored, DeckStacked, SeedCommitted
from engine.replay import Record, decode_record, fold, record_options, run_record
from engine.table import TABLE_EVENTS, TableState
from services.tables.codec import decode_event
from tests.e2e.conftest import Gateway
from tests.e2e.gateway_support import Client, identities, states_by_version

_EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _record(name: str) -> Record:
    return decode_record((_EXAMPLES / f"{name}.json").read_bytes())


def _wire(message: Any) -> dict[str, Any]:
    """A command or event as JSON would carry it."""
    wired: dict[str, Any] = json.loads(msgspec.json.encode(message))
    return wired


async def _seated_table(gw: Gateway, record: Record) -> tuple[str, dict[int, str]]:
    """A table like the record's (options, players, the first deal's deck); every seat
    taken. Returns the table id and a token per seat."""
    deal = record.deals[0]
    overrides = dict(record.options)
    preset = overrides.pop("preset", None) or "sahrat"
    assert record.host == 1  # a table's host is its first human seat
    response = await gw.http.post(
        "/tables",
        json={
            "ruleset": preset,
            "options": overrides,
            "seats": ["human"] * len(record.seats),
            "player": record.seats[0],
            "deck": deal.deck,
            "dealer": deal.dealer,
            "cut": deal.cut,
        },
    )
    assert response.status_code == 201, response.text
    table_id = response.json()["table_id"]
    tokens = {1: response.json()["token"]}
    for seat, name in enumerate(record.seats[1:], start=2):
        joined = await gw.http.post(f"/tables/{table_id}/seats/{seat}", json={"player": name})
        assert joined.status_code == 201, joined.text
        tokens[seat] = joined.json()["token"]
    return table_id, tokens


async def _start(gw: Gateway, table_id: str, host_token: str) -> None:
    response = await gw.http.post(
        f"/tables/{table_id}/start", headers={"Authorization": f"Bearer {host_token}"}
    )
    assert response.status_code == 200, response.text


async def _play(clients: dict[int, Client], steps: Any) -> None:
    for step in steps:
        reply = await clients[step.seat].command(_wire(step.command))
        assert reply["type"] == "accepted", (step, reply)


async def _next_deal_dealt(gw: Gateway, table_id: str) -> int:
    """Once deal 1 is scored the system seeds and deals deal 2 by itself; wait for it."""
    async with asyncio.timeout(15):
        while True:
            states = await states_by_version(gw.store, table_id)
            game = states[-1].game_state
            if game is not None and game.deal == 2 and game.phase == "play":
                return len(states) - 1
            await asyncio.sleep(0.05)


async def _deal_one(gw: Gateway, table_id: str) -> tuple[list[Any], TableState]:
    """Deal 1's events as stored, and the table right after them. The table's own events
    (a socket that closed: its seat away) are not the deal's."""
    rows = await gw.store.read_stream(table_id)
    kept = [(r.version, e) for r in rows if not isinstance(e := decode_event(r), TABLE_EVENTS)]
    events = [e for _, e in kept]
    start = next(i for i, e in enumerate(events) if isinstance(e, SeedCommitted | DeckStacked))
    end = next(
        i for i, e in enumerate(events) if i > start and isinstance(e, SeedCommitted | DeckStacked)
    )
    states = await states_by_version(gw.store, table_id)
    return events[start:end], states[kept[end - 1][0]]


async def _assert_same_end_as_the_replay(gw: Gateway, table_id: str, record: Record) -> None:
    report = run_record(record)
    assert report.rejected == 0
    expected = next(e for e in report.events if isinstance(e, DealScored))
    events, state = await _deal_one(gw, table_id)
    scored = next(e for e in events if isinstance(e, DealScored))
    assert scored == expected
    replayed = fold(report.events, banakil.initial(record_options(record), record.host))
    assert state.game_state is not None
    assert msgspec.json.encode(state.game_state) == msgspec.json.encode(replayed)

    log = await gw.http.get(f"/tables/{table_id}/deals/1/events")
    assert log.status_code == 200, log.text
    assert [e["event"] for e in log.json()["events"]] == [_wire(e) for e in events]
    in_play = await gw.http.get(f"/tables/{table_id}/deals/2/events")
    assert in_play.status_code == 409 and in_play.json()["code"] == "deal_not_finished"


def _hidden_from(state: TableState, seat: int | None) -> set[str]:
    game = state.game_state
    if game is None:
        return set()
    # Once a deal has ended, its remaining hands are shown to every seat and spectator
    # until the next deal is dealt (PF-REVEAL-1): the other hands are hidden during play.
    revealed = {c for hand in game.hands for c in hand} if game.phase != "play" else set()
    others = {c for s, hand in enumerate(game.hands, start=1) if s != seat for c in hand}
    others -= revealed
    if game.phase == "seeded" and game.stacked:
        # A deck not dealt yet is hidden from everyone (the same identities as the cards
        # revealed from the deal before, which tell nothing of its order).
        others |= set(game.stacked) - revealed
    # The cut card is shown to everyone by the rules (PF-CUT-5): it stays public wherever
    # it goes (the bottom of the stock, then whoever draws it).
    return (others | set(game.stock)) - {game.cut_card}


async def _assert_nothing_leaked(gw: Gateway, table_id: str, clients: list[Client]) -> None:
    """No message a socket got names a card that was, at that version, in another hand or
    in the stock (a message without a version is judged at the last version it saw). An
    event may name a card that was public just before it (a ground card taken into a hand)
    or just after (a card melded from a hand)."""
    states = await states_by_version(gw.store, table_id)
    checked = 0
    for client in clients:
        version = 0
        for raw, message in zip(client.raw, client.messages, strict=True):
            if message["type"] == "missed":
                for item in message["events"]:
                    text, at = json.dumps(item["event"]), item["version"]
                    hidden = _hidden_from(states[at - 1], client.seat)
                    leaked = identities(text) & hidden & _hidden_from(states[at], client.seat)
                    assert not leaked, (client.seat, item)
                    checked += 1
                continue
            if message["type"] in ("welcome", "view"):
                version = message["version"]
                if client.seat is None:
                    assert message["view"]["hand"] is None
            leaked = identities(raw) & _hidden_from(states[version], client.seat)
            assert not leaked, (client.seat, message["type"], version, leaked)
            checked += 1
    assert checked > 100


@pytest.mark.parametrize("example", ["classic-stacked-deal", "sahrat-stacked-deal"])
async def test_four_players_play_a_stacked_deal_to_the_replays_scores_without_leaks(
    gateway: Gateway, example: str
) -> None:
    record = _record(example)
    table_id, tokens = await _seated_table(gateway, record)
    clients = {seat: await Client.open(gateway.base, table_id, t) for seat, t in tokens.items()}
    spectator = await Client.open(gateway.base, table_id)
    everyone = [*clients.values(), spectator]
    assert [c.seat for c in clients.values()] == [1, 2, 3, 4] and spectator.seat is None
    await _start(gateway, table_id, tokens[1])

    steps = record.deals[0].commands
    drop = len(steps) // 2
    while steps[drop].seat == 3:
        drop += 1
    back = drop
    while back < len(steps) and steps[back].seat != 3:
        back += 1
    await _play(clients, steps[:drop])

    # Seat 3 loses its connection while the others play, then comes back: it is told what
    # it missed, and goes on playing.
    dropped = clients[3]
    seen = max(m["version"] for m in dropped.messages if m["type"] in ("welcome", "view"))
    await dropped.close()
    await _play(clients, steps[drop:back])
    clients[3] = await Client.open(gateway.base, table_id, tokens[3], since=seen)
    welcome, missed = clients[3].messages[:2]
    assert welcome["type"] == "welcome" and missed["type"] == "missed"
    assert [e["version"] for e in missed["events"]] == list(range(seen + 1, welcome["version"] + 1))
    assert len(missed["events"]) >= back - drop
    everyone.append(clients[3])
    await _play(clients, steps[back:])

    final = await _next_deal_dealt(gateway, table_id)
    for client in [*clients.values(), spectator]:
        view = (await client.view_at(final))["view"]
        assert view["deal"] == 2 and view["last_scores"]["deal"] == 1
    await _assert_same_end_as_the_replay(gateway, table_id, record)
    await _assert_nothing_leaked(gateway, table_id, [*everyone, dropped])
    for client in [*clients.values(), spectator]:
        await client.close()


async def test_two_commands_at_once_for_one_seat_append_once(gateway: Gateway) -> None:
    record = _record("classic-stacked-deal")
    table_id, tokens = await _seated_table(gateway, record)
    clients = {seat: await Client.open(gateway.base, table_id, t) for seat, t in tokens.items()}
    twin = await Client.open(gateway.base, table_id, tokens[2])  # seat 2's second device
    await _start(gateway, table_id, tokens[1])
    steps = record.deals[0].commands
    draw, discard = steps[6], steps[7]
    assert (draw.seat, type(draw.command).__name__) == (2, "Draw")
    assert (discard.seat, type(discard.command).__name__) == (2, "Discard")
    await _play(clients, steps[:6])

    # Two different draws at once: one is appended, the other decided again and refused.
    before = await gateway.store.stream_version(table_id)
    replies = await asyncio.gather(
        clients[2].command(_wire(draw.command), "race-a"),
        twin.command(_wire(draw.command), "race-b"),
    )
    assert sorted(r["type"] for r in replies) == ["accepted", "rejected"]
    assert next(r for r in replies if r["type"] == "rejected")["code"] == "already_drawn"
    rows = await gateway.store.read_stream(table_id, before)
    assert [r.type for r in rows] == ["CardDrawn"]

    # The same command id twice at once: one outcome, appended once.
    before = await gateway.store.stream_version(table_id)
    replies = await asyncio.gather(
        clients[2].command(_wire(discard.command), "same-id"),
        twin.command(_wire(discard.command), "same-id"),
    )
    assert [r["type"] for r in replies] == ["accepted", "accepted"]
    assert replies[0]["version"] == replies[1]["version"] == before + 1
    assert sorted(r["duplicate"] for r in replies) == [False, True]
    rows = await gateway.store.read_stream(table_id, before)
    assert [r.type for r in rows] == ["CardDiscarded"]

    await _play(clients, steps[8:])
    await _next_deal_dealt(gateway, table_id)
    await _assert_same_end_as_the_replay(gateway, table_id, record)
    for client in [*clients.values(), twin]:
        await client.close()


async def test_bad_messages_are_refused_and_the_socket_stays_usable(gateway: Gateway) -> None:
    record = _record("sahrat-stacked-deal")
    table_id, tokens = await _seated_table(gateway, record)
    clients = {seat: await Client.open(gateway.base, table_id, t) for seat, t in tokens.items()}
    spectator = await Client.open(gateway.base, table_id)
    await _start(gateway, table_id, tokens[1])
    seat1 = clients[1]
    await seat1.wait_for(lambda m: m["type"] == "view" and m["view"]["phase"] == "play")
    before = await gateway.store.stream_version(table_id)

    async def refused(payload: str, code: str) -> None:
        start = len(seat1.messages)
        await seat1.ws.send(payload)
        reply = await seat1.wait_for(lambda m: m["type"] == "rejected", start=start)
        assert reply["code"] == code, reply
        assert reply["message"]

    await refused("{not json", "bad_json")
    await refused(json.dumps({"type": "hello"}), "bad_message")
    await refused(json.dumps({"type": "command", "command": {"type": "Draw"}}), "bad_message")
    envelope = {"type": "command", "command_id": "x1"}
    await refused(json.dumps({**envelope, "command": {"type": "Teleport"}}), "unknown_command")
    await refused(
        json.dumps({**envelope, "command": {"type": "Discard", "card": 7}}), "bad_command"
    )
    await refused(json.dumps({**envelope, "command": {"type": "Draw", "seat": 2}}), "bad_command")
    await refused(json.dumps({**envelope, "command": {"type": "Discard"}}), "bad_command")
    await refused(json.dumps({**envelope, "filler": "x" * 70_000}), "too_large")
    # legal-looking commands the rules refuse: the system's, another turn's, a card not held
    await refused(json.dumps({**envelope, "command": {"type": "Deal"}}), "system_only")
    await refused(json.dumps({**envelope, "command": {"type": "Draw"}}), "first_turn_no_draw")
    assert (await clients[2].command({"type": "Draw"}))["code"] == "not_your_turn"
    assert (await seat1.command({"type": "Discard", "card": "KH"}))["code"] == "card_not_in_hand"
    assert (await spectator.command({"type": "Draw"}))["code"] == "spectator"
    assert await gateway.store.stream_version(table_id) == before

    # ... and the same socket still plays.
    first = record.deals[0].commands[0]
    assert first.seat == 1
    assert (await seat1.command(_wire(first.command)))["type"] == "accepted"
    assert await gateway.store.stream_version(table_id) > before
    for client in [*clients.values(), spectator]:
        await client.close()
