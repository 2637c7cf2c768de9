"""Every refusal of a rummy group, table or command says what is wrong, in words a player
reads (the client shows `message` as it is): the code, the rule ID and the exact text.

Written against the survivors of mutation testing (scripts/mutate.sh, docs/testing.md):
before it, a refusal's text could change to anything and no test noticed. Each case is a
rule the refusal enforces; the case's name says which.

Rules: RM-GRP-1..4, RM-ACE-1, RM-ACE-2, RM-MOVE-1, RM-MOVE-5, RM-JOKER-1, RM-CORE-2,
RM-TAH-7, RM-CORE-7, RM-CAR-8, RM-CAR-11, RM-CAR-18, RM-BLOCK-1, RM-AMB-27, RM-OPT-3a,
RM-OPT-3b, RM-SHA-5, RM-AMB-22, PF-FAIR-1, PF-TIMER-8.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from msgspec.structs import replace

from engine.errors import RuleViolation
from engine.rummy.groups import TableViolation, check_group, check_table
from engine.rummy.messages import (
    Command,
    CommitSeed,
    Deal,
    Draw,
    GiveUp,
    Pass,
    Play,
    StopGame,
    Timeout,
    Touch,
)
from engine.rummy.options import options_from
from engine.rummy.rules import decide, rules
from engine.rummy.state import State
from engine.rummy.variants import CAROUSEL, MANIPULATION, SHANGHAI, TAHITI
from tests.unit.rummy_support import cards, playing, table

_SYSTEM = 0


def _caught(call: Callable[[], object]) -> tuple[str, str, str]:
    with pytest.raises(RuleViolation) as caught:
        call()
    return caught.value.code, caught.value.rule_id, caught.value.message


# --- groups (engine/rummy/groups.py) -------------------------------------------------------


@pytest.mark.parametrize(
    ("rule", "text", "variant", "refusal"),
    [
        (
            "RM-GRP-4",
            "7H 7H#2 7S",
            MANIPULATION,
            ("identical_cards", "RM-GRP-4", "two identical cards can never share a group"),
        ),
        (
            "RM-GRP-1",
            "5H 6D 7H",
            MANIPULATION,
            (
                "not_a_group",
                "RM-GRP-1",
                "a group is a set (one rank) or a run (one suit); these cards mix ranks and suits",
            ),
        ),
        (
            "RM-MOVE-5",
            "7H 7H 7S",
            MANIPULATION,
            ("duplicate_card", "RM-MOVE-5", "a card is listed twice in a group"),
        ),
        (
            "RM-ACE-1",
            "KH AH 2H",
            MANIPULATION,
            (
                "ace_round_the_corner",
                "RM-ACE-1",
                "a run never turns the corner from king to ace to 2",
            ),
        ),
        (
            "RM-GRP-3",
            "5H 6H 8H",
            MANIPULATION,
            ("run_gap", "RM-GRP-3", "a run's cards must follow each other"),
        ),
        (
            "RM-ACE-1",
            "AH 2H 3H",
            MANIPULATION,
            ("ace_misplaced", "RM-ACE-1", "in manipulation the ace ranks high only"),
        ),
        (
            "RM-ACE-2",
            "QH KH AH",
            SHANGHAI,
            ("ace_misplaced", "RM-ACE-2", "in shanghai the ace ranks low only"),
        ),
        (
            "RM-GRP-2",
            "7H 7S",
            MANIPULATION,
            ("group_too_short", "RM-GRP-2", "a group needs 3 cards or more, not 2"),
        ),
        (
            "RM-GRP-3",
            "7H 8H",
            MANIPULATION,
            ("group_too_short", "RM-GRP-3", "a group needs 3 cards or more, not 2"),
        ),
        (
            "RM-CORE-2",
            "JK1 7H 8H",
            MANIPULATION,
            ("no_jokers", "RM-CORE-2", "this variant allows at most 0 joker(s) a group"),
        ),
        (
            "RM-TAH-7",
            "JK1 JK2 7H",
            TAHITI,
            ("too_many_jokers", "RM-TAH-7", "this variant allows at most 1 joker(s) a group"),
        ),
    ],
)
def test_a_refused_group_says_which_rule_it_breaks_in_words(
    rule: str, text: str, variant: object, refusal: tuple[str, str, str]
) -> None:
    """RM-GRP-1..4, RM-ACE-1, RM-ACE-2, RM-MOVE-5, RM-CORE-2, RM-TAH-7: the code, the rule
    and the sentence of each refusal of a single group."""
    names = {"JK#1": "6H", "JK#2": "8H"}
    got = _caught(lambda: check_group(cards(text), variant, names))  # type: ignore[arg-type]
    assert got == refusal
    assert got[1] == rule


def test_a_card_of_no_rummy_deck_is_refused_with_no_rule_id() -> None:
    """RM-CORE-2: "ZZ#1" belongs to no deck; the refusal names no rule (it is not a rule
    a player can break by playing) and names the card."""
    assert _caught(lambda: check_group(("ZZ#1", "7H#1", "8H#1"), MANIPULATION)) == (
        "bad_card",
        "",
        "'ZZ#1' is not a card of a rummy deck",
    )


@pytest.mark.parametrize(
    ("names", "refusal"),
    [
        ({}, ("joker_unnamed", "RM-JOKER-2", "JK#1 must be named as the card it stands for")),
        ({"JK#1": "ZZ"}, ("bad_card", "RM-JOKER-1", "JK#1 named 'ZZ': not a card")),
    ],
)
def test_a_joker_in_a_group_needs_the_name_of_a_real_card(
    names: dict[str, str], refusal: tuple[str, str, str]
) -> None:
    """RM-JOKER-1, RM-JOKER-2: a joker counts as the card it was named; no name, or a name
    that is no card, is refused."""
    assert _caught(lambda: check_group(cards("JK1 7H 8H"), CAROUSEL, names)) == refusal


def test_a_move_that_adds_nothing_says_a_hand_card_is_needed() -> None:
    """RM-MOVE-1: the table rebuilt without a card from the hand; no group is at fault."""
    before = table("7H 8H 9H | 7S 7D 7C")
    with pytest.raises(TableViolation) as caught:
        check_table(table("7H 8H | 9H 7S 7D 7C"), before, cards("2C"), MANIPULATION)
    # The regrouping itself is wrong too, but "nothing added" is checked first.
    e = caught.value
    assert (e.code, e.rule_id, e.group) == ("no_card_added", "RM-MOVE-1", None)
    assert e.message == "a move must add at least one card from the hand"
    assert e.as_dict() == {
        "code": "no_card_added",
        "rule_id": "RM-MOVE-1",
        "message": "a move must add at least one card from the hand",
    }


def test_a_refused_table_names_the_wrong_group_in_its_dict() -> None:
    """RM-MOVE-5, RM-GRP-3: the wrong group's index travels with the refusal (the client
    marks that group), as the string "group" of the refusal's dict."""
    before = table("7H 8H 9H")
    with pytest.raises(TableViolation) as caught:
        check_table(table("7H 8H 9H | 2C 4C 5C"), before, cards("2C 4C 5C"), MANIPULATION)
    assert caught.value.as_dict() == {
        "code": "run_gap",
        "rule_id": "RM-GRP-3",
        "message": "group 2: a run's cards must follow each other",
        "group": "1",
    }


# --- commands (engine/rummy/rules.py) ------------------------------------------------------


def _machiavelli(**kw: object) -> State:
    return playing("machiavelli", ["7H 8H 9H 2C", "3D 4D"], stock="5S 6S", **kw)  # type: ignore[arg-type]


def _carousel(**kw: object) -> State:
    return playing("carousel", ["7H 8H 9H 2C", "3D 4D"], stock="5S 6S", **kw)  # type: ignore[arg-type]


_RUN = Play(table=table("7H 8H 9H"), added=cards("7H 8H 9H"))
_RUN_KNOCK = Play(table=table("7H 8H 9H"), added=cards("7H 8H 9H"), knock=True)
_ALL_KNOCK = Play(table=table("7H 8H 9H | 2C 3C 4C"), added=cards("7H 8H 9H 2C 3C 4C"), knock=True)


@pytest.mark.parametrize(
    ("name", "state", "seat", "command", "refusal"),
    [
        (
            "PF-FAIR-1 a seat deals",
            _machiavelli(),
            1,
            Deal(),
            ("system_only", "PF-FAIR-1", "only the system deals"),
        ),
        (
            "PF-FAIR-1 a deal in play",
            _machiavelli(),
            _SYSTEM,
            Deal(),
            ("wrong_phase", "PF-FAIR-1", "no committed round is waiting"),
        ),
        (
            "RM-CORE-7 no round",
            State(options=options_from("machiavelli", seats=2)),
            1,
            Draw(),
            ("wrong_phase", "RM-CORE-7", "no round is being played"),
        ),
        (
            "RM-CORE-7 another's turn",
            _machiavelli(),
            2,
            Draw(),
            ("not_your_turn", "RM-CORE-7", "it is seat 1's turn"),
        ),
        (
            "RM-CAR-8 play before drawing",
            _carousel(),
            1,
            _RUN,
            ("draw_first", "RM-CAR-8", "a Carousel turn starts with a draw"),
        ),
        (
            "RM-CAR-8 pass before drawing",
            playing("carousel", ["7H", "3D"]),
            1,
            Pass(),
            ("draw_first", "RM-CAR-8", "a Carousel turn starts with a draw"),
        ),
        (
            "RM-CAR-11 knock elsewhere",
            _machiavelli(),
            1,
            _RUN_KNOCK,
            ("no_knock", "RM-CAR-11", "only Carousel has the knock"),
        ),
        (
            "RM-CAR-18 knock in the final turns",
            _carousel(final_last=2),
            1,
            _RUN_KNOCK,
            ("no_knock", "RM-CAR-18", "nobody may knock in the final turns"),
        ),
        (
            "RM-CAR-11 knock after a third draw",
            _carousel(drawn=3),
            1,
            _RUN_KNOCK,
            ("no_knock", "RM-CAR-11", "a knock comes after the first or second draw"),
        ),
        (
            "RM-CAR-11 knock with an empty hand",
            playing("carousel", ["7H 8H 9H 2C 3C 4C", "3D 4D"], stock="5S", drawn=1),
            1,
            _ALL_KNOCK,
            (
                "no_knock",
                "RM-CAR-11",
                "a knock keeps a card in hand: play out without knocking",
            ),
        ),
        (
            "RM-CAR-11 knock with too many points",
            playing("carousel", ["7H 8H 9H 6C", "3D 4D"], stock="5S", drawn=1),
            1,
            _RUN_KNOCK,
            ("no_knock", "RM-CAR-11", "a knock needs 5 points or fewer left in hand, not 6"),
        ),
        (
            "RM-OPT-3b draw while locked",
            _machiavelli(incomplete_move="revert_draw_3", locked=True),
            1,
            Draw(),
            (
                "move_locked",
                "RM-OPT-3b",
                "the table was changed: commit the move or give it up",
            ),
        ),
        (
            "RM-OPT-3b pass while locked",
            playing("machiavelli", ["7H", "3D"], incomplete_move="revert_draw_3", locked=True),
            1,
            Pass(),
            (
                "move_locked",
                "RM-OPT-3b",
                "the table was changed: commit the move or give it up",
            ),
        ),
        (
            "RM-CAR-18 draw in the final turns",
            _carousel(final_last=2),
            1,
            Draw(),
            ("no_draw", "RM-CAR-18", "nobody draws in the final turns"),
        ),
        (
            "RM-BLOCK-1 draw from an empty stock",
            playing("machiavelli", ["7H", "3D"]),
            1,
            Draw(),
            ("stock_empty", "RM-BLOCK-1", "the stock is empty: pass instead"),
        ),
        (
            "RM-AMB-27 pass with a stock",
            _machiavelli(),
            1,
            Pass(),
            (
                "stock_not_empty",
                "RM-AMB-27",
                "a pass is only for an empty stock: draw instead",
            ),
        ),
        (
            "RM-OPT-3a touch under undo_free",
            _machiavelli(),
            1,
            Touch(),
            (
                "no_lock",
                "RM-OPT-3a",
                "this table restores a started move for free (undo_free)",
            ),
        ),
        (
            "RM-OPT-3b touch twice",
            _machiavelli(incomplete_move="revert_draw_3", locked=True),
            1,
            Touch(),
            ("already_locked", "RM-OPT-3b", "the move is already locked"),
        ),
        (
            "RM-OPT-3b give up unlocked",
            _machiavelli(incomplete_move="revert_draw_3"),
            1,
            GiveUp(),
            (
                "not_locked",
                "RM-OPT-3b",
                "give up is for a locked move under revert_draw_3",
            ),
        ),
        (
            "PF-TIMER-8 a seat times out",
            _machiavelli(),
            1,
            Timeout(round=1, turn=1),
            ("system_only", "PF-TIMER-8", "only the clock times a turn out"),
        ),
        (
            "PF-TIMER-8 a stale timeout",
            _machiavelli(),
            _SYSTEM,
            Timeout(round=1, turn=2),
            ("stale_timeout", "PF-TIMER-8", "that turn is already over"),
        ),
        (
            "RM-SHA-5 stop another variant",
            _machiavelli(),
            1,
            StopGame(),
            ("no_stop", "RM-SHA-5", "only a Shanghai game is ended by its host"),
        ),
        (
            "RM-AMB-22 a guest stops",
            playing("shanghai", ["7H", "3D"], stock="5S"),
            2,
            StopGame(),
            ("host_only", "RM-AMB-22", "only the host ends the game"),
        ),
    ],
    ids=lambda v: v if isinstance(v, str) else "",
)
def test_a_refused_command_says_which_rule_it_breaks_in_words(
    name: str, state: State, seat: int, command: Command, refusal: tuple[str, str, str]
) -> None:
    """PF-FAIR-1, RM-CORE-7, RM-CAR-8, RM-CAR-11, RM-CAR-18, RM-OPT-3a, RM-OPT-3b,
    RM-BLOCK-1, RM-AMB-27, PF-TIMER-8, RM-SHA-5, RM-AMB-22: each refusal's code, rule and
    sentence, through `decide` as the table plays it."""
    assert _caught(lambda: decide(state, seat, command)) == refusal, name


def test_a_stopped_game_cannot_be_stopped_again() -> None:
    """RM-AMB-22: after the host's StopGame the game is over; a second one is refused."""
    state = playing("shanghai", ["7H", "3D"], stock="5S")
    over = replace(state, phase="over")
    assert _caught(lambda: decide(over, 1, StopGame())) == (
        "wrong_phase",
        "RM-AMB-22",
        "the game is over",
    )


def test_a_lifecycle_command_is_not_one_the_round_rules_decide() -> None:
    """PF-FAIR-1: the commitment is the table's (engine/fairness.py); the round's own
    rules refuse it by name, with no rule ID, should it ever reach them."""
    state = _machiavelli()
    assert _caught(lambda: rules(state, _SYSTEM, CommitSeed(secret="5e" * 32))) == (
        "not_now",
        "",
        "CommitSeed is not a command of this table",
    )
