"""`sahra verify` on a store opens the deal's hidden cards with the seed key that sealed
them: SAHRA_SEED_KEY, else the data dir's seed.key (as `sahra up` keeps it); without it,
it says which key it needs; a record file needs no key (PF-FAIR-5, docs/fairness.md)."""

from __future__ import annotations

import asyncio
import json
import os
import random
import subprocess
import sys
from pathlib import Path

from engine import banakil
from engine.banakil.autoplay import random_step
from services.bus.nats import NatsBus
from services.store.postgres import PostgresEventStore
from services.tables import sealing
from services.tables.seeds import SeedTiming
from services.tables.service import TableService
from tests.service_support import scratch_database


def _verify(*args: str, key: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("SAHRA_")}
    if key is not None:
        env[sealing.KEY_ENV] = key
    return subprocess.run(
        [sys.executable, "-m", "services.cli.verify", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


async def _played_deal(url: str, nats_url: str) -> str:
    """Deal 1 of a sahrat table played to its end through the service: its deal id."""
    store = await PostgresEventStore.connect(url)
    bus = await NatsBus.connect(nats_url)
    service = TableService(store, bus, timing=SeedTiming(seed_window=0, reveal_seconds=0))
    try:
        created = await service.create_table(
            banakil.options_from("sahrat"), ("human", "bot", "bot", "bot")
        )
        table_id = created.state.table_id
        await service.take_seat(table_id, 1, "Amal")
        await service.start(table_id, 1)
        rng = random.Random(5)
        for step in range(3_000):
            game = (await service.load(table_id)).state.game_state
            assert game is not None
            if game.deal > 1:
                return f"{table_id}-1"
            seat, command, _ = random_step(game, rng)
            assert (await service.handle(table_id, seat, command, f"s{step}")).accepted
        raise AssertionError("the deal did not end")  # pragma: no cover
    finally:
        await service.deadlines.close()
        await service.close()
        await bus.close()
        await store.close()


async def test_sahra_verify_opens_a_stored_deal_with_the_key_of_its_data_dir(
    database_url: str, nats_url: str, tmp_path: Path
) -> None:
    key = os.environ[sealing.KEY_ENV]  # what this test process sealed with (conftest)
    assert sealing.current().fingerprint == sealing.fingerprint(sealing.parse_key(key))
    data = tmp_path / "data"
    data.mkdir()
    async with scratch_database(database_url, "verify_key") as url:
        deal = await _played_deal(url, nats_url)
        # The key file of `sahra up`'s data dir, with no SAHRA_SEED_KEY: opened, verified.
        (data / sealing.KEY_FILE).write_text(key + "\n")
        kept = await asyncio.to_thread(
            _verify, deal, "--json", "--database-url", url, "--data-dir", str(data)
        )
        assert kept.returncode == 0, kept.stderr
        answer = json.loads(kept.stdout)
        hands = answer["record"]["deals"][0]["events"][1]["hands"]
        assert len(hands) == 4 and "??" not in json.dumps(hands)  # opened, as dealt
        record = tmp_path / "record.json"
        record.write_text(json.dumps(answer["record"]))
        # From the environment, as in deploy/: the same.
        env_key = await asyncio.to_thread(_verify, deal, "--database-url", url, key=key)
        assert env_key.returncode == 0, env_key.stderr
        # No key at all: one sentence that says which key the deal needs; status 2.
        (data / sealing.KEY_FILE).unlink()
        keyless = await asyncio.to_thread(
            _verify, deal, "--database-url", url, "--data-dir", str(data)
        )
        assert keyless.returncode == 2
        assert "SAHRA_SEED_KEY must be the key it was sealed with" in keyless.stderr
        assert sealing.current().fingerprint in keyless.stderr
        assert not (data / sealing.KEY_FILE).exists()  # never made by a reader
    # A record file is checked offline, with no key and no database.
    offline = await asyncio.to_thread(_verify, "--file", str(record))
    assert offline.returncode == 0, offline.stderr
