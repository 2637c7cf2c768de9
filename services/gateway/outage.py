"""Telling "a dependency is down" from "something is wrong here".

When PostgreSQL (or NATS) stops answering, a request fails with the driver's own error:
an asyncpg InterfaceError or connection error, or a plain OSError / TimeoutError raised
while the driver connects. Such a failure is not the request's fault nor a bug of ours:
the client may send the same request again, so HTTP answers 503 with a Retry-After and a
socket a "rejected" message that says so, instead of a 500. Anything else stays a 500.

An OSError or TimeoutError counts only when it was raised inside the driver's code (its
traceback passes through the asyncpg or nats package): a missing file of our own is a bug,
not an outage. The exception's causes are looked at too (a driver error re-raised as
another).
"""

from __future__ import annotations

from types import TracebackType

import asyncpg

__all__ = ["RETRY_AFTER", "UNAVAILABLE_CODE", "down_part", "unavailable_message"]

RETRY_AFTER = 5  # seconds a client is told to wait before trying again
UNAVAILABLE_CODE = "unavailable"

_POSTGRES_ERRORS: tuple[type[BaseException], ...] = (
    asyncpg.InterfaceError,  # the connection is gone, or the store's pool is closed
    asyncpg.PostgresConnectionError,
    asyncpg.CannotConnectNowError,  # the server is starting up or shutting down
    asyncpg.AdminShutdownError,
)
_DRIVERS = {"asyncpg": "postgresql", "nats": "nats"}
_NAMES = {"postgresql": "the event store (PostgreSQL)", "nats": "the message bus (NATS)"}


def down_part(exc: BaseException) -> str | None:
    """The part that cannot be reached ("postgresql", "nats") when `exc` says so; else None."""
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        if isinstance(current, _POSTGRES_ERRORS):
            return "postgresql"
        if isinstance(current, OSError | TimeoutError):
            part = _driver_of(current.__traceback__)
            if part is not None:
                return part
        current = current.__cause__ or current.__context__
    return None


def unavailable_message(part: str | None) -> str:
    what = _NAMES.get(part or "", "a service this gateway depends on")
    return f"{what} cannot be reached now: try again in {RETRY_AFTER} s"


def _driver_of(tb: TracebackType | None) -> str | None:
    while tb is not None:
        module = str(tb.tb_frame.f_globals.get("__name__", ""))
        part = _DRIVERS.get(module.partition(".")[0])
        if part is not None:
            return part
        tb = tb.tb_next
    return None
