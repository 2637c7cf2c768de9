"""The Verify page's own fair shuffle (services/verifier/static/fair.js) against
docs/fairness.md: the known-answer vectors, parsed from the doc, and the re-derivation of
real deal records, compared with the Python engine.

Rules: PF-FAIR-1..7, PF-AMB-2, PF-AMB-12, PF-CUT-5, PF-EX-1, PF-EX-8, BK-DEAL-6.

The JavaScript runs in headless Chromium (WebCrypto in a real browser, as a player runs it)
and, when Node is installed, under Node too. Neither is skipped: without Chromium the tests
fail with the install hint (scripts/ensure-chromium.sh); without Node only the browser
runtime is used.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import shutil
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from engine.replay import decode_record
from engine.verify import verify_record
from tests.browser_support import chromium
from tests.verify_support import (
    example,
    record_with_events,
    reshuffled_deal,
    tamper_hand,
    tamper_seed,
)

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "fairness.md"
FAIR_JS = ROOT / "services" / "verifier" / "static" / "fair.js"
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
NODE = shutil.which("node")
RUNTIMES = ["chromium", *(["node"] if NODE else [])]
OUTPUT_KEYS = (
    "commitment",
    "E",
    "deal_msg_0",
    "deal_words_0",
    "deal_top_12",
    "deal_all",
    "first_4",
    "autocut",
    "cut_card",
    "cut_starter",
    "dice_3",
    "reshuffle_1",
)


def _doc_vectors() -> list[dict[str, str]]:
    text = DOC.read_text(encoding="utf-8")
    vectors = []
    for block in re.findall(r"^```kat\n(.*?)^```", text, flags=re.MULTILINE | re.DOTALL):
        fields: dict[str, str] = {}
        for line in block.splitlines():
            key, _, value = (part.strip() for part in line.partition("="))
            fields[key] = f"{fields[key]} {value}" if key in fields else value  # deal_all
        vectors.append(fields)
    return vectors


VECTORS = _doc_vectors()

# Computes every documented output of a vector with fair.js (F) only.
KAT_JS = """
async (F, arg) => {
  const out = [];
  for (const v of arg.vectors) {
    const secret = F.parseSecret(v.secret);
    const e = await F.entropy(JSON.parse(v.client_seeds));
    const words = await F.blockWords(await F.hmacKey(secret), "deal", e, 0);
    const deck = await F.dealDeck(secret, e);
    const autocut = await F.autoCut(secret, e);
    const cutDeck = F.cut(deck, autocut);
    const cutCard = cutDeck[cutDeck.length - 1];
    const faces = (cards) => cards.map(F.face).join(" ");
    out.push({
      commitment: await F.commitment(secret),
      E: e,
      deal_msg_0: F.blockMessage("deal", e, 0),
      deal_words_0: words.map((w) => w.toString(16).padStart(8, "0")).join(" "),
      deal_top_12: faces(deck.slice(0, 12)),
      deal_all: faces(deck),
      first_4: String(await F.firstDraw(secret, e, 4)),
      autocut: String(autocut),
      cut_card: F.face(cutCard),
      cut_starter: String(F.cutStarter(1, F.cutCount(cutCard), 4)),
      dice_3: (await F.dice(secret, e, 3)).join(" "),
      reshuffle_1: faces(await F.reshuffle(arg.ten_clubs, secret, e, 1)),
    });
  }
  return out;
}
"""


class Runtime:
    """Calls `fn(F, arg)` (JavaScript source) with F = fair.js in one JS engine."""

    name = ""

    async def call(self, fn: str, arg: Any) -> Any:
        raise NotImplementedError


class NodeRuntime(Runtime):
    name = "node"

    def __init__(self, workdir: Path) -> None:
        assert NODE is not None
        self.runner = workdir / "run-fair.js"
        self.runner.write_text(
            "if (!globalThis.crypto || !globalThis.crypto.subtle) {\n"  # Node 18
            "  globalThis.crypto = require('node:crypto').webcrypto;\n"
            "}\n"
            f"const F = require({json.dumps(str(FAIR_JS))});\n"
            "const input = JSON.parse(require('fs').readFileSync(0, 'utf8'));\n"
            "(async () => {\n"
            "  const fn = (0, eval)('(' + input.fn + ')');\n"
            "  process.stdout.write(JSON.stringify(await fn(F, input.arg)));\n"
            "})().catch((err) => { console.error(err && err.stack || err); process.exit(1); });\n"
        )

    async def call(self, fn: str, arg: Any) -> Any:
        assert NODE is not None
        proc = await asyncio.create_subprocess_exec(
            NODE,
            str(self.runner),
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        out, err = await asyncio.wait_for(
            proc.communicate(json.dumps({"fn": fn, "arg": arg}).encode()), 120
        )
        assert proc.returncode == 0, err.decode()
        return json.loads(out)


class ChromiumRuntime(Runtime):
    name = "chromium"

    def __init__(self, page: Any) -> None:
        self.page = page

    async def call(self, fn: str, arg: Any) -> Any:
        return await self.page.evaluate(f"({fn})(window.SahraFair, {json.dumps(arg)})")


@pytest.fixture(scope="module")
async def browser_page(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Any]:
    async with fair_page(tmp_path_factory.mktemp("fair-js-chromium"), "rederive") as page:
        yield page


@contextlib.asynccontextmanager
async def fair_page(workdir: Path, function: str) -> AsyncIterator[Any]:
    """A Chromium page that loaded fair.js as the Verify page loads it (a classic script
    defining window.SahraFair; a file: page is a secure context, which WebCrypto needs),
    with `function` defined; it must end with no script error."""
    html = workdir / "fair.html"
    html.write_text(f'<!doctype html><script src="{FAIR_JS.as_uri()}"></script>')
    async with chromium(workdir) as browser:
        page = await browser.new_page()
        await page.goto(html.as_uri())
        assert await page.evaluate("window.isSecureContext && !!crypto.subtle")
        assert await page.evaluate(f"typeof window.SahraFair.{function}") == "function"
        yield page
        assert page.unexpected_errors() == []


def runtime(request: pytest.FixtureRequest, tmp_path: Path) -> Runtime:
    """The runtime a `js` fixture's parameter names: Node, or the module's `browser_page`."""
    if request.param == "node":
        return NodeRuntime(tmp_path)
    return ChromiumRuntime(request.getfixturevalue("browser_page"))


@pytest.fixture(params=RUNTIMES)
def js(request: pytest.FixtureRequest, tmp_path: Path) -> Runtime:
    return runtime(request, tmp_path)


# --- the documented known answers -----------------------------------------------------------


def test_the_doc_has_the_vectors_this_test_reads() -> None:
    assert len(VECTORS) >= 4
    for v in VECTORS:
        assert {"secret", "client_seeds", *OUTPUT_KEYS} - {"deal_all"} <= set(v)
    assert any("deal_all" in v for v in VECTORS)


def test_the_browser_runtime_is_always_run() -> None:
    """A machine without Node still checks fair.js: in Chromium."""
    assert "chromium" in RUNTIMES


async def test_known_answer_vectors(js: Runtime) -> None:
    """PF-AMB-12 b–h, PF-AMB-2, PF-CUT-5: every documented output of every vector."""
    ten_clubs = [f"{rank}C" for rank in RANKS[:10]]
    got = await js.call(KAT_JS, {"vectors": VECTORS, "ten_clubs": ten_clubs})
    assert len(got) == len(VECTORS)
    checked = 0
    for v, result in zip(VECTORS, got, strict=True):
        for key in OUTPUT_KEYS:
            if key in v:
                want = " ".join(v[key].split())
                assert result[key] == want, f"{js.name}, vector {v['vector']}: {key}"
                checked += 1
    assert checked >= 11 * len(VECTORS)


async def test_uniform_rejects_words_at_or_above_the_limit(js: Runtime) -> None:
    """Section 4: for n = 106 the limit is 4294967254; a rejected word is consumed."""
    got = await js.call(
        """async (F) => {
          const draw = async (words, n) => {
            const s = new F.Stream(null, "x", "e");
            s.words = words.slice();
            return [await s.uniform(n), s.words.length];
          };
          return [
            await draw([4294967254, 5, 9], 106),
            await draw([4294967253, 9], 106),
            await draw([4294967295, 4294967295, 7], 1),
          ];
        }""",
        None,
    )
    assert got == [[5, 1], [4294967253 % 106, 1], [0, 2]]


async def test_cut_and_starter_follow_pf_ex_1(js: Runtime) -> None:
    """PF-CUT-5 / PF-EX-1: a 7 from host 1 → seat 3; a K → seat 1; a joker counts 14."""
    got = await js.call(
        """async (F) => {
          const deck = F.canonicalDeck();
          const cut = F.cut(deck, 37);
          return {
            cut_top: cut[0], cut_bottom: cut[105], length: cut.length,
            seven: F.cutStarter(1, F.cutCount("7H#2"), 4),
            king: F.cutStarter(1, F.cutCount("KS"), 4),
            joker: F.cutCount("JK#1"), ace: F.cutCount("AD#1"),
            host3: F.cutStarter(3, F.cutCount("4C"), 4),
          };
        }""",
        None,
    )
    assert got == {
        "cut_top": "QH#1",  # card 38 of the canonical deck
        "cut_bottom": "JH#1",  # card 37 is the cut card, now at the bottom
        "length": 106,
        "seven": 3,
        "king": 1,
        "joker": 14,
        "ace": 1,
        "host3": 2,
    }


async def test_dealing_one_card_at_a_time_from_the_starter(js: Runtime) -> None:
    """BK-DEAL-6: 18 each round the table from the starter, the 19th to the starter."""
    got = await js.call(
        """async (F) => {
          const deck = F.canonicalDeck();
          const four = F.dealHands(deck, 3, 4), two = F.dealHands(deck, 2, 2);
          return {
            sizes: four.hands.map((h) => h.length), stock: four.stock.length,
            seat3: four.hands[2].slice(0, 2), seat4: four.hands[3][0],
            seat3_last: four.hands[2][18],
            top: four.stock[0], sizes2: two.hands.map((h) => h.length), stock2: two.stock.length,
          };
        }""",
        None,
    )
    deck = [f"{r}{s}#{c}" for c in (1, 2) for s in "CDHS" for r in RANKS]
    assert got == {
        "sizes": [18, 18, 19, 18],
        "stock": 33,
        "seat3": [deck[0], deck[4]],
        "seat4": deck[1],
        "seat3_last": deck[72],
        "top": deck[73],
        "sizes2": [18, 19],
        "stock2": 69,
    }


async def test_client_seeds_outside_printable_ascii_are_refused(js: Runtime) -> None:
    got = await js.call(
        """async (F) => {
          const refused = async (seeds) => { try { await F.entropy(seeds); return false; }
                                             catch (e) { return true; } };
          return [await refused(["a\\nb"]), await refused(["x".repeat(65)]),
                  await refused(["é"]), await refused(["x".repeat(64), " ~"])];
        }""",
        None,
    )
    assert got == [True, True, True, False]


# --- re-deriving whole records, against the engine's own verifier ------------------------------

REDERIVE_JS = """
async (F, records) => {
  const out = [];
  for (const record of records) {
    const r = await F.rederive(record);
    out.push({
      passed: r.passed,
      deals: r.deals.map((d) => ({
        checks: Object.fromEntries(d.checks.map((c) => [c.name, [c.status, c.code, c.params]])),
        hands: d.hands, stock: d.stock, starter: d.starter,
        reshuffles: d.reshuffles.map((x) => x.stock),
        commitment: d.commitmentComputed, entropy: d.entropy,
      })),
    });
  }
  return out;
}
"""


def _genuine() -> dict[str, dict[str, Any]]:
    return {
        "classic-reshuffles": record_with_events(reshuffled_deal()),
        "sahrat": record_with_events(example("sahrat-secret-deal")),
        "classic": record_with_events(example("classic-secret-deal")),
        "1v1-match": record_with_events(example("sahrat-1v1-secret-match")),
        "stacked": record_with_events(example("classic-stacked-deal")),
    }


async def test_genuine_records_are_rebuilt_exactly_as_the_engine_dealt_them(js: Runtime) -> None:
    """PF-FAIR-5, PF-EX-8: hands, stock, cut and every reshuffle equal the recorded events,
    and the engine's own verifier agrees that these records are genuine."""
    records = _genuine()
    got = dict(zip(records, await js.call(REDERIVE_JS, list(records.values())), strict=True))
    for name, record in records.items():
        assert verify_record(decode_record(json.dumps(record))).passed, name
        assert got[name]["passed"], name
        for deal, result in zip(record["deals"], got[name]["deals"], strict=True):
            dealt = next(e for e in deal["events"] if e["type"] == "CardsDealt")
            assert result["hands"] == dealt["hands"], name
            assert result["stock"] == dealt["stock"], name
            recorded = [e["stock"] for e in deal["events"] if e["type"] == "GroundReshuffled"]
            assert result["reshuffles"] == recorded, name
            statuses = {check: value[0] for check, value in result["checks"].items()}
            assert "fail" not in statuses.values(), (name, statuses)
    first = got["classic-reshuffles"]["deals"][0]
    assert first["checks"]["reshuffles"][2] == {"count": 2}
    assert first["checks"]["start"][:2] == ["pass", "cut"]
    assert got["sahrat"]["deals"][0]["checks"]["start"][:2] == ["pass", "draw"]
    assert [d["checks"]["start"][1] for d in got["1v1-match"]["deals"][1:]] == ["later_deal"] * 6
    assert got["stacked"]["deals"][0]["checks"]["commitment"][0] == "unchecked"


async def test_tampered_records_fail_at_the_changed_step(js: Runtime) -> None:
    """A swapped card in a dealt hand, a changed seed, a changed reshuffle: each is caught."""
    genuine = record_with_events(reshuffled_deal())
    reshuffle = json.loads(json.dumps(genuine))
    stock = next(e for e in reshuffle["deals"][0]["events"] if e["type"] == "GroundReshuffled")[
        "stock"
    ]
    stock[2], stock[3] = stock[3], stock[2]
    cases = [tamper_hand(genuine), tamper_seed(genuine), reshuffle]
    hand, seed, shuffled = await js.call(REDERIVE_JS, cases)
    for result in (hand, seed, shuffled):
        assert result["passed"] is False

    checks = hand["deals"][0]["checks"]
    assert checks["commitment"][0] == "pass"
    assert checks["deal"][:2] == ["fail", "hand_mismatch"]
    assert checks["deal"][2]["seat"] == 2 and checks["deal"][2]["index"] == 1

    checks = seed["deals"][0]["checks"]
    assert checks["commitment"][:2] == ["fail", "mismatch"]
    assert checks["deal"][0] == "fail"

    checks = shuffled["deals"][0]["checks"]
    assert checks["deal"][0] == "pass"
    assert checks["reshuffles"][:2] == ["fail", "mismatch"]
    assert checks["reshuffles"][2]["number"] == 1 and checks["reshuffles"][2]["index"] == 3

    for tampered in cases:  # the server's verifier agrees that each one is broken
        assert not verify_record(decode_record(json.dumps(tampered))).passed
