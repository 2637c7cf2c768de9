"""How often one seat may ask (a hint, a staging check, a hand order): a token bucket per
(table, seat, kind of question), in this gateway's memory.

A seat's bucket holds `burst` questions and refills at `per_second`; a question finding it
empty is refused with `too_many_requests`, saying when to ask again, and costs nothing
else (no table is loaded, no hint searched). Each gateway counts the seats' questions it
serves, so behind a balancer a seat may ask at most that rate at each gateway its sockets
are on. The buckets of seats that went quiet are dropped once there are many.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable

from engine.errors import RuleViolation

__all__ = ["Rates"]

_KEPT = 50_000  # buckets kept (the least recently used go first: they are full again)


class Rates:
    def __init__(
        self,
        per_second: float,
        burst: int,
        what: str,
        rule_id: str,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._rate = per_second
        self._burst = float(burst)
        self._what = what  # e.g. "hints", for the sentence
        self._rule_id = rule_id
        self._clock = clock
        self._buckets: OrderedDict[tuple[str, int], tuple[float, float]] = OrderedDict()

    def take(self, table_id: str, seat: int) -> None:
        """Count one question of the seat, or RuleViolation `too_many_requests`."""
        now = self._clock()
        key = (table_id, seat)
        left, then = self._buckets.get(key, (self._burst, now))
        left = min(self._burst, left + (now - then) * self._rate)
        if left < 1.0:
            wait = (1.0 - left) / self._rate
            self._buckets[key] = (left, now)
            raise RuleViolation(
                "too_many_requests",
                self._rule_id,
                f"at most {self._rate:g} {self._what} a second per seat "
                f"(a burst of {self._burst:g}): ask again in {wait:.2f} s",
            )
        self._buckets[key] = (left - 1.0, now)
        self._buckets.move_to_end(key)
        while len(self._buckets) > _KEPT:
            self._buckets.popitem(last=False)
