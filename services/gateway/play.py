"""HTTP routes for playing against the computer (PF-MODE-1) and for leaving a seat
(PF-CONN-4).

`POST /play-vs-computer {player, game?, ruleset? or variant?, mode?, options?}`: one call
makes a free table of any hosted game (Banakil unless `game` says otherwise) with the
player in seat 1 and bots in every other seat the game's options make (one bot in `sahrat`
1v1), starts it and returns the player's seat token; the bots answer him inline and the
clock keeps his turns moving, to the end of the match. `ruleset` is a preset of the game
(Banakil's default here is `sahrat`, another game's is its own default; `variant` is the
same choice under rummy's word, and both given must agree), `options` single options over
it, as `POST /tables` takes them; `mode` is Banakil's (PF-MODE-1). A game, or options, at
whose table bots may not sit is refused (422, `no_bots`, PF-BOT-1).

`POST /tables/{id}/leave` (Bearer <seat token>): the player leaves on purpose. At a free
table a bot takes the seat at once, with his hand, team and score (PF-BOT-2); at a coin
table the seat is recorded away and the clock's automatic actions play it (PF-BOT-3). The
match goes on for the others either way, and no result changes (PF-CONN-5). A second call
is refused (`already_replaced`); a player who comes back on his socket is given his seat
back at the next turn boundary.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

import msgspec
from litestar import post
from litestar.di import NamedDependency
from litestar.params import FromPath, HeaderParameter, JSONBody

from engine.errors import RuleViolation
from engine.table import Leave, SeatKind, SeatPresence
from services.gateway.auth import bearer_seat
from services.gateway.errors import ApiError
from services.gateway.openapi import refusals
from services.gateway.presets import chosen_preset
from services.gateway.tokens import sign
from services.gateway.wiring import Gateway
from services.tables.games import DEFAULT_GAME, game_named
from services.tables.service import Outcome

__all__ = ["PLAY_ROUTES"]

PlayerName = Annotated[str, msgspec.Meta(min_length=1, max_length=64)]
_PLAYER_SEAT = 1
# The preset this page has always started Banakil with (`POST /tables` starts `classic`).
_PRESETS = {DEFAULT_GAME: "sahrat"}
# A table against the computer is free and lets bots sit (PF-MODE-1, PF-BOT-1): set where
# a game's options have these platform fields; the request's own options come after.
_AGAINST_BOTS = {"table_kind": "free", "bots_allowed": True}


class VsComputerRequest(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    player: PlayerName
    game: Annotated[str, msgspec.Meta(max_length=64)] = DEFAULT_GAME
    ruleset: Annotated[str, msgspec.Meta(max_length=64)] | None = None  # a preset of the game
    variant: Annotated[str, msgspec.Meta(max_length=64)] | None = None  # the same, rummy's word
    mode: Literal["partnership", "one_vs_one"] | None = None  # Banakil's modes (PF-MODE-1)
    options: dict[str, Any] = msgspec.field(default_factory=dict)


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
    """A started table of any hosted game: the player in seat 1 against the computer's bots
    (PF-MODE-1)."""
    game = game_named(data.game)  # unknown_game, naming the hosted ones
    preset = chosen_preset(game, data.ruleset, data.variant, _PRESETS.get(game.name))
    fields = {f.name for f in msgspec.structs.fields(game.options)}
    overrides = {k: v for k, v in _AGAINST_BOTS.items() if k in fields}
    if data.mode is not None:
        overrides["mode"] = data.mode
    options = game.options_from(preset, **{**overrides, **data.options})
    if not game.bots_allowed(options):
        raise ApiError(  # the request names something that cannot work: a 422
            422,
            "no_bots",
            "PF-BOT-1",
            f"bots may not sit at this {game.name} table, so it cannot be played against "
            "the computer",
        )
    human: SeatKind = "human"
    bot: SeatKind = "bot"
    seats = (human,) + (bot,) * (game.seats(options) - 1)
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
