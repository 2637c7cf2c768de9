"""The commands and events of a rummy table (rules/rummy.md), tagged for strict decoding.

A turn that rebuilds the table is ONE command, `Play`: the whole new table (groups of card
identities; jokers named as the faces they stand for) and the hand cards it adds
(RM-MOVE-4/5). Nothing of the private copy a player builds reaches the server, except the
lock of RM-OPT-3b (`Touch`, PF-VAL-2). Commands are imperatives, events past tense; the
fairness lifecycle's messages are the table's own (engine/fairness.py).

Bounds: a table holds at most 108 cards (the largest deck), so a submitted table has at
most 108 groups of at most 13 cards, and at most 4 joker names: anything larger is refused
by the decoder before a rule reads it.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from engine.fairness import ClientSeedSent, CommitSeed, SeedCommitted, SeedRevealed, SendClientSeed

__all__ = [
    "CardsDrawn",
    "ClientSeedSent",
    "Command",
    "CommitSeed",
    "Deal",
    "Draw",
    "Event",
    "FinalTurnsBegan",
    "GameStopped",
    "GiveUp",
    "MoveLocked",
    "Pass",
    "Play",
    "PlayReminded",
    "RoundDealt",
    "RoundScored",
    "SeedCommitted",
    "SeedRevealed",
    "SendClientSeed",
    "StopGame",
    "TablePlayed",
    "Timeout",
    "Touch",
    "TurnEnded",
    "TurnPassed",
]

_Card = Annotated[str, msgspec.Meta(max_length=8)]
_Group = Annotated[tuple[_Card, ...], msgspec.Meta(max_length=13)]
_Names = Annotated[dict[_Card, _Card], msgspec.Meta(max_length=4)]


class _Cmd(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, tag_field="type"):
    pass


class _Evt(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, tag_field="type"):
    pass


# --- commands ---------------------------------------------------------------------------


class Deal(_Cmd, frozen=True):
    """System: the seats' client seeds are in; shuffle, draw the first player, deal."""


class Draw(_Cmd, frozen=True):
    """Draw as the variant says: one card (Guadeloupe: two; Carousel: the turn's next)."""


class Play(_Cmd, frozen=True):
    """Commit a move (RM-MOVE-1..7): `table` is the whole new table, `names` the face of
    every joker placed or re-identified (RM-JOKER-2), `added` the hand cards it adds.
    `knock`: Carousel's knock with this move (RM-CAR-11)."""

    table: Annotated[tuple[_Group, ...], msgspec.Meta(max_length=108)]
    added: Annotated[tuple[_Card, ...], msgspec.Meta(max_length=108)]
    names: _Names = msgspec.field(default_factory=dict)
    knock: bool = False


class Pass(_Cmd, frozen=True):
    """End the turn without playing: only with the stock empty (RM-BLOCK-1, RM-AMB-27)."""


class Touch(_Cmd, frozen=True):
    """Under `revert_draw_3`: the private table was changed; the turn is locked to Done or
    Give up (RM-OPT-3b, RM-AMB-12, PF-VAL-2)."""


class GiveUp(_Cmd, frozen=True):
    """Under `revert_draw_3`, once locked: give the move up and draw 3 (RM-OPT-3b/3c)."""


class Timeout(_Cmd, frozen=True):
    """System (the clock): turn `turn` of round `round` ran out (PF-TIMER-8)."""

    round: int
    turn: int


class StopGame(_Cmd, frozen=True):
    """The host ends a Shanghai game; the standings stand as they are (RM-AMB-22)."""


Command = (
    CommitSeed | SendClientSeed | Deal | Draw | Play | Pass | Touch | GiveUp | Timeout | StopGame
)


# --- events -----------------------------------------------------------------------------


class RoundDealt(_Evt, frozen=True):
    """Round `round` dealt (RM-AMB-4): `first` plays first; `hands` by seat (private),
    `stock` top first (private), Tahiti's face-up `singletons` (RM-TAH-2)."""

    round: int
    first: int
    hands: tuple[tuple[str, ...], ...]
    stock: tuple[str, ...]
    singletons: tuple[str, ...] = ()


class PlayReminded(_Evt, frozen=True):
    """RM-OPT-1a: `seat` pressed Draw or Pass with a move in hand; nothing was drawn. The
    hint (private to the seat): a hand `card` to play, the table `groups` the move changes
    and whether it `rearranges` the table. The same press again executes (RM-AMB-5)."""

    seat: int
    card: str
    groups: tuple[int, ...]
    rearranges: bool


class CardsDrawn(_Evt, frozen=True):
    """`seat` took `cards` from the stock (private to the seat): `why` is "draw", "end"
    (Guadeloupe's end-of-turn card, RM-GUA-4), "penalty" (RM-OPT-3b) or "timeout"."""

    seat: int
    cards: tuple[str, ...]
    why: Literal["draw", "end", "penalty", "timeout"] = "draw"


class TablePlayed(_Evt, frozen=True):
    """`seat` committed a move: the new `table`, every joker's face, the `added` hand cards."""

    seat: int
    table: tuple[tuple[str, ...], ...]
    names: tuple[tuple[str, str], ...]
    added: tuple[str, ...]
    knock: bool = False


class MoveLocked(_Evt, frozen=True):
    """RM-OPT-3b: `seat` changed its private table; only Done or Give up until the turn ends."""

    seat: int


class TurnPassed(_Evt, frozen=True):
    """`seat` ended a turn without playing or drawing (RM-BLOCK-1): counts for RM-BLOCK-2."""

    seat: int


class FinalTurnsBegan(_Evt, frozen=True):
    """Carousel: the stock ran out and nobody knocked; every seat has one more turn, the
    last being `last`'s (RM-CAR-18, RM-AMB-15)."""

    last: int


class TurnEnded(_Evt, frozen=True):
    """Turn `turn` of `seat` is over; `next` plays now."""

    seat: int
    turn: int
    next: int


class RoundScored(_Evt, frozen=True):
    """Round `round` is over (`how`: "out", "blocked", "knock", "stock_end", "stopped").
    Every hand is shown; `points` are the round's result per seat as the variant counts it
    (penalties, card counts, or Carousel's gains), `totals` the game's running totals,
    `winners` the round's winners (empty: a draw). With `game_over`, `game_winners` are the
    game's (empty: a draw) and `final` the game's final scores."""

    round: int
    how: Literal["out", "blocked", "knock", "stock_end", "stopped"]
    hands: tuple[tuple[str, ...], ...]
    points: tuple[int, ...]
    totals: tuple[int, ...]
    winners: tuple[int, ...]
    game_over: bool = False
    game_winners: tuple[int, ...] = ()
    final: tuple[int, ...] = ()


class GameStopped(_Evt, frozen=True):
    """The host ended the game between rounds or during one (Shanghai, RM-AMB-22): the
    standings are the totals of the rounds finished."""

    round: int
    totals: tuple[int, ...]
    winners: tuple[int, ...]


Event = (
    SeedCommitted
    | ClientSeedSent
    | RoundDealt
    | PlayReminded
    | CardsDrawn
    | TablePlayed
    | MoveLocked
    | TurnPassed
    | FinalTurnsBegan
    | TurnEnded
    | RoundScored
    | GameStopped
    | SeedRevealed
)
