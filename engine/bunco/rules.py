"""The Bunco decider: a command and the state → the events, or RuleViolation (pure).

The table (engine/table.py) decides the fairness lifecycle's commands itself and hands the
rest here (`rules`); `decide` is the whole of it for an evening played without its table
(a record's replay, a bench). The play tables roll independently, each with its own roller
(several seats are awaited at once); every roll is one event in the table's single log
and reads the round's next three dice (engine/bunco/dice.py). The head table's bell stops
every table after the roll that rang it (BU-END-1/2, BU-AMB-4/5); tied tables then roll
off (BU-END-5, BU-AMB-6), and when every table is decided the round ends with the tallies
and the next round's seating (RoundEnded; the table then reveals the round's secret).
"""

from __future__ import annotations

from collections.abc import Sequence

from engine import fair, fairness
from engine.bunco import movement
from engine.bunco.dice import roll as roll_dice
from engine.bunco.evolve import evolve
from engine.bunco.messages import (
    AssignSeats,
    BellRang,
    Command,
    Deal,
    DiceRolled,
    EveningEnded,
    Event,
    Kind,
    Roll,
    RollOffRolled,
    RoundEnded,
    RoundStarted,
    SeatsAssigned,
    Timeout,
)
from engine.bunco.scoring import BELL_AT, score, standings
from engine.bunco.state import PlayTable, State
from engine.errors import RuleViolation

__all__ = ["awaited", "decide", "ends", "lifecycle", "roller_seat", "rules"]

_SYSTEM = 0


def lifecycle(state: State) -> fairness.Lifecycle:
    """The round's place in the table's lifecycle: committed while "seeded", the seats'
    window open until the system starts the round (PF-AMB-12 h)."""
    return fairness.Lifecycle(
        unit=state.round,
        awaiting_secret=state.phase == "seeding",
        committed=state.phase == "seeded",
        window=state.seed_window,
        seeds_sent=state.seeds_sent,
        secret=state.secret,
    )


def ends(event: object) -> int | None:
    """A round ends with RoundEnded."""
    return event.round if isinstance(event, RoundEnded) else None


def decide(state: State, seat: int, command: Command) -> tuple[Event, ...]:
    """`rules` inside the table's fairness lifecycle, as the table plays it: what
    `fairness.play` does, with the Lifecycle built only for a lifecycle command (a roll,
    thousands an evening, needs only the round's secret for its reveal)."""
    if type(command) is Roll:  # the command of nearly every step, asked first
        events = _roll(state, _table_of_roller(state, seat), auto=False)
    elif isinstance(command, fairness.COMMANDS):
        return fairness.decide(lifecycle(state), seat, command)
    else:
        events = rules(state, seat, command)
    # a round ends only after the roll that decides it, so a lone event ends none and
    # needs no look for the reveal (the look is a call a roll, thousands an evening)
    return events if len(events) == 1 else fairness.revealed(events, ends, state.secret)


def rules(state: State, seat: int, command: Command) -> tuple[Event, ...]:
    match command:
        case Roll():
            return _roll(state, _table_of_roller(state, seat), auto=False)
        case Timeout(round=round_no, table=table, roll=roll_no):
            return _timeout(state, seat, round_no, table, roll_no)
        case Deal():
            return _deal(state, seat)
        case AssignSeats(tables=tables):
            return _assign(state, seat, tables)
    raise RuleViolation("not_now", "", f"{type(command).__name__} is not a command of this table")


def roller_seat(state: State, table: PlayTable) -> int:
    """The platform seat that rolls next at `table`: the roller, or on the ghost's turn
    its partner (BU-SIZE-3, BU-AMB-1)."""
    place = table.seats[table.roller - 1]
    # the ghost's place is the one after the last player's (options.ghost), the only place
    # past them: read so, it costs no property call on every roll
    if place > state.options.players:
        return table.seats[movement.partner(table.roller) - 1]
    return place


def awaited(state: State) -> tuple[int, ...]:
    """The tables (1 = head) waiting for a roll: every table until the bell, then the tied
    tables until their roll-off is decided."""
    if state.phase != "play":
        return ()
    if not state.bell:
        return tuple(range(1, len(state.tables) + 1))
    return tuple(i for i, t in enumerate(state.tables, 1) if t.rolloff and not t.winner)


# --- the round's start ------------------------------------------------------------------


def _deal(state: State, seat: int) -> tuple[Event, ...]:
    """BU-RND-1/2: round r's target is 1..6 again and again; round 1 seated by the host or
    by the fair draw (BU-SET-7), every later round as the last one's movement left it."""
    if seat != _SYSTEM:
        raise RuleViolation("system_only", "PF-FAIR-1", "only the system starts a round")
    if state.phase != "seeded" or state.secret is None:
        raise RuleViolation("wrong_phase", "PF-FAIR-1", "no committed round is waiting")
    target = (state.round - 1) % 6 + 1
    if state.round == 1 and not state.assigned:
        entropy = fair.entropy(state.client_seeds)
        places = state.options.places
        tables = movement.drawn(bytes.fromhex(state.secret), entropy, places)
        return (RoundStarted(round=state.round, target=target, tables=tables, drawn=True),)
    return (RoundStarted(round=state.round, target=target, tables=state.seating),)


def _assign(state: State, seat: int, tables: Sequence[Sequence[int]]) -> tuple[Event, ...]:
    """BU-SET-7, BU-AMB-2: the host seats round 1 himself, once it is committed (so the
    seating is part of round 1's record) and before the first roll."""
    if seat != state.host:
        raise RuleViolation("host_only", "BU-SET-7", "only the host assigns the seats")
    if state.rolled:  # from the first roll on (every later round, and the evening's end)
        raise RuleViolation(
            "seats_fixed", "BU-SET-7", "seats are assigned before the first roll of the evening"
        )
    if state.round == 0:
        raise RuleViolation(
            "wrong_phase", "BU-SET-7", "seats are assigned once the first round is committed"
        )
    why = movement.check_seating(tables, state.options.places)
    if why is not None:
        raise RuleViolation("bad_seating", "BU-SET-7", why)
    return (SeatsAssigned(tables=tuple(tuple(t) for t in tables)),)


# --- a roll -----------------------------------------------------------------------------


def _table_of_roller(state: State, seat: int) -> int:
    """The table (1 = head) where `seat` rolls now, or the refusal that says why not."""
    if state.phase == "over":
        raise RuleViolation("evening_over", "BU-RND-3", "the evening's last round is over")
    if state.phase != "play":
        raise RuleViolation("wrong_phase", "BU-ROLL-1", "no round is being played")
    players = state.options.players
    if not 1 <= seat <= players:  # the ghost's place is no seat (BU-AMB-1)
        raise RuleViolation("not_a_player", "BU-ROLL-1", f"seat {seat} plays at no table")
    if not state.bell:  # every table waits: `awaited` and `roller_seat` inlined, a roll each
        for number, table in enumerate(state.tables, 1):
            place = table.seats[table.roller - 1]
            if place == seat or (place > players and roller_seat(state, table) == seat):
                return number
    else:
        for number in awaited(state):
            if roller_seat(state, state.tables[number - 1]) == seat:
                return number
    if state.bell:
        raise RuleViolation(
            "bell_rang",
            "BU-END-2",
            "the bell has rung: no further rolls at your table in this round",
        )
    table = next(t for t in state.tables if seat in t.seats)
    raise RuleViolation(
        "not_your_turn", "BU-ROLL-1", f"it is seat {roller_seat(state, table)}'s roll at your table"
    )


def _timeout(state: State, seat: int, round_no: int, table: int, roll_no: int) -> tuple[Event, ...]:
    """PF-TIMER-8, BU-AMB-13: the system rolls for the awaited player, never skips him."""
    if seat != _SYSTEM:
        raise RuleViolation("system_only", "PF-TIMER-8", "only the clock times a roll out")
    if (  # out of play nothing is awaited
        round_no != state.round
        or table not in awaited(state)
        or roll_no != state.tables[table - 1].rolls + 1
    ):
        raise RuleViolation("stale_timeout", "PF-TIMER-8", "that roll is already made")
    return _roll(state, table, auto=True)


def _roll(state: State, number: int, *, auto: bool) -> tuple[Event, ...]:
    table = state.tables[number - 1]
    assert state.secret is not None  # a round in play has its secret until its end
    dice = roll_dice(state.secret, state.entropy, state.rolls)
    options = state.options
    kind, points = score(dice, state.target, options.wipeout)
    roller = table.roller
    team = 2 - roller % 2  # movement.team_of, inlined: a roll each (BU-SET-2)
    if state.bell:
        return _rolloff(state, number, team, dice, kind, points, auto=auto)
    place = table.seats[roller - 1]
    ghost = place > options.players  # the ghost's place is the one after the players'
    ours, theirs = table.scores if team == 1 else table.scores[::-1]
    ours = 0 if kind == "wipeout" else ours + points
    rolled = DiceRolled(
        round=state.round,
        table=number,
        roll=table.rolls + 1,
        player=place,
        seat=roller_seat(state, table) if ghost else place,
        dice=dice,
        kind=kind,
        points=points,
        scores=(ours, theirs) if team == 1 else (theirs, ours),
        # BU-ROLL-3: a scoring roll, again; BU-ROLL-4: else to the left, the next seat
        next=roller if points else roller % 4 + 1,
        ghost=ghost,
        auto=auto,
    )
    if number != 1 or ours < BELL_AT:
        return (rolled,)
    after = evolve(state, rolled)
    ties = tuple(i for i, t in enumerate(after.tables, 1) if i > 1 and t.scores[0] == t.scores[1])
    bell = BellRang(
        round=state.round, team=team, scores=tuple(t.scores for t in after.tables), ties=ties
    )
    if ties:
        return (rolled, bell)
    return (rolled, bell, *_round_end(evolve(after, bell)))


def _rolloff(
    state: State,
    number: int,
    team: int,
    dice: tuple[int, int, int],
    kind: Kind,
    points: int,
    *,
    auto: bool,
) -> tuple[Event, ...]:
    """BU-END-5, BU-AMB-6: one roll a team in each pass, the dice passing left; the higher
    score of a pass wins (a wipeout counts 0); equal, another pass."""
    table = state.tables[number - 1]
    place = table.seats[table.roller - 1]
    passes = (*table.passes, (team, points))
    winner = 0
    if len(passes) == 2 and passes[0][1] != passes[1][1]:
        winner = max(passes, key=lambda p: p[1])[0]
    rolled = RollOffRolled(
        round=state.round,
        table=number,
        roll=table.rolls + 1,
        player=place,
        seat=roller_seat(state, table),
        team=team,
        dice=dice,
        kind=kind,
        points=points,
        next=table.roller % 4 + 1,
        winner=winner,
        ghost=place == state.options.ghost,
        auto=auto,
    )
    after = evolve(state, rolled)
    if winner and not awaited(after):
        return (rolled, *_round_end(after))
    return (rolled,)


# --- the round's end --------------------------------------------------------------------


def _round_end(state: State) -> tuple[Event, ...]:
    """BU-END-3/4, BU-TALLY-1, BU-MOVE-*, BU-EVE-*: every table decided."""
    winners = tuple(
        state.bell if i == 0 else (t.winner or (1 if t.scores[0] > t.scores[1] else 2))
        for i, t in enumerate(state.tables)
    )
    wins, losses = list(state.wins), list(state.losses)
    for table, winner in zip(state.tables, winners, strict=True):
        for seat, place in enumerate(table.seats, 1):
            if movement.team_of(seat) == winner:
                wins[place - 1] += 1
            else:
                losses[place - 1] += 1
    seating = tuple(t.seats for t in state.tables)
    if len(seating) == 1:  # BU-SIZE-2, BU-AMB-9: no movement, the pairs rotate
        following = movement.rotation(state.order, state.round + 1)
    else:
        following = movement.moved(seating, winners)
    last = state.round >= state.options.rounds
    ended = RoundEnded(
        round=state.round,
        target=state.target,
        scores=tuple(t.scores for t in state.tables),
        winners=winners,
        wins=tuple(wins),
        losses=tuple(losses),
        buncos=state.buncos,
        wipeouts=state.wipeouts,
        tables=following,
        last=last,
    )
    if not last:
        return (ended,)
    winners, most = standings(state.options.players, ended.wins, ended.buncos)
    evening = EveningEnded(winners=winners, most_buncos=most, wins=ended.wins, buncos=ended.buncos)
    return (ended, evening)
