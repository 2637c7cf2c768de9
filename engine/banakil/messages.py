"""Banakil commands (imperatives) and events (past tense), as tagged msgspec unions.

Cards in commands are faces (``7H``) or identities (``7H#2``); cards in events are always
identities, so a log says exactly which copy moved. Points are integer half-points.

The fairness lifecycle's messages (the commitment, the seats' seeds and their window, the
reveal) are the table's, for every game (engine/fairness.py); Banakil's unions name them,
so a Banakil log reads as it always did.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from engine.fairness import (
    ClientSeedSent,
    CloseSeedWindow,
    CommitSeed,
    SeedCommitted,
    SeedRevealed,
    SeedWindowClosed,
    SendClientSeed,
)

__all__ = [
    "COMMAND_TYPES",
    "EVENT_TYPES",
    "CardDiscarded",
    "CardDrawn",
    "CardsDealt",
    "ClientSeedSent",
    "CloseSeedWindow",
    "Command",
    "CommitSeed",
    "Cut",
    "Deal",
    "DealEnded",
    "DealScored",
    "DeckCut",
    "DeckStacked",
    "Discard",
    "Draw",
    "Event",
    "ExchangeJoker",
    "GroundReshuffled",
    "GroundTaken",
    "LayOff",
    "MatchEnded",
    "Meld",
    "MeldLaid",
    "MeldUpdated",
    "MoveWild",
    "Placed",
    "Play",
    "PlayerScore",
    "SeedCommitted",
    "SeedRevealed",
    "SeedWindowClosed",
    "SendClientSeed",
    "SeriesEnded",
    "StackDeck",
    "TableAction",
    "TakeGround",
    "TeamScore",
    "Timeout",
    "TurnTimedOut",
]


class _Msg(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    pass


class _Cmd(_Msg, frozen=True, tag_field="type"):
    pass


class _Evt(_Msg, frozen=True, tag_field="type"):
    pass


# --- commands ---------------------------------------------------------------------------


class StackDeck(_Cmd, frozen=True):
    """System, tests and tutorials: the deal's deck in an explicit order (faces, top first).

    `dealer` stands in for the fair draw of the first dealer (BK-DEAL-S1) and `cut` for the
    system's cut (PF-CUT-3), which a stacked deck has no secret to draw.
    """

    cards: tuple[str, ...]
    dealer: int | None = None
    cut: int | None = None


class Deal(_Cmd, frozen=True):
    """System: the seeds are in; shuffle and deal (or wait for the host's cut)."""


class Cut(_Cmd, frozen=True):
    """The host's cut at `position` (1–105), or the system's cut when omitted (PF-CUT-*)."""

    position: int | None = None


class Draw(_Cmd, frozen=True):
    """Take the top card of the stock (BK-DRAW-1)."""


class Meld(_Cmd, frozen=True):
    """Lay a new meld from the hand. Run cards are listed low to high; a substitute stands
    for the card of its place in the list. `kind` is inferred when omitted."""

    cards: tuple[str, ...]
    kind: Literal["run", "set"] | None = None


class LayOff(_Cmd, frozen=True):
    """Add cards from the hand to one of the team's melds.

    `wild_as` names the card the meld's wild two stands for afterwards (e.g. ``JH``), when
    the rules let it move (BK-WILD-C2, BK-WILD-S2); `joker_as` the card a joker added by
    this action stands for. Both are chosen by the engine when omitted.
    """

    meld: int
    cards: tuple[str, ...]
    wild_as: str | None = None
    joker_as: str | None = None


class ExchangeJoker(_Cmd, frozen=True):
    """Put the real card a joker stands for into its place and free the joker (BK-JOKER-2)."""

    meld: int
    card: str


class MoveWild(_Cmd, frozen=True):
    """`classic`: move a run's wild two to stand for another card of the run (BK-WILD-C3)."""

    meld: int
    to: str


TableAction = Meld | LayOff | ExchangeJoker | MoveWild


class Play(_Cmd, frozen=True):
    """Several table actions applied in order, accepted only as a whole (PF-STAGE-6,
    BK-JOKER-S1: a freed joker re-melded in the same command)."""

    actions: tuple[TableAction, ...]


class TakeGround(_Cmd, frozen=True):
    """Take from the ground: the card at `position` (1 = top) and every card above it in
    `classic`; the top card only in `sahrat`, with the table actions that use it."""

    position: int = 1
    actions: tuple[TableAction, ...] = ()


class Discard(_Cmd, frozen=True):
    card: str


class Timeout(_Cmd, frozen=True):
    """System (the clock): the deadline of turn `turn` of deal `deal` has passed. Refused
    when that turn is already over, so a late or repeated timeout changes nothing."""

    deal: int
    turn: int


Command = (
    CommitSeed
    | StackDeck
    | SendClientSeed
    | CloseSeedWindow
    | Deal
    | Cut
    | Draw
    | TakeGround
    | Meld
    | LayOff
    | ExchangeJoker
    | MoveWild
    | Play
    | Discard
    | Timeout
)
COMMAND_TYPES: tuple[type, ...] = Command.__args__


# --- events -----------------------------------------------------------------------------


class Placed(msgspec.Struct, frozen=True, array_like=True):
    """A card on the table: the card, the seat that placed it from its hand, and the face
    it stands for (its own face unless it is a substitute)."""

    card: str
    seat: int
    stands_for: str


class DeckStacked(_Evt, frozen=True):
    deal: int
    cards: tuple[str, ...]
    dealer: int | None = None
    cut: int | None = None


class DeckCut(_Evt, frozen=True):
    """PF-CUT-5: the host's (or the system's) cut and the starting seat it gives."""

    position: int
    automatic: bool
    cut_card: str
    starter: int


class CardsDealt(_Evt, frozen=True):
    """BK-DEAL-*: hands by seat (seat 1 first) and the stock, top first; both private."""

    deal: int
    entropy: str
    dealer: int | None
    starter: int
    hands: tuple[tuple[str, ...], ...]
    stock: tuple[str, ...]


class CardDrawn(_Evt, frozen=True):
    seat: int
    card: str


class GroundTaken(_Evt, frozen=True):
    seat: int
    cards: tuple[str, ...]  # top first


class MeldLaid(_Evt, frozen=True):
    seat: int
    meld: int
    kind: Literal["run", "set"]
    cards: tuple[Placed, ...]


class MeldUpdated(_Evt, frozen=True):
    """A team meld changed: `cards` is its new content; `from_hand` left the acting seat's
    hand, `to_hand` (a freed joker in `classic`) joined it."""

    seat: int
    meld: int
    action: Literal["add", "exchange", "move"]
    cards: tuple[Placed, ...]
    from_hand: tuple[str, ...] = ()
    to_hand: tuple[str, ...] = ()


class CardDiscarded(_Evt, frozen=True, omit_defaults=True):
    seat: int
    card: str
    # Discarded by the system when the time ran out (PF-AUTO); written only when true, so
    # logs from before this field existed read the same (schema evolution by default).
    automatic: bool = False


class TurnTimedOut(_Evt, frozen=True):
    """PF-TIMER-3..6: the turn time ran out; the seat now has the discard window only."""

    seat: int
    turn: int


class GroundReshuffled(_Evt, frozen=True):
    """BK-STOCK-1: the ground under its top card became the stock (top first)."""

    number: int
    stock: tuple[str, ...]


class DealEnded(_Evt, frozen=True):
    reason: Literal["went_out", "dead", "used_up"]
    finisher: int | None


class PlayerScore(msgspec.Struct, frozen=True, kw_only=True):
    seat: int
    opened: bool
    melded: int  # half-points placed on the table by this seat
    hand: int  # half-points left in the hand
    bonus: int
    score: int


class TeamScore(msgspec.Struct, frozen=True, kw_only=True):
    team: int
    melds: int
    hands: int
    bonus: int
    single_meld: bool
    score: int
    total: int


class DealScored(_Evt, frozen=True):
    deal: int
    players: tuple[PlayerScore, ...]
    teams: tuple[TeamScore, ...]
    extra_deals: bool = False  # the totals call for tie-break / extra deals (BK-WIN-C4, S4)


class MatchEnded(_Evt, frozen=True):
    match: int
    winner: int
    totals: tuple[int, ...]


class SeriesEnded(_Evt, frozen=True):
    winner: int
    wins: tuple[int, ...]


Event = (
    SeedCommitted
    | DeckStacked
    | ClientSeedSent
    | SeedWindowClosed
    | DeckCut
    | CardsDealt
    | CardDrawn
    | GroundTaken
    | MeldLaid
    | MeldUpdated
    | CardDiscarded
    | TurnTimedOut
    | GroundReshuffled
    | DealEnded
    | DealScored
    | SeedRevealed
    | MatchEnded
    | SeriesEnded
)
EVENT_TYPES: tuple[type, ...] = Event.__args__
