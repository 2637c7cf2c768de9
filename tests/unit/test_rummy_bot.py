"""The rummy bot (engine/rummy/bot.py): from its seat's view only, a move the rules accept,
found without the exact search of a whole large table.

Rules: RM-MOVE-1, RM-MOVE-3, RM-MOVE-5, RM-GRP-3, RM-TAH-3, PF-BOT-4.
"""

from __future__ import annotations

import pytest

from engine.rummy import bot
from engine.rummy.messages import Draw, Play
from engine.rummy.rules import decide
from engine.rummy.state import State
from engine.rummy.view import view
from tests.unit.rummy_support import cards, playing

# 39 cards that a heart can join nowhere: three whole runs of another suit
_FAR = "AC 2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC | AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS"
_FAR += " | AD 2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD"


def _large(variant: str, extra: str = "") -> State:
    """More than 40 cards on the table; the hand's 5H#2 joins no group whole, and its QH
    plays only in a move changing three groups (QC and QS out of their runs with their
    kings, which need the KD for a set)."""
    on_table = f"{_FAR} | 3H 4H 5H 6H 7H{extra}"
    return playing(variant, ["5H#2 QH", "2C#2"], stock="9D#2", on_table=on_table)


@pytest.mark.parametrize("variant", ["machiavelli", "guadeloupe"])
def test_on_a_large_table_the_bot_rebuilds_one_or_two_groups_to_play(variant: str) -> None:
    """RM-MOVE-1, RM-MOVE-3, RM-GRP-3: no card joins a group whole, yet 5H#2 plays by
    splitting 3H..7H in two (or by taking 5C and 5S out of their runs); the bot finds
    such a move (the exact search on those groups alone) and the rules accept it. The QH,
    which needs three groups changed, is beyond it on a table this large."""
    state = _large(variant)
    assert sum(map(len, state.table)) > bot._EXACT_UP_TO
    command = bot.choose(view(state, 1), state.options)
    assert isinstance(command, Play)
    assert command.added == cards("5H#2")
    decide(state, 1, command)  # raises if refused


def test_a_tahiti_joker_singleton_on_a_large_table_is_read_as_near() -> None:
    """RM-TAH-3: a joker lying alone has no name yet; the bot still plays, and legally."""
    state = _large("tahiti", " | JK1")
    command = bot.choose(view(state, 1), state.options)
    assert isinstance(command, Play)
    decide(state, 1, command)


def test_without_any_move_the_bot_draws() -> None:
    """RM-MOVE-1: with no move at all (the exact search of a small table says so), the
    bot's command is its fallback, the draw."""
    state = playing("machiavelli", ["KH", "2C#2"], stock="9D#2", on_table="3H 4H 5H | 9C 9S 9D")
    assert bot.choose(view(state, 1), state.options) == Draw()
