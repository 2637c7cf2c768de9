"""Open runs as small tokens, and every way one face's untracked copies can move them
(the inner step of search_dp; rules/rummy.md RM-GRP-3, RM-ACE-1..4, RM-VAT-5).

A token is an int. Its low bits say what decides a run's future: its length (1, 2, or 3
and more), whether it began on a low ace (it may not reach the high ace, RM-AMB-6),
whether it holds a joker (where a group holds one at most, RM-TAH-7), whether it is the
Vatican opening candidate and how many natural hand cards end it in a row (RM-AMB-11),
whether it is a frozen Tahiti group (RM-TAH-8) and which, whether it began on place 2 or
3 (to know, when it ends, whether it is 12 or 13 cards long), and where its jokers stand.
Higher bits carry what the search tracks of certain cards (see search_hot): never read
here, only kept.

Jokers are placed canonically: a joker that could leave its group with the group still
valid is never placed here; search_dp counts such jokers at the end against the room
left in the groups (any split maps to a canonical one plus those jokers). So a run begun
on a joker stops at 3 cards (`SJ`), and a run of 3 or more that takes a joker must take
a natural card after it before it may stop (`EJ`).

`options` lists, for the tokens open in one suit and the copies of the next face (must,
spare, hand), each distinct outcome: which runs end, go on with a copy or a joker, which
runs begin, how many copies go to the rank's sets. It is cached: the same small inputs
recur across states, places and calls.
"""

from __future__ import annotations

from functools import lru_cache

__all__ = [
    "CAND",
    "EJ",
    "END",
    "FROZEN",
    "JOK",
    "LEN",
    "LOW",
    "NAT",
    "NATC",
    "S2",
    "S3",
    "SJ",
    "STREAK",
    "WILD_C",
    "WILD_J",
    "Option",
    "grow",
    "options",
    "start",
]

LEN = 3  # length 1, 2, or 3 (= 3 or more)
LOW = 4  # began on a low ace: may not reach place 14
JOK = 8  # holds a joker (tracked where a group holds one at most)
CAND = 16  # the Vatican opening candidate: hand cards only so far
STREAK = 32  # × 0..3: natural hand cards in a row at its end (3: achieved)
FROZEN = 128  # a frozen Tahiti group (× block number in the next two bits)
SJ = 1024  # began on a joker: stops at 3 cards
EJ = 2048  # 4 or more cards ending on a joker: may not stop yet
S2 = 4096  # began on place 2
S3 = 8192  # began on place 3
_STREAKS = 3 * STREAK

# Actions on a run at a place.
END, NAT, NATC, WILD_J, WILD_C = 0, 1, 2, 3, 4  # NATC / WILD_C: from the hand, for the candidate

# (new tokens sorted, copies to sets, jokers used, hand copies used, opening state after,
#  jokers added to the candidate, kept-aces code or None, tokens ended,
#  detail: ((action, new token) per old token, flattened), ((new token, action) per start))
Option = tuple[
    tuple[int, ...],
    int,
    int,
    int,
    int,
    int,
    int | None,
    tuple[int, ...],
    tuple[tuple[int, ...], tuple[int, ...]],
]


@lru_cache(maxsize=1 << 16)
def options(
    toks: tuple[int, ...],
    m: int,
    o0: int,
    o1: int,
    jokers: int,
    low_place: bool,
    top_place: bool,
    reach: int,
    reach_low: int,
    sets: bool,
    low_aces: bool,
    limit: int,
    opening: int,
    begin: int = 0,
    lazy: bool = False,
) -> dict[int, tuple[Option, ...]]:
    """Every distinct outcome for one face, by the number of copies it sends to sets (all
    of them under -1): `m` copies must be used, `o0` spare and `o1` hand copies may be.
    `lazy`: no joker may be placed here while a spare or hand copy is left unused (the
    caller's jokers may all stay unplaced, so the copy could always take its place); not
    at place 1 where aces may stand high, since an ace unused there waits for place 14.

    `low_aces`: the face is an ace at place 1 where an ace may also stand high; no copy
    must be used here (the rest wait for place 14) and the outcome's code says what is left
    of each kind: must + 8 × spare + 64 × hand."""
    per_token = [_token_moves(t, top_place, reach, reach_low, limit) for t in toks]
    starts = _start_moves(low_place, top_place, reach, reach_low, limit, opening, begin)
    avail = m + o0 + o1
    seen: dict[tuple[object, ...], Option] = {}
    cand_here = any(t & CAND for t in toks)
    for combo in _product(per_token, toks):
        n_nat = sum(1 for a, _ in combo if a in (NAT, NATC))
        n_natc = sum(1 for a, _ in combo if a == NATC)
        n_jok = sum(1 for a, _ in combo if a in (WILD_J, WILD_C))
        n_jokc = sum(1 for a, _ in combo if a == WILD_C)
        ended = tuple(t for (a, _), t in zip(combo, toks, strict=True) if a == END)
        ends_open = any(t & CAND for t in ended)
        kept_toks = [nt for a, nt in combo if a != END]
        flat = tuple(x for pair in combo for x in pair)
        cand_alive = any(a in (NATC, WILD_C) for a, _ in combo)
        # Ending a plain run of 3 or more while a plain run begins here is never better
        # than letting the old run take that card: it can do all the new one can, and stop
        # (and, begun on place 4 or later, it keeps room for any two jokers; where a group
        # holds one joker at most, two groups hold more, so there it waits for no joker).
        plain_end = 3 in ended and (jokers == 0 or limit != 1)
        for new in _start_sets(starts, avail - n_nat, jokers - n_jok, opening, cand_alive):
            if plain_end and any(a in (NAT, WILD_J) for a, _ in new):
                continue
            s_nat = sum(1 for a, _ in new if a in (NAT, NATC))
            natc = n_natc + sum(1 for a, _ in new if a == NATC)
            s_jok = sum(1 for a, _ in new if a in (WILD_J, WILD_C))
            s_jokc = sum(1 for a, _ in new if a == WILD_C)
            placed = n_nat + s_nat
            wild_here = n_jok + s_jok
            opened = _opening_after(opening, cand_here, ends_open, natc > n_natc or s_jokc > 0)
            ntoks = tuple(sorted(kept_toks + [nt for _, nt in new]))
            detail = (flat, tuple(x for a, nt in new for x in (nt, a)))
            head = (ntoks,)
            tail = (opened, n_jokc + s_jokc)
            if low_aces:
                # Which kinds of copy stand low decides what waits for place 14.
                for mu in range(min(m, placed) + 1):
                    for hu in range(natc, min(o1, placed - mu) + 1):
                        su = placed - mu - hu
                        if su > o0:
                            continue
                        code = (m - mu) | (o0 - su) << 3 | (o1 - hu) << 6
                        opt: Option = (*head, 0, n_jok + s_jok, hu, *tail, code, ended, detail)
                        seen.setdefault(opt[:8], opt)
                continue
            jokc = n_jokc + s_jokc
            for q in range(avail - placed + 1) if sets else (0,):
                total = placed + q
                if total < m:
                    continue
                hand_used = min(o1, total - m)
                if natc > hand_used:
                    continue
                # A copy left over could stand where a joker stands (a hand copy where
                # the opening candidate's joker stands): that way is never worse.
                if lazy and ((wild_here > jokc and total < avail) or (jokc and hand_used < o1)):
                    continue
                opt = (*head, q, n_jok + s_jok, hand_used, *tail, None, ended, detail)
                seen.setdefault(opt[:8], opt)
    by_q: dict[int, list[Option]] = {-1: []}
    for opt in seen.values():
        by_q.setdefault(opt[1], []).append(opt)
        by_q[-1].append(opt)
    return {q: tuple(opts) for q, opts in by_q.items()}


def _opening_after(opening: int, cand_here: bool, ended: bool, started: bool) -> int:
    """0: no opening run yet, 1: a candidate is open (maybe in another suit), 2: opened."""
    if opening == 2 or ended:
        return 2
    if cand_here or started:
        return 1
    return opening


def grow(
    tok: int, action: int, top_place: bool, reach: int, reach_low: int, limit: int
) -> int | None:
    """The token after a run takes a card (NAT, NATC, WILD_J, WILD_C), or None if it may not
    (a low-ace run at place 14, no room left to reach 3 cards, a second Tahiti joker, a
    candidate taking anything but a hand card or the wrong action for its kind)."""
    if tok & LOW and top_place:
        return None
    length = tok & LEN
    if length == 3 and tok & SJ:
        return None  # its first joker could go: not canonical
    grown = min(3, length + 1)
    if grown + (reach_low if tok & LOW else reach) < 3:
        return None
    cand = tok & CAND
    if bool(cand) != (action in (NATC, WILD_C)):
        return None
    wild = action in (WILD_J, WILD_C)
    if wild and (not limit or tok & JOK):
        return None
    base = (tok & ~(LEN | _STREAKS | EJ)) | grown | (JOK if wild and limit == 1 else 0)
    if wild and (length == 3 or tok & EJ):
        base |= EJ
    if not cand:
        return base
    streak = (tok & _STREAKS) // STREAK
    streak = (3 if streak == 3 else 0) if wild else min(3, streak + 1)
    return base | streak * STREAK


def start(
    action: int,
    low_place: bool,
    top_place: bool,
    reach: int,
    reach_low: int,
    limit: int,
    begin: int = 0,
) -> int | None:
    """The token of a run begun here with a card (NAT, NATC, WILD_J, WILD_C), or None.
    `begin`: S2 or S3 where the run's length is followed, else 0."""
    if top_place or (reach_low if low_place else reach) < 2:
        return None
    wild = action in (WILD_J, WILD_C)
    if wild and not limit:
        return None
    tok = 1 | (LOW if low_place else 0) | (JOK if wild and limit == 1 else 0) | begin
    if wild:
        tok |= SJ
    if action == NATC:
        return tok | CAND | STREAK
    return tok | CAND if action == WILD_C else tok


def _token_moves(
    tok: int, top_place: bool, reach: int, reach_low: int, limit: int
) -> list[tuple[int, int]]:
    """(action, new token) for one open run: end it, or continue it with a card."""
    moves: list[tuple[int, int]] = []
    cand = tok & CAND
    if tok & LEN == 3 and not tok & EJ and (not cand or (tok & _STREAKS) == _STREAKS):
        moves.append((END, 0))
    for action in (NATC, WILD_C) if cand else (NAT, WILD_J):
        new = grow(tok, action, top_place, reach, reach_low, limit)
        if new is not None:
            moves.append((action, new))
    return moves


def _start_moves(
    low_place: bool,
    top_place: bool,
    reach: int,
    reach_low: int,
    limit: int,
    opening: int,
    begin: int,
) -> list[tuple[int, int]]:
    """(action, token) for a run begun here."""
    out: list[tuple[int, int]] = []
    for action in (NAT, WILD_J, NATC, WILD_C) if opening == 0 else (NAT, WILD_J):
        tok = start(action, low_place, top_place, reach, reach_low, limit, begin)
        if tok is not None:
            out.append((action, tok))
    return out


def _start_sets(
    starts: list[tuple[int, int]], naturals: int, jokers: int, opening: int, cand_alive: bool
) -> list[list[tuple[int, int]]]:
    """Multisets of new runs: at most `naturals` begun on a natural, `jokers` on a joker,
    one opening candidate at most (none while one is open)."""
    if naturals < 0 or jokers < 0:
        return []
    out: list[list[tuple[int, int]]] = [[]]

    def grow(k: int, chosen: list[tuple[int, int]], nat: int, jok: int, cand: int) -> None:
        for i in range(k, len(starts)):
            act, tok = starts[i]
            is_nat = act in (NAT, NATC)
            is_cand = act in (NATC, WILD_C)
            if (is_nat and nat == 0) or (not is_nat and jok == 0):
                continue
            if is_cand and (cand or opening != 0 or cand_alive):
                continue
            new = [*chosen, (act, tok)]
            out.append(new)
            grow(i, new, nat - is_nat, jok - (not is_nat), cand + is_cand)

    grow(0, [], naturals, jokers, 0)
    return out


def _product(
    per_token: list[list[tuple[int, int]]], toks: tuple[int, ...]
) -> list[list[tuple[int, int]]]:
    """Every choice of one move per token; equal tokens take moves in a fixed order, since
    which of two equal runs does what makes no difference."""
    out: list[list[tuple[int, int]]] = [[]]
    for i, moves in enumerate(per_token):
        grown: list[list[tuple[int, int]]] = []
        for prefix in out:
            for move in moves:
                if i and toks[i] == toks[i - 1] and move < prefix[-1]:
                    continue
                grown.append([*prefix, move])
        out = grown
    return out
