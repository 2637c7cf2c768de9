"""A random legal rummy player, cheap enough that a bench times the engine, not the player.

On its turn it tries a few random plays that need no search — a new set or run laid from
its hand, or one hand card laid off at an end of a group — keeps the first the rules
accept, and otherwise draws (or passes on an empty stock). It never names a joker, so its
jokers stay in its hand. The system's own steps (commit the round's secret, deal) come
from the same generator, so a seeded generator replays a whole game.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from engine.errors import RuleViolation
from engine.players import Rng
from engine.rummy.messages import CommitSeed, Deal, Draw, Event, GiveUp, Pass, Play
from engine.rummy.rules import decide
from engine.rummy.state import State
from engine.rummy.view import legal

__all__ = ["random_command", "random_step"]

_SYSTEM = 0
_TRIES = 6


def random_step(state: State, rng: Rng) -> tuple[int, Any, tuple[Event, ...]]:
    """One accepted command of whoever acts now, as (seat, command, its events)."""
    if state.phase == "seeding":
        secret = "".join(f"{rng.randrange(256):02x}" for _ in range(32))
        seat, command = _SYSTEM, CommitSeed(secret=secret)
        return seat, command, decide(state, seat, command)
    if state.phase == "seeded":
        return _SYSTEM, Deal(), decide(state, _SYSTEM, Deal())
    seat = state.turn
    command = random_command(state, seat, rng)
    try:
        return seat, command, decide(state, seat, command)
    except RuleViolation:
        command = _plain(state, seat)
        return seat, command, decide(state, seat, command)


def random_command(state: State, seat: int, rng: Rng) -> Any:
    allowed = legal(state, seat).commands
    if "Play" in allowed:
        for _ in range(_TRIES):
            move = _random_play(state, seat, rng)
            if move is None:
                continue
            try:
                decide(state, seat, move)
            except RuleViolation:
                continue
            return move
    return _plain(state, seat)


def _plain(state: State, seat: int) -> Any:
    allowed = legal(state, seat).commands
    if "Draw" in allowed:
        return Draw()
    if "Pass" in allowed:
        return Pass()
    return GiveUp()


def _random_play(state: State, seat: int, rng: Rng) -> Play | None:
    hand = [c for c in state.hands[seat - 1] if not c.startswith("JK")]
    if not hand:
        return None
    if rng.random() < 0.5:
        group = _new_group(hand, rng)
        if group is None:
            return None
        return Play(table=(*state.table, group), added=group, names={})
    if not state.table:
        return None
    card = hand[rng.randrange(len(hand))]
    k = rng.randrange(len(state.table))
    grown = (*state.table[k], card)
    table = (*state.table[:k], grown, *state.table[k + 1 :])
    return Play(table=table, added=(card,), names={})


def _new_group(hand: list[str], rng: Rng) -> tuple[str, ...] | None:
    """A random set (one rank, distinct suits) or run (one suit, three in sequence)."""
    faces: dict[str, str] = {}
    for card in hand:
        faces.setdefault(card.split("#")[0], card)
    by_rank: dict[str, list[str]] = defaultdict(list)
    for face, card in faces.items():
        by_rank[face[:-1]].append(card)
    sets = [cards for cards in by_rank.values() if len(cards) >= 3]
    order = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
    runs = []
    for suit in "CDHS":
        for i in range(len(order) - 2):
            trio = [f"{order[i + d]}{suit}" for d in range(3)]
            if all(f in faces for f in trio):
                runs.append([faces[f] for f in trio])
    found = sets + runs
    if not found:
        return None
    return tuple(found[rng.randrange(len(found))][:4])
