"""Hints for the asking seat (PF-HINT-1..3, PF-AMB-20; on in `sahrat`, BK-OPT-22).

Computed from the seat's own hand and its team's melds only; listed in a fixed order —
ready melds, then add-ons, then jokers to win back — each sorted by suit ♣ ♦ ♥ ♠ then
rank. A hint never restricts play: every legal action is accepted, not only these.
"""

from __future__ import annotations

import msgspec

from engine.banakil import melds
from engine.banakil.autoplay import find_melds
from engine.banakil.state import State, team_of
from engine.cards import RANK, SUIT, SUITS, Card, face
from engine.errors import RuleViolation

__all__ = ["Hints", "hints"]


class Hints(msgspec.Struct, frozen=True, kw_only=True):
    melds: tuple[tuple[str, ...], ...] = ()  # faces, ready to lay from the hand
    lay_offs: tuple[tuple[str, int], ...] = ()  # (face, meld id)
    jokers: tuple[tuple[str, int], ...] = ()  # (face that frees it, meld id)


def _order(card: Card) -> tuple[int, int]:
    return (SUITS.index(SUIT[card]) if SUIT[card] else 4, RANK[card] or 14)


def hints(state: State, seat: int) -> Hints:
    if not state.options.hints or state.phase != "play" or not 1 <= seat <= state.seats:
        return Hints()
    hand = state.hands[seat - 1]
    ready = sorted(find_melds(hand), key=lambda m: _order(m[0]))
    team = team_of(state, seat)
    partner_ok = state.laid[seat - 1] or not state.options.partner_addon_needs_own_meld
    lay_offs: list[tuple[Card, int]] = []
    jokers: list[tuple[Card, int]] = []
    for meld in state.melds:
        if meld.team != team or (meld.creator != seat and not partner_ok):
            continue
        for card in sorted(set(hand), key=_order):
            try:
                melds.add_to_meld(meld.cards, meld.kind, (card,), seat, state.options)
                lay_offs.append((card, meld.id))
            except RuleViolation:
                pass
            if any(RANK[p.card] == 0 for p in meld.cards):
                try:
                    melds.exchange_joker(meld.cards, meld.kind, card, seat, state.options)
                    jokers.append((card, meld.id))
                except RuleViolation:
                    pass
    return Hints(
        melds=tuple(tuple(face(c) for c in m) for m in ready),
        lay_offs=_unique(sorted(lay_offs, key=lambda x: (*_order(x[0]), x[1]))),
        jokers=_unique(sorted(jokers, key=lambda x: (*_order(x[0]), x[1]))),
    )


def _unique(pairs: list[tuple[Card, int]]) -> tuple[tuple[str, int], ...]:
    out: list[tuple[str, int]] = []
    for card, meld_id in pairs:
        item = (face(card), meld_id)
        if item not in out:
            out.append(item)
    return tuple(out)
