"""Hints (PF-HINT-1, PF-HINT-3, PF-AMB-20, BK-OPT-22, BK-AMB-30)."""

from __future__ import annotations

from engine.banakil.hints import Hints, hints
from engine.banakil.messages import Discard
from tests.support import apply, meld, table


def test_sahrat_hints_list_ready_melds_add_ons_and_jokers_in_a_fixed_order() -> None:
    """PF-HINT-1, PF-AMB-20: ready melds, then add-ons, then jokers to win back, each
    sorted by suit then rank; only the asking seat's hand and its team's melds."""
    state = table(
        "sahrat",
        hands=["9S 10S JS 4C 5H#2 6H#2", "", "", ""],
        melds=[
            meld(0, 1, 1, "run", "5C#2 JK=6C 7C"),
            meld(1, 2, 2, "run", "2H=5H 6H#1 7H#1"),
        ],
        laid=(True, False, False, False),
    )
    got = hints(state, 1)
    assert got.melds == (("9S", "10S", "JS"),)
    assert ("4C", 0) in got.lay_offs
    assert all(meld_id == 0 for _, meld_id in got.lay_offs)  # never the opponents' run
    assert got.jokers == ()
    state2 = table(
        "sahrat",
        hands=["6C 4H", "", "", ""],
        melds=[meld(0, 1, 1, "run", "4C 5C JK=6C 7C")],
        laid=(True, False, False, False),
    )
    assert hints(state2, 1).jokers == (("6C", 0),)


def test_classic_has_no_hints_bk_amb_30() -> None:
    state = table("classic", hands=["9S 10S JS", "", "", ""])
    assert hints(state, 1) == Hints()


def test_a_hint_never_restricts_play_pf_hint_3() -> None:
    """PF-HINT-3: a card no hint mentions may still be discarded."""
    state = table("sahrat", hands=["9S 10S JS KD", "", "", ""])
    assert hints(state, 1).melds == (("9S", "10S", "JS"),)
    after, _ = apply(state, 1, Discard(card="10S"))
    assert after.turn == 2
