"""HTTP routes for playing against the computer (PF-MODE-1) and for leaving a seat
(PF-CONN-4).

`POST /play-vs-computer {ruleset, mode?, player}`: one call makes a free table with the
player in seat 1 and bots in the other seats (one bot in `sahrat` 1v1), starts it and
returns the player's seat token; the bots answer him inline and the clock keeps his turns
moving, to the end of the match.

`POST /tables/{id}/leave` (Bearer <seat token>): the player leaves on purpose. At a free
table a bot takes the seat at once, with his hand, team and score (PF-BOT-2); at a coin
table the seat is recorded away and the clock's automatic actions play it (PF-BOT-3). The
match goes on for the others either way, and no result changes (PF-CONN-5). A second call
is refused (`already_replaced`); a player who comes back on his socket is given his seat
back at the next turn boundary.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec
from litestar import post
from litestar.di import NamedDependency
from litestar.params import FromPath, HeaderParameter, JSONBody

from engine.errors import RuleViolation
from engine.table import Leave, SeatKind, SeatPresence
from services.gateway.auth import bearer_seat
from services.gateway.errors import ApiError
from services.gateway.openapi import refusals
from services.gateway.tokens import sign
from services.gateway.wiring import Gateway
from services.tables.games import DEFAULT_GAME, game_named
from services.tables.service import Outcome

__all__ = ["PLAY_ROUTES"]

PlayerName = Annotated[str, msgspec.Meta(min_length=1, max_length=64)]
_PLAYER_SEAT = 1
_GAME = DEFAULT_GAME  # the game played against the computer


class VsComputerRequest(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    player: PlayerName
    ruleset: Literal["classic", "sahrat"] = "sahrat"
    mode: Literal["partnership", "one_vs_one"] = "partnership"  # Banakil's modes (PF-MODE-1)


class VsComputer(msgspec.Struct, frozen=True, kw_only=True):
    table_id: str
    seat: int
    player: str
    token: str
    version: int


class Left(msgspec.Struct, frozen=True, kw_only=True):
    table_id: str
    seat: int
    presence: SeatPresence
    version: int


@post("/play-vs-computer", status_code=201, responses=refusals(400, 422, 503))
async def play_vs_computer(
    data: JSONBody[VsComputerRequest], gw: NamedDependency[Gateway]
) -> VsComputer:
    """A started table: the player in seat 1 against the computer's bots (PF-MODE-1)."""
    # This page's game is Banakil, looked up like any other; its free table with bots.
    game = game_named(_GAME)
    options = game.options_from(data.ruleset, mode=data.mode, table_kind="free", bots_allowed=True)
    human: SeatKind = "human"
    bot: SeatKind = "bot"
    seats = (human,) + (bot,) * (options.seats - 1)
    # The table and its player are one append: a refused name leaves no table behind.
    created = await gw.service.create_table(options, seats, host=data.player)
    table_id = created.state.table_id
    outcome = _ok(await gw.service.start(table_id, _PLAYER_SEAT))
    return VsComputer(
        table_id=table_id,
        seat=_PLAYER_SEAT,
        player=data.player,
        token=sign(gw.settings.token_secret, table_id, _PLAYER_SEAT),
        version=outcome.version,
    )


@post(
    "/tables/{table_id:str}/leave",
    status_code=200,
    responses=refusals(400, 401, 403, 404, 409, 503),
)
async def leave_table(
    table_id: FromPath[str],
    gw: NamedDependency[Gateway],
    authorization: Annotated[
        str | None,
        HeaderParameter(name="Authorization", description="Bearer <the leaving seat's token>"),
    ] = None,
) -> Left:
    """The seat's player leaves on purpose (PF-CONN-4)."""
    seat = bearer_seat(gw.settings.token_secret, table_id, authorization)
    loaded = await gw.service.load(table_id)
    if loaded.version == 0:
        raise ApiError(404, "no_such_table", "", f"there is no table {table_id!r}")
    command_id = f"leave:{seat}:{loaded.version}"
    outcome = _ok(await gw.service.handle(table_id, seat, Leave(), command_id))
    after = await gw.service.load(table_id)
    return Left(
        table_id=table_id,
        seat=seat,
        presence=after.state.seats[seat - 1].presence,
        version=outcome.version,
    )


PLAY_ROUTES = [play_vs_computer, leave_table]


def _ok(outcome: Outcome) -> Outcome:
    if outcome.rejection is not None:
        r = outcome.rejection
        raise RuleViolation(r.code, r.rule_id, r.message)
    return outcome
