"""The verifier catches every kind of tampering, at the step it breaks (PF-FAIR-1..7).

Records come from `examples/`, played by `engine.replay.run_record`, with each deal's
events attached as the server records them. A genuine record verifies; each tampered
copy fails exactly the check it breaks, with the place of the first difference, and the
checks before it still pass.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import msgspec
import pytest
from msgspec.structs import replace

from engine import fair
from engine.banakil.messages import (
    CardDrawn,
    CardsDealt,
    CloseSeedWindow,
    Cut,
    DealScored,
    DeckCut,
    DeckStacked,
    Discard,
    Draw,
    Event,
    GroundReshuffled,
    MeldLaid,
    SeedCommitted,
    SeedRevealed,
    SendClientSeed,
    TeamScore,
)
from engine.replay import Record, SeatCommand, decode_record, run_record
from engine.verify import CHECKS, Verdict, verify_record
from tests.verify_support import reshuffled_deal

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
SEEDED = ["classic-secret-deal", "sahrat-secret-deal", "sahrat-1v1-secret-match"]


def with_events(record: Record) -> Record:
    """The record with each deal's events, as the engine produces them."""
    report = run_record(record)
    assert report.rejected == 0
    per_deal: list[list[Event]] = []
    for event in report.events:
        if isinstance(event, SeedCommitted | DeckStacked):
            per_deal.append([])
        per_deal[-1].append(event)
    deals = tuple(
        replace(deal, events=tuple(events))
        for deal, events in zip(record.deals, per_deal, strict=True)
    )
    return replace(record, deals=deals)


def example(name: str) -> Record:
    return with_events(decode_record((EXAMPLES / f"{name}.json").read_bytes()))


def events_of(record: Record, deal: int = 0) -> list[Event]:
    return list(record.deals[deal].events or ())


def with_deal(record: Record, deal: int = 0, **changes: Any) -> Record:
    deals = list(record.deals)
    deals[deal] = replace(deals[deal], **changes)
    return replace(record, deals=tuple(deals))


def with_log(record: Record, events: list[Event], deal: int = 0) -> Record:
    return with_deal(record, deal, events=tuple(events))


def first(events: list[Event], kind: type, start: int = 0) -> int:
    return next(i for i, e in enumerate(events) if i >= start and isinstance(e, kind))


def statuses(verdict: Verdict, deal: int = 0) -> dict[str, str]:
    return {c.name: c.status for c in verdict.deals[deal].checks}


def failing(verdict: Verdict, deal: int = 0) -> Any:
    (check,) = [c for c in verdict.deals[deal].checks if c.status == "fail"]
    return check


def assert_fails_at(verdict: Verdict, name: str, deal: int = 0) -> Any:
    """Exactly `name` fails; every check listed before it passes (or was not reached)."""
    assert not verdict.passed
    check = failing(verdict, deal)
    assert check.name == name, verdict.sentences()
    before = CHECKS[: CHECKS.index(name)]
    assert all(statuses(verdict, deal)[n] in ("pass", "unchecked") for n in before)
    assert statuses(verdict, deal)["commitment"] == "pass" or name == "commitment"
    return check


@pytest.mark.parametrize("name", [*SEEDED, "classic-stacked-deal", "sahrat-stacked-deal"])
def test_a_genuine_deal_verifies_in_both_rule_sets_pf_fair_5_pf_fair_7(name: str) -> None:
    """PF-EX-8: SHA-256(S) = C and re-running the shuffle and the commands gives exactly
    the recorded log, for classic, sahrat and 1v1 (PF-FAIR-7)."""
    record = example(name)
    verdict = verify_record(record)
    assert verdict.passed, verdict.sentences()
    assert len(verdict.deals) == len(record.deals)
    for deal in verdict.deals:
        assert {c.status for c in deal.checks} == {"pass"}
    if name in SEEDED:
        committed = events_of(record)[0]
        assert isinstance(committed, SeedCommitted)
        assert verdict.deals[0].commitment == committed.commitment
        assert committed.commitment == fair.commitment(bytes.fromhex(verdict.deals[0].secret or ""))


@pytest.mark.parametrize("name", SEEDED)
def test_a_changed_seed_is_caught_by_the_commitment_pf_fair_1_pf_fair_3(name: str) -> None:
    record = example(name)
    seed = record.deals[0].seed
    assert seed is not None
    other = ("00" if seed.secret[:2] != "00" else "ff") + seed.secret[2:]
    verdict = verify_record(with_deal(record, seed=replace(seed, secret=other)))
    check = assert_fails_at(verdict, "commitment")
    assert fair.commitment(bytes.fromhex(other)) in check.detail
    # Nothing after it is claimed: the replay of another secret follows no recorded log.
    assert set(statuses(verdict).values()) == {"fail", "unchecked"}


def test_a_revealed_secret_changed_in_the_log_is_caught_by_the_commitment_pf_fair_3() -> None:
    record = example("sahrat-secret-deal")
    events = events_of(record)
    i = first(events, SeedRevealed)
    events[i] = replace(events[i], secret="11" * 32)
    check = assert_fails_at(verify_record(with_log(record, events)), "commitment")
    assert check.difference.index == i


@pytest.mark.parametrize("name", SEEDED)
def test_a_changed_commitment_is_caught_before_anything_else_pf_fair_2(name: str) -> None:
    record = example(name)
    events = events_of(record)
    events[0] = replace(events[0], commitment="ab" * 32)
    check = assert_fails_at(verify_record(with_log(record, events)), "commitment")
    assert "ab" * 32 in check.detail


@pytest.mark.parametrize("name", [*SEEDED, "classic-stacked-deal"])
def test_a_card_changed_in_a_dealt_hand_is_caught_by_the_deck_pf_fair_1(name: str) -> None:
    record = example(name)
    events = events_of(record)
    i = first(events, CardsDealt)
    dealt = events[i]
    hands = [list(h) for h in dealt.hands]
    hands[1][0], stock = dealt.stock[0], (hands[1][0], *dealt.stock[1:])
    events[i] = replace(dealt, hands=tuple(tuple(h) for h in hands), stock=stock)
    check = assert_fails_at(verify_record(with_log(record, events)), "deck")
    assert check.difference.index == i
    assert "CardsDealt" in check.detail


@pytest.mark.parametrize("name", SEEDED)
def test_a_changed_drawn_card_is_caught_by_the_draws(name: str) -> None:
    record = example(name)
    events = events_of(record)
    i = first(events, CardDrawn)
    drawn = events[i]
    events[i] = replace(drawn, card="JK#2" if drawn.card != "JK#2" else "JK#1")
    verdict = verify_record(with_log(record, events))
    check = assert_fails_at(verdict, "draws")
    assert check.difference.index == i
    assert statuses(verdict)["deck"] == "pass"


@pytest.mark.parametrize("name", SEEDED)
def test_a_removed_event_is_reported_missing_at_its_place(name: str) -> None:
    record = example(name)
    events = events_of(record)
    i = first(events, MeldLaid)
    del events[i]
    verdict = verify_record(with_log(record, events))
    assert not verdict.passed
    check = failing(verdict)
    assert check.difference.index == i
    assert f"event {i} is missing from the log" in check.detail
    assert statuses(verdict)["deck"] == "pass"


@pytest.mark.parametrize("name", SEEDED)
def test_reordered_events_are_reported_at_the_first_of_them(name: str) -> None:
    record = example(name)
    events = events_of(record)
    i = first(events, CardDrawn, first(events, CardsDealt) + 3)
    events[i], events[i + 1] = events[i + 1], events[i]
    verdict = verify_record(with_log(record, events))
    assert not verdict.passed
    check = failing(verdict)
    assert check.difference.index == i
    assert f"events {i} and {i + 1} are in the wrong order" in check.detail


@pytest.mark.parametrize("name", SEEDED)
def test_a_changed_score_is_caught_by_the_scores(name: str) -> None:
    record = example(name)
    events = events_of(record)
    i = first(events, DealScored)
    scored = events[i]
    team: TeamScore = scored.teams[0]
    teams = (replace(team, score=team.score + 2, total=team.total + 2), *scored.teams[1:])
    events[i] = replace(scored, teams=teams)
    verdict = verify_record(with_log(record, events))
    check = assert_fails_at(verdict, "scores")
    assert check.difference.index == i
    assert all(statuses(verdict)[n] == "pass" for n in ("deck", "reshuffles", "draws"))


@pytest.mark.parametrize("name", SEEDED)
def test_a_command_the_rules_reject_inserted_into_the_log_is_caught_by_the_commands(
    name: str,
) -> None:
    record = example(name)
    commands = list(record.deals[0].commands)
    at = next(k for k, step in enumerate(commands) if isinstance(step.command, Discard))
    # A second draw by the seat that has just drawn and not yet discarded: BK-TURN-2.
    drawer = commands[at].seat
    commands.insert(at, SeatCommand(seat=drawer, command=Draw()))
    verdict = verify_record(with_deal(record, commands=tuple(commands)))
    check = assert_fails_at(verdict, "commands")
    assert "is refused by the rules" in check.detail
    assert "[BK-DEAL-5]" in check.detail or "[BK-TURN-2]" in check.detail
    assert statuses(verdict)["deck"] == "pass"


def test_a_changed_reshuffle_is_caught_by_the_reshuffles_pf_fair_4() -> None:
    record = with_events(decode_record(json.dumps(reshuffled_deal())))
    assert verify_record(record).passed
    events = events_of(record)
    i = first(events, GroundReshuffled)
    shuffled = events[i]
    stock = list(shuffled.stock)
    stock[0], stock[-1] = stock[-1], stock[0]
    events[i] = replace(shuffled, stock=tuple(stock))
    verdict = verify_record(with_log(record, events))
    check = assert_fails_at(verdict, "reshuffles")
    assert check.difference.index == i
    assert statuses(verdict)["draws"] in ("pass", "unchecked")


def test_client_seeds_change_the_deal_and_are_taken_from_the_record_pf_amb_12() -> None:
    """The seats' seeds are part of the shuffle input: other seeds, another deck. The
    verifier re-derives with the seeds the record lists."""
    record = example("sahrat-secret-deal")
    seed = record.deals[0].seed
    assert seed is not None and seed.client_seeds == ("", "alpha", "", "b0b")
    dealt = events_of(record)[first(events_of(record), CardsDealt)]
    assert dealt.entropy == fair.entropy(["", "alpha", "", "b0b"])
    other = with_deal(record, seed=replace(seed, client_seeds=("", "alpha", "", "bob")))
    verdict = verify_record(other)
    check = assert_fails_at(verdict, "deck")
    assert '"seed":"bob"' in check.detail and '"seed":"b0b"' in check.detail
    secret = bytes.fromhex(seed.secret)
    assert fair.deal_deck(secret, fair.entropy(["", "alpha", "", "bob"])) != fair.deal_deck(
        secret, dealt.entropy
    )


def test_listed_client_seeds_that_are_not_the_sent_ones_are_caught() -> None:
    """A record from a table lists the seeds as the seats' commands; the list shown to a
    reader (seed.client_seeds) must be the same seeds."""
    record = example("classic-secret-deal")
    seed = record.deals[0].seed
    assert seed is not None and seed.client_seeds == ("x", "", "", "")
    # As the service records it: seat 1's seed is a command, then the seed window closes
    # (PF-AMB-12 h), then the host's cut.
    sent = SeatCommand(seat=1, command=SendClientSeed(seed="x"))
    close = SeatCommand(seat=0, command=CloseSeedWindow())
    explicit = with_deal(record, commands=(sent, close, *record.deals[0].commands))
    assert verify_record(explicit).passed
    verdict = verify_record(with_deal(explicit, seed=replace(seed, client_seeds=("y", "", "", ""))))
    check = assert_fails_at(verdict, "deck")
    assert "the seats sent others" in check.detail


def test_the_system_cut_is_drawn_from_the_secret_pf_cut_3_pf_amb_2() -> None:
    """PF-CUT-2/3: the host did not cut in 15 s, so the system cut (seat 0, no position)
    at 1 + uniform(105) of the `autocut` stream; the verifier re-derives it."""
    record = example("classic-secret-deal")
    seed = record.deals[0].seed
    assert seed is not None
    commands = list(record.deals[0].commands)
    assert isinstance(commands[0].command, Cut) and commands[0].seat == 1
    commands[0] = SeatCommand(seat=0, command=Cut())
    # The host's cut gave another starter: the rest of the random game no longer fits,
    # so keep only the opening and take its log from the engine.
    automatic = with_events(
        replace(record, deals=(replace(record.deals[0], commands=(commands[0],), events=None),))
    )
    events = events_of(automatic)
    cut = events[first(events, DeckCut)]
    entropy = fair.entropy(list(seed.client_seeds))
    assert cut.automatic and cut.position == fair.auto_cut(bytes.fromhex(seed.secret), entropy)
    # ...which needs the record's own client seeds: commands alone keep them ("x").
    assert verify_record(automatic).passed
    events[first(events, DeckCut)] = replace(cut, position=cut.position % 105 + 1)
    verdict = verify_record(with_log(automatic, events))
    assert_fails_at(verdict, "deck")


def test_the_host_cut_is_re_derived_pf_cut_5() -> None:
    record = example("classic-secret-deal")
    events = events_of(record)
    i = first(events, DeckCut)
    cut = events[i]
    assert not cut.automatic and cut.position == 31
    events[i] = replace(cut, starter=cut.starter % 4 + 1)
    check = assert_fails_at(verify_record(with_log(record, events)), "deck")
    assert check.difference.index == i


def test_the_fair_draw_of_the_first_dealer_is_re_derived_pf_fair_6() -> None:
    record = example("sahrat-secret-deal")
    events = events_of(record)
    i = first(events, CardsDealt)
    dealt = events[i]
    events[i] = replace(dealt, dealer=dealt.dealer % 4 + 1)
    check = assert_fails_at(verify_record(with_log(record, events)), "deck")
    assert check.difference.index == i


def test_a_tampered_later_deal_of_a_match_fails_there_and_stops_pf_fair_7() -> None:
    record = example("sahrat-1v1-secret-match")
    assert len(record.deals) >= 3
    events = events_of(record, 2)
    i = first(events, DealScored)
    scored = events[i]
    team = scored.teams[1]
    events[i] = replace(scored, teams=(scored.teams[0], replace(team, score=team.score + 1)))
    verdict = verify_record(with_log(record, events, deal=2))
    assert [d.passed for d in verdict.deals] == [True, True, False]  # later deals not run
    assert_fails_at(verdict, "scores", deal=2)


def test_a_record_without_a_log_is_replayed_and_its_commitment_shown_unchecked() -> None:
    record = decode_record((EXAMPLES / "sahrat-secret-deal.json").read_bytes())
    verdict = verify_record(record)
    assert verdict.passed
    commitment = next(c for c in verdict.deals[0].checks if c.name == "commitment")
    assert commitment.status == "unchecked"
    assert verdict.deals[0].commitment is not None
    assert verdict.deals[0].commitment in commitment.detail


def test_a_verdict_is_json_for_the_page_and_the_cli() -> None:
    record = example("classic-secret-deal")
    events = events_of(record)
    i = first(events, CardDrawn)
    events[i] = replace(events[i], card="JK#2" if events[i].card != "JK#2" else "JK#1")
    verdict = verify_record(with_log(record, events))
    data = json.loads(msgspec.json.encode(verdict))
    assert data["passed"] is False
    draws = next(c for c in data["deals"][0]["checks"] if c["name"] == "draws")
    assert draws["status"] == "fail" and draws["difference"]["index"] == i
    assert draws["difference"]["recorded"]["type"] == "CardDrawn"
    assert verdict.sentences()[-1] == "NOT verified"
