"""A seat's questions are counted per seat (services/gateway/rates.py; PF-HINT-3,
PF-STAGE-5, PF-SORT-1): a burst, then the rate, each seat and table apart."""

from __future__ import annotations

import pytest

from engine.errors import RuleViolation
from services.gateway.rates import Rates


def test_a_seat_asks_a_burst_then_at_the_rate_and_other_seats_are_counted_apart() -> None:
    now = [100.0]
    rates = Rates(2.0, 3, "hints", "PF-HINT-3", clock=lambda: now[0])
    for _ in range(3):
        rates.take("t", 1)
    with pytest.raises(RuleViolation) as caught:
        rates.take("t", 1)
    assert (caught.value.code, caught.value.rule_id) == ("too_many_requests", "PF-HINT-3")
    assert "ask again in 0.50 s" in caught.value.message
    rates.take("t", 2)  # another seat
    rates.take("u", 1)  # the same seat number at another table
    now[0] += 0.5  # one more question's worth
    rates.take("t", 1)
    with pytest.raises(RuleViolation):
        rates.take("t", 1)
    now[0] += 60  # a long pause fills the bucket to its burst, not beyond
    for _ in range(3):
        rates.take("t", 1)
    with pytest.raises(RuleViolation):
        rates.take("t", 1)
