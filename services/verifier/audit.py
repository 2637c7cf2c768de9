"""The batch audit: verify every finished deal in the store (`sahra verify --all`).

Two passes. The first reads the global log once and keeps only where each deal ended
(the DealScored rows: table, deal number, time, position), so memory stays small whatever
the store holds. The second reads the tables one at a time, builds one record per table
up to its last finished deal (records start from the new table, so one replay covers all
its deals) and verifies it. `since` (a time, or a global position) keeps the deals that
ended at or after it; their tables are still replayed from the start.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import datetime

import msgspec

from engine.verify import DealVerdict, verify_record
from services.store.port import Checkpoint, EventStore
from services.verifier.records import FinishedDeal, RecordProblem, TableLog, deal_id

__all__ = ["AuditSummary", "DealOutcome", "Since", "audit", "finished_deals"]

Since = datetime | int | None
Progress = Callable[[int, int], None]  # (deals done, deals in all)
_PAGE = 2_000


class _DealNumber(msgspec.Struct):
    deal: int


_DEAL_NUMBER = msgspec.json.Decoder(_DealNumber)


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


def _after(found: FinishedDeal, since: Since) -> bool:
    if since is None:
        return True
    if isinstance(since, int):
        return found.position > since
    return found.finished_at >= since


async def finished_deals(store: EventStore, since: Since = None) -> dict[str, list[FinishedDeal]]:
    """Every deal that ended (after `since`), by table, from one pass over the log (or one
    query, when the store can answer it: the PostgreSQL adapter)."""
    out: dict[str, list[FinishedDeal]] = {}
    query = getattr(store, "finished_deals", None)
    if query is not None:
        after = since if isinstance(since, int) else 0
        at = since if isinstance(since, datetime) else None
        for stream_id, deal, position, when in await query(after, at):
            found = FinishedDeal(deal=deal, finished_at=when, position=position)
            out.setdefault(stream_id, []).append(found)
        return out
    checkpoint = Checkpoint()
    while True:
        rows, checkpoint = await store.read_all(checkpoint, _PAGE)
        for row in rows:
            if row.type != "DealScored":
                continue
            found = FinishedDeal(
                deal=_DEAL_NUMBER.decode(row.data).deal,
                finished_at=row.recorded_at,
                position=row.position,
            )
            if _after(found, since):
                out.setdefault(row.stream_id, []).append(found)
        if len(rows) < _PAGE:
            return out


def _outcome(table_id: str, deal: int, verdict: DealVerdict | None) -> DealOutcome:
    name = deal_id(table_id, deal)
    if verdict is None:
        return DealOutcome(
            deal_id=name,
            status="unchecked",
            detail="an earlier deal of this table failed, so this one was not replayed",
        )
    if verdict.passed:
        return DealOutcome(deal_id=name, status="verified")
    failing = next(c for c in verdict.checks if c.status == "fail")
    return DealOutcome(deal_id=name, status="failed", check=failing.name, detail=failing.detail)


async def audit(
    store: EventStore, since: Since = None, progress: Progress | None = None
) -> AuditSummary:
    """Verify every finished deal (after `since`); `progress(done, total)` after each table."""
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
            verdict = verify_record(log.record(numbers[-1]))
            by_deal = {v.deal: v for v in verdict.deals}
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
