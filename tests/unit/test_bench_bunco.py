"""`sahra bench bunco` at tiny sizes: it runs, and its JSON line carries the figures.

The engine part is pure and runs here in-process; the gateway part serves one short
evening (4 players, one set of 6 rounds) over the session's embedded PostgreSQL and NATS
(tests/conftest.py), so it is the slower of the two (a gateway child process is started).
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from services.cli.main import main


def _report(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, Any]:
    assert main(["bench", "bunco", *argv]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    report: dict[str, Any] = json.loads(lines[-1])
    return report


def test_the_engine_part_plays_whole_evenings_and_verifies_their_records(
    capsys: pytest.CaptureFixture[str],
) -> None:
    report = _report(
        capsys, "--parts", "engine", "--evenings", "2", "--players", "4", "--sets", "1"
    )
    assert "gateway" not in report
    engine = report["engine"]
    assert (engine["evenings"], engine["rounds_per_evening"]) == (2, 6)
    # BU-END-1: a round ends when the head table reaches 21, one roll at the least
    assert engine["rolls"] >= 2 * 6
    assert engine["rolls_per_evening"] == engine["rolls"] / 2
    play, audit = engine["random_play"], engine["verify"]
    assert play["evenings_per_s"] > 0 and play["cpu_evenings_per_s"] > 0
    assert play["rolls_per_s"] == pytest.approx(play["evenings_per_s"] * engine["rolls"] / 2, 0.01)
    # the records of random play are the platform's (PF-FAIR-1..3): every one verifies
    assert (audit["records_passed"], audit["records"]) == (2, 2)
    assert audit["rolls_per_s"] > 0 and audit["record_kib"] > 0
    assert engine["goal_evenings_per_s"] == 200
    assert engine["goal_met"] == (play["evenings_per_s"] >= 200)


def test_the_same_seed_plays_the_same_evenings(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ("--parts", "engine", "--evenings", "1", "--players", "7", "--sets", "1", "--json")
    first = _report(capsys, *argv, "--seed", "5")
    again = _report(capsys, *argv, "--seed", "5")
    assert first["engine"]["rolls"] == again["engine"]["rolls"]
    assert first["engine"]["verify"]["records_passed"] == 1


def test_the_gateway_part_serves_a_whole_evening_and_times_every_roll(
    capsys: pytest.CaptureFixture[str], database_url: str, nats_url: str
) -> None:
    report = _report(
        capsys,
        *("--parts", "gateway", "--players", "4", "--sets", "1"),
        *("--database-url", database_url, "--nats-url", nats_url, "--evening-timeout", "120"),
    )
    served = report["gateway"]
    assert served["finished"] and served["rounds"] == 6
    assert served["sockets"] == 4
    assert served["rolls"] >= 6 * 2
    # every roll sent got a reply, accepted or refused, and each reply was timed
    refused = sum(served["refusals"].values())
    assert served["latency_ms"]["n"] == served["rolls"] + refused
    lat = served["latency_ms"]
    assert 0 < lat["p50"] <= lat["p99"] <= lat["max"]
    assert served["rolls_per_s"] > 0
    assert served["retries"] == 0  # one gateway, its table's writes serialised: no lost race
    assert served["exceptions"] == {} and served["lost_replies"] == 0
    assert served["gateway_log_errors"] == 0
    assert served["shortened"] == {"seed_window_s": 0.0, "reveal_s": 0.0}
    assert "fsync=" in served["server_settings"]  # what a roll's commit waits for
    assert served["goal_met"] == (lat["p99"] < 50)
