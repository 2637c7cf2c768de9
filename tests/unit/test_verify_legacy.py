"""Deals stored before the seed window had its own event (PF-AMB-12 h) still verify.

In `classic` the host's cut used to close the client seed window at once; the log of such
a deal has a DeckCut and no SeedWindowClosed, and its record lists no CloseSeedWindow.
Those deals, stored before the upgrade, must still be audited as played, card for card.
"""

from __future__ import annotations

from msgspec.structs import replace

from engine.banakil.messages import CardDrawn, CloseSeedWindow, DeckCut, SeedWindowClosed
from engine.replay import Record
from engine.verify import verify_record
from tests.unit.test_verify_tamper import events_of, example, first, with_deal, with_log


def _as_stored_before_the_window() -> Record:
    record = example("classic-secret-deal")
    events = [e for e in events_of(record) if not isinstance(e, SeedWindowClosed)]
    assert any(isinstance(e, DeckCut) for e in events)
    commands = tuple(
        s for s in record.deals[0].commands if not isinstance(s.command, CloseSeedWindow)
    )
    return with_deal(with_log(record, events), commands=commands)


def test_a_classic_deal_logged_before_the_seed_window_event_verifies_pf_amb_12() -> None:
    verdict = verify_record(_as_stored_before_the_window())
    assert verdict.passed, "\n".join(verdict.sentences())


def test_a_card_changed_in_such_a_deal_is_still_found() -> None:
    record = _as_stored_before_the_window()
    events = events_of(record)
    i = first(events, CardDrawn)
    events[i] = replace(events[i], card="JK#2" if events[i].card != "JK#2" else "JK#1")
    verdict = verify_record(with_log(record, events))
    assert not verdict.passed
    [failed] = [c for c in verdict.deals[0].checks if c.status == "fail"]
    assert failed.name == "draws" and f"event {i} differs" in failed.detail


def test_today_s_classic_log_closes_the_window_before_the_cut_and_verifies() -> None:
    record = example("classic-secret-deal")
    events = events_of(record)
    assert first(events, SeedWindowClosed) < first(events, DeckCut)
    assert verify_record(record).passed
