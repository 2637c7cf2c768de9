"""Rummy as the platform sees it (engine/rummy/game.py): the bot's move and its safety net,
the scripted client, the end-of-round summary, the hint's first play and a new table's
host.

Written against the survivors of mutation testing (scripts/mutate.sh, docs/testing.md):
no test in the selection asked the registered game for a bot's move (`GAME.bot`), asked
the registered players for a client's command, read the summary between rounds, asked
a Vatican hint before the seat's first play, or opened a table hosted by another seat
than seat 1.

Rules: PF-BOT-4, PF-HINT-3, PF-FAIR-3, RM-VAT-5, RM-AMB-11, RM-MAN-6, RM-CORE-3, RM-AMB-22.
"""

from __future__ import annotations

import random

import pytest
from msgspec.structs import replace

from engine import players
from engine.rummy import bot
from engine.rummy.game import GAME, initial
from engine.rummy.messages import Draw, Pass, Play
from engine.rummy.options import options_from
from engine.rummy.rules import decide
from engine.rummy.state import RoundResult, State
from engine.rummy.view import view
from tests.unit.rummy_support import cards, playing

_RESULT = RoundResult(
    round=1,
    how="out",
    hands=((), ("3D#1", "4D#1")),
    points=(0, 10),
    totals=(0, 10),
    winners=(1,),
    game_over=False,
    game_winners=(),
    final=(),
    secret="5e" * 32,
)


def _a_play_in_hand() -> State:
    """Machiavelli: seat 1 can lay 7S 7H 7D from its hand; the stock is not empty."""
    return playing("machiavelli", ["7S 7H 7D 2C", "3D 4D"], stock="9C 9D", on_table="4C 5C 6C")


# --- the bot (PF-BOT-4) -----------------------------------------------------------------


def test_the_bots_move_is_its_own_choice_from_its_seats_view_when_the_rules_accept_it() -> None:
    """PF-BOT-4: the bot's command for the seat on turn is the one it chooses from that
    seat's own view, sent by the seat itself, and the rules accept it."""
    state = _a_play_in_hand()
    seat, command = GAME.bot(state, 1)
    assert seat == 1
    assert command == bot.choose(view(state, 1), state.options)
    assert isinstance(command, Play) and set(command.added) >= set(cards("7S 7H 7D"))
    decide(state, 1, command)  # raises if refused


def test_a_refused_bot_choice_is_replaced_by_its_fallback_the_clocks_draw(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """PF-BOT-4: a bot makes only legal moves: when the rules refuse its choice (here a
    Pass while the stock still holds cards, RM-AMB-27), the bot sends its fallback
    instead, the draw the clock would make, which the rules accept."""
    state = _a_play_in_hand()
    monkeypatch.setattr(bot, "choose", lambda seen, options: Pass())
    seat, command = GAME.bot(state, 1)
    assert (seat, command) == (1, Draw())
    decide(state, 1, command)


# --- the scripted client ----------------------------------------------------------------


def _client(state: State, seat: int | None, *, safe: bool) -> object:
    rummy = players.get("rummy")
    return rummy.client(view(state, seat), state.options, random.Random(1), safe)


def test_the_scripted_client_plays_the_bots_move_on_its_turn_and_its_fallback_when_safe() -> None:
    """PF-BOT-4: a client on its turn sends the bot's move; after a refusal (`safe`) the
    plainest command the rules accept, the draw."""
    state = _a_play_in_hand()
    chosen = _client(state, 1, safe=False)
    assert chosen == bot.choose(view(state, 1), state.options)
    assert isinstance(chosen, Play)
    assert _client(state, 1, safe=True) == Draw()


def test_the_scripted_client_sends_nothing_off_its_turn_out_of_play_or_as_a_spectator() -> None:
    """A client acts only for its own seat, on its turn, while a round is in play."""
    state = _a_play_in_hand()
    assert _client(state, 2, safe=False) is None  # not its turn
    assert _client(state, 2, safe=True) is None
    assert _client(state, None, safe=False) is None  # a spectator
    for phase in ("seeding", "seeded", "over"):
        assert _client(replace(state, phase=phase), 1, safe=False) is None  # turn is 1


# --- the summary between rounds ---------------------------------------------------------


@pytest.mark.parametrize("phase", ["seeding", "seeded", "over"])
def test_the_last_rounds_result_is_the_summary_between_rounds_and_after_the_game(
    phase: str,
) -> None:
    """RM-MAN-6, PF-FAIR-3: once a round ends its result (points, totals, winners, the
    revealed secret) is the table's summary until the next round is dealt, and after
    the game ends."""
    state = replace(_a_play_in_hand(), phase=phase, result=_RESULT)
    assert GAME.summary(state) == _RESULT


def test_no_summary_is_shown_while_a_round_is_played() -> None:
    """During a round the previous round's result is not the summary (its hands are not
    the hands in play)."""
    state = replace(_a_play_in_hand(), result=_RESULT)
    assert GAME.summary(state) is None


# --- the hint (PF-HINT-3) ---------------------------------------------------------------


def test_no_hint_is_given_when_no_round_is_in_play_even_to_the_seat_last_on_turn() -> None:
    """PF-HINT-3: a hint is for the seat on turn of a round in play; after the round (or
    before the next deal) nobody is on turn, whatever seat the state last named."""
    state = _a_play_in_hand()
    assert GAME.hints is not None
    assert GAME.hints(state, 1) is not None
    for phase in ("seeding", "seeded", "over"):
        assert GAME.hints(replace(state, phase=phase), 1) is None


def _vatican(opened: tuple[bool, bool], turn: int) -> State:
    """Vatican: the seat on turn holds 7C, which joins the run 4C 5C 6C, and no natural
    run of three (RM-VAT-5); the other seat's first play is `opened`'s other entry."""
    hands = ["7C 9H KS", "7C#2 9H#2 KS#2"]
    return playing("vatican", hands, stock="2D 3D", on_table="4C 5C 6C", opened=opened, turn=turn)


@pytest.mark.parametrize("seat", [1, 2])
def test_before_its_first_play_a_vatican_seat_is_hinted_only_a_first_play(seat: int) -> None:
    """RM-VAT-5, RM-AMB-11, PF-HINT-3: before its first play a seat must lay a natural
    run of three from its hand, so a hand without one is hinted nothing, though its 7C
    would join the table's run; the other seat, having played, is hinted the 7C. The
    seat's own first play decides, not its neighbour's."""
    assert GAME.hints is not None
    unopened = tuple(s != seat for s in (1, 2))
    assert GAME.hints(_vatican((unopened[0], unopened[1]), seat), seat) is None
    opened = tuple(s == seat for s in (1, 2))
    shown = GAME.hints(_vatican((opened[0], opened[1]), seat), seat)
    assert shown is not None and shown.card.startswith("7C")


# --- a new table ------------------------------------------------------------------------


def test_a_new_table_is_hosted_by_the_seat_that_opened_it() -> None:
    """RM-CORE-3, RM-AMB-22: the inviting player is the host (who may stop a Shanghai
    game); a new table waits for its first round's secret."""
    options = options_from("shanghai", seats=3)
    assert GAME.initial(options, 3).host == 3
    assert initial(options).host == 1
    assert GAME.initial(options, 2).phase == "seeding"
