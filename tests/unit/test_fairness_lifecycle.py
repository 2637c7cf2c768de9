"""The fairness lifecycle of a unit (commit → client seeds → draws → reveal) is the table's,
once for every game (engine/fairness.py, PF-FAIR-1..3, PF-AMB-12 h): the table decides the
commitment, the seats' seeds and the window's close from the game's `unit.lifecycle`,
folds their events into the game's state, and reveals the secret right after the event
that ends the unit. Banakil's stored events keep their bytes."""

from __future__ import annotations

import msgspec
import pytest

from engine import fair, fairness, protocol, table
from engine.banakil import messages as banakil
from engine.banakil import options_from
from engine.errors import RuleViolation
from engine.table import CreateTable, StartTable, TableState, TakeSeat
from tests.games import high_card

_SECRET = "cd" * 32
_SYSTEM = 0


@pytest.fixture(scope="module", autouse=True)
def _hosted() -> None:
    protocol.register(high_card.GAME)


def _send(state: TableState, seat: int, command: object) -> tuple[TableState, tuple[object, ...]]:
    events = table.decide(state, seat, command)
    for event in events:
        state = table.evolve(state, event)
    return state, events


def _reject(state: TableState, seat: int, command: object) -> str:
    with pytest.raises(RuleViolation) as info:
        table.decide(state, seat, command)
    return info.value.code


def _high_card(seats: int = 2) -> TableState:
    create = CreateTable(options=high_card.HighCardOptions(seats=seats), seats=("human",) * seats)  # type: ignore[arg-type]
    state, _ = _send(table.new_table("hc"), _SYSTEM, create)
    for seat in range(1, seats + 1):
        state, _ = _send(state, _SYSTEM, TakeSeat(seat=seat, player=f"p{seat}"))
    return _send(state, 1, StartTable())[0]


def _banakil() -> TableState:
    options = options_from("sahrat", bots_allowed=False)
    create = CreateTable(options=options, seats=("human",) * 4)
    state, _ = _send(table.new_table("bk"), _SYSTEM, create)
    for seat in range(1, 5):
        state, _ = _send(state, _SYSTEM, TakeSeat(seat=seat, player=f"p{seat}"))
    return _send(state, 1, StartTable())[0]


def test_the_table_commits_a_units_secret_for_a_game_whose_rules_know_no_commitment() -> None:
    state = _high_card()
    with pytest.raises(RuleViolation):  # the game's own rules take no CommitSeed ...
        high_card.GAME.rules(state.game_state, _SYSTEM, fairness.CommitSeed(secret=_SECRET))
    state, (committed,) = _send(
        state, _SYSTEM, fairness.CommitSeed(secret=_SECRET)
    )  # ... the table does
    assert committed == fairness.SeedCommitted(
        deal=1,
        commitment=fair.commitment(bytes.fromhex(_SECRET)),
        algorithm=fair.ALGORITHM,
        secret=_SECRET,
    )
    assert state.game_state.secret == _SECRET  # folded into the game's state, for its draws
    assert _reject(state, _SYSTEM, fairness.CommitSeed(secret=_SECRET)) == "wrong_phase"


def test_only_the_system_commits_and_a_seed_window_a_game_never_opens_takes_no_seed() -> None:
    state = _high_card()
    assert _reject(state, 1, fairness.CommitSeed(secret=_SECRET)) == "system_only"
    state, _ = _send(state, _SYSTEM, fairness.CommitSeed(secret=_SECRET))
    assert _reject(state, 1, fairness.SendClientSeed(seed="x")) == "seed_window_closed"
    assert _reject(state, _SYSTEM, fairness.CloseSeedWindow()) == "wrong_phase"


def test_the_table_reveals_the_secret_right_after_the_event_that_ends_the_unit() -> None:
    state = _high_card()
    state, _ = _send(state, _SYSTEM, fairness.CommitSeed(secret=_SECRET))
    state, _ = _send(state, 1, high_card.Draw())
    drawn = high_card.GAME.rules(state.game_state, 2, high_card.Draw())
    assert [type(e).__name__ for e in drawn] == ["CardDrawn", "RoundWon"]  # the game's part
    state, events = _send(state, 2, high_card.Draw())
    assert events == (*drawn, fairness.SeedRevealed(deal=1, secret=_SECRET))
    assert state.status == "finished"


def test_a_banakil_deals_window_takes_one_seed_per_seat_at_the_table() -> None:
    state = _banakil()
    state, _ = _send(state, _SYSTEM, banakil.CommitSeed(secret=_SECRET))
    state, (sent,) = _send(state, 2, banakil.SendClientSeed(seed="hello"))
    assert sent == fairness.ClientSeedSent(seat=2, seed="hello")
    assert state.game_state.client_seeds == ("", "hello", "", "")  # the deal reads E here
    assert _reject(state, 2, banakil.SendClientSeed(seed="again")) == "seed_already_sent"
    assert _reject(state, 3, banakil.SendClientSeed(seed="\x00")) == "bad_client_seed"
    assert _reject(state, _SYSTEM, banakil.SendClientSeed(seed="x")) == "not_a_seat"


def test_banakils_lifecycle_messages_are_the_tables_and_keep_their_stored_shape() -> None:
    assert (banakil.CommitSeed, banakil.SeedCommitted, banakil.SeedRevealed) == (
        fairness.CommitSeed,
        fairness.SeedCommitted,
        fairness.SeedRevealed,
    )
    event = fairness.SeedCommitted(deal=3, commitment="c", algorithm="a", secret="s")
    assert msgspec.json.encode(event) == (
        b'{"type":"SeedCommitted","deal":3,"commitment":"c","algorithm":"a","secret":"s"}'
    )
    assert msgspec.json.encode(fairness.SeedRevealed(deal=3, secret="s")) == (
        b'{"type":"SeedRevealed","deal":3,"secret":"s"}'
    )
