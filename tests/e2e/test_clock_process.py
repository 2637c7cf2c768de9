"""The clock as real processes (`python -m services.cli.clock clock`, the entry point that
`sahra serve clock` wires): one is SIGKILLed while a turn's deadline is pending, and two
started afterwards fire it from the log, once between them (PF-TIMER-1, PF-TIMER-3).

The restarted clocks run with --time-offset, so that the deadline has passed for them
without the test waiting through a turn. The test has its own database: a clock fires
every table's deadlines, and the session's other tables are not this test's to move on.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from engine.banakil.messages import TurnTimedOut
from engine.replay import decode_record, record_options
from services.bus.nats import NatsBus
from services.projections.deadlines import utc_now
from services.store.postgres import PostgresEventStore
from services.tables.codec import decode_event
from services.tables.followups import StackedDeal
from services.tables.seeds import SeedTiming
from services.tables.service import TableService
from tests.service_support import batch_time, scratch_database

_ROOT = Path(__file__).resolve().parents[2]
_RECORD = _ROOT / "examples" / "sahrat-stacked-deal.json"
_READY = "clock: caught up"


@pytest.fixture
async def database(database_url: str) -> AsyncIterator[str]:
    async with scratch_database(database_url, "sahra_clock") as url:
        yield url


class ClockProcess:
    def __init__(self, database_url: str, nats_url: str, log: Path, offset: float) -> None:
        self.log = log
        args = [
            sys.executable,
            "-m",
            "services.cli.clock",
            "clock",
            "--database-url",
            database_url,
            "--nats-url",
            nats_url,
            "--data-dir",
            str(log.parent / "data"),
            "--interval",
            "0.05",
            "--time-offset",
            f"{offset:.3f}",
        ]
        with log.open("ab") as out:
            self.process = subprocess.Popen(
                args,
                cwd=_ROOT,
                env={**os.environ, "PYTHONUNBUFFERED": "1"},
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )

    async def caught_up(self, timeout: float = 30) -> None:
        deadline = time.monotonic() + timeout
        while _READY not in self.log.read_text(errors="replace"):
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise AssertionError(f"the clock did not start:\n{self.log.read_text()}")
            await asyncio.sleep(0.05)

    def kill(self) -> None:
        if self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)


async def test_a_killed_clock_leaves_its_deadline_to_the_next_ones_once(
    database: str, nats_url: str, tmp_path: Path
) -> None:
    store = await PostgresEventStore.connect(database)
    bus = await NatsBus.connect(nats_url)
    service = TableService(
        store, bus, timing=SeedTiming(seed_window=0.0, cut_seconds=3600.0, reveal_seconds=0.0)
    )
    clocks: list[ClockProcess] = []
    try:
        record = decode_record(_RECORD.read_bytes())
        deal = record.deals[0]
        assert deal.deck is not None
        created = await service.create_table(
            record_options(record),
            ("human",) * 4,
            StackedDeal(cards=deal.deck, dealer=deal.dealer, cut=deal.cut),
        )
        table_id = created.state.table_id
        for seat in range(1, 5):
            assert (await service.take_seat(table_id, seat, f"P{seat}")).accepted
        assert (await service.start(table_id, 1)).accepted
        dealt = await batch_time(store, table_id, "CardsDealt")

        first = ClockProcess(database, nats_url, tmp_path / "first.log", 0.0)
        clocks.append(first)
        await first.caught_up()
        assert "1 deadline(s) pending" in first.log.read_text()
        first.kill()  # SIGKILL with the turn's 20 s still running
        assert "TurnTimedOut" not in [r.type for r in await store.read_stream(table_id)]

        # Two clocks at once, for which the deadline passes 3 s after they start.
        offset = (dealt + timedelta(seconds=17) - utc_now()).total_seconds()
        assert offset > 1  # the deadline is still ahead in real time
        pair = [ClockProcess(database, nats_url, tmp_path / f"next{i}.log", offset) for i in (1, 2)]
        clocks += pair
        await asyncio.gather(*(clock.caught_up() for clock in pair))
        async with asyncio.timeout(30):
            while not await _timed_out(store, table_id):
                await asyncio.sleep(0.05)
        await asyncio.sleep(0.5)  # both have seen it by now
        for clock in clocks:
            assert clock.process.poll() is None or clock is first  # neither crashed
            clock.kill()

        rows = await store.read_stream(table_id)
        firsts = [r for r in rows if r.metadata.command_id == "timeout:1:1:draw"]
        assert len(firsts) == 1  # one append of the first timeout of turn 1
        timeouts = [e for e in map(decode_event, rows) if isinstance(e, TurnTimedOut)]
        assert [e.turn for e in timeouts].count(1) == 1
        assert datetime.fromisoformat(firsts[0].metadata.server_time) > dealt
    finally:
        for clock in clocks:
            clock.kill()
        await service.deadlines.close()
        await service.close()
        await bus.close()
        await store.close()


async def _timed_out(store: PostgresEventStore, table_id: str) -> bool:
    return any(r.type == "TurnTimedOut" for r in await store.read_stream(table_id))
