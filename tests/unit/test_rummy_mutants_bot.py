"""The rummy bot (engine/rummy/bot.py): when it draws, passes or plays, how it grows its
move card by card, its first play in Vatican, its exact search up to 40 table cards, and
its knock in Carousel.

Written against the survivors of mutation testing (scripts/mutate.sh, docs/testing.md):
the bot's unit tests played on large tables only, one card at a time, and never knocked,
passed, named a joker, met a Vatican seat before its first play or a further move that
breaks the move as a whole (those two by a stand-in search, `_grown`).

Rules: PF-BOT-4, RM-MOVE-1, RM-MOVE-5, RM-MOVE-7, RM-BLOCK-1, RM-JOKER-1, RM-JOKER-2,
RM-JOKER-3, RM-VAT-4, RM-VAT-5, RM-AMB-10, RM-AMB-11, RM-CAR-8, RM-CAR-11, RM-CAR-18,
RM-AMB-16, RM-EX-12, RM-AMB-5.
"""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from engine.rummy import bot
from engine.rummy.messages import Draw, Pass, Play
from engine.rummy.rules import decide
from engine.rummy.search import Move
from engine.rummy.state import State
from engine.rummy.variants import VARIANTS
from engine.rummy.view import view
from tests.unit.rummy_support import cards, playing, table, trusting

# 26 cards no heart joins: two whole runs of another suit
_FAR = "AC 2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC | AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS"


def _choose(state: State, seat: int = 1) -> object:
    return bot.choose(view(state, seat), state.options)


def _accepted(state: State, command: object, seat: int = 1) -> Play:
    assert isinstance(command, Play)
    decide(state, seat, command)  # raises if refused (PF-BOT-4)
    return command


# --- draw, pass, play -------------------------------------------------------------------


def test_with_no_move_on_an_empty_stock_the_bot_passes() -> None:
    """RM-BLOCK-1: with nothing to play and nothing left to draw, the bot passes."""
    state = playing("machiavelli", ["KH", "3D 9D"], on_table="5C 6C 7C")
    assert _choose(state) == Pass()


def test_before_its_first_carousel_draw_the_bot_draws_though_it_could_play() -> None:
    """RM-CAR-8: a Carousel turn starts with a draw, so the bot draws even with a set in
    hand; after the draw it lays it."""
    state = playing("carousel", ["7S 7H 7D AC 4D", "3D 9D"], stock="9C 9H 2S 3S")
    assert _choose(state) == Draw()
    _accepted(replace(state, drawn=1), _choose(replace(state, drawn=1)))


def test_a_view_without_the_seats_hand_gets_the_fallback() -> None:
    """PF-BOT-4: the bot plays from the hand its view shows; a view without it (as a
    spectator's) is answered with the command the rules always accept, the draw."""
    state = playing("machiavelli", ["7S 7H 7D 2C", "3D 4D"], stock="9C 9D")
    assert bot.choose(replace(view(state, 1), hand=None), state.options) == Draw()


# --- the move, grown card by card -------------------------------------------------------


def test_the_bot_lays_every_card_it_finds_moves_for_in_one_move() -> None:
    """RM-MOVE-1, RM-MOVE-5: the 8C joins the run, then the set of sevens is laid: one
    move adding both, accepted as one."""
    state = playing("machiavelli", ["7S 7H 7D 8C", "3D 9D"], stock="9C 9H", on_table="5C 6C 7C")
    command = _accepted(state, _choose(state))
    assert set(command.added) == set(cards("7S 7H 7D 8C"))
    assert sorted(map(sorted, command.table)) == sorted(
        map(sorted, table("5C 6C 7C 8C | 7S 7H 7D"))
    )


def test_a_later_card_that_needs_a_run_split_is_added_to_the_move_too() -> None:
    """RM-MOVE-1: after the 10C joins the run, the 7H and 7D play only by taking the 7C out
    of the middle of it (4C 5C 6C | 7C 7H 7D | 8C 9C 10C): the bot's move holds all three."""
    state = playing(
        "machiavelli", ["10C 7H 7D", "3D 9D"], stock="9C 9H", on_table="4C 5C 6C 7C 8C 9C"
    )
    command = _accepted(state, _choose(state))
    assert set(command.added) == set(cards("10C 7H 7D"))
    assert sorted(map(sorted, command.table)) == sorted(
        map(sorted, table("4C 5C 6C | 7C 7H 7D | 8C 9C 10C"))
    )


def test_a_hand_played_out_is_one_move() -> None:
    """RM-MOVE-7: when the first move lays the whole hand there is nothing more to add."""
    state = playing("machiavelli", ["7S 7H 7D", "3D 9D"], stock="9C 9H")
    command = _accepted(state, _choose(state))
    assert command.added == cards("7D 7H 7S")


def test_a_named_joker_keeps_its_name_in_the_bots_command() -> None:
    """RM-JOKER-1, RM-JOKER-2: 5H 6H and the joker fit as 4H or 7H, so the move must name
    it; the bot's command names it and the rules accept it."""
    state = playing("carousel", ["5H 6H JK1 9S", "3D 9D"], stock="9C 9H 2S 3S", drawn=1)
    command = _accepted(state, _choose(state))
    assert command.names.get("JK#1") in ("4H", "7H")


def test_a_move_grown_around_a_named_joker_on_the_table_is_still_one_legal_move() -> None:
    """RM-JOKER-3, RM-MOVE-5: with 5H JK(6H) 7H on the table, the bot lays 7C 7D 7S and
    then adds the 8H to the joker's run: the whole is checked against the table as it
    was, the joker still 6H, and accepted (a knock too: 2 points left, RM-CAR-11)."""
    state = playing(
        "carousel",
        ["7C 7D 7S 8H 2C", "3D 9D"],
        stock="9C 9H 2S 3S",
        drawn=1,
        on_table="5H JK1 7H",
        names={"JK1": "6H"},
    )
    command = _accepted(state, _choose(state))
    assert set(command.added) == set(cards("7C 7D 7S 8H"))
    assert command.names == {"JK#1": "6H"} and command.knock is True


def _grown(
    monkeypatch: pytest.MonkeyPatch, first: Move, then: Move, **given: object
) -> Move | None:
    """greedy_move when the first move found is `first` and the one further move found
    on its table is `then` (nothing after it): what the bot keeps of the two."""
    later = iter([then])
    monkeypatch.setattr(bot, "find_move", lambda *args, **kw: first)
    monkeypatch.setattr(bot, "_plain_move", lambda *args: next(later, None))
    monkeypatch.setattr(bot, "local_move", lambda *args: None)
    return bot.greedy_move(variant=VARIANTS["vatican"], **given)  # type: ignore[arg-type]


def test_a_further_move_that_breaks_the_whole_is_left_out(monkeypatch: pytest.MonkeyPatch) -> None:
    """RM-VAT-4, RM-AMB-10, RM-MOVE-5: each further move is legal on the table the one
    before it made, but the bot sends one move from the table as it was. 5C JK(6C) 7C:
    the first move puts the 7C#2 beside the joker (the 7C joins 7H 7D), the next takes
    the 5C away; from the first table the joker then kept neither 5C nor 7C#1 beside it,
    so the whole is refused and the bot keeps the first move alone."""
    names = {"JK#1": "6C"}
    first = Move(
        table=table("5C JK1 7C#2 | 7C 7H 7D"),
        names=(("JK#1", "6C"),),
        added=cards("7C#2 7H 7D"),
    )
    then = Move(
        table=table("JK1 7C#2 8C | 7C 7H 7D | 5C 5H 5D"),
        names=(("JK#1", "6C"),),
        added=cards("8C 5H 5D"),
    )
    hand = cards("7C#2 7H 7D 5H 5D 8C")
    kept = _grown(
        monkeypatch,
        first,
        then,
        table=table("5C JK1 7C"),
        names=names,
        hand=hand,
        first_play=False,
    )
    assert kept == first


def test_a_further_move_that_undoes_the_vatican_first_run_is_left_out(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """RM-VAT-5, RM-AMB-11: the first play lays 5H 6H 7H from the hand; a further move
    putting the joker in the 6H's place (the 6H into 6S 6D) is legal on that table, but
    the whole first play then lays no natural run of three: the bot keeps the run."""
    first = Move(table=table("5H 6H 7H"), names=(), added=cards("5H 6H 7H"))
    then = Move(
        table=table("5H JK1 7H | 6H 6S 6D"),
        names=(("JK#1", "6H"),),
        added=cards("JK1 6S 6D"),
    )
    hand = cards("5H 6H 7H JK1 6S 6D")
    kept = _grown(monkeypatch, first, then, table=(), names={}, hand=hand, first_play=True)
    assert kept == first


def test_up_to_forty_table_cards_the_bot_finds_a_move_changing_three_groups() -> None:
    """RM-MOVE-1: on a table of exactly 40 cards the bot still searches the whole table:
    the QH plays only by taking QC KC and QS KS off two runs and the KD off a third
    (QC QS QH, KC KS KD), which no move on one or two groups does."""
    on_table = f"{_FAR} | 9D 10D JD QD KD | 3H 4H 5H 6H 7H | 5C#2 5S#2 5D#2 5H#2"
    state = playing("machiavelli", ["QH", "2C#2"], stock="9D#2", on_table=on_table)
    assert sum(map(len, state.table)) == bot._EXACT_UP_TO
    command = _accepted(state, _choose(state))
    assert command.added == cards("QH")


def test_the_move_that_rearranges_nothing_is_for_the_first_card_that_has_one() -> None:
    """RM-AMB-5's hand order (suit by suit, diamonds before hearts): neither copy of the
    2D joins anything whole, nor does the 9S (its run holds one), the 8H joins the heart
    run, laid at its end, nothing else on the table moving."""
    on_table = table(f"{_FAR} | 3H 4H 5H 6H 7H")
    for variant in ("machiavelli", "vatican"):
        move = bot._plain_move(on_table, {}, cards("2D 2D#2 8H 9S#2"), VARIANTS[variant])
        assert move == Move(
            table=(*on_table[:2], (*on_table[2], "8H#1")), names=(), added=("8H#1",)
        )
    assert bot._plain_move(on_table, {}, cards("2D 2D#2 9S#2"), VARIANTS["machiavelli"]) is None


# --- Vatican's first play (RM-VAT-5) ----------------------------------------------------


@pytest.mark.parametrize("on_table", ["5H 6H 7H", f"{_FAR} | 3H 4H 5H 6H 7H"])
def test_before_its_first_play_the_vatican_bot_does_not_lay_off_a_card(on_table: str) -> None:
    """RM-VAT-5, RM-AMB-11: before its first play a seat must lay a natural run of three
    from its hand; without one the bot draws, though its 8H would join the heart run,
    on a small table as on a large one. Its own first play decides, not the other
    seat's."""
    state = playing(
        "vatican", ["8H 2D 9S", "3D 9D"], stock="9C 9H", on_table=on_table, opened=(False, True)
    )
    assert _choose(state) == Draw()
    opened = replace(state, opened=(True, False))
    assert _accepted(opened, _choose(opened)).added == cards("8H")


# --- the knock (RM-CAR-11, RM-AMB-16) ---------------------------------------------------


def _carousel(hand: str, *, drawn: int, final_last: int = 0) -> State:
    """Seat 1 of two on turn; the final turns come after the stock's last card."""
    stock = "" if final_last else "9C 9H 2S 3S"
    return playing("carousel", [hand, "3D 9D"], stock=stock, drawn=drawn, final_last=final_last)


@pytest.mark.parametrize("drawn", [1, 2])
def test_the_bot_knocks_after_its_first_or_second_draw_with_five_points_left(drawn: int) -> None:
    """RM-CAR-11, RM-EX-12: after laying 7S 7H 7D, A and 4 are left: 1 + 4 = 5 points,
    exactly the most a knock allows; the bot knocks and the rules accept it."""
    state = _carousel("7S 7H 7D AC 4D", drawn=drawn)
    command = _accepted(state, _choose(state))
    assert command.added == cards("7D 7H 7S") and command.knock is True


def test_the_bot_does_not_knock_with_six_points_left() -> None:
    """RM-EX-12: A and 5 left are 6 points: no knock."""
    state = _carousel("7S 7H 7D AC 5D", drawn=1)
    assert _accepted(state, _choose(state)).knock is False


def test_the_bot_does_not_knock_when_its_move_empties_its_hand() -> None:
    """RM-AMB-16 (c): an empty hand is the +25 win, not a knock."""
    state = _carousel("7S 7H 7D", drawn=1)
    assert _accepted(state, _choose(state)).knock is False


def test_the_bot_does_not_knock_in_the_final_turns() -> None:
    """RM-CAR-18: nobody knocks in the final turns (played without a draw)."""
    state = _carousel("7S 7H 7D AC 4D", drawn=0, final_last=2)
    assert _accepted(state, _choose(state)).knock is False


def test_only_carousel_has_the_knock() -> None:
    """RM-CAR-11: a Manipulation player with 5 points left after a play made after a
    draw does not knock."""
    state = playing(
        "manipulation",
        ["7S 7H 7D 2C 3D", "3D#2 9D"],
        stock="9C 9H",
        drawn=1,
        **trusting("manipulation"),
    )
    assert _accepted(state, _choose(state)).knock is False
