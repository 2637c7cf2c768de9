"""Builders for engine tests: a table in the middle of a deal, written in card notation."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from msgspec.structs import replace

from engine import banakil
from engine.banakil.evolve import evolve
from engine.banakil.messages import Command, Event, Placed
from engine.banakil.state import State, TableMeld
from engine.cards import face, parse_card

__all__ = ["apply", "cards", "faces_of", "meld", "table", "try_"]


def cards(text: str) -> tuple[str, ...]:
    """'7H 8H 7H JK' → ('7H#1', '8H#1', '7H#2', 'JK#1'): copies numbered in order."""
    seen: dict[str, int] = {}
    out = []
    for word in text.split():
        f = face(parse_card(word))
        if "#" in word:
            out.append(parse_card(word))
            continue
        seen[f] = seen.get(f, 0) + 1
        out.append(f"{f}#{seen[f]}")
    return tuple(out)


def faces_of(ids: Iterable[str]) -> list[str]:
    return [face(c) for c in ids]


def meld(
    mid: int, team: int, creator: int, kind: str, spec: str, placer: int | None = None
) -> TableMeld:
    """A table meld from 'CARD[=STANDS_FOR][@SEAT] ...', e.g. '7H 8H 2C=9H 10H@3'."""
    placed = []
    copies: dict[str, int] = {}
    for token in spec.split():
        seat = placer or creator
        word, _, at = token.partition("@")
        if at:
            seat = int(at)
        word, _, stands = word.partition("=")
        f = face(parse_card(word))
        copies[f] = copies.get(f, 0) + 1
        card = parse_card(word) if "#" in word else f"{f}#{copies[f]}"
        placed.append(Placed(card, seat, stands or f))
    return TableMeld(id=mid, team=team, creator=creator, kind=kind, cards=tuple(placed))  # type: ignore[arg-type]


def table(
    preset: str = "classic",
    *,
    hands: Sequence[str] = ("", "", "", ""),
    ground: str = "",
    stock: str = "5C 6C 7C 8C 9C",
    melds: Sequence[TableMeld] = (),
    turn: int = 1,
    drawn: bool = True,
    first_turn: bool = False,
    options: dict[str, Any] | None = None,
    **fields: Any,
) -> State:
    """A deal in play. `ground` is written top first, like every ground in the rules file.
    Hands are written per seat; copies of a face are numbered from #1 within each hand, so
    use explicit identities (7H#2) when two hands or the table must hold different copies."""
    opts = banakil.options_from(preset, **(options or {}))
    state = banakil.initial(opts)
    n = state.seats
    hands = tuple(hands)[:n] + ("",) * max(0, n - len(hands))
    defaults: dict[str, Any] = {
        "phase": "play",
        "deal": 1,
        "starter": 1,
        "dealer": n,
        "hands": tuple(cards(h) for h in hands),
        "stock": cards(stock),
        "ground": tuple(reversed(cards(ground))),
        "melds": tuple(melds),
        "turn": turn,
        "drawn": drawn,
        "first_turn": first_turn,
        "opened": (False,) * n,
        "laid": (False,) * n,
        "acted": (False,) * n,
        "turn_clean": True,
        "client_seeds": ("",) * n,
    }
    return replace(state, **(defaults | fields))


def apply(state: State, seat: int, command: Command) -> tuple[State, tuple[Event, ...]]:
    """decide + fold: the new state and the events."""
    events = banakil.decide(state, seat, command)
    for e in events:
        state = evolve(state, e)
    return state, events


def try_(state: State, seat: int, command: Command) -> Any:
    """The RuleViolation a command raises (asserting that it does, and changes nothing)."""
    import pytest

    from engine.errors import RuleViolation

    with pytest.raises(RuleViolation) as info:
        banakil.decide(state, seat, command)
    return info.value
