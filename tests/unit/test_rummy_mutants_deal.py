"""The first player of each rummy round (RM-CORE-7, PF-FAIR-6, engine/rummy/deal.py):
the fair draw from the round's committed secret for the first round, then one seat on.

Written against the survivors of mutation testing (scripts/mutate.sh, docs/testing.md):
no test asked for the first round's first player when a first player was already known.

Rules: RM-CORE-7, PF-FAIR-6, PF-AMB-12.
"""

from __future__ import annotations

import pytest

from engine import fair
from engine.rummy.deal import first_player

_SECRET = bytes.fromhex("3c" * 32)
_ENTROPY = fair.entropy(("", "golden", ""))


@pytest.mark.parametrize("previous", [0, 1, 2, 3])
def test_the_first_round_always_opens_with_the_fair_draw(previous: int) -> None:
    """RM-CORE-7, PF-FAIR-6: round 1's first player is drawn from the round's secret and
    the seats' entropy, whatever first player the table held before (a Verify page
    derives it from the secret alone, PF-FAIR-5)."""
    drawn = fair.first_draw(_SECRET, _ENTROPY, 3)
    assert first_player(_SECRET, _ENTROPY, 3, 1, previous) == drawn


@pytest.mark.parametrize(("previous", "expected"), [(1, 2), (2, 3), (3, 1)])
def test_each_later_round_opens_one_seat_on(previous: int, expected: int) -> None:
    """RM-CORE-7: one seat on, in increasing seat order, seat 3 followed by seat 1."""
    assert first_player(_SECRET, _ENTROPY, 3, 2, previous) == expected
    assert first_player(_SECRET, _ENTROPY, 3, 7, previous) == expected
