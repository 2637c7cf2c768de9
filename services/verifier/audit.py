"""The batch audit: verify every finished unit of play in the store (`sahra verify --all`).

A unit is whatever each hosted game commits, reveals and verifies on its own (a Banakil
deal, a rummy or Bunco round: `protocol.Unit`); the summary calls them all deals, and names
each "<table id>-<number>" as a deal id does. Two passes. The first asks the store only
for the events that end a unit in some hosted game (`Unit.ending`: Banakil's DealScored),
and keeps where each unit ended (table, number, time, position), so memory stays small
whatever the store holds. The second reads the tables one at a time, has the table's game
build one record up to its last finished unit (records start from the new table, so one
replay covers all its units), verify it and split the verdict unit by unit
(`RecordSection.units`). `since` (a time, or a global position) keeps the units that
ended at or after it; their tables are still replayed from the start.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import datetime

import msgspec

from engine import protocol
from services.store.port import EventStore, StoredEvent
from services.tables.codec import decode_event_sealed
from services.verifier.records import FinishedDeal, RecordProblem, TableLog, deal_id

__all__ = ["AuditSummary", "DealOutcome", "Since", "audit", "finished_deals"]

Since = datetime | int | None
Progress = Callable[[int, int], None]  # (deals done, deals in all)


class DealOutcome(msgspec.Struct, frozen=True, kw_only=True):
    deal_id: str
    status: str  # "verified", "failed", "unchecked" (an earlier deal failed), "unverifiable"
    check: str | None = None  # the first failing check
    detail: str | None = None


class AuditSummary(msgspec.Struct, kw_only=True):
    tables: int = 0
    deals: int = 0
    verified: int = 0
    failed: int = 0
    unchecked: int = 0
    unverifiable: int = 0
    seconds: float = 0.0
    problems: list[DealOutcome] = msgspec.field(default_factory=list)

    @property
    def passed(self) -> bool:
        return self.deals == self.verified

    def sentences(self) -> list[str]:
        rate = f", {self.deals / self.seconds:.0f} deals/s" if self.seconds > 0 else ""
        lines = [
            f"audited {self.deals} finished deal{'s' if self.deals != 1 else ''} at "
            f"{self.tables} table{'s' if self.tables != 1 else ''} in {self.seconds:.1f} s"
            f"{rate}: {self.verified} verified, {self.failed} NOT verified, "
            f"{self.unchecked} not checked, {self.unverifiable} cannot be verified"
        ]
        for p in self.problems:
            why = f"{p.check}: {p.detail}" if p.check else (p.detail or "")
            lines.append(f"  {p.deal_id}: {p.status.upper()}: {why}")
        lines.append("verified: every deal passed" if self.passed else "NOT verified")
        return lines


async def finished_deals(store: EventStore, since: Since = None) -> dict[str, list[FinishedDeal]]:
    """Every unit of play that ended (after `since`), of any hosted game, by table: one
    query for the events that end a unit."""
    endings: dict[str, list[protocol.Game]] = {}
    for name in protocol.in_order():
        game = protocol.get(name)
        for tag in game.unit.ending:
            endings.setdefault(tag, []).append(game)
    after = since if isinstance(since, int) else 0
    at = since if isinstance(since, datetime) else None
    out: dict[str, list[FinishedDeal]] = {}
    for row in await store.read_types(tuple(endings), after, at):
        number = _unit_ended(row, endings[row.type])
        if number is not None:
            found = FinishedDeal(deal=number, finished_at=row.recorded_at, position=row.position)
            out.setdefault(row.stream_id, []).append(found)
    return out


def _unit_ended(row: StoredEvent, games: list[protocol.Game]) -> int | None:
    """The number of the unit the row ends, read by the first game that has such an event
    (two games may share a tag; the row's own game is the one that can decode it)."""
    for game in games:
        try:
            event = decode_event_sealed(row.data, game=game.name)
        except msgspec.ValidationError:
            continue
        if isinstance(event, game.event_types):
            number = game.unit.ends(event)
            if number is not None:
                return number
    return None


def _outcome(table_id: str, deal: int, verdict: protocol.UnitVerdict | None) -> DealOutcome:
    name = deal_id(table_id, deal)
    if verdict is None:
        return DealOutcome(
            deal_id=name,
            status="unchecked",
            detail="an earlier deal of this table failed, so this one was not replayed",
        )
    if verdict.passed:
        return DealOutcome(deal_id=name, status="verified")
    return DealOutcome(deal_id=name, status="failed", check=verdict.check, detail=verdict.detail)


async def audit(
    store: EventStore, since: Since = None, progress: Progress | None = None
) -> AuditSummary:
    """Verify every finished unit (after `since`); `progress(done, total)` after each table."""
    began = time.perf_counter()
    tables = await finished_deals(store, since)
    summary = AuditSummary(tables=len(tables))
    total = sum(len(found) for found in tables.values())
    done = 0
    if progress is not None:
        progress(0, total)
    for table_id, found in tables.items():
        numbers = sorted({f.deal for f in found})
        outcomes: list[DealOutcome]
        try:
            log = TableLog(table_id, await store.read_stream(table_id))
            records = log.game.records
            verdict = records.verify(log.record(numbers[-1]))
            by_deal = {v.number: v for v in records.units(verdict)}
            outcomes = [_outcome(table_id, n, by_deal.get(n)) for n in numbers]
        except RecordProblem as problem:
            outcomes = [
                DealOutcome(
                    deal_id=deal_id(table_id, n),
                    status="unverifiable",
                    check=problem.code,
                    detail=problem.message,
                )
                for n in numbers
            ]
        for outcome in outcomes:
            summary.deals += 1
            if outcome.status == "verified":
                summary.verified += 1
                continue
            if outcome.status == "failed":
                summary.failed += 1
            elif outcome.status == "unchecked":
                summary.unchecked += 1
            else:
                summary.unverifiable += 1
            summary.problems.append(outcome)
        done += len(numbers)
        if progress is not None:
            progress(done, total)
    summary.seconds = time.perf_counter() - began
    return summary
