"""The gateway's parts, built and wired in one place (handlers receive this object)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Mapping

from engine.table import TableState
from services.bus.port import Bus
from services.gateway.hub import Hub
from services.gateway.presence import Presence
from services.gateway.rates import Rates
from services.gateway.settings import Settings
from services.gateway.turn_warnings import TurnWarnings
from services.projections.deadlines import utc_now
from services.projections.lobby import Lobby
from services.store.port import EventStore
from services.tables.seat_asks import SeatAsks
from services.tables.service import TableService

__all__ = ["Gateway", "Probe"]

Probe = Callable[[], Awaitable[None]]
_PROBE_STREAM = "readyz-probe"


class Gateway:
    def __init__(
        self,
        store: EventStore,
        bus: Bus,
        settings: Settings,
        probes: Mapping[str, Probe] | None = None,
    ) -> None:
        self.store = store
        self.bus = bus
        self.settings = settings
        self.service = TableService(
            store,
            bus,
            snapshot_every=settings.snapshot_every,
            retries=settings.append_retries,
            cache_size=settings.cache_tables,
        )
        # A seat's hints, staging checks and hand order (issue 14): no event, never the bus.
        self.asks = SeatAsks(
            self.service,
            store,
            hint_seconds=settings.hint_seconds,
            hint_slots=settings.hint_slots,
        )
        self.hint_rates = Rates(
            settings.hints_per_second, settings.hints_burst, "hints", "PF-HINT-3"
        )
        self.stage_rates = Rates(
            settings.stages_per_second, settings.stages_burst, "staging checks", "PF-STAGE-5"
        )
        self.order_rates = Rates(
            settings.orders_per_second, settings.orders_burst, "hand orders", "PF-SORT-1"
        )
        self.hub = Hub(self.service, bus, shown=self.asks.shown)
        self.presence = Presence(self.service)  # PF-CONN: seats recorded away and back
        self.warnings = TurnWarnings(self.service, store, self.presence, utc_now)  # PF-TIMER-2
        self._stop = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []
        self.lobby = Lobby(store, self._state_of)
        self.probes: dict[str, Probe] = dict(
            probes or {"postgresql": self._probe_store, "nats": self._probe_bus}
        )

    async def readiness(self) -> dict[str, str]:
        """Each dependency's state: "ok", or what went wrong."""

        async def check(probe: Probe) -> str:
            try:
                await asyncio.wait_for(probe(), self.settings.probe_timeout)
            except TimeoutError:
                return f"no answer within {self.settings.probe_timeout:g} s"
            except Exception as exc:
                return f"{type(exc).__name__}: {exc}"
            return "ok"

        names = list(self.probes)
        results = await asyncio.gather(*(check(self.probes[n]) for n in names))
        return dict(zip(names, results, strict=True))

    async def start(self) -> None:
        self._tasks.append(asyncio.create_task(self.warnings.run(self._stop), name="warnings"))
        # Reads the store for this gateway's tables while the bus is away (issue 10 item 6).
        self._tasks.append(asyncio.create_task(self.hub.run(self._stop), name="hub"))

    async def close(self) -> None:
        self.presence.closing = True
        self._stop.set()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        await self.hub.close()
        self.asks.close()
        await self.service.deadlines.close()
        await self.service.close()  # last: what the others committed is published

    async def _state_of(self, table_id: str) -> TableState:
        return (await self.service.load(table_id)).state

    async def _probe_store(self) -> None:
        await self.store.stream_version(_PROBE_STREAM)

    async def _probe_bus(self) -> None:
        # The bus port has no ping: a subscription round trip proves that the server (and
        # JetStream) answers. A bus that offers `ping()` is asked that instead.
        ping = getattr(self.bus, "ping", None)
        if ping is not None:
            await ping()
            return

        async def ignore(_: object) -> None:
            return None

        subscription = await self.bus.subscribe(_PROBE_STREAM, ignore)
        await subscription.unsubscribe()
