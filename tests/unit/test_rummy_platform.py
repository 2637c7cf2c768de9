"""The platform rules that name rummy, at the engine's edge (platform.md): what a player
prepares stays on his device, and only "Done" reaches the server.

Rules: PF-VAL-2, PF-VAL-3, PF-AMB-22, PF-SORT-3, PF-AMB-17, PF-HINT-3, RM-MOVE-4,
RM-OPT-3a, RM-OPT-3b.
"""

from __future__ import annotations

from engine.rummy.game import GAME
from engine.rummy.messages import Play, Touch
from tests.unit.rummy_support import playing, refused, step, table


def test_only_done_and_the_lock_of_revert_draw_3_reach_the_server() -> None:
    """PF-VAL-2, PF-VAL-3, PF-AMB-22, PF-SORT-3: a rummy player's private table and his
    hand order are his device's; the commands a seat can send are the committed move
    (Done = Play), the draw, the pass, and under revert_draw_3 the lock and the give-up.
    There is no command to stage, sort or reset anything."""
    kinds = {t.__name__ for t in GAME.command_types}
    assert {"Play", "Draw", "Pass", "Touch", "GiveUp"} <= kinds
    assert not {k for k in kinds if any(w in k for w in ("Sort", "Stage", "Reset", "Order"))}


def test_reset_costs_nothing_under_undo_free_so_no_lock_is_taken() -> None:
    """RM-MOVE-4, RM-OPT-3a, PF-VAL-2: under undo_free the private table is never reported:
    a Touch is refused and changes nothing; the player may then simply play."""
    state = playing("machiavelli", ["7S 7H 7D 2C", "3D 4D"], stock="9C 9D")
    assert refused(state, 1, Touch()) == ("no_lock", "RM-OPT-3a")
    events, _ = step(state, 1, Play(table=table("7S 7H 7D"), added=table("7S 7H 7D")[0]))
    assert [type(e).__name__ for e in events] == ["TablePlayed", "TurnEnded"]


def test_the_lock_is_the_one_preparation_the_server_hears_of() -> None:
    """PF-VAL-2 (its single exception), RM-OPT-3b: under revert_draw_3 the first change to
    the private copy is reported, and from then the seat may only commit or give up."""
    state = playing(
        "tahiti", ["7S 7H 7D 2C", "3D 4D"], stock="9C 9D", incomplete_move="revert_draw_3"
    )
    events, locked = step(state, 1, Touch())
    assert [type(e).__name__ for e in events] == ["MoveLocked"]
    assert GAME.legal(locked, 1).commands == ("Play", "GiveUp")
    assert GAME.legal(state, 1).commands == ("Play", "Draw", "Touch")


def test_an_idle_seat_is_timed_and_hints_go_to_the_asking_seat_only() -> None:
    """PF-AMB-17: a connected player who does nothing is handled by the turn timer; PF-HINT-3:
    a hint is for the seat on turn, asking, and nobody else."""
    state = playing("manipulation", ["4S 5S 6S 2C", "3D 4D"], stock="9C 9D")
    timer = GAME.timer(state)
    assert timer is not None and (timer.seat, timer.kind) == (1, "turn")
    assert GAME.hints is not None
    shown = GAME.hints(state, 1)
    assert shown is not None and shown.card == "4S#1"  # RM-AMB-5: first in hand order
    assert GAME.hints(state, 2) is None
