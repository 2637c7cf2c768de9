"""The rummy decider: a command and the state → the events, or RuleViolation (pure).

The table (engine/table.py) decides the fairness lifecycle's commands itself and hands the
rest here (`rules`); `decide` is the whole of it for a round played without its table
(a record's replay, a bench). Turn structures, as data from the variant's name:

- Manipulation, Shanghai (RM-MAN-3..5, RM-SHA-3): play, or draw one card at a time and
  stay on turn; under `reminder_with_hint` a Draw or Pass while a move exists is answered
  with a reminder first (RM-OPT-1a, RM-AMB-5).
- Machiavelli, Vatican, Tahiti (RM-MAC-3, RM-VAT-2, RM-TAH-4): play, or draw one (ends).
- Guadeloupe (RM-GUA-3..5): play (then draw one), or draw two.
- Carousel (RM-CAR-8..20): draw first; then play or draw, up to three draws; knock.

A move is checked by engine/rummy/moves.py (groups, partition, jokers) and a reminder's
hint comes from engine/rummy/search.py. Every turn ends with TurnEnded, or the round with
RoundScored (the table then reveals the round's secret right after it).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine import fair, fairness
from engine.errors import RuleViolation
from engine.rummy import scoring
from engine.rummy.deal import deal, first_player
from engine.rummy.messages import (
    CardsDrawn,
    Command,
    Deal,
    Draw,
    Event,
    FinalTurnsBegan,
    GameStopped,
    GiveUp,
    MoveLocked,
    Pass,
    Play,
    PlayReminded,
    RoundDealt,
    RoundScored,
    StopGame,
    TablePlayed,
    Timeout,
    Touch,
    TurnEnded,
    TurnPassed,
)
from engine.rummy.moves import Checked, Table, check_move
from engine.rummy.search import hint
from engine.rummy.state import State

__all__ = ["check_play_table", "decide", "ends", "lifecycle", "rules"]

_SYSTEM = 0
_DRAW_ON = ("manipulation", "shanghai")  # drawing never ends the turn (RM-OPT-1d)
_CAROUSEL_DRAWS = 3  # RM-CAR-9
_PENALTY = 3  # RM-OPT-3b


def lifecycle(state: State) -> fairness.Lifecycle:
    """The round's place in the table's lifecycle: committed while "seeded", the seats'
    window open until the system deals (PF-AMB-12 h)."""
    return fairness.Lifecycle(
        unit=state.round,
        awaiting_secret=state.phase == "seeding",
        committed=state.phase == "seeded",
        window=state.seed_window,
        seeds_sent=state.seeds_sent,
        secret=state.secret,
    )


def ends(event: object) -> int | None:
    """A round ends when it is scored, or when the host stops the game during it."""
    if isinstance(event, RoundScored | GameStopped):
        return event.round or None
    return None


def decide(state: State, seat: int, command: Command) -> tuple[Event, ...]:
    """`rules` inside the table's fairness lifecycle, as the table plays it."""
    return fairness.play(lifecycle, ends, rules, state, seat, command)


def rules(state: State, seat: int, command: Command) -> tuple[Event, ...]:
    match command:
        case Play():
            return _play(state, _on_turn(state, seat), command)
        case Draw():
            return _draw(state, _on_turn(state, seat))
        case Pass():
            return _pass(state, _on_turn(state, seat))
        case Touch():
            return _touch(state, _on_turn(state, seat))
        case GiveUp():
            return _give_up(state, _on_turn(state, seat))
        case Timeout(round=round_no, turn=turn):
            return _timeout(state, seat, round_no, turn)
        case Deal():
            return _deal(state, seat)
        case StopGame():
            return _stop(state, seat)
    raise RuleViolation("not_now", "", f"{type(command).__name__} is not a command of this table")


# --- the round's start ------------------------------------------------------------------


def _deal(state: State, seat: int) -> tuple[Event, ...]:
    if seat != _SYSTEM:
        raise RuleViolation("system_only", "PF-FAIR-1", "only the system deals")
    if state.phase != "seeded" or state.secret is None:
        raise RuleViolation("wrong_phase", "PF-FAIR-1", "no committed round is waiting")
    secret = bytes.fromhex(state.secret)
    entropy = fair.entropy(state.client_seeds or ("",) * state.seats)
    first = first_player(secret, entropy, state.seats, state.round, state.first)
    hands, singles, stock = deal(state.options.rules, state.seats, secret, entropy, first)
    return (
        RoundDealt(round=state.round, first=first, hands=hands, stock=stock, singletons=singles),
    )


# --- a turn -----------------------------------------------------------------------------


def _on_turn(state: State, seat: int) -> int:
    if state.phase != "play":
        raise RuleViolation("wrong_phase", "RM-CORE-7", "no round is being played")
    if seat != state.turn:
        raise RuleViolation("not_your_turn", "RM-CORE-7", f"it is seat {state.turn}'s turn")
    return seat


def _variant(state: State) -> str:
    return state.options.variant


def _final(state: State) -> bool:
    return state.final_last != 0


def _play(state: State, seat: int, command: Play) -> tuple[Event, ...]:
    variant = _variant(state)
    carousel = variant == "carousel"
    if carousel and state.drawn == 0 and not _final(state):
        raise RuleViolation("draw_first", "RM-CAR-8", "a Carousel turn starts with a draw")
    hand = state.hands[seat - 1]
    checked = check_play_table(state, seat, command.table, command.names)
    if sorted(command.added) != sorted(checked.added):
        raise RuleViolation(
            "added_mismatch",
            "RM-MOVE-5",
            f"the move adds {', '.join(checked.added)} from the hand, not "
            f"{', '.join(command.added) or 'nothing'}",
        )
    gone = set(checked.added)
    left = tuple(c for c in hand if c not in gone)
    if command.knock:
        _check_knock(state, left)
    table = tuple(
        g.cards if g is not None else tuple(cards)
        for g, cards in zip(checked.groups, command.table, strict=True)
    )
    played = TablePlayed(
        seat=seat, table=table, names=checked.names, added=checked.added, knock=command.knock
    )
    if not left:  # RM-MOVE-7: the round ends at once, no end-of-turn draw
        return (played, _scored(state, "out", seat, played))
    if command.knock:  # RM-CAR-11: the knock ends the round at once
        return (played, _scored(state, "knock", seat, played))
    events: list[Event] = [played]
    if variant == "guadeloupe" and state.stock:  # RM-GUA-4, RM-GUA-5
        events.append(CardsDrawn(seat=seat, cards=state.stock[:1], why="end"))
    return (*events, *_turn_over(state, seat, passed=False, after=played))


def check_play_table(state: State, seat: int, table: Table, names: Mapping[str, str]) -> Checked:
    """A move's new `table` (and its jokers' `names`) for `seat`, checked against the table
    and the seat's hand (RM-MOVE-1..7, moves.check_move): the check of every `Play`, and
    the one the private copy's staging check asks (PF-STAGE-5, PF-AMB-22)."""
    return check_move(
        state.table,
        dict(state.names),
        table,
        names,
        state.hands[seat - 1],
        state.options.rules,
        first_play=not state.opened[seat - 1],
    )


def _check_knock(state: State, left: Sequence[str]) -> None:
    """RM-CAR-11, RM-AMB-16: after the first or second draw, not in final turns, with 5
    points or fewer left and at least one card."""
    if _variant(state) != "carousel":
        raise RuleViolation("no_knock", "RM-CAR-11", "only Carousel has the knock")
    if _final(state):
        raise RuleViolation("no_knock", "RM-CAR-18", "nobody may knock in the final turns")
    if state.drawn not in (1, 2):
        raise RuleViolation("no_knock", "RM-CAR-11", "a knock comes after the first or second draw")
    if not left:  # RM-AMB-16 (c): emptying the hand is the +25 win, not a knock
        raise RuleViolation(
            "no_knock", "RM-CAR-11", "a knock keeps a card in hand: play out without knocking"
        )
    points = scoring.hand_points(left, "carousel")
    if points > scoring.KNOCK_AT:
        raise RuleViolation(
            "no_knock",
            "RM-CAR-11",
            f"a knock needs {scoring.KNOCK_AT} points or fewer left in hand, not {points}",
        )


def _reminder(state: State, seat: int) -> PlayReminded | None:
    """RM-OPT-1a, RM-AMB-5: under `reminder_with_hint` the first Draw or Pass while a move
    exists shows the hint instead; the same press again executes."""
    options = state.options
    if (
        options.variant not in _DRAW_ON
        or options.compulsory_play != "reminder_with_hint"
        or state.reminded
    ):
        return None

    found = hint(state.table, dict(state.names), state.hands[seat - 1], options.rules)
    if found is None:
        return None
    return PlayReminded(
        seat=seat, card=found.card, groups=found.groups, rearranges=found.rearranges
    )


def _draw(state: State, seat: int) -> tuple[Event, ...]:
    variant = _variant(state)
    if state.locked:
        raise RuleViolation(
            "move_locked", "RM-OPT-3b", "the table was changed: commit the move or give it up"
        )
    if _final(state):
        raise RuleViolation("no_draw", "RM-CAR-18", "nobody draws in the final turns")
    if not state.stock:
        raise RuleViolation("stock_empty", "RM-BLOCK-1", "the stock is empty: pass instead")
    reminder = _reminder(state, seat)
    if reminder is not None:
        return (reminder,)
    if variant in _DRAW_ON:  # RM-MAN-4: draw on until able to play
        return (CardsDrawn(seat=seat, cards=state.stock[:1]),)
    if variant == "carousel":  # RM-CAR-8/9: the third draw ends the turn
        drawn = CardsDrawn(seat=seat, cards=state.stock[:1])
        if state.drawn + 1 < _CAROUSEL_DRAWS:
            return (drawn,)
        return (drawn, *_turn_over(state, seat, passed=False, after=drawn))
    count = 2 if variant == "guadeloupe" else 1  # RM-GUA-3, RM-GUA-5
    drawn = CardsDrawn(seat=seat, cards=state.stock[:count])
    return (drawn, *_turn_over(state, seat, passed=False, after=drawn))


def _pass(state: State, seat: int) -> tuple[Event, ...]:
    """RM-BLOCK-1, RM-AMB-27: a pass only with the stock empty (Carousel: also in the final
    turns, RM-CAR-18, and after the stock ran out inside the turn, RM-AMB-15)."""
    if state.locked:
        raise RuleViolation(
            "move_locked", "RM-OPT-3b", "the table was changed: commit the move or give it up"
        )
    if state.stock:
        raise RuleViolation(
            "stock_not_empty", "RM-AMB-27", "a pass is only for an empty stock: draw instead"
        )
    if _variant(state) == "carousel" and state.drawn == 0 and not _final(state):
        raise RuleViolation("draw_first", "RM-CAR-8", "a Carousel turn starts with a draw")
    reminder = _reminder(state, seat)
    if reminder is not None:
        return (reminder,)
    passed = TurnPassed(seat=seat)
    return (passed, *_turn_over(state, seat, passed=True, after=passed))


def _touch(state: State, seat: int) -> tuple[Event, ...]:
    if not _revert_draw_3(state):
        raise RuleViolation(
            "no_lock", "RM-OPT-3a", "this table restores a started move for free (undo_free)"
        )
    if state.locked:
        raise RuleViolation("already_locked", "RM-OPT-3b", "the move is already locked")
    return (MoveLocked(seat=seat),)


def _give_up(state: State, seat: int) -> tuple[Event, ...]:
    """RM-OPT-3b/3c, RM-AMB-12: the move given up, three penalty cards (what is left of
    the stock; none from an empty one, which counts as a pass); the turn ends."""
    if not _revert_draw_3(state) or not state.locked:
        raise RuleViolation(
            "not_locked", "RM-OPT-3b", "give up is for a locked move under revert_draw_3"
        )
    if not state.stock:
        passed = TurnPassed(seat=seat)
        return (passed, *_turn_over(state, seat, passed=True, after=passed))
    drawn = CardsDrawn(seat=seat, cards=state.stock[:_PENALTY], why="penalty")
    return (drawn, *_turn_over(state, seat, passed=False, after=drawn))


def _revert_draw_3(state: State) -> bool:
    return state.options.incomplete_move == "revert_draw_3"


def _timeout(state: State, seat: int, round_no: int, turn: int) -> tuple[Event, ...]:
    """PF-TIMER-8: the private table is discarded and the variant's draw is made for the
    seat, which ends the turn (a pass with the stock empty, and in Carousel's final turns)."""
    if seat != _SYSTEM:
        raise RuleViolation("system_only", "PF-TIMER-8", "only the clock times a turn out")
    if state.phase != "play" or round_no != state.round or turn != state.turn_no:
        raise RuleViolation("stale_timeout", "PF-TIMER-8", "that turn is already over")
    mover = state.turn
    variant = _variant(state)
    if not state.stock or _final(state):
        passed = TurnPassed(seat=mover)
        return (passed, *_turn_over(state, mover, passed=True, after=passed))
    if variant == "carousel":
        count = _CAROUSEL_DRAWS - state.drawn
    elif variant == "guadeloupe":
        count = 2
    else:
        count = 1
    drawn = CardsDrawn(seat=mover, cards=state.stock[:count], why="timeout")
    return (drawn, *_turn_over(state, mover, passed=False, after=drawn))


def _turn_over(state: State, seat: int, *, passed: bool, after: Event) -> tuple[Event, ...]:
    """The end of `seat`'s turn after `after`: the blocked round (RM-BLOCK-2), Carousel's
    final turns (RM-CAR-18/19), or the next seat's turn."""
    variant = _variant(state)
    if variant == "carousel":
        stock_left = len(state.stock) - (len(after.cards) if isinstance(after, CardsDrawn) else 0)
        if _final(state):
            if seat == state.final_last:
                return (_scored(state, "stock_end", seat, after),)
            return (_next(state, seat),)
        if stock_left == 0:  # RM-CAR-18, RM-AMB-15: the last card was drawn this turn
            return (FinalTurnsBegan(last=seat), _next(state, seat))
        return (_next(state, seat),)
    if passed and state.passes + 1 >= state.seats:  # RM-BLOCK-2, RM-AMB-14
        return (_scored(state, "blocked", seat, after),)
    return (_next(state, seat),)


def _next(state: State, seat: int) -> TurnEnded:
    return TurnEnded(seat=seat, turn=state.turn_no, next=seat % state.seats + 1)


def _scored(state: State, how: str, mover: int, after: Event) -> RoundScored:
    """The round's end with the hands as they are after `after`."""
    # A round never ends right after a draw (the final turns of Carousel draw nothing), so
    # only a play changes the mover's hand here.
    hands = [list(h) for h in state.hands]
    if isinstance(after, TablePlayed):
        added = set(after.added)
        hands[mover - 1] = [c for c in hands[mover - 1] if c not in added]
    options = state.options
    result = scoring.score(
        options.variant,
        how,
        hands,
        mover=mover,
        totals=state.totals,
        rounds_won=state.rounds_won,
        play_to=options.play_to,
    )
    return RoundScored(
        round=state.round,
        how=how,  # type: ignore[arg-type]
        hands=tuple(tuple(h) for h in hands),
        points=result.points,
        totals=result.totals,
        winners=result.winners,
        game_over=result.game_over,
        game_winners=result.game_winners,
        final=result.final,
    )


def _stop(state: State, seat: int) -> tuple[Event, ...]:
    """RM-AMB-22: the host ends a Shanghai game; a round in progress is not counted."""
    if state.options.variant != "shanghai":
        raise RuleViolation("no_stop", "RM-SHA-5", "only a Shanghai game is ended by its host")
    if seat != state.host:
        raise RuleViolation("host_only", "RM-AMB-22", "only the host ends the game")
    if state.phase == "over":
        raise RuleViolation("wrong_phase", "RM-AMB-22", "the game is over")
    in_play = state.phase in ("seeded", "play")
    totals = state.totals or (0,) * state.seats
    return (
        GameStopped(
            round=state.round if in_play else 0,
            totals=totals,
            winners=scoring.standings(totals),
        ),
    )
