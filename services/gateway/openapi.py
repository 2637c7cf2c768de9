"""What `/schema` says and how it renders: the OpenAPI config, the error shape, the refusals.

`/schema` is Swagger UI, and it must render on a machine with no internet (a LAN party, a
CI runner): Litestar's render plugins load their JS and CSS from a CDN by default, so the
Swagger UI assets are served by the app itself, from the `swagger_ui_bundle` package
(swagger-ui-bundle-v2 on PyPI, Apache-2.0, the Swagger UI release files as they are), under
`/schema/assets/`. The favicon is inline for the same reason. `/schema/openapi.json` is the
schema itself.

Every refusal of the API is one JSON shape, `ApiErrorBody` {code, rule_id, message}
(`errors.py` writes it); `refusals(...)` is what a route declares for the statuses it may
answer with it, so the schema lists the real answers rather than Litestar's default error
model.
"""

from __future__ import annotations

from functools import cache
from typing import Annotated, Final

import msgspec
from litestar import Response, get
from litestar.exceptions import NotFoundException
from litestar.openapi import OpenAPIConfig
from litestar.openapi.datastructures import ResponseSpec
from litestar.openapi.plugins import SwaggerRenderPlugin
from litestar.params import FromPath
from litestar.router import Router
from swagger_ui_bundle import swagger_ui_path  # type: ignore[import-untyped]  # no py.typed

__all__ = [
    "ASSETS_PATH",
    "NOT_READY",
    "SCHEMA_PATH",
    "ApiErrorBody",
    "Readiness",
    "openapi_config",
    "refusals",
]

SCHEMA_PATH: Final = "/schema"
ASSETS_PATH: Final = f"{SCHEMA_PATH}/assets"

# The only files served under ASSETS_PATH, each with its type.
_ASSETS: Final[dict[str, str]] = {
    "swagger-ui-bundle.js": "text/javascript; charset=utf-8",
    "swagger-ui-standalone-preset.js": "text/javascript; charset=utf-8",
    "swagger-ui.css": "text/css; charset=utf-8",
}
_FAVICON: Final = "<link rel='icon' href='data:,'>"  # the default one is fetched from a CDN

_DESCRIPTION: Final = """\
The Sahra gateway: the lobby and tables over HTTP, each seat's play over the WebSocket
`/tables/{table_id}/ws?token=…&since=…`, and the verifier of finished deals.

Every refusal is JSON `{"code", "rule_id", "message"}` (`ApiErrorBody`): `code` is stable
for programs, `rule_id` names the rule of `shared/rules` that refused it ("" when no rule of
the game is involved), `message` is one sentence for people.

The WebSocket messages, the card notation (`7H#2`), half points, seats and partners are
described in docs/protocol.md of the repository. The Verify page is `/verify?deal=…&lang=…`.
"""


class ApiErrorBody(msgspec.Struct, frozen=True, kw_only=True):
    """A refusal: what was refused, by which rule, in one sentence."""

    code: Annotated[
        str, msgspec.Meta(description="stable machine code, e.g. no_such_table, bad_token")
    ]
    rule_id: Annotated[
        str, msgspec.Meta(description='the rule ID that refused it, e.g. PF-SEAT-1; "" if none')
    ]
    message: Annotated[str, msgspec.Meta(description="one sentence saying what is wrong")]


# What each status means across the API; a route lists the ones it can answer.
_MEANING: Final[dict[int, str]] = {
    400: "Malformed request: a body, parameter or id that does not parse or is out of bounds.",
    401: "No seat token: send `Authorization: Bearer <seat token>` (PF-SEAT-1).",
    403: "Not allowed: a token for another table or signed by another server key, not the "
    "host, or a feature this server has off.",
    404: "No such table or deal.",
    409: "The table's current state refuses it (a seat taken, a deal still being played, "
    "a rule of the game); `rule_id` names the rule.",
    422: "The request names something that cannot work (an option, seat or card that does "
    "not exist); `rule_id` names the rule when one applies.",
    503: "A dependency (PostgreSQL) cannot be reached; try again after `Retry-After` seconds.",
}


def refusals(*statuses: int) -> dict[int, ResponseSpec]:
    """The OpenAPI responses of a route that may refuse with `statuses`."""
    return {
        status: ResponseSpec(
            data_container=ApiErrorBody, generate_examples=False, description=_MEANING[status]
        )
        for status in statuses
    }


class Readiness(msgspec.Struct, frozen=True, kw_only=True):
    """What /readyz answers: ready or not, and each dependency's check."""

    status: Annotated[
        str,
        msgspec.Meta(
            description='"ready"; "degraded" (200: NATS is away, tables are served from the '
            'store); "not ready" (503: PostgreSQL cannot be reached)'
        ),
    ]
    checks: Annotated[
        dict[str, str],
        msgspec.Meta(description='dependency -> "ok" or why it failed (postgresql, nats)'),
    ]
    down: Annotated[
        list[str],
        msgspec.Meta(description="the dependencies that failed their check (empty: ready)"),
    ]


NOT_READY: Final = {
    503: ResponseSpec(
        data_container=Readiness,
        generate_examples=False,
        description="Not ready: `checks` says which dependency is down and why.",
    )
}


@cache
def _asset(name: str) -> bytes:
    data: bytes = (swagger_ui_path / name).read_bytes()
    return data


@get("/assets/{name:str}", include_in_schema=False, sync_to_thread=False)
def _swagger_asset(name: FromPath[str]) -> Response[bytes]:
    """One of Swagger UI's files, from the installed package."""
    media_type = _ASSETS.get(name)
    if media_type is None:
        raise NotFoundException(f"no such file: {name}")
    return Response(
        _asset(name), media_type=media_type, headers={"Cache-Control": "public, max-age=86400"}
    )


class _LocalSwagger(SwaggerRenderPlugin):
    """Swagger UI with its files served by this app (registered on the schema's router)."""

    def receive_router(self, router: Router) -> None:
        super().receive_router(router)
        router.register(_swagger_asset)


def openapi_config(version: str) -> OpenAPIConfig:
    """The gateway's OpenAPI: Swagger UI at /schema, the JSON at /schema/openapi.json."""
    plugin = _LocalSwagger(
        path=["/", "/swagger"],
        js_url=f"{ASSETS_PATH}/swagger-ui-bundle.js",
        css_url=f"{ASSETS_PATH}/swagger-ui.css",
        standalone_preset_js_url=f"{ASSETS_PATH}/swagger-ui-standalone-preset.js",
        favicon=_FAVICON,
    )
    return OpenAPIConfig(
        title="Sahra gateway",
        version=version,
        path=SCHEMA_PATH,
        description=_DESCRIPTION,
        render_plugins=[plugin],
        use_handler_docstrings=True,
    )
