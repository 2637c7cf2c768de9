"""A process's view of the quarantined tables (services/tables/quarantine.py), over the in-memory
store: a hold counts at once and is logged once, a store that is away keeps it for later,
a release shows at the next read, and only a table's own errors hold it (issue 10 item 1)."""

from __future__ import annotations

import logging

import asyncpg
import pytest

from services.bus.port import BusError
from services.store.memory import MemoryEventStore
from services.store.port import Quarantined
from services.tables.hidden import KeyMismatch, Unreadable
from services.tables.quarantine import Quarantine, table_at_fault


class _Away(MemoryEventStore):
    """The in-memory store, refusing writes of holds while `away`."""

    away = True

    async def quarantine(
        self, stream_id: str, process: str, reason: str, *, version: int = 0, position: int = 0
    ) -> bool:
        if self.away:
            raise ConnectionError("the database is away")
        return await super().quarantine(
            stream_id, process, reason, version=version, position=position
        )


class _Ticks:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


async def test_a_hold_counts_at_once_is_logged_once_and_recorded_when_the_store_is_back(
    caplog: pytest.LogCaptureFixture,
) -> None:
    store = _Away()
    held = Quarantine(store, refresh=0.0)

    held.hold("t1", "clock", OverflowError("date value out of range"), version=7)
    held.hold("t1", "clock", OverflowError("again"), version=8)  # held already: nothing

    assert held.holds("t1") and held.reason("t1") == "clock: OverflowError: date value out of range"
    with pytest.raises(ConnectionError):
        await held.refresh()
    assert held.holds("t1")  # still held here while the store is away
    store.away = False
    assert await held.refresh() == set()
    [row] = await store.quarantined()
    assert isinstance(row, Quarantined)
    assert (row.stream_id, row.process, row.version) == ("t1", "clock", 7)
    errors = [r for r in caplog.records if r.levelno == logging.ERROR and "t1" in r.getMessage()]
    assert len(errors) == 1 and errors[0].exc_info is not None


async def test_another_process_hold_and_a_release_show_at_the_next_read() -> None:
    store = MemoryEventStore()
    ticks = _Ticks()
    held = Quarantine(store, refresh=1.0, clock=ticks)
    await held.refresh()
    await store.quarantine("t2", "relay", "BusError: maximum payload")

    ticks.now = 0.5
    assert await held.refresh() == set() and not held.holds("t2")  # not read again yet
    ticks.now = 1.0
    assert await held.refresh() == set() and held.reason("t2") == "relay: BusError: maximum payload"

    assert await store.release("t2") == 1
    ticks.now = 1.2
    assert await held.refresh(force=True) == {"t2"}
    assert not held.holds("t2")


@pytest.mark.parametrize(
    ("error", "at_fault"),
    [
        (OverflowError("date value out of range"), True),
        (IndexError("list index out of range"), True),
        (ValueError("a sealed value of another table"), True),
        (Unreadable("altered"), True),
        (ConnectionError("reset"), False),
        (TimeoutError(), False),
        (BusError("no ack"), False),
        (KeyMismatch("sealed with another key"), False),
        (asyncpg.PostgresConnectionError("gone"), False),
        (asyncpg.UndefinedTableError("no quarantine table"), False),
        (asyncpg.CannotConnectNowError("starting up"), False),
    ],
)
def test_only_a_tables_own_errors_hold_it(error: BaseException, at_fault: bool) -> None:
    """The servers away, or this process misconfigured, must not quarantine every table."""
    assert table_at_fault(error) is at_fault
