"""What one seat (or a spectator) may see, and what it may do now (`view`, `legal`).

A view holds the seat's own hand and only public facts: melds with who placed each card,
the ground, the stock's size, hand sizes, scores and the commitment. Never another hand
while a deal is played, the stock order or an unrevealed secret.

When a deal ends its remaining hands are public (PF-REVEAL-1): from the end of a deal until
the next one is dealt, every view (each seat's and a spectator's alike) carries `reveal`,
with every seat's remaining cards and the deal's breakdown (hand values, meld values, the
finisher's bonus, the seats' and the teams' deal scores and running totals; in `sahrat`
the team figures, PF-REVEAL-2).
"""

from __future__ import annotations

import msgspec

from engine.banakil.decide import needs_cut
from engine.banakil.messages import DealScored, Placed
from engine.banakil.state import State

__all__ = ["DealReveal", "Legal", "MeldView", "View", "legal", "view"]


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


class DealReveal(msgspec.Struct, frozen=True, kw_only=True):
    """The end-of-deal screen (PF-REVEAL-1/2): the same for every seat and spectator."""

    deal: int
    reason: str  # went_out, dead or used_up
    finisher: int | None
    hands: tuple[tuple[str, ...], ...]  # every seat's remaining cards, seat 1 first
    scores: DealScored  # hand and meld values, bonus, deal scores by seat and team, totals


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
    seed_window: bool = False  # client seeds are taken now (PF-AMB-12 h)
    reveal: DealReveal | None = None  # the deal that just ended, until the next is dealt


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
        seed_window=state.seed_window,
        reveal=_reveal(state),
    )


def _reveal(state: State) -> DealReveal | None:
    """PF-REVEAL-1: the hands as the deal ended, shown until the next deal is dealt (the
    next commitment and the seeds before it change no hand)."""
    scores = state.last_scores
    if state.phase == "play" or state.end_reason is None or scores is None:
        return None
    return DealReveal(
        deal=scores.deal,
        reason=state.end_reason,
        finisher=state.finisher,
        hands=state.hands,
        scores=scores,
    )


def legal(state: State, seat: int | None) -> Legal:
    """What `seat` may send now (seat 0: the system)."""
    if state.phase == "over" or seat is None:
        return Legal(commands=())
    if state.phase == "seeding":
        return Legal(commands=("CommitSeed", "StackDeck") if seat == 0 else ())
    if state.phase == "seeded":
        return _before_the_deal(state, seat)
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


def _before_the_deal(state: State, seat: int) -> Legal:
    """PF-AMB-12 h, PF-CUT-1: first the seed window (one seed per seat), then the cut."""
    cut = needs_cut(state)
    if seat == 0:
        if cut:
            return Legal(commands=("CloseSeedWindow",) if state.seed_window else ("Cut",))
        return Legal(commands=("Deal",))
    sent = bool(state.seeds_sent) and state.seeds_sent[seat - 1]
    if state.seed_window:
        return Legal(commands=() if sent else ("SendClientSeed",))
    # The host is a seat like the others until the window closes; then he cuts.
    return Legal(commands=("Cut",) if cut and seat == state.host else ())
