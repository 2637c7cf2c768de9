"""engine/rummy/moves.py against the independent oracle of tests/property/rummy_oracle.py.

A random valid table is dealt (runs and sets, some cards replaced by jokers named as them,
Tahiti singletons), then edited as a player would: groups extended from the hand, new
groups laid, jokers freed by their real card from the hand or from another group and
placed again (renamed, kept, left off), jokers carried to other groups or renamed without
being freed, runs split, cards shifted between groups, singletons used, hand jokers laid
with and without a name, and now and then a plain fault (a card dropped, one from nowhere,
a name for a plain card). check_move must accept exactly the moves the oracle accepts,
with the same joker names, in Carousel, Vatican, Tahiti and a joker-less variant.

Rules: RM-JOKER-1..5, RM-CAR-5, RM-CAR-6, RM-CAR-7, RM-VAT-4, RM-VAT-5, RM-TAH-3,
RM-TAH-7..10, RM-AMB-7, RM-AMB-8, RM-AMB-9, RM-AMB-10, RM-AMB-24, RM-AMB-25, RM-MOVE-1,
RM-MOVE-3, RM-MOVE-5.
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable, Sequence
from typing import NamedTuple, Protocol, TypeVar

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.rummy.groups import TableViolation
from engine.rummy.moves import check_move
from engine.rummy.variants import VARIANTS
from tests.property.rummy_oracle import VARIANT_RULES, move_outcome

_NAMES = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
_SUITS = ("C", "D", "H", "S")
_EXAMPLES = int(os.environ.get("SAHRA_ORACLE_EXAMPLES", "300"))
_SETTINGS = settings(
    max_examples=_EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)

T = TypeVar("T")
Names = dict[str, str]
Groups = list[list[str]]


class Case(NamedTuple):
    variant: str
    before: Groups
    before_names: Names
    after: Groups
    after_names: Names
    hand: list[str]
    first_play: bool
    edits: list[str]


class Pick(Protocol):
    def int(self, low: int, high: int) -> int: ...
    def one(self, options: Sequence[T]) -> T: ...


class _Drawn:
    """Choices drawn by Hypothesis (so failures shrink)."""

    def __init__(self, draw: st.DrawFn) -> None:
        self._draw = draw

    def int(self, low: int, high: int) -> int:
        return self._draw(st.integers(low, high))

    def one(self, options: Sequence[T]) -> T:
        return self._draw(st.sampled_from(options))


class _Seeded:
    """Choices from a seeded generator (for counting what the moves look like)."""

    def __init__(self, seed: int) -> None:
        self._random = random.Random(seed)

    def int(self, low: int, high: int) -> int:
        return self._random.randint(low, high)

    def one(self, options: Sequence[T]) -> T:
        return options[self._random.randrange(len(options))]


def _place_name(place: int) -> str:
    return "A" if place in (1, 14) else _NAMES[place - 1]


def _base(card: str) -> str:
    return card.partition("#")[0]


class _Move:
    """A table being dealt and then edited; identities are handed out once each."""

    def __init__(self, pick: Pick, variant: str) -> None:
        self.pick = pick
        self.variant = variant
        low, high, per_group, singletons, first_run = VARIANT_RULES[variant]
        self.low, self.high, self.per_group = low, high, per_group
        self.singletons, self.first_run = singletons, first_run
        self.used: set[str] = set()
        self.jokers = 0
        self.before: Groups = []
        self.before_names: Names = {}
        self.hand: list[str] = []
        self.after: Groups = []
        self.after_names: Names = {}
        self.edits: list[str] = []
        self.first_play = False

    # dealing

    def take(self, face: str) -> str | None:
        for copy in ("1", "2"):
            card = f"{face}#{copy}"
            if card not in self.used:
                self.used.add(card)
                return card
        return None

    def joker(self) -> str | None:
        if self.jokers >= 4:
            return None
        self.jokers += 1
        return f"JK#{self.jokers}"

    def random_face(self) -> str:
        return self.pick.one(_NAMES) + self.pick.one(_SUITS)

    def group_faces(self) -> list[str]:
        if self.pick.int(0, 1):
            suit = self.pick.one(_SUITS)
            length = self.pick.int(3, 7)
            first = self.pick.int(1 if self.low else 2, (14 if self.high else 13) - length + 1)
            return [_place_name(p) + suit for p in range(first, first + length)]
        rank = self.pick.one(_NAMES)
        suits = list(_SUITS)
        if self.pick.int(0, 1):
            suits.pop(self.pick.int(0, 3))
        return [rank + s for s in suits]

    def deal(self) -> None:
        for _ in range(self.pick.int(1, 4)):
            group: list[str] = []
            names: Names = {}
            for f in self.group_faces():
                card: str | None = None
                if len(names) < self.per_group and self.pick.int(0, 4) == 0:
                    card = self.joker()
                    if card is not None:
                        names[card] = f
                group.append(card or self.take(f) or "")
            if all(group):
                self.before.append(group)
                self.before_names |= names
        for _, f in sorted(self.before_names.items()):
            kind = self.pick.int(0, 3)
            if kind:  # a set the joker could join as itself (RM-EX-17), or one holding
                # its real card, which can leave it and free the joker (RM-CAR-6)
                faces = [f[:-1] + s for s in _SUITS if kind > 1 or s != f[-1]]
                group = [self.take(face) or "" for face in faces]
                if all(group):
                    self.before.append(group)
        if self.singletons:
            for _ in range(self.pick.int(0, 4)):
                card = self.joker() if self.pick.int(0, 9) == 0 else self.take(self.random_face())
                if card is not None:
                    self.before.append([card])
        for _, f in sorted(self.before_names.items()):
            if self.pick.int(0, 3):
                self.add_to_hand(self.take(f))
        for g in self.before:
            for f in self.extensions(g, self.before_names):
                if self.pick.int(0, 1):
                    self.add_to_hand(self.take(f))
        for _ in range(self.pick.int(2, 5)):
            self.add_to_hand(self.take(self.random_face()))
        for _ in range(self.pick.int(0, 2) if self.per_group else 0):
            self.add_to_hand(self.joker())
        self.after = [list(g) for g in self.before]

    def add_to_hand(self, card: str | None) -> None:
        if card is not None:
            self.hand.append(card)

    # reading groups

    def names(self) -> Names:
        return {**self.before_names, **self.after_names}

    def extensions(self, group: Sequence[str], names: Names) -> list[str]:
        """Faces that would extend a group read as a set or a run: a run's two ends, or the
        one place missing inside it ([] if it is neither)."""
        faces = [names.get(c, _base(c)) for c in group]
        if any(f == "JK" for f in faces) or len(faces) < 2:
            return []
        ranks = {f[:-1] for f in faces}
        suits = {f[-1] for f in faces}
        if len(ranks) == 1:
            rank = faces[0][:-1]
            return [rank + s for s in _SUITS if rank + s not in faces] if len(faces) < 4 else []
        if len(suits) != 1:
            return []
        suit = faces[0][-1]
        places = sorted(_NAMES.index(f[:-1]) + 1 for f in faces)
        if places[0] == 1 and places[-1] >= 10:
            places = sorted(14 if p == 1 else p for p in places)
        holes = [p for p in range(places[0], places[-1]) if p not in places]
        if holes:
            return [_place_name(holes[0]) + suit] if len(holes) == 1 else []
        out = []
        if places[0] > (1 if self.low else 2):
            out.append(_place_name(places[0] - 1) + suit)
        if places[-1] < (14 if self.high else 13):
            out.append(_place_name(places[-1] + 1) + suit)
        return out

    def holds(self, group: Sequence[str], names: Names) -> bool:
        """Roughly: is the group a set or a run of three or more (the ace read as in
        extensions)?"""
        faces = [names.get(c, _base(c)) for c in group]
        if len(faces) < 3 or len(set(faces)) < len(faces) or "JK" in faces:
            return False
        if len({f[:-1] for f in faces}) == 1:
            return len(faces) <= 4
        if len({f[-1] for f in faces}) > 1:
            return False
        places = sorted(_NAMES.index(f[:-1]) + 1 for f in faces)
        if places[0] == 1 and places[-1] >= 10:
            places = sorted(14 if p == 1 else p for p in places)
        return places[-1] - places[0] == len(places) - 1

    def hand_left(self) -> list[str]:
        on_table = {c for g in self.after for c in g}
        return [c for c in self.hand if c not in on_table]

    def table_jokers(self) -> list[str]:
        return sorted(self.before_names)

    def home(self, card: str) -> int | None:
        return next((i for i, g in enumerate(self.after) if card in g), None)

    # edits

    def extend(self) -> None:
        if not self.after:
            return
        i = self.pick.int(0, len(self.after) - 1)
        wanted = self.extensions(self.after[i], self.names())
        left = self.hand_left()
        fits = [c for c in left if _base(c) in wanted]
        spare = [c for c in left if c.startswith("JK")]
        if fits and (not spare or self.pick.int(0, 2)):
            self.after[i].append(self.pick.one(fits))
        elif spare and wanted:
            card = self.pick.one(spare)
            self.after[i].append(card)
            if self.pick.int(0, 1):
                self.after_names[card] = self.pick.one(wanted)

    def lay(self) -> None:
        """A new group from the hand: three cards, or two and a hand joker."""
        left = self.hand_left()
        plain = [c for c in left if not c.startswith("JK")]
        spare = [c for c in left if c.startswith("JK")]
        if not plain:
            return
        first = self.pick.one(plain)
        partners = [c for c in plain if c != first and self.extensions([first, c], {})]
        holes = [c for c in partners if len(self.extensions([first, c], {})) == 1]
        if spare and holes and self.pick.int(0, 1):
            partners = holes  # a joker in the one place left: its name can be filled in
        if not partners:
            return
        second = self.pick.one(partners)
        group = [first, second]
        wanted = self.extensions(group, {})
        thirds = [c for c in plain if _base(c) in wanted and c not in group]
        if thirds and (not spare or self.pick.int(0, 1)):
            group.append(self.pick.one(thirds))
        elif spare and wanted:
            card = self.pick.one(spare)
            group.insert(self.pick.int(0, 2), card)
            if self.pick.int(0, 2) == 0:
                self.after_names[card] = self.pick.one(wanted)
        else:
            return
        self.after.append(group)

    def free(self) -> None:
        """The real card takes a joker's place; the joker goes somewhere, renamed or not."""
        jokers = [j for j in self.table_jokers() if self.home(j) is not None]
        if not jokers:
            return
        joker = self.pick.one(jokers)
        face = self.before_names[joker]
        mine = self.home(joker)
        assert mine is not None
        from_hand = [c for c in self.hand_left() if _base(c) == face]
        from_table = [
            (i, c)
            for i, g in enumerate(self.after)
            for c in g
            if _base(c) == face and i != mine and (len(g) > 3 or self.pick.int(0, 3) == 0)
        ]
        if from_hand and (not from_table or self.pick.int(0, 2)):
            real = self.pick.one(from_hand)
        elif from_table:
            i, real = self.pick.one(from_table)
            self.after[i].remove(real)
        else:
            return
        group = self.after[mine]
        group[group.index(joker)] = real
        self.place_joker(joker)

    def place_joker(self, joker: str) -> None:
        where = self.pick.int(0, 9)
        if where == 0:
            return  # left off the table
        targets = [
            (i, f) for i, g in enumerate(self.after) for f in self.extensions(g, self.names())
        ]
        if where <= 6 and targets:
            i, face = self.pick.one(targets)
            self.after[i].insert(self.pick.int(0, len(self.after[i])), joker)
        else:
            plain = [c for c in self.hand_left() if not c.startswith("JK")]
            pairs = [(a, b) for a in plain for b in plain if a < b and self.extensions([a, b], {})]
            if not pairs:
                return
            a, b = self.pick.one(pairs)
            face = self.pick.one(self.extensions([a, b], {}))
            self.after.append([a, joker, b])
        if self.pick.int(0, 5):
            self.after_names[joker] = face

    def carry(self) -> None:
        """A joker, not freed, to another group where its name fits, or to a new group;
        mostly one whose group holds without it."""
        jokers = [j for j in self.table_jokers() if self.home(j) is not None]
        names = self.names()
        spare = [
            j
            for j in jokers
            if self.holds([c for c in self.after[self.home(j) or 0] if c != j], names)
        ]
        if spare and self.pick.int(0, 3):
            jokers = spare
        if not jokers:
            return
        joker = self.pick.one(jokers)
        face = self.names()[joker]
        mine = self.home(joker)
        assert mine is not None
        targets = [
            i
            for i, g in enumerate(self.after)
            if i != mine and face in self.extensions(g, self.names())
        ]
        plain = [c for c in self.hand_left() if not c.startswith("JK")]
        pairs = [
            (a, b)
            for a in plain
            for b in plain
            if a < b and face in self.extensions([a, b], {}) and _base(a) != _base(b)
        ]
        if not targets and not pairs:
            return
        self.after[mine].remove(joker)
        if targets and (not pairs or self.pick.int(0, 1)):
            self.after[self.pick.one(targets)].append(joker)
        else:
            a, b = self.pick.one(pairs)
            self.after.append([a, b, joker])

    def rename(self) -> None:
        jokers = self.table_jokers()
        if jokers:
            joker = self.pick.one(jokers)
            mine = self.home(joker)
            options = self.extensions(self.after[mine], self.names()) if mine is not None else []
            self.after_names[joker] = self.pick.one(options or ["2H", "KS"])

    def split(self) -> None:
        runs = [i for i, g in enumerate(self.after) if len(g) >= 6]
        if runs:
            i = self.pick.one(runs)
            names = self.names()
            ordered = sorted(self.after[i], key=lambda c: _NAMES.index(names.get(c, _base(c))[:-1]))
            k = self.pick.int(3, len(ordered) - 3)
            self.after[i : i + 1] = [ordered[:k], ordered[k:]]

    def shift(self) -> None:
        """An end card of a long run, or a card of a four-set, to a group it extends."""
        if len(self.after) < 2:
            return
        names = self.names()
        moves = []
        for i, g in enumerate(self.after):
            if len(g) < 4:
                continue
            for c in g:
                if c.startswith("JK"):
                    continue
                for k, h in enumerate(self.after):
                    if k != i and _base(c) in self.extensions(h, names):
                        moves.append((i, c, k))
        if moves:
            i, c, k = self.pick.one(moves)
            self.after[i].remove(c)
            self.after[k].append(c)

    def use_singleton(self) -> None:
        lone = [g[0] for g in self.after if len(g) == 1]
        if not lone:
            return
        card = self.pick.one(lone)
        names = self.names()
        self.after = [g for g in self.after if g != [card]]
        targets = [
            k
            for k, g in enumerate(self.after)
            if len(g) > 1 and _base(card) in self.extensions(g, names)
        ]
        if targets:
            self.after[self.pick.one(targets)].append(card)
        else:
            plain = [c for c in self.hand_left() if not c.startswith("JK")]
            group = [card]
            for _ in range(2):
                fits = [c for c in plain if c not in group and self.extensions([*group, c], {})]
                if len(group) == 2:
                    wanted = self.extensions(group, {})
                    fits = [c for c in plain if c not in group and _base(c) in wanted]
                if fits:
                    group.append(self.pick.one(fits))
            self.after.append(group)

    def fault(self) -> None:
        kind = self.pick.int(0, 4)
        on_table = [c for g in self.after for c in g]
        if kind == 0 and on_table:
            victim = self.pick.one(on_table)
            self.after = [[c for c in g if c != victim] for g in self.after]
            self.after = [g for g in self.after if g]
        elif kind == 1 and self.after:
            stranger = self.take(self.random_face())
            if stranger is not None:
                self.after[self.pick.int(0, len(self.after) - 1)].append(stranger)
        elif kind == 2 and on_table:
            self.after_names[self.pick.one(on_table)] = self.random_face()
        elif kind == 3:
            for joker in self.table_jokers():
                self.after_names.pop(joker, None)
        elif on_table:
            self.after[self.pick.int(0, len(self.after) - 1)].append(self.pick.one(on_table))

    def add_a_hand_card(self) -> None:
        """Most moves add a hand card somewhere (a move without one is refused anyway)."""
        size = len(self.after)
        for _ in range(3):
            self.extend() if self.pick.int(0, 2) else self.lay()
            if len(self.after) > size or any(c in self.hand for g in self.after for c in g):
                return

    def shuffle(self) -> None:
        for g in self.after:
            for k in range(len(g) - 1, 0, -1):
                j = self.pick.int(0, k)
                g[k], g[j] = g[j], g[k]

    def edit(self) -> None:
        kinds: dict[str, Callable[[], None]] = {
            "extend": self.extend,
            "lay": self.lay,
            "split": self.split,
            "shift": self.shift,
            "fault": self.fault,
        }
        if self.per_group:
            kinds |= {"free": self.free, "carry": self.carry, "rename": self.rename}
        if self.singletons:
            kinds["singleton"] = self.use_singleton
        weights = {"free": 4, "carry": 3, "extend": 3, "lay": 2, "shift": 2, "singleton": 2}
        menu = [k for k in sorted(kinds) for _ in range(weights.get(k, 1))]
        for _ in range(self.pick.int(1, 3)):
            kind = self.pick.one(menu)
            self.edits.append(kind)
            kinds[kind]()
        if self.pick.int(0, 4) and not any(c in self.hand for g in self.after for c in g):
            self.add_a_hand_card()
        if self.pick.int(0, 2) == 0:
            self.shuffle()
        self.first_play = bool(self.first_run) and self.pick.int(0, 4) == 0


def random_move(pick: Pick, variant: str) -> Case:
    m = _Move(pick, variant)
    m.deal()
    m.edit()
    return Case(
        variant, m.before, m.before_names, m.after, m.after_names, m.hand, m.first_play, m.edits
    )


@st.composite
def moves(draw: st.DrawFn, variant: str) -> Case:
    return random_move(_Drawn(draw), variant)


def verdicts(case: Case) -> tuple[dict[str, str] | None, dict[str, str] | None]:
    """(the oracle's joker names or None, check_move's joker names or None)."""
    variant, before, before_names, after, after_names, hand, first, _ = case
    want = move_outcome(before, before_names, after, after_names, hand, variant, first)
    try:
        got = check_move(
            tuple(map(tuple, before)),
            before_names,
            tuple(map(tuple, after)),
            after_names,
            hand,
            VARIANTS[variant],
            first_play=first,
        )
    except TableViolation:
        return want, None
    was = {c for g in before for c in g}
    assert got.added == tuple(c for g in after for c in g if c not in was)
    return want, dict(got.names)


def _agree(case: Case) -> None:
    want, got = verdicts(case)
    assert got == want, case


@_SETTINGS
@given(moves("carousel"))
def test_carousel_moves_get_the_oracles_verdict(case: Case) -> None:
    """RM-CAR-5, RM-CAR-6, RM-CAR-7, RM-JOKER-2..5, RM-AMB-7, RM-AMB-8, RM-AMB-9."""
    _agree(case)


@_SETTINGS
@given(moves("vatican"))
def test_vatican_moves_get_the_oracles_verdict(case: Case) -> None:
    """RM-VAT-4, RM-VAT-5, RM-AMB-10, RM-JOKER-2..5, RM-AMB-7."""
    _agree(case)


@_SETTINGS
@given(moves("tahiti"))
def test_tahiti_moves_get_the_oracles_verdict(case: Case) -> None:
    """RM-TAH-3, RM-TAH-7..10, RM-AMB-24, RM-AMB-25, RM-JOKER-2..5."""
    _agree(case)


@_SETTINGS
@given(st.sampled_from(("manipulation", "machiavelli", "shanghai", "guadeloupe")).flatmap(moves))
def test_joker_less_moves_get_the_oracles_verdict(case: Case) -> None:
    """RM-MOVE-1, RM-MOVE-3, RM-MOVE-5, RM-CORE-2: no joker rules, only the table check."""
    _agree(case)


def test_the_random_moves_are_often_valid_and_free_carry_and_name_jokers() -> None:
    """The generator is worth its name: in each joker variant a good share of 120 seeded
    moves is accepted, among them moves that free a joker and rename it (RM-JOKER-4,
    RM-JOKER-5), that leave the check to fill in a hand joker's name (RM-JOKER-2) and, in
    Carousel, that carry a joker away from every card of its group (RM-CAR-5); refused
    moves are there too. The engine and the oracle agree on every one."""
    for variant in ("carousel", "vatican", "tahiti"):
        seen = dict.fromkeys(("accepted", "refused", "renamed", "filled", "carried"), 0)
        for seed in range(120):
            case = random_move(_Seeded(seed), variant)
            want, got = verdicts(case)
            assert got == want, case
            if got is None:
                seen["refused"] += 1
                continue
            seen["accepted"] += 1
            old = case.before_names
            seen["renamed"] += any(got.get(j, f) != f for j, f in old.items())
            seen["filled"] += any(j not in case.after_names and j not in old for j in got)
            seen["carried"] += any(_carried(case, j) for j in old if got.get(j) == old[j])
        assert seen["accepted"] >= 30, (variant, seen)
        assert seen["refused"] >= 30, (variant, seen)
        assert seen["renamed"] >= 5, (variant, seen)
        assert seen["filled"] >= 2, (variant, seen)
        assert variant != "carousel" or seen["carried"] >= 1, seen


def _carried(case: Case, joker: str) -> bool:
    """The joker lies after the move with none of the cards of its group before."""
    old = next(g for g in case.before if joker in g)
    now = next((g for g in case.after if joker in g), [])
    return bool(now) and not set(now) & (set(old) - {joker})
