"""The seats' client seeds before a deal (PF-AMB-12 h): one per seat and deal, 0 to 64
printable ASCII characters, only while the deal's seed window is open; in `classic` the
window runs its course before the host may cut, so every seat's seed is mixed in."""

from __future__ import annotations

import pytest

from engine import banakil, fair
from engine.banakil.messages import (
    CardsDealt,
    ClientSeedSent,
    CloseSeedWindow,
    CommitSeed,
    Cut,
    Deal,
    DeckCut,
    SeedWindowClosed,
    SendClientSeed,
    StackDeck,
)
from engine.banakil.state import State
from engine.cards import canonical_deck, faces
from engine.errors import RuleViolation
from tests.support import apply

SECRET = "5c" * 32


def _committed(preset: str = "sahrat") -> State:
    state = banakil.initial(banakil.options_from(preset))
    return apply(state, 0, CommitSeed(secret=SECRET))[0]


def _refused(state: State, seat: int, command: object, code: str) -> RuleViolation:
    with pytest.raises(RuleViolation) as info:
        banakil.decide(state, seat, command)  # type: ignore[arg-type]
    assert (info.value.code, info.value.rule_id) == (code, "PF-AMB-12"), info.value
    return info.value


def test_a_seat_sends_one_client_seed_per_deal_and_a_flood_is_refused_pf_amb_12() -> None:
    """13,573 seeds from one seat were once stored and broadcast: now the first is taken and
    every other is refused before anything is stored."""
    state, events = apply(_committed(), 2, SendClientSeed(seed="first"))
    assert events == (ClientSeedSent(seat=2, seed="first"),)
    for n in range(200):
        err = _refused(state, 2, SendClientSeed(seed=f"again {n}"), "seed_already_sent")
        assert "seat 2" in err.message and "one per seat" in err.message
    assert state.client_seeds == ("", "first", "", "")
    # Another seat still has its own, and an empty seed is a seat's one seed too.
    state, _ = apply(state, 4, SendClientSeed(seed=""))
    _refused(state, 4, SendClientSeed(seed="second thoughts"), "seed_already_sent")
    assert banakil.legal(state, 4).commands == ()
    assert banakil.legal(state, 1).commands == ("SendClientSeed",)


@pytest.mark.parametrize(
    "seed",
    ["x" * 65, "tab\there", "new\nline", "nul\x00", "بذرة", "🎲", "del\x7f"],
    ids=["65 chars", "tab", "newline", "nul", "arabic", "emoji", "del"],
)
def test_a_client_seed_is_at_most_64_printable_ascii_characters(seed: str) -> None:
    state = _committed()
    err = _refused(state, 1, SendClientSeed(seed=seed), "bad_client_seed")
    assert "0 to 64 printable ASCII" in err.message
    # The seat keeps its one seed: a refused one changes nothing.
    longest = " ~" * 32
    assert banakil.decide(state, 1, SendClientSeed(seed=longest)) == (
        ClientSeedSent(seat=1, seed=longest),
    )


def test_no_client_seed_once_the_deal_is_dealt_or_before_its_commitment() -> None:
    state = banakil.initial(banakil.options_from("sahrat"))
    _refused(state, 1, SendClientSeed(seed="early"), "seed_window_closed")
    state = _committed()
    state, _ = apply(state, 0, Deal())
    err = _refused(state, 1, SendClientSeed(seed="late"), "seed_window_closed")
    assert "closed" in err.message
    _refused(state, 0, SendClientSeed(seed="system"), "not_a_seat")


def test_a_stacked_deck_takes_no_client_seed() -> None:
    """A stacked deck (tests, tutorials) is not shuffled from a secret: a seed would change
    nothing, so there is no window to send one in."""
    state = banakil.initial(banakil.options_from("sahrat"))
    state, _ = apply(state, 0, StackDeck(cards=tuple(faces(canonical_deck()))))
    _refused(state, 3, SendClientSeed(seed="pointless"), "seed_window_closed")
    assert banakil.legal(state, 3).commands == ()


def test_the_host_cuts_only_once_the_seed_window_has_closed_pf_amb_12_pf_cut_1() -> None:
    """In `classic` the host's cut used to close the window at once, so no other seat's seed
    was ever mixed in: now the cut (the host's, or the system's) waits for the window, and
    the deal is shuffled with every seed sent in it."""
    state = _committed("classic")
    assert banakil.legal(state, 1).commands == ("SendClientSeed",)  # the host, as a seat
    assert banakil.legal(state, 0).commands == ("CloseSeedWindow",)
    err = _refused(state, 1, Cut(position=40), "seed_window_open")
    assert "cut" in err.message
    _refused(state, 0, Cut(), "seed_window_open")
    state, _ = apply(state, 3, SendClientSeed(seed="seat three"))
    state, _ = apply(state, 2, SendClientSeed(seed="seat two"))
    state, events = apply(state, 0, CloseSeedWindow())
    assert events == (SeedWindowClosed(deal=1),)
    assert banakil.view(state, 2).seed_window is False
    _refused(state, 4, SendClientSeed(seed="too late"), "seed_window_closed")
    _refused(state, 0, CloseSeedWindow(), "seed_window_closed")
    assert banakil.legal(state, 1).commands == ("Cut",)
    assert banakil.legal(state, 4).commands == ()
    assert banakil.legal(state, 0).commands == ("Cut",)
    state, events = apply(state, 1, Cut(position=40))
    assert isinstance(events[0], DeckCut) and isinstance(events[1], CardsDealt)
    entropy = fair.entropy(["", "seat two", "seat three", ""])
    assert events[1].entropy == entropy
    deck = fair.cut(fair.deal_deck(bytes.fromhex(SECRET), entropy), 40)
    assert events[0].cut_card == deck[-1]


def test_closing_the_seed_window_is_the_systems_alone() -> None:
    state = _committed("classic")
    with pytest.raises(RuleViolation) as info:
        banakil.decide(state, 1, CloseSeedWindow())
    assert (info.value.code, info.value.rule_id) == ("system_only", "PF-FAIR-1")
