"""Card values (BK-DECK-3/4), deal scores (§13) and the end of a match (§14).

Everything is in integer half-points (BK-DECK-5: scores end in .5, never rounded).
"""

from __future__ import annotations

from engine.banakil.messages import PlayerScore, TeamScore
from engine.banakil.state import State, team_of
from engine.cards import RANK, Card

__all__ = ["HALF_POINTS", "deal_scores", "hand_value", "match_winner"]

# BK-DECK-3, in half-points, by rank (joker = 0): a substitute is worth its own value.
_BY_RANK = {0: 8, 1: 2, 2: 4, 3: 1, 4: 1, 5: 1, 6: 1} | dict.fromkeys(range(7, 14), 2)
HALF_POINTS: dict[Card, int] = {c: _BY_RANK[r] for c, r in RANK.items()}
_OPENING_PENALTY = 40  # BK-SCORE-C3: −20
_SINGLE_MELD = 102  # BK-SCORE-S4: 51
_SINGLE_MELD_BARE = 204  # BK-SCORE-S5: 102


def hand_value(cards: tuple[Card, ...]) -> int:
    return sum(HALF_POINTS[c] for c in cards)


def deal_scores(
    state: State, single_meld: bool
) -> tuple[tuple[PlayerScore, ...], tuple[TeamScore, ...]]:
    """Score the deal that just ended in `state` (hands, table, finisher already final)."""
    n = state.seats
    finisher = state.finisher
    melded = [0] * n
    team_melds = [0, 0]
    for meld in state.melds:
        for p in meld.cards:
            melded[p.seat - 1] += HALF_POINTS[p.card]
            team_melds[meld.team - 1] += HALF_POINTS[p.card]
    hands = [hand_value(h) for h in state.hands]
    bonus_half = state.options.going_out_bonus * 2
    players: list[PlayerScore] = []
    for seat in range(1, n + 1):
        opened = state.opened[seat - 1]
        bonus = bonus_half if seat == finisher else 0
        if not state.options.personal_opening or opened:
            base = melded[seat - 1] - hands[seat - 1]
        else:
            base = -_OPENING_PENALTY  # BK-SCORE-C3, and BK-AMB-7 with the bonus below
        players.append(
            PlayerScore(
                seat=seat,
                opened=opened,
                melded=melded[seat - 1],
                hand=hands[seat - 1],
                bonus=bonus if state.options.scoring_unit == "player" else 0,
                score=base + (bonus if state.options.scoring_unit == "player" else 0),
            )
        )
    teams: list[TeamScore] = []
    for team in (1, 2):
        members = [s for s in range(1, n + 1) if team_of(state, s) == team]
        if state.options.scoring_unit == "player":  # BK-SCORE-C5
            score = sum(players[s - 1].score for s in members)
            teams.append(
                _team(
                    state,
                    team,
                    sum(melded[s - 1] for s in members),
                    sum(hands[s - 1] for s in members),
                    sum(players[s - 1].bonus for s in members),
                    False,
                    score,
                )
            )
            continue
        finishing = finisher is not None and team_of(state, finisher) == team
        if finishing:  # BK-SCORE-S2, S4, S5, S7
            counted = [s for s in members if s != finisher]
            other_has_meld = any(m.team != team for m in state.melds)
            bonus = bonus_half
            if single_meld:
                bonus = _SINGLE_MELD if other_has_meld else _SINGLE_MELD_BARE
        else:  # BK-SCORE-S3, S6
            counted, bonus = members, 0
        hand = sum(hands[s - 1] for s in counted)
        score = bonus + team_melds[team - 1] - hand
        if single_meld and not finishing:
            score = 0  # BK-SCORE-S4: the other team scores exactly 0 (BK-AMB-18 e)
        teams.append(
            _team(state, team, team_melds[team - 1], hand, bonus, single_meld and finishing, score)
        )
    return tuple(players), tuple(teams)


def _team(
    state: State, team: int, melds: int, hands: int, bonus: int, single: bool, score: int
) -> TeamScore:
    return TeamScore(
        team=team,
        melds=melds,
        hands=hands,
        bonus=bonus,
        single_meld=single,
        score=score,
        total=state.totals[team - 1] + score,
    )


def match_winner(state: State, totals: tuple[int, ...]) -> tuple[int | None, bool]:
    """After a scored deal: (the winning team or None, whether tie-break/extra deals run)."""
    a, b = totals
    lead = 1 if a > b else 2
    opts = state.options
    target = opts.target_score * 2
    if opts.match_end == "margin":
        margin = opts.tie_margin * 2
        if state.tie_break:  # BK-WIN-C5, BK-AMB-20
            return (lead, False) if abs(a - b) > margin else (None, True)
        if (a >= target) != (b >= target):  # BK-WIN-C2
            return (1 if a >= target else 2), False
        if a >= target and b >= target:  # BK-WIN-C3/C4
            return (lead, False) if abs(a - b) > margin else (None, True)
        return None, False
    if state.tie_break or a >= target or b >= target:  # BK-WIN-S2..S4, BK-AMB-21
        return (lead, False) if a != b else (None, True)
    return None, False
