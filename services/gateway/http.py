"""HTTP routes: the lobby, seats, starting a table, its public state and finished deals.

Handlers are thin: decode the request, call one application function, encode the answer.
Every refusal is JSON {code, rule_id, message} with a 4xx status (see `errors.py`).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

import msgspec
from litestar import Response, get, post
from litestar.di import NamedDependency
from litestar.params import FromPath, HeaderParameter, JSONBody, QueryParameter

from engine import protocol
from engine.errors import RuleViolation
from engine.table import TABLE_EVENTS, SeatInfo, SeatKind
from services.gateway.admin import ADMIN_ROUTES
from services.gateway.auth import bearer_seat
from services.gateway.errors import ApiError
from services.gateway.hub import table_view
from services.gateway.openapi import NOT_READY, refusals
from services.gateway.outage import RETRY_AFTER
from services.gateway.presets import chosen_preset
from services.gateway.tokens import sign
from services.gateway.wiring import Gateway
from services.projections.lobby import TableSummary
from services.tables import validation
from services.tables.followups import StackedDeal
from services.tables.games import game_named, game_of
from services.tables.service import Loaded, Outcome

__all__ = ["ROUTES"]

# Checked by validation.player_name (one `invalid_name` error for every way a name is
# wrong), not here: a bound here would refuse "  Amal  " before it is trimmed.
PlayerName = Annotated[
    str,
    msgspec.Meta(
        description="1 to 64 characters once white space around is trimmed; any script and "
        "emoji; no control characters, line breaks or text-direction overrides"
    ),
]


class CreateTableRequest(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A new table of any hosted game: its name, a preset of its options and single options
    over it (each game reads them with its own `options_from`, so the request names no
    game's options). `ruleset` is the preset (Banakil's rule sets: "classic", "sahrat";
    rummy's variants: "manipulation" … "tahiti"), `variant` the same under rummy's word
    (both given must agree); unset, the game's default. `seats` defaults to humans
    everywhere; `player` (optional) seats the host at once and returns the host's token.
    `deck`, `dealer` and `cut` stack the first deal (tests and tutorials; refused unless
    the server allows stacked decks)."""

    game: Annotated[str, msgspec.Meta(max_length=64)] = protocol.DEFAULT_GAME
    ruleset: Annotated[str, msgspec.Meta(max_length=64)] | None = None
    variant: Annotated[str, msgspec.Meta(max_length=64)] | None = None  # = ruleset
    options: dict[str, Any] = msgspec.field(default_factory=dict)
    seats: tuple[SeatKind, ...] | None = None
    player: PlayerName | None = None
    deck: tuple[str, ...] | None = None
    dealer: int | None = None
    cut: int | None = None


class CreatedTable(msgspec.Struct, frozen=True, kw_only=True):
    table_id: str
    host: int
    seats: tuple[SeatInfo, ...]
    version: int
    token: str | None = None  # the host's seat token when `player` was given


class JoinRequest(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    player: PlayerName


class Joined(msgspec.Struct, frozen=True, kw_only=True):
    table_id: str
    seat: int
    player: str
    token: str
    version: int


class Started(msgspec.Struct, frozen=True, kw_only=True):
    table_id: str
    version: int


class DealEvent(msgspec.Struct, frozen=True, kw_only=True):
    version: int
    event: Any


class DealLog(msgspec.Struct, frozen=True, kw_only=True):
    table_id: str
    deal: int
    events: tuple[DealEvent, ...]


@post("/tables", status_code=201, responses=refusals(400, 403, 409, 422, 503))
async def create_table(
    data: JSONBody[CreateTableRequest], gw: NamedDependency[Gateway]
) -> CreatedTable:
    """Open a new table: the game, its rule set and options, and which seats are bots.

    With `player`, the host is seated at once and the answer carries the host's seat token.
    Options out of range are refused (422, `bad_option`, naming the option and its range)."""
    game = game_named(data.game)  # unknown_game, naming the hosted ones
    preset = chosen_preset(game, data.ruleset, data.variant)  # 400 for a preset not its own
    options = game.options_from(preset, **data.options)
    human: SeatKind = "human"
    seats = data.seats or (human,) * game.seats(options)
    stacked = None
    if data.deck is not None or data.dealer is not None or data.cut is not None:
        if not gw.settings.allow_stacked_decks:
            raise ApiError(403, "stacked_decks_off", "", "this server deals fair decks only")
        if data.deck is None:
            raise ApiError(400, "bad_stack", "", '"dealer" and "cut" go with a "deck"')
        stacked = StackedDeal(cards=data.deck, dealer=data.dealer, cut=data.cut)
    # The table and its host are one append: a refused name leaves no table behind.
    created = await gw.service.create_table(options, seats, stacked, host=data.player)
    state, token = created.state, None
    if data.player is not None:
        token = sign(gw.settings.token_secret, state.table_id, state.host)
    return CreatedTable(
        table_id=state.table_id,
        host=state.host,
        seats=created.state.seats,
        version=created.version,
        token=token,
    )


@get("/tables", responses=refusals(400, 503))
async def list_tables(
    gw: NamedDependency[Gateway],
    status: Annotated[
        Literal["open", "playing", "finished", "any"],
        QueryParameter(description="which tables to list (default: the open ones)"),
    ] = "open",
) -> list[TableSummary]:
    """The lobby: tables by status (open ones by default), each with its seats and options."""
    return await gw.lobby.tables(None if status == "any" else status)


@post(
    "/tables/{table_id:str}/seats/{seat:int}",
    status_code=201,
    responses=refusals(400, 404, 409, 422, 503),
)
async def take_seat(
    table_id: FromPath[str],
    seat: FromPath[int],
    data: JSONBody[JoinRequest],
    gw: NamedDependency[Gateway],
) -> Joined:
    """Take a free human seat (1..4, or 1..2 in 1-v-1) by name; the answer carries the seat's
    token, for `Authorization: Bearer` and the WebSocket's `?token=` (PF-SEAT-1)."""
    player = validation.player_name(data.player)
    await _existing(gw, table_id)
    outcome = _ok(await gw.service.take_seat(table_id, seat, player))
    token = sign(gw.settings.token_secret, table_id, seat)
    return Joined(table_id=table_id, seat=seat, player=player, token=token, version=outcome.version)


@post(
    "/tables/{table_id:str}/start",
    status_code=200,
    responses=refusals(400, 401, 403, 404, 409, 503),
)
async def start_table(
    table_id: FromPath[str],
    gw: NamedDependency[Gateway],
    authorization: Annotated[
        str | None,
        HeaderParameter(name="Authorization", description="Bearer <the host's seat token>"),
    ] = None,
) -> Started:
    """The host starts play once every human seat is taken; the options freeze (PF-ROOM-4)."""
    await _existing(gw, table_id)
    seat = _seat(gw, table_id, authorization)
    outcome = _ok(await gw.service.start(table_id, seat))
    return Started(table_id=table_id, version=outcome.version)


@get("/tables/{table_id:str}", responses=refusals(400, 404, 409, 503))
async def table_state(table_id: FromPath[str], gw: NamedDependency[Gateway]) -> dict[str, Any]:
    """The public state: the spectator's view, the seats and the stream version."""
    return table_view(await _existing(gw, table_id), None)


@get("/tables/{table_id:str}/deals/{deal:int}/events", responses=refusals(400, 404, 409, 503))
async def deal_events(
    table_id: FromPath[str], deal: FromPath[int], gw: NamedDependency[Gateway]
) -> DealLog:
    """Every event of a finished deal, secrets and all (revealed at its end). The table's
    own events in between (a seat away, back, or taken by a bot) are not the deal's."""
    unit = game_of((await _existing(gw, table_id)).state).unit
    events = [(v, e) for v, e in await gw.service.events(table_id) if not _table_event(e)]
    start = end = None
    for i, (_, event) in enumerate(events):
        begun = unit.begins(event)
        if begun is not None:
            if begun == deal:
                start = i
            elif start is not None and end is None:
                end = i
    if start is None:
        raise ApiError(404, "no_such_deal", "", f"deal {deal} has not begun at this table")
    chosen = events[start:end]
    if not any(unit.ends(e) == deal for _, e in chosen):
        raise ApiError(
            409,
            "deal_not_finished",
            "PF-FAIR-3",
            f"deal {deal} is still being played: its log is published once it is scored",
        )
    return DealLog(
        table_id=table_id,
        deal=deal,
        events=tuple(DealEvent(version=v, event=e) for v, e in chosen),
    )


@get("/healthz")
async def healthz() -> dict[str, str]:
    """Liveness: the process answers (it checks no dependency)."""
    return {"status": "alive"}


@get("/readyz", responses=NOT_READY)
async def readyz(gw: NamedDependency[Gateway]) -> Response[dict[str, Any]]:
    """Readiness: PostgreSQL and NATS answer within the probe timeout. Without PostgreSQL
    nothing can be served: 503, and which part. Without NATS the gateway still serves its
    tables from the store (moves of other gateways show within a second instead of at once):
    200 "degraded", so a load balancer keeps it while the bus is away."""
    checks = await gw.readiness()
    down = [name for name, state in checks.items() if state != "ok"]
    if not down:
        return Response({"status": "ready", "checks": checks, "down": down}, status_code=200)
    if down == ["nats"]:
        return Response({"status": "degraded", "checks": checks, "down": down}, status_code=200)
    body = {"status": "not ready", "checks": checks, "down": down}
    return Response(body, status_code=503, headers={"Retry-After": str(RETRY_AFTER)})


ROUTES = [
    create_table,
    list_tables,
    take_seat,
    start_table,
    table_state,
    deal_events,
    healthz,
    readyz,
    *ADMIN_ROUTES,
]


async def _existing(gw: Gateway, table_id: str) -> Loaded:
    validation.table_id(table_id)  # 400 for what cannot be a table id, 404 below
    held = await gw.service.quarantined(table_id)  # 409, rather than failing on it
    if held is not None:
        raise held
    loaded = await gw.service.load(table_id)
    if loaded.version == 0:
        raise ApiError(404, "no_such_table", "", f"there is no table {table_id!r}")
    return loaded


def _seat(gw: Gateway, table_id: str, authorization: str | None) -> int:
    return bearer_seat(gw.settings.token_secret, table_id, authorization)


def _table_event(event: object) -> bool:
    return isinstance(event, TABLE_EVENTS)


def _ok(outcome: Outcome) -> Outcome:
    if outcome.rejection is not None:
        r = outcome.rejection
        raise RuleViolation(r.code, r.rule_id, r.message)
    return outcome
