"""What the Verify page (PF-FAIR-5) shows for a Bunco round, in a real headless Chromium,
served by the real gateway over a store holding a Bunco evening played to its end.

The page re-derives each round in the browser (`static/fair.js`, `rederiveBunco`): the
commitment (SHA-256 of the revealed secret), the seats' seeds and E, round 1's seating
drawn from the secret and every roll's three dice in log order, compared with the round's
events; the scores, the bell and the movement are the server's verdict, shown beside it,
and the page says so. A good round is green; a changed die is red, and the browser's check
names its table and roll.
"""

from __future__ import annotations

import copy
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser_support import Browser, Page, checked_tab, chromium
from tests.e2e.bunco_support import Rolled, roll_until
from tests.e2e.gateway_support import Client
from tests.e2e.rummy_support import Served, bots_running, served_gateway
from tests.e2e.test_rummy_verify_page import (
    GREEN,
    RED,
    _checks,
    _open,
    _paste,
    _shown,
    _style,
    _text,
)

BROWSER_CHECKS = ["commitment", "seeds", "seating", "dice"]


@pytest.fixture(scope="module")
async def served(database_url: str, nats_url: str) -> AsyncIterator[Served]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("SAHRA_SEED_WINDOW_SECONDS", "0")
        patch.setenv("SAHRA_REVEAL_SECONDS", "0")
        async with served_gateway(database_url, nats_url, "bunco_page") as it:
            yield it


@pytest.fixture(scope="module")
async def browser(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Browser]:
    async with chromium(tmp_path_factory.mktemp("bunco-verify-chromium")) as b:
        yield b


@pytest.fixture(scope="module")
async def finished(served: Served) -> tuple[str, dict[str, Any]]:
    """An 8-player evening of one set against the computer, played to its end: round 1's
    deal id and the server's answer for it."""
    made = await served.http.post(
        "/play-vs-computer",
        json={"game": "bunco", "options": {"players": 8, "sets": 1}, "player": "Ali"},
    )
    assert made.status_code == 201, made.text
    table_id, token = made.json()["table_id"], made.json()["token"]
    client = await Client.open(served.base, table_id, token)
    try:
        async with bots_running(served, {table_id}):
            await roll_until(client, Rolled(1))
    finally:
        await client.close()
    deal_id = f"{table_id}-1"
    answer: dict[str, Any] = (await served.http.get(f"/verify/{deal_id}")).json()
    assert answer["verdict"]["passed"] is True and answer["record"]["game"] == "bunco"
    return deal_id, answer


@pytest.fixture
async def page(browser: Browser, served: Served) -> AsyncIterator[Page]:
    async with checked_tab(browser, served.base) as tab:
        yield tab


def _event(round_: dict[str, Any], kind: str) -> dict[str, Any]:
    found: dict[str, Any] = next(e for e in round_["events"] if e["type"] == kind)
    return found


def _rolls(round_: dict[str, Any]) -> list[dict[str, Any]]:
    return [e for e in round_["events"] if e["type"] in ("DiceRolled", "RollOffRolled")]


@pytest.mark.parametrize("lang", ["en", "ar"])
async def test_a_good_bunco_round_is_re_derived_in_the_browser_and_shows_green(
    served: Served,
    finished: tuple[str, dict[str, Any]],
    page: Page,
    lang: str,
    tmp_path: Path,
) -> None:
    """PF-FAIR-3, PF-FAIR-5, PF-FAIR-6, PF-DICE-2, BU-SET-7: the page shows round 1's
    commitment, secret and seeds, the seating drawn from the secret and every roll's dice,
    all derived by the browser and equal to the record; the server's verdict passes beside
    it; the page says that the scores, the bell and the movement are the server's check."""
    deal_id, answer = finished
    await _open(page, served, f"deal={deal_id}&lang={lang}")
    await page.screenshot(tmp_path / f"bunco-good-{lang}.png")
    shown = await _shown(page)
    assert shown["verdict"] == "pass" and shown["agree"] == "yes", shown
    assert await _style(page, "#summary") == GREEN
    assert shown["rounds"] == [{"round": "1", "verdict": "pass"}]
    assert await _checks(page, "browser") == dict.fromkeys(BROWSER_CHECKS, "pass")
    assert await _checks(page, "server") == {"round": "pass"}
    if lang == "en":
        assert "every roll's dice" in shown["scope"] and "checked by the server" in shown["scope"]
    else:
        assert "كل رمية نرد" in shown["scope"] and "يفحصها الخادم" in shown["scope"]
    round_ = answer["record"]["rounds"][0]
    committed = _event(round_, "SeedCommitted")["commitment"]
    assert await _text(page, "[data-field=commitment]") == committed
    assert await _text(page, "[data-field=secret]") == round_["secret"]
    seating = await page.evaluate(
        "[...document.querySelectorAll('[data-field=seating] li')].map((l) => l.textContent)"
    )
    tables = _event(round_, "RoundStarted")["tables"]
    assert len(seating) == len(tables) == 2
    assert all(s.endswith(", ".join(map(str, t))) for s, t in zip(seating, tables, strict=True))
    dice = await page.evaluate(
        "[...document.querySelectorAll('[data-field=dice] li')].map((l) =>"
        " [Number(l.dataset.table), Number(l.dataset.roll), l.querySelector('bdi').textContent])"
    )
    rolls = _rolls(round_)
    assert dice == [[e["table"], e["roll"], " ".join(map(str, e["dice"]))] for e in rolls]
    assert rolls


async def test_a_changed_die_shows_red_and_names_its_table_and_roll(
    served: Served, finished: tuple[str, dict[str, Any]], page: Page, tmp_path: Path
) -> None:
    """PF-FAIR-5, PF-DICE-2: a record whose low-table roll 2 shows another die is pasted:
    the browser's dice check fails naming table 2, roll 2 and both dice, the roll is
    marked, and the server fails the same round on its events; they agree."""
    _, answer = finished
    changed = copy.deepcopy(answer["record"])
    target = next(e for e in _rolls(changed["rounds"][0]) if e["table"] == 2 and e["roll"] == 2)
    real = list(target["dice"])
    target["dice"][2] = real[2] % 6 + 1
    await _paste(page, served, changed, "en")
    await page.screenshot(tmp_path / "bunco-tampered.png")
    shown = await _shown(page)
    assert shown["verdict"] == "fail" and shown["agree"] == "yes", shown
    assert await _style(page, "#summary") == RED
    assert await _checks(page, "browser") == {
        "commitment": "pass",
        "seeds": "pass",
        "seating": "pass",
        "dice": "fail",
    }
    assert await _checks(page, "server") == {"events": "fail"}
    sentence = await _text(page, "li[data-kind=browser][data-check=dice] .sentence")
    sentence = sentence.replace("\u2068", "").replace("\u2069", "")
    expected, recorded = "-".join(map(str, real)), "-".join(map(str, target["dice"]))
    assert sentence == (
        f"Table 2, roll 2: the secret gives {expected}, the record says {recorded}."
    ), sentence
    marked = await page.evaluate(
        "[...document.querySelectorAll('[data-field=dice] li.differs')].map((l) =>"
        " [l.dataset.table, l.dataset.roll])"
    )
    assert marked == [["2", "2"]]
