"""The provably fair randomness of every game (PF-FAIR-1..7, PF-AMB-12, PF-CUT-5).

Each unit of play (a Banakil deal, a rummy round, a Bunco round) owns a 32-byte secret S,
committed as ``commitment(S)`` before the unit starts and revealed when it ends. Every
random choice of the unit is read from an HMAC-SHA256 word stream keyed by S and named by
a label (``"deal"``, ``"reshuffle:k"``, ``"first"``, ``"autocut"``, ``"dice"``), mixed with
the players' client seeds through E = ``entropy(seeds)``. ``docs/fairness.md`` restates
the algorithm for re-implementers, with known-answer vectors.

The module never draws randomness itself: the secret and the seeds arrive as arguments, so
the same inputs always give the same deck (replay and the Verify page depend on that).

There is one form of E only. No seats or no seeds at all is ``entropy([])``, the hash of
the empty string; seats that sent nothing contribute empty seeds, so four silent seats
give the hash of ``"\\n\\n\\n"``, which differs from ``entropy([])``. One silent seat
alone (the dice tool's phone, PF-DICE-1) gives ``entropy([""])``, the same hash as
``entropy([])``: both are the empty string hashed, which is what PF-AMB-12 h defines.
"""

from __future__ import annotations

import hashlib
import struct
from collections.abc import Sequence
from typing import TypeVar

from engine.cards import JOKER, RANKS, Card, canonical_deck, face, parse_card
from engine.errors import RuleViolation

__all__ = [
    "ALGORITHM",
    "Stream",
    "auto_cut",
    "commitment",
    "cut",
    "cut_count",
    "cut_starter",
    "deal_deck",
    "dice",
    "entropy",
    "first_draw",
    "parse_secret",
    "reshuffle",
    "shuffle",
]

T = TypeVar("T")

ALGORITHM = "sahra-fair-v1"

_SECRET_BYTES = 32
_SEED_MAX = 64
_WORD_SPAN = 1 << 32
# A block's digest is eight 32-bit big-endian words, word 0 first (PF-AMB-12 c).
_BLOCK_WORDS = 8
_HASH_BLOCK = 64  # SHA-256's block, to which an HMAC key is padded (RFC 2104)
_IPAD = bytes(b ^ 0x36 for b in range(256))
_OPAD = bytes(b ^ 0x5C for b in range(256))
_HEX = frozenset("0123456789abcdef")
_PRINTABLE = frozenset(chr(c) for c in range(0x20, 0x7F))
_CUT_COUNT = {name: i + 1 for i, name in enumerate(RANKS)} | {JOKER: 14}
_AUTOCUT_POSITIONS = 105  # PF-CUT-1: positions 1..105 of the 106-card Banakil deck


def commitment(secret: bytes) -> str:
    """C = lowercase hex SHA-256(S), published before the unit starts (PF-FAIR-2)."""
    _check_secret(secret)
    return hashlib.sha256(secret).hexdigest()


def entropy(client_seeds: Sequence[str]) -> str:
    """E = lowercase hex SHA-256 of the seats' client seeds, in seat order, joined by "\\n".

    A seat that sent nothing (or a bot) is an empty string, not left out, so the seat
    order is kept. Seeds cannot contain "\\n", which makes the join unambiguous.
    """
    if isinstance(client_seeds, str):
        # A bare string is a Sequence[str] of characters: almost surely a caller's slip.
        raise RuleViolation(
            "bad_client_seed", "PF-AMB-12", "client seeds are a list with one seed per seat"
        )
    for seat, seed in enumerate(client_seeds, start=1):
        if not isinstance(seed, str) or len(seed) > _SEED_MAX or not _PRINTABLE.issuperset(seed):
            raise RuleViolation(
                "bad_client_seed",
                "PF-AMB-12",
                f"the client seed of seat {seat} must be 0 to {_SEED_MAX} printable ASCII "
                "characters (space to '~')",
            )
    return hashlib.sha256("\n".join(client_seeds).encode("ascii")).hexdigest()


def parse_secret(hex_text: str) -> bytes:
    """A revealed secret written as 64 hex characters (either case) → its 32 bytes."""
    text = hex_text if isinstance(hex_text, str) else ""
    if len(text) != 2 * _SECRET_BYTES or not _HEX.issuperset(text.lower()):
        raise RuleViolation(
            "bad_secret",
            "PF-AMB-12",
            f"a secret is {2 * _SECRET_BYTES} hex characters (32 bytes), got {hex_text!r:.80}",
        )
    return bytes.fromhex(text)


class Stream:
    """The word stream of one (secret, label, E): ``uniform(n)`` draws from it in order.

    Block i is HMAC-SHA256(key=S, msg=f"{label}:{E}:{i}"), read as eight 32-bit
    big-endian words; words are consumed in order, block after block.
    """

    __slots__ = ("_block", "_inner", "_outer", "_pos", "_words")

    def __init__(self, secret: bytes, label: str, entropy_hex: str) -> None:
        _check_secret(secret)
        _check_label(label)
        _check_entropy(entropy_hex)
        # HMAC(K, m) = H((K ^ opad) || H((K ^ ipad) || m)) (RFC 2104), with K the 32-byte
        # secret padded to SHA-256's 64-byte block. Both keyed hashes are made once and
        # copied per block: the same digest as hmac.new(...).copy(), at about 0.6 of its
        # cost (the hmac object's copy is Python code; hashlib's is C).
        # Every block's message starts with the same prefix, so the inner hash takes it in
        # once too: a block then hashes only its counter, one SHA-256 compression fewer.
        key = secret.ljust(_HASH_BLOCK, b"\0")
        self._inner = hashlib.sha256(key.translate(_IPAD))
        self._inner.update(f"{label}:{entropy_hex}:".encode("ascii"))
        self._outer = hashlib.sha256(key.translate(_OPAD))
        self._block = 0
        self._words: list[int] = []
        self._pos = 0

    def uniform(self, n: int) -> int:
        """A uniform integer in [0, n) by rejection sampling (PF-AMB-12 d)."""
        if not isinstance(n, int) or not 1 <= n <= _WORD_SPAN:
            raise RuleViolation(
                "bad_range", "PF-AMB-12", f"uniform(n) needs 1 <= n <= 2**32, got {n!r}"
            )
        return self._below(n)

    def draws(self, n: int, count: int) -> list[int]:
        """The next ``count`` draws of ``uniform(n)``, in order: the same integers as
        ``count`` calls, read a block at a time (a Bunco round's dice, PF-DICE-2)."""
        if not isinstance(n, int) or not 1 <= n <= _WORD_SPAN:
            raise RuleViolation(
                "bad_range", "PF-AMB-12", f"uniform(n) needs 1 <= n <= 2**32, got {n!r}"
            )
        if not isinstance(count, int) or count < 0:
            raise RuleViolation(
                "bad_draw_count", "PF-AMB-12", f"draws(n, count) needs count >= 0, got {count!r}"
            )
        limit = _WORD_SPAN - _WORD_SPAN % n
        out: list[int] = []
        while len(out) < count:
            need = count - len(out)
            self._reserve(need)
            words, pos = self._words, self._pos
            self._pos = pos + need
            # a rejected word is skipped, as _below skips it: the next word is the draw
            out += [word % n for word in words[pos : pos + need] if word < limit]
        return out

    def _below(self, n: int) -> int:
        limit = _WORD_SPAN - _WORD_SPAN % n  # == (2**32 // n) * n
        while True:
            if self._pos == len(self._words):
                self._reserve(1)
            word = self._words[self._pos]
            self._pos += 1
            if word < limit:
                return word % n

    def _permute(self, out: list[T]) -> None:
        """Fisher–Yates in place, from the last index down (PF-AMB-12 e).

        Inlines ``_below`` because this loop is the hot path of every deal.
        """
        # One word per step unless a word is rejected, so fetch them all up front.
        self._reserve(len(out) - 1)
        words, pos = self._words, self._pos
        for i in range(len(out) - 1, 0, -1):
            n = i + 1
            limit = _WORD_SPAN - _WORD_SPAN % n
            while True:
                if pos == len(words):
                    self._pos = pos
                    self._reserve(1)
                    words, pos = self._words, self._pos
                word = words[pos]
                pos += 1
                if word < limit:
                    break
            j = word % n
            out[i], out[j] = out[j], out[i]
        self._pos = pos

    def _reserve(self, count: int) -> None:
        """Make at least ``count`` unread words available, computing whole blocks."""
        if self._pos:
            del self._words[: self._pos]
            self._pos = 0
        missing = count - len(self._words)
        if missing <= 0:
            return
        first, blocks = self._block, -(-missing // _BLOCK_WORDS)
        self._block = first + blocks
        inner, outer = self._inner, self._outer
        digests = []
        for i in range(first, first + blocks):
            mac = inner.copy()
            mac.update(str(i).encode("ascii"))
            outside = outer.copy()
            outside.update(mac.digest())
            digests.append(outside.digest())
        # the blocks' words in order, block after block (PF-AMB-12 c), unpacked at once
        self._words += struct.unpack(f">{_BLOCK_WORDS * blocks}I", b"".join(digests))


def shuffle(items: Sequence[T], secret: bytes, label: str, entropy_hex: str) -> tuple[T, ...]:
    """Fisher–Yates over ``items`` from the stream (secret, label, E); index 0 = top."""
    out = list(items)
    Stream(secret, label, entropy_hex)._permute(out)
    return tuple(out)


def deal_deck(secret: bytes, entropy_hex: str, game: str = "banakil") -> tuple[Card, ...]:
    """The unit's deck: the canonical deck shuffled under label "deal" (PF-FAIR-1)."""
    return shuffle(canonical_deck(game), secret, "deal", entropy_hex)


def reshuffle(
    ground_without_top_bottom_to_top: Sequence[T], secret: bytes, entropy_hex: str, k: int
) -> tuple[T, ...]:
    """The k-th ground reshuffle of a deal (k = 1 first), from the deal's secret (PF-FAIR-4).

    The input is the ground without its top card, listed from the bottom card up; the
    result is the new stock, top first.
    """
    if not isinstance(k, int) or k < 1:
        raise RuleViolation(
            "bad_reshuffle_number", "PF-FAIR-4", f"reshuffles are numbered from 1, got {k!r}"
        )
    return shuffle(ground_without_top_bottom_to_top, secret, f"reshuffle:{k}", entropy_hex)


def first_draw(secret: bytes, entropy_hex: str, n_seats: int) -> int:
    """The fair draw (first dealer, first player): a seat from 1 to n_seats (PF-FAIR-6)."""
    if not isinstance(n_seats, int) or n_seats < 1:
        raise RuleViolation(
            "bad_seat_count", "PF-FAIR-6", f"a fair draw needs at least one seat, got {n_seats!r}"
        )
    return 1 + Stream(secret, "first", entropy_hex).uniform(n_seats)


def auto_cut(secret: bytes, entropy_hex: str) -> int:
    """The system's cut position when the host does not cut: 1 to 105 (PF-AMB-2)."""
    return 1 + Stream(secret, "autocut", entropy_hex).uniform(_AUTOCUT_POSITIONS)


def dice(secret: bytes, entropy_hex: str, count: int) -> tuple[int, ...]:
    """The unit's first ``count`` dice, in log order, each 1 to 6 (PF-DICE-2, PF-FAIR-6)."""
    if not isinstance(count, int) or count < 0:
        raise RuleViolation(
            "bad_dice_count", "PF-FAIR-6", f"the number of dice cannot be negative, got {count!r}"
        )
    return tuple(1 + d for d in Stream(secret, "dice", entropy_hex).draws(6, count))


def cut(deck: Sequence[T], k: int) -> tuple[T, ...]:
    """A real cut at position k: the top k cards go under the rest (PF-CUT-5).

    The cut card, formerly at position k (1-based), is the bottom card of the result.
    """
    if not isinstance(k, int) or not 1 <= k <= len(deck) - 1:
        raise RuleViolation(
            "bad_cut",
            "PF-CUT-5",
            f"the cut position must be from 1 to {len(deck) - 1}, got {k!r}",
        )
    return (*deck[k:], *deck[:k])


def cut_count(card: str) -> int:
    """The count v of a cut card, face or identity: A = 1 … K = 13, joker = 14 (PF-CUT-5)."""
    f = face(parse_card(card))
    return _CUT_COUNT[JOKER if f == JOKER else f[:-1]]


def cut_starter(host_seat: int, v: int, n_seats: int = 4) -> int:
    """The starting seat: the host advanced (v - 1) mod n_seats seats (PF-CUT-5, PF-EX-1)."""
    if not isinstance(n_seats, int) or n_seats < 1:
        raise RuleViolation("bad_seat_count", "PF-CUT-5", f"no table has {n_seats!r} seats")
    if not isinstance(host_seat, int) or not 1 <= host_seat <= n_seats:
        raise RuleViolation(
            "bad_seat",
            "PF-CUT-5",
            f"the host's seat must be from 1 to {n_seats}, got {host_seat!r}",
        )
    if not isinstance(v, int) or not 1 <= v <= 14:
        raise RuleViolation(
            "bad_cut_count", "PF-CUT-5", f"a cut card counts from 1 (ace) to 14 (joker), got {v!r}"
        )
    return (host_seat - 1 + v - 1) % n_seats + 1


def _check_secret(secret: bytes) -> None:
    if not isinstance(secret, bytes) or len(secret) != _SECRET_BYTES:
        raise RuleViolation("bad_secret", "PF-AMB-12", f"a secret is exactly {_SECRET_BYTES} bytes")


def _check_label(label: str) -> None:
    # Any printable label is unambiguous: E has a fixed length and i is the last field.
    if not isinstance(label, str) or not label or not _PRINTABLE.issuperset(label):
        raise RuleViolation(
            "bad_label", "PF-AMB-12", f"a stream label is non-empty printable ASCII, got {label!r}"
        )


def _check_entropy(entropy_hex: str) -> None:
    if (
        not isinstance(entropy_hex, str)
        or len(entropy_hex) != 64
        or not _HEX.issuperset(entropy_hex)
    ):
        raise RuleViolation(
            "bad_entropy",
            "PF-AMB-12",
            "E must be the 64 lowercase hex characters returned by entropy(client_seeds)",
        )
