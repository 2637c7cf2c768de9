"""A rummy table's life through the running gateway: made with its variant and options
(PF-ROOM-2, PF-ROOM-5, RM-CORE-1, RM-CORE-3, RM-OPT-1..3, PF-TIMER-7) or refused with the
engine's rule and nothing appended, seated and watched, timed out by the clock
(PF-TIMER-8: the variant's draw made for the seat, the turn ended), reconnected with
`since=` (the events missed, each as the seat may know it), and against the computer
(PF-MODE-1). Over the module's own PostgreSQL database and real NATS."""

from __future__ import annotations

import hashlib
from collections.abc import AsyncIterator
from datetime import datetime, timedelta
from typing import Any

import asyncpg
import pytest

from services.projections.deadlines import utc_now
from tests.e2e.gateway_support import Client, states_by_version
from tests.e2e.rummy_support import Served, bots_running, leaks, served_gateway
from tests.service_support import Adapters, Rig, batch_time


@pytest.fixture(scope="module")
async def served(database_url: str, nats_url: str) -> AsyncIterator[Served]:
    async with served_gateway(database_url, nats_url, "rummy_tables") as it:
        yield it


async def _events_stored(served: Served) -> int:
    conn = await asyncpg.connect(served.url)
    try:
        count: int = await conn.fetchval("SELECT count(*) FROM events")
        return count
    finally:
        await conn.close()


async def test_a_rummy_table_is_made_for_two_to_five_seats_with_its_variant(
    served: Served,
) -> None:
    """RM-CORE-1, RM-CORE-3, PF-ROOM-2, PF-ROOM-5: `variant` (or `ruleset`, the same
    field) names the variant; a table has the 2 to 5 seats its options ask for."""
    http = served.http
    for seats in (2, 3, 4, 5):
        created = await http.post(
            "/tables", json={"game": "rummy", "variant": "carousel", "options": {"seats": seats}}
        )
        assert created.status_code == 201, created.text
        table = (await http.get(f"/tables/{created.json()['table_id']}")).json()
        assert table["status"] == "open" and len(table["seats"]) == seats
        assert table["view"]["variant"] == "carousel" and table["view"]["phase"] == "seeding"
    both = await http.post(
        "/tables", json={"game": "rummy", "ruleset": "tahiti", "variant": "tahiti"}
    )
    assert both.status_code == 201, both.text
    table = (await http.get(f"/tables/{both.json()['table_id']}")).json()
    assert table["view"]["variant"] == "tahiti" and len(table["seats"]) == 4  # the default
    plain = await http.post("/tables", json={"game": "rummy"})
    assert (await http.get(f"/tables/{plain.json()['table_id']}")).json()["view"][
        "variant"
    ] == "manipulation"  # RM-CORE-3: the default variant


@pytest.mark.parametrize(
    ("body", "status", "code", "rule_id"),
    [
        ({"variant": "carousel", "ruleset": "tahiti"}, 400, "bad_request", ""),
        ({"variant": "gin"}, 400, "bad_request", ""),
        ({"variant": "vatican", "options": {"seats": 6}}, 422, "bad_option", "RM-CORE-1"),
        ({"variant": "vatican", "options": {"seats": 1}}, 422, "bad_option", "RM-CORE-1"),
        ({"options": {"turn_seconds": 59}}, 422, "bad_option", "PF-TIMER-7"),
        (
            {"variant": "machiavelli", "options": {"compulsory_play": "trust_player"}},
            422,
            "bad_option",
            "RM-OPT-1",
        ),
        ({"variant": "shanghai", "options": {"play_to": 300}}, 422, "bad_option", "RM-OPT-2"),
        (
            {"variant": "carousel", "options": {"incomplete_move": "revert_draw_3"}},
            422,
            "bad_option",
            "RM-OPT-3",
        ),
        ({"options": {"play_to": 250}}, 422, "bad_option", "PF-ROOM-2"),
        ({"options": {"colour": "red"}}, 422, "bad_option", "PF-ROOM-2"),
    ],
)
async def test_a_request_the_rules_refuse_is_answered_with_the_rule_and_appends_nothing(
    served: Served, body: dict[str, Any], status: int, code: str, rule_id: str
) -> None:
    """PF-ROOM-2, RM-CORE-1, RM-OPT-1, RM-OPT-2, RM-OPT-3, PF-TIMER-7: options that cannot
    work are the engine's `bad_option` naming its rule; two different presets or a variant
    that does not exist is a malformed request; neither leaves anything in the store."""
    before = await _events_stored(served)
    for path in ("/tables", "/play-vs-computer"):
        extra = {"player": "Salma"} if path == "/play-vs-computer" else {}
        answer = await served.http.post(path, json={"game": "rummy", **body, **extra})
        assert answer.status_code == status, answer.text
        assert (answer.json()["code"], answer.json()["rule_id"]) == (code, rule_id)
    assert await _events_stored(served) == before


async def test_a_player_against_the_computer_gets_a_bot_in_every_other_seat(
    served: Served,
) -> None:
    """PF-MODE-1, PF-BOT-1, PF-FREE-2: one call makes and starts a rummy table of the
    variant with the player in seat 1 and bots in the others; a table whose options keep
    bots out cannot be played against the computer."""
    made = await served.http.post(
        "/play-vs-computer",
        json={"game": "rummy", "variant": "tahiti", "options": {"seats": 5}, "player": "Hala"},
    )
    assert made.status_code == 201, made.text
    table = (await served.http.get(f"/tables/{made.json()['table_id']}")).json()
    assert table["status"] == "playing"
    assert [s["kind"] for s in table["seats"]] == ["human"] + ["bot"] * 4
    assert table["view"]["variant"] == "tahiti" and table["view"]["phase"] == "play"
    assert len(table["view"]["table"]) == 4  # RM-TAH-2: the singletons, face up
    refused = await served.http.post(
        "/play-vs-computer",
        json={"game": "rummy", "options": {"bots_allowed": False}, "player": "Hala"},
    )
    assert (refused.status_code, refused.json()["code"]) == (422, "no_bots")


# The draw a timeout makes (PF-TIMER-8), by variant: cards drawn, and whether it ends the
# turn (it always does; in Manipulation a draw alone would not).
_TIMEOUT_DRAW = {"guadeloupe": 2, "manipulation": 1, "carousel": 3, "vatican": 1}


@pytest.mark.parametrize("variant", sorted(_TIMEOUT_DRAW))
async def test_the_clock_times_a_rummy_turn_out_with_the_variants_draw(
    served: Served, variant: str
) -> None:
    """PF-TIMER-7, PF-TIMER-8, RM-AMB-26, RM-GUA-3, RM-CAR-9, RM-MAN-4: nobody acts on a
    turn of the table's `turn_seconds`; the views carry the deadline the clock uses; the
    clock (its own process's loop over the tables in play) does nothing a moment before it
    and then makes the variant's draw for the seat (Guadeloupe 2 cards, Carousel the
    turn's 3, else 1), which ends the turn even in Manipulation; the spectator sees how many
    cards were drawn, never which."""
    table_id, tokens = await _two_players(served, variant, turn_seconds=60)
    rig = Rig(Adapters(served.store, served.bus))
    rig.tables.add(table_id)
    spectator = await Client.open(served.base, table_id)
    try:
        first = await spectator.wait_for_view(_playing(turn_no=1))
        mover = first["view"]["turn"]
        began = await batch_time(served.store, table_id, "RoundDealt")
        assert datetime.fromisoformat(first["deadline"]) == began + timedelta(seconds=60)
        clock = rig.clock()
        rig.time.at(began, 59.999)
        assert await clock.tick() == []
        rig.time.at(began, 60)
        fired = await clock.tick()
        assert [(f.deadline.command_id, f.accepted) for f in fired] == [("timeout:1:1", True)]
        after = await spectator.wait_for_view(_playing(turn_no=2))
        assert after["view"]["turn"] == mover % 2 + 1
        counts = first["view"]["hand_counts"]
        drawn = _TIMEOUT_DRAW[variant]
        assert after["view"]["hand_counts"][mover - 1] == counts[mover - 1] + drawn
        assert after["view"]["stock_count"] == first["view"]["stock_count"] - drawn
        # The next turn counts from the batch that ended this one.
        ended = await batch_time(served.store, table_id, "TurnEnded")
        assert datetime.fromisoformat(after["deadline"]) == ended + timedelta(seconds=60)
        rows = [r for r in await served.store.read_stream(table_id) if r.type == "CardsDrawn"]
        assert [r.metadata.seat for r in rows] == [0]  # the system drew for the seat
        states = await states_by_version(served.store, table_id)
        assert await leaks(spectator, states) == []
    finally:
        await spectator.close()
        await rig.close()
    assert tokens


async def test_the_seat_on_turn_is_warned_in_the_last_five_seconds_of_its_turn(
    served: Served,
) -> None:
    """PF-TIMER-2, PF-TIMER-7: the gateway warns the seat whose rummy turn it is once, in
    the last 5 seconds before the deadline its views carry (counted from the batch that
    began the turn, as the clock counts it), naming the round and the turn."""
    table_id, tokens = await _two_players(served, "vatican")
    sockets = {seat: await Client.open(served.base, table_id, tokens[seat]) for seat in (1, 2)}
    warnings = served.gateway.warnings
    try:
        first = await sockets[1].wait_for_view(_playing(turn_no=1))
        mover = first["view"]["turn"]
        deadline = datetime.fromisoformat(first["deadline"])
        began = await batch_time(served.store, table_id, "RoundDealt")
        assert deadline == began + timedelta(seconds=60)
        client = sockets[mover]
        await client.round_trip()
        try:
            warnings.now = lambda: deadline - timedelta(seconds=5.1)
            assert await warnings.tick() == 0
            warnings.now = lambda: deadline - timedelta(seconds=4.9)
            await warnings.tick()
            warning = await client.wait_for(lambda m: m["type"] == "warning")
        finally:
            warnings.now = utc_now
        assert (warning["seat"], warning["deal"], warning["turn"]) == (mover, 1, 1)
        assert warning["stage"] == "turn"
        assert datetime.fromisoformat(warning["deadline"]) == deadline
        await sockets[mover % 2 + 1].round_trip()
        assert not [m for m in sockets[mover % 2 + 1].messages if m["type"] == "warning"]
    finally:
        for socket in sockets.values():
            await socket.close()


async def test_a_seat_back_with_since_is_sent_what_it_missed_as_it_may_know_it(
    served: Served,
) -> None:
    """PF-CONN-2, RM-CORE-5, PF-FAIR-2: a seat's socket closes; the other seat and the clock
    play on; the seat comes back with `since=<the version it last saw>`: its welcome is the
    table as it is now, then "missed" holds every event after that version, the other
    seat's drawn cards as "??" and its own in clear, the round's secret blank; it plays on
    over the new socket."""
    table_id, tokens = await _two_players(served, "machiavelli", turn_seconds=60)
    rig = Rig(Adapters(served.store, served.bus))
    rig.tables.add(table_id)
    sockets = {seat: await Client.open(served.base, table_id, tokens[seat]) for seat in (1, 2)}
    back = None
    try:
        seen = await sockets[1].wait_for_view(_playing(turn_no=1))
        mover = seen["view"]["turn"]
        other = mover % 2 + 1
        away_since = (await sockets[other].wait_for_view(_playing(turn_no=1)))["version"]
        await sockets[other].close()
        # The mover draws (ends his turn, RM-MAC-3); the clock then draws for the away seat.
        reply = await sockets[mover].command({"type": "Draw"})
        assert reply["type"] == "accepted", reply
        await sockets[mover].wait_for_view(_playing(turn_no=2))
        began = await batch_time(served.store, table_id, "TurnEnded")
        rig.time.at(began, 60)
        fired = await rig.clock().tick()
        assert [f.accepted for f in fired] == [True]
        now = (await sockets[mover].wait_for_view(_playing(turn_no=3)))["version"]

        back = await Client.open(served.base, table_id, tokens[other], since=away_since)
        welcome = back.messages[0]
        assert welcome["type"] == "welcome" and welcome["seat"] == other
        assert welcome["version"] >= now and welcome["view"]["turn"] == mover
        missed = await back.wait_for(lambda m: m["type"] == "missed")
        assert missed["since"] == away_since
        events = [e["event"] for e in missed["events"]]
        drawn = [e for e in events if e["type"] == "CardsDrawn"]
        assert [(e["seat"], e["why"]) for e in drawn] == [(mover, "draw"), (other, "timeout")]
        assert drawn[0]["cards"] == ["??"]  # another seat's card
        assert drawn[1]["cards"] != ["??"] and drawn[1]["cards"][0] in welcome["view"]["hand"]
        states = await states_by_version(served.store, table_id)
        assert await leaks(back, states) == []
        assert await leaks(sockets[mover], states) == []
        # Back in play on the new socket: the mover's turn is over once he draws again.
        reply = await sockets[mover].command({"type": "Draw"})
        assert reply["type"] == "accepted", reply
        await back.wait_for_view(lambda m: m["view"]["turn"] == other)
        reply = await back.command({"type": "Draw"})
        assert reply["type"] == "accepted", reply
    finally:
        for socket in (*sockets.values(), back):
            if socket is not None:
                await socket.close()
        await rig.close()


async def test_a_player_who_leaves_is_replaced_by_the_bot_which_plays_his_hand(
    served: Served,
) -> None:
    """PF-CONN-4, PF-BOT-2, PF-BOT-4, PF-FREE-2: at a rummy table (always free) a player
    who leaves is replaced by a bot at once; the bots worker plays the seat's turns with
    the game's bot, from the seat's own hand, through the same write path."""
    table_id, tokens = await _two_players(served, "tahiti")
    socket = await Client.open(served.base, table_id, tokens[1])
    try:
        first = await socket.wait_for_view(_playing(turn_no=1))
        hand_before = first["view"]["hand_counts"][1]
        left = await served.http.post(
            f"/tables/{table_id}/leave", headers={"Authorization": f"Bearer {tokens[2]}"}
        )
        assert left.status_code == 200, left.text
        assert left.json()["presence"] == "bot"
        if first["view"]["turn"] == 1:  # seat 1 draws, which ends his turn (RM-TAH-4)
            assert (await socket.command({"type": "Draw"}))["type"] == "accepted"
        async with bots_running(served, {table_id}) as bots:
            try:
                after = await socket.wait_for_view(
                    lambda m: m["view"]["turn"] == 1 and m["view"]["turn_no"] >= 2, timeout=30
                )
            except TimeoutError:  # say where it stopped: the store, the worker, the socket
                rows = await served.store.read_stream(table_id)
                stored = [(r.version, r.type, r.metadata.seat) for r in rows[-6:]]
                shown = [m.get("type") for m in socket.messages[-6:]]
                raise AssertionError(
                    f"no view of the bot's move: stored {stored}, bot moves {bots.moves}, "
                    f"socket got {shown}"
                ) from None
        assert bots.moves >= 1
        moved = [
            r
            for r in await served.store.read_stream(table_id)
            if r.metadata.seat == 2 and r.metadata.command_id.startswith("auto:")
        ]
        assert moved and moved[0].type in ("TablePlayed", "CardsDrawn")
        assert after["view"]["hand_counts"][1] != hand_before  # it played, or it drew
    finally:
        await socket.close()


# A secret whose first player (seat 1) is dealt a Manipulation hand holding a group: his
# first Draw is answered with the reminder (RM-OPT-1a).
_REMINDED = hashlib.sha256(b"rummy-e2e:reminder:1").hexdigest()


async def test_a_seat_is_shown_its_reminder_and_its_hand_points_over_its_socket(
    served: Served,
) -> None:
    """RM-OPT-1a, RM-EX-6, RM-AMB-5, PF-HINT-3: a Manipulation seat that presses Draw while
    it can play is not dealt a card: its own view shows the hint (a hand card to play),
    the other seat's and the spectator's do not; a seat's view shows its hand's points."""
    served.fix_secrets(_REMINDED)
    table_id, tokens = await _two_players(served, "manipulation", turn_seconds=600)
    sockets = {seat: await Client.open(served.base, table_id, tokens[seat]) for seat in (1, 2)}
    try:
        mine = await sockets[1].wait_for_view(_playing(turn_no=1))
        assert mine["view"]["turn"] == 1
        hand = mine["view"]["hand"]
        reply = await sockets[1].command({"type": "Draw"})
        assert reply["type"] == "accepted", reply
        other = await sockets[2].wait_for_view(lambda m: m["version"] >= reply["version"])
        assert other["view"]["reminder"] is None
        shown = await sockets[1].wait_for_view(lambda m: m["version"] >= reply["version"])
        assert shown["view"]["hand"] == hand  # no card was drawn
        assert shown["view"]["hand_points"] is not None
        assert shown["view"]["reminder"] is not None
        assert shown["view"]["reminder"]["card"] in hand
    finally:
        for socket in sockets.values():
            await socket.close()


async def _two_players(served: Served, variant: str, **options: Any) -> tuple[str, dict[int, str]]:
    """A started two-seat table of `variant`: Salma hosts in seat 1, Omar sits in seat 2;
    their tokens by seat."""
    http = served.http
    created = await http.post(
        "/tables",
        json={
            "game": "rummy",
            "variant": variant,
            "options": {"seats": 2, **options},
            "player": "Salma",
        },
    )
    assert created.status_code == 201, created.text
    table_id, host = created.json()["table_id"], created.json()["token"]
    joined = await http.post(f"/tables/{table_id}/seats/2", json={"player": "Omar"})
    assert joined.status_code == 201, joined.text
    started = await http.post(
        f"/tables/{table_id}/start", headers={"Authorization": f"Bearer {host}"}
    )
    assert started.status_code == 200, started.text
    return table_id, {1: host, 2: joined.json()["token"]}


def _playing(turn_no: int) -> Any:
    def match(message: dict[str, Any]) -> bool:
        view = message["view"]
        return view is not None and view["phase"] == "play" and view["turn_no"] == turn_no

    return match
