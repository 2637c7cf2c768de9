"""`decide_fold` is `decide` plus the fold of its events, whatever was played: the state it
returns is the state folding the events gives, field for field (the verifier and the replay
rely on it to skip applying events twice)."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import banakil
from engine.banakil.autoplay import random_step
from engine.banakil.decide import decide_fold
from engine.banakil.messages import CommitSeed
from engine.replay import fold
from tests.property.test_banakil_play import option_sets


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(options=option_sets, seed=st.integers(0, 2**32 - 1))
def test_decide_fold_gives_the_folded_state(options: tuple[str, dict], seed: int) -> None:
    preset, overrides = options
    rng = random.Random(seed)
    state = banakil.initial(banakil.options_from(preset, **overrides))
    for deal in range(2):
        if state.phase != "seeding":
            break
        command = CommitSeed(secret=rng.randbytes(32).hex())
        events, after = decide_fold(state, 0, command)
        assert after == fold(events, state)
        state = after
        for _ in range(2_000):
            if state.phase not in ("seeded", "play"):
                break
            seat, command, _ = random_step(state, rng)
            events, after = decide_fold(state, seat, command)
            assert events == banakil.decide(state, seat, command)
            assert after == fold(events, state), (deal, type(command).__name__)
            state = after
