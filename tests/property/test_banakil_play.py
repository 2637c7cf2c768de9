"""Random legal play from random seeds, to the end of the deal (BK-AMB-25: both presets and
random option combinations): conservation, fold == state, JSON round trips, no leaks,
determinism."""

from __future__ import annotations

import random
import re
from typing import Any

import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import banakil
from engine.banakil.autoplay import random_step
from engine.banakil.evolve import evolve
from engine.banakil.messages import Command, CommitSeed, Event, SendClientSeed
from engine.banakil.state import State
from engine.cards import BANAKIL_DECK

_ENCODE = msgspec.json.Encoder()
_EVENTS = msgspec.json.Decoder(tuple[Event, ...])
_IDENTITY = re.compile(r"(?:10|[A2-9JQK])[SHDC]#[12]|JK#[12]")

option_sets = st.one_of(
    st.sampled_from([("classic", {}), ("sahrat", {}), ("sahrat", {"mode": "one_vs_one"})]),
    st.tuples(
        st.sampled_from(["classic", "sahrat"]),
        st.fixed_dictionaries(
            {},
            optional={
                "min_real_cards": st.sampled_from([1, 2]),
                "wild_two_in_sets": st.booleans(),
                "ground_draw": st.sampled_from(["chosen_and_above", "top_only_must_use"]),
                "freed_joker": st.sampled_from(["to_hand", "must_remeld"]),
                "partner_addon_needs_own_meld": st.booleans(),
                "max_reshuffles": st.integers(0, 3),
                "exhausted_deal": st.sampled_from(["dead", "used_up"]),
                "wild_two_relocation": st.sampled_from(["any_position", "ends_on_real_card"]),
                "single_meld_bonus": st.booleans(),
            },
        ),
    ),
)


def _all_cards(state: State) -> list[str]:
    on_table = [p.card for m in state.melds for p in m.cards]
    return [*(c for h in state.hands for c in h), *on_table, *state.stock, *state.ground]


def _play(
    preset: str, overrides: dict[str, Any], secret: bytes, seeds: list[str], rng_seed: int
) -> tuple[list[tuple[int, Command]], list[Event], list[State]]:
    """Play one deal; returns the commands, the events and the state after every step."""
    rng = random.Random(rng_seed)
    state = banakil.initial(banakil.options_from(preset, **overrides))
    commands: list[tuple[int, Command]] = [(0, CommitSeed(secret=secret.hex()))]
    commands += [(i + 1, SendClientSeed(seed=s)) for i, s in enumerate(seeds[: state.seats])]
    events: list[Event] = []
    states = [state]
    for seat, cmd in commands:
        for e in banakil.decide(state, seat, cmd):
            state = evolve(state, e)
            events.append(e)
        states.append(state)
    while state.phase in ("seeded", "play"):
        seat, cmd, new = random_step(state, rng)
        commands.append((seat, cmd))
        for e in new:
            state = evolve(state, e)
        events.extend(new)
        states.append(state)
    return commands, events, states


deals = st.tuples(
    option_sets,
    st.binary(min_size=32, max_size=32),
    st.lists(
        st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=126), max_size=8),
        min_size=4,
        max_size=4,
    ),
    st.integers(0, 2**32),
)
_SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@_SETTINGS
@given(deals)
def test_the_106_cards_are_conserved_at_every_step(deal: Any) -> None:
    """BK-DECK-1: hands + melds + stock + ground always hold the 106 cards once each."""
    (preset, overrides), secret, seeds, rng_seed = deal
    _, _, states = _play(preset, overrides, secret, seeds, rng_seed)
    for state in states:
        if state.phase == "play" or state.end_reason is not None:
            cards = _all_cards(state)
            assert len(cards) == 106
            assert set(cards) == set(BANAKIL_DECK)


@_SETTINGS
@given(deals)
def test_folding_the_json_round_tripped_events_gives_the_same_state_at_every_step(
    deal: Any,
) -> None:
    (preset, overrides), secret, seeds, rng_seed = deal
    _, events, states = _play(preset, overrides, secret, seeds, rng_seed)
    decoded = _EVENTS.decode(_ENCODE.encode(tuple(events)))
    assert decoded == tuple(events)
    state = states[0]
    folded = [state]
    for e in decoded:
        state = evolve(state, e)
        folded.append(state)
    # every state seen during play is one of the fold's intermediate states, in order
    it = iter(folded)
    assert all(any(s == f for f in it) for s in states)
    assert folded[-1] == states[-1]


@_SETTINGS
@given(deals)
def test_no_view_ever_shows_another_seats_hand_the_stock_or_the_secret(deal: Any) -> None:
    """PF-FAIR-3 and the view contract: a seat sees its own hand and public cards only;
    once the deal has ended the remaining hands are public (PF-REVEAL-1), the stock never."""
    (preset, overrides), secret, seeds, rng_seed = deal
    _, _, states = _play(preset, overrides, secret, seeds, rng_seed)
    for state in states:
        if not state.hands:
            continue
        for seat in [None, *range(1, state.seats + 1)]:
            text = _ENCODE.encode(banakil.view(state, seat)).decode()
            shown = set(_IDENTITY.findall(text))
            hidden = set(state.stock)
            for other in range(1, state.seats + 1):
                if other != seat and state.phase == "play":
                    hidden |= set(state.hands[other - 1])
            hidden.discard(state.cut_card or "")  # PF-CUT-5: shown face up to every seat
            assert not shown & hidden
            if state.end_reason is None:
                assert secret.hex() not in text


@_SETTINGS
@given(deals)
def test_the_same_seed_and_commands_always_give_the_same_events(deal: Any) -> None:
    (preset, overrides), secret, seeds, rng_seed = deal
    commands, events, states = _play(preset, overrides, secret, seeds, rng_seed)
    state = states[0]
    again: list[Event] = []
    for seat, cmd in commands:
        new = banakil.decide(state, seat, cmd)
        for e in new:
            state = evolve(state, e)
        again.extend(new)
    assert again == events
