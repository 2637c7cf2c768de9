"""The pure parts of `sahra bench service`: the percentile and the client's policy.

The policy (Banakil's scripted client, `engine/banakil/client.py`, which the bench finds
through `engine.players`) sees only what a seat's view carries over the wire (the View
encoded as JSON and decoded into the client's ClientView), and every command it picks
must be accepted by the engine's `decide` on the real state: whole deals are played that
way in both rule sets, and the seats whose turn it is not must send nothing.
"""

from __future__ import annotations

import random

import msgspec
import pytest

from engine import banakil
from engine.banakil.client import ClientView, choose
from engine.banakil.decide import needs_cut
from engine.banakil.messages import CloseSeedWindow, CommitSeed, Deal, Discard, Draw, Meld
from engine.banakil.state import State
from services.bench.service import Client, percentile


def test_percentile_interpolates_between_closest_ranks() -> None:
    values = [5.0, 1.0, 4.0, 2.0, 3.0]
    assert percentile(values, 0) == 1.0
    assert percentile(values, 50) == 3.0
    assert percentile(values, 100) == 5.0
    assert percentile(values, 25) == 2.0
    assert percentile([1.0, 2.0], 50) == 1.5
    assert percentile([10.0, 20.0, 30.0, 40.0], 99) == pytest.approx(39.7)
    assert percentile([7.0], 99) == 7.0


def test_percentile_of_nothing_and_out_of_range() -> None:
    assert percentile([], 50) is None
    with pytest.raises(ValueError):
        percentile([1.0], 101)
    with pytest.raises(ValueError):
        percentile([1.0], -1)


def _wire_view(state: State, seat: int) -> ClientView:
    """A seat's view as the client receives it: JSON, decoded into the client's struct."""
    return msgspec.json.decode(msgspec.json.encode(banakil.view(state, seat)), type=ClientView)


def _apply(state: State, seat: int, command: banakil.Command) -> State:
    for event in banakil.decide(state, seat, command):
        state = banakil.evolve(state, event)
    return state


@pytest.mark.parametrize("ruleset", ["sahrat", "classic"])
@pytest.mark.parametrize("seed", range(4))
def test_policy_plays_whole_deals_with_legal_commands_only(ruleset: str, seed: int) -> None:
    options = banakil.options_from(ruleset, target_score=1_000_000)
    rng = random.Random(seed)
    state = banakil.initial(options)
    kinds: set[type] = set()
    for _ in range(2):  # two deals: the second one is dealt without a cut
        state = _apply(state, 0, CommitSeed(secret=rng.randbytes(32).hex()))
        if needs_cut(state):  # PF-AMB-12 h: the seed window first, then the host cuts
            assert choose(_wire_view(state, state.host), options, rng) is None
            state = _apply(state, 0, CloseSeedWindow())
            cut = choose(_wire_view(state, state.host), options, rng)
            assert cut is not None
            state = _apply(state, state.host, cut)
        else:
            assert all(choose(_wire_view(state, s), options, rng) is None for s in (1, 2))
            state = _apply(state, 0, Deal())
        steps = 0
        while state.phase == "play":
            steps += 1
            assert steps < 5_000, "the deal does not end"
            for seat in range(1, 5):
                if seat != state.turn:
                    assert choose(_wire_view(state, seat), options, rng) is None
            command = choose(_wire_view(state, state.turn), options, rng)
            assert command is not None
            kinds.add(type(command))
            state = _apply(state, state.turn, command)  # decide raises on an illegal one
    assert {Draw, Discard, Meld} <= kinds
    assert state.deal == 2


def test_policy_melds_what_its_hand_holds() -> None:
    options = banakil.options_from("sahrat")
    view = ClientView(
        seat=2, phase="play", turn=2, drawn=True, hand=("5H#1", "6H#2", "7H#1", "KS#1", "9C#2")
    )
    command = choose(view, options, random.Random(0))
    assert command == Meld(cards=("5H#1", "6H#2", "7H#1"))


def test_policy_after_a_refusal_sends_a_plain_command() -> None:
    options = banakil.options_from("sahrat")
    hand = ("5H#1", "6H#2", "7H#1", "KS#1")
    view = ClientView(seat=2, phase="play", turn=2, drawn=True, hand=hand)
    assert choose(view, options, random.Random(0), safe=True) == Discard(card="5H#1")
    undrawn = ClientView(seat=2, phase="play", turn=2, drawn=False, hand=hand)
    assert choose(undrawn, options, random.Random(0), safe=True) == Draw()


def test_spectators_and_waiting_seats_send_nothing() -> None:
    options = banakil.options_from("sahrat")
    rng = random.Random(0)
    assert choose(ClientView(seat=None, phase="play", turn=1), options, rng) is None
    assert choose(ClientView(seat=3, phase="seeding", hand=()), options, rng) is None
    waiting = ClientView(seat=3, phase="play", turn=1, drawn=True, hand=("5H#1",))
    assert choose(waiting, options, rng) is None


def test_the_bench_client_reads_a_view_message_and_chooses_through_the_registry() -> None:
    client = Client("banakil", "classic", {"target_score": 1_000_000})
    assert client.seats == 4
    assert client.options == banakil.options_from("classic", target_score=1_000_000)
    hand = ["5H#1", "6H#2", "7H#1", "KS#1", "9C#2"]
    view = {"seat": 2, "phase": "play", "turn": 2, "drawn": True, "hand": hand, "ruleset": "x"}
    message = client.decode(msgspec.json.encode({"type": "view", "version": 7, "view": view}))
    assert (message.type, message.version, message.command_id) == ("view", 7, None)
    assert isinstance(message.view, ClientView)
    assert client.choose(message.view, random.Random(0)) == Meld(cards=tuple(hand[:3]))
    assert client.choose(message.view, random.Random(0), safe=True) == Discard(card="5H#1")


def test_registers_the_service_bench_under_sahra_bench() -> None:
    import argparse

    from services.bench.service import register_bench

    parser = argparse.ArgumentParser()
    which = parser.add_subparsers(dest="bench", required=True)
    register_bench(which)
    args = parser.parse_args(["service", "--tables", "1,10", "--seconds", "3"])
    assert args.tables == [1, 10]
    assert args.seconds == 3.0
    assert (args.game, args.ruleset) == ("banakil", "sahrat")
    assert args.options == {"target_score": 1_000_000}  # the match never ends
    assert callable(args.run)
    with pytest.raises(SystemExit):
        parser.parse_args(["service", "--tables", "0"])
