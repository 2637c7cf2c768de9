"""Deal records (docs/deal-format.md) built from the event store, for the game's verifier.

The platform reads a table's units from its log (protocol.UnitLog); the table's game
writes its own record of them (`RecordSection.build`), which names the game. What follows
is what every game's record is made from (a Banakil record holds it as it is).

A deal is named "<table id>-<deal number>" (e.g. "bb9cc40dbe5e4290-3"); the number is the
table's own deal counter, the `deal` of its SeedCommitted. The service stores every
accepted command in the metadata of the events it caused (`Metadata.command`), so a
table's stream reads back as a list of appends: who sent what, and what it did.

The record of deal n starts from the new table, as every record does: its options, seats
and host from TableCreated and SeatTaken, then every deal from the first up to n (a deal
of a later match, or of a later deal of the same match, can only be re-decided from the
state the earlier deals left). Each deal carries:

- `seed`: the secret as SeedRevealed revealed it, and the seats' client seeds as the deal
  used them (seat order, "" for a seat that sent none); or, for a stacked test deal,
  `deck`, `dealer` and `cut` from DeckStacked;
- `commands`: every command after the commitment, in the order the store appended them:
  the seats' client seeds and the system's own commands (Deal, the automatic Cut,
  Timeout; seat 0) written out, so the replay issues exactly what the table did;
- `events`: the deal's events as recorded, the commitment first. The SeedCommitted's
  `secret` is written empty: in the store it is sealed (never in plain form before the
  reveal), and the revealed secret is the record's `seed.secret`.

Only finished deals have records: before the reveal there is nothing to verify, and the
secret must not come out (PF-FAIR-3). A table's log is read in its public form (hidden
cards as "??", `services/tables/hidden.py`); the rows of a deal are opened with the seed
key only when its record is made, after its reveal, so that the record holds the hands as
they were dealt and stored. The verifier checks those stored cards against the revealed
seed: re-deriving them from the seed instead would let a stored hand that differs from
the shuffle pass unseen. A process with another seed key gets RecordProblem (500) saying
so, never a record with cards it could not read.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime
from typing import Any

import msgspec
from msgspec.structs import replace

from engine import protocol
from engine.table import AnyEvent, SeatTaken, TableCreated
from services.store.port import EventStore, StoredEvent
from services.tables.codec import decode_event, decode_event_sealed
from services.tables.games import DEFAULT_GAME, game_named
from services.tables.sealing import SealError

__all__ = [
    "FinishedDeal",
    "RecordProblem",
    "TableLog",
    "deal_id",
    "deal_record",
    "parse_deal_id",
    "record_options_of",
]

_DEAL_ID = re.compile(r"(?P<table>[A-Za-z0-9_-]{1,64})-(?P<deal>[1-9][0-9]{0,8})")
_NULL = b"null"
# A strict decoder of each game's command union, made on first use.
_COMMANDS: dict[str, msgspec.json.Decoder[Any]] = {}


class _Fairness:
    """The events of a game's fairness lifecycle (PF-FAIR-1..5, PF-AMB-12 h), found by name
    in its event union: the commitment and the reveal, and where the game has them a
    stacked deck and a client seed. A deal record (docs/deal-format.md) is written from
    them."""

    __slots__ = ("committed", "revealed", "seed_sent", "stacked")

    def __init__(self, game: protocol.Game) -> None:
        types: dict[str, type[Any]] = {t.__name__: t for t in game.event_types}
        self.committed = types["SeedCommitted"]
        self.stacked = types.get("DeckStacked")
        self.seed_sent = types.get("ClientSeedSent")
        self.revealed = types["SeedRevealed"]


class RecordProblem(Exception):
    """Why a deal has no record: {code, rule_id, message} with an HTTP status."""

    def __init__(self, status: int, code: str, rule_id: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.rule_id = rule_id
        self.message = message


def deal_id(table_id: str, deal: int) -> str:
    return f"{table_id}-{deal}"


def parse_deal_id(text: str) -> tuple[str, int]:
    """ "<table id>-<deal number>" → (table id, deal number); RecordProblem otherwise."""
    found = _DEAL_ID.fullmatch(text)
    if found is None:
        raise RecordProblem(
            400,
            "bad_deal_id",
            "",
            f"a deal id is <table id>-<deal number>, e.g. bb9cc40dbe5e4290-3, not {text!r:.80}",
        )
    return found["table"], int(found["deal"])


class FinishedDeal(msgspec.Struct, frozen=True, kw_only=True):
    """A deal that ended (scored, and revealed when it had a secret)."""

    deal: int
    finished_at: datetime
    position: int  # global store position of the event that ended it


class _Append:
    """One accepted command: its seat, the command as recorded, the events it caused (in
    their public form) and the rows they were read from."""

    __slots__ = ("command", "events", "last", "rows", "seat")

    def __init__(self, row: StoredEvent) -> None:
        self.seat = row.metadata.seat
        self.command = row.metadata.command
        self.events: list[AnyEvent] = []
        self.rows: list[StoredEvent] = []
        self.last = row


class _Deal:
    __slots__ = ("appends", "number")

    def __init__(self, number: int) -> None:
        self.number = number
        self.appends: list[_Append] = []

    def events(self) -> list[Any]:
        return [e for a in self.appends for e in a.events]

    def finished(self, game: protocol.Game) -> bool:
        ends = game.unit.ends
        return any(ends(e) is not None for a in reversed(self.appends) for e in a.events)


class TableLog:
    """A table's stream read back as appends and deals."""

    def __init__(self, table_id: str, rows: Sequence[StoredEvent]) -> None:
        self.table_id = table_id
        self.created: TableCreated | None = None
        self.names: dict[int, str] = {}
        self.deals: list[_Deal] = []
        # The table's game, from its TableCreated (the first event of every table).
        self.game = game_named(DEFAULT_GAME)
        current: _Append | None = None
        for row in rows:
            starts = current is None or row.metadata.command_id != current.last.metadata.command_id
            if starts:
                current = _Append(row)
            assert current is not None
            event = decode_event_sealed(row.data)  # public: nothing is opened yet
            current.events.append(event)
            current.rows.append(row)
            current.last = row
            if isinstance(event, TableCreated):
                self.created = event
                self.game = game_named(event.game)
            # Presence and the other table commands are not the game's.
            if starts and isinstance(event, self.game.event_types):
                opened = self.game.unit.begins(event)  # a deal's opening
                if opened is not None:
                    self.deals.append(_Deal(opened))
                if self.deals:
                    self.deals[-1].appends.append(current)
            if isinstance(event, SeatTaken):
                self.names[event.seat] = event.player

    def record(self, upto: int) -> Any:
        """The record of deals 1..`upto`; RecordProblem when there is none."""
        where = deal_id(self.table_id, upto)
        if self.created is None:
            raise RecordProblem(404, "no_such_table", "", f"there is no table {self.table_id!r}")
        if not 1 <= upto <= len(self.deals):
            raise RecordProblem(
                404, "no_such_deal", "", f"deal {where} has not begun at this table"
            )
        if not self.deals[upto - 1].finished(self.game):
            raise RecordProblem(
                409,
                "deal_not_finished",
                "PF-FAIR-3",
                f"deal {where} is still being played: its secret is revealed, and the deal "
                "can be verified, once it ends",
            )
        created = self.created
        seats = tuple(
            self.names.get(seat) or f"Bot {seat}" for seat in range(1, len(created.seats) + 1)
        )
        log = protocol.TableLog(
            options=record_options_of(created.options, self.game),
            seats=seats,
            host=created.host,
            units=tuple(self._unit(deal) for deal in self.deals[:upto]),
        )
        return self.game.records.build(log)

    def _unit(self, deal: _Deal) -> protocol.UnitLog:
        where = deal_id(self.table_id, deal.number)
        fair = _Fairness(self.game)
        decoder = _COMMANDS.get(self.game.name)
        if decoder is None:
            decoder = _COMMANDS[self.game.name] = msgspec.json.Decoder(self.game.command)
        commands = []
        for append in deal.appends[1:]:  # after the commitment (or the stacked deck)
            raw = bytes(append.command)
            if raw == _NULL or append.seat is None:
                raise RecordProblem(
                    409,
                    "commands_not_recorded",
                    "PF-FAIR-5",
                    f"deal {where} was stored without its commands (before the service kept "
                    "them), so it cannot be decided again",
                )
            commands.append((append.seat, decoder.decode(raw)))
        public = deal.events()
        if isinstance(public[0], fair.committed) and not any(
            isinstance(e, fair.revealed) for e in public
        ):  # a deal without a secret to reveal is stacked; this one is not
            raise RecordProblem(
                409, "deal_not_finished", "PF-FAIR-3", f"deal {where} has not been revealed"
            )
        events = self._opened(deal)
        first = events[0]
        if fair.stacked is not None and isinstance(first, fair.stacked):
            return protocol.UnitLog(
                number=deal.number,
                secret=None,
                client_seeds=(),
                commands=tuple(commands),
                events=tuple(events),
            )
        assert isinstance(first, fair.committed)  # a deal starts with one or the other
        revealed = next(e for e in events if isinstance(e, fair.revealed))
        seeds = [""] * len(self.created.seats if self.created else ())
        for event in events:
            if fair.seed_sent is not None and isinstance(event, fair.seed_sent):
                seeds[event.seat - 1] = event.seed
        events[0] = replace(first, secret="")
        return protocol.UnitLog(
            number=deal.number,
            secret=revealed.secret,
            client_seeds=tuple(seeds),
            commands=tuple(commands),
            events=tuple(events),
        )

    def _opened(self, deal: _Deal) -> list[Any]:
        """The deal's events as stored, hidden cards opened (after its reveal); the
        commitment's secret is left sealed: the record takes the revealed one."""
        try:
            return [decode_event(r, secret=False) for a in deal.appends for r in a.rows]
        except SealError as exc:
            raise RecordProblem(
                500,
                "cannot_open_sealed",
                "",
                f"deal {deal_id(self.table_id, deal.number)}: {exc}",
            ) from None


def record_options_of(options: Any, game: protocol.Game | None = None) -> dict[str, Any]:
    """The record's "options" for a table's options (the game's own, `records.options_of`:
    in Banakil the preset, then every option that differs from it)."""
    return (game or game_named(DEFAULT_GAME)).records.options_of(options)


async def deal_record(store: EventStore, deal: str) -> Any:
    """The record of a finished deal, by its id; RecordProblem when there is none."""
    table_id, number = parse_deal_id(deal)
    rows = await store.read_stream(table_id)
    if not rows:
        raise RecordProblem(404, "no_such_table", "", f"there is no table {table_id!r}")
    return TableLog(table_id, rows).record(number)
