"""Search secrets for the Manipulation lesson (engine/rummy/tutorial.py, PF-MODE-3).

    .venv/bin/python -m scripts.find_rummy_lesson [first] [count] [only ...]

Tries the secrets SHA-256("sahra rummy lesson <i>") for i in [first, first + count) (or
only the listed i of that range), deals each as the engine does (2 seats, empty client
seeds: PF-AMB-14) and keeps those where the learner, in seat 1, plays first and a short
round shows, each once and in any order: a set or run laid from the hand, one hand card
added to a group on the table, a rearrangement as RM-EX-3 (one or two table cards taken
out of groups that stay valid, forming a new group with hand cards), and a draw when
nothing can be played (RM-MAN-4; up to three); then Draw pressed while a move exists (the
reminder of RM-OPT-1a), the move the reminder shows, and, best, the last card played
(RM-MOVE-7). The computer, between the learner's turns, lays a set or run or adds a card
to a group when it can (each choice is a branch), else draws (eight at most); a branch
where it could only play by rearranging, which would be a reminder in its turn, is
dropped. Whether a move exists, and the reminder's card, are the engine's own answers
(engine/rummy/search.py). Prints the lessons found, those going out first, as the data of
engine/rummy/tutorial_script.py (SECRET and SCRIPT).

The lesson of tutorial_script.py is secret 20862, the one lesson going out among the
secrets 0..39999 (`.venv/bin/python -m scripts.find_rummy_lesson 20862 1`).
"""

from __future__ import annotations

import hashlib
import sys
from collections.abc import Iterator, Sequence
from itertools import combinations

from engine import fair
from engine.rummy.deal import deal, first_player
from engine.rummy.search import find_move, hint
from engine.rummy.tutorial_script import Edit, Move, play_of
from engine.rummy.variants import MANIPULATION

_PLACE = {r: i for i, r in enumerate(("2", "3", "4", "5", "6", "7", "8", "9", "10"), 2)}
_PLACE.update({"J": 11, "Q": 12, "K": 13, "A": 14})  # RM-ACE-1: the ace high only
_SUIT_ORDER = "CDHS"
_MAX_COMPUTER_DRAWS = 8


def face(card: str) -> str:
    return card.split("#", maxsplit=1)[0]


def place_suit(f: str) -> tuple[int, str]:
    return _PLACE[f[:-1]], f[-1]


def valid(cards: Sequence[str]) -> bool:
    faces = [place_suit(face(c)) for c in cards]
    if len(faces) < 3 or len(set(faces)) < len(faces):
        return False
    places = sorted(p for p, _ in faces)
    suits = {s for _, s in faces}
    if len(set(places)) == 1:
        return len(faces) <= 4
    return len(suits) == 1 and places == list(range(places[0], places[0] + len(places)))


def move_exists(table: Sequence[Sequence[str]], hand: Sequence[str]) -> bool:
    """Exact: the engine's move search (engine/rummy/search.py)."""
    return find_move(table, {}, hand, MANIPULATION) is not None


def lays(hand: Sequence[str]) -> list[Edit]:
    """Every set and run the hand holds, the longest first (one copy of each face)."""
    by_face: dict[str, str] = {}
    for card in sorted(hand, key=_order):
        by_face.setdefault(face(card), card)
    out: list[tuple[str, ...]] = []
    ranks: dict[int, list[str]] = {}
    suits: dict[str, dict[int, str]] = {}
    for f, card in by_face.items():
        p, s = place_suit(f)
        ranks.setdefault(p, []).append(card)
        suits.setdefault(s, {})[p] = card
    for cards in ranks.values():
        for k in (3, 4):
            out.extend(combinations(cards, k))
    for places in suits.values():
        for low in places:
            high = low
            while high + 1 in places:
                high += 1
                if high - low >= 2:
                    out.append(tuple(places[p] for p in range(low, high + 1)))
    out.sort(key=len, reverse=True)
    return [("lay", tuple(sorted(g, key=_order))) for g in out]


def adds(table: Sequence[Sequence[str]], hand: Sequence[str]) -> list[Edit]:
    return [
        ("add", i, (c,))
        for c in sorted(hand, key=_order)
        for i, g in enumerate(table)
        if valid((*g, c))
    ]


def takes(table: Sequence[Sequence[str]], hand: Sequence[str]) -> list[Edit]:
    """RM-EX-3's rearrangement: one or two table cards leave their groups (each stays
    valid, or splits into two valid runs) and form a new group with hand cards."""
    free: list[tuple[int, str]] = []
    for i, g in enumerate(table):
        for t in g:
            after = play_of(table, (("take", ((i, t),), ()),))
            if all(valid(x) for x in after[:-1]):
                free.append((i, t))
    out: list[Edit] = []
    mine = sorted(hand, key=_order)
    for k in (1, 2):
        for taken in combinations(free, k):
            if len({i for i, _ in taken}) < k:
                continue
            for pick in combinations(mine, 3 - k):
                if valid((*(t for _, t in taken), *pick)):
                    out.append(("take", taken, pick))
    return out


def _order(card: str) -> tuple[int, int]:
    p, s = place_suit(face(card))
    return _SUIT_ORDER.index(s), p % 14  # RM-AMB-5's hand order: suit, then A..K


class Game:
    def __init__(self, hands: list[list[str]], stock: list[str]) -> None:
        self.hands = hands
        self.stock = stock
        self.table: tuple[tuple[str, ...], ...] = ()

    def copy(self) -> Game:
        g = Game([list(h) for h in self.hands], list(self.stock))
        g.table = self.table
        return g

    def draw(self, seat: int) -> str:
        card = self.stock.pop(0)
        self.hands[seat - 1].append(card)
        return card

    def play(self, seat: int, move: tuple[Edit, ...]) -> None:
        after = play_of(self.table, move)
        added = {c for g in after for c in g} - {c for g in self.table for c in g}
        self.hands[seat - 1] = [c for c in self.hands[seat - 1] if c not in added]
        self.table = after


def computer_turns(game: Game) -> Iterator[tuple[Game, tuple[Move, ...]]]:
    """The computer's turn (seat 2), each choice it may make."""
    g = game.copy()
    moves: list[Move] = []
    for _ in range(_MAX_COMPUTER_DRAWS + 1):
        hand = g.hands[1]
        simple = lays(hand) + adds(g.table, hand)
        if simple:
            for edit in simple:
                after = g.copy()
                after.play(2, (edit,))
                if len(after.hands[1]) >= 2:
                    yield after, (*moves, (edit,))
            return
        if move_exists(g.table, hand):
            return  # a reminder in the computer's turn: not this lesson
        g.draw(2)
        moves.append("draw")


Lesson = list[tuple[str, Move, tuple[Move, ...]]]
_TOPICS = ("lay", "add", "take")
_MAX_STEPS = 9
_MAX_DRAWS = 3


def lessons(secret: bytes) -> Iterator[Lesson]:
    entropy = fair.entropy(("", ""))
    first = first_player(secret, entropy, 2, 1, 0)
    if first != 1:
        return
    hands, _, stock = deal(MANIPULATION, 2, secret, entropy, first)
    yield from _turn(Game([list(h) for h in hands], list(stock)), [], frozenset())


def _turn(game: Game, done: Lesson, covered: frozenset[str]) -> Iterator[Lesson]:
    """The learner's turn: draw while nothing can be played (once in the lesson), else one
    of the topics not yet shown; once they all are, the reminder and the end."""
    if len(done) >= _MAX_STEPS:
        return
    hand, table = game.hands[0], game.table
    if not move_exists(table, hand):
        if sum(step[0] == "draw_nothing" for step in done) >= _MAX_DRAWS:
            return
        g = game.copy()
        g.draw(1)
        yield from _turn(g, [*done, ("draw_nothing", "draw", ())], covered | {"draw"})
        return
    if covered >= {"draw", *_TOPICS}:
        end = _out(game)
        if end is None:
            return
        if end[0] == "out":
            yield [*done, ("remind", "draw", ()), (*end, ())]
            return
        g = game.copy()
        g.play(1, end[1])
        for gc, c in computer_turns(g):
            last = _all_of(gc)
            if last is not None:
                yield [*done, ("remind", "draw", ()), ("play", end[1], c), ("out", last, ())]
        return
    for topic in _TOPICS:
        if topic in covered:
            continue
        if topic == "lay":
            edits = lays(hand)
        elif topic == "add":
            edits = adds(table, hand)
        else:
            edits = takes(table, hand)
        for edit in edits:
            g = game.copy()
            g.play(1, (edit,))
            if len(g.hands[0]) < 1:
                continue
            for gc, c in computer_turns(g):
                yield from _turn(gc, [*done, (topic, (edit,), c)], covered | {topic})


def _out(game: Game) -> tuple[str, tuple[Edit, ...]] | None:
    """The reminder's move (the engine's hint, RM-AMB-5), when it rearranges nothing, as
    edits; then, if they fit, every other hand card added to a group ("out": the move
    empties the hand), else that move alone ("play")."""
    hand = game.hands[0]
    shown = hint(game.table, {}, hand, MANIPULATION)
    if shown is None or shown.rearranges:
        return None
    old = {frozenset(g): i for i, g in enumerate(game.table)}
    edits: list[Edit] = []
    for group in shown.move.table:
        if frozenset(group) in old:
            continue
        grown = [i for i, g in enumerate(game.table) if set(g) < set(group)]
        if grown:
            extra = tuple(c for c in group if c not in game.table[grown[0]])
            edits.append(("add", grown[0], extra))
        else:
            edits.append(("lay", tuple(group)))
    table = play_of(game.table, tuple(edits))
    if {c for g in table for c in g} != {c for g in shown.move.table for c in g}:
        return None
    rest = list(edits)
    played = set(shown.move.added)
    for card in sorted(hand, key=_order):
        if card in played:
            continue
        more = adds(table, [card])
        if not more:
            return "play", tuple(edits)
        rest.append(more[0])
        table = play_of(table, (more[0],))
    return "out", tuple(rest)


def _all_of(game: Game) -> Move | None:
    """Every hand card added to a group or laid, in one move that empties the hand."""
    table = game.table
    edits: list[Edit] = []
    left = sorted(game.hands[0], key=_order)
    for lay in lays(left):
        if len(lay[1]) == len(left):
            return (lay,)
    for card in left:
        more = adds(table, [card])
        if not more:
            return None
        edits.append(more[0])
        table = play_of(table, (more[0],))
    return tuple(edits)


def main() -> None:
    first = int(sys.argv[1]) if len(sys.argv) > 1 else 0
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 2000
    only = {int(a) for a in sys.argv[3:]}  # optional: just these secrets of the range
    found = []
    for i in range(first, first + count):
        if only and i not in only:
            continue
        secret = hashlib.sha256(f"sahra rummy lesson {i}".encode()).digest()
        for lesson in lessons(secret):
            draws = sum(m == "draw" for _, _, c in lesson for m in c)
            found.append((lesson[-1][0] != "out", len(lesson), draws, i, secret.hex(), lesson))
            if lesson[-1][0] == "out" or len(found) > 200:
                break
    found.sort(key=lambda f: f[:4])
    print(f"# {len(found)} lessons in secrets {first}..{first + count - 1}")
    for _, _, draws, i, hexed, lesson in found[:5]:
        print(f"\n# secret {i}: the computer draws {draws} cards in all")
        print(f'SECRET = "{hexed}"')
        print("SCRIPT = (")
        for topic, move, computer in lesson:
            print(f"    Step({topic!r}, {move!r}, {computer!r}),")
        print(")")


if __name__ == "__main__":
    main()
