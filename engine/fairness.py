"""The fairness lifecycle of a unit of play, once for every game (PF-FAIR-1..3, PF-AMB-12 h).

commit → client seeds → draws → reveal. The system commits the unit's 32-byte secret
(CommitSeed → SeedCommitted: its commitment, and the secret kept private); while the
unit's window is open each seat may send one client seed (SendClientSeed → ClientSeedSent);
the system closes the window when the game waits on it (CloseSeedWindow →
SeedWindowClosed); the game draws from the secret and E = `fair.entropy(seeds)`; when the
unit ends its secret is revealed (SeedRevealed).

The table (engine/table.py) decides these commands here for whatever game it plays, from
the game's `Lifecycle` (`Unit.lifecycle`), and folds their events into the game's state,
which is how a game receives the secret and the seeds for its draws. A game's own decider
may take the same commands (a record's replay runs a game without its table): it decides
them here too, so the rules are written once.

The messages keep the type tags and fields Banakil stored before the table took them over,
so every stored stream reads, and re-encodes, byte for byte.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec

from engine import fair
from engine.errors import RuleViolation

__all__ = [
    "COMMANDS",
    "EVENTS",
    "ClientSeedSent",
    "CloseSeedWindow",
    "CommitSeed",
    "Lifecycle",
    "SeedCommitted",
    "SeedRevealed",
    "SeedWindowClosed",
    "SendClientSeed",
    "decide",
    "fold_unit",
    "play",
    "revealed",
]

_SYSTEM = 0
# PF-AMB-12 h: a client seed is 0 to 64 printable ASCII characters (space to "~"). 64 holds
# 256 bits written in hex, more than the secret's own entropy; the bound keeps a deal
# record, and the hash input of E, small whatever a client sends.
_SEED_MAX = 64
_SEED_CHARS = frozenset(map(chr, range(0x20, 0x7F)))


class _Msg(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, tag_field="type"):
    pass


class CommitSeed(_Msg, frozen=True):
    """System: commit the next unit's 32-byte secret (hex); PF-FAIR-1/2."""

    secret: str


class SendClientSeed(_Msg, frozen=True):
    """A seat's optional entropy for the next unit (PF-AMB-12 h): at most one per seat and
    unit, 0 to 64 printable ASCII characters, while the unit's seed window is open."""

    seed: str


class CloseSeedWindow(_Msg, frozen=True):
    """System: the client seed window of a unit that waits on it is over (its time ran
    out, or every human seat has sent a seed; PF-AMB-12 h, PF-CUT-2). A unit whose draws
    need no such wait closes its window by drawing."""


class SeedCommitted(_Msg, frozen=True):
    """The unit's commitment (`deal`: the unit's number, the name Banakil stored it under).
    `secret` is private: no view or broadcast carries it before SeedRevealed (PF-FAIR-3)."""

    deal: int
    commitment: str
    algorithm: str
    secret: str


class ClientSeedSent(_Msg, frozen=True):
    seat: int
    seed: str


class SeedWindowClosed(_Msg, frozen=True):
    """No more client seeds for unit `deal` (PF-AMB-12 h, PF-CUT-2)."""

    deal: int


class SeedRevealed(_Msg, frozen=True):
    deal: int
    secret: str


COMMANDS: tuple[type, ...] = (CommitSeed, SendClientSeed, CloseSeedWindow)
EVENTS: tuple[type, ...] = (SeedCommitted, ClientSeedSent, SeedWindowClosed, SeedRevealed)


class Lifecycle(msgspec.Struct, frozen=True, kw_only=True):
    """Where a game's unit stands in the lifecycle, as the game's state says: `unit`, the
    number of the last unit committed (0 before the first); `awaiting_secret`, the game
    waits for the next unit's secret; `committed`, a unit is committed and not yet drawn
    from; `window`, seats may send client seeds now; `seeds_sent` by seat; `secret`, the
    committed secret of the unit being played until it is revealed (None for a stacked
    unit, which has none)."""

    unit: int
    awaiting_secret: bool
    committed: bool
    window: bool
    seeds_sent: tuple[bool, ...] = ()
    secret: str | None = None


def decide(life: Lifecycle, seat: int, command: Any) -> tuple[Any, ...]:
    """The events of a lifecycle command, or RuleViolation."""
    match command:
        case CommitSeed(secret=text):
            _system(seat)
            if not life.awaiting_secret:
                raise RuleViolation(
                    "wrong_phase", "BK-TURN-1", "a deal is already seeded or running"
                )
            secret = fair.parse_secret(text)
            return (
                SeedCommitted(
                    deal=life.unit + 1,
                    commitment=fair.commitment(secret),
                    algorithm=fair.ALGORITHM,
                    secret=secret.hex(),
                ),
            )
        case SendClientSeed(seed=seed):
            return (_client_seed(life, seat, seed),)
        case CloseSeedWindow():
            _system(seat)
            if not life.committed:
                raise RuleViolation(
                    "wrong_phase", "BK-TURN-1", "no deal is waiting for client seeds"
                )
            if not life.window:
                raise RuleViolation(
                    "seed_window_closed", "PF-AMB-12", "the client seed window is already closed"
                )
            return (SeedWindowClosed(deal=life.unit),)
    raise AssertionError(f"not a lifecycle command: {command!r}")  # pragma: no cover


def play(
    lifecycle: Callable[[Any], Lifecycle],
    ends: Callable[[Any], int | None],
    rules: Callable[[Any, int, Any], tuple[Any, ...]],
    state: Any,
    seat: int,
    command: Any,
) -> tuple[Any, ...]:
    """One command of a game inside the lifecycle: a lifecycle command is decided here
    from the game's `lifecycle(state)`; any other goes to the game's `rules`, and the
    unit's secret is revealed right after the event that `ends` the unit. The table
    decides every game command so (engine/table.py), and so does a game played without
    its table (a record's replay)."""
    if isinstance(command, COMMANDS):
        return decide(lifecycle(state), seat, command)
    events = tuple(rules(state, seat, command))
    return revealed(events, ends, lifecycle(state).secret)


def revealed(
    events: tuple[Any, ...], ends: Callable[[Any], int | None], secret: str | None
) -> tuple[Any, ...]:
    """`events` with the unit's secret revealed right after the event that ends the unit
    (PF-FAIR-3); unchanged when none ends it, or when the unit had no secret (stacked)."""
    if secret is None:
        return events
    for i, event in enumerate(events):
        number = ends(event)
        if number is not None:
            reveal = SeedRevealed(deal=number, secret=secret)
            return (*events[: i + 1], reveal, *events[i + 1 :])
    return events


def _system(seat: int) -> None:
    if seat != _SYSTEM:
        raise RuleViolation("system_only", "PF-FAIR-1", "only the system seeds and deals")


def _client_seed(life: Lifecycle, seat: int, seed: str) -> ClientSeedSent:
    """PF-AMB-12 h: one seed per seat and unit, bounded, and only while the window is open
    (after the commitment, before the draws): a flood of seeds is refused, never stored or
    broadcast."""
    if seat == _SYSTEM:
        raise RuleViolation("not_a_seat", "PF-AMB-12", "a client seed comes from a seat")
    if life.seeds_sent and not 1 <= seat <= len(life.seeds_sent):
        raise RuleViolation("bad_seat", "PF-AMB-12", f"there is no seat {seat} at this table")
    if not life.committed or not life.window:
        raise RuleViolation(
            "seed_window_closed",
            "PF-AMB-12",
            "client seeds are taken only between a deal's commitment and its deal or cut; "
            "the window of this deal is closed",
        )
    if life.seeds_sent and life.seeds_sent[seat - 1]:
        raise RuleViolation(
            "seed_already_sent",
            "PF-AMB-12",
            f"seat {seat} has already sent its client seed for this deal (one per seat)",
        )
    if not isinstance(seed, str) or len(seed) > _SEED_MAX or not _SEED_CHARS.issuperset(seed):
        raise RuleViolation(
            "bad_client_seed",
            "PF-AMB-12",
            f"a client seed is 0 to {_SEED_MAX} printable ASCII characters (space to '~')",
        )
    return ClientSeedSent(seat=seat, seed=seed)


def fold_unit(state: Any, event: Any) -> Any:
    """The lifecycle's events folded into a game state that keeps them in the fields
    rummy's and Bunco's states share (`phase`, `round`, `secret`, `commitment`,
    `client_seeds`, `seeds_sent`, `seed_window`, and `result`, whose `secret` the reveal
    fills in); None for any other event, which the game folds itself."""
    match event:
        case SeedCommitted(deal=number, commitment=commitment, secret=secret):
            n = state.seats
            return msgspec.structs.replace(
                state,
                phase="seeded",
                round=number,
                secret=secret or None,
                commitment=commitment,
                client_seeds=("",) * n,
                seeds_sent=(False,) * n,
                seed_window=True,
            )
        case ClientSeedSent(seat=seat, seed=seed):
            return msgspec.structs.replace(
                state,
                client_seeds=_at(state.client_seeds, seat, seed),
                seeds_sent=_at(state.seeds_sent, seat, True),
            )
        case SeedRevealed(secret=secret):
            shown = state.result and msgspec.structs.replace(state.result, secret=secret)
            return msgspec.structs.replace(state, secret=None, result=shown)
        case SeedWindowClosed():
            return msgspec.structs.replace(state, seed_window=False)
    return None


def _at(values: tuple[Any, ...], seat: int, value: Any) -> tuple[Any, ...]:
    return (*values[: seat - 1], value, *values[seat:])
