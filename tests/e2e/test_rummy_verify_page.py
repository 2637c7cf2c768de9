"""What the Verify page (PF-FAIR-5) shows for a rummy round, in a real headless Chromium,
served by the real gateway over a store holding a rummy game played to its end.

The page was written for Banakil's records: its own re-derivation in the browser
(`static/fair.js`) reads a record's `deals`, and a rummy record has `rounds`. So the page
does not re-derive a rummy round: it says that the browser could not rebuild the deal
(with fair.js's reason), marks the whole "not verified", and lists no round; it throws no
error and fetches nothing from elsewhere. The server's verdict for the same round passes
(`GET /verify/{id}`). This test holds the page to that, so that a change of it shows; it
is not a statement that this is what the page should show for rummy.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser_support import Browser, Page, chromium
from tests.e2e.gateway_support import Client
from tests.e2e.rummy_support import (
    Played,
    Served,
    bots_running,
    play_seat,
    secret,
    served_gateway,
)


@pytest.fixture(scope="module")
async def served(database_url: str, nats_url: str) -> AsyncIterator[Served]:
    async with served_gateway(database_url, nats_url, "rummy_page") as it:
        yield it


@pytest.fixture(scope="module")
async def browser(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Browser]:
    async with chromium(tmp_path_factory.mktemp("rummy-verify-chromium")) as b:
        yield b


async def _finished_round(served: Served) -> str:
    """A Guadeloupe game (one round) played to its end: its deal id."""
    served.fix_secrets(secret("guadeloupe"))
    made = await served.http.post(
        "/play-vs-computer",
        json={"game": "rummy", "variant": "guadeloupe", "options": {"seats": 2}, "player": "Ali"},
    )
    assert made.status_code == 201, made.text
    table_id, token = made.json()["table_id"], made.json()["token"]
    client = await Client.open(served.base, table_id, token)
    try:
        async with bots_running(served, {table_id}):
            await play_seat(client, Played(table_id=table_id, variant="guadeloupe"))
    finally:
        await client.close()
    return f"{table_id}-1"


async def test_the_verify_page_says_it_cannot_rebuild_a_rummy_round_and_does_not_break(
    served: Served, browser: Browser, tmp_path: Path
) -> None:
    """PF-FAIR-5: the server verifies the round; the page shows its browser-side refusal
    in English and in Arabic, without an error of its own."""
    deal_id = await _finished_round(served)
    server = (await served.http.get(f"/verify/{deal_id}")).json()
    assert server["verdict"]["passed"] is True and server["record"]["game"] == "rummy"
    for lang in ("en", "ar"):
        page = await browser.new_page()
        try:
            await page.goto(f"{served.base}/verify?lang={lang}")
            await page.wait_for("document.body.dataset.ready === 'yes'")
            await page.evaluate(
                f"document.getElementById('deal-id').value = {json.dumps(deal_id)};"
                "document.getElementById('verify-id').click()"
            )
            state = await page.wait_for(
                "['done', 'error'].includes(document.body.dataset.state)"
                " && document.body.dataset.state"
            )
            await page.screenshot(tmp_path / f"rummy-{lang}.png")
            shown = await _shown(page)
            assert state == "done", shown
            assert shown["verdict"] == "fail" and shown["agree"] == "browser-error", shown
            assert shown["rounds"] == 0
            if lang == "en":
                assert 'not a deal record: it has no "deals" list' in shown["agreement"]
            assert page.unexpected_errors() == []
            outside = [u for u in page.requests if not u.startswith(served.base + "/")]
            assert [u for u in outside if u != "about:blank"] == []
        finally:
            await page.close()


async def _shown(page: Page) -> dict[str, Any]:
    shown: dict[str, Any] = await page.evaluate(
        "({verdict: document.getElementById('summary').dataset.verdict,"
        " agree: document.getElementById('agreement').dataset.agree,"
        " agreement: document.getElementById('agreement').textContent,"
        " rounds: document.querySelectorAll('article').length})"
    )
    return shown
