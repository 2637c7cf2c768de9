"""What the Verify page (PF-FAIR-5) shows for a rummy round, in a real headless Chromium,
served by the real gateway over a store holding a rummy game played to its end.

The page re-derives each round's deal in the browser (`static/fair.js`, `rederiveRummy`):
the commitment (SHA-256 of the revealed secret), the seats' seeds and E, the first player
and every dealt hand, Tahiti's singletons and the stock, compared with the round's
RoundDealt; the play of the round (every move's legality) is the server's verdict, shown
beside it, and the page says so. A good round is green; a dealt card changed is red, and
the browser's check names the seat whose hand differs.
"""

from __future__ import annotations

import copy
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser_support import Browser, Page, checked_tab, chromium
from tests.e2e.gateway_support import Client
from tests.e2e.rummy_support import (
    Played,
    Served,
    bots_running,
    play_seat,
    secret,
    served_gateway,
)
from tests.unit.test_rummy_deal_js import played_record

GREEN = "rgb(227, 244, 233)"  # --pass-bg
RED = "rgb(253, 232, 230)"  # --fail-bg
BROWSER_CHECKS = ["commitment", "seeds", "first", "deal"]


@pytest.fixture(scope="module")
async def served(database_url: str, nats_url: str) -> AsyncIterator[Served]:
    async with served_gateway(database_url, nats_url, "rummy_page") as it:
        yield it


@pytest.fixture(scope="module")
async def browser(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Browser]:
    async with chromium(tmp_path_factory.mktemp("rummy-verify-chromium")) as b:
        yield b


@pytest.fixture(scope="module")
async def finished(served: Served) -> tuple[str, dict[str, Any]]:
    """A Guadeloupe game (one round) played to its end: its deal id and the server's answer."""
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
    deal_id = f"{table_id}-1"
    answer: dict[str, Any] = (await served.http.get(f"/verify/{deal_id}")).json()
    assert answer["verdict"]["passed"] is True and answer["record"]["game"] == "rummy"
    return deal_id, answer


@pytest.fixture
async def page(browser: Browser, served: Served) -> AsyncIterator[Page]:
    async with checked_tab(browser, served.base) as tab:
        yield tab


@pytest.mark.parametrize("lang", ["en", "ar"])
async def test_a_good_rummy_round_is_re_derived_in_the_browser_and_shows_green(
    served: Served,
    finished: tuple[str, dict[str, Any]],
    page: Page,
    lang: str,
    tmp_path: Path,
) -> None:
    """PF-FAIR-3, PF-FAIR-5, PF-FAIR-6, RM-AMB-4, RM-CORE-7: the page shows the round's
    commitment, secret, seeds, first player, each seat's dealt hand and the stock's count,
    all derived by the browser and equal to the record; the server's verdict passes beside
    it; the page says that the play is the server's check."""
    deal_id, answer = finished
    await _open(page, served, f"deal={deal_id}&lang={lang}")
    await page.screenshot(tmp_path / f"rummy-good-{lang}.png")
    shown = await _shown(page)
    assert shown["verdict"] == "pass" and shown["agree"] == "yes", shown
    assert await _style(page, "#summary") == GREEN
    assert shown["rounds"] == [{"round": "1", "verdict": "pass"}]
    assert await _checks(page, "browser") == dict.fromkeys(BROWSER_CHECKS, "pass")
    assert await _checks(page, "server") == {"round": "pass"}
    if lang == "en":
        assert "re-derives each round's deal" in shown["scope"]
        assert "checked by the server" in shown["scope"]
    else:
        assert "يعيد متصفحك بناء توزيع كل جولة" in shown["scope"]
        assert "يفحصه الخادم" in shown["scope"]

    round_ = answer["record"]["rounds"][0]
    dealt = _event(round_, "RoundDealt")
    assert (
        await _text(page, "[data-field=commitment]")
        == _event(round_, "SeedCommitted")["commitment"]
    )
    assert await _text(page, "[data-field=secret]") == round_["secret"]
    assert await page.evaluate("document.querySelectorAll('[data-field=seeds] li').length") == 2
    first = await _text(page, "[data-field=first]")
    assert answer["record"]["seats"][dealt["first"] - 1] in first and str(dealt["first"]) in first
    assert await _hands(page) == dealt["hands"]
    assert await page.evaluate(
        "Number(document.querySelector('[data-field=stock]').dataset.count)"
    ) == len(dealt["stock"])
    assert str(len(dealt["stock"])) in await _text(page, "[data-field=stock] summary")


@pytest.mark.parametrize("lang", ["en", "ar"])
async def test_a_tampered_dealt_card_shows_red_and_names_the_seat(
    served: Served,
    finished: tuple[str, dict[str, Any]],
    page: Page,
    lang: str,
    tmp_path: Path,
) -> None:
    """PF-FAIR-3, PF-FAIR-6, RM-AMB-4: a record whose RoundDealt gives seat 2's first card to
    seat 1 (and the reverse) is pasted: the browser's deal check fails naming seat 1's hand
    and card 1, the card is marked, and the server fails the same round; they agree."""
    _, answer = finished
    changed = copy.deepcopy(answer["record"])
    hands = _event(changed["rounds"][0], "RoundDealt")["hands"]
    derived = hands[0][0]
    hands[0][0], hands[1][0] = hands[1][0], hands[0][0]
    await _paste(page, served, changed, lang)
    await page.screenshot(tmp_path / f"rummy-tampered-{lang}.png")
    shown = await _shown(page)
    assert shown["verdict"] == "fail" and shown["agree"] == "yes", shown
    assert await _style(page, "#summary") == RED
    assert shown["rounds"] == [{"round": "1", "verdict": "fail"}]
    browser = await _checks(page, "browser")
    assert browser == {"commitment": "pass", "seeds": "pass", "first": "pass", "deal": "fail"}
    assert await _checks(page, "server") == {"events": "fail"}
    shown_text = await _text(page, "li[data-kind=browser][data-check=deal] .sentence")
    sentence = shown_text.replace("\u2068", "").replace("\u2069", "")  # the values' isolates
    name = "Seat 1 — Ali" if lang == "en" else "المقعد 1 — Ali"
    assert name in sentence and derived in sentence and hands[0][0] in sentence, sentence
    if lang == "en":
        assert sentence.startswith("Seat 1 — Ali's hand, card 1:"), sentence
    marked = await page.evaluate(
        "[...document.querySelectorAll('.card.differs')].map((c) =>"
        " [c.closest('.hand').dataset.seat, c.dataset.card])"
    )
    assert marked == [["1", derived]]


async def test_a_changed_secret_fails_the_commitment_in_the_browser_and_the_server(
    served: Served, finished: tuple[str, dict[str, Any]], page: Page
) -> None:
    """PF-FAIR-3: another secret in the record does not hash to the round's commitment: the
    browser's commitment check is red with both digests, and so is the server's."""
    _, answer = finished
    changed = copy.deepcopy(answer["record"])
    changed["rounds"][0]["secret"] = "ab" * 32
    await _paste(page, served, changed, "en")
    shown = await _shown(page)
    assert shown["verdict"] == "fail" and shown["agree"] == "yes", shown
    assert (await _checks(page, "browser"))["commitment"] == "fail"
    assert await _checks(page, "server") == {"commitment": "fail"}
    committed = _event(changed["rounds"][0], "SeedCommitted")["commitment"]
    assert committed in await _text(page, "li[data-kind=browser][data-check=commitment]")


async def test_a_pasted_record_of_many_rounds_shows_every_round_and_its_first_player(
    served: Served, page: Page
) -> None:
    """PF-FAIR-6, RM-CORE-7, RM-CAR-1: a two-seat Carousel game (one deck and one joker)
    of several rounds, verified by the real server and re-derived round by round by the
    browser: round 1's first player is drawn, each later one is one seat on."""
    record = played_record("carousel", 2, 1)
    await _paste(page, served, record, "en")
    shown = await _shown(page)
    assert shown["verdict"] == "pass" and shown["agree"] == "yes", shown
    count = len(record["rounds"])
    assert count >= 3
    assert shown["rounds"] == [{"round": str(n), "verdict": "pass"} for n in range(1, count + 1)]
    sentences = await page.evaluate(
        "[...document.querySelectorAll('li[data-kind=browser][data-check=first] .sentence')]"
        ".map((s) => s.textContent)"
    )
    assert sentences[0].startswith("The fair draw from the secret picks Seat ")
    assert all("one seat on from" in s for s in sentences[1:])
    hands = await page.evaluate(
        "document.querySelector('article[data-round=\"1\"] .hand').querySelectorAll('.card').length"
    )
    assert hands == 10


async def test_tahitis_face_up_singletons_are_shown_and_checked(served: Served, page: Page) -> None:
    """RM-TAH-2, RM-AMB-4: the 4 face-up singletons after the hands are re-derived and
    shown; the deal check says so."""
    record = played_record("tahiti", 3, 2)
    await _paste(page, served, record, "en")
    shown = await _shown(page)
    assert shown["verdict"] == "pass" and shown["agree"] == "yes", shown
    singles = _event(record["rounds"][0], "RoundDealt")["singletons"]
    cards = await page.evaluate(
        "[...document.querySelectorAll('article[data-round=\"1\"] [data-field=singletons] .card')]"
        ".map((c) => c.dataset.card)"
    )
    assert cards == singles and len(cards) == 4
    deal = await _text(page, 'article[data-round="1"] li[data-kind=browser][data-check=deal]')
    assert "the 4 face-up singletons" in deal.replace("\u2068", "").replace("\u2069", "")


# Everything visible lies inside the viewport, and the page never scrolls sideways.
_FITS = """(() => {
  const width = window.innerWidth;
  const outside = [...document.body.querySelectorAll('*')].filter((n) => {
    if (!n.checkVisibility()) return false;
    const r = n.getBoundingClientRect();
    return r.width > 0 && (r.left < -0.5 || r.right > width + 0.5);
  }).map((n) => n.tagName + '.' + n.className + ' ' + n.textContent.slice(0, 40));
  return {scroll: document.documentElement.scrollWidth, width: width, outside: outside};
})()"""


@pytest.mark.parametrize("size", [(390, 844), (1280, 800)], ids=["phone", "desktop"])
@pytest.mark.parametrize("lang", ["ar", "en"])
async def test_a_rummy_round_fits_the_screen(
    served: Served,
    finished: tuple[str, dict[str, Any]],
    browser: Browser,
    size: tuple[int, int],
    lang: str,
    tmp_path: Path,
) -> None:
    """PF-FAIR-5: no sideways scrolling at 390 px or 1280 px, the stock opened too."""
    deal_id, _ = finished
    tab = await browser.new_page(*size)
    try:
        await _open(tab, served, f"deal={deal_id}&lang={lang}")
        await tab.evaluate("document.querySelector('[data-field=stock]').open = true")
        await tab.screenshot(tmp_path / f"rummy-{lang}-{size[0]}.png")
        fits: dict[str, Any] = await tab.evaluate(_FITS)
        assert fits["width"] == size[0]
        assert fits["outside"] == []
        assert fits["scroll"] <= fits["width"]
        assert tab.unexpected_errors() == []
    finally:
        await tab.close()


# --- helpers --------------------------------------------------------------------------------


async def _paste(page: Page, served: Served, record: dict[str, Any], lang: str) -> None:
    await _open(page, served, f"lang={lang}")
    await page.evaluate(
        f"document.getElementById('record-text').value = {json.dumps(json.dumps(record))};"
        "document.getElementById('verify-record').click()"
    )
    assert await _settled(page) == "done"


async def _open(page: Page, served: Served, query: str) -> None:
    await page.goto(f"{served.base}/verify?{query}")
    await page.wait_for("document.body.dataset.ready === 'yes'")
    if "deal=" in query:
        assert await _settled(page) == "done"


async def _settled(page: Page) -> str:
    state: str = await page.wait_for(
        "['done', 'error'].includes(document.body.dataset.state) && document.body.dataset.state"
    )
    return state


async def _shown(page: Page) -> dict[str, Any]:
    shown: dict[str, Any] = await page.evaluate(
        "({verdict: document.getElementById('summary').dataset.verdict,"
        " agree: document.getElementById('agreement').dataset.agree,"
        " agreement: document.getElementById('agreement').textContent,"
        " scope: (document.getElementById('scope') || {}).textContent,"
        " rounds: [...document.querySelectorAll('article')].map((a) =>"
        "  ({round: a.dataset.round, verdict: a.dataset.verdict}))})"
    )
    return shown


async def _checks(page: Page, kind: str, round_: int = 1) -> dict[str, str]:
    found: dict[str, str] = await page.evaluate(
        f"Object.fromEntries([...document.querySelectorAll("
        f'\'article[data-round="{round_}"] li.check[data-kind="{kind}"]\')]'
        ".map((li) => [li.dataset.check, li.dataset.status]))"
    )
    return found


async def _text(page: Page, selector: str) -> str:
    text: str = await page.evaluate(f"document.querySelector({json.dumps(selector)}).textContent")
    return text


async def _style(page: Page, selector: str) -> str:
    color: str = await page.evaluate(
        f"getComputedStyle(document.querySelector({json.dumps(selector)})).backgroundColor"
    )
    return color


async def _hands(page: Page) -> list[list[str]]:
    hands: list[list[str]] = await page.evaluate(
        "[...document.querySelectorAll('.hand')].map((h) =>"
        " [...h.querySelectorAll('.card')].map((c) => c.dataset.card))"
    )
    return hands


def _event(round_: dict[str, Any], kind: str) -> dict[str, Any]:
    found: dict[str, Any] = next(e for e in round_["events"] if e["type"] == kind)
    return found
