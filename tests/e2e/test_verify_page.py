"""The Verify page (PF-FAIR-5, PF-EX-8) in a real headless Chromium.

A small Litestar app mounts `services.verifier.page.page_routes` next to stand-ins for the
verifier API (GET /verify/{deal_id}, POST /verify) that call the real
`engine.verify.verify_record`. The browser loads the page, asks for a verdict, re-derives
the deal itself with fair.js, and the tests read what the page shows. Each state is saved
as a screenshot in the test's tmp dir.
"""

from __future__ import annotations

import hashlib
import json
import re
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
    "match": MATCH,  # a deal id names the last deal of its record: here deal 3 of a match
}
# Refusals of the real verifier API (services/verifier/records.py), by the id asked for.
REFUSALS: dict[str, tuple[int, str, str, str]] = {
    "bad!id": (400, "bad_deal_id", "", "a deal id is <table id>-<deal number>, not 'bad!id'"),
    "playing-2": (409, "deal_not_finished", "PF-FAIR-3", "deal playing-2 is still being played"),
}
# A server that lies: the verdict of the genuine deal sent with a tampered record.
LYING = {"deal_id": "lying", "record": tamper_hand(GENUINE), "verdict": None}

BROWSER_CHECKS = ["commitment", "seeds", "start", "deal", "reshuffles"]
GREEN = "rgb(227, 244, 233)"  # --pass-bg
RED = "rgb(253, 232, 230)"  # --fail-bg


def _error(status: int, code: str, message: str, rule_id: str = "") -> Response[dict[str, str]]:
    return Response({"code": code, "rule_id": rule_id, "message": message}, status_code=status)


def _verdict(record: dict[str, Any]) -> Any:
    return msgspec.to_builtins(verify_record(decode_record(json.dumps(record))))


@get("/verify/{deal_id:str}", sync_to_thread=False)
def verify_by_id(deal_id: FromPath[str]) -> Response[Any]:
    """Stand-in for the verifier API: a deal of the store, verified by the real engine."""
    if deal_id == "lying":
        return Response({**LYING, "verdict": _verdict(GENUINE)})
    if deal_id in REFUSALS:
        status, code, rule_id, message = REFUSALS[deal_id]
        return _error(status, code, message, rule_id)
    record = RECORDS.get(deal_id)
    if record is None:
        return _error(404, "no_such_deal", f"deal {deal_id} has not begun at this table")
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
    assert await page.evaluate("document.getElementById('error').dataset.code") == "no_such_deal"
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


# --- on a phone and on a desktop ------------------------------------------------------------

PHONE = (390, 844)
DESKTOP = (1280, 800)
SIZES = pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])

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

# The text of `root` a reader sees in the page's own direction: visible, and not inside an
# element written left to right (a code, an id, a hex string, a card).
_OWN_TEXT = """((root) => {
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const parts = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (parent.closest('[dir=ltr]') || !parent.checkVisibility()) continue;
    parts.push(node.textContent);
  }
  return parts.join('');
})"""


@pytest.fixture
async def sized(browser: Browser, base: str, size: tuple[int, int]) -> AsyncIterator[Page]:
    tab = await browser.new_page(*size)
    yield tab
    assert tab.unexpected_errors() == []
    outside = [u for u in tab.requests if not u.startswith(base + "/") and u != "about:blank"]
    assert outside == []
    await tab.close()


async def _open(page: Page, base: str, query: str) -> str:
    await page.goto(f"{base}/verify?{query}")
    await page.wait_for("document.body.dataset.ready === 'yes'")
    return await _settled(page) if "deal=" in query else "idle"


async def _fits(page: Page) -> dict[str, Any]:
    found: dict[str, Any] = await page.evaluate(_FITS)
    return found


@SIZES
@pytest.mark.parametrize("lang", ["ar", "en"])
@pytest.mark.parametrize("deal", [None, "genuine", "tampered-seed", "tampered-hand", "match"])
async def test_the_page_fits_the_screen_in_every_state(
    sized: Page, base: str, size: tuple[int, int], lang: str, deal: str | None, tmp_path: Path
) -> None:
    """No sideways scrolling at 390 px or 1280 px: hex columns and card rows wrap."""
    query = f"lang={lang}" + (f"&deal={deal}" if deal else "")
    await _open(sized, base, query)
    if deal == "match":  # the earlier deals too
        await sized.evaluate("document.getElementById('earlier-link').click()")
    await sized.screenshot(tmp_path / f"{deal}-{lang}-{size[0]}.png")
    fits = await _fits(sized)
    assert fits["width"] == size[0]
    assert fits["outside"] == []
    assert fits["scroll"] <= fits["width"]


@SIZES
async def test_hex_in_an_arabic_sentence_is_kept_whole_and_left_to_right(
    sized: Page, base: str
) -> None:
    await _open(sized, base, "deal=tampered-seed")
    hexes = await sized.evaluate(
        "[...document.querySelectorAll("
        "'li[data-kind=browser][data-check=commitment] .sentence bdi')].map((b) => {"
        " const s = getComputedStyle(b);"
        " return {text: b.textContent, dir: b.getAttribute('dir'), direction: s.direction,"
        "  bidi: s.unicodeBidi, lines: b.getClientRects().length, wrap: s.whiteSpace,"
        "  right: b.getBoundingClientRect().right, left: b.getBoundingClientRect().left}; })"
    )
    long = [h for h in hexes if len(h["text"]) == 64]
    assert len(long) == 2, hexes  # the two 64-digit hex strings the sentence compares
    tampered = RECORDS["tampered-seed"]
    digest = hashlib.sha256(bytes.fromhex(tampered["deals"][0]["seed"]["secret"])).hexdigest()
    committed = event_of(tampered, "SeedCommitted")["commitment"]
    assert [h["text"] for h in long] == [digest, committed]
    for h in long:
        assert all(c in "0123456789abcdef" for c in h["text"])  # whole: no mark inside
        assert (h["dir"], h["direction"], h["bidi"]) == ("ltr", "ltr", "isolate")
        assert h["lines"] == 1 and h["wrap"] == "nowrap"  # never broken across lines
        assert h["left"] >= 0 and h["right"] <= await sized.evaluate("innerWidth")
    assert (await _fits(sized))["scroll"] <= (await _fits(sized))["width"]


@SIZES
async def test_a_deal_id_shows_that_deal_alone_and_earlier_deals_behind_a_link(
    sized: Page, base: str
) -> None:
    """/verify?deal=ID: the record holds every deal of the table up to ID; ID's is shown."""
    await _open(sized, base, "deal=match")
    last = len(MATCH["deals"])
    shown = "[...document.querySelectorAll('article.deal')].filter((a) => a.checkVisibility())"
    assert await sized.evaluate(f"{shown}.map((a) => a.dataset.deal)") == [str(last)]
    link = await sized.evaluate(
        "(() => { const a = document.getElementById('earlier-link');"
        " return a && {tag: a.tagName, text: a.textContent,"
        " expanded: a.getAttribute('aria-expanded')}; })()"
    )
    assert link["tag"] == "A" and link["expanded"] == "false"
    assert str(last - 1) in link["text"]
    assert (await _banner(sized))["verdict"] == "pass"
    await sized.evaluate("document.getElementById('earlier-link').click()")
    deals = [str(n) for n in range(1, last + 1)]
    assert await sized.evaluate(f"{shown}.map((a) => a.dataset.deal).sort()") == deals
    assert (
        await sized.evaluate(
            "document.getElementById('earlier-link').getAttribute('aria-expanded')"
        )
        == "true"
    )


async def test_a_pasted_record_still_shows_every_deal(page: Page) -> None:
    await page.evaluate(
        f"document.getElementById('record-text').value = {json.dumps(json.dumps(MATCH))};"
        "document.getElementById('verify-record').click()"
    )
    assert await _settled(page) == "done"
    visible = await page.evaluate(
        "[...document.querySelectorAll('article.deal')].filter((a) => a.checkVisibility()).length"
    )
    assert visible == len(MATCH["deals"])


ERRORS = [
    ("deal=no-such-deal", "no_such_deal", "404 (Not Found)"),
    ("deal=bad!id", "bad_deal_id", "400 (Bad Request)"),
    ("deal=playing-2", "deal_not_finished", "409 (Conflict)"),
]


@SIZES
@pytest.mark.parametrize(("query", "code", "console"), ERRORS, ids=[e[1] for e in ERRORS])
async def test_the_servers_refusal_is_said_in_arabic_on_the_arabic_page(
    sized: Page, base: str, query: str, code: str, console: str
) -> None:
    sized.expected_errors.append(console)
    assert await _open(sized, base, query) == "error"
    assert await sized.evaluate("document.getElementById('error').dataset.code") == code
    own = await sized.evaluate(f"{_OWN_TEXT}(document.getElementById('error'))")
    assert re.search("[\u0600-\u06ff]{3}", own), own
    assert not re.search("[A-Za-z]", own), own  # English only inside left-to-right codes
    deal_id = query.removeprefix("deal=")
    assert deal_id in await _text(sized, "#error")  # the id asked for, named
    fits = await _fits(sized)
    assert fits["outside"] == [] and fits["scroll"] <= fits["width"]
    # The English page says it in English.
    await _open(sized, base, query + "&lang=en")
    own = await sized.evaluate(f"{_OWN_TEXT}(document.getElementById('error'))")
    assert not re.search("[\u0600-\u06ff]", own), own


@pytest.mark.parametrize(
    ("text", "code"), [("{not json", "local"), (json.dumps({"deals": "x"}), "bad_record")]
)
async def test_a_refused_record_is_said_in_arabic(page: Page, text: str, code: str) -> None:
    page.expected_errors.append("400 (Bad Request)")
    await page.evaluate(
        f"document.getElementById('record-text').value = {json.dumps(text)};"
        "document.getElementById('verify-record').click()"
    )
    await _settled(page)
    assert await page.evaluate("document.getElementById('error').dataset.code") == code
    for selector in ("#error", "#agreement"):
        if await page.evaluate(f"!!document.querySelector({json.dumps(selector)})"):
            own = await page.evaluate(
                f"{_OWN_TEXT}(document.querySelector({json.dumps(selector)}))"
            )
            assert not re.search("[A-Za-z]", own), (selector, own)
