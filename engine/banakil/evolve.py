"""`evolve(state, event) -> state`: apply one event. Total and boring: `decide` checked
everything, so nothing here can fail on an event `decide` produced."""

from __future__ import annotations

from collections.abc import Sequence

from msgspec.structs import replace

from engine.banakil.messages import (
    CardDiscarded,
    CardDrawn,
    CardsDealt,
    ClientSeedSent,
    DealEnded,
    DealScored,
    DeckCut,
    DeckStacked,
    Event,
    GroundReshuffled,
    GroundTaken,
    MatchEnded,
    MeldLaid,
    MeldUpdated,
    SeedCommitted,
    SeedRevealed,
    SeedWindowClosed,
    SeriesEnded,
    TurnTimedOut,
)
from engine.banakil.state import State, TableMeld, team_of

__all__ = ["evolve"]


def _set(seq: tuple[bool, ...], i: int) -> tuple[bool, ...]:
    return seq if seq[i] else (*seq[:i], True, *seq[i + 1 :])


def _hand(state: State, seat: int, hand: tuple[str, ...]) -> tuple[tuple[str, ...], ...]:
    hands = list(state.hands)
    hands[seat - 1] = hand
    return tuple(hands)


def _without(hand: tuple[str, ...], cards: Sequence[str]) -> tuple[str, ...]:
    if len(cards) == 1:  # the common case (a discard, one lay-off): no set, no scan in Python
        i = hand.index(cards[0])
        return hand[:i] + hand[i + 1 :]
    out = list(hand)
    try:
        for card in cards:  # a few cards out of a hand: each removal is one scan in C
            out.remove(card)
    except ValueError:  # a card not in the hand (or named twice): keep what is there
        gone = set(cards)
        return tuple(c for c in hand if c not in gone)
    return tuple(out)


def _next_turn(state: State, seat: int) -> State:
    nxt = seat % state.seats + 1
    return replace(
        state,
        turn=nxt,
        turn_no=state.turn_no + 1,
        window=False,
        drawn=False,
        first_turn=False,
        turn_clean=not state.acted[nxt - 1],
        turn_partner_touch=False,
    )


def evolve(state: State, event: Event) -> State:
    match event:
        case CardDrawn(seat=seat, card=card):
            return replace(
                state,
                stock=state.stock[1:],
                hands=_hand(state, seat, (*state.hands[seat - 1], card)),
                drawn=True,
            )
        case CardDiscarded(seat=seat, card=card):
            hand = _without(state.hands[seat - 1], (card,))
            state = replace(state, hands=_hand(state, seat, hand), ground=(*state.ground, card))
            return state if not hand else _next_turn(state, seat)
        case MeldUpdated():
            return _meld_updated(state, event)
        case MeldLaid(seat=seat, meld=meld_id, kind=kind, cards=placed):
            i = seat - 1
            meld = TableMeld(
                id=meld_id, team=team_of(state, seat), creator=seat, kind=kind, cards=placed
            )
            hand = _without(state.hands[i], [p.card for p in placed])
            return replace(
                state,
                melds=(*state.melds, meld),
                hands=_hand(state, seat, hand),
                opened=_set(state.opened, i) if len(placed) >= 3 else state.opened,
                laid=_set(state.laid, i),
                acted=_set(state.acted, i),
            )
        case GroundTaken(seat=seat, cards=cards):
            return replace(
                state,
                ground=state.ground[: len(state.ground) - len(cards)],
                hands=_hand(state, seat, (*state.hands[seat - 1], *cards)),
                drawn=True,
            )
        case GroundReshuffled(number=number, stock=stock):
            return replace(state, stock=stock, ground=state.ground[-1:], reshuffles=number)
        case CardsDealt():
            return _dealt(state, event)
        case SeedCommitted(deal=deal, commitment=commitment, secret=secret):
            return replace(
                state,
                phase="seeded",
                deal=deal,
                commitment=commitment,
                secret=secret,
                stacked=None,
                client_seeds=("",) * state.seats,
                seeds_sent=(False,) * state.seats,
                seed_window=True,
            )
        case DeckStacked(deal=deal, cards=cards, dealer=dealer, cut=cut):
            return replace(
                state,
                phase="seeded",
                deal=deal,
                commitment=None,
                secret=None,
                stacked=cards,
                stacked_dealer=dealer,
                stacked_cut=cut,
                client_seeds=("",) * state.seats,
                seeds_sent=(False,) * state.seats,
                seed_window=False,  # a stacked deck: seeds would change nothing
            )
        case ClientSeedSent(seat=seat, seed=seed):
            seeds = list(state.client_seeds)
            seeds[seat - 1] = seed
            sent = _set(state.seeds_sent or (False,) * state.seats, seat - 1)
            return replace(state, client_seeds=tuple(seeds), seeds_sent=sent)
        case SeedWindowClosed():
            return replace(state, seed_window=False)
        case DeckCut(cut_card=cut_card):
            return replace(state, cut_card=cut_card)
        case DealEnded(reason=reason, finisher=finisher):
            return replace(state, end_reason=reason, finisher=finisher, turn=0, window=False)
        case TurnTimedOut():
            return replace(state, window=True)
        case DealScored(teams=teams, extra_deals=extra):
            return replace(
                state,
                last_scores=event,
                tie_break=extra,
                totals=tuple(t.total for t in teams),
                phase="seeding",
                deals_in_match=state.deals_in_match + 1,
                prev_starter=state.starter,
                prev_dealer=state.dealer,
                next_match_starter=None,
            )
        case SeedRevealed():
            return replace(state, secret=None)
        case MatchEnded(winner=winner):
            return _match_ended(state, winner)
        case SeriesEnded(winner=winner):
            return replace(state, series_winner=winner, phase="over")
    raise AssertionError(f"unknown event {event!r}")  # pragma: no cover


def _meld_updated(state: State, event: MeldUpdated) -> State:
    seat, i = event.seat, event.seat - 1
    melds = list(state.melds)
    old = melds[event.meld]
    melds[event.meld] = replace(old, cards=event.cards)
    hand = (*_without(state.hands[i], event.from_hand), *event.to_hand)
    touch = state.turn_partner_touch or (old.creator != seat and event.action != "move")
    return replace(
        state,
        melds=tuple(melds),
        hands=_hand(state, seat, hand),
        acted=_set(state.acted, i) if event.from_hand else state.acted,
        turn_partner_touch=touch,
    )


def _dealt(state: State, event: CardsDealt) -> State:
    n = state.seats
    return replace(
        state,
        phase="play",
        seed_window=False,
        entropy=event.entropy,
        dealer=event.dealer,
        starter=event.starter,
        hands=event.hands,
        stock=event.stock,
        ground=(),
        melds=(),
        turn=event.starter,
        drawn=True,  # BK-DEAL-5: no draw on the starter's first turn
        first_turn=True,
        turn_no=1,
        window=False,
        reshuffles=0,
        opened=(False,) * n,
        laid=(False,) * n,
        acted=(False,) * n,
        turn_clean=True,
        turn_partner_touch=False,
        end_reason=None,
        finisher=None,
        cut_card=state.cut_card if state.deals_in_match == 0 else None,
    )


def _match_ended(state: State, winner: int) -> State:
    wins = list(state.series_wins or (0, 0))
    wins[winner - 1] += 1
    series_on = state.options.series
    return replace(
        state,
        match_winner=winner,
        series_wins=tuple(wins),
        phase="seeding" if series_on and max(wins) < 2 else "over",
        match=state.match + (1 if series_on and max(wins) < 2 else 0),
        totals=(0, 0) if series_on and max(wins) < 2 else state.totals,
        tie_break=False,
        deals_in_match=0 if series_on and max(wins) < 2 else state.deals_in_match,
        next_match_starter=(1 if winner == 1 else 2) if state.seats == 4 else winner,
        cut_card=None,  # PF-CUT-6: a later match has no cut, so no cut card to show
    )
