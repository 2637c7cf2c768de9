"""A table: who sits where, and the game played there (PF-ROOM, PF-SEAT, PF-CONN, PF-BOT).

The table is the aggregate behind one event stream. Its own commands create the table,
seat players, start play and record who is at the table (presence); every other command
goes to the decider of the table's game, except the fairness lifecycle of its units (the
commitment, the seats' client seeds and their window, the reveal: engine/fairness.py),
which the table decides for every game alike. Folding a table's stream from its first event
rebuilds everything: seats, presence, options and the game.

The table knows no game: it finds the one it plays in the registry (`engine.protocol`) by
the name TableCreated carries, and asks it everything game-shaped — its options and their
check, the seats they need, whether bots may sit, when a series' next match starts, when
the game is over. A stream is created for one game and never changes it: a command or an
event of another game is refused, and a table of a game not hosted here is `unknown_game`.

Presence never touches the game: a seat that is away, or played by a bot, keeps its hand,
team and score, and no presence event can re-deal, cancel or re-score (PF-CONN-1, PF-CONN-5,
PF-BOT-2). A human seat is "here" until the gateway records that its last connection
dropped ("away", PF-CONN-2); after 60 s away the clock hands it to a bot ("bot", PF-CONN-3)
and a deliberate Leave does so at once (PF-CONN-4), at free tables only (PF-BOT-1; at a coin
table an absent seat stays "away" and the clock's automatic actions play it, PF-BOT-3).

A bot that takes a seat completes the match (seed 000, PF-BOT-5): its player — replaced
after the grace, or gone on purpose — may connect again and watch his seat ("returning":
connected, the bot still plays, his own commands are refused), and takes it back only at
the start of the next match of a series, before that match's first deal is committed
(ReturnSeat, issued by the system then, and only while he is connected). An earlier issue
gave the seat back at the next turn boundary; the seed text overrules it.

When the host's seat goes to a bot (or, at a coin table, its player leaves), the host role
passes to the remaining human in the lowest seat (PF-ROOM-6). The game keeps counting a
cut from the seat that was host when the deal was committed, so the pass never changes who
starts; a cut the departed host still owed is made by the system (PF-CUT-3).
"""

from __future__ import annotations

from typing import Any, Literal, TypeAlias

import msgspec
from msgspec.structs import force_setattr, replace

from engine import fairness, protocol
from engine.errors import RuleViolation

__all__ = [
    "TABLE_COMMANDS",
    "TABLE_EVENTS",
    "AnyCommand",
    "AnyEvent",
    "CreateTable",
    "Disconnect",
    "HostPassed",
    "Leave",
    "Reconnect",
    "ReplaceWithBot",
    "ReturnSeat",
    "SeatDisconnected",
    "SeatInfo",
    "SeatKind",
    "SeatPresence",
    "SeatReconnected",
    "SeatReplacedByBot",
    "SeatReturned",
    "SeatTaken",
    "StartTable",
    "TableCommand",
    "TableCreated",
    "TableEvent",
    "TableStarted",
    "TableState",
    "TakeSeat",
    "bots_may_sit",
    "decide",
    "evolve",
    "game_of",
    "humans_present",
    "match_starts",
    "new_table",
    "played_by_bot",
]

SeatKind = Literal["human", "bot"]
# here: the player plays; away: his connection dropped (the clock acts for him);
# bot: a bot plays for him until the match ends; returning: he is connected again and
# watches while the bot completes the match, and takes the seat back when the next match
# of the series starts (PF-BOT-5).
SeatPresence = Literal["here", "away", "bot", "returning"]
_SYSTEM = 0


class _Cmd(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, tag_field="type"):
    pass


class _Evt(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, tag_field="type"):
    pass


class CreateTable(_Cmd, frozen=True):
    """PF-ROOM-2: the host picks the game and its options; seats are human or bot.

    `options` is the game's own options Struct. `game` names the game; left empty, it is
    the hosted game whose options Struct `options` is."""

    options: Any
    seats: tuple[SeatKind, ...]
    game: str = ""


class TakeSeat(_Cmd, frozen=True):
    seat: int
    player: str


class StartTable(_Cmd, frozen=True):
    """The host starts play once every human seat is taken (PF-ROOM-4: options freeze)."""


class Disconnect(_Cmd, frozen=True):
    """System (the gateway): the last connection of `seat` dropped (PF-CONN-1/2)."""

    seat: int


class Reconnect(_Cmd, frozen=True):
    """System (the gateway): `seat` is connected again (PF-CONN-2; a replaced player then
    watches his seat until the next match of the series, PF-BOT-5)."""

    seat: int


class ReplaceWithBot(_Cmd, frozen=True):
    """System (the clock): `seat` stayed away for the reconnect grace (PF-CONN-3)."""

    seat: int


class Leave(_Cmd, frozen=True):
    """The seat's own player leaves on purpose (PF-CONN-4)."""


class ReturnSeat(_Cmd, frozen=True):
    """System: give a returning (connected) player his seat back as the next match of the
    series starts, before its first deal is committed (PF-BOT-5)."""

    seat: int


class TableCreated(_Evt, frozen=True):
    """The first event of every table's stream: the game it plays, for good, and that
    game's options (a codec decodes them with the game's options Struct)."""

    table_id: str
    game: str
    options: Any
    seats: tuple[SeatKind, ...]
    host: int = 1

    def __post_init__(self) -> None:
        # Decoded from JSON, the options come as plain JSON values: typed here, strictly, by
        # the options Struct of the game named (a game not hosted is `unknown_game`).
        if isinstance(self.options, dict):
            typed: Any = msgspec.convert(
                self.options, protocol.get(self.game).options, str_keys=True
            )
            force_setattr(self, "options", typed)


class SeatTaken(_Evt, frozen=True):
    seat: int
    player: str


class TableStarted(_Evt, frozen=True):
    pass


class SeatDisconnected(_Evt, frozen=True):
    seat: int


class SeatReconnected(_Evt, frozen=True):
    seat: int


class SeatReplacedByBot(_Evt, frozen=True):
    seat: int
    reason: Literal["timeout", "left"]


class SeatReturned(_Evt, frozen=True):
    seat: int


class HostPassed(_Evt, frozen=True):
    """PF-ROOM-6: the host left; `seat` holds the host role now."""

    seat: int


class SeatInfo(msgspec.Struct, frozen=True, kw_only=True):
    kind: SeatKind
    player: str | None = None
    presence: SeatPresence = "here"  # for a human seat; a bot seat is always "here"


class TableState(msgspec.Struct, frozen=True, kw_only=True):
    table_id: str
    status: Literal["new", "open", "playing", "finished"] = "new"
    game: str = ""  # the game's registered name, from TableCreated on
    host: int = 1
    seats: tuple[SeatInfo, ...] = ()
    game_state: Any = None  # the game's State Struct, from TableCreated on

    def __post_init__(self) -> None:
        # Decoded from JSON (a snapshot, a read model's checkpoint), the game's state comes
        # as plain JSON values: typed here, strictly, by the State Struct of the table's game.
        if isinstance(self.game_state, dict):
            typed: Any = msgspec.convert(
                self.game_state, protocol.get(self.game).state, str_keys=True
            )
            force_setattr(self, "game_state", typed)


TableCommand = (
    CreateTable
    | TakeSeat
    | StartTable
    | Disconnect
    | Reconnect
    | ReplaceWithBot
    | Leave
    | ReturnSeat
)
TableEvent = (
    TableCreated
    | SeatTaken
    | TableStarted
    | SeatDisconnected
    | SeatReconnected
    | SeatReplacedByBot
    | SeatReturned
    | HostPassed
)
# Any command or event of a table: the table's own, or one of its game's registered
# unions, which the table knows only through the registry (so, to a type checker, Any).
AnyCommand: TypeAlias = Any
AnyEvent: TypeAlias = Any
TABLE_COMMANDS = (
    CreateTable,
    TakeSeat,
    StartTable,
    Disconnect,
    Reconnect,
    ReplaceWithBot,
    Leave,
    ReturnSeat,
)
# The table's own events (everything else is the game's): a deal record skips them.
TABLE_EVENTS = (
    TableCreated,
    SeatTaken,
    TableStarted,
    SeatDisconnected,
    SeatReconnected,
    SeatReplacedByBot,
    SeatReturned,
    HostPassed,
)
_PRESENCE_COMMANDS = (Disconnect, Reconnect, ReplaceWithBot, Leave, ReturnSeat)


def new_table(table_id: str) -> TableState:
    return TableState(table_id=table_id)


def game_of(state: TableState) -> protocol.Game:
    """The game this table plays (RuleViolation `unknown_game` when it is not hosted)."""
    return protocol.get(state.game)


def played_by_bot(state: TableState, seat: int) -> bool:
    """A bot plays `seat` now: a bot seat, or a player's seat handed to a bot."""
    if not 1 <= seat <= len(state.seats):
        return False
    info = state.seats[seat - 1]
    return info.kind == "bot" or info.presence in ("bot", "returning")


def match_starts(state: TableState) -> bool:
    """A later match of a series is starting: its first deal is not committed yet. The one
    moment a replaced player may take his seat back (PF-BOT-5)."""
    return (
        state.status == "playing"
        and state.game_state is not None
        and game_of(state).match_starts(state.game_state)
    )


def humans_present(state: TableState) -> bool:
    """Some human seat is played by its own, connected player."""
    return any(s.kind == "human" and s.presence == "here" for s in state.seats)


def bots_may_sit(state: TableState) -> bool:
    """PF-BOT-1, PF-FREE-1: bots only at tables whose options allow them (for Banakil:
    free tables that allow them)."""
    return state.game_state is not None and game_of(state).bots_allowed(state.game_state.options)


def decide(state: TableState, seat: int, command: Any) -> tuple[AnyEvent, ...]:
    """Seat 0 is the system (and the lobby acting for a joining player)."""
    match command:
        case CreateTable(game=name, options=options, seats=seats):
            if state.status != "new":
                raise RuleViolation("table_exists", "PF-ROOM-1", "this table already exists")
            game = protocol.get(name) if name else _game_with(options)
            game.validate(options)
            needed = game.seats(options)
            if len(seats) != needed:
                raise RuleViolation(
                    "bad_seats",
                    "PF-ROOM-5",
                    f"this game and mode need {needed} seats, not {len(seats)}",
                )
            if "bot" in seats and not game.bots_allowed(options):
                raise RuleViolation("no_bots_here", "PF-BOT-1", "bots play only at free tables")
            if "human" not in seats:
                raise RuleViolation("no_humans", "PF-ROOM-1", "a table needs a human host")
            host = seats.index("human") + 1
            created = TableCreated(
                table_id=state.table_id, game=game.name, options=options, seats=seats, host=host
            )
            return (created,)
        case TakeSeat(seat=target, player=player):
            if state.status != "open":
                raise RuleViolation("table_not_open", "PF-ROOM-4", "seats are taken before play")
            if not 1 <= target <= len(state.seats):
                raise RuleViolation("bad_seat", "PF-ROOM-5", f"there is no seat {target}")
            info = state.seats[target - 1]
            if info.kind != "human" or info.player is not None:
                raise RuleViolation("seat_taken", "PF-ROOM-5", f"seat {target} is not free")
            if not player or len(player) > 64:
                raise RuleViolation("bad_player", "", "a player name has 1 to 64 characters")
            return (SeatTaken(seat=target, player=player),)
        case StartTable():
            if state.status != "open":
                raise RuleViolation("table_not_open", "PF-ROOM-4", "the table is not waiting")
            if seat not in (0, state.host):
                raise RuleViolation("not_host", "PF-ROOM-1", "only the host starts the table")
            empty = [i + 1 for i, s in enumerate(state.seats) if s.kind == "human" and not s.player]
            if empty:
                raise RuleViolation("seats_empty", "PF-ROOM-5", f"seats {empty} are still free")
            return (TableStarted(),)
    if isinstance(command, _PRESENCE_COMMANDS):
        return _presence(state, seat, command)
    if state.status != "playing" or state.game_state is None:
        raise RuleViolation("not_playing", "PF-ROOM-4", "the table is not in play")
    game = game_of(state)
    if not isinstance(command, (*fairness.COMMANDS, *game.command_types)):
        raise RuleViolation(
            "wrong_game",
            "PF-ROOM-2",
            f"{type(command).__name__} is not a command of {game.name}, the game of this table",
        )
    # the fairness lifecycle is the table's, for every game: the game's rules decide the rest
    unit = game.unit
    return fairness.play(unit.lifecycle, unit.ends, game.rules, state.game_state, seat, command)


def _game_with(options: Any) -> protocol.Game:
    """The one hosted game whose options Struct `options` is (a CreateTable that names no
    game); `unknown_game` when no hosted game takes them."""
    for name in protocol.hosted():
        game = protocol.get(name)
        if isinstance(options, game.options):
            return game
    return protocol.get(type(options).__name__)


def _presence(
    state: TableState,
    seat: int,
    command: Disconnect | Reconnect | ReplaceWithBot | Leave | ReturnSeat,
) -> tuple[AnyEvent, ...]:
    """PF-CONN-1..5, PF-BOT-1..3: presence changes; none of them touches the game."""
    if isinstance(command, Leave):
        target = seat
        if seat == _SYSTEM:
            raise RuleViolation("not_a_seat", "PF-CONN-4", "a player leaves his own seat")
    else:
        target = command.seat
        if seat != _SYSTEM:
            raise RuleViolation("system_only", "PF-CONN-1", "presence is recorded by the system")
    playing_only = isinstance(command, ReplaceWithBot | Leave | ReturnSeat)
    if state.status != "playing" and (playing_only or state.status != "open"):
        raise RuleViolation("not_playing", "PF-CONN-1", "the table is not in play")
    info = state.seats[target - 1] if 1 <= target <= len(state.seats) else None
    if info is None or info.kind != "human" or info.player is None:
        raise RuleViolation("not_a_player_seat", "PF-CONN-1", f"seat {target} has no player")
    presence = info.presence
    match command:
        case Disconnect():
            if presence in ("here", "returning"):
                return (SeatDisconnected(seat=target),)
            raise RuleViolation("already_away", "PF-CONN-1", f"seat {target} is already away")
        case Reconnect():
            if presence in ("away", "bot"):
                return (SeatReconnected(seat=target),)
            raise RuleViolation("not_away", "PF-CONN-2", f"seat {target} is not away")
        case ReplaceWithBot():
            if presence != "away":
                raise RuleViolation("not_away", "PF-CONN-3", f"seat {target} is not away")
            if not bots_may_sit(state):
                raise RuleViolation("no_bots_here", "PF-BOT-3", "no bot takes a seat at this table")
            return (SeatReplacedByBot(seat=target, reason="timeout"), *_pass_host(state, target))
        case Leave():
            if presence == "bot":
                raise RuleViolation(
                    "already_replaced", "PF-CONN-4", "a bot already plays this seat"
                )
            if bots_may_sit(state):
                return (SeatReplacedByBot(seat=target, reason="left"), *_pass_host(state, target))
            if presence == "here":  # PF-BOT-3: the automatic actions play the seat
                return (SeatDisconnected(seat=target), *_pass_host(state, target))
            raise RuleViolation("already_away", "PF-BOT-3", f"seat {target} is already away")
        case ReturnSeat():
            if presence != "returning":
                raise RuleViolation(
                    "not_returning", "PF-BOT-5", f"seat {target}'s player is not back to take it"
                )
            if not match_starts(state):
                raise RuleViolation(
                    "match_in_progress",
                    "PF-BOT-5",
                    "a bot completes the match it took the seat in: its player takes the seat "
                    "back at the start of the next match of the series",
                )
            return (SeatReturned(seat=target),)
    raise AssertionError(f"unknown presence command {command!r}")  # pragma: no cover


def _pass_host(state: TableState, leaving: int) -> tuple[AnyEvent, ...]:
    """PF-ROOM-6: the host role to the remaining human in the lowest seat, if any remains
    (a player whose seat a bot plays has left for this match, even one who watches it; one
    who is away may still come back)."""
    if leaving != state.host:
        return ()
    for seat, info in enumerate(state.seats, start=1):
        if (
            seat != leaving
            and info.kind == "human"
            and info.player
            and not played_by_bot(state, seat)
        ):
            return (HostPassed(seat=seat),)
    return ()


_PRESENCE_AFTER: dict[tuple[type, str], SeatPresence] = {
    (SeatDisconnected, "here"): "away",
    (SeatDisconnected, "returning"): "bot",
    (SeatReconnected, "away"): "here",
    (SeatReconnected, "bot"): "returning",
}


def evolve(state: TableState, event: AnyEvent) -> TableState:
    if not isinstance(event, TABLE_EVENTS):
        assert state.game_state is not None
        game = protocol.get(state.game)
        game_state = game.evolve(state.game_state, event)
        status = "finished" if game.over(game_state) else state.status
        return replace(state, game_state=game_state, status=status)
    match event:
        case TableCreated(game=name, options=options, seats=seats, host=host):
            # A stream is created once, for one game: a second TableCreated is a corrupt
            # stream, never a change of game.
            assert state.status == "new", f"{state.table_id} is created twice"
            return replace(
                state,
                status="open",
                game=name,
                host=host,
                seats=tuple(SeatInfo(kind=k) for k in seats),
                game_state=protocol.get(name).initial(options, host),
            )
        case SeatTaken(seat=seat, player=player):
            infos = list(state.seats)
            infos[seat - 1] = replace(infos[seat - 1], player=player)
            return replace(state, seats=tuple(infos))
        case TableStarted():
            return replace(state, status="playing")
        case SeatDisconnected(seat=seat) | SeatReconnected(seat=seat):
            info = state.seats[seat - 1]
            presence = _PRESENCE_AFTER.get((type(event), info.presence), info.presence)
            return _seat(state, seat, replace(info, presence=presence))
        case SeatReplacedByBot(seat=seat):
            return _seat(state, seat, replace(state.seats[seat - 1], presence="bot"))
        case SeatReturned(seat=seat):
            return _seat(state, seat, replace(state.seats[seat - 1], presence="here"))
        case HostPassed(seat=seat):
            return replace(state, host=seat)
    raise AssertionError(f"unknown event {event!r}")  # pragma: no cover


def _seat(state: TableState, seat: int, info: SeatInfo) -> TableState:
    infos = list(state.seats)
    infos[seat - 1] = info
    return replace(state, seats=tuple(infos))
