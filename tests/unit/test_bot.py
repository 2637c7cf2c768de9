"""The Banakil bot (engine.banakil.bot): it sees one seat's View only, plays the rules of
both rule sets from the options, and its commands are accepted.

Rules: PF-BOT-2, PF-BOT-4, BK-RS-3, BK-DRAW-C1, BK-DRAW-C2, BK-DRAW-S1, BK-DRAW-S2,
BK-WILD-1, BK-WILD-C1, BK-WILD-S1, BK-MELD-C1, BK-MELD-S1, BK-TEAM-C1, BK-TEAM-S1,
BK-WILD-C3, BK-JOKER-C1, BK-JOKER-S1, BK-TURN-4, BK-END-1, BK-SCORE-S4.
"""

from __future__ import annotations

import ast
import random
import typing
from pathlib import Path

import pytest
from msgspec.structs import replace

from engine import banakil
from engine.banakil import bot
from engine.banakil.evolve import evolve
from engine.banakil.messages import (
    Command,
    CommitSeed,
    Discard,
    Draw,
    ExchangeJoker,
    LayOff,
    Meld,
    MoveWild,
    Play,
    TableAction,
    TakeGround,
)
from engine.banakil.options import BanakilOptions
from engine.banakil.state import State
from engine.banakil.view import View, view
from engine.cards import RANK, face
from engine.errors import RuleViolation
from tests.support import apply, meld, table

_BOT_FILE = Path(bot.__file__)
_REFUSED_SHARE = 0.01


def _faces(cards: typing.Iterable[str]) -> list[str]:
    return sorted(face(c) for c in cards)


def _actions(command: Command) -> tuple[TableAction, ...]:
    match command:
        case Play(actions=actions) | TakeGround(actions=actions):
            return actions
        case Meld() | LayOff() | ExchangeJoker() | MoveWild():
            return (command,)
    return ()


def _melds_in(command: Command) -> list[list[str]]:
    return [_faces(a.cards) for a in _actions(command) if isinstance(a, Meld)]


def _choose(state: State, seat: int | None = None) -> Command:
    return bot.choose(view(state, seat or state.turn), state.options)


def _play_turn(state: State) -> tuple[State, list[Command]]:
    """Let the bot play the current seat's turn to its end (every command accepted)."""
    seat, sent = state.turn, []
    while state.phase == "play" and state.turn == seat:
        command = _choose(state)
        sent.append(command)
        state, _ = apply(state, seat, command)
        assert len(sent) < 30, sent
    return state, sent


# --- what the bot may see ---------------------------------------------------------------------


def test_the_bot_module_imports_no_randomness_clock_os_or_engine_state() -> None:
    """PF-BOT-4 and the style guide: pure, and blind to State (it gets a View)."""
    tree = ast.parse(_BOT_FILE.read_text())
    imported: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            imported.add(node.module or "")
            imported |= {f"{node.module}.{alias.name}" for alias in node.names}
    roots = {name.split(".")[0] for name in imported}
    assert not roots & {"random", "time", "os", "secrets", "datetime", "uuid"}
    assert not any(
        name.startswith(("engine.banakil.state", "engine.banakil.decide", "engine.banakil.evolve"))
        for name in imported
    )
    assert "engine.banakil.view.view" not in imported  # it never builds a view from a state


def test_choose_receives_a_view_and_the_options_and_returns_a_command() -> None:
    hints = typing.get_type_hints(bot.choose)
    assert hints == {"view": View, "options": BanakilOptions, "return": Command}
    assert typing.get_type_hints(bot.fallback)["view"] is View


@pytest.mark.parametrize("preset", ["classic", "sahrat"])
def test_the_decision_is_the_same_whatever_the_hidden_cards_are(preset: str) -> None:
    """Other hands and the stock are swapped for different cards: the seat's view, and so
    the bot's choice, stay exactly the same (PF-BOT-2: it plays its own hand only)."""
    checked = 0
    for seed in range(3):
        shuffler = random.Random(seed)
        for state in _states_of_a_bot_deal(preset, seed):
            seat = state.turn
            hidden = [c for s, h in enumerate(state.hands, 1) if s != seat for c in h]
            hidden += state.stock
            shuffler.shuffle(hidden)
            hands = []
            rest = iter(hidden)
            for s, h in enumerate(state.hands, 1):
                hands.append(h if s == seat else tuple(next(rest) for _ in h))
            other = replace(state, hands=tuple(hands), stock=tuple(rest))
            assert other.hands != state.hands or not hidden
            assert view(other, seat) == view(state, seat)
            assert _choose(other) == _choose(state)
            checked += 1
    assert checked > 30


def _states_of_a_bot_deal(preset: str, seed: int) -> list[State]:
    states = []
    state = _dealt(banakil.options_from(preset), seed)
    while state.phase == "play":
        states.append(state)
        state, _ = apply(state, state.turn, _choose(state))
    return states


def test_the_bot_refuses_to_act_out_of_turn() -> None:
    state = table("classic", hands=["7H 8H 9H KD", "5C", "6C", "7C"], turn=1)
    with pytest.raises(ValueError, match="turn"):
        _choose(state, seat=2)
    with pytest.raises(ValueError, match="turn"):
        bot.fallback(view(state, 2))


def test_the_bot_only_discards_when_the_view_allows_only_a_discard() -> None:
    """PF-TIMER-6: after a timeout only a discard is accepted; the bot reads `legal`."""
    state = table("sahrat", hands=["5H 6H 7H KD 4S", "4C", "5C", "6C"], window=True)
    for command in (_choose(state), bot.fallback(view(state, 1))):
        assert isinstance(command, Discard)
        banakil.decide(state, 1, command)


# --- opening and laying off -------------------------------------------------------------------


@pytest.mark.parametrize("preset", ["classic", "sahrat"])
def test_the_bot_opens_with_every_meld_it_holds(preset: str) -> None:
    state = table(preset, hands=["5H 6H 7H 8H AS AD AC KD 9C", "4C", "5C", "6C"])
    command = _choose(state)
    assert sorted(_melds_in(command)) == [["5H", "6H", "7H", "8H"], ["AC", "AD", "AS"]]
    state, _ = apply(state, 1, command)
    assert _faces(state.hands[0]) == ["9C", "KD"]


@pytest.mark.parametrize("preset", ["classic", "sahrat"])
def test_a_joker_completes_a_pair_into_a_meld(preset: str) -> None:
    """BK-WILD-1: one joker per meld, with two real cards (enough in both rule sets)."""
    state = table(preset, hands=["7H 8H JK KD 4S", "4C", "5C", "6C"])
    assert _melds_in(_choose(state)) == [["7H", "8H", "JK"]]


def test_a_wild_two_completes_a_set_in_sahrat_only() -> None:
    """BK-MELD-C1 / BK-MELD-S1: the option `wild_two_in_sets` decides."""
    hands = ["AS AH 2C KD 9S", "4C", "5C", "6C"]
    sahrat = table("sahrat", hands=hands)
    assert _melds_in(_choose(sahrat)) == [["2C", "AH", "AS"]]
    classic = table("classic", hands=hands)
    command = _choose(classic)
    assert isinstance(command, Discard)
    assert RANK[command.card] not in (0, 2)  # BK-TURN-4 allows it, the bot keeps its two


def test_one_real_card_with_two_substitutes_is_a_meld_in_classic_only() -> None:
    """BK-WILD-C1 / BK-WILD-S1: `min_real_cards` 1 or 2."""
    hands = ["5H 2C JK KD 9S", "4C", "5C", "6C"]
    (laid,) = _melds_in(_choose(table("classic", hands=hands)))
    assert len(laid) == 3
    assert "JK" in laid
    assert "2C" in laid
    assert isinstance(_choose(table("sahrat", hands=hands)), Discard)


def test_no_meld_takes_two_jokers_or_two_wild_twos() -> None:
    state = table("classic", hands=["5H 2C 2D 8H JK JK KS", "4C", "5C", "6C"])
    for cards in _melds_in(_choose(state)):
        assert cards.count("JK") <= 1
        assert sum(1 for f in cards if f.startswith("2")) <= 1


def test_classic_lays_off_on_the_partners_meld_before_opening() -> None:
    """BK-TEAM-C1: partner's melds are open at any time in classic."""
    partner = meld(0, 1, 3, "run", "7H 8H 9H")
    state = table("classic", hands=["10H KD 4S 9C", "4C", "5C", "6C"], melds=[partner])
    command = _choose(state)
    assert command == LayOff(meld=0, cards=(_id(state, "10H"),))
    apply(state, 1, command)


def test_sahrat_lays_its_own_meld_before_adding_to_the_partners() -> None:
    """BK-TEAM-S1: the partner's meld opens only after a meld of one's own."""
    partner = meld(0, 1, 3, "run", "7H 8H 9H")
    alone = table("sahrat", hands=["10H KD 4S 9C", "4C", "5C", "6C"], melds=[partner])
    assert isinstance(_choose(alone), Discard)
    assert face(typing.cast(Discard, _choose(alone)).card) != "10H"  # kept for later
    with_meld = table("sahrat", hands=["10H 3S 3H 3D KD", "4C", "5C", "6C"], melds=[partner])
    command = _choose(with_meld)
    assert isinstance(command, Play)
    assert isinstance(command.actions[0], Meld)
    assert isinstance(command.actions[1], LayOff)
    state, _ = apply(with_meld, 1, command)
    assert _faces(state.hands[0]) == ["KD"]


def test_classic_moves_the_wild_two_to_make_room_for_a_card() -> None:
    """BK-WILD-C3: 2♣(=4♥) 5♥ 6♥ 7♥ and 9♥ in hand: the two moves to 8♥, 9♥ follows."""
    run = meld(0, 1, 3, "run", "2C=4H 5H 6H 7H")
    state = table("classic", hands=["9H KD 4S", "4C", "5C", "6C"], melds=[run])
    command = _choose(state)
    state, _ = apply(state, 1, command)
    assert [p.stands_for for p in state.melds[0].cards] == ["5H", "6H", "7H", "8H", "9H"]
    assert _faces(state.hands[0]) == ["4S", "KD"]


# --- jokers -----------------------------------------------------------------------------------


@pytest.mark.parametrize("preset", ["classic", "sahrat"])
def test_the_bot_frees_a_joker_and_melds_it_again(preset: str) -> None:
    """BK-JOKER-C1 / BK-JOKER-S1: in sahrat the freed joker must go down in the same
    command; the bot does that in both rule sets when the joker makes a new meld."""
    run = meld(0, 1, 1, "run", "5S JK=6S 7S")
    state = table(
        preset, hands=["6S 9D 10D KC", "4C", "5C", "6C"], melds=[run], laid=(True,) + (False,) * 3
    )
    command = _choose(state)
    assert isinstance(command, Play)
    assert isinstance(command.actions[0], ExchangeJoker)
    state, _ = apply(state, 1, command)
    assert _faces(state.hands[0]) == ["KC"]
    joker_meld = next(m for m in state.melds if any(RANK[p.card] == 0 for p in m.cards))
    assert [p.stands_for for p in joker_meld.cards] == ["9D", "10D", "JD"]


# --- the ground -------------------------------------------------------------------------------


def test_classic_takes_a_chosen_ground_card_and_those_above_it_when_they_meld() -> None:
    """BK-DRAW-C1/C2: 7♣ second from the top makes 5♣ 6♣ 7♣ (and an opening)."""
    state = table(
        "classic",
        hands=["5C 6C KD 9S 4H", "4C", "5D", "6D"],
        ground="QS 7C 8D 9H",
        drawn=False,
    )
    command = _choose(state)
    assert command == TakeGround(position=2)
    state, _ = apply(state, 1, command)
    state, _ = _play_turn(state)
    assert any(_faces(p.card for p in m.cards) == ["5C", "6C", "7C"] for m in state.melds)


def test_classic_draws_when_the_ground_gives_nothing() -> None:
    state = table(
        "classic", hands=["5C 6C KD 9S 4H", "4C", "5D", "6D"], ground="QS 8D 9H", drawn=False
    )
    assert _choose(state) == Draw()


def test_sahrat_takes_the_top_ground_card_only_with_the_actions_that_lay_it() -> None:
    """BK-DRAW-S1/S2: one command takes the top card and lays it."""
    state = table(
        "sahrat",
        hands=["5C 6C KD 9S 4H", "4C", "5D", "6D"],
        ground="7C 8D 9H",
        drawn=False,
    )
    command = _choose(state)
    assert isinstance(command, TakeGround)
    assert command.position == 1
    state, _ = apply(state, 1, command)
    assert any("7C" in _faces(p.card for p in m.cards) for m in state.melds)


def test_sahrat_does_not_take_a_top_card_it_cannot_lay() -> None:
    state = table("sahrat", hands=["5C 6C KD 9S 4H", "4C", "5D", "6D"], ground="QS 7C", drawn=False)
    assert _choose(state) == Draw()


# --- discarding and going out -----------------------------------------------------------------


@pytest.mark.parametrize("preset", ["classic", "sahrat"])
def test_the_bot_discards_a_lone_card_and_keeps_its_near_cards(preset: str) -> None:
    state = table(preset, hands=["JK 9H 10H 7C 8C KS 4D", "4C", "5D", "6D"])
    state, _ = apply(state, 1, _choose(state))  # one pair and the joker go down
    command = _choose(state)
    assert isinstance(command, Discard)
    assert face(command.card) == "KS"


def test_the_bot_discards_the_card_whose_loss_sheds_least_next_turn() -> None:
    """A drawn J♥ would make a run of 10♥ J♥ Q♥; a drawn Q♠ carries K♠ onto the bot's own
    run with or without the A♠ behind it. So losing the A♠ costs one card on a Q♠ draw and
    losing the Q♥ costs the whole J♥ run: the A♠ goes, though it is worth the most."""
    partner = meld(0, 1, 3, "run", "4H 5H 6H 7H 8H")
    own = meld(1, 1, 1, "run", "9S 10S JS")
    theirs = meld(2, 2, 2, "run", "5D 6D 7D")
    state = table("sahrat", hands=["QH KS 10H AS", "4C", "5D", "6D"], melds=[partner, own, theirs])
    command = _choose(state)
    assert isinstance(command, Discard)
    assert face(command.card) == "AS"


def test_the_bot_keeps_a_two_it_cannot_use_yet() -> None:
    """BK-TURN-4 allows discarding a two; the bot keeps it while other cards remain."""
    state = table("classic", hands=["2D AS AH 7S 10C", "4C", "5D", "6D"])
    command = _choose(state)
    assert isinstance(command, Discard)
    assert face(command.card) in {"7S", "10C"}


def test_the_bot_avoids_feeding_the_opponents_meld() -> None:
    """Both lone cards are equally useless; K♦ would extend the opponents' run."""
    theirs = meld(0, 2, 2, "run", "9D 10D JD QD")
    state = table("classic", hands=["KD 5S 8H 9H", "4C", "5D", "6D"], melds=[theirs])
    command = _choose(state)
    assert isinstance(command, Discard)
    assert face(command.card) == "5S"


@pytest.mark.parametrize("preset", ["classic", "sahrat"])
def test_the_bot_goes_out_by_laying_everything(preset: str) -> None:
    """BK-END-1: the hand empties by melds and add-ons, no discard needed."""
    partner = meld(0, 1, 3, "run", "7H 8H 9H")
    state = table(
        preset,
        hands=["AS AH AD 10H JH", "4C", "5D", "6D"],
        melds=[partner],
    )
    state, _ = _play_turn(state)
    assert state.finisher == 1


@pytest.mark.parametrize("preset", ["classic", "sahrat"])
def test_the_bot_goes_out_by_discarding_its_last_card(preset: str) -> None:
    state = table(preset, hands=["3S 3H 3D KD", "4C", "5D", "6D"])
    state, sent = _play_turn(state)
    assert state.finisher == 1
    assert isinstance(sent[-1], Discard)
    assert face(sent[-1].card) == "KD"


def test_sahrat_prefers_the_single_meld_finish_to_a_partner_add_on() -> None:
    """BK-SCORE-S4: 7♦ could go on the partner's run, but discarding it after laying the
    rest keeps the finish a single meld (51, and the opponents score 0)."""
    partner = meld(0, 1, 3, "run", "4D 5D 6D")
    state = table("sahrat", hands=["AS AH AD 7C 8C 9C 7D", "4C", "5D", "6D"], melds=[partner])
    state, _ = _play_turn(state)
    assert state.finisher == 1
    assert state.last_scores is not None
    assert state.last_scores.teams[0].single_meld


# --- complete deals ---------------------------------------------------------------------------


def _dealt(options: BanakilOptions, seed: int) -> State:
    rng = random.Random(seed)
    state = banakil.initial(options)
    state, _ = apply(state, 0, CommitSeed(secret=rng.randbytes(32).hex()))
    from engine.banakil.autoplay import random_step

    while state.phase == "seeded":  # the deal or the host's cut
        _, _, events = random_step(state, rng)
        for e in events:
            state = evolve(state, e)
    return state


@pytest.mark.parametrize(
    ("preset", "overrides", "deals"),
    [
        ("classic", {}, 16),
        ("sahrat", {}, 16),
        ("sahrat", {"mode": "one_vs_one"}, 6),
        ("classic", {"ground_draw": "top_only_must_use", "freed_joker": "must_remeld"}, 6),
        ("sahrat", {"min_real_cards": 1, "wild_two_in_sets": False}, 6),
        ("sahrat", {"wild_two_relocation": "any_position", "single_meld_bonus": False}, 6),
    ],
)
def test_bots_in_every_seat_play_whole_deals_with_accepted_commands(
    preset: str, overrides: dict[str, typing.Any], deals: int
) -> None:
    """PF-BOT-4: every bot command goes through decide; refusals stay (near) zero and the
    fallback is always accepted."""
    options = banakil.options_from(preset, **overrides)
    sent = refused = 0
    for seed in range(deals):
        state = _dealt(options, 100 + seed)
        while state.phase == "play":
            seen = view(state, state.turn)
            command = bot.choose(seen, options)
            sent += 1
            try:
                events = banakil.decide(state, state.turn, command)
            except RuleViolation:
                refused += 1
                events = banakil.decide(state, state.turn, bot.fallback(seen))
            for e in events:
                state = evolve(state, e)
            assert sent < 20_000
        assert state.end_reason is not None
    assert refused <= _REFUSED_SHARE * sent, f"{refused} of {sent} commands refused"


@pytest.mark.parametrize("preset", ["classic", "sahrat"])
def test_the_fallback_is_always_accepted(preset: str) -> None:
    for state in _states_of_a_bot_deal(preset, 7):
        command = bot.fallback(view(state, state.turn))
        assert isinstance(command, Draw | Discard)
        banakil.decide(state, state.turn, command)


def _id(state: State, name: str) -> str:
    return next(c for c in state.hands[state.turn - 1] if face(c) == name)
