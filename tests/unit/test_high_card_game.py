"""The game seam is complete at the engine level: "high card", a game that lives only in
tests/games/, is registered by the test and played to the end through nothing but the
registry's object — options, initial, decide/evolve, views that hide the others' cards,
legal commands, a turn that times out into the automatic draw, the bot, the summary, and
its record replayed and verified from the revealed secret."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec
import pytest

from engine import fair, protocol
from engine.errors import RuleViolation
from tests.games import high_card

_ROOT = Path(__file__).resolve().parents[2]
_SECRET = "c0ffee" + "00" * 29


@pytest.fixture(scope="module")
def game() -> protocol.Game:
    protocol.register(high_card.GAME)
    return protocol.get("high_card")


class _Table:
    """A table of the game, folded as the platform folds one: every command through the
    game's `decide`, every event through its `evolve`, and a log of both."""

    def __init__(self, game: protocol.Game, options: Any) -> None:
        game.validate(options)
        self.game = game
        self.state = game.initial(options, 1)
        self.commands: list[tuple[int, Any]] = []
        self.events: list[Any] = []

    def send(self, seat: int, command: Any) -> tuple[Any, ...]:
        events = self.game.decide(self.state, seat, command)
        for event in events:
            self.state = self.game.evolve(self.state, event)
        self.commands.append((seat, command))
        self.events.extend(events)
        return events

    def record(self) -> bytes:
        """The round's deal record, as a verifier would read it from the store: the
        commitment's secret blanked, the revealed one beside it."""
        public = [self.game.redact(e, None) if i == 0 else e for i, e in enumerate(self.events)]
        return msgspec.json.encode(
            {
                "game": self.game.name,
                "options": self.game.records.options_of(self.state.options),
                "secret": self.game.summary(self.state).secret,
                "commands": self.commands[1:],  # after the commitment, like every record
                "events": public,
            }
        )


def _played(game: protocol.Game) -> _Table:
    """Three seats: seat 1's bot draws, seat 2 lets its 10 s run out, seat 3's bot draws."""
    table = _Table(game, game.options_from(None, seats=3))
    assert game.unit.needs_secret(table.state)
    table.send(0, game.unit.commit(_SECRET))
    while game.awaiting(table.state):
        (seat,) = game.awaiting(table.state)
        timer = game.timer(table.state)
        assert timer is not None and timer.seat == seat
        if seat == 2:
            table.send(0, timer.command)
        else:
            table.send(*game.bot(table.state, seat))
    return table


def test_a_round_is_played_to_the_end_through_the_registry(game: protocol.Game) -> None:
    table = _played(game)
    begins = [n for e in table.events if (n := game.unit.begins(e)) is not None]
    ends = [n for e in table.events if (n := game.unit.ends(e)) is not None]
    assert begins == ends == [1]
    draws = [e for e in table.events if isinstance(e, high_card.CardDrawn)]
    assert [(e.seat, e.automatic) for e in draws] == [(1, False), (2, True), (3, False)]
    deck = fair.shuffle(high_card._DECK, bytes.fromhex(_SECRET), "deal", fair.entropy([]))
    summary = game.summary(table.state)
    assert summary is not None
    assert summary.cards == deck[:3]  # one draw each, in seat order, from the committed shuffle
    best = max(deck[:3], key=high_card._ORDER.__getitem__)
    assert summary.winner == deck.index(best) + 1
    assert summary.secret == _SECRET
    assert game.timer(table.state) is None and game.legal(table.state, 0) == ()
    assert game.view(table.state, 1).cards == deck[:3]  # the round is over: all shown


def test_the_timer_is_ten_seconds_then_the_system_draws_for_the_seat(game: protocol.Game) -> None:
    table = _Table(game, game.options_from())
    table.send(0, game.unit.commit(_SECRET))
    timer = game.timer(table.state)
    assert timer == protocol.Timer(
        seat=1,
        seconds=10.0,
        command=high_card.Timeout(turn=1),
        command_id="timeout:1:1",
        kind="turn",
    )
    (drawn,) = table.send(0, timer.command)
    assert drawn == high_card.CardDrawn(seat=1, card=table.state.cards[0], automatic=True)
    with pytest.raises(RuleViolation, match="stale_timeout"):
        game.decide(table.state, 0, timer.command)  # that turn is over


def test_a_seat_sees_its_own_card_and_never_the_others_before_the_end(
    game: protocol.Game,
) -> None:
    table = _Table(game, game.options_from(None, seats=4))
    table.send(0, game.unit.commit(_SECRET))
    table.send(*game.bot(table.state, 1))
    table.send(*game.bot(table.state, 2))
    mine = game.view(table.state, 2)
    assert mine.cards == (high_card.HIDDEN, table.state.cards[1])
    assert game.view(table.state, None).cards == (high_card.HIDDEN,) * 2
    assert game.view(table.state, 3).legal == ("Draw",) and mine.legal == ()
    assert "secret" not in msgspec.json.encode(mine).decode()
    assert [game.redact(e, 3) for e in table.events[1:]] == [
        high_card.CardDrawn(seat=1, card=high_card.HIDDEN),
        high_card.CardDrawn(seat=2, card=high_card.HIDDEN),
    ]
    assert game.redact(table.events[0], 1).secret == ""
    with pytest.raises(RuleViolation, match="not_now"):
        game.decide(table.state, 4, high_card.Draw())  # seat 3's turn


def test_the_record_replays_and_verifies_and_a_changed_card_fails(game: protocol.Game) -> None:
    table = _played(game)
    record = game.records.decode(table.record())
    assert game.records.replay(record) == game.summary(table.state)
    verdict = game.records.verify(record)
    assert verdict.passed, verdict.detail
    other = "DS" if record.events[1].card != "DS" else "AC"
    forged = msgspec.structs.replace(
        record,
        events=(
            record.events[0],
            msgspec.structs.replace(record.events[1], card=other),
            *record.events[2:],
        ),
    )
    assert game.records.verify(forged) == high_card.Verdict(
        passed=False, detail="event 1 differs from the re-derived one"
    )
    wrong_secret = msgspec.structs.replace(record, secret="11" * 32)
    assert not game.records.verify(wrong_secret).passed


def test_the_games_options_and_seats_are_its_own(game: protocol.Game) -> None:
    assert game.seat_counts == (2, 3, 4, 5)
    assert game.teams(game.options_from(None, seats=3)) == ((1,), (2,), (3,))
    assert game.presets == {"standard": high_card.HighCardOptions()}
    with pytest.raises(RuleViolation, match="turn_seconds must be between 5 and 60 seconds"):
        game.options_from(None, turn_seconds=1)
    with pytest.raises(RuleViolation, match="bad_option"):
        game.options_from(None, jokers=2)
    assert game.hints is None


def test_no_line_of_the_test_game_is_in_the_engine_or_the_services() -> None:
    for package in ("engine", "services"):
        for path in (_ROOT / package).rglob("*.py"):
            assert "high_card" not in path.read_text(encoding="utf-8"), path
