"""What a roll scores and who rolls next (rules/bunco.md §3, §8, BU-EX-1..6).

Given a round in play (built by hand, its roll counter where the secret gives the dice a
test needs), when the awaited seat rolls, then exactly this roll event, score and roller.

Rules: BU-SCORE-1, BU-SCORE-2, BU-SCORE-3, BU-SCORE-4, BU-ROLL-1, BU-ROLL-3, BU-ROLL-4,
BU-ROLL-5, BU-OPT-1, BU-EX-1, BU-EX-2, BU-EX-3, BU-EX-4, BU-EX-5, BU-EX-6, BU-AMB-7,
BU-AMB-15, BU-TALLY-2, PF-DICE-1, PF-DICE-2.
"""

from __future__ import annotations

import itertools

import msgspec
import pytest

from engine import fair
from engine.bunco.dice import roll as roll_dice
from engine.bunco.messages import DiceRolled, Roll, Timeout
from engine.bunco.rules import decide, rules
from engine.bunco.scoring import score
from engine.bunco.view import legal
from tests.unit.bunco_support import (
    ENTROPY,
    SECRET,
    find,
    fresh_caches,  # noqa: F401 - autouse, see its docstring
    playing,
    same,
    step,
)

_ALL_ROLLS = list(itertools.product(range(1, 7), repeat=3))
_LOW = 2  # with 8 players table 2 is the low table: 21 there rings no bell (BU-END-6)
_LOW_ROLLER = 5  # the place in seat 1 of table 2


def _low(target: int, k: int, scores: tuple[int, int] = (0, 0), **options: object) -> object:
    return playing(8, target=target, rolls=k, scores=[(0, 0), scores], **options)


# --- the score of three dice ------------------------------------------------------------


@pytest.mark.parametrize("target", range(1, 7))
def test_the_three_cases_are_exclusive_and_cover_every_roll_bu_score_4(target: int) -> None:
    """BU-SCORE-1..4, BU-AMB-15: all three the target is exactly 21 (never 21 + 3), a
    triple of another number exactly 5, otherwise 1 a die showing the target."""
    for dice in _ALL_ROLLS:
        kind, points = score(dice, target, wipeout=False)
        if dice == (target,) * 3:
            assert (kind, points) == ("bunco", 21)
        elif dice[0] == dice[1] == dice[2]:
            assert (kind, points) == ("triple", 5)
        else:
            hits = dice.count(target)
            assert points == hits and kind == ("target" if hits else "nothing")
            assert points <= 2


def test_a_bunco_is_scored_only_as_21_bu_amb_15() -> None:
    assert score((4, 4, 4), 4, wipeout=False) == ("bunco", 21)
    assert score((4, 4, 4), 4, wipeout=True) == ("bunco", 21)


def test_wipeout_three_ones_when_the_target_is_not_one_bu_opt_1_bu_amb_7() -> None:
    """BU-AMB-7: a wipeout scores nothing and is not also a 5-point triple; off, it is."""
    for target in range(2, 7):
        assert score((1, 1, 1), target, wipeout=True) == ("wipeout", 0)
        assert score((1, 1, 1), target, wipeout=False) == ("triple", 5)
    assert score((2, 2, 2), 3, wipeout=True) == ("triple", 5)  # only 1s wipe out


def test_every_die_of_a_roll_is_one_to_six_from_the_rounds_secret_pf_dice_2() -> None:
    """PF-DICE-1/2: three dice a roll, uniform 1..6, the k-th roll reading dice 3k..3k+2."""
    k = find((6, 1, 2))
    _, state = step(playing(8, target=1, rolls=k), 1, Roll())
    dice = fair.dice(bytes.fromhex(SECRET), ENTROPY, 3 * (k + 1))[3 * k :]
    assert state.tables[0].last == dice == (6, 1, 2)


# --- the document's cases ---------------------------------------------------------------


def test_a_bunco_scores_21_rolls_again_and_is_tallied_bu_ex_1() -> None:
    """BU-EX-1, BU-SCORE-1, BU-ROLL-3, BU-TALLY-2: round 4, 4-4-4."""
    state = _low(4, find((4, 4, 4)))
    (rolled,), after = step(state, _LOW_ROLLER, Roll())
    assert isinstance(rolled, DiceRolled)
    assert (rolled.dice, rolled.kind, rolled.points) == ((4, 4, 4), "bunco", 21)
    assert rolled.scores == (21, 0) and rolled.next == 1
    assert after.buncos[_LOW_ROLLER - 1] == 1 and sum(after.buncos) == 1
    assert "Roll" in legal(after, _LOW_ROLLER).commands


def test_two_target_dice_score_two_and_the_player_rolls_again_bu_ex_2() -> None:
    """BU-EX-2, BU-SCORE-3, BU-ROLL-3: round 4, 4-4-2."""
    (rolled,), after = step(_low(4, find((4, 4, 2))), _LOW_ROLLER, Roll())
    assert isinstance(rolled, DiceRolled)
    assert (rolled.kind, rolled.points, rolled.scores, rolled.next) == ("target", 2, (2, 0), 1)
    assert after.tables[1].roller == 1


def test_a_triple_of_another_number_scores_five_and_rolls_again_bu_ex_3() -> None:
    """BU-EX-3, BU-SCORE-2: round 4, 5-5-5."""
    (rolled,), _ = step(_low(4, find((5, 5, 5))), _LOW_ROLLER, Roll())
    assert isinstance(rolled, DiceRolled)
    assert (rolled.kind, rolled.points, rolled.next) == ("triple", 5, 1)


def test_a_roll_scoring_nothing_passes_the_dice_to_the_left_bu_ex_4() -> None:
    """BU-EX-4, BU-ROLL-4, BU-AMB-3: round 4, 1-2-3: the next seat number rolls."""
    (rolled,), after = step(_low(4, find(same(1, 2, 3))), _LOW_ROLLER, Roll())
    assert isinstance(rolled, DiceRolled)
    assert (rolled.kind, rolled.points, rolled.next) == ("nothing", 0, 2)
    assert "Roll" not in legal(after, _LOW_ROLLER).commands
    assert "Roll" in legal(after, 6).commands  # table 2, seat 2


def test_the_dice_pass_from_seat_4_to_seat_1_bu_roll_4() -> None:
    k = find(lambda d: 2 not in d and len(set(d)) > 1)
    state = playing(8, target=2, rolls=k, rollers=[1, 4])
    (rolled,), after = step(state, 8, Roll())
    assert isinstance(rolled, DiceRolled) and rolled.next == 1
    assert after.tables[1].roller == 1


@pytest.mark.parametrize("wipeout", [False, True])
def test_three_ones_in_round_one_stay_a_bunco_bu_ex_5(wipeout: bool) -> None:
    """BU-EX-5, BU-OPT-1: also with `wipeout` on."""
    (rolled,), _ = step(_low(1, find((1, 1, 1)), wipeout=wipeout), _LOW_ROLLER, Roll())
    assert isinstance(rolled, DiceRolled)
    assert (rolled.kind, rolled.points, rolled.next) == ("bunco", 21, 1)


def test_a_wipeout_sets_the_team_back_to_zero_and_passes_bu_ex_6() -> None:
    """BU-EX-6, BU-OPT-1, BU-AMB-7: round 2, the team at 14 rolls 1-1-1 under wipeout."""
    state = _low(2, find((1, 1, 1)), scores=(14, 9), wipeout=True)
    (rolled,), after = step(state, _LOW_ROLLER, Roll())
    assert isinstance(rolled, DiceRolled)
    assert (rolled.kind, rolled.points, rolled.scores, rolled.next) == ("wipeout", 0, (0, 9), 2)
    assert after.wipeouts[_LOW_ROLLER - 1] == 1
    assert after.tables[1].roller == 2


def test_without_wipeout_three_ones_in_round_two_score_five_and_roll_again_bu_ex_6() -> None:
    state = _low(2, find((1, 1, 1)), scores=(14, 9))
    (rolled,), _ = step(state, _LOW_ROLLER, Roll())
    assert isinstance(rolled, DiceRolled)
    assert (rolled.kind, rolled.points, rolled.scores, rolled.next) == ("triple", 5, (19, 9), 1)


def test_partners_points_add_to_one_team_score_bu_roll_5() -> None:
    """BU-ROLL-5, BU-SET-2: seats 1 and 3 are one team; seat 1 scores 1, misses, seat 2
    misses, then seat 3 scores 2: team 1 has 3."""
    k = find(
        lambda d: d.count(3) == 1 and len(set(d)) > 1,
        lambda d: 3 not in d and len(set(d)) > 1,
        lambda d: 3 not in d and len(set(d)) > 1,
        lambda d: d.count(3) == 2,
    )
    state = playing(8, target=3, rolls=k)
    seen = []
    for seat in (1, 1, 2, 3):
        (rolled,), state = step(state, seat, Roll())
        assert isinstance(rolled, DiceRolled)
        seen.append(rolled.scores)
    assert seen == [(1, 0), (1, 0), (1, 0), (3, 0)]


def test_each_roll_is_one_roll_of_all_three_dice_bu_roll_1() -> None:
    """BU-ROLL-1: one Roll is one event with three dice, and one step of the round's dice."""
    state = playing(8, target=1)
    (rolled,), after = step(state, 1, Roll())
    assert isinstance(rolled, DiceRolled) and len(rolled.dice) == 3
    assert after.rolls == state.rolls + 1 and after.tables[0].rolls == 1


def test_the_dice_of_a_roll_do_not_depend_on_which_rolls_were_read_before() -> None:
    """PF-DICE-2: engine/bunco/dice.py keeps a round's stream open; reading roll 40 first,
    then roll 3, gives both the dice of `fair.dice`."""
    secret = "ab" * 32
    stream = fair.dice(bytes.fromhex(secret), ENTROPY, 3 * 41)
    assert roll_dice(secret, ENTROPY, 40) == stream[120:123]
    assert roll_dice(secret, ENTROPY, 3) == stream[9:12]


def test_interleaved_rounds_each_read_their_own_dice_in_order() -> None:
    """PF-DICE-2: two rounds rolled in turn (a process serves many evenings) each get the
    dice of their own stream, roll after roll past the dice read ahead, and an equal secret
    that is another string object reads the same round."""
    first, second = "cd" * 32, "ef" * 32
    dice_1 = fair.dice(bytes.fromhex(first), ENTROPY, 3 * 60)
    dice_2 = fair.dice(bytes.fromhex(second), ENTROPY, 3 * 60)
    for k in range(60):
        assert roll_dice(first, ENTROPY, k) == dice_1[3 * k : 3 * k + 3]
        assert roll_dice(second, ENTROPY, k) == dice_2[3 * k : 3 * k + 3]
        copy = "".join([first[:1], first[1:]])  # equal, not the same object
        assert copy is not first
        assert roll_dice(copy, ENTROPY, k) == dice_1[3 * k : 3 * k + 3]


def test_one_secret_with_another_e_reads_another_stream() -> None:
    """PF-AMB-12 h, PF-DICE-2: E is part of the stream's name, so the same secret (the
    same string object) under two seeds' E gives each E's own dice, asked in turn."""
    secret, other = "9a" * 32, fair.entropy(["a seed"])
    mine = fair.dice(bytes.fromhex(secret), ENTROPY, 3 * 20)
    theirs = fair.dice(bytes.fromhex(secret), other, 3 * 20)
    assert mine != theirs
    for k in range(20):
        assert roll_dice(secret, ENTROPY, k) == mine[3 * k : 3 * k + 3]
        assert roll_dice(secret, other, k) == theirs[3 * k : 3 * k + 3]


def test_a_roll_is_the_player_s_own_on_every_path_to_the_rules_pf_timer_8() -> None:
    """PF-TIMER-8, BU-ROLL-1: a Roll decided by the table's path (`rules`, the lifecycle
    left to the table) and by `decide` is the player's own (`auto` false); only the
    clock's Timeout rolls `auto`."""
    state = playing(8, target=1)
    (by_rules,) = rules(state, 1, Roll())
    (by_decide,) = decide(state, 1, Roll())
    assert isinstance(by_rules, DiceRolled) and by_rules.auto is False
    assert by_rules == by_decide
    (timed,) = rules(state, 0, Timeout(round=state.round, table=1, roll=1))
    assert isinstance(timed, DiceRolled) and timed.auto is True
    assert msgspec.structs.replace(timed, auto=False) == by_rules
