"""A scripted Banakil client: the command a seat sends, from its own view as it arrives.

What `sahra bench service` and the soak play with over real WebSockets: a seat reads only
its view (the `View` encoded as JSON, decoded into `ClientView`, the parts a client reads),
as a real client would. On its turn it draws, lays the melds `autoplay.find_melds` finds
in its hand that the meld rules accept (a client may ship the pure engine), then
discards a plain card at random; a classic host cuts. After a refusal (`safe`) it skips
the melds and discards its first card, which the rules always accept once it has drawn.

Pure: the caller passes its own random generator.
"""

from __future__ import annotations

import msgspec

from engine.banakil.autoplay import Rng, find_melds
from engine.banakil.melds import new_meld
from engine.banakil.messages import Command, Cut, Discard, Draw, Meld
from engine.banakil.options import BanakilOptions
from engine.cards import RANK
from engine.errors import RuleViolation

__all__ = ["ClientView", "LegalView", "choose"]


class LegalView(msgspec.Struct, frozen=True):
    commands: tuple[str, ...] = ()


class ClientView(msgspec.Struct, frozen=True):
    """The parts of a seat's view (engine.banakil.view.View) that a client reads."""

    seat: int | None = None
    phase: str = ""
    deal: int = 0
    turn: int = 0
    drawn: bool = False
    hand: tuple[str, ...] | None = None
    legal: LegalView = msgspec.field(default_factory=LegalView)
    # what a long-running player reads too: its client seed, the match's end, the window
    client_seeds: tuple[str, ...] = ()
    match_winner: int | None = None
    turn_no: int = 0
    window: bool = False


def choose(
    view: ClientView, options: BanakilOptions, rng: Rng, safe: bool = False
) -> Command | None:
    """The command this seat sends now, from its own view only; None when it is not its
    turn. Melds are checked with the engine's own meld rules; `safe` (after a refusal)
    skips them and discards the first card."""
    seat, hand = view.seat, view.hand
    if seat is None:
        return None
    if view.phase == "seeded" and "Cut" in view.legal.commands:  # classic: the host cuts
        return Cut(position=1 + rng.randrange(105))
    if view.phase != "play" or view.turn != seat or hand is None:
        return None
    if not view.drawn:
        return Draw()
    if not hand:  # pragma: no cover - an empty hand ends the deal
        return None
    if not safe:
        for cards in find_melds(hand):
            try:
                new_meld(cards, None, seat, options)
            except RuleViolation:
                continue
            return Meld(cards=cards)
        plain = [c for c in hand if RANK[c] not in (0, 2)]  # keep the wild cards
        return Discard(card=(plain or list(hand))[rng.randrange(len(plain or hand))])
    return Discard(card=hand[0])
