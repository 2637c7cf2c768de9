"""The running wait of a Banakil deal and the system's command when it runs out (pure).

A turn lasts `options.turn_seconds` (PF-TIMER-1); when it runs out the system sends
Timeout, which draws for the player if a draw is due and opens a 5-second discard window
(PF-TIMER-3); when the window runs out too, the same Timeout discards for him (PF-AUTO,
engine/banakil/decide.py `_timeout`). The clock measures the seconds from the moment the
wait began; the engine only says which seat waits, how long, and what happens after.

The command id names the wait: `timeout:<deal>:<turn>:draw` for a turn,
`timeout:<deal>:<turn>:discard` for its window, so whichever clock fires a wait, however
often, it is appended once, and the engine refuses it once that turn is over.

Nothing waits on a timer outside a deal's play: the seed window and the host's cut are
timed by the service (PF-AMB-12 h, PF-CUT-2).
"""

from __future__ import annotations

from engine.banakil.messages import Timeout
from engine.banakil.state import State
from engine.protocol import Timer

__all__ = ["DISCARD_SECONDS", "turn_timer"]

DISCARD_SECONDS = 5.0  # PF-TIMER-3..5: the discard window after the turn time


def turn_timer(state: State) -> Timer | None:
    """The seat whose turn or discard window is running, its seconds and the Timeout the
    system sends when they pass; None when no turn is running."""
    if state.phase != "play":
        return None
    window = state.window
    stage = "discard" if window else "draw"
    return Timer(
        seat=state.turn,
        seconds=DISCARD_SECONDS if window else float(state.options.turn_seconds),
        command=Timeout(deal=state.deal, turn=state.turn_no),
        command_id=f"timeout:{state.deal}:{state.turn_no}:{stage}",
        kind="window" if window else "turn",
    )
