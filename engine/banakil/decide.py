"""`decide(state, seat, command) -> events`: every Banakil rule check lives here.

Seat 0 is the system (seeding, dealing, the automatic cut). A command either returns all
of its events or raises RuleViolation and changes nothing (BK-TEAM-4, PF-VAL-1). Table
actions are checked one after another on a scratch fold, so a multi-action command sees
exactly the table its earlier actions made.
"""

from __future__ import annotations

from collections.abc import Sequence

from msgspec.structs import replace

from engine import fair, fairness
from engine.banakil import melds
from engine.banakil.auto import auto_discard
from engine.banakil.evolve import evolve
from engine.banakil.messages import (
    CardDiscarded,
    CardDrawn,
    CardsDealt,
    CloseSeedWindow,
    Command,
    CommitSeed,
    Cut,
    Deal,
    DealEnded,
    DealScored,
    DeckCut,
    DeckStacked,
    Discard,
    Draw,
    Event,
    ExchangeJoker,
    GroundReshuffled,
    GroundTaken,
    LayOff,
    MatchEnded,
    Meld,
    MeldLaid,
    MeldUpdated,
    MoveWild,
    Play,
    SendClientSeed,
    SeriesEnded,
    StackDeck,
    TableAction,
    TakeGround,
    Timeout,
    TurnTimedOut,
)
from engine.banakil.scoring import deal_scores, match_winner
from engine.banakil.state import State, TableMeld, team_of
from engine.cards import RANK, Card, face, parse_card, stack_deck
from engine.errors import RuleViolation

__all__ = [
    "check_action",
    "decide",
    "decide_fold",
    "decide_unrevealed",
    "ends",
    "lifecycle",
    "needs_cut",
]

_HAND = 18  # BK-DEAL-2
SYSTEM = 0

_BEFORE_PLAY = frozenset({CommitSeed, StackDeck, SendClientSeed, CloseSeedWindow, Deal, Cut})
# The events of a command, the state after the first `n` of them (the rules fold some while
# checking a command), and `n`.
_Folded = tuple[tuple[Event, ...], State, int]


def decide(state: State, seat: int, command: Command) -> tuple[Event, ...]:
    """The events of `command`, with the deal's secret revealed when it ends the deal, as
    the table reveals it (a replay or an audit runs the game without its table)."""
    return _revealed(state, _decide(state, seat, command)[0])


def decide_unrevealed(state: State, seat: int, command: Command) -> tuple[Event, ...]:
    """The game's own events of `command`: the table reveals the secret (PF-FAIR-3)."""
    return _decide(state, seat, command)[0]


def decide_fold(state: State, seat: int, command: Command) -> tuple[tuple[Event, ...], State]:
    """`decide`, and the state after its events: exactly `fold(events, state)`, without
    applying again the events the rules already applied to check the command (a replay
    or an audit needs both)."""
    events, known, done = _decide(state, seat, command)
    events = _revealed(state, events)  # the reveal comes after the `done` events
    for event in events[done:]:
        known = evolve(known, event)
    return events, known


def _decide(state: State, seat: int, command: Command) -> _Folded:
    if not 0 <= seat <= state.seats:
        raise RuleViolation("bad_seat", "BK-PLAY-1", f"there is no seat {seat} at this table")
    if state.phase == "over":
        raise RuleViolation("match_over", "BK-WIN-1", "the match is over")
    if type(command) in _BEFORE_PLAY:
        return _before_play(state, seat, command)
    _need_phase(state, "play", "no deal is being played")
    if isinstance(command, Timeout):
        return _timeout(state, seat, command), state, 0
    if seat != state.turn:
        raise RuleViolation("not_your_turn", "BK-TURN-6", f"it is seat {state.turn}'s turn")
    if state.window and not isinstance(command, Discard):
        raise RuleViolation(
            "discard_only", "PF-TIMER-6", "the time is up: only a discard is accepted now"
        )
    match command:  # the most frequent first
        case Discard(card=text):
            return _discard(state, seat, text)
        case Draw():
            _may_draw(state)
            return (CardDrawn(seat=seat, card=state.stock[0]),), state, 0
        case Meld() | LayOff() | ExchangeJoker() | MoveWild():
            return _play(state, seat, (command,), ())
        case TakeGround():
            return _take_ground(state, seat, command)
        case Play(actions=actions):
            if not actions:
                raise RuleViolation("empty_play", "BK-TURN-1", "a play needs at least one action")
            return _play(state, seat, actions, ())
    raise RuleViolation("unknown_command", "", f"{type(command).__name__} is not a Banakil command")


def _before_play(state: State, seat: int, command: Command) -> _Folded:
    """Seeding, the seats' seeds, dealing and the cut."""
    match command:
        case CommitSeed() | SendClientSeed() | CloseSeedWindow():
            # the table's lifecycle, the same rules the table decides for every game
            return fairness.decide(lifecycle(state), seat, command), state, 0
        case StackDeck():
            return _seed(state, seat, command), state, 0
        case Deal():
            _system(seat)
            _need_phase(state, "seeded", "the deal needs a committed seed first")
            if needs_cut(state):
                raise RuleViolation("awaiting_cut", "PF-CUT-1", "the host cuts before this deal")
            return (_deal(state, _deck(state), None),), state, 0
        case Cut(position=position):
            return _cut(state, seat, position), state, 0
    raise AssertionError(f"not a command before play: {command!r}")  # pragma: no cover


def _timeout(state: State, seat: int, command: Timeout) -> tuple[Event, ...]:
    """PF-TIMER-3..5: first a stock draw if one is due (never the ground) and the discard
    window; when the window runs out too, the automatic discard (PF-AUTO)."""
    _system(seat)
    if (command.deal, command.turn) != (state.deal, state.turn_no):
        raise RuleViolation(
            "stale_timeout", "PF-TIMER-3", "that turn is over: the timeout changes nothing"
        )
    player = state.turn
    if not state.window:
        drawn = () if state.drawn else (CardDrawn(seat=player, card=state.stock[0]),)
        return (*drawn, TurnTimedOut(seat=player, turn=state.turn_no))
    card = auto_discard(state.hands[player - 1])
    event = CardDiscarded(seat=player, card=card, automatic=True)
    after = evolve(state, event)
    if not after.hands[player - 1]:
        return (event, *_end_deal(after, "went_out", player))
    return (event, *_turn_start(after))


# --- seeding and dealing ------------------------------------------------------------------


def _system(seat: int) -> None:
    if seat != SYSTEM:
        raise RuleViolation("system_only", "PF-FAIR-1", "only the system seeds and deals")


def _need_phase(state: State, phase: str, message: str) -> None:
    if state.phase != phase:
        raise RuleViolation("wrong_phase", "BK-TURN-1", message)


def lifecycle(state: State) -> fairness.Lifecycle:
    """Where the deal stands in the table's fairness lifecycle: a deal is committed while
    it is "seeded" (not yet dealt), and its seats' window is open until the deal or the
    host's cut (or the window's own close, when the host cuts)."""
    return fairness.Lifecycle(
        unit=state.deal,
        awaiting_secret=state.phase == "seeding",
        committed=state.phase == "seeded",
        window=state.seed_window,
        seeds_sent=state.seeds_sent,
        secret=state.secret,
    )


def ends(event: object) -> int | None:
    """A deal ends when it is scored: its secret is revealed right after (PF-FAIR-3)."""
    return event.deal if isinstance(event, DealScored) else None


def _revealed(state: State, events: tuple[Event, ...]) -> tuple[Event, ...]:
    return fairness.revealed(events, ends, state.secret)


def needs_cut(state: State) -> bool:
    """BK-DEAL-C1: the host cuts for the first deal of the first match only (PF-CUT-6)."""
    return (
        state.options.first_player == "host_cut" and state.match == 1 and state.deals_in_match == 0
    )


def _seed(state: State, seat: int, command: StackDeck) -> tuple[Event, ...]:
    _system(seat)
    _need_phase(state, "seeding", "a deal is already seeded or running")
    cards = stack_deck(command.cards)
    for name, value in (("dealer", command.dealer), ("cut", command.cut)):
        limit = state.seats if name == "dealer" else len(cards) - 1
        if value is not None and not 1 <= value <= limit:
            raise RuleViolation("bad_stack", "PF-CUT-1", f"{name} must be 1..{limit}")
    return (DeckStacked(deal=state.deal + 1, cards=cards, dealer=command.dealer, cut=command.cut),)


def _deck(state: State) -> tuple[Card, ...]:
    if state.stacked is not None:
        return state.stacked
    assert state.secret is not None
    return fair.deal_deck(bytes.fromhex(state.secret), fair.entropy(state.client_seeds))


def _cut(state: State, seat: int, position: int | None) -> tuple[Event, ...]:
    _need_phase(state, "seeded", "the cut is made once the deal is seeded")
    if not needs_cut(state):
        raise RuleViolation("no_cut", "PF-CUT-6", "this deal has no cut")
    automatic = position is None
    if automatic:
        _system(seat)
        if state.secret is not None:
            position = fair.auto_cut(bytes.fromhex(state.secret), fair.entropy(state.client_seeds))
        else:
            position = state.stacked_cut or 1
    elif seat not in (state.host, SYSTEM):
        raise RuleViolation("not_host", "PF-CUT-1", "only the host cuts the deck")
    if state.seed_window:  # the cut deals: every seat's seed must be in by then
        raise RuleViolation(
            "seed_window_open",
            "PF-AMB-12",
            "the seats may still send client seeds: the deck is cut once that window closes",
        )
    assert position is not None
    deck = _deck(state)
    if not 1 <= position <= len(deck) - 1:
        raise RuleViolation("bad_cut", "PF-CUT-1", f"cut at a position from 1 to {len(deck) - 1}")
    cut = fair.cut(deck, position)
    starter = fair.cut_starter(state.host, fair.cut_count(cut[-1]), state.seats)
    return (
        DeckCut(position=position, automatic=automatic, cut_card=cut[-1], starter=starter),
        _deal(state, cut, starter),
    )


def _deal(state: State, deck: tuple[Card, ...], cut_starter: int | None) -> CardsDealt:
    n = state.seats
    if cut_starter is not None:
        starter = cut_starter
    elif state.deals_in_match == 0 and state.next_match_starter is not None:
        starter = state.next_match_starter  # BK-DEAL-C2, BK-DEAL-S4
    elif state.prev_starter is not None and state.deals_in_match > 0:
        starter = state.prev_starter % n + 1  # BK-DEAL-C3, BK-DEAL-S3
    else:  # BK-DEAL-S1/S2: the first dealer by fair draw
        if state.secret is not None:
            secret = bytes.fromhex(state.secret)
            dealer = fair.first_draw(secret, fair.entropy(state.client_seeds), n)
        else:
            dealer = state.stacked_dealer or n
        starter = dealer % n + 1
    order = [(starter - 1 + k) % n for k in range(n)]
    hands: list[list[Card]] = [[] for _ in range(n)]
    for k in range(_HAND * n):  # BK-DEAL-6
        hands[order[k % n]].append(deck[k])
    hands[starter - 1].append(deck[_HAND * n])
    return CardsDealt(
        deal=state.deal,
        entropy=fair.entropy(state.client_seeds),
        dealer=(starter - 2) % n + 1,
        starter=starter,
        hands=tuple(tuple(h) for h in hands),
        stock=deck[_HAND * n + 1 :],
    )


# --- the turn -----------------------------------------------------------------------------


def _may_draw(state: State) -> None:
    if state.first_turn:
        raise RuleViolation(
            "first_turn_no_draw", "BK-DEAL-5", "the starter does not draw on his first turn"
        )
    if state.drawn:
        raise RuleViolation("already_drawn", "BK-TURN-2", "one draw per turn")


def _take_ground(state: State, seat: int, command: TakeGround) -> _Folded:
    _may_draw(state)
    ground = state.ground
    if not ground:
        raise RuleViolation("ground_empty", "BK-DRAW-2", "the ground is empty")
    top_only = state.options.ground_draw == "top_only_must_use"
    if top_only and command.position != 1:
        raise RuleViolation("top_card_only", "BK-DRAW-S1", "only the top ground card may be taken")
    if not 1 <= command.position <= len(ground):
        raise RuleViolation(
            "bad_ground_position",
            "BK-DRAW-C1",
            f"choose a ground card from 1 (top) to {len(ground)}",
        )
    taken = tuple(reversed(ground[-command.position :]))  # BK-DRAW-C2: it and all above
    first = GroundTaken(seat=seat, cards=taken)
    if top_only and not command.actions:
        raise RuleViolation(
            "ground_card_unused",
            "BK-DRAW-S2",
            "the ground card is taken only with the table actions that lay it",
        )
    after = evolve(state, first)
    if not top_only:
        return _play(after, seat, command.actions, (first,))
    # BK-DRAW-S2: a face in the actions names the taken copy before a twin. The rules then
    # check the actions on a hand in another order than the fold's: nothing is known.
    hands = list(after.hands)
    hands[seat - 1] = (*taken, *state.hands[seat - 1])
    after = replace(after, hands=tuple(hands))
    return _play(after, seat, command.actions, (first,), taken)[0], state, 0


def _resolve(hand: Sequence[Card], texts: Sequence[str], used: set[Card]) -> tuple[Card, ...]:
    """Cards named by face or identity → identities in the hand (each copy used once)."""
    out: list[Card] = []
    for text in texts:
        if text in RANK:  # an identity (7H#2): one copy, found without a scan in Python
            pick = text if text in hand and text not in used else None
        else:
            name = parse_card(text)
            exact = "#" in name
            pick = next(
                (c for c in hand if c not in used and (c == name if exact else face(c) == name)),
                None,
            )
        if pick is None:
            raise RuleViolation("card_not_in_hand", "BK-TURN-1", f"{text} is not in your hand")
        used.add(pick)
        out.append(pick)
    return tuple(out)


def _team_meld(
    state: State, seat: int, meld_id: int, partner_rule: bool, own_team_rule: str = "BK-TEAM-2"
) -> TableMeld:
    if not 0 <= meld_id < len(state.melds):
        raise RuleViolation("no_such_meld", "BK-TEAM-2", f"there is no meld {meld_id}")
    meld = state.melds[meld_id]
    if meld.team != team_of(state, seat):
        raise RuleViolation(
            "opponents_meld", own_team_rule, "the opponents' melds cannot be changed"
        )
    if (
        partner_rule
        and meld.creator != seat
        and state.options.partner_addon_needs_own_meld
        and not state.laid[seat - 1]
    ):
        raise RuleViolation(
            "partner_meld_locked",
            "BK-TEAM-S1",
            "lay a meld of your own in this deal before changing your partner's melds",
        )
    return meld


def check_action(state: State, seat: int, action: TableAction) -> Event:
    """The event of one table action of `seat` on the table of `state`, or RuleViolation:
    the check every action of a turn gets, and the staging check asks (PF-STAGE-5)."""
    hand = state.hands[seat - 1]
    opts = state.options
    match action:
        case Meld(cards=texts, kind=kind):
            cards = _resolve(hand, texts, set())
            kind_out, placed = melds.new_meld(cards, kind, seat, opts)
            return MeldLaid(seat=seat, meld=len(state.melds), kind=kind_out, cards=placed)  # type: ignore[arg-type]
        case LayOff(meld=meld_id, cards=texts, wild_as=wild_as, joker_as=joker_as):
            meld = _team_meld(state, seat, meld_id, True)
            if not texts:
                raise RuleViolation("empty_lay_off", "BK-TEAM-3", "name the cards to add")
            cards = _resolve(hand, texts, set())
            placed = melds.add_to_meld(meld.cards, meld.kind, cards, seat, opts, wild_as, joker_as)
            return MeldUpdated(seat=seat, meld=meld_id, action="add", cards=placed, from_hand=cards)
        case ExchangeJoker(meld=meld_id, card=text):
            meld = _team_meld(state, seat, meld_id, True, "BK-JOKER-3")
            (card,) = _resolve(hand, (text,), set())
            placed, joker = melds.exchange_joker(meld.cards, meld.kind, card, seat, opts)
            return MeldUpdated(
                seat=seat,
                meld=meld_id,
                action="exchange",
                cards=placed,
                from_hand=(card,),
                to_hand=(joker,),
            )
        case MoveWild(meld=meld_id, to=to):
            meld = _team_meld(state, seat, meld_id, False)
            placed = melds.move_wild(meld.cards, meld.kind, to, opts)
            return MeldUpdated(seat=seat, meld=meld_id, action="move", cards=placed)
    raise RuleViolation("unknown_action", "", f"{type(action).__name__} is not a table action")


def _play(
    state: State,
    seat: int,
    actions: Sequence[TableAction],
    before: tuple[Event, ...],
    must_lay: tuple[Card, ...] = (),
) -> _Folded:
    """The events of the table actions; `state` is the table with `before` applied."""
    if not state.drawn:
        raise RuleViolation("draw_first", "BK-TURN-2", "draw before melding")
    events = list(before)
    freed: list[Card] = []
    for action in actions:
        event = check_action(state, seat, action)
        if isinstance(event, MeldUpdated):
            freed.extend(event.to_hand)
        events.append(event)
        state = evolve(state, event)
    hand = state.hands[seat - 1]
    if must_lay and any(c in hand for c in must_lay):
        raise RuleViolation(
            "ground_card_unused", "BK-DRAW-S2", "the ground card must be laid in the same turn"
        )
    if freed and state.options.freed_joker == "must_remeld" and any(c in hand for c in freed):
        raise RuleViolation(
            "joker_not_remelded",
            "BK-JOKER-S1",
            "a freed joker must be melded again in this command",
        )
    done = len(events)
    if not hand:  # BK-TURN-5, BK-END-1
        events.extend(_end_deal(state, "went_out", seat))
    return tuple(events), state, done


def _discard(state: State, seat: int, text: str) -> _Folded:
    if not state.drawn:
        raise RuleViolation("draw_first", "BK-TURN-2", "draw before discarding")
    (card,) = _resolve(state.hands[seat - 1], (text,), set())
    event = CardDiscarded(seat=seat, card=card)
    after = evolve(state, event)
    if not after.hands[seat - 1]:  # BK-END-1: out by discarding the last card
        return (event, *_end_deal(after, "went_out", seat)), after, 1
    return (event, *_turn_start(after)), after, 1


def _turn_start(state: State) -> tuple[Event, ...]:
    """BK-STOCK-*, BK-AMB-5: an empty stock is dealt with before the next player acts."""
    if state.stock:
        return ()
    under_top = state.ground[:-1]
    if state.reshuffles < state.options.max_reshuffles and under_top:
        number = state.reshuffles + 1
        if state.secret is not None:
            secret = bytes.fromhex(state.secret)
            stock = fair.reshuffle(under_top, secret, state.entropy, number)  # PF-FAIR-4
        else:
            stock = under_top  # a stacked deal turns the ground over without shuffling
        return (GroundReshuffled(number=number, stock=tuple(stock)),)
    reason = "dead" if state.options.exhausted_deal == "dead" else "used_up"
    return _end_deal(state, reason, None)


def _end_deal(state: State, reason: str, finisher: int | None) -> tuple[Event, ...]:
    single = (
        finisher is not None
        and state.options.single_meld_bonus
        and state.turn_clean
        and not state.turn_partner_touch
    )
    ended = DealEnded(reason=reason, finisher=finisher)  # type: ignore[arg-type]
    state = evolve(state, ended)
    players, teams = deal_scores(state, single)
    totals = tuple(t.total for t in teams)
    winner, extra = match_winner(state, totals)
    events: list[Event] = [
        ended,
        DealScored(deal=state.deal, players=players, teams=teams, extra_deals=extra),
    ]
    if winner is not None:
        events.append(MatchEnded(match=state.match, winner=winner, totals=totals))
        wins = list(state.series_wins or (0, 0))
        wins[winner - 1] += 1
        if state.options.series and max(wins) >= 2:  # PF-SERIES-2
            events.append(SeriesEnded(winner=winner, wins=tuple(wins)))
    return tuple(events)
