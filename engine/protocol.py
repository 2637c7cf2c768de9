"""The seam between the platform and its games: what a game hands over, and the registry.

A game is one package that registers ONE `Game` object here. Everything the platform
does with a game — create a table with its options, seat its players, decide and fold its
commands, show each seat its view, time a turn, play a bot, end, reveal and verify a unit
of play — goes through that object, so that adding a game is one package and one
registration, and nothing outside the package names it.

The five functions of the decider pattern, over frozen msgspec Structs:

- ``initial(options, host) -> State``
- ``decide(state, seat, command) -> tuple[Event, ...]`` — or raise RuleViolation; never
  mutates. The seat is the authenticated actor (0 = the system), kept out of the command
  body so that a client can never speak for another seat.
- ``evolve(state, event) -> State`` — total: all checking happened in ``decide``.
- ``view(state, seat | None) -> View`` — what one seat (or a spectator) may see.
- ``legal(state, seat | None) -> Legal`` — the command kinds allowed now.

Around them: the options (type, presets, validation), the seats and teams, the tagged
command and event unions (so a codec decodes any game's messages strictly), the unit of
play with its random draws (PF-AMB-12), the turn timer and its automatic command (PF-TIMER,
PF-AUTO), the bot, the hints and the staging check (PF-HINT, PF-STAGE-5), the end-of-unit
summary and the deal-record section.

Time, identity and randomness enter only as data (commands, committed seeds): no field
here reads a clock or draws a number. Built-in games register themselves when their
package's `game` module is imported; the registry imports those modules the first time a
game is looked up, so this module imports no game and no game imports it at load.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal, get_args

from engine import fairness
from engine.errors import RuleViolation

__all__ = [
    "DEFAULT_GAME",
    "DRAW_LABELS",
    "Game",
    "RecordSection",
    "Staging",
    "TableLog",
    "Timer",
    "Unit",
    "UnitLog",
    "UnitVerdict",
    "game",
    "get",
    "hosted",
    "in_order",
    "register",
]

# PF-AMB-12 g: the labels of the random streams of a unit; "reshuffle:k" stands for every k.
DrawLabel = Literal["deal", "reshuffle:k", "first", "autocut", "dice"]
DRAW_LABELS: tuple[DrawLabel, ...] = get_args(DrawLabel)

# The modules whose import registers a built-in game. The one place that names the games,
# with the default: the game of a request, a record or a bench that names none (the only
# game there was before tables named theirs).
_BUILT_IN = ("engine.banakil.game", "engine.rummy.game", "engine.bunco.game", "engine.dice.game")
DEFAULT_GAME = "banakil"
_GAMES: dict[str, Game] = {}
_LOADED: list[bool] = []  # non-empty once the built-in games are imported
_ORDER: list[tuple[str, ...]] = [()]  # the names in registration order, kept by `register`


@dataclass(frozen=True, kw_only=True)
class Timer:
    """A running wait of a state (PF-TIMER): `seat` must act within `seconds` of the moment
    the wait began (the caller's clock), else the system sends `command` as seat 0.

    `command_id` names this very wait, so every clock that fires it appends it once, and a
    later wait of the same seat never shares it.
    """

    seat: int
    seconds: float
    command: Any
    command_id: str
    kind: str  # a game's own name for the wait, e.g. "turn" or "window"


@dataclass(frozen=True, kw_only=True)
class Unit:
    """The unit of play committed, revealed and verified on its own (PF-FAIR-1..3).

    `needs_secret(state)`: the game waits for the next unit's secret; `commit(hex)` is the
    system's command that commits it. `begins(event)` / `ends(event)` give the number of
    the unit an event opens / closes (None for any other event). `ending` holds the
    type tags of the events `ends` can close a unit on: a store finds every finished unit
    by them without decoding its log (`sahra verify --all`). `draws` are the labels of the
    random streams a unit reads (PF-AMB-12 g).

    `lifecycle(state)`: where the unit stands in the table's fairness lifecycle (committed,
    the seats' seed window open, which seats sent one). The table decides the commitment,
    the client seeds and the window's close from it (engine/fairness.py), folds their
    events into the game's state (the game reads its secret and E there for its draws), and
    reveals the secret right after the event `ends` numbers.

    `timed_deal`: the services time the system's Deal of a committed unit: when its seed
    window closes (PF-AMB-12 h), and for a unit that follows another not before the
    end-of-deal screen is over (PF-REVEAL-3, SAHRA_REVEAL_SECONDS). False for a unit that
    a seat's own command draws and ends (the dice tool's Roll, PF-DICE-1): nothing waits
    for a Deal there, so nothing is timed; the seat's seed window lasts until it draws
    (its seed, if any, comes before its own roll), and the next unit may be played the
    moment it is committed.
    """

    name: str
    draws: tuple[DrawLabel, ...]
    needs_secret: Callable[[Any], bool]
    commit: Callable[[str], Any]
    begins: Callable[[Any], int | None]
    ends: Callable[[Any], int | None]
    ending: tuple[str, ...]
    lifecycle: Callable[[Any], fairness.Lifecycle]
    timed_deal: bool = True


@dataclass(frozen=True, kw_only=True)
class UnitVerdict:
    """One unit's part of a record's verdict, for an audit of many units: passed, or the
    first check that failed (`check`: its name, `detail`: why)."""

    number: int
    passed: bool
    check: str | None = None
    detail: str | None = None


@dataclass(frozen=True, kw_only=True)
class UnitLog:
    """One finished unit of a table as the platform read it from its store, for the game
    to write into its record: the revealed `secret` (None for a stacked unit, whose first
    event is the stacked deck), the seats' client seeds (seat order, "" for none), every
    command after the unit's opening as (seat, command), and the unit's events as stored
    (hidden cards opened; the commitment's secret written empty)."""

    number: int
    secret: str | None
    client_seeds: tuple[str, ...]
    commands: tuple[tuple[int, Any], ...]
    events: tuple[Any, ...]


@dataclass(frozen=True, kw_only=True)
class TableLog:
    """A table's units 1..n with what every record starts from: its options (as the
    record writes them, `RecordSection.options_of`), the seats' names and the host."""

    options: dict[str, Any]
    seats: tuple[str, ...]
    host: int
    units: tuple[UnitLog, ...]


@dataclass(frozen=True, kw_only=True)
class RecordSection:
    """The game's part of a deal record (docs/deal-format.md), for `sahra replay` and
    `sahra verify`: how a record is read, replayed into a report and audited, the
    record's "options" for a table's options, and the record of a table's stored log.
    Every record names its game (`"game"`), which picks the section that reads it.
    `units(verdict)` splits a verdict of `verify` unit by unit (`sahra verify --all`); a
    unit it leaves out was not checked (an earlier one failed)."""

    decode: Callable[[bytes | str], Any]
    # replay(record) -> report; a game that can go on past a rejected command also takes
    # keep_going=True (`sahra replay --keep-going`)
    replay: Callable[..., Any]
    verify: Callable[[Any], Any]
    options_of: Callable[[Any], dict[str, Any]]
    build: Callable[[TableLog], Any]
    units: Callable[[Any], tuple[UnitVerdict, ...]]


@dataclass(frozen=True, kw_only=True)
class Staging:
    """A seat's question about what it prepares, asked without any event (PF-STAGE-5,
    PF-STAGE-8, PF-AMB-22): is this group (Banakil's staging area) or this whole table
    (rummy's private copy, RM-MOVE-4) legal now, and if not, the short reason.

    `proposal` is the msgspec Struct a client sends (decoded strictly, its sizes bounded);
    `check(state, seat, proposal)` answers with the game's own Struct, by calling the very
    validator `decide` applies when the thing is laid, so that its refusal is the one the
    command would get (same code, rule and sentence). It returns no event and raises
    RuleViolation only for a question that cannot be asked now (no unit in play)."""

    proposal: type
    check: Callable[[Any, int, Any], Any]


@dataclass(frozen=True, kw_only=True)
class Game:
    """Everything the platform knows of one game. Built once by the game's package."""

    name: str
    # options: the Struct type, named presets, preset + overrides -> validated options,
    # and the game's own check of a value (a RuleViolation naming the option and range)
    options: type
    presets: Mapping[str, Any]
    options_from: Callable[..., Any]
    check_options: Callable[[Any], None]
    # seats: every count a table may have, the count these options need, and the teams
    # (tuples of seats, team 1 first) that these options make
    seat_counts: tuple[int, ...]
    seats: Callable[[Any], int]
    teams: Callable[[Any], tuple[tuple[int, ...], ...]]
    # the tagged unions (msgspec, tag_field="type") of its commands and events
    command: Any
    event: Any
    # the decider. `decide` is the whole of it, for a game played without its table (a
    # record's replay, a bench): the game's `rules` inside the table's fairness lifecycle
    # (engine/fairness.py). The table decides the lifecycle's commands itself, asks `rules`
    # for the game's own, and reveals a unit's secret when `unit.ends` says it ended.
    initial: Callable[[Any, int], Any]
    decide: Callable[[Any, int, Any], tuple[Any, ...]]
    rules: Callable[[Any, int, Any], tuple[Any, ...]]
    evolve: Callable[[Any, Any], Any]
    view: Callable[[Any, int | None], Any]
    legal: Callable[[Any, int | None], Any]
    # what one seat may read of an event (hidden cards and secrets blanked)
    redact: Callable[[Any, int | None], Any]
    unit: Unit
    # the seats the game waits on now (whose move it is), and the running wait if any
    awaiting: Callable[[Any], tuple[int, ...]]
    timer: Callable[[Any], Timer | None]
    # what a state waits for now, as (phase, unit, turn, part of the turn): a turn's timer
    # runs from the moment this last changed (services/projections/in_play.py), so the
    # same turn of another unit, or another part of the same turn, is another wait
    wait: Callable[[Any], tuple[str, int, int, bool]]
    # a bot's move for a seat the game waits on: who sends it (the seat, or 0 when the
    # system acts for it) and the command, always one that `decide` accepts
    bot: Callable[[Any, int], tuple[int, Any]]
    # the end of the last unit as every seat sees it (scores, reveal), None during one
    summary: Callable[[Any], Any]
    records: RecordSection
    # the State Struct `initial` returns (a table's snapshot is decoded into it)
    state: type
    # the table's questions (engine/table.py): may bots sit at a table with these options
    # (PF-BOT-1); is a state over, the table finished; does a later match of a series start
    # now, the one moment a replaced player takes his seat back (PF-BOT-5)
    bots_allowed: Callable[[Any], bool]
    over: Callable[[Any], bool]
    match_starts: Callable[[Any], bool] = lambda state: False  # a game without series
    # a seat's hints (PF-HINT-1/3): computed from what that seat may see, for it alone
    hints: Callable[[Any, int], Any] | None = None
    # why a table in this state offers no hints at all (its game or rule set has none):
    # a RuleViolation naming the rule, or None when `hints` answers (PF-HINT-1/2, PF-AMB-19)
    no_hints: Callable[[Any], RuleViolation | None] = lambda state: None
    # the staging check of a game whose players prepare melds or tables (PF-STAGE-5)
    staging: Staging | None = None
    # every running wait of a game that times several seats at once (Bunco: one roller a
    # play table), each named by its Timer's command_id: a wait runs from the moment its id
    # first appeared. None: the game has at most the one wait of `timer` (and `wait`).
    timers: Callable[[Any], tuple[Timer, ...]] | None = None
    # a seat's view from the spectator's (state, spectator's view, seat), for a game whose
    # seat views differ from it only in `seat`, `hand` and `legal`: the gateway then builds
    # one view a table version and splices each seat's message from its encoding, instead
    # of a whole view and an encoding per seat (None: every view is built whole)
    seat_view: Callable[[Any, Any, int], Any] | None = None

    def running(self, state: Any) -> tuple[Timer, ...]:
        """Every wait running in `state`: the game's `timers`, or its one `timer`."""
        if self.timers is not None:
            return self.timers(state)
        one = self.timer(state)
        return () if one is None else (one,)

    @property
    def command_types(self) -> tuple[type, ...]:
        return _members(self.command)

    @property
    def event_types(self) -> tuple[type, ...]:
        return _members(self.event)

    def validate(self, options: Any) -> None:
        """Refuse options that cannot work at this game's table: another game's options
        (or anything else that is not this game's options Struct), or values out of range."""
        if not isinstance(options, self.options):
            raise RuleViolation(
                "bad_option",
                "PF-ROOM-2",
                f"{self.name} takes {self.options.__name__}, not {type(options).__name__}",
            )
        self.check_options(options)


def register(game: Game) -> Game:
    """Host `game` under its name. Registering the same object again changes nothing; a
    second, different game under a hosted name is a programming error. The built-in games
    are registered before any other (see `in_order`)."""
    _load_built_ins()
    known = _GAMES.get(game.name)
    if known is not None and known is not game:
        raise ValueError(f"a different game is already registered as {game.name!r}")
    _GAMES[game.name] = game
    _ORDER[:] = [tuple(_GAMES)]
    return game


def hosted() -> tuple[str, ...]:
    """The names of every game hosted here, in alphabetical order."""
    _load_built_ins()
    return tuple(sorted(_GAMES))


def in_order() -> tuple[str, ...]:
    """The hosted games in the order they were registered: the built-in ones first. Where
    two games have an event of the same tag and a reader does not know its table's game,
    the first of them reads it (a service always knows: see services/tables/codec.py)."""
    _load_built_ins()
    return _ORDER[0]


def get(name: str) -> Game:
    """The game registered under `name`; RuleViolation `unknown_game` naming the hosted
    ones otherwise (PF-ROOM-2)."""
    found = _GAMES.get(name)  # first: every game event of a table looks its game up
    if found is not None:
        return found
    _load_built_ins()
    found = _GAMES.get(name)
    if found is None:
        listed = ", ".join(hosted())
        shown = name[:32] if isinstance(name, str) else type(name).__name__
        raise RuleViolation(
            "unknown_game",
            "PF-ROOM-2",
            f"no game named {shown!r} is hosted here; the hosted games are: {listed}",
        )
    return found


def game(name: str) -> Game:
    """The game registered under `name` (the name this lookup had first; see `get`)."""
    return get(name)


def _load_built_ins() -> None:
    """Import the built-in games' modules, which register them (once: every table event
    looks its game up, so later calls return at once)."""
    if _LOADED:
        return
    _LOADED.append(True)  # first: a built-in module registers itself while it loads
    for module in _BUILT_IN:
        importlib.import_module(module)


def _members(union: Any) -> tuple[type, ...]:
    """The Struct types of a union (or the one type that is not a union)."""
    return get_args(union) or (union,)
