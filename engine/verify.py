"""Audit a deal record against the rules: is every recorded event exactly what the committed
seed and the commands produce?

The verifier replays each deal from a new table (or from the state the previous deal left)
with the same engine that played it: the revealed secret must hash to the commitment
shown before the deal; the deck, every reshuffle and every drawn card are re-derived
from it; every command is decided again, and its events must equal the recorded ones,
one for one; the scores and the match totals are recomputed. The first difference is
reported with the check it breaks, its place in the log, and a sentence saying why.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Literal

import msgspec
from msgspec.structs import replace

from engine import banakil, fair
from engine.banakil.decide import decide_fold
from engine.banakil.messages import (
    CardDrawn,
    CardsDealt,
    ClientSeedSent,
    CloseSeedWindow,
    Command,
    Cut,
    DealScored,
    DeckCut,
    Event,
    GroundReshuffled,
    MatchEnded,
    SeedCommitted,
    SeedRevealed,
    SeedWindowClosed,
    SeriesEnded,
)
from engine.banakil.state import State
from engine.errors import RuleViolation
from engine.replay import SYSTEM as _SYSTEM
from engine.replay import DealRecord, Record, opening, record_options

__all__ = ["CHECKS", "Check", "DealVerdict", "Difference", "Verdict", "verify_record"]

CheckName = Literal["commitment", "deck", "reshuffles", "draws", "commands", "scores", "match"]
CHECKS: tuple[CheckName, ...] = (
    "commitment",
    "deck",
    "reshuffles",
    "draws",
    "commands",
    "scores",
    "match",
)
_CHECK_OF: dict[type, CheckName] = {
    SeedCommitted: "commitment",
    ClientSeedSent: "deck",  # the seats' seeds are part of the shuffle's input
    SeedRevealed: "commitment",
    CardsDealt: "deck",
    DeckCut: "deck",
    GroundReshuffled: "reshuffles",
    CardDrawn: "draws",
    DealScored: "scores",
    MatchEnded: "match",
    SeriesEnded: "match",
}
_JSON = msgspec.json.Encoder()


class Difference(msgspec.Struct, frozen=True, kw_only=True):
    index: int  # place of the event in the deal's recorded log (0 = first)
    expected: Event | None
    recorded: Event | None


class Check(msgspec.Struct, frozen=True, kw_only=True):
    name: CheckName
    status: Literal["pass", "fail", "unchecked"]
    detail: str
    difference: Difference | None = None

    @property
    def passed(self) -> bool:
        return self.status == "pass"


class DealVerdict(msgspec.Struct, frozen=True, kw_only=True):
    deal: int
    passed: bool
    commitment: str | None
    secret: str | None
    checks: tuple[Check, ...]


class Verdict(msgspec.Struct, frozen=True, kw_only=True):
    passed: bool
    deals: tuple[DealVerdict, ...]

    def sentences(self) -> list[str]:
        """The verdict for a person, one line per check."""
        lines = []
        for deal in self.deals:
            head = "PASS" if deal.passed else "FAIL"
            lines.append(f"deal {deal.deal}: {head} (commitment {deal.commitment or '-'})")
            mark = {"pass": "ok  ", "fail": "FAIL", "unchecked": "--  "}
            lines.extend(f"  {mark[c.status]} {c.name}: {c.detail}" for c in deal.checks)
        lines.append("verified: every check passed" if self.passed else "NOT verified")
        return lines


def verify_record(record: Record) -> Verdict:
    """Verify every deal of a record that carries its recorded events."""
    state = banakil.initial(record_options(record), record.host)
    verdicts: list[DealVerdict] = []
    for number, deal in enumerate(record.deals, start=1):
        verdict, state = _verify_deal(number, deal, state)
        verdicts.append(verdict)
        if not verdict.passed:
            break  # later deals start from a state we can no longer trust
    return Verdict(passed=all(v.passed for v in verdicts), deals=tuple(verdicts))


def _verify_deal(number: int, deal: DealRecord, state: State) -> tuple[DealVerdict, State]:
    recorded = deal.events
    secret = deal.seed.secret if deal.seed else None
    commitment = next((e.commitment for e in recorded or () if isinstance(e, SeedCommitted)), None)
    failed: dict[CheckName, Check] = {}
    if secret is not None and recorded is not None:
        digest = hashlib.sha256(bytes.fromhex(secret)).hexdigest()
        if commitment != digest:
            failed["commitment"] = Check(
                name="commitment",
                status="fail",
                detail=f"SHA-256 of the revealed seed is {digest}, "
                f"but the commitment shown before the deal was {commitment}",
            )
    expected: list[Event] = []
    refused: Check | None = None
    steps = [*opening(deal, state), *((s.seat, s.command) for s in deal.commands)]
    legacy = _cut_before_the_window(recorded)
    if legacy:
        steps = _close_before_the_cut(steps)
    for i, (seat, command) in enumerate(steps):
        try:
            events, after = decide_fold(state, seat, command)
        except RuleViolation as exc:
            refused = Check(
                name="commands",
                status="fail",
                detail=f"command {i + 1} ({type(command).__name__} by seat {seat}) is refused "
                f"by the rules: {exc.code} [{exc.rule_id}] {exc.message}",
            )
            break
        state = after
        expected += events
    if legacy:  # the log of that engine has no SeedWindowClosed: its cut closed the window
        expected = [e for e in expected if not isinstance(e, SeedWindowClosed)]
    seeds = _seeds_check(deal, expected)
    if seeds is not None:
        failed["deck"] = seeds
    difference = None
    if recorded is not None:
        difference = _first_difference(expected, recorded)
        if refused is not None and difference is not None and difference.index >= len(expected):
            difference = None  # the log goes on where the replay had to stop: that command
    if refused is not None and (
        "commitment" in failed or (difference is not None and difference.index < len(expected))
    ):
        refused = None  # the log already differs earlier: the refusal only follows from that
    if difference is not None:
        how = _how(difference, expected, recorded or ())
        name = _check_for(difference, how)
        failed.setdefault(
            name,
            Check(
                name=name,
                status="fail",
                detail=_explain(difference, how),
                difference=difference,
            ),
        )
    if refused is not None:
        failed.setdefault("commands", refused)
    cutoff = difference.index if difference is not None else len(expected)
    if refused is not None or "commitment" in failed:
        cutoff = min(cutoff, len(expected) if refused is not None else 0)
    checks = tuple(
        failed.get(name) or _unfailed(name, expected, deal, cutoff if failed else None)
        for name in CHECKS
    )
    passed = not failed
    if recorded is None and deal.seed is not None:
        commitment = next((e.commitment for e in expected if isinstance(e, SeedCommitted)), None)
    return (
        DealVerdict(
            deal=number, passed=passed, commitment=commitment, secret=secret, checks=checks
        ),
        state,
    )


def _cut_before_the_window(recorded: Sequence[Event] | None) -> bool:
    """A `classic` deal logged by the engine before the seed window had its own event
    (PF-AMB-12 h, issue 10): the host's cut closed the window then, and the log has a
    DeckCut and no SeedWindowClosed. Such deals, stored before the upgrade, are the ones
    most likely to be disputed, so they are replayed as they were played: the window is
    closed right before the cut and its (cardless) event is not looked for in the log.
    Every card, seed and command is checked exactly as for a deal of today's engine."""
    if recorded is None:
        return False
    kinds = {type(e) for e in recorded}  # a stacked deck has no window: no SeedCommitted
    return {SeedCommitted, DeckCut} <= kinds and SeedWindowClosed not in kinds


def _close_before_the_cut(steps: list[tuple[int, Command]]) -> list[tuple[int, Command]]:
    if any(isinstance(command, CloseSeedWindow) for _, command in steps):
        return steps
    at = next((i for i, (_, command) in enumerate(steps) if isinstance(command, Cut)), None)
    if at is None:
        return steps
    return [*steps[:at], (_SYSTEM, CloseSeedWindow()), *steps[at:]]


def _seeds_check(deal: DealRecord, expected: Sequence[Event]) -> Check | None:
    """A record that lists client seeds must list the seeds the deal was shuffled with (a
    record from a table sends them as commands; the list is what a reader is shown)."""
    if deal.seed is None or not deal.seed.client_seeds:
        return None
    dealt = next((e for e in expected if isinstance(e, CardsDealt)), None)
    if dealt is None:
        return None
    listed = list(deal.seed.client_seeds)
    n = len(dealt.hands)
    listed += [""] * (n - len(listed))
    if fair.entropy(listed) == dealt.entropy:
        return None
    return Check(
        name="deck",
        status="fail",
        detail=f"the record lists the client seeds {listed}, but the seats sent others: "
        f"the deal was shuffled with E = {dealt.entropy}, not {fair.entropy(listed)}",
    )


def _canonical(event: Event) -> Event:
    # The secret travels in the record's seed, never inside the log itself.
    return replace(event, secret="") if isinstance(event, SeedCommitted) else event


def _first_difference(expected: Sequence[Event], recorded: Sequence[Event]) -> Difference | None:
    # The usual answer first, compared in C: the commitment opens the log.
    want, got = list(expected), list(recorded)
    for events in (want, got):
        if events and isinstance(events[0], SeedCommitted):
            events[0] = _canonical(events[0])
    if want == got:
        return None
    want = [_canonical(e) if isinstance(e, SeedCommitted) else e for e in want]
    got = [_canonical(e) if isinstance(e, SeedCommitted) else e for e in got]
    for i in range(max(len(want), len(got))):
        w = want[i] if i < len(want) else None
        g = got[i] if i < len(got) else None
        if w != g:
            return Difference(index=i, expected=w, recorded=g)
    return None  # pragma: no cover - the lists differ somewhere


def _check_for(difference: Difference, how: str) -> CheckName:
    """The check a difference breaks: that of the event the rules give, for an event
    missing from the log; of the recorded one, for an event that should not be there;
    else of either (a command's own events are the "commands" check)."""
    events: tuple[Event | None, ...] = (difference.expected, difference.recorded)
    if how == "missing":
        events = (difference.expected,)
    elif how == "extra":
        events = (difference.recorded,)
    for event in events:
        if event is not None and type(event) in _CHECK_OF:
            return _CHECK_OF[type(event)]
    return "commands"


def _how(d: Difference, expected: Sequence[Event], recorded: Sequence[Event]) -> str:
    """What the first difference looks like: "missing", "extra", "swapped" or "differs"."""
    if d.recorded is None:
        return "missing"
    if d.expected is None:
        return "extra"
    i = d.index
    want = [_canonical(e) for e in expected[i : i + 3]]
    got = [_canonical(e) for e in recorded[i : i + 3]]
    if len(want) >= 2 and len(got) >= 2 and want[:2] == got[1::-1]:
        return "swapped"
    if want[1:] and got[: len(want) - 1] == want[1:]:
        return "missing"
    if got[1:] and want[: len(got) - 1] == got[1:]:
        return "extra"
    return "differs"


def _explain(d: Difference, how: str) -> str:
    def show(event: Event | None) -> str:
        return "nothing" if event is None else _JSON.encode(event).decode()

    i = d.index
    if how == "missing":
        return f"event {i} is missing from the log: the rules produce {show(d.expected)}"
    if how == "extra":
        return f"event {i} should not be there: {show(d.recorded)}"
    if how == "swapped":
        return (
            f"events {i} and {i + 1} are in the wrong order: the log has {show(d.recorded)} "
            f"first, the rules give {show(d.expected)} first"
        )
    return (
        f"event {i} differs: the log has {show(d.recorded)}, "
        f"the seed and the rules give {show(d.expected)}"
    )


_PASSED = {
    "commitment": "the revealed seed hashes to the commitment shown before the deal",
    "deck": "the dealt hands and the stock follow from the seed (and the cut)",
    "reshuffles": "every reshuffle of the ground follows from the seed",
    "draws": "every drawn card is the top card of the stock at that moment",
    "commands": "every command is legal and produced exactly the recorded events",
    "scores": "the deal's scores are what the rules give",
    "match": "the match totals and result are what the rules give",
}


def _unfailed(
    name: CheckName, expected: Sequence[Event], deal: DealRecord, cutoff: int | None
) -> Check:
    """A check that did not fail: passed, or not checked when its events come after the
    first difference (from there on the replay no longer follows the log, and "ok" would
    claim more than was checked)."""
    if cutoff is not None and name != "commitment":
        later = name in {"commands", "scores", "match"} or any(
            _CHECK_OF.get(type(e)) == name for e in expected[cutoff:]
        )
        if later or not expected[:cutoff]:
            return Check(
                name=name, status="unchecked", detail="not checked: the log differs earlier"
            )
    if name == "commitment" and deal.seed is not None and deal.events is None:
        seeded = next((e for e in expected if isinstance(e, SeedCommitted)), None)
        shown = seeded.commitment if seeded else "-"
        return Check(
            name=name,
            status="unchecked",
            detail=f"no recorded log to compare: the seed's commitment is {shown}; compare it "
            "with the one shown before the deal",
        )
    detail = _PASSED[name]
    if deal.events is None and name != "commitment":
        detail += " (no recorded log to compare: the commands alone were re-played)"
    if name == "commitment" and deal.seed is None:
        detail = "a stacked deck: no seed to check"
    if name == "reshuffles":
        n = sum(1 for e in expected if isinstance(e, GroundReshuffled))
        detail = f"{detail} ({n} reshuffle{'s' if n != 1 else ''})"
    return Check(name=name, status="pass", detail=detail)
