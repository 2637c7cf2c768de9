"""What one seat (or a spectator) may see, and what it may do now (`view`, `legal`).

A view holds the seat's own hand and only public facts: melds with who placed each card,
the ground, the stock's size, hand sizes, scores and the commitment. Never another hand,
the stock order or an unrevealed secret.
"""

from __future__ import annotations

import msgspec

from engine.banakil.decide import needs_cut
from engine.banakil.messages import DealScored, Placed
from engine.banakil.state import State

__all__ = ["Legal", "MeldView", "View", "legal", "view"]


class Legal(msgspec.Struct, frozen=True, kw_only=True):
    """The command kinds a seat may send now; for TakeGround, the positions (1 = top)."""

    commands: tuple[str, ...]
    ground_positions: tuple[int, ...] = ()


class MeldView(msgspec.Struct, frozen=True, kw_only=True):
    id: int
    team: int
    creator: int
    kind: str
    cards: tuple[Placed, ...]


class View(msgspec.Struct, frozen=True, kw_only=True):
    seat: int | None  # None: a spectator
    ruleset: str
    mode: str
    phase: str
    match: int
    deal: int
    commitment: str | None
    client_seeds: tuple[str, ...]
    dealer: int | None
    starter: int
    cut_card: str | None
    turn: int
    turn_no: int  # the turn's number in the deal: a timeout names it
    window: bool  # the time ran out: only a discard now (PF-TIMER-6)
    drawn: bool
    hand: tuple[str, ...] | None
    hand_sizes: tuple[int, ...]
    melds: tuple[MeldView, ...]
    ground: tuple[str, ...]  # top first
    stock_size: int
    reshuffles: int
    totals: tuple[int, ...]  # half-points by team
    series_wins: tuple[int, ...]
    match_winner: int | None
    last_scores: DealScored | None
    legal: Legal


def view(state: State, seat: int | None) -> View:
    own = state.hands[seat - 1] if seat and state.hands else None
    return View(
        seat=seat,
        ruleset=state.options.ruleset,
        mode=state.options.mode,
        phase=state.phase,
        match=state.match,
        deal=state.deal,
        commitment=state.commitment,
        client_seeds=state.client_seeds,
        dealer=state.dealer,
        starter=state.starter,
        cut_card=state.cut_card,
        turn=state.turn,
        turn_no=state.turn_no,
        window=state.window,
        drawn=state.drawn,
        hand=own,
        hand_sizes=tuple(len(h) for h in state.hands),
        melds=tuple(
            MeldView(id=m.id, team=m.team, creator=m.creator, kind=m.kind, cards=m.cards)
            for m in state.melds
        ),
        ground=tuple(reversed(state.ground)),
        stock_size=len(state.stock),
        reshuffles=state.reshuffles,
        totals=state.totals,
        series_wins=state.series_wins,
        match_winner=state.match_winner,
        last_scores=state.last_scores,
        legal=legal(state, seat) if seat else Legal(commands=()),
    )


def legal(state: State, seat: int | None) -> Legal:
    """What `seat` may send now (seat 0: the system)."""
    if state.phase == "over" or seat is None:
        return Legal(commands=())
    if state.phase == "seeding":
        return Legal(commands=("CommitSeed", "StackDeck") if seat == 0 else ())
    if state.phase == "seeded":
        if needs_cut(state):
            if seat == state.host:  # a seat like the others: it may add entropy (PF-AMB-12 h)
                return Legal(commands=("Cut", "SendClientSeed"))
            return Legal(commands=("Cut",) if seat == 0 else ("SendClientSeed",))
        return Legal(commands=("Deal",) if seat == 0 else ("SendClientSeed",))
    if seat == 0:
        return Legal(commands=("Timeout",))
    if seat != state.turn:
        return Legal(commands=())
    if state.window:
        return Legal(commands=("Discard",))  # PF-TIMER-6
    if not state.drawn:
        positions: tuple[int, ...] = ()
        if state.ground:
            top_only = state.options.ground_draw == "top_only_must_use"
            positions = (1,) if top_only else tuple(range(1, len(state.ground) + 1))
        return Legal(
            commands=("Draw", "TakeGround") if positions else ("Draw",),
            ground_positions=positions,
        )
    kinds = ["Meld", "LayOff", "ExchangeJoker", "Play", "Discard"]
    if state.options.wild_two_relocation == "any_position":
        kinds.insert(3, "MoveWild")
    return Legal(commands=tuple(kinds))
