"""The game registry (engine/protocol.py): games are looked up by name, an unknown name is
refused with the list of hosted games, and a game refuses another game's options."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine import protocol
from engine.banakil.options import options_from
from engine.errors import RuleViolation
from tests.games import high_card


@pytest.fixture(scope="module", autouse=True)
def _high_card_hosted() -> None:
    protocol.register(high_card.GAME)


def test_the_built_in_games_are_hosted_without_anyone_registering_them() -> None:
    assert {"banakil", "bunco", "rummy"} <= set(protocol.hosted())
    assert protocol.get("banakil").name == "banakil"
    assert protocol.get("bunco").name == "bunco"
    assert protocol.get("rummy").name == "rummy"


def test_a_registered_game_is_hosted_and_found_by_its_name() -> None:
    assert protocol.hosted() == tuple(sorted(protocol.hosted()))
    assert {"banakil", "high_card"} <= set(protocol.hosted())
    assert protocol.get("high_card") is high_card.GAME


def test_an_unknown_game_is_refused_with_the_list_of_hosted_games_pf_room_2() -> None:
    with pytest.raises(RuleViolation) as refused:
        protocol.get("chess")
    assert (refused.value.code, refused.value.rule_id) == ("unknown_game", "PF-ROOM-2")
    assert "'chess'" in refused.value.message
    assert refused.value.message.endswith("the hosted games are: " + ", ".join(protocol.hosted()))


def test_an_unknown_name_is_shown_cut_short_in_the_refusal() -> None:
    with pytest.raises(RuleViolation) as refused:
        protocol.get("x" * 10_000)
    assert len(refused.value.message) < 200


def test_the_old_lookup_is_the_registry() -> None:
    assert protocol.game("banakil") is protocol.get("banakil")
    with pytest.raises(RuleViolation, match="unknown_game"):
        protocol.game("chess")


def test_registering_the_same_game_again_changes_nothing() -> None:
    before = protocol.hosted()
    assert protocol.register(high_card.GAME) is high_card.GAME
    assert protocol.hosted() == before


def test_a_second_game_under_a_hosted_name_is_refused() -> None:
    impostor = replace(high_card.GAME, seat_counts=(2,))
    with pytest.raises(ValueError, match="high_card"):
        protocol.register(impostor)
    assert protocol.get("high_card") is high_card.GAME


def test_options_of_another_game_are_rejected_by_validate() -> None:
    banakil, cards = protocol.get("banakil"), protocol.get("high_card")
    with pytest.raises(RuleViolation) as refused:
        cards.validate(options_from("classic"))
    assert (refused.value.code, refused.value.rule_id) == ("bad_option", "PF-ROOM-2")
    assert "high_card takes HighCardOptions, not BanakilOptions" in refused.value.message
    with pytest.raises(RuleViolation, match="banakil takes BanakilOptions, not HighCardOptions"):
        banakil.validate(high_card.HighCardOptions())
    with pytest.raises(RuleViolation, match="not dict"):
        banakil.validate({"ruleset": "classic"})


def test_validate_accepts_the_games_own_options_and_refuses_a_value_that_cannot_work() -> None:
    banakil, cards = protocol.get("banakil"), protocol.get("high_card")
    banakil.validate(options_from("sahrat", mode="one_vs_one"))
    cards.validate(high_card.HighCardOptions(seats=5))
    with pytest.raises(RuleViolation) as refused:
        cards.validate(high_card.HighCardOptions(seats=6))
    assert refused.value.message == "seats must be between 2 and 5 seats"
    built_in_code = options_from("classic").__class__(turn_seconds=4)  # built, not converted
    with pytest.raises(RuleViolation) as refused:
        banakil.validate(built_in_code)
    assert (refused.value.code, refused.value.rule_id) == ("bad_option", "BK-RS-3")
    assert refused.value.message == "turn_seconds must be between 5 and 600 seconds, not 4"


def test_a_games_command_and_event_types_are_the_members_of_its_unions() -> None:
    cards = protocol.get("high_card")
    assert cards.command_types == (high_card.CommitSeed, high_card.Draw, high_card.Timeout)
    assert high_card.RoundWon in cards.event_types
    assert all(t.__struct_config__.tag_field == "type" for t in cards.event_types)


def test_the_draw_labels_are_those_of_pf_amb_12() -> None:
    """PF-AMB-12 g: every unit's draws are named from this list."""
    assert protocol.DRAW_LABELS == ("deal", "reshuffle:k", "first", "autocut", "dice")
    for name in protocol.hosted():
        assert set(protocol.get(name).unit.draws) <= set(protocol.DRAW_LABELS)
