"""Replay: fold a log of events into a state, and run a deal record into a report.

A deal record is a JSON file anyone can write by hand (``docs/deal-format.md``): the table
options, the seats, and for each deal either its revealed secret (with the client seeds)
or an explicit stacked deck, followed by the commands of the seats in order. The runner
issues the system's commands itself (commit or stack, client seeds, deal), then every
recorded command through `decide`, and reports what each command did and how every deal
ended. Pure: the caller reads the file and prints the report.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, Literal, TypeVar

import msgspec

from engine import banakil, fair, protocol
from engine.banakil.decide import decide_fold, needs_cut
from engine.banakil.evolve import evolve
from engine.banakil.messages import (
    CardsDealt,
    CloseSeedWindow,
    Command,
    CommitSeed,
    Deal,
    DealEnded,
    DealScored,
    DeckCut,
    DeckStacked,
    Event,
    MatchEnded,
    SeedCommitted,
    SendClientSeed,
    SeriesEnded,
    StackDeck,
)
from engine.banakil.options import BanakilOptions
from engine.banakil.state import State, team_of
from engine.cards import face, faces, stack_deck
from engine.errors import RuleViolation

__all__ = [
    "SYSTEM",
    "CommandResult",
    "DealRecord",
    "DealSummary",
    "End",
    "Hand",
    "MatchResult",
    "MeldCard",
    "MeldSummary",
    "PlayerPoints",
    "Record",
    "RecordError",
    "Rejection",
    "Report",
    "SeatCommand",
    "Seed",
    "Table",
    "TeamPoints",
    "TeamSeats",
    "decode_record",
    "fold",
    "opening",
    "record_of",
    "record_options",
    "report_json",
    "run_record",
]

SYSTEM = 0  # the seat number of the system's own commands
# Listed, they replace the runner's own (see `opening`).
_EXPLICIT = (SendClientSeed, CloseSeedWindow, Deal)
_T = TypeVar("_T")

Ending = Literal["went_out", "dead", "used_up", "in_progress", "not_dealt"]


def fold(events: Iterable[Event], initial_state: State) -> State:
    """The state after applying `events` in order to `initial_state`."""
    state = initial_state
    for event in events:
        state = evolve(state, event)
    return state


# --- the deal record (input) ----------------------------------------------------------------


class RecordError(ValueError):
    """A deal record that cannot be read: bad JSON, unknown fields, wrong types or values."""


class _In(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    pass


class Seed(_In, frozen=True):
    """A deal shuffled by the fair shuffle from its revealed secret (PF-FAIR-*)."""

    secret: str
    client_seeds: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        _valid(fair.parse_secret, self.secret)
        _valid(fair.entropy, self.client_seeds)


class SeatCommand(_In, frozen=True):
    """One command as a seat sent it (seat 0 = the system, e.g. the automatic cut)."""

    seat: int
    command: Command


class DealRecord(_In, frozen=True):
    """One deal: exactly one of `seed` and `deck`, then the commands in order."""

    seed: Seed | None = None
    deck: tuple[str, ...] | None = None
    dealer: int | None = None
    cut: int | None = None
    commands: tuple[SeatCommand, ...] = ()
    # The events as the server recorded them, for `sahra verify` (optional).
    events: tuple[Event, ...] | None = None

    def __post_init__(self) -> None:
        if (self.seed is None) == (self.deck is None):
            raise ValueError('a deal has either "seed" or "deck", not both and not neither')
        if self.deck is None and (self.dealer is not None or self.cut is not None):
            raise ValueError('"dealer" and "cut" belong to a stacked deck (a seed draws them)')
        if self.deck is not None:
            _valid(stack_deck, self.deck)
        if self.cut is not None and not 1 <= self.cut <= 105:
            raise ValueError(f'"cut" is a position from 1 to 105, got {self.cut}')


class Record(_In, frozen=True):
    """A whole deal record: one deal or a whole match, played from a new table."""

    game: Literal["banakil"]
    seats: tuple[str, ...]
    deals: tuple[DealRecord, ...]
    options: dict[str, Any] = msgspec.field(default_factory=dict)
    host: int = 1

    def __post_init__(self) -> None:
        try:
            n = record_options(self).seats
        except RuleViolation as exc:
            raise ValueError(f'"options": {exc.message}') from None
        if len(self.seats) != n:
            raise ValueError(f'"seats" must name {n} players for this mode, got {len(self.seats)}')
        if not 1 <= self.host <= n:
            raise ValueError(f'"host" must be a seat from 1 to {n}, got {self.host}')
        if not self.deals:
            raise ValueError('"deals" must hold at least one deal')
        for i, deal in enumerate(self.deals):
            where = f"deals[{i}]"
            if deal.seed is not None and len(deal.seed.client_seeds) > n:
                raise ValueError(f"{where}.seed.client_seeds: at most one seed per seat ({n})")
            if deal.dealer is not None and not 1 <= deal.dealer <= n:
                raise ValueError(f"{where}.dealer must be a seat from 1 to {n}, got {deal.dealer}")
            for j, step in enumerate(deal.commands):
                if not 0 <= step.seat <= n:
                    raise ValueError(
                        f"{where}.commands[{j}].seat must be 0 (system) to {n}, got {step.seat}"
                    )


def record_options(record: Record) -> BanakilOptions:
    """The table options of a record: its preset (default `sahrat`) with single overrides."""
    overrides = dict(record.options)
    preset = overrides.pop("preset", None)
    if preset is not None and not isinstance(preset, str):
        raise RuleViolation("bad_option", "BK-RS-1", '"preset" is "classic", "sahrat" or null')
    return banakil.options_from(preset, **overrides)


def record_of(log: protocol.TableLog) -> Record:
    """The Banakil record of a table's stored deals (`RecordSection.build`): a seeded deal
    by its revealed secret and client seeds, a stacked one by its deck, dealer and cut."""
    deals = []
    for unit in log.units:
        commands = tuple(SeatCommand(seat=seat, command=c) for seat, c in unit.commands)
        first = unit.events[0]
        if unit.secret is None:
            assert isinstance(first, DeckStacked)  # a deal opens with one or a commitment
            deals.append(
                DealRecord(
                    deck=tuple(faces(first.cards)),
                    dealer=first.dealer,
                    cut=first.cut,
                    commands=commands,
                    events=unit.events,
                )
            )
        else:
            seed = Seed(secret=unit.secret, client_seeds=unit.client_seeds)
            deals.append(DealRecord(seed=seed, commands=commands, events=unit.events))
    return Record(
        game="banakil", options=log.options, seats=log.seats, host=log.host, deals=tuple(deals)
    )


def decode_record(data: bytes | str) -> Record:
    """Parse a deal record from JSON; any problem is one RecordError naming where it is."""
    try:
        return msgspec.json.decode(data, type=Record)
    except msgspec.ValidationError as exc:  # a subclass of DecodeError: catch it first
        raise RecordError(f"not a deal record: {exc}") from None
    except msgspec.DecodeError as exc:
        raise RecordError(f"not valid JSON: {exc}") from None


def _valid(check: Callable[..., _T], *args: Any) -> _T:
    """Run an engine check while decoding: its RuleViolation becomes a ValueError, which
    msgspec reports as a validation error with the path of the offending field."""
    try:
        return check(*args)
    except RuleViolation as exc:
        raise ValueError(exc.message) from None


# --- the report (output) --------------------------------------------------------------------


class _Out(msgspec.Struct, frozen=True, kw_only=True):
    pass


class Rejection(_Out, frozen=True):
    code: str
    rule_id: str
    message: str


class CommandResult(_Out, frozen=True):
    """What one command did. `index` counts every command of the run, the system's
    included; `at` is its place in the deal's "commands" list (null: issued by the runner)."""

    index: int
    deal: int
    at: int | None
    seat: int
    command: str
    accepted: bool
    events: tuple[str, ...] = ()
    rejection: Rejection | None = None


class Hand(_Out, frozen=True):
    seat: int
    name: str
    cards: tuple[str, ...]


class MeldCard(_Out, frozen=True):
    """A table card: its face, the card it stands for (itself unless it is a substitute)
    and the seat that placed it from its hand (BK-MELD-10)."""

    card: str
    stands_for: str
    placed_by: int


class MeldSummary(_Out, frozen=True):
    id: int
    team: int
    creator: int
    kind: str
    cards: tuple[MeldCard, ...]


class PlayerPoints(_Out, frozen=True):
    """A player's part of the deal score, in points (BK-SCORE-C1..C6)."""

    seat: int
    name: str
    opened: bool
    melded: float
    hand: float
    bonus: float
    score: float


class TeamPoints(_Out, frozen=True):
    """A team's deal score with its parts and its running total, in points (§13)."""

    team: int
    melds: float
    hands: float
    bonus: float
    single_meld: bool
    score: float
    total: float


class Table(_Out, frozen=True):
    """The table after a deal's commands: hands, melds, ground (top first), scores."""

    hands: tuple[Hand, ...]
    melds: tuple[MeldSummary, ...]
    ground: tuple[str, ...]
    stock_size: int
    reshuffles: int
    ended: Ending
    finisher: int | None
    players: tuple[PlayerPoints, ...] = ()
    teams: tuple[TeamPoints, ...] = ()


class DealSummary(_Out, frozen=True):
    deal: int  # 1 = the record's first deal
    dealt_from: Literal["seed", "deck"]
    commitment: str | None
    dealer: int | None
    starter: int | None
    cut_position: int | None
    cut_card: str | None
    table: Table
    totals: tuple[float, ...]


class MatchResult(_Out, frozen=True):
    match: int
    winner: int
    totals: tuple[float, ...]


class TeamSeats(_Out, frozen=True):
    team: int
    seats: tuple[int, ...]
    names: tuple[str, ...]


class End(_Out, frozen=True):
    """Where the run stopped: the table, the match totals and any winner."""

    phase: str
    table: Table
    totals: tuple[float, ...]
    match_winner: int | None
    matches: tuple[MatchResult, ...]
    series_winner: int | None


class Report(_Out, frozen=True):
    game: str
    options: BanakilOptions
    seats: tuple[str, ...]
    teams: tuple[TeamSeats, ...]
    host: int
    keep_going: bool
    rejected: int  # how many commands were rejected
    stopped: bool  # the run stopped at a rejected command (not keep_going)
    commands: tuple[CommandResult, ...]
    deals: tuple[DealSummary, ...]
    end: End
    events: tuple[Event, ...]


def report_json(report: Report) -> bytes:
    """The report as indented JSON (UTF-8), as `sahra replay` prints it."""
    return msgspec.json.format(msgspec.json.encode(report), indent=2)


# --- the runner ---------------------------------------------------------------------------------


def opening(deal: DealRecord, state: State) -> tuple[tuple[int, Command], ...]:
    """The commands the system issues before the seats play a deal: commit the secret or
    stack the deck, send the client seeds, and deal, unless the host must cut first
    (BK-DEAL-C1), in which case the seed window is closed (PF-AMB-12 h) and the deal's own
    commands hold the Cut."""
    out: list[tuple[int, Command]] = []
    # A record taken from a live table lists the client seeds and the deal in the order
    # they happened; then the runner only commits the seed.
    explicit = any(type(step.command) in _EXPLICIT for step in deal.commands)
    if deal.seed is not None:
        out.append((SYSTEM, CommitSeed(secret=deal.seed.secret)))
        if not explicit:
            out.extend(
                (seat, SendClientSeed(seed=seed))
                for seat, seed in enumerate(deal.seed.client_seeds, start=1)
                if seed
            )
    else:
        assert deal.deck is not None
        out.append((SYSTEM, StackDeck(cards=deal.deck, dealer=deal.dealer, cut=deal.cut)))
    if not explicit and not needs_cut(state):
        out.append((SYSTEM, Deal()))
    elif not explicit and deal.seed is not None:
        out.append((SYSTEM, CloseSeedWindow()))
    return tuple(out)


def run_record(record: Record, keep_going: bool = False) -> Report:
    """Replay a record from a new table. A rejected command is reported with its code, rule
    and message; the run then stops, or with `keep_going` goes on with the next command
    (a rejected command changes nothing)."""
    options = record_options(record)
    run = _Run(banakil.initial(options, record.host), keep_going)
    deals: list[DealSummary] = []
    for number, deal in enumerate(record.deals, start=1):
        run.deal_events = []
        for seat, command in opening(deal, run.state):
            if not run.stopped:
                run.issue(number, None, seat, command)
        for at, step in enumerate(deal.commands):
            if not run.stopped:
                run.issue(number, at, step.seat, step.command)
        deals.append(_deal_summary(record, number, deal, run))
        if run.stopped:
            break
    state = run.state
    matches = tuple(
        MatchResult(match=e.match, winner=e.winner, totals=_points_all(e.totals))
        for e in run.events
        if isinstance(e, MatchEnded)
    )
    end = End(
        phase=state.phase,
        table=deals[-1].table,
        totals=_points_all(state.totals),
        match_winner=state.match_winner,
        matches=matches,
        series_winner=next((e.winner for e in run.events if isinstance(e, SeriesEnded)), None),
    )
    return Report(
        game=record.game,
        options=options,
        seats=record.seats,
        teams=_teams(record, state),
        host=record.host,
        keep_going=keep_going,
        rejected=run.rejected,
        stopped=run.stopped,
        commands=tuple(run.results),
        deals=tuple(deals),
        end=end,
        events=tuple(run.events),
    )


class _Run:
    """The mutable bookkeeping of one run; the state itself only changes by folding."""

    def __init__(self, state: State, keep_going: bool) -> None:
        self.state = state
        self.keep_going = keep_going
        self.events: list[Event] = []
        self.deal_events: list[Event] = []
        self.results: list[CommandResult] = []
        self.rejected = 0
        self.stopped = False

    def issue(self, deal: int, at: int | None, seat: int, command: Command) -> None:
        index = len(self.results)
        kind = type(command).__name__
        try:
            events, after = decide_fold(self.state, seat, command)
        except RuleViolation as exc:
            self.rejected += 1
            self.stopped = not self.keep_going
            rejection = Rejection(code=exc.code, rule_id=exc.rule_id, message=exc.message)
            self.results.append(
                CommandResult(
                    index=index,
                    deal=deal,
                    at=at,
                    seat=seat,
                    command=kind,
                    accepted=False,
                    rejection=rejection,
                )
            )
            return
        self.state = after
        self.events.extend(events)
        self.deal_events.extend(events)
        self.results.append(
            CommandResult(
                index=index,
                deal=deal,
                at=at,
                seat=seat,
                command=kind,
                accepted=True,
                events=tuple(type(e).__name__ for e in events),
            )
        )


def _deal_summary(record: Record, number: int, deal: DealRecord, run: _Run) -> DealSummary:
    events = run.deal_events
    dealt = next((e for e in events if isinstance(e, CardsDealt)), None)
    cut = next((e for e in events if isinstance(e, DeckCut)), None)
    seeded = next((e for e in events if isinstance(e, SeedCommitted)), None)
    return DealSummary(
        deal=number,
        dealt_from="seed" if deal.seed is not None else "deck",
        commitment=seeded.commitment if seeded else None,
        dealer=dealt.dealer if dealt else None,
        starter=dealt.starter if dealt else None,
        cut_position=cut.position if cut else None,
        cut_card=face(cut.cut_card) if cut else None,
        table=_table(record, run.state, events) if dealt else _empty_table(),
        totals=_points_all(run.state.totals),
    )


def _table(record: Record, state: State, events: list[Event]) -> Table:
    ended = next((e for e in events if isinstance(e, DealEnded)), None)
    scored = next((e for e in events if isinstance(e, DealScored)), None)
    return Table(
        hands=tuple(
            Hand(seat=seat, name=record.seats[seat - 1], cards=tuple(faces(hand)))
            for seat, hand in enumerate(state.hands, start=1)
        ),
        melds=tuple(
            MeldSummary(
                id=m.id,
                team=m.team,
                creator=m.creator,
                kind=m.kind,
                cards=tuple(
                    MeldCard(card=face(p.card), stands_for=p.stands_for, placed_by=p.seat)
                    for p in m.cards
                ),
            )
            for m in state.melds
        ),
        ground=tuple(faces(reversed(state.ground))),
        stock_size=len(state.stock),
        reshuffles=state.reshuffles,
        ended=ended.reason if ended else "in_progress",
        finisher=ended.finisher if ended else None,
        players=tuple(
            PlayerPoints(
                seat=p.seat,
                name=record.seats[p.seat - 1],
                opened=p.opened,
                melded=_points(p.melded),
                hand=_points(p.hand),
                bonus=_points(p.bonus),
                score=_points(p.score),
            )
            for p in (scored.players if scored else ())
        ),
        teams=tuple(
            TeamPoints(
                team=t.team,
                melds=_points(t.melds),
                hands=_points(t.hands),
                bonus=_points(t.bonus),
                single_meld=t.single_meld,
                score=_points(t.score),
                total=_points(t.total),
            )
            for t in (scored.teams if scored else ())
        ),
    )


def _empty_table() -> Table:
    return Table(
        hands=(),
        melds=(),
        ground=(),
        stock_size=0,
        reshuffles=0,
        ended="not_dealt",
        finisher=None,
    )


def _teams(record: Record, state: State) -> tuple[TeamSeats, ...]:
    out = []
    for team in (1, 2):
        seats = tuple(s for s in range(1, state.seats + 1) if team_of(state, s) == team)
        out.append(
            TeamSeats(team=team, seats=seats, names=tuple(record.seats[s - 1] for s in seats))
        )
    return tuple(out)


def _points(half_points: int) -> float:
    """Half-points → points: a whole number stays an integer in JSON, a half is ``x.5``."""
    return half_points // 2 if half_points % 2 == 0 else half_points / 2


def _points_all(half_points: Iterable[int]) -> tuple[float, ...]:
    return tuple(_points(h) for h in half_points)
