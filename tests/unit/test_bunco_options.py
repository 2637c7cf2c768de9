"""Bunco's options (rules/bunco.md §8, PF-ROOM-5, PF-TIMER-7, PF-AMB-15).

Rules: BU-OPT-1, BU-OPT-2, BU-OPT-3, BU-AMB-12, BU-SIZE-4, BU-RND-3, PF-TIMER-7,
PF-AMB-15, PF-ROOM-2.
"""

from __future__ import annotations

import pytest

from engine import protocol
from engine.bunco.messages import Command, DiceRolled
from engine.bunco.options import BuncoOptions, options_from
from engine.errors import RuleViolation
from tests.unit.bunco_support import (
    evening,
    fold,
    fresh_caches,  # noqa: F401 - autouse, see its docstring
)


def test_the_defaults_are_twelve_players_four_sets_no_wipeout_ten_seconds() -> None:
    """BU-SET-1, BU-OPT-1 (off by default), BU-OPT-2 / BU-RND-3 (4 sets, 24 rounds),
    PF-TIMER-7 (10 s a roll)."""
    options = options_from()
    assert (options.players, options.sets, options.wipeout, options.turn_seconds) == (
        12,
        4,
        False,
        10,
    )
    assert options.rounds == 24


@pytest.mark.parametrize("sets", [1, 2, 20])
def test_any_whole_number_of_sets_from_one_bu_amb_12(sets: int) -> None:
    assert options_from(sets=sets).rounds == 6 * sets


@pytest.mark.parametrize(
    ("overrides", "rule"),
    [
        ({"sets": 0}, "BU-OPT-2"),
        ({"sets": 21}, "BU-OPT-2"),
        ({"players": 5}, "BU-SIZE-4"),
        ({"players": 13}, "BU-SIZE-4"),
        ({"players": 2}, "BU-SIZE-4"),
        ({"turn_seconds": 9}, "PF-TIMER-7"),
        ({"turn_seconds": 601}, "PF-TIMER-7"),
        ({"wipeout": "yes"}, "PF-ROOM-2"),
        ({"colour": "red"}, "PF-ROOM-2"),
    ],
)
def test_an_option_out_of_range_is_refused_naming_it(
    overrides: dict[str, object], rule: str
) -> None:
    with pytest.raises(RuleViolation) as refused:
        options_from(**overrides)
    assert (refused.value.code, refused.value.rule_id) == ("bad_option", rule)


def test_the_game_validates_its_own_options_only() -> None:
    game = protocol.get("bunco")
    game.validate(BuncoOptions(players=8, wipeout=True))
    with pytest.raises(RuleViolation, match="bad_option"):
        game.validate(BuncoOptions(players=6))
    with pytest.raises(RuleViolation, match="bunco takes BuncoOptions"):
        game.validate(protocol.get("rummy").options_from())
    with pytest.raises(RuleViolation, match="bad_option"):
        options_from("party")


def test_options_are_fixed_before_the_first_roll_bu_opt_3_pf_amb_15() -> None:
    """BU-OPT-3, PF-AMB-15: no command of the game changes an option, and the options
    the evening starts with are the ones it ends with."""
    names = {t.__name__ for t in protocol.get("bunco").command_types}
    assert names == {"CommitSeed", "SendClientSeed", "Deal", "Roll", "AssignSeats", "Timeout"}
    assert not any("option" in f for t in Command.__args__ for f in t.__struct_fields__)
    state = protocol.get("bunco").initial(options_from(players=8, wipeout=True, sets=1), 1)
    start = state.options
    for _, _, events in evening(8, wipeout=True, sets=1):
        state = fold(state, events)
    assert state.phase == "over" and state.options == start


def test_wipeout_is_played_when_on_bu_opt_1() -> None:
    """BU-OPT-1: whole evenings with `wipeout` wipe some team out now and then; without,
    never."""

    def kinds(**options: object) -> set[str]:
        return {
            e.kind
            for _, _, events in evening(12, **options)
            for e in events
            if isinstance(e, DiceRolled)
        }

    assert "wipeout" in kinds(wipeout=True)
    assert "wipeout" not in kinds()
