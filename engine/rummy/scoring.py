"""How a rummy round is scored and when the game ends, variant by variant (rules/rummy.md).

Card values: Manipulation's penalties (RM-MAN-6: ace 15, 10 J Q K 10, the rest 5),
Carousel's hand points (RM-CAR-10: joker 25, face 10, ace 1, pip), Tahiti's penalties
(RM-TAH-11: joker 30, ace 11, face 10, pip), and one point a card in Shanghai (RM-SHA-4),
Machiavelli and Guadeloupe (RM-MAC-5, RM-GUA-7). Vatican keeps no points (RM-VAT-6): its
"points" are the cards left, which decide a blocked round (RM-VAT-7).

`score` turns the hands at a round's end into the round's result and, where the game ends
with it, the game's; it knows nothing of turns.
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from engine.cards import JOKER

__all__ = ["KNOCK_AT", "Score", "card_points", "hand_points", "score", "standings"]

_FACES = ("J", "Q", "K")
_SINGLE_ROUND = ("machiavelli", "guadeloupe", "vatican", "tahiti")
_CAROUSEL_END = 150  # RM-CAR-21
_CAROUSEL_BONUS = 100
_CAROUSEL_ROUND = 25
_BEAT_KNOCKER = 10  # RM-CAR-13
_EMPTY_HAND = 25  # RM-CAR-17
KNOCK_AT = 5  # RM-CAR-11: the most hand points a Carousel knock may leave


class Score(msgspec.Struct, frozen=True, kw_only=True):
    points: tuple[int, ...]  # the round's result per seat
    totals: tuple[int, ...]  # running totals after it
    winners: tuple[int, ...]  # the round's winners; () is a draw
    rounds_won: tuple[int, ...]
    game_over: bool
    game_winners: tuple[int, ...] = ()  # () with game_over: a draw
    final: tuple[int, ...] = ()


def card_points(card: str, variant: str) -> int:
    """What one card left in hand counts in `variant`."""
    rank = card.split("#", maxsplit=1)[0][:-1] if not card.startswith(JOKER) else JOKER
    if variant == "manipulation":
        return 15 if rank == "A" else 10 if rank in ("10", *_FACES) else 5
    if variant == "carousel":
        return 25 if rank == JOKER else 10 if rank in _FACES else 1 if rank == "A" else int(rank)
    if variant == "tahiti":
        return 30 if rank == JOKER else 11 if rank == "A" else 10 if rank in _FACES else int(rank)
    return 1  # Shanghai, Machiavelli, Guadeloupe: a card is a point; Vatican: a card


def hand_points(hand: Sequence[str], variant: str) -> int:
    return sum(card_points(card, variant) for card in hand)


def score(
    variant: str,
    how: str,
    hands: Sequence[Sequence[str]],
    *,
    mover: int,
    totals: Sequence[int],
    rounds_won: Sequence[int],
    play_to: int = 200,
) -> Score:
    """The round's end: `how` is "out" (`mover` emptied his hand), "blocked", "knock"
    (`mover` knocked) or "stock_end" (Carousel's final turns are over)."""
    values = [hand_points(h, variant) for h in hands]
    seats = range(1, len(hands) + 1)
    if variant == "carousel":
        return _carousel(how, values, mover, totals, rounds_won)
    if how == "out":
        winners: tuple[int, ...] = (mover,)
    elif variant in _SINGLE_ROUND:  # RM-MAC-6, RM-GUA-8, RM-VAT-7, RM-TAH-12
        winners = _lowest(values)
        winners = winners if len(winners) == 1 else ()
    else:
        winners = _lowest(values)
    points = tuple(0 if not h else v for h, v in zip(hands, values, strict=True))
    won = tuple(n + (s in winners) for s, n in zip(seats, rounds_won, strict=True))
    if variant in _SINGLE_ROUND:  # RM-AMB-23: a result per player, no running total
        return Score(
            points=points,
            totals=points,
            winners=winners,
            rounds_won=won,
            game_over=True,
            game_winners=winners,
            final=points,
        )
    new = tuple(t + p for t, p in zip(totals, points, strict=True))
    if variant == "manipulation" and max(new) >= play_to:  # RM-MAN-8
        lowest = _lowest(new)
        if len(lowest) == 1:
            return Score(
                points=points,
                totals=new,
                winners=winners,
                rounds_won=won,
                game_over=True,
                game_winners=lowest,
                final=new,
            )
        # RM-MAN-9, RM-AMB-21: a shared lowest total plays another round
    return Score(points=points, totals=new, winners=winners, rounds_won=won, game_over=False)


def standings(totals: Sequence[int]) -> tuple[int, ...]:
    """The seats with the lowest total (Shanghai's leaders, RM-SHA-5, RM-AMB-22)."""
    return _lowest(totals)


def _carousel(
    how: str, values: list[int], mover: int, totals: Sequence[int], rounds_won: Sequence[int]
) -> Score:
    """RM-CAR-12..21, RM-AMB-16..19."""
    n = len(values)
    if how == "out":  # RM-CAR-17
        winners: tuple[int, ...] = (mover,)
        bonus = _EMPTY_HAND
    else:
        winners = _lowest(values)
        bonus = 0
        if how == "knock" and winners != (mover,):
            # RM-CAR-13/14/15: a knocker tied or beaten loses the round to the others
            winners = tuple(s for s in winners if s != mover)
            bonus = _BEAT_KNOCKER
    gains = [0] * n
    for w in winners:
        gains[w - 1] = sum(v - values[w - 1] for v in values) + bonus
    if how == "out":
        gains[mover - 1] = sum(values) + _EMPTY_HAND
    new = tuple(t + g for t, g in zip(totals, gains, strict=True))  # RM-CAR-16
    won = tuple(r + (s in winners) for s, r in enumerate(rounds_won, 1))
    if max(new) < _CAROUSEL_END:
        return Score(
            points=tuple(gains), totals=new, winners=winners, rounds_won=won, game_over=False
        )
    final = tuple(  # RM-CAR-21, RM-AMB-19
        t + (_CAROUSEL_BONUS if t >= _CAROUSEL_END else 0) + _CAROUSEL_ROUND * r
        for t, r in zip(new, won, strict=True)
    )
    top = max(final)
    best = tuple(s for s, f in enumerate(final, 1) if f == top)
    return Score(
        points=tuple(gains),
        totals=new,
        winners=winners,
        rounds_won=won,
        game_over=True,
        game_winners=best if len(best) == 1 else (),
        final=final,
    )


def _lowest(values: Sequence[int]) -> tuple[int, ...]:
    low = min(values)
    return tuple(s for s, v in enumerate(values, 1) if v == low)
