"""Card identities and the text notation used in every file and message.

A face is written rank + suit: ranks ``A 2 … 10 J Q K``, suits ``S H D C``, jokers ``JK``
(``10H``, ``AS``, ``2C``, ``JK``). Banakil plays with two decks, so every physical card also
has an identity: its face plus the copy, ``7H#1`` or ``7H#2`` (``JK#1``, ``JK#2``). Events
name identities, so the log says which copy was melded and by whom; commands may name a
bare face and the engine picks the copy in the hand.

The canonical order (PF-AMB-12 f) is the order before shuffling: first deck then second
deck, suits ♣ ♦ ♥ ♠, ranks A 2 … 10 J Q K, jokers last.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from engine.errors import RuleViolation

__all__ = [
    "BANAKIL_DECK",
    "FACE_RANK",
    "JOKER",
    "RANK",
    "RANKS",
    "SUIT",
    "SUITS",
    "Card",
    "canonical_deck",
    "face",
    "faces",
    "is_joker",
    "is_two",
    "parse_card",
    "parse_face",
    "rank_name",
    "stack_deck",
]

Card = str  # an identity such as "7H#2"

RANKS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS: tuple[str, ...] = ("C", "D", "H", "S")  # canonical order ♣ ♦ ♥ ♠
JOKER = "JK"
_RANK_OF_NAME = {name: i + 1 for i, name in enumerate(RANKS)}


def _deck(copies: int, jokers: int) -> tuple[Card, ...]:
    cards = [
        f"{rank}{suit}#{copy}" for copy in range(1, copies + 1) for suit in SUITS for rank in RANKS
    ]
    cards += [f"{JOKER}#{copy}" for copy in range(1, jokers + 1)]
    return tuple(cards)


BANAKIL_DECK: tuple[Card, ...] = _deck(2, 2)

# Lookups by identity: faster than parsing in the hot paths of the engine.
FACE_RANK: dict[str, int] = {f"{r}{s}": i + 1 for i, r in enumerate(RANKS) for s in SUITS}
FACE_RANK[JOKER] = 0
RANK: dict[Card, int] = {}  # A = 1 … K = 13, joker = 0
SUIT: dict[Card, str] = {}  # "" for a joker
for _card in BANAKIL_DECK:
    _face = _card.split("#")[0]
    if _face == JOKER:
        RANK[_card], SUIT[_card] = 0, ""
    else:
        RANK[_card], SUIT[_card] = _RANK_OF_NAME[_face[:-1]], _face[-1]


_FACE: dict[Card, str] = {c: c.split("#", 1)[0] for c in BANAKIL_DECK}


def canonical_deck(game: str = "banakil") -> tuple[Card, ...]:
    """The unshuffled deck of a game, in canonical order."""
    if game == "banakil":
        return BANAKIL_DECK
    raise RuleViolation("unknown_game", "", f"no deck is defined for game {game!r}")


def face(card: Card) -> str:
    """``7H#2`` → ``7H``."""
    known = _FACE.get(card)
    return known if known is not None else card.split("#", 1)[0]


def is_joker(card: Card) -> bool:
    return RANK[card] == 0


def is_two(card: Card) -> bool:
    return RANK[card] == 2


def rank_name(rank: int) -> str:
    return "JK" if rank == 0 else RANKS[(rank - 1) % 13]


def parse_face(text: str) -> str:
    """Validate a face such as ``10H``; lower case is accepted and normalised."""
    t = text.strip().upper()
    if t == JOKER:
        return t
    if len(t) >= 2 and t[:-1] in _RANK_OF_NAME and t[-1] in SUITS:
        return t
    raise RuleViolation(
        "bad_card",
        "",
        f"{text!r} is not a card: write rank (A 2 … 10 J Q K) then suit (S H D C), or JK",
    )


def parse_card(text: str) -> str:
    """A face (``7H``) or an identity (``7H#2``), validated and normalised."""
    base, sep, copy = text.strip().partition("#")
    f = parse_face(base)
    if not sep:
        return f
    if copy not in ("1", "2"):
        raise RuleViolation("bad_card", "", f"{text!r}: the copy after '#' must be 1 or 2")
    return f"{f}#{copy}"


def stack_deck(faces: Sequence[str], game: str = "banakil") -> tuple[Card, ...]:
    """Turn an explicit deck order (faces, top first) into identities.

    The first occurrence of a face becomes copy 1, the second copy 2. The list must hold
    every card of the game's deck exactly once.
    """
    deck = canonical_deck(game)
    seen: dict[str, int] = {}
    out: list[Card] = []
    for text in faces:
        f = face(parse_card(text))
        seen[f] = seen.get(f, 0) + 1
        out.append(f"{f}#{seen[f]}")
    missing = sorted(set(deck) - set(out))
    extra = [c for c in out if c not in RANK]
    if extra or missing or len(out) != len(deck):
        raise RuleViolation(
            "bad_deck",
            "BK-DECK-1",
            f"a stacked deck must hold the {len(deck)} cards exactly once each; "
            f"missing {[face(c) for c in missing][:6]}, too many {[face(c) for c in extra][:6]}",
        )
    return tuple(out)


def faces(cards: Iterable[Card]) -> list[str]:
    return [face(c) for c in cards]
