"""What the Verify page (PF-FAIR-5) shows for the dice tool's rolls (PF-DICE-1/2), in a
real headless Chromium, served by the real gateway over PostgreSQL and NATS, a phone
having rolled at a real dice table over its socket, some rolls with a client seed.

The page re-derives each roll in the browser (`static/fair.js`, `rederiveDice`): the
commitment (SHA-256 of the revealed secret), the phone's seed and E, and the three dice of
the roll's "dice" stream, shown roll by roll beside the server's verdict. A good record is
green with its dice; a die changed in the stored event, straight in PostgreSQL, is red at
its roll with what the record says, and the server's verdict fails the same roll.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import asyncpg
import pytest
from msgspec.structs import replace

from engine import fair
from engine.dice.messages import DiceThrown
from services.tables.codec import decode_event, encode_event
from tests.browser_support import Browser, Page, checked_tab, chromium
from tests.e2e.gateway_support import Client
from tests.e2e.rummy_support import Served, served_gateway
from tests.e2e.test_dice_tool import _ready
from tests.e2e.test_rummy_verify_page import _FITS, GREEN, RED, _open, _paste, _style, _text

_ROLLS = 4
_TAMPERED = 2  # the roll whose die is changed in the store
BROWSER_CHECKS = ["commitment", "seeds", "dice"]


@pytest.fixture(scope="module")
async def served(database_url: str, nats_url: str) -> AsyncIterator[Served]:
    with pytest.MonkeyPatch.context() as patch:
        # a real server's seed window (the tests' default 0 closes it before a seed can
        # come): the phone's seed is in before its roll, and the roll does not wait for it
        patch.setenv("SAHRA_SEED_WINDOW_SECONDS", "3")
        async with served_gateway(database_url, nats_url, "dice_page") as it:
            yield it


@pytest.fixture(scope="module")
async def browser(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Browser]:
    async with chromium(tmp_path_factory.mktemp("dice-verify-chromium")) as b:
        yield b


def _seed(n: int) -> str:
    return f"Salma's phone, roll {n}" if n % 2 else ""  # rolls 1 and 3 seeded, 2 and 4 not


async def _rolled_table(served: Served) -> str:
    """A dice table at which the phone rolled `_ROLLS` times; its id."""
    created = await served.http.post("/tables", json={"game": "dice", "player": "Salma"})
    assert created.status_code == 201, created.text
    table_id, token = created.json()["table_id"], created.json()["token"]
    phone = await Client.open(served.base, table_id, token)
    try:
        started = await served.http.post(
            f"/tables/{table_id}/start", headers={"Authorization": f"Bearer {token}"}
        )
        assert started.status_code == 200, started.text
        for n in range(1, _ROLLS + 1):
            await phone.wait_for_view(_ready(n))
            if _seed(n):
                reply = await phone.command({"type": "SendClientSeed", "seed": _seed(n)})
                assert reply["type"] == "accepted", reply
            reply = await phone.command({"type": "Roll"})
            assert reply["type"] == "accepted", reply
        await phone.wait_for_view(_ready(_ROLLS + 1))
    finally:
        await phone.close()
    return table_id


@pytest.fixture(scope="module")
async def rolled(served: Served) -> tuple[str, dict[str, Any]]:
    """A table of `_ROLLS` rolls: its last roll's deal id and the server's answer for it."""
    table_id = await _rolled_table(served)
    deal_id = f"{table_id}-{_ROLLS}"
    answer: dict[str, Any] = (await served.http.get(f"/verify/{deal_id}")).json()
    assert answer["verdict"]["passed"] is True and answer["record"]["game"] == "dice"
    return deal_id, answer


@pytest.fixture
async def page(browser: Browser, served: Served) -> AsyncIterator[Page]:
    async with checked_tab(browser, served.base) as tab:
        yield tab


def _thrown(roll: dict[str, Any]) -> list[int]:
    dice: list[int] = next(e for e in roll["events"] if e["type"] == "DiceThrown")["dice"]
    return dice


@pytest.mark.parametrize("lang", ["ar", "en"])
async def test_a_good_dice_record_shows_every_roll_green_with_the_dice_its_secret_gives(
    served: Served,
    rolled: tuple[str, dict[str, Any]],
    page: Page,
    lang: str,
    tmp_path: Path,
) -> None:
    """PF-DICE-1, PF-DICE-2, PF-FAIR-3, PF-FAIR-5, PF-AMB-12: the page names the last roll
    and keeps the earlier ones behind a link; each roll shows its commitment, its revealed
    secret and the phone's seed, the browser's checks (commitment, seeds and E, the dice)
    pass beside the server's verdict on the roll, and the three dice shown are the ones
    recorded, which are the ones the engine draws from the secret and seed."""
    deal_id, answer = rolled
    await _open(page, served, f"deal={deal_id}&lang={lang}")
    assert await page.evaluate("[document.documentElement.lang, document.documentElement.dir]") == (
        ["ar", "rtl"] if lang == "ar" else ["en", "ltr"]
    )
    shown = await _shown(page)
    assert shown["verdict"] == "pass" and shown["agree"] == "yes", shown
    assert await _style(page, "#summary") == GREEN
    assert shown["rolls"] == [{"roll": str(_ROLLS), "verdict": "pass"}]  # the named roll
    if lang == "en":
        assert shown["summary"].startswith("✓ Verified: every roll's three dice")
        assert "the three dice" in shown["scope"] and "checked by the server" in shown["scope"]
    else:
        assert "أحجار النرد الثلاثة" in shown["scope"] and "يفحصها الخادم" in shown["scope"]
    await page.evaluate("document.getElementById('earlier-link').click()")
    await page.screenshot(tmp_path / f"dice-good-{lang}.png")
    shown = await _shown(page)
    assert sorted(shown["rolls"], key=lambda r: int(r["roll"])) == [
        {"roll": str(n), "verdict": "pass"} for n in range(1, _ROLLS + 1)
    ]
    record = answer["record"]
    assert [r["number"] for r in record["rolls"]] == list(range(1, _ROLLS + 1))
    for roll in record["rolls"]:
        n = roll["number"]
        assert await _checks(page, "browser", n) == dict.fromkeys(BROWSER_CHECKS, "pass")
        assert await _checks(page, "server", n) == {"roll": "pass"}
        dice = _thrown(roll)
        expected = fair.dice(bytes.fromhex(roll["secret"]), fair.entropy([_seed(n)]), 3)
        assert dice == list(expected)
        assert await _dice(page, n) == {"dice": dice, "recorded": None, "marked": []}
        committed = next(e for e in roll["events"] if e["type"] == "SeedCommitted")
        at = f'article[data-roll="{n}"] '
        assert await _text(page, at + "[data-field=commitment]") == committed["commitment"]
        assert await _text(page, at + "[data-field=secret]") == roll["secret"]
        assert await _text(page, at + "[data-field=computed] .hex") == committed["commitment"]
        seed = await _text(page, at + "[data-field=seeds] li")
        assert (json.dumps(_seed(n)) in seed) if _seed(n) else ("Salma" in seed), seed
        # every hex value is laid out left to right, inside the Arabic page too
        dirs = await page.evaluate(
            f"[...document.querySelectorAll('{at}.hex')].map((h) => h.getAttribute('dir'))"
        )
        assert dirs and set(dirs) == {"ltr"}


async def test_a_die_changed_in_the_store_is_red_at_its_roll_and_the_server_fails_that_roll(
    served: Served, page: Page, tmp_path: Path
) -> None:
    """PF-DICE-2, PF-FAIR-5: one die of roll 2's DiceThrown is changed in PostgreSQL (the
    stored event sealed again, as a forger with the database would): the server's verdict
    fails roll 2 on its events and checks no further; the page shows roll 2 red, its dice
    check naming the roll, the dice the secret gives and the recorded ones, the changed die
    marked, while roll 1 stays green; the browser and the server agree."""
    table_id = await _rolled_table(served)
    real, changed = await _change_stored_die(served.url, table_id, _TAMPERED, index=1)
    deal_id = f"{table_id}-{_ROLLS}"
    answer = (await served.http.get(f"/verify/{deal_id}")).json()
    verdict, record = answer["verdict"], answer["record"]
    assert _thrown(record["rolls"][_TAMPERED - 1]) == changed  # the record read from the store
    assert [(r["number"], r["passed"], r["check"]) for r in verdict["rolls"]] == [
        (1, True, None),
        (2, False, "events"),
    ]
    assert f"of roll 2, dice {changed} (the secret gives {real})" in verdict["rolls"][1]["detail"]

    await _open(page, served, f"deal={deal_id}&lang=en")
    shown = await _shown(page)
    assert shown["verdict"] == "fail" and shown["agree"] == "yes", shown
    assert await _style(page, "#summary") == RED
    assert await page.evaluate("document.getElementById('earlier-link').className") == "fail"
    await page.evaluate("document.getElementById('earlier-link').click()")
    await page.screenshot(tmp_path / "dice-tampered.png")
    shown = await _shown(page)
    verdicts = {r["roll"]: r["verdict"] for r in shown["rolls"]}
    assert verdicts == {"1": "pass", "2": "fail", "3": "fail", "4": "fail"}
    assert await _checks(page, "browser", 1) == dict.fromkeys(BROWSER_CHECKS, "pass")
    assert await _checks(page, "browser", 2) == {
        "commitment": "pass",
        "seeds": "pass",
        "dice": "fail",
    }
    assert await _checks(page, "server", 2) == {"events": "fail"}
    for later in (3, 4):  # rolled from their own secrets, but past the server's failure
        assert await _checks(page, "browser", later) == dict.fromkeys(BROWSER_CHECKS, "pass")
        assert await _checks(page, "server", later) == {"roll": "unchecked"}
    sentence = await _text(page, 'article[data-roll="2"] li[data-kind=browser][data-check=dice]')
    sentence = sentence.replace("\u2068", "").replace("\u2069", "")
    dashed = "-".join(map(str, real)), "-".join(map(str, changed))
    assert f"Roll 2: the secret gives {dashed[0]}, the record says {dashed[1]}." in sentence
    assert await _dice(page, 2) == {"dice": real, "recorded": changed, "marked": [2, 2]}
    assert await _style(page, 'article[data-roll="2"] [data-field=dice]') == RED
    first = _thrown(record["rolls"][0])
    assert await _dice(page, 1) == {"dice": first, "recorded": None, "marked": []}

    # the Arabic page says the same, right to left
    await _open(page, served, f"deal={table_id}-{_TAMPERED}&lang=ar")
    shown = await _shown(page)
    assert shown["verdict"] == "fail" and shown["rolls"][0] == {"roll": "2", "verdict": "fail"}
    sentence = await _text(page, 'article[data-roll="2"] li[data-kind=browser][data-check=dice]')
    assert "الرمية" in sentence and dashed[0] in sentence and dashed[1] in sentence, sentence
    bdis = await page.evaluate(
        "[...document.querySelectorAll('article[data-roll=\"2\"] li[data-check=dice] bdi')]"
        ".map((b) => [b.getAttribute('dir'), b.textContent])"
    )
    assert ["ltr", dashed[0]] in bdis and ["ltr", dashed[1]] in bdis


@pytest.mark.parametrize("lang", ["ar", "en"])
async def test_a_dice_record_fits_a_phone_screen(
    served: Served,
    rolled: tuple[str, dict[str, Any]],
    browser: Browser,
    lang: str,
    tmp_path: Path,
) -> None:
    """PF-FAIR-5: at 390 px, every roll shown (the earlier ones opened), no sideways
    scrolling, nothing outside the screen; a record with a changed die too."""
    deal_id, answer = rolled
    record = json.loads(json.dumps(answer["record"]))
    thrown = next(e for e in record["rolls"][0]["events"] if e["type"] == "DiceThrown")
    thrown["dice"][0] = thrown["dice"][0] % 6 + 1
    tab = await browser.new_page(390, 844)
    try:
        for shown in ("by-id", "pasted"):
            if shown == "by-id":
                await _open(tab, served, f"deal={deal_id}&lang={lang}")
                await tab.evaluate("document.getElementById('earlier-link').click()")
            else:
                await _paste(tab, served, record, lang)  # every roll shown, roll 1 red
            await tab.screenshot(tmp_path / f"dice-{lang}-390-{shown}.png")
            assert await tab.evaluate("document.querySelectorAll('article').length") == _ROLLS
            fits: dict[str, Any] = await tab.evaluate(_FITS)
            assert fits["width"] == 390
            assert fits["outside"] == []
            assert fits["scroll"] <= fits["width"]
        assert await tab.evaluate("document.querySelectorAll('.die.differs').length") == 2
        assert tab.unexpected_errors() == []
    finally:
        await tab.close()


# --- helpers --------------------------------------------------------------------------------


async def _change_stored_die(
    url: str, table_id: str, roll: int, *, index: int
) -> tuple[list[int], list[int]]:
    """Change die `index` of roll `roll`'s stored DiceThrown, sealed again for the table:
    the dice before and after."""
    conn = await asyncpg.connect(url)
    try:
        rows = await conn.fetch(
            "SELECT version, data::text FROM events WHERE stream_id = $1 AND type = $2 "
            "ORDER BY version",
            table_id,
            "DiceThrown",
        )
        found = [
            (version, event)
            for version, data in rows
            if isinstance(event := decode_event(data.encode(), table_id, game="dice"), DiceThrown)
            and event.roll == roll
        ]
        assert len(found) == 1, (table_id, roll, found)
        version, event = found[0]
        dice = list(event.dice)
        dice[index] = dice[index] % 6 + 1
        changed = replace(event, dice=(dice[0], dice[1], dice[2]))
        await conn.execute(
            "UPDATE events SET data = $3::jsonb WHERE stream_id = $1 AND version = $2",
            table_id,
            version,
            encode_event(changed, table_id).data.decode(),
        )
    finally:
        await conn.close()
    return list(event.dice), dice


async def _shown(page: Page) -> dict[str, Any]:
    shown: dict[str, Any] = await page.evaluate(
        "({verdict: document.getElementById('summary').dataset.verdict,"
        " summary: document.getElementById('summary').textContent,"
        " agree: document.getElementById('agreement').dataset.agree,"
        " scope: (document.getElementById('scope') || {}).textContent,"
        " rolls: [...document.querySelectorAll('article')].filter((a) => a.checkVisibility())"
        "  .map((a) => ({roll: a.dataset.roll, verdict: a.dataset.verdict}))})"
    )
    return shown


async def _checks(page: Page, kind: str, roll: int) -> dict[str, str]:
    found: dict[str, str] = await page.evaluate(
        f"Object.fromEntries([...document.querySelectorAll("
        f'\'article[data-roll="{roll}"] li.check[data-kind="{kind}"]\')]'
        ".map((li) => [li.dataset.check, li.dataset.status]))"
    )
    return found


def _article(roll: int) -> str:
    return f'article[data-roll="{roll}"]'


_DICE_JS = """(at) => {
  const row = (field) => {
    const line = document.querySelector(at + " [data-field=" + field + "]");
    return line ? [...line.querySelectorAll(".die")].map((d) => Number(d.textContent)) : null;
  };
  const marked = [...document.querySelectorAll(at + " .die.differs")];
  const places = marked.map((d) => Number(d.dataset.die));
  return {dice: row("dice"), recorded: row("recorded"), marked: places};
}"""


async def _dice(page: Page, roll: int) -> dict[str, Any]:
    """Roll `roll`'s dice as the page shows them: the ones the secret gives, the recorded
    ones (shown only when they differ), and the place (1-3) of every die marked."""
    shown: dict[str, Any] = await page.evaluate(f"({_DICE_JS})({json.dumps(_article(roll))})")
    return shown
