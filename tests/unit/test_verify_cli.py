"""`sahra verify --file` (offline), its arguments and exit status, and the offline bench.
The store modes are tested against PostgreSQL in tests/integration/test_verifier_service.py.
"""

from __future__ import annotations

import io
import json
import random
from datetime import UTC, datetime
from pathlib import Path

import msgspec
import pytest
from msgspec.structs import replace

from engine.banakil.messages import CardDrawn, CardsDealt
from engine.verify import verify_record
from services.bench.verify import GOAL, bench_offline, random_record, store_deals
from services.cli import verify as cli
from services.store.memory import MemoryEventStore
from services.store.port import Checkpoint
from services.verifier.audit import audit
from tests.unit.test_verify_tamper import events_of, example, first, with_log


def _write(path: Path, record: object) -> Path:
    path.write_bytes(msgspec.json.encode(record))
    return path


def test_a_genuine_record_file_is_verified(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _write(tmp_path / "deal.json", example("classic-secret-deal"))
    assert cli.main(["--file", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == f"record {path}: verified"
    assert any(line.strip().startswith("ok   commitment:") for line in out)


def test_a_tampered_record_file_is_not_verified_and_says_where(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = example("sahrat-secret-deal")
    events = events_of(record)
    i = first(events, CardDrawn)
    events[i] = replace(events[i], card="JK#2" if events[i].card != "JK#2" else "JK#1")
    path = _write(tmp_path / "deal.json", with_log(record, events))
    assert cli.main(["--file", str(path)]) == 1
    out = capsys.readouterr().out
    assert out.splitlines()[0].endswith(": NOT verified")
    assert f"FAIL draws: event {i} differs: CardDrawn card: the log has " in out
    assert max(len(line) for line in out.splitlines()) <= 210
    assert cli.main(["--file", str(path), "--json"]) == 1
    answer = json.loads(capsys.readouterr().out)
    assert answer["deal_id"] is None and answer["verdict"]["passed"] is False
    assert answer["record"] == json.loads(path.read_bytes())


def test_a_tampered_hand_is_named_by_its_place_not_printed_whole(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = example("sahrat-secret-deal")
    events = events_of(record)
    i = first(events, CardsDealt)
    hands = [list(h) for h in events[i].hands]
    hands[1][4], hands[2][0] = hands[2][0], hands[1][4]  # two cards change hands
    events[i] = replace(events[i], hands=tuple(tuple(h) for h in hands))
    path = _write(tmp_path / "deal.json", with_log(record, events))
    assert cli.main(["--file", str(path)]) == 1
    out = capsys.readouterr().out
    # One short line says where (the first place that differs): the whole hands, 4 KB of
    # JSON, are left to --json.
    assert f"FAIL deck: event {i} differs: CardsDealt hands[1][4]: the log has " in out
    assert max(len(line) for line in out.splitlines()) <= 210


@pytest.mark.parametrize(
    ("args", "words"),
    [
        ([], "name one deal id"),
        (["abc-1", "--all"], "name one deal id"),
        (["--file", "x.json", "--since", "5"], "--since goes with --all"),
        (["--all", "--since", "yesterday", "--database-url", "postgresql://x"], "ISO 8601"),
        (["not a deal", "--database-url", "postgresql://x"], "a deal id is"),
        (["abc-1"], "needs --database-url"),
        (["--file", "/nonexistent/deal.json"], "cannot read"),
    ],
)
def test_bad_input_is_one_sentence_and_status_2(
    args: list[str], words: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("SAHRA_DATABASE_URL", raising=False)
    monkeypatch.setenv("SAHRA_DATA_DIR", "/nonexistent/sahra-data")  # no `sahra up` data
    assert cli.main(args) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("sahra verify: ") and words in err[0]


@pytest.mark.parametrize(
    "content", [b"{not json", b'{"game": "banakil", "seats": [], "deals": [], "typo": 1}']
)
def test_a_file_that_is_not_a_record_is_status_2(
    tmp_path: Path, content: bytes, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    assert cli.main(["--file", str(path)]) == 2
    assert "sahra verify: " in capsys.readouterr().err


def test_since_is_a_position_or_an_iso_time() -> None:
    assert cli.parse_since("1234") == 1234
    assert cli.parse_since("2026-11-29T18:00:00Z") == datetime(2026, 11, 29, 18, tzinfo=UTC)
    assert cli.parse_since("2026-11-29T18:00") == datetime(2026, 11, 29, 18, tzinfo=UTC)
    with pytest.raises(ValueError, match="ISO 8601"):
        cli.parse_since("soon")


def test_the_progress_bar_redraws_on_a_terminal_and_writes_lines_elsewhere() -> None:
    lines = io.StringIO()
    bar = cli.ProgressBar(lines)
    for done in range(0, 101, 5):
        bar.update(done, 100)
    bar.close()
    assert lines.getvalue().splitlines()[-1] == "verified 100/100 deals"
    assert len(lines.getvalue().splitlines()) == 11  # one per tenth

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    screen = Terminal()
    bar = cli.ProgressBar(screen, width=10)
    bar.update(0, 4)
    bar.update(4, 4)
    bar.close()
    assert screen.getvalue().endswith("\r[##########] 4/4 deals\n")


def test_random_records_verify_and_the_offline_bench_reports_rates() -> None:
    record = random_record("classic", random.Random(3))
    assert verify_record(record).passed
    figures = bench_offline(2, seed=4)
    assert [f["ruleset"] for f in figures] == ["classic", "sahrat", "both"]
    assert all(f["deals_per_s"] > 0 and f["cpu_deals_per_s"] > 0 for f in figures)
    assert figures[-1]["deals"] == 4
    assert GOAL == 500


async def test_the_audit_reads_any_store_through_the_port() -> None:
    """The in-memory store answers the audit's query (read_types) through the port too."""
    store = MemoryEventStore()
    stored = await store_deals(store, 3, seed=5)
    summary = await audit(store)
    assert (summary.deals, summary.verified, summary.passed) == (stored, stored, True)
    rows, _ = await store.read_all(Checkpoint(), 100_000)
    scored = [r for r in rows if r.type == "DealScored"]
    later = await audit(store, since=scored[0].position)
    assert later.deals == stored - 1
    assert (await audit(store, since=scored[-1].recorded_at)).deals >= 1
