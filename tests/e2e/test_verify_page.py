"""The Verify page (PF-FAIR-5, PF-EX-8) in a real headless Chromium.

A small Litestar app mounts `services.verifier.page.page_routes` next to stand-ins for the
verifier API (GET /verify/{deal_id}, POST /verify) that call the real
`engine.verify.verify_record`. The browser loads the page, asks for a verdict, re-derives
the deal itself with fair.js, and the tests read what the page shows. Each state is saved
as a screenshot in the test's tmp dir.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import msgspec
import pytest
from litestar import Litestar, Response, get, post
from litestar.params import FromPath, RawBody
from litestar.testing import TestClient

from engine.replay import RecordError, decode_record
from engine.verify import CHECKS, verify_record
from services.verifier.page import STATIC_DIR, page_routes
from tests.browser_support import Browser, Page, chromium
from tests.e2e.gateway_support import running
from tests.verify_support import (
    event_of,
    example,
    record_with_events,
    reshuffled_deal,
    tamper_hand,
    tamper_seed,
)

GENUINE = record_with_events(reshuffled_deal())  # classic: host cut, ground takes, 2 reshuffles
SAHRAT = record_with_events(example("sahrat-secret-deal"))
MATCH = record_with_events(example("sahrat-1v1-secret-match"))
RECORDS: dict[str, dict[str, Any]] = {
    "genuine": GENUINE,
    "sahrat": SAHRAT,
    "tampered-hand": tamper_hand(GENUINE),
    "tampered-seed": tamper_seed(GENUINE),
}
# A server that lies: the verdict of the genuine deal sent with a tampered record.
LYING = {"deal_id": "lying", "record": tamper_hand(GENUINE), "verdict": None}

BROWSER_CHECKS = ["commitment", "seeds", "start", "deal", "reshuffles"]
GREEN = "rgb(227, 244, 233)"  # --pass-bg
RED = "rgb(253, 232, 230)"  # --fail-bg


def _error(status: int, code: str, message: str) -> Response[dict[str, str]]:
    return Response({"code": code, "rule_id": "PF-FAIR-5", "message": message}, status_code=status)


def _verdict(record: dict[str, Any]) -> Any:
    return msgspec.to_builtins(verify_record(decode_record(json.dumps(record))))


@get("/verify/{deal_id:str}", sync_to_thread=False)
def verify_by_id(deal_id: FromPath[str]) -> Response[Any]:
    """Stand-in for the verifier API: a deal of the store, verified by the real engine."""
    if deal_id == "lying":
        return Response({**LYING, "verdict": _verdict(GENUINE)})
    record = RECORDS.get(deal_id)
    if record is None:
        return _error(404, "unknown_deal", f"no finished deal {deal_id!r}")
    return Response({"deal_id": deal_id, "record": record, "verdict": _verdict(record)})


@post("/verify", sync_to_thread=False)
def verify_posted(body: RawBody) -> Response[Any]:
    """Stand-in for the verifier API: a record sent by the player."""
    try:
        record = decode_record(body)
    except RecordError as exc:
        return _error(400, "bad_record", str(exc))
    verdict = msgspec.to_builtins(verify_record(record))
    return Response({"deal_id": None, "record": json.loads(body), "verdict": verdict})


def create_app() -> Litestar:
    return Litestar(route_handlers=[*page_routes, verify_by_id, verify_posted])


@pytest.fixture(scope="module")
async def base() -> AsyncIterator[str]:
    async with running(create_app()) as url:
        yield url


@pytest.fixture(scope="module")
async def browser(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Browser]:
    async with chromium(tmp_path_factory.mktemp("verify-chromium")) as b:
        yield b


@pytest.fixture
async def page(browser: Browser, base: str) -> AsyncIterator[Page]:
    tab = await browser.new_page()
    await tab.goto(f"{base}/verify")
    await tab.wait_for("document.body.dataset.ready === 'yes'")
    yield tab
    # Nothing broke (but the refusals a test asked for), and nothing was fetched from
    # anywhere but the server itself.
    assert tab.unexpected_errors() == []
    outside = [u for u in tab.requests if not u.startswith(base + "/") and u != "about:blank"]
    assert outside == []
    await tab.close()


# --- helpers --------------------------------------------------------------------------------


async def _by_id(page: Page, deal_id: str) -> None:
    await page.evaluate(
        f"document.getElementById('deal-id').value = {json.dumps(deal_id)};"
        "document.getElementById('verify-id').click()"
    )
    await _settled(page)


async def _settled(page: Page) -> str:
    state: str = await page.wait_for(
        "['done', 'error'].includes(document.body.dataset.state) && document.body.dataset.state"
    )
    return state


async def _checks(page: Page, kind: str, deal: int = 1) -> dict[str, str]:
    found: dict[str, str] = await page.evaluate(
        f"Object.fromEntries([...document.querySelectorAll("
        f'\'article[data-deal="{deal}"] li.check[data-kind="{kind}"]\')]'
        ".map((li) => [li.dataset.check, li.dataset.status]))"
    )
    return found


async def _style(page: Page, selector: str, prop: str = "background-color") -> str:
    value: str = await page.evaluate(
        f"getComputedStyle(document.querySelector({json.dumps(selector)}))[{json.dumps(prop)}]"
    )
    return value


async def _text(page: Page, selector: str) -> str:
    value: str = await page.evaluate(
        f"document.querySelector({json.dumps(selector)}).textContent.trim()"
    )
    return value


async def _banner(page: Page) -> dict[str, Any]:
    value: dict[str, Any] = await page.evaluate(
        "({verdict: document.getElementById('summary').dataset.verdict,"
        " agree: document.getElementById('agreement').dataset.agree,"
        " summary: document.getElementById('summary').textContent,"
        " agreement: document.getElementById('agreement').textContent})"
    )
    return value


# --- the page itself ----------------------------------------------------------------------------


def test_the_page_and_its_assets_are_served_locally_with_a_strict_policy() -> None:
    with TestClient(app=create_app()) as client:
        html = client.get("/verify")
        assert html.status_code == 200
        assert html.headers["content-type"].startswith("text/html")
        policy = html.headers["content-security-policy"]
        assert "default-src 'none'" in policy and "script-src 'self'" in policy
        assert '<html lang="ar" dir="rtl">' in html.text
        for name, kind in (
            ("verify.js", "text/javascript"),
            ("fair.js", "text/javascript"),
            ("i18n.js", "text/javascript"),
            ("verify.css", "text/css"),
        ):
            asset = client.get(f"/verify/static/{name}")
            assert asset.status_code == 200, name
            assert asset.headers["content-type"].startswith(kind), name
        assert client.get("/verify/static/verify.html").status_code == 404
        assert client.get("/verify/static/..%2Fpage.py").status_code == 404
    # No CDN, no web font, no outside address anywhere in the page's files.
    for path in STATIC_DIR.iterdir():
        text = path.read_text(encoding="utf-8")
        assert "http://" not in text and "https://" not in text, path.name
        assert "@import" not in text and "url(" not in text, path.name


async def test_every_text_exists_in_arabic_and_english(page: Page) -> None:
    keys = await page.evaluate(
        "[Object.keys(SahraI18n.ar).sort(), Object.keys(SahraI18n.en).sort()]"
    )
    assert keys[0] == keys[1]
    assert await page.evaluate("[document.documentElement.lang, document.documentElement.dir]") == [
        "ar",
        "rtl",
    ]
    assert await _text(page, "h1") == "التحقق من عدالة التوزيع"


# --- verdicts -------------------------------------------------------------------------------------


async def test_a_genuine_deal_shows_green_and_the_browser_agrees(
    page: Page, tmp_path: Path
) -> None:
    """PF-EX-8: SHA-256(S) = C; the re-shuffled deal equals the recorded hands and stock."""
    await _by_id(page, "genuine")
    await page.screenshot(tmp_path / "genuine-ar.png")
    banner = await _banner(page)
    assert banner["verdict"] == "pass" and banner["agree"] == "yes"
    assert await _style(page, "#summary") == GREEN
    assert await _checks(page, "server") == dict.fromkeys(CHECKS, "pass")
    assert await _checks(page, "browser") == dict.fromkeys(BROWSER_CHECKS, "pass")
    assert await page.evaluate("document.querySelector('article').dataset.verdict") == "pass"

    # What the page shows: the commitment and the seed, the seeds, and the rebuilt deal.
    deal = GENUINE["deals"][0]
    committed = event_of(GENUINE, "SeedCommitted")["commitment"]
    assert await _text(page, "[data-field=commitment]") == committed
    assert (await _text(page, "[data-field=computed]")).startswith(committed)
    assert await _text(page, "[data-field=secret]") == deal["seed"]["secret"]
    seeds = await page.evaluate(
        "[...document.querySelectorAll('[data-field=seeds] li')].map((li) => li.textContent)"
    )
    assert len(seeds) == 4 and '"a"' in seeds[0] and '"c"' in seeds[2]
    dealt = event_of(GENUINE, "CardsDealt")
    cut = event_of(GENUINE, "DeckCut")
    shown = await page.evaluate(
        "[...document.querySelectorAll('.hand')].map((h) =>"
        " [...h.querySelectorAll('.card')].map((c) => c.dataset.card))"
    )
    assert shown == dealt["hands"]
    stock = await page.evaluate(
        "[...document.querySelectorAll('[data-field=stock] .card')].map((c) => c.textContent)"
    )
    assert stock == [c.split("#")[0] for c in dealt["stock"]]  # faces, top first
    cut_line = await _text(page, "[data-field=cut]")
    assert str(cut["position"]) in cut_line and cut["cut_card"].split("#")[0] in cut_line
    assert await page.evaluate("document.querySelectorAll('[data-field=reshuffle]').length") == 2


async def test_a_tampered_hand_shows_the_failing_step_in_red(page: Page, tmp_path: Path) -> None:
    await _by_id(page, "tampered-hand")
    await page.screenshot(tmp_path / "tampered-hand-ar.png")
    banner = await _banner(page)
    assert banner["verdict"] == "fail"
    assert banner["agree"] == "yes"  # both the server and the browser catch it
    assert await _style(page, "#summary") == RED
    server = await _checks(page, "server")
    assert server["commitment"] == "pass" and server["deck"] == "fail"
    assert await _style(page, "li[data-kind=server][data-check=deck]") == RED
    assert await _style(page, "li[data-kind=server][data-check=commitment]") == GREEN
    browser = await _checks(page, "browser")
    assert browser["commitment"] == "pass" and browser["deal"] == "fail"
    assert await _style(page, "li[data-kind=browser][data-check=deal]") == RED
    # The browser names the card: seat 2, card 1, and marks it in the rebuilt hand.
    sentence = await _text(page, "li[data-kind=browser][data-check=deal] .sentence")
    dealt = event_of(RECORDS["tampered-hand"], "CardsDealt")
    assert "2" in sentence and dealt["hands"][1][0] in sentence
    marked = await page.evaluate(
        "[...document.querySelectorAll('.card.differs')].map((c) =>"
        " [c.closest('[data-seat]').dataset.seat, c.dataset.card])"
    )
    assert marked == [["2", event_of(GENUINE, "CardsDealt")["hands"][1][0]]]


async def test_a_changed_seed_fails_the_commitment_in_both(page: Page, tmp_path: Path) -> None:
    await _by_id(page, "tampered-seed")
    await page.screenshot(tmp_path / "tampered-seed-ar.png")
    banner = await _banner(page)
    assert banner["verdict"] == "fail" and banner["agree"] == "yes"
    server = await _checks(page, "server")
    assert server["commitment"] == "fail"
    assert set(server.values()) == {"fail", "unchecked"}
    browser = await _checks(page, "browser")
    assert browser["commitment"] == "fail" and browser["deal"] == "fail"
    assert await _style(page, "li[data-kind=browser][data-check=commitment]") == RED
    computed = await page.evaluate(
        "document.querySelector('[data-field=computed]').classList.contains('differs')"
    )
    assert computed is True


async def test_the_page_says_plainly_when_the_server_and_the_browser_disagree(
    page: Page, tmp_path: Path
) -> None:
    """A server that calls a tampered deal genuine is caught by the browser's own check."""
    await _by_id(page, "lying")
    await page.screenshot(tmp_path / "disagree-ar.png")
    banner = await _banner(page)
    assert banner["verdict"] == "fail" and banner["agree"] == "no"
    assert "تخالف حكم الخادم" in banner["agreement"]
    assert await _style(page, "#agreement") == RED
    assert (await _checks(page, "server"))["deck"] == "pass"
    assert (await _checks(page, "browser"))["deal"] == "fail"


async def test_an_unknown_deal_id_shows_the_servers_error(page: Page, tmp_path: Path) -> None:
    page.expected_errors.append("404 (Not Found) http://")  # the refusal shown below
    await _by_id(page, "no-such-deal")
    assert await page.evaluate("document.body.dataset.state") == "error"
    await page.screenshot(tmp_path / "unknown-ar.png")
    assert await page.evaluate("document.getElementById('error').dataset.code") == "unknown_deal"
    assert "no-such-deal" in await _text(page, "#error")


# --- language, paste and upload ---------------------------------------------------------------


async def test_the_english_toggle_switches_every_text(page: Page, tmp_path: Path) -> None:
    await _by_id(page, "sahrat")
    arabic_summary = (await _banner(page))["summary"]
    await page.evaluate("document.getElementById('lang').click()")
    await page.screenshot(tmp_path / "sahrat-en.png")
    assert await page.evaluate("[document.documentElement.lang, document.documentElement.dir]") == [
        "en",
        "ltr",
    ]
    assert await _text(page, "h1") == "Verify that a deal was fair"
    assert await _text(page, "#lang") == "العربية"
    assert await page.evaluate("document.title") == "Verify a deal — Sahra"
    banner = await _banner(page)
    assert banner["summary"].startswith("✓ Verified") and banner["summary"] != arabic_summary
    assert banner["agreement"].startswith("Your browser recomputed everything")
    # The server's check sentences are the engine's own; the browser's are translated.
    assert await _text(page, "li[data-kind=server][data-check=commitment] .sentence") == (
        "the revealed seed hashes to the commitment shown before the deal"
    )
    assert (await _text(page, "li[data-kind=browser][data-check=start] .sentence")).startswith(
        "The fair draw from the secret picks seat"
    )
    assert await _text(page, "label[for=deal-id]") == "Deal id"
    # Nothing Arabic is left in the English page but the toggle (and the players' names).
    arabic_left = await page.evaluate(
        "[...document.body.querySelectorAll('*')].filter((n) => n.children.length === 0"
        " && n.id !== 'lang' && /[\\u0600-\\u06ff]/.test(n.textContent)).length"
    )
    assert arabic_left == 0
    await page.evaluate("document.getElementById('lang').click()")
    assert await page.evaluate("document.documentElement.dir") == "rtl"
    assert (await _banner(page))["summary"] == arabic_summary


async def test_a_link_names_the_deal_and_the_language(page: Page, base: str) -> None:
    """/verify?deal=ID&lang=en opens straight on that deal's verdict, in English."""
    await page.goto(f"{base}/verify?deal=sahrat&lang=en")
    assert await _settled(page) == "done"
    assert await page.evaluate("document.getElementById('deal-id').value") == "sahrat"
    assert await page.evaluate("document.documentElement.dir") == "ltr"
    assert (await _banner(page))["verdict"] == "pass"


async def test_a_pasted_record_is_verified(page: Page, tmp_path: Path) -> None:
    """A whole match pasted as JSON: every deal is checked, each one green."""
    await page.evaluate(
        f"document.getElementById('record-text').value = {json.dumps(json.dumps(MATCH))};"
        "document.getElementById('verify-record').click()"
    )
    assert await _settled(page) == "done"
    await page.screenshot(tmp_path / "pasted-match-ar.png")
    banner = await _banner(page)
    assert banner["verdict"] == "pass" and banner["agree"] == "yes"
    verdicts = await page.evaluate(
        "[...document.querySelectorAll('article.deal')].map((a) => a.dataset.verdict)"
    )
    assert verdicts == ["pass"] * len(MATCH["deals"])
    assert await _checks(page, "browser", deal=3) == {
        "commitment": "pass",
        "seeds": "pass",
        "start": "unchecked",  # a later deal: the start rotates by the rules (server's check)
        "deal": "pass",
        "reshuffles": "pass",
    }


async def test_a_pasted_text_that_is_not_json_is_refused_in_the_page(page: Page) -> None:
    await page.evaluate(
        "document.getElementById('record-text').value = '{not json';"
        "document.getElementById('verify-record').click()"
    )
    assert await _settled(page) == "error"
    assert await page.evaluate("document.getElementById('error').dataset.code") == "local"


async def test_an_uploaded_record_file_is_verified(page: Page, tmp_path: Path) -> None:
    upload = tmp_path / "tampered.json"
    upload.write_text(json.dumps(RECORDS["tampered-hand"]))
    await page.set_files("#record-file", [upload])
    assert await _settled(page) == "done"
    await page.screenshot(tmp_path / "uploaded-tampered-ar.png")
    assert await page.evaluate("document.getElementById('record-text').value.length") > 1000
    banner = await _banner(page)
    assert banner["verdict"] == "fail" and banner["agree"] == "yes"
    assert (await _checks(page, "server"))["deck"] == "fail"
    assert (await _checks(page, "browser"))["deal"] == "fail"


async def test_a_record_the_server_refuses_is_still_rebuilt_by_the_browser(page: Page) -> None:
    """The server's error is shown on top; the browser's own checks still run."""
    record = json.loads(json.dumps(GENUINE))
    record["surprise"] = True  # an unknown field: the server refuses the whole record
    page.expected_errors.append("400 (Bad Request) http://")
    await page.evaluate(
        f"document.getElementById('record-text').value = {json.dumps(json.dumps(record))};"
        "document.getElementById('verify-record').click()"
    )
    assert await _settled(page) == "done"
    assert await page.evaluate("document.getElementById('error').dataset.code") == "bad_record"
    banner = await _banner(page)
    assert banner["verdict"] == "fail" and banner["agree"] == "server-missing"
    assert await _checks(page, "browser") == dict.fromkeys(BROWSER_CHECKS, "pass")


def test_the_stand_in_api_answers_like_the_real_one() -> None:
    """The shapes the page is coded against: {deal_id, record, verdict} and {code, ...}."""
    with TestClient(app=create_app()) as client:
        found = client.get("/verify/genuine").json()
        assert set(found) == {"deal_id", "record", "verdict"}
        assert found["verdict"]["passed"] is True
        posted = client.post("/verify", content=json.dumps(SAHRAT)).json()
        assert posted["deal_id"] is None and posted["verdict"]["passed"] is True
        missing = client.get("/verify/nope")
        assert missing.status_code == 404
        assert set(missing.json()) == {"code", "rule_id", "message"}
