"""The audit of one unit of play from its record, for the games whose record holds each
unit as its revealed secret, its commands and its stored events (rummy, Bunco, the dice
tool; docs/deal-format.md §10).

A unit passes when the secret is hex and hashes to the commitment its first event
recorded, every command is accepted again by the game's own decider in order, starting
with the system's CommitSeed of that secret, and the events so derived equal the
recorded ones one for one (the commitment's secret written empty, as every record keeps
it). The first thing that fails is named: the check and a sentence. Each game keeps its
own verdict types and says what its units are called and, for the first differing event,
what is worth showing (a roll's dice, say).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeVar

from msgspec.structs import replace

from engine import protocol
from engine.errors import RuleViolation
from engine.fairness import CommitSeed, SeedCommitted

__all__ = ["Failure", "difference", "replay_unit", "unit_verdicts", "until_failed"]

S = TypeVar("S")
L = TypeVar("L")
V = TypeVar("V")
Failure = tuple[str, str]  # (the check that failed, why)
# (index of the first differing event, the recorded events, the derived ones) -> a sentence
Describe = Callable[[int, Sequence[Any], Sequence[Any]], str]

_SYSTEM = 0


def difference(at: int, recorded: Sequence[Any], derived: Sequence[Any]) -> str:
    """The sentence for the first event that differs: its place and type."""
    shown = type(recorded[at]).__name__ if at < len(recorded) else "nothing"
    return f"event {at} ({shown}) differs from the one the rules derive"


def replay_unit(
    state: S,
    secret: str,
    commands: Sequence[tuple[int, Any]],
    recorded: Sequence[Any],
    decide: Callable[[S, int, Any], tuple[Any, ...]],
    evolve: Callable[[S, Any], S],
    *,
    unit: str = "round",
    describe: Describe = difference,
) -> tuple[Failure | None, S]:
    """The unit replayed from `state`: None and the state after it when it passes, else
    what failed and `state` as it was."""
    try:
        key = bytes.fromhex(secret)
    except ValueError:
        return ("secret", "the revealed secret is not hex"), state
    if not recorded or not isinstance(recorded[0], SeedCommitted):
        return ("commitment", f"the {unit} does not open with its commitment"), state
    if recorded[0].commitment != hashlib.sha256(key).hexdigest():
        return ("commitment", "the revealed secret does not hash to the commitment"), state
    after = state
    derived: list[Any] = []
    for i, (seat, command) in enumerate(((_SYSTEM, CommitSeed(secret=secret)), *commands)):
        try:
            events = decide(after, seat, command)
        except RuleViolation as exc:
            return ("commands", f"command {i} is refused: {exc.message}"), state
        for event in events:
            after = evolve(after, event)
        derived.extend(events)
    derived[0] = replace(derived[0], secret="")
    if derived != list(recorded):
        pairs = enumerate(zip(recorded, derived, strict=False))
        at = next((i for i, (a, b) in pairs if a != b), min(len(recorded), len(derived)))
        return ("events", describe(at, recorded, derived)), state
    return None, after


def until_failed(state: S, logs: Iterable[L], one: Callable[[S, L], tuple[V, S]]) -> list[V]:
    """Each unit's verdict in order (`one` audits a unit from the state the units before
    it left), up to and with the first that fails: a later unit starts from a state the
    record no longer vouches for."""
    out: list[V] = []
    for log in logs:
        verdict, state = one(state, log)
        out.append(verdict)
        if not getattr(verdict, "passed", False):
            break
    return out


def unit_verdicts(verdicts: Iterable[Any]) -> tuple[protocol.UnitVerdict, ...]:
    """A game's per-unit verdicts (number, passed, check, detail) as the platform reads
    them (`RecordSection.units`)."""
    return tuple(
        protocol.UnitVerdict(number=v.number, passed=v.passed, check=v.check, detail=v.detail)
        for v in verdicts
    )
