"""The staging check (PF-STAGE-1..8, PF-VAL-1/2): is each group a seat prepares a legal
meld now, and if not, the short reason.

The answer is the engine's own: each group is checked by `decide.check_action` as the
`Meld` it would be laid as, the check a turn's `Meld` (and "Meld All", a `Play` of them)
gets, so a red group's code, rule and sentence are the very ones laying it is refused
with. Staging may be asked at any time (PF-STAGE-4): the turn, the draw and the discard
window are the laying's conditions, not the group's. Groups are read in order on a
scratch table, each legal one laid there first, as "Meld All" lays them: a card already
used by an earlier group is not in the hand for a later one. Nothing is stored or sent
to anyone else (PF-STAGE-8); staged cards stay in the hand (PF-STAGE-3).
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from engine.banakil.decide import check_action
from engine.banakil.evolve import evolve
from engine.banakil.messages import Meld, MeldLaid, Placed
from engine.banakil.state import State
from engine.errors import RuleViolation

__all__ = ["GROUPS", "Group", "GroupVerdict", "Stage", "Staged", "stage_check"]

GROUPS = 12  # more groups than a hand of 30 cards can make legal melds of
_CARDS = 32  # a run is at most 14 places; a set at most 8 cards

_Text = Annotated[str, msgspec.Meta(max_length=8)]


class Group(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """One staged group, as a `Meld` names it: its cards (faces or identities, a run low to
    high) and its kind when the seat chose one."""

    cards: Annotated[tuple[_Text, ...], msgspec.Meta(max_length=_CARDS)]
    kind: Literal["run", "set"] | None = None


class Stage(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The groups of the staging area, in the order "Meld All" would lay them."""

    groups: Annotated[tuple[Group, ...], msgspec.Meta(min_length=1, max_length=GROUPS)]


class GroupVerdict(msgspec.Struct, frozen=True, kw_only=True):
    """Green (`ok`: the meld as it would lie, `kind` and `cards` as in `MeldLaid`) or red
    (the refusal laying it would get: `code`, `rule_id`, `message`)."""

    ok: bool
    kind: str | None = None
    cards: tuple[Placed, ...] = ()
    code: str = ""
    rule_id: str = ""
    message: str = ""


class Staged(msgspec.Struct, frozen=True, kw_only=True):
    groups: tuple[GroupVerdict, ...]


def stage_check(state: State, seat: int, proposal: Stage) -> Staged:
    if state.phase != "play":
        raise RuleViolation("no_deal", "PF-STAGE-5", "no deal is being played: nothing to stage")
    verdicts: list[GroupVerdict] = []
    scratch = state
    for group in proposal.groups:
        try:
            event = check_action(scratch, seat, Meld(cards=group.cards, kind=group.kind))
        except RuleViolation as refused:
            verdicts.append(
                GroupVerdict(
                    ok=False, code=refused.code, rule_id=refused.rule_id, message=refused.message
                )
            )
            continue
        assert isinstance(event, MeldLaid)
        verdicts.append(GroupVerdict(ok=True, kind=event.kind, cards=event.cards))
        scratch = evolve(scratch, event)
    return Staged(groups=tuple(verdicts))
