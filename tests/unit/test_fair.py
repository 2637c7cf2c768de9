"""The provably fair randomness: engine.fair against the rules and docs/fairness.md.

Rules: PF-FAIR-1..7, PF-AMB-2, PF-AMB-12, PF-AMB-13, PF-CUT-5, PF-EX-1, PF-EX-8.
The known-answer vectors live only in docs/fairness.md; these tests parse them from there,
so the page and the code cannot drift apart.
"""

from __future__ import annotations

import ast
import hashlib
import hmac
import itertools
import json
import re
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, TypeVar

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import fair
from engine.cards import BANAKIL_DECK, RANKS, SUITS, canonical_deck, faces
from engine.errors import RuleViolation

T = TypeVar("T")

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "fairness.md"
KAT_KEYS = {
    "vector",
    "secret",
    "client_seeds",
    "commitment",
    "E",
    "deal_msg_0",
    "deal_words_0",
    "deal_top_12",
    "first_4",
    "autocut",
    "cut_card",
    "cut_starter",
    "dice_3",
    "reshuffle_1",
}
TEN_CLUBS = canonical_deck()[:10]  # AC … 10C, the reshuffle_1 input of every vector
SPAN = 2**32
NO_SEEDS = hashlib.sha256(b"").hexdigest()


def _doc_vectors() -> list[dict[str, str]]:
    text = DOC.read_text(encoding="utf-8")
    vectors = []
    for block in re.findall(r"^```kat\n(.*?)^```", text, flags=re.MULTILINE | re.DOTALL):
        fields: dict[str, str] = {}
        for line in block.splitlines():
            key, _, value = (part.strip() for part in line.partition("="))
            # The full deck is wrapped over several `deal_all` lines.
            fields[key] = f"{fields[key]} {value}" if key in fields else value
        vectors.append(fields)
    return vectors


VECTORS = _doc_vectors()


def _doc_snippet() -> dict[str, Any]:
    text = DOC.read_text(encoding="utf-8")
    (code,) = re.findall(r"^```python\n(.*?)^```", text, flags=re.MULTILINE | re.DOTALL)
    namespace: dict[str, Any] = {}
    exec(code, namespace)
    return namespace


# A deliberately naive reference, written from PF-AMB-12 alone: one HMAC per word.
def _ref_words(secret: bytes, label: str, e: str) -> Iterator[int]:
    index = 0
    while True:
        block, k = divmod(index, 8)
        digest = hmac.new(secret, f"{label}:{e}:{block}".encode(), hashlib.sha256).digest()
        yield int.from_bytes(digest[4 * k : 4 * k + 4], "big")
        index += 1


def _ref_uniform(words: Iterator[int], n: int) -> int:
    limit = (SPAN // n) * n
    return next(w for w in words if w < limit) % n


def _ref_shuffle(items: Sequence[T], secret: bytes, label: str, e: str) -> tuple[T, ...]:
    out, words = list(items), _ref_words(secret, label, e)
    for i in range(len(out) - 1, 0, -1):
        j = _ref_uniform(words, i + 1)
        out[i], out[j] = out[j], out[i]
    return tuple(out)


def _vector_inputs(v: dict[str, str]) -> tuple[bytes, str]:
    return fair.parse_secret(v["secret"]), fair.entropy(json.loads(v["client_seeds"]))


def _refused(code: str, call: Callable[[], object], rule_id: str | None = None) -> None:
    with pytest.raises(RuleViolation) as info:
        call()
    assert info.value.code == code
    if rule_id is not None:
        assert info.value.rule_id == rule_id


vector_cases = pytest.mark.parametrize("v", VECTORS, ids=lambda v: f"vector{v.get('vector')}")


# --- the documented known answers ---------------------------------------------------------


def test_the_doc_publishes_at_least_three_complete_known_answer_vectors() -> None:
    """PF-FAIR-5: other Verify implementations check against these; none may go missing."""
    assert len(VECTORS) >= 3
    for v in VECTORS:
        assert set(v) - {"deal_all"} == KAT_KEYS
    assert any("deal_all" in v for v in VECTORS)


def test_the_doc_names_the_algorithm_version_recorded_in_events() -> None:
    assert fair.ALGORITHM == "sahra-fair-v1"
    assert f"`{fair.ALGORITHM}`" in DOC.read_text(encoding="utf-8")


@vector_cases
def test_known_commitment_and_client_seed_entropy(v: dict[str, str]) -> None:
    """PF-FAIR-2, PF-AMB-12 b/h: C = SHA-256(S) and E = SHA-256 of the joined seeds."""
    secret, e = _vector_inputs(v)
    assert fair.commitment(secret) == v["commitment"]
    assert e == v["E"]


@vector_cases
def test_known_block_0_message_and_words(v: dict[str, str]) -> None:
    """PF-AMB-12 c/h: block 0 is HMAC(S, "deal:E:0") read as big-endian words."""
    secret, e = _vector_inputs(v)
    assert f"deal:{e}:0" == v["deal_msg_0"]
    stream = fair.Stream(secret, "deal", e)
    # uniform(2**32) never rejects and returns its word unchanged: a window on the raw words.
    words = [f"{stream.uniform(SPAN):08x}" for _ in range(8)]
    assert " ".join(words) == v["deal_words_0"]


@vector_cases
def test_known_deal_shuffle(v: dict[str, str]) -> None:
    """PF-FAIR-1, PF-AMB-12 e/f: the unit's deck is the canonical deck shuffled from S."""
    secret, e = _vector_inputs(v)
    deck = faces(fair.deal_deck(secret, e))
    assert deck[:12] == v["deal_top_12"].split()
    if "deal_all" in v:
        assert deck == v["deal_all"].split()


@vector_cases
def test_known_fair_draw_autocut_and_dice(v: dict[str, str]) -> None:
    """PF-FAIR-6, PF-AMB-2, PF-DICE-2: the other draws under "first", "autocut", "dice"."""
    secret, e = _vector_inputs(v)
    assert fair.first_draw(secret, e, 4) == int(v["first_4"])
    assert fair.auto_cut(secret, e) == int(v["autocut"])
    assert fair.dice(secret, e, 3) == tuple(int(d) for d in v["dice_3"].split())


@vector_cases
def test_known_cut_of_the_deal(v: dict[str, str]) -> None:
    """PF-CUT-5: cutting the committed deck at the automatic k, host in seat 1."""
    secret, e = _vector_inputs(v)
    cut_deck = fair.cut(fair.deal_deck(secret, e), int(v["autocut"]))
    assert faces(cut_deck)[-1] == v["cut_card"]
    assert fair.cut_starter(1, fair.cut_count(cut_deck[-1])) == int(v["cut_starter"])


@vector_cases
def test_known_first_reshuffle(v: dict[str, str]) -> None:
    """PF-FAIR-4: the first ground reshuffle of a deal uses label "reshuffle:1"."""
    secret, e = _vector_inputs(v)
    assert faces(fair.reshuffle(TEN_CLUBS, secret, e, 1)) == v["reshuffle_1"].split()


@vector_cases
def test_the_reference_snippet_in_the_doc_reproduces_its_vectors(v: dict[str, str]) -> None:
    """PF-AMB-12: the page's own Python snippet is a working re-implementation."""
    ref = _doc_snippet()
    secret = bytes.fromhex(v["secret"])
    e = ref["entropy"](json.loads(v["client_seeds"]))
    assert e == v["E"]
    assert ref["shuffle"](ref["DECK"], secret, "deal", e)[:12] == v["deal_top_12"].split()
    assert ref["shuffle"](faces(TEN_CLUBS), secret, "reshuffle:1", e) == v["reshuffle_1"].split()
    assert 1 + ref["Stream"](secret, "first", e).uniform(4) == int(v["first_4"])
    assert 1 + ref["Stream"](secret, "autocut", e).uniform(105) == int(v["autocut"])
    dice = ref["Stream"](secret, "dice", e)
    assert [1 + dice.uniform(6) for _ in range(3)] == [int(d) for d in v["dice_3"].split()]
    assert ref["DECK"] == faces(BANAKIL_DECK)


# --- commitment and reveal ----------------------------------------------------------------


def test_the_commitment_is_the_lowercase_hex_sha256_of_the_secret() -> None:
    """PF-FAIR-2, PF-AMB-12 b."""
    secret = bytes(range(100, 132))
    assert fair.commitment(secret) == hashlib.sha256(secret).hexdigest()
    assert fair.commitment(secret) == fair.commitment(secret).lower()


def test_a_revealed_secret_verifies_against_its_commitment_and_rebuilds_the_deal() -> None:
    """PF-FAIR-3, PF-FAIR-5, PF-AMB-13, PF-EX-8: the Verify page's steps after the reveal."""
    secret = bytes(range(7, 39))
    seeds = ["alice", "", "bob", ""]
    published = fair.commitment(secret)
    dealt = fair.deal_deck(secret, fair.entropy(seeds))

    revealed = fair.parse_secret(secret.hex().upper())
    assert revealed == secret
    assert fair.commitment(revealed) == published
    assert fair.deal_deck(revealed, fair.entropy(seeds)) == dealt

    forged = fair.parse_secret(bytes([secret[0] ^ 1, *secret[1:]]).hex())
    assert fair.commitment(forged) != published
    assert fair.deal_deck(forged, fair.entropy(seeds)) != dealt


@pytest.mark.parametrize(
    "text",
    ["", "00" * 31, "00" * 33, "zz" * 32, " " + "00" * 32, "0x" + "00" * 31, "00 " * 21 + "0"],
)
def test_a_reveal_that_is_not_64_hex_characters_is_refused(text: str) -> None:
    """PF-FAIR-3, PF-AMB-12 b: a secret is 32 bytes, revealed as 64 hex characters."""
    _refused("bad_secret", lambda: fair.parse_secret(text), "PF-AMB-12")


@pytest.mark.parametrize("secret", [b"", bytes(31), bytes(33)])
def test_secrets_that_are_not_32_bytes_are_refused_everywhere(secret: bytes) -> None:
    """PF-AMB-12 b."""
    e = fair.entropy([])
    _refused("bad_secret", lambda: fair.commitment(secret))
    _refused("bad_secret", lambda: fair.deal_deck(secret, e))
    _refused("bad_secret", lambda: fair.dice(secret, e, 1))


# --- client seeds and E -------------------------------------------------------------------


def test_entropy_hashes_the_seeds_in_seat_order_keeping_silent_seats() -> None:
    """PF-AMB-12 h: one seed per seat, empty when none was sent, joined by newlines."""
    assert fair.entropy(["alice", "", "bob", ""]) == hashlib.sha256(b"alice\n\nbob\n").hexdigest()
    assert fair.entropy(["a", "b"]) != fair.entropy(["b", "a"])
    assert fair.entropy(["", "", "", ""]) == hashlib.sha256(b"\n\n\n").hexdigest()


def test_no_seeds_at_all_is_the_hash_of_the_empty_string() -> None:
    """PF-AMB-12 h: there is no separate form for a unit without client seeds.

    One silent seat also joins to "", so it shares this E; every table has two seats or
    more, where silent seats always differ from none.
    """
    assert fair.entropy([]) == NO_SEEDS
    assert fair.entropy([""]) == NO_SEEDS
    assert fair.entropy(["", ""]) != NO_SEEDS


@pytest.mark.parametrize("seed", ["", " ", "~", "x" * 64, "Hello, world! {}[]"])
def test_short_printable_ascii_client_seeds_are_accepted(seed: str) -> None:
    """PF-AMB-12 h."""
    assert len(fair.entropy([seed])) == 64


@pytest.mark.parametrize("seed", ["a\nb", "\t", "caf\u00e9", "x" * 65, "\x7f", "\x00"])
def test_client_seeds_must_be_at_most_64_printable_ascii_characters(seed: str) -> None:
    """PF-AMB-12 h: a newline would also make the seat join ambiguous."""
    _refused("bad_client_seed", lambda: fair.entropy(["ok", seed]), "PF-AMB-12")


def test_a_bare_string_is_not_a_list_of_client_seeds() -> None:
    """PF-AMB-12 h: "ab" must not silently become two seats "a" and "b"."""
    _refused("bad_client_seed", lambda: fair.entropy("ab"))


@pytest.mark.parametrize("e", ["", "E3B0" * 16, "alice", "g" * 64, NO_SEEDS + "0"])
def test_a_stream_needs_e_as_returned_by_entropy(e: str) -> None:
    """PF-AMB-12 h: a raw seed or an upper-case hash in place of E is a caller's mistake."""
    _refused("bad_entropy", lambda: fair.Stream(bytes(32), "deal", e))


@pytest.mark.parametrize("label", ["", "d\u00e9al", "deal\n"])
def test_a_stream_label_is_non_empty_printable_ascii(label: str) -> None:
    """PF-AMB-12 g."""
    _refused("bad_label", lambda: fair.Stream(bytes(32), label, NO_SEEDS))


# --- the word stream and uniform(n) -------------------------------------------------------


@pytest.mark.parametrize(
    "n", [1, 2, 3, 6, 7, 105, 106, 2**31, 2**31 + 1, 3 * 2**30, SPAN - 1, SPAN]
)
def test_uniform_matches_the_naive_reference_over_many_blocks(n: int) -> None:
    """PF-AMB-12 c/d: 40 draws cross several 8-word blocks."""
    secret = bytes(range(32))
    stream, words = fair.Stream(secret, "dice", NO_SEEDS), _ref_words(secret, "dice", NO_SEEDS)
    assert [stream.uniform(n) for _ in range(40)] == [_ref_uniform(words, n) for _ in range(40)]


def test_uniform_skips_a_word_at_or_above_the_limit() -> None:
    """PF-AMB-12 d: with n = 3·2^30 the limit is n itself, so a quarter of words are rejected."""
    n = 3 * 2**30
    limit = (SPAN // n) * n
    secret = bytes(32)
    for attempt in range(500):
        label = f"rejection-{attempt}"
        w0, w1 = _ref_words(secret, label, NO_SEEDS), _ref_words(secret, label, NO_SEEDS)
        first, second = next(w0), (next(w1), next(w1))[1]
        if first >= limit > second and first % n != second % n:
            break
    else:
        pytest.fail("no label with a rejected first word: the search space is too small")
    assert fair.Stream(secret, label, NO_SEEDS).uniform(n) == second % n


def test_a_word_equal_to_the_limit_is_rejected() -> None:
    """PF-AMB-12 d: words ≥ limit are rejected, including the limit itself.

    For n > 2^31 the limit is n, so choosing n equal to the stream's first word puts that
    word exactly on the boundary.
    """
    for attempt in range(100):
        label = f"boundary-{attempt}"
        words = _ref_words(bytes(32), label, NO_SEEDS)
        first, second = next(words), next(words)
        if first > 2**31 and 0 < second < first:
            break
    else:
        pytest.fail("no suitable label found")
    assert fair.Stream(bytes(32), label, NO_SEEDS).uniform(first) == second


def test_uniform_of_one_still_consumes_a_word() -> None:
    """PF-AMB-12 d: every draw reads a word, even when only one outcome is possible."""
    words = _ref_words(bytes(32), "first", NO_SEEDS)
    stream = fair.Stream(bytes(32), "first", NO_SEEDS)
    assert stream.uniform(1) == 0
    next(words)
    assert stream.uniform(SPAN) == next(words)


@pytest.mark.parametrize("n", [1, 6, 105, 2**31 + 1, 3 * 2**30, SPAN])
@pytest.mark.parametrize("chunks", [(40,), (1, 7, 8, 0, 24), (3,) * 13])
def test_draws_in_bulk_are_the_same_integers_as_one_uniform_at_a_time(
    n: int, chunks: tuple[int, ...]
) -> None:
    """PF-AMB-12 c/d, PF-DICE-2: a bulk read of the stream (a Bunco round's dice) gives the
    draws `uniform(n)` gives one by one, however the reads are split across blocks; with
    n = 2^31 + 1 about half the words are rejected, so the bulk read needs more words than
    it asked for, block after block."""
    secret = bytes(range(32))
    stream, words = fair.Stream(secret, "dice", NO_SEEDS), _ref_words(secret, "dice", NO_SEEDS)
    for count in chunks:
        assert stream.draws(n, count) == [_ref_uniform(words, n) for _ in range(count)]
    assert stream.uniform(n) == _ref_uniform(words, n)  # and the stream goes on from there


def test_a_bulk_draw_skips_rejected_words_and_reads_on() -> None:
    """PF-AMB-12 d: five words at 2^32 - 1 are rejected by uniform(6) (its limit is
    2^32 - 4); the six draws asked for are the next words, the stream's own block 0."""
    stream = _primed([SPAN - 1] * 5 + [7])
    words = _ref_words(bytes(32), "primed", NO_SEEDS)
    assert stream.draws(6, 6) == [7 % 6] + [_ref_uniform(words, 6) for _ in range(5)]


def test_a_bulk_draw_rejects_a_word_equal_to_the_limit() -> None:
    """PF-AMB-12 d: for uniform(6) the limit is 2^32 - 4; a word of exactly that value is
    rejected in a bulk read as one at a time, and the next word is the draw."""
    limit = SPAN - SPAN % 6
    assert _primed([limit, 7]).draws(6, 1) == [7 % 6]
    assert _primed([limit - 1]).draws(6, 1) == [(limit - 1) % 6]


@pytest.mark.parametrize(("n", "count"), [(0, 3), (SPAN + 1, 3), (6, -1)])
def test_a_bulk_draw_refuses_an_empty_range_or_a_negative_count(n: int, count: int) -> None:
    """PF-AMB-12 d: the same bounds as uniform(n), and no negative number of draws."""
    code = "bad_draw_count" if count < 0 else "bad_range"
    _refused(code, lambda: fair.Stream(bytes(32), "dice", NO_SEEDS).draws(n, count))


@pytest.mark.parametrize("n", [0, -1, SPAN + 1])
def test_uniform_refuses_an_empty_or_too_wide_range(n: int) -> None:
    """PF-AMB-12 d: n = 0 has no outcome, and n > 2^32 would reject every word for ever."""
    _refused("bad_range", lambda: fair.Stream(bytes(32), "deal", NO_SEEDS).uniform(n))


# --- shuffle ------------------------------------------------------------------------------


def test_a_two_card_shuffle_swaps_exactly_when_the_first_word_is_even() -> None:
    """PF-AMB-12 e: i = 1 swaps index 1 with j = uniform(2); index 0 is the top card."""
    seen = set()
    for attempt in range(20):
        label = f"two-{attempt}"
        word = next(_ref_words(bytes(32), label, NO_SEEDS))
        expected = ("bottom", "top") if word % 2 == 0 else ("top", "bottom")
        result = fair.shuffle(("top", "bottom"), bytes(32), label, NO_SEEDS)
        assert result == expected
        seen.add(result)
    assert len(seen) == 2


def test_the_deal_is_a_permutation_of_the_canonical_deck_and_replays_identically() -> None:
    """PF-FAIR-1, PF-AMB-12 f: every card once, and the same secret gives the same deck."""
    secret, e = bytes(range(32)), fair.entropy(["x", "", "", ""])
    deck = fair.deal_deck(secret, e)
    assert sorted(deck) == sorted(BANAKIL_DECK)
    assert deck != BANAKIL_DECK
    assert fair.deal_deck(secret, e) == deck


def test_each_unit_gets_a_different_deck_from_its_own_secret() -> None:
    """PF-FAIR-1: one secret per unit, so consecutive deals do not repeat."""
    decks = {fair.deal_deck(bytes([unit]) * 32, NO_SEEDS) for unit in range(20)}
    assert len(decks) == 20


def test_labels_and_client_seeds_each_change_the_order() -> None:
    """PF-AMB-12 g/h: every label is its own stream, and every seed matters."""
    secret = bytes(range(32))
    orders = {
        fair.shuffle(BANAKIL_DECK, secret, label, NO_SEEDS)
        for label in ("deal", "reshuffle:1", "reshuffle:2", "first", "autocut", "dice")
    }
    orders |= {
        fair.deal_deck(secret, fair.entropy(seeds))
        for seeds in (["a"], ["b"], ["a", ""], ["", "a"], ["", "", "", ""])
    }
    assert len(orders) == 11


@settings(max_examples=150, deadline=None)
@given(
    secret=st.binary(min_size=32, max_size=32),
    seeds=st.lists(st.text(st.characters(min_codepoint=0x20, max_codepoint=0x7E), max_size=64)),
    label=st.sampled_from(["deal", "reshuffle:1", "reshuffle:12", "first", "dice"])
    | st.text(st.characters(min_codepoint=0x20, max_codepoint=0x7E), min_size=1, max_size=20),
    items=st.lists(st.integers(), max_size=130),
)
def test_shuffle_equals_the_naive_reference(
    secret: bytes, seeds: list[str], label: str, items: list[int]
) -> None:
    """PF-AMB-12 c/d/e/h, PF-FAIR-7: any items, any label, any seeds."""
    e = fair.entropy(seeds)
    assert fair.shuffle(items, secret, label, e) == _ref_shuffle(items, secret, label, e)


def test_the_same_scheme_shuffles_every_game_s_cards_and_seats() -> None:
    """PF-FAIR-7: one scheme for all games; nothing in it is specific to Banakil."""
    secret, e = bytes(range(32)), fair.entropy(["p1", "p2", "p3"])
    rummy_deck = [f"{rank}{suit}" for suit in SUITS for rank in RANKS]
    bunco_players = [f"player-{n}" for n in range(1, 12)]
    for items in (rummy_deck, bunco_players):
        assert fair.shuffle(items, secret, "deal", e) == _ref_shuffle(items, secret, "deal", e)
        assert sorted(fair.shuffle(items, secret, "first", e)) == sorted(items)


# --- reshuffles (PF-FAIR-4) ---------------------------------------------------------------


def test_each_ground_reshuffle_is_drawn_from_the_deal_secret_under_its_own_label() -> None:
    """PF-FAIR-4, PF-AMB-12 g: the k-th reshuffle is the "reshuffle:k" stream of S."""
    secret, e = bytes(range(32)), fair.entropy(["alice", "", "bob", ""])
    ground = fair.deal_deck(secret, e)[40:60]  # any ground, bottom to top, without its top
    first = fair.reshuffle(ground, secret, e, 1)
    assert first == _ref_shuffle(ground, secret, "reshuffle:1", e)
    assert fair.reshuffle(ground, secret, e, 2) == _ref_shuffle(ground, secret, "reshuffle:2", e)
    assert sorted(first) == sorted(ground)
    assert first != fair.reshuffle(ground, secret, e, 2)
    assert first != fair.shuffle(ground, secret, "deal", e)
    assert first != fair.reshuffle(ground, bytes(32), e, 1)


@pytest.mark.parametrize("k", [0, -1])
def test_reshuffles_are_numbered_from_one(k: int) -> None:
    """PF-FAIR-4."""
    _refused("bad_reshuffle_number", lambda: fair.reshuffle(TEN_CLUBS, bytes(32), NO_SEEDS, k))


# --- other draws (PF-FAIR-6) --------------------------------------------------------------


def test_fair_draw_autocut_and_dice_read_their_own_streams() -> None:
    """PF-FAIR-6, PF-AMB-2, PF-DICE-2: "first", "autocut" and "dice" of the unit's secret."""
    secret, e = bytes(range(1, 33)), fair.entropy(["seed"])
    for seats in (2, 3, 4, 5, 12):
        expected = 1 + _ref_uniform(_ref_words(secret, "first", e), seats)
        assert fair.first_draw(secret, e, seats) == expected
    assert fair.auto_cut(secret, e) == 1 + _ref_uniform(_ref_words(secret, "autocut", e), 105)
    words = _ref_words(secret, "dice", e)
    assert fair.dice(secret, e, 30) == tuple(1 + _ref_uniform(words, 6) for _ in range(30))


def test_dice_are_read_in_log_order_from_one_stream() -> None:
    """PF-AMB-12 g: three dice per roll, rolls in log order, so later rolls extend earlier."""
    secret = bytes(range(32))
    nine = fair.dice(secret, NO_SEEDS, 9)
    assert fair.dice(secret, NO_SEEDS, 3) == nine[:3]
    assert fair.dice(secret, NO_SEEDS, 0) == ()


def test_draws_stay_within_their_ranges_and_reach_every_value() -> None:
    """PF-FAIR-6, PF-AMB-2 (cut 1..105), PF-DICE-2 (die 1..6)."""
    secrets = [hashlib.sha256(i.to_bytes(2, "big")).digest() for i in range(300)]
    assert {fair.first_draw(s, NO_SEEDS, 4) for s in secrets} == {1, 2, 3, 4}
    cuts = {fair.auto_cut(s, NO_SEEDS) for s in secrets}
    assert min(cuts) >= 1
    assert max(cuts) <= 105
    assert set(fair.dice(secrets[0], NO_SEEDS, 300)) == {1, 2, 3, 4, 5, 6}


def test_draws_refuse_impossible_counts() -> None:
    """PF-FAIR-6."""
    _refused("bad_seat_count", lambda: fair.first_draw(bytes(32), NO_SEEDS, 0))
    _refused("bad_dice_count", lambda: fair.dice(bytes(32), NO_SEEDS, -1))


# --- the cut (PF-CUT-5) -------------------------------------------------------------------


def test_a_cut_puts_the_top_k_cards_under_the_rest() -> None:
    """PF-CUT-5: new order = cards k+1 … 106 then 1 … k; card k is now at the bottom."""
    deck = tuple(range(1, 107))
    cut_deck = fair.cut(deck, 37)
    assert cut_deck == (*range(38, 107), *range(1, 38))
    assert cut_deck[-1] == 37
    assert fair.cut(deck, 1)[-1] == 1
    assert fair.cut(deck, 105) == (106, *range(1, 106))


@pytest.mark.parametrize("k", [0, 106, -1])
def test_cut_positions_outside_1_to_105_are_refused(k: int) -> None:
    """PF-CUT-1, PF-CUT-5."""
    _refused("bad_cut", lambda: fair.cut(BANAKIL_DECK, k), "PF-CUT-5")


@pytest.mark.parametrize(
    ("card", "v"),
    [
        ("AS", 1),
        ("2C", 2),
        ("7H#2", 7),
        ("10D", 10),
        ("JH", 11),
        ("qs#1", 12),
        ("KC", 13),
        ("JK", 14),
        ("JK#2", 14),
    ],
)
def test_the_cut_card_counts_ace_1_to_king_13_and_joker_14(card: str, v: int) -> None:
    """PF-CUT-5."""
    assert fair.cut_count(card) == v


def test_pf_ex_1_the_count_moves_the_start_from_the_host() -> None:
    """PF-EX-1, PF-CUT-4/5: host 1 cuts a 7 → seat 3; a K → seat 1."""
    assert fair.cut_starter(1, fair.cut_count("7D")) == 3
    assert fair.cut_starter(1, fair.cut_count("KS")) == 1
    assert fair.cut_starter(4, 2) == 1  # seat 4 is followed by seat 1
    assert fair.cut_starter(3, 14) == 4
    assert fair.cut_starter(2, 2, n_seats=2) == 1


def test_pf_ex_1_the_host_s_cut_and_the_automatic_cut_follow_the_same_rule() -> None:
    """PF-EX-1, PF-CUT-3, PF-AMB-2: card k of the committed deck decides, whoever picks k."""
    secret, e = bytes(range(32)), NO_SEEDS
    deck = fair.deal_deck(secret, e)
    for k in (37, fair.auto_cut(secret, e)):
        cut_deck = fair.cut(deck, k)
        assert cut_deck[-1] == deck[k - 1]
        v = fair.cut_count(deck[k - 1])
        assert fair.cut_starter(1, v) == (v - 1) % 4 + 1


@pytest.mark.parametrize(
    ("host", "v", "seats", "code"),
    [
        (0, 1, 4, "bad_seat"),
        (5, 1, 4, "bad_seat"),
        (1, 0, 4, "bad_cut_count"),
        (1, 15, 4, "bad_cut_count"),
        (1, 1, 0, "bad_seat_count"),
    ],
)
def test_impossible_cut_starts_are_refused(host: int, v: int, seats: int, code: str) -> None:
    """PF-CUT-5."""
    _refused(code, lambda: fair.cut_starter(host, v, seats), "PF-CUT-5")


# --- purity -------------------------------------------------------------------------------


def test_the_fair_module_has_no_source_of_its_own_randomness_or_time() -> None:
    """PF-AMB-12, PF-AMB-14: everything random arrives as the secret and the seeds."""
    tree = ast.parse((ROOT / "engine" / "fair.py").read_text(encoding="utf-8"))
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            imported.add((node.module or "").split(".")[0])
    assert imported <= {
        "__future__",
        "collections",
        "engine",
        "hashlib",
        "hmac",
        "struct",
        "typing",
    }


# --- every refusal's code, rule and sentence (issue 10 item 15) ---------------------------

_STREAM = (bytes(32), "deal", NO_SEEDS)
_REFUSALS: list[tuple[Callable[[], object], str, str, str]] = [
    (
        lambda: fair.Stream(bytes(32), "dice", NO_SEEDS).draws(0, 3),
        "bad_range",
        "PF-AMB-12",
        "uniform(n) needs 1 <= n <= 2**32, got 0",
    ),
    (
        lambda: fair.Stream(bytes(32), "dice", NO_SEEDS).draws(6, -1),
        "bad_draw_count",
        "PF-AMB-12",
        "draws(n, count) needs count >= 0, got -1",
    ),
    (
        lambda: fair.entropy("abc"),
        "bad_client_seed",
        "PF-AMB-12",
        "client seeds are a list with one seed per seat",
    ),
    (
        lambda: fair.entropy(["ok", "caf\u00e9"]),
        "bad_client_seed",
        "PF-AMB-12",
        "the client seed of seat 2 must be 0 to 64 printable ASCII characters (space to '~')",
    ),
    (
        lambda: fair.parse_secret("ab"),
        "bad_secret",
        "PF-AMB-12",
        "a secret is 64 hex characters (32 bytes), got 'ab'",
    ),
    (
        lambda: fair.parse_secret(None),
        "bad_secret",
        "PF-AMB-12",  # type: ignore[arg-type]
        "a secret is 64 hex characters (32 bytes), got None",
    ),
    (lambda: fair.commitment(b"x"), "bad_secret", "PF-AMB-12", "a secret is exactly 32 bytes"),
    (
        lambda: fair.Stream(bytes(32), "", NO_SEEDS),
        "bad_label",
        "PF-AMB-12",
        "a stream label is non-empty printable ASCII, got ''",
    ),
    (
        lambda: fair.Stream(bytes(32), "deal", "e"),
        "bad_entropy",
        "PF-AMB-12",
        "E must be the 64 lowercase hex characters returned by entropy(client_seeds)",
    ),
    (
        lambda: fair.Stream(*_STREAM).uniform(0),
        "bad_range",
        "PF-AMB-12",
        "uniform(n) needs 1 <= n <= 2**32, got 0",
    ),
    (
        lambda: fair.reshuffle([], bytes(32), NO_SEEDS, 0),
        "bad_reshuffle_number",
        "PF-FAIR-4",
        "reshuffles are numbered from 1, got 0",
    ),
    (
        lambda: fair.first_draw(bytes(32), NO_SEEDS, 0),
        "bad_seat_count",
        "PF-FAIR-6",
        "a fair draw needs at least one seat, got 0",
    ),
    (
        lambda: fair.dice(bytes(32), NO_SEEDS, -1),
        "bad_dice_count",
        "PF-FAIR-6",
        "the number of dice cannot be negative, got -1",
    ),
    (
        lambda: fair.cut(tuple(range(106)), 106),
        "bad_cut",
        "PF-CUT-5",
        "the cut position must be from 1 to 105, got 106",
    ),
    (lambda: fair.cut_starter(1, 1, 0), "bad_seat_count", "PF-CUT-5", "no table has 0 seats"),
    (
        lambda: fair.cut_starter(5, 1, 4),
        "bad_seat",
        "PF-CUT-5",
        "the host's seat must be from 1 to 4, got 5",
    ),
    (
        lambda: fair.cut_starter(1, 15, 4),
        "bad_cut_count",
        "PF-CUT-5",
        "a cut card counts from 1 (ace) to 14 (joker), got 15",
    ),
]


@pytest.mark.parametrize(("call", "code", "rule_id", "message"), _REFUSALS)
def test_every_refusal_names_its_code_its_rule_and_a_sentence(
    call: Callable[[], object], code: str, rule_id: str, message: str
) -> None:
    """PF-AMB-12, PF-FAIR-4, PF-FAIR-6, PF-CUT-5: bad input gets a clear error, with the
    rule it breaks (the rule IDs were never asserted before)."""
    with pytest.raises(RuleViolation) as info:
        call()
    assert info.value.as_dict() == {"code": code, "rule_id": rule_id, "message": message}


def test_one_seat_one_ace_and_a_one_seat_table_are_the_smallest_legal_values() -> None:
    """PF-FAIR-6, PF-CUT-5: a draw among one seat, an ace cut (v = 1: the host starts)."""
    assert fair.first_draw(bytes(32), NO_SEEDS, 1) == 1
    assert fair.cut_starter(3, 1) == 3
    assert fair.cut_starter(1, 14, n_seats=1) == 1


# --- the shuffle's inlined stream: rejection and refill (issue 10 item 15) ----------------


def _primed(words: list[int], label: str = "primed") -> fair.Stream:
    """A stream whose next words are `words`, then its own blocks from block 0."""
    stream = fair.Stream(bytes(32), label, NO_SEEDS)
    stream._words = list(words)
    return stream


def _ref_primed(items: Sequence[T], words: list[int], label: str = "primed") -> list[T]:
    """Fisher–Yates (PF-AMB-12 e) over the same words, drawn by the naive reference."""
    out, stream = list(items), itertools.chain(words, _ref_words(bytes(32), label, NO_SEEDS))
    for i in range(len(out) - 1, 0, -1):
        j = _ref_uniform(stream, i + 1)
        out[i], out[j] = out[j], out[i]
    return out


def test_the_shuffle_rejects_words_at_or_above_the_limit_and_refills_its_words() -> None:
    """PF-AMB-12 d/e: with three items the first step draws uniform(3), whose limit is
    2^32 - 1; nine words of 2^32 - 1 are all rejected, the stream then computes its next
    block. Real decks almost never reject a word, so only primed words reach this path."""
    rejected = [SPAN - 1] * 9
    out = ["a", "b", "c"]
    _primed(rejected)._permute(out)
    assert out == _ref_primed(["a", "b", "c"], rejected)


def test_a_long_shuffle_refills_in_the_middle_and_the_stream_continues_after_it() -> None:
    """PF-AMB-12 c/e: ten rejections at the third step of a 30-item shuffle (uniform(28)
    rejects words from 2^32 - 4) need more words than were fetched up front; afterwards the
    stream goes on with its next unread word."""
    primed = [7, 5, *[SPAN - 1] * 10, 3]
    stream = _primed(primed)
    out = list(range(30))
    stream._permute(out)
    assert out == _ref_primed(range(30), primed)
    follow = itertools.chain(primed, _ref_words(bytes(32), "primed", NO_SEEDS))
    used = sum(1 for _ in _ref_primed_words(30, follow))
    rest = itertools.chain(primed, _ref_words(bytes(32), "primed", NO_SEEDS))
    expected_next = next(itertools.islice(rest, used, None))
    assert stream.uniform(SPAN) == expected_next


def _ref_primed_words(n: int, words: Iterator[int]) -> Iterator[int]:
    """The words a shuffle of n items consumes, rejected ones included."""
    for i in range(n - 1, 0, -1):
        limit = (SPAN // (i + 1)) * (i + 1)
        while True:
            word = next(words)
            yield word
            if word < limit:
                break
