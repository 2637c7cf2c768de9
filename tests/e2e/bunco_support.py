"""A Bunco evening through the running services, for the Bunco end-to-end tests.

Clients that roll their seat from the views they are sent, as a phone would: a roll when
the newest view lists `Roll` among the seat's legal commands, and the next one only on a
view newer than the roll's own version (a view of another table's roll may arrive after
the "accepted" of one's own, and still show one's seat awaited). The store read back: the
evening's events in order, the state after each version, and the tallies the rounds'
winners make (BU-TALLY-1/2) to compare with what the engine kept.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from engine.bunco.messages import DiceRolled, RoundEnded, RoundStarted
from engine.fairness import SeedCommitted, SeedRevealed
from services.tables.codec import decode_event
from tests.e2e.gateway_support import Client
from tests.e2e.rummy_support import Served

__all__ = [
    "RACES",
    "Rolled",
    "Stored",
    "create",
    "read_store",
    "roll_until",
    "tallies",
]

# The refusals a roll sent on a view that was true when it was shown may still meet: the
# bell rang, the round or the evening ended, or the table kept changing under it. Anything
# else (`not_your_turn` above all) means the client rolled on a view it should not have.
RACES = frozenset({"bell_rang", "wrong_phase", "evening_over", "not_playing", "busy"})


@dataclass
class Rolled:
    """What one seat's sockets did: the rolls accepted and the refusals met."""

    seat: int
    accepted: int = 0
    duplicates: int = 0  # accepted as the repeat of a command already made (none expected)
    refused: list[dict[str, Any]] = field(default_factory=list)
    sent: int = 0  # numbers the seat's command ids across its sockets: one id, one roll


def _due(acted: int, rolled_at: int) -> Any:
    """A view to roll on: newer than the one last acted on, and showing the seat's own last
    roll (a scoring roll makes the same seat roll again, BU-ROLL-3, at that very version)."""

    def due(message: dict[str, Any]) -> bool:
        if message["status"] == "finished":
            return True
        view = message["view"]
        return (
            message["version"] > acted
            and message["version"] >= rolled_at
            and view is not None
            and "Roll" in view["legal"]["commands"]
        )

    return due


async def roll_until(
    client: Client, rolled: Rolled, stop: Any = None, timeout: float = 60
) -> dict[str, Any]:
    """Roll the client's seat whenever its newest view asks for a roll, until the table is
    finished or `stop(view message)` holds; the last view message looked at."""
    acted, rolled_at = -1, 0
    async with asyncio.timeout(timeout):
        while True:
            due = _due(acted, rolled_at)

            def wanted(m: dict[str, Any], due: Any = due) -> bool:
                return bool(due(m) or (stop is not None and stop(m)))

            message = await client.wait_for_view(wanted, timeout=timeout)
            if message["status"] == "finished" or (stop is not None and stop(message)):
                return message
            acted = message["version"]
            rolled.sent += 1
            reply = await client.command({"type": "Roll"}, f"roll-{rolled.sent}")
            if reply["type"] == "accepted":
                rolled.accepted += 1
                rolled.duplicates += reply["duplicate"]
                rolled_at = reply["version"]
            else:
                rolled.refused.append(reply)
                if reply["code"] == "busy":  # "send the command again": on the same view
                    acted -= 1


async def create(
    served: Served, players: int, kinds: Iterable[str], options: dict[str, Any] | None = None
) -> tuple[str, dict[int, str]]:
    """A Bunco table of `players` seats of `kinds` ("human"/"bot"), every human seat taken
    (seat 1 by the host, at creation): its id and the human seats' tokens."""
    kinds = list(kinds)
    body = {
        "game": "bunco",
        "options": {"players": players, **(options or {})},
        "seats": kinds,
        "player": "Player 1",
    }
    created = await served.http.post("/tables", json=body)
    assert created.status_code == 201, created.text
    table_id = created.json()["table_id"]
    tokens = {1: created.json()["token"]}
    for seat, kind in enumerate(kinds, 1):
        if kind == "human" and seat != 1:
            taken = await served.http.post(
                f"/tables/{table_id}/seats/{seat}", json={"player": f"Player {seat}"}
            )
            assert taken.status_code == 201, taken.text
            tokens[seat] = taken.json()["token"]
    return table_id, tokens


@dataclass
class Stored:
    """The evening as the store holds it (secrets opened, as the gateway reads them)."""

    events: list[tuple[int, Any]]  # (version, event), the table's own events included
    states: list[Any]  # the table after each version (index 0: before the first event)

    def of(self, kind: type) -> list[tuple[int, Any]]:
        return [(v, e) for v, e in self.events if isinstance(e, kind)]

    def secrets(self) -> dict[str, int]:
        """Each round's secret (hex) and the version it was revealed at."""
        revealed = {e.deal: v for v, e in self.of(SeedRevealed)}
        return {e.secret: revealed[e.deal] for _, e in self.of(SeedCommitted)}


async def read_store(served: Served, table_id: str) -> Stored:
    from engine.table import evolve, new_table

    events: list[tuple[int, Any]] = []
    states = [new_table(table_id)]
    for row in await served.store.read_stream(table_id):
        event = decode_event(row)
        assert row.version == len(states)
        states.append(evolve(states[-1], event))
        events.append((row.version, event))
    return Stored(events=events, states=states)


def tallies(stored: Stored, places: int) -> tuple[list[int], list[int], list[int]]:
    """Wins, losses and Buncos of every place (the ghost's last) as the stored rounds make
    them: a place wins a round when its team (table seats 1 + 3: team 1) won its table
    (BU-TALLY-1); a Bunco is a DiceRolled of kind "bunco" credited to the place whose turn
    it was (BU-TALLY-2, BU-AMB-1; roll-off Buncos are not tallied, BU-AMB-6)."""
    wins, losses, buncos = [0] * places, [0] * places, [0] * places
    seating: dict[int, tuple[tuple[int, ...], ...]] = {}
    for _, event in stored.events:
        if isinstance(event, RoundStarted):
            seating[event.round] = event.tables
        elif isinstance(event, DiceRolled) and event.kind == "bunco":
            buncos[event.player - 1] += 1
        elif isinstance(event, RoundEnded):
            for table, winner in zip(seating[event.round], event.winners, strict=True):
                for index, place in enumerate(table):
                    team = 1 if index % 2 == 0 else 2  # table seats 1 + 3, 2 + 4
                    if team == winner:
                        wins[place - 1] += 1
                    else:
                        losses[place - 1] += 1
    return wins, losses, buncos
