"""The dice tool (PF-DICE-1/2): one phone, three dice a roll, each roll its own committed
and revealed unit of play, through the platform's table and its timers.

Rules: PF-DICE-1, PF-DICE-2, PF-FAIR-1, PF-FAIR-2, PF-FAIR-3, PF-FAIR-6, PF-AMB-12 (g, h),
PF-AMB-13, PF-ROOM-2, PF-ROOM-5, PF-BOT-1, PF-REVEAL-3.
"""

from __future__ import annotations

import hashlib
import json
import random
import re
from pathlib import Path
from typing import Any

import msgspec
import pytest
from msgspec.structs import replace

from engine import fair, players, protocol, table
from engine.dice.game import GAME, redact, summary
from engine.dice.messages import (
    CommitSeed,
    Deal,
    DiceThrown,
    Roll,
    SeedCommitted,
    SeedRevealed,
    SeedWindowClosed,
    SendClientSeed,
    Stop,
    ToolStopped,
)
from engine.dice.options import DiceOptions, options_from
from engine.dice.state import KEPT
from engine.dice.view import View
from engine.errors import RuleViolation
from engine.table import CreateTable, StartTable, TableState, TakeSeat
from services.gateway.messages import decode_client
from services.tables.followups import next_follow_up
from services.tables.seeds import Due, SeedTiming, due

_SYSTEM = 0
_PHONE = 1


def _secret(n: int) -> str:
    return hashlib.sha256(f"dice-secret-{n}".encode()).hexdigest()


def _send(state: TableState, seat: int, command: Any) -> tuple[TableState, tuple[Any, ...]]:
    events = table.decide(state, seat, command)
    for event in events:
        state = table.evolve(state, event)
    return state, events


def _started() -> TableState:
    state = table.new_table("dice-1")
    create = CreateTable(game="dice", options=options_from(), seats=("human",))
    state, _ = _send(state, _SYSTEM, create)
    state, _ = _send(state, _SYSTEM, TakeSeat(seat=1, player="Salma"))
    return _send(state, _PHONE, StartTable())[0]


def _committed(n: int = 1) -> TableState:
    """A started table whose rolls 1..n-1 are rolled and roll n is committed."""
    state = _send(_started(), _SYSTEM, CommitSeed(secret=_secret(1)))[0]
    for k in range(2, n + 1):
        state = _send(state, _PHONE, Roll())[0]
        state = _send(state, _SYSTEM, CommitSeed(secret=_secret(k)))[0]
    return state


def _refused(state: TableState, seat: int, command: Any) -> RuleViolation:
    with pytest.raises(RuleViolation) as info:
        table.decide(state, seat, command)
    return info.value


def _game(state: TableState) -> Any:
    assert state.game_state is not None
    return state.game_state


# --- the Game object and the table ------------------------------------------------------


def test_the_dice_tool_is_hosted_with_one_roll_as_its_unit_and_the_dice_draw_pf_amb_12() -> None:
    """PF-FAIR-1, PF-AMB-12 g: the unit is one roll; it reads the "dice" stream only; the
    services time no Deal before it (no seed window wait, no end-of-deal screen)."""
    game = protocol.get("dice")
    assert game is GAME and "dice" in protocol.hosted()
    assert (game.unit.name, game.unit.draws, game.unit.ending) == (
        "roll",
        ("dice",),
        ("DiceThrown", "ToolStopped"),
    )
    assert game.unit.timed_deal is False
    assert protocol.get("bunco").unit.timed_deal is True  # the card and Bunco units are timed
    assert game.seat_counts == (1,) and game.teams(DiceOptions()) == ((1,),)
    assert game.bots_allowed(DiceOptions()) is False


def test_a_dice_table_has_one_seat_a_human_and_no_options_pf_room_5() -> None:
    """PF-DICE-1: one phone; PF-ROOM-2: an option the tool does not have is refused;
    PF-BOT-1: no bot sits at it."""
    fresh = table.new_table("dice-x")
    two = CreateTable(game="dice", options=options_from(), seats=("human", "human"))
    assert _refused(fresh, _SYSTEM, two).code == "bad_seats"
    bot = CreateTable(game="dice", options=options_from(), seats=("bot",))
    assert _refused(fresh, _SYSTEM, bot).code in ("no_bots_here", "no_humans")
    with pytest.raises(RuleViolation) as info:
        options_from(None, dice=4)
    assert (info.value.code, info.value.rule_id) == ("bad_option", "PF-DICE-1")
    with pytest.raises(RuleViolation) as info:
        options_from("yahtzee")
    assert info.value.code == "bad_option" and "three_dice" in info.value.message


# --- rolling ----------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [None, "", "my phone's seed", "~" * 64])
def test_a_roll_is_the_first_three_dice_of_its_secrets_dice_stream_pf_dice_2(
    seed: str | None,
) -> None:
    """PF-DICE-2, PF-AMB-12 g/h: each die is 1 + uniform[0, 6) of the roll's "dice" stream,
    with E the hash of the seat's client seed ("" when it sent none): fair.dice(S, E, 3)."""
    for n in range(1, 9):
        state = _send(_started(), _SYSTEM, CommitSeed(secret=_secret(n)))[0]
        if seed is not None:
            state = _send(state, _PHONE, SendClientSeed(seed=seed))[0]
        _, events = _send(state, _PHONE, Roll())
        thrown = events[0]
        assert isinstance(thrown, DiceThrown)
        expected = fair.dice(bytes.fromhex(_secret(n)), fair.entropy([seed or ""]), 3)
        assert thrown.dice == expected and all(1 <= d <= 6 for d in thrown.dice)


def test_the_client_seed_changes_the_dice_the_server_committed_to_pf_amb_12_h() -> None:
    """PF-AMB-12 h: over many secrets a seed changes some roll (the seat's entropy is mixed
    in after the commitment), and the same seed gives the same dice."""
    differ = 0
    for n in range(1, 21):
        state = _send(_started(), _SYSTEM, CommitSeed(secret=_secret(n)))[0]
        plain = _send(state, _PHONE, Roll())[1][0].dice
        seeded = _send(state, _PHONE, SendClientSeed(seed="abc"))[0]
        first = _send(seeded, _PHONE, Roll())[1][0].dice
        assert _send(seeded, _PHONE, Roll())[1][0].dice == first
        differ += first != plain
    assert differ >= 15


def test_each_roll_is_its_own_unit_committed_before_it_and_revealed_right_after_it() -> None:
    """PF-FAIR-1/2/3, PF-AMB-13: roll n is unit n, with its own secret and commitment
    published before it is rolled; the roll's events are its dice and then its secret."""
    state = _started()
    commitments = []
    for n in range(1, 7):
        assert GAME.unit.needs_secret(_game(state))
        state, (committed,) = _send(state, _SYSTEM, CommitSeed(secret=_secret(n)))
        assert isinstance(committed, SeedCommitted) and committed.deal == n
        assert committed.commitment == hashlib.sha256(bytes.fromhex(_secret(n))).hexdigest()
        shown = GAME.view(_game(state), _PHONE)
        assert shown.commitment == committed.commitment and shown.legal.commands == (
            "SendClientSeed",
            "Roll",
            "Stop",
        )
        assert GAME.unit.begins(committed) == n
        commitments.append(committed.commitment)
        state, events = _send(state, _PHONE, Roll())
        thrown, revealed = events
        assert isinstance(thrown, DiceThrown) and thrown.roll == n and thrown.seat == _PHONE
        assert GAME.unit.ends(thrown) == n
        assert revealed == SeedRevealed(deal=n, secret=_secret(n))
    assert len(set(commitments)) == 6
    assert _game(state).rolls == 6


def test_the_committed_secret_is_in_no_view_and_no_redacted_event_before_its_reveal() -> None:
    """PF-FAIR-3: the phone and a spectator see the commitment, never the secret, until
    the roll is made; then the roll's secret is in the view beside its dice."""
    state = _committed(3)
    secret = _secret(3)
    for seat in (_PHONE, None):
        assert secret not in msgspec.json.encode(GAME.view(_game(state), seat)).decode()
    committed = SeedCommitted(deal=3, commitment="c", algorithm=fair.ALGORITHM, secret=secret)
    for seat in (_PHONE, None):
        assert redact(committed, seat) == replace(committed, secret="")
    state = _send(state, _PHONE, Roll())[0]
    last = GAME.view(_game(state), None).last[-1]
    assert (last.roll, last.secret) == (3, secret)
    assert summary(_game(state)) == last


def test_the_view_keeps_the_last_20_rolls_each_with_its_proof() -> None:
    """Each roll shown with its dice, commitment, client seed and revealed secret; the
    view keeps the last KEPT (20) rolls, oldest first."""
    state = _send(_started(), _SYSTEM, CommitSeed(secret=_secret(1)))[0]
    for n in range(1, 26):
        if n % 2:
            state = _send(state, _PHONE, SendClientSeed(seed=f"s{n}"))[0]
        state = _send(state, _PHONE, Roll())[0]
        state = _send(state, _SYSTEM, CommitSeed(secret=_secret(n + 1)))[0]
    shown = GAME.view(_game(state), _PHONE)
    assert KEPT == 20 and [t.roll for t in shown.last] == list(range(6, 26))
    assert (shown.roll, shown.rolls, shown.phase) == (26, 25, "ready")
    for t in shown.last:
        assert t.secret == _secret(t.roll)
        assert t.commitment == hashlib.sha256(bytes.fromhex(t.secret)).hexdigest()
        assert t.client_seed == (f"s{t.roll}" if t.roll % 2 else "")
        entropy = fair.entropy([t.client_seed])
        assert t.dice == fair.dice(bytes.fromhex(t.secret), entropy, 3)


def test_stop_ends_the_table_and_reveals_the_roll_left_unrolled() -> None:
    """PF-FAIR-3: the committed roll the seat never rolled ends with the table, and its
    secret is revealed; the table is finished."""
    state = _committed(2)
    state, events = _send(state, _PHONE, Stop())
    assert events == (ToolStopped(seat=1, roll=2), SeedRevealed(deal=2, secret=_secret(2)))
    assert state.status == "finished" and GAME.over(_game(state))
    last = GAME.view(_game(state), None).last[-1]
    assert (last.roll, last.dice, last.secret) == (2, (), _secret(2))
    assert GAME.legal(_game(state), _PHONE).commands == ()
    with pytest.raises(RuleViolation) as info:  # the game alone (a record's replay) too
        GAME.decide(_game(state), _PHONE, Roll())
    assert (info.value.code, info.value.rule_id) == ("table_over", "PF-DICE-1")


def test_stop_between_a_roll_and_the_next_commitment_reveals_nothing_more() -> None:
    state = _send(_committed(1), _PHONE, Roll())[0]
    state, events = _send(state, _PHONE, Stop())
    assert events == (ToolStopped(seat=1, roll=0),) and GAME.unit.ends(events[0]) is None
    assert state.status == "finished"


# --- refusals ---------------------------------------------------------------------------


def _refusals() -> list[tuple[str, int, Any, str, str]]:
    return [
        ("seeding", _PHONE, Roll(), "not_committed", "PF-FAIR-2"),
        ("ready", _SYSTEM, Roll(), "not_the_phone", "PF-DICE-1"),
        ("ready", 2, Roll(), "not_the_phone", "PF-DICE-1"),
        ("ready", _SYSTEM, Stop(), "not_the_phone", "PF-DICE-1"),
        ("ready", _PHONE, Deal(), "system_only", "PF-AMB-12"),
        ("ready", _PHONE, CommitSeed(secret=_secret(9)), "system_only", "PF-FAIR-1"),
        ("seeded", _PHONE, SendClientSeed(seed="again"), "seed_already_sent", "PF-AMB-12"),
        ("seeded", _PHONE, SendClientSeed(seed="x" * 65), "seed_already_sent", "PF-AMB-12"),
        ("ready", _PHONE, SendClientSeed(seed="x" * 65), "bad_client_seed", "PF-AMB-12"),
        ("ready", _PHONE, SendClientSeed(seed="tab\there"), "bad_client_seed", "PF-AMB-12"),
        ("closed", _SYSTEM, Deal(), "seed_window_closed", "PF-AMB-12"),
        ("closed", _PHONE, SendClientSeed(seed="late"), "seed_window_closed", "PF-AMB-12"),
        ("seeding", _PHONE, SendClientSeed(seed="early"), "seed_window_closed", "PF-AMB-12"),
        ("over", _PHONE, Roll(), "not_playing", "PF-ROOM-4"),
        ("over", _PHONE, Stop(), "not_playing", "PF-ROOM-4"),
    ]


def _at(where: str) -> TableState:
    ready = _committed(2)
    return {
        "seeding": _send(ready, _PHONE, Roll())[0],
        "ready": ready,
        "seeded": _send(ready, _PHONE, SendClientSeed(seed="mine"))[0],
        "closed": _send(ready, _SYSTEM, Deal())[0],
        "over": _send(ready, _PHONE, Stop())[0],
    }[where]


@pytest.mark.parametrize(("where", "seat", "command", "code", "rule"), _refusals())
def test_a_refused_command_names_its_rule_and_changes_nothing(
    where: str, seat: int, command: Any, code: str, rule: str
) -> None:
    """Bad input is a RuleViolation (code, rule ID, sentence); the table is as it was, and
    the next roll reads the same dice as if the command had never been sent."""
    state = _at(where)
    before = msgspec.json.encode(state)
    refused = _refused(state, seat, command)
    assert (refused.code, refused.rule_id) == (code, rule) and refused.message
    assert msgspec.json.encode(state) == before
    if where in ("ready", "seeded", "closed"):
        dice = _send(state, _PHONE, Roll())[1][0].dice
        seed = _game(state).client_seed
        assert dice == fair.dice(bytes.fromhex(_secret(2)), fair.entropy([seed]), 3)


def test_the_system_may_close_a_rolls_seed_window_and_the_phone_still_rolls_at_once() -> None:
    """PF-AMB-12 h: the services' Deal closes the window (the seeds in); the roll is the
    seat's, with the seed sent before the close."""
    state = _send(_committed(1), _PHONE, SendClientSeed(seed="mine"))[0]
    state, events = _send(state, _SYSTEM, Deal())
    assert events == (SeedWindowClosed(deal=1),)
    assert GAME.legal(_game(state), _PHONE).commands == ("Roll", "Stop")
    assert GAME.legal(_game(state), _SYSTEM).commands == ()
    thrown = _send(state, _PHONE, Roll())[1][0]
    assert thrown.dice == fair.dice(bytes.fromhex(_secret(1)), fair.entropy(["mine"]), 3)


# --- the services' timers (services/tables/seeds.py) ------------------------------------

_TIMING = SeedTiming(seed_window=3.0, cut_seconds=15.0, reveal_seconds=8.0)


@pytest.mark.parametrize("rolls", [0, 1, 5])
@pytest.mark.parametrize("seed", [False, True])
def test_no_timer_stands_between_two_rolls_pf_reveal_3_pf_amb_12_h(rolls: int, seed: bool) -> None:
    """No end-of-deal screen (PF-REVEAL-3 is for a card deal's hands) and no seed window
    to wait out: the phone may roll the moment the next commitment is published."""
    state = _committed(rolls + 1)
    if seed:
        state = _send(state, _PHONE, SendClientSeed(seed="s"))[0]
    assert due(state, _TIMING) is None
    assert "Roll" in GAME.legal(_game(state), _PHONE).commands


def test_a_timed_game_still_waits_for_its_seed_window_and_its_end_of_deal_screen() -> None:
    """The same `due` keeps Bunco's round timed (its Deal starts the round): the window's
    3 s before round 1."""
    state = table.new_table("bu-1")
    create = CreateTable(
        game="bunco",
        options=protocol.get("bunco").options_from(None, players=4),
        seats=("human",) * 4,
    )
    state = _send(state, _SYSTEM, create)[0]
    for seat in range(1, 5):
        state = _send(state, _SYSTEM, TakeSeat(seat=seat, player=f"P{seat}"))[0]
    state = _send(state, 1, StartTable())[0]
    state = _send(state, _SYSTEM, CommitSeed(secret=_secret(1)))[0]
    assert due(state, _TIMING) == Due(kind="deal", deal=1, seconds=3.0, game="bunco")


def test_the_follow_ups_commit_the_next_roll_at_once_and_a_deal_they_send_is_accepted() -> None:
    """The services' follow-ups (services/tables/followups.py) commit each roll's secret
    as the last one ends; with no seed window (0 s) they send the system's Deal of roll 1,
    which only closes its window."""
    state = _send(_committed(1), _PHONE, Roll())[0]
    step = next_follow_up(state, 7, None, lambda: bytes.fromhex(_secret(2)), 3.0, 8.0)
    assert step is not None and step.command == CommitSeed(secret=_secret(2))
    first = _committed(1)
    step = next_follow_up(first, 5, None, lambda: b"", 0.0, 8.0)
    assert step is not None and isinstance(step.command, Deal) and step.seat == _SYSTEM
    after, events = _send(first, step.seat, step.command)
    assert events == (SeedWindowClosed(deal=1),) and "Roll" in GAME.legal(_game(after), 1).commands
    assert next_follow_up(after, 6, None, lambda: b"", 0.0, 8.0) is None  # the phone rolls


# --- players for tests and benches ------------------------------------------------------


def test_the_random_player_and_the_scripted_client_roll_through_the_rules() -> None:
    rng = random.Random(7)
    kit = players.get("dice")
    state = GAME.initial(options_from(), 1)
    rolls = 0
    for _ in range(200):
        seat, command, events = kit.step(state, rng)
        assert events == GAME.decide(state, seat, command)
        for event in events:
            state = GAME.evolve(state, event)
        rolls += isinstance(command, Roll)
        seen = GAME.view(state, _PHONE)
        assert (kit.client(seen, options_from(), rng, False) is None) == (state.phase != "ready")
    assert rolls >= 75 and state.rolls == rolls


# --- docs/protocol.md, "The dice tool" --------------------------------------------------

_DOC = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"
_DOC_EXAMPLE = re.compile(r"<!-- dice-example: ([\w-]+) -->\n```\n(.*?)\n```", re.S)


def _doc_examples() -> dict[str, str]:
    found = _DOC_EXAMPLE.findall(_DOC.read_text(encoding="utf-8"))
    assert len(found) == len(dict(found)) >= 7
    return dict(found)


@pytest.mark.parametrize("name", sorted(_doc_examples()))
def test_each_dice_example_of_the_protocol_doc_decodes_with_the_tools_structs(name: str) -> None:
    raw = _doc_examples()[name]
    value = json.loads(raw)
    if name == "create":
        assert value["game"] == "dice" and GAME.options_from(None, **value.get("options", {}))
    elif name.startswith("command"):
        command_id, command = decode_client(raw.encode(), 64 * 1024, GAME)
        assert command_id == value["command_id"]
        assert msgspec.to_builtins(command) == value["command"]
    elif name.startswith("event"):
        event = msgspec.json.decode(raw.encode(), type=GAME.event, strict=True)
        assert json.loads(msgspec.json.encode(event)) == value
    else:
        shown = msgspec.json.decode(raw.encode(), type=View, strict=True)
        assert json.loads(msgspec.json.encode(shown)) == value
        for thrown in shown.last:  # the example's roll is a real one
            assert (
                thrown.commitment == hashlib.sha256(bytes.fromhex(thrown.secret or "")).hexdigest()
            )
            entropy = fair.entropy([thrown.client_seed])
            assert thrown.dice == fair.dice(bytes.fromhex(thrown.secret or ""), entropy, 3)
