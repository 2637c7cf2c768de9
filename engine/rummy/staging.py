"""The private copy's check (RM-MOVE-4, PF-AMB-22, PF-STAGE-5): would this whole table be
accepted as the seat's move now, and if not, the short reason.

A rummy seat prepares its move on a private copy of the table (nothing of it reaches the
server, PF-VAL-2); it may ask whether the copy as it stands is a legal move. The answer
is the engine's own: `rules.check_play_table`, the check every `Play` gets, so a refused
copy's code, rule, sentence and group are the ones playing it is refused with, and an
accepted one names the hand cards it adds (the `added` a `Play` sends) and every joker's
face. The turn (and Carousel's draw first) is the playing's condition, not the table's:
the copy may be checked at any time. No event; nothing is stored (PF-STAGE-8).
"""

from __future__ import annotations

from typing import Annotated

import msgspec

from engine.errors import RuleViolation
from engine.rummy.groups import TableViolation
from engine.rummy.rules import check_play_table
from engine.rummy.state import State

__all__ = ["Stage", "Staged", "stage_check"]

_Card = Annotated[str, msgspec.Meta(max_length=8)]
# A run is at most 13 cards (RM-CORE), a table at most every card of the deck (108).
_Group = Annotated[tuple[_Card, ...], msgspec.Meta(max_length=13)]


class Stage(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The private copy: the whole new table, and the face of every joker placed or
    re-identified, as a `Play` sends them."""

    table: Annotated[tuple[_Group, ...], msgspec.Meta(max_length=108)]
    names: Annotated[dict[_Card, _Card], msgspec.Meta(max_length=4)] = msgspec.field(
        default_factory=dict
    )


class Staged(msgspec.Struct, frozen=True, kw_only=True):
    """Accepted (`ok`: the hand cards it adds, in table order, and every joker's face) or
    refused (`code`, `rule_id`, `message`, and the index of the group at fault, `group`,
    null when the fault is no one group's)."""

    ok: bool
    added: tuple[str, ...] = ()
    names: tuple[tuple[str, str], ...] = ()
    code: str = ""
    rule_id: str = ""
    message: str = ""
    group: int | None = None


def stage_check(state: State, seat: int, proposal: Stage) -> Staged:
    if state.phase != "play":
        raise RuleViolation("no_round", "PF-STAGE-5", "no round is being played: nothing to check")
    try:
        checked = check_play_table(state, seat, proposal.table, proposal.names)
    except TableViolation as refused:
        return Staged(
            ok=False,
            code=refused.code,
            rule_id=refused.rule_id,
            message=refused.message,
            group=refused.group,
        )
    except RuleViolation as refused:
        return Staged(ok=False, code=refused.code, rule_id=refused.rule_id, message=refused.message)
    return Staged(ok=True, added=checked.added, names=checked.names)
