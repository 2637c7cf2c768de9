"""Operator routes: the quarantined tables (services/tables/quarantine.py), listed and released.

Off unless the operator sets SAHRA_ADMIN_TOKEN: without it the routes answer 404, as if
they did not exist, so a server nobody configured shows no admin surface at all. With it,
a request must send `Authorization: Bearer <that token>` or is refused with 401. The token
is read on each request, so it can be set or changed without a restart of the gateway's
code (a process restart is still needed for a new environment).
"""

from __future__ import annotations

import hmac
import os
from typing import Annotated

import msgspec
from litestar import get, post
from litestar.di import NamedDependency
from litestar.params import FromPath, HeaderParameter

from services.gateway.errors import ApiError
from services.gateway.wiring import Gateway
from services.store.port import Quarantined

__all__ = ["ADMIN_ROUTES", "TOKEN_ENV"]

TOKEN_ENV = "SAHRA_ADMIN_TOKEN"

Authorization = Annotated[
    str | None,
    HeaderParameter(name="Authorization", description="Bearer <SAHRA_ADMIN_TOKEN>"),
]


class Released(msgspec.Struct, frozen=True, kw_only=True):
    table_id: str
    released: int  # holds removed (one per process that held the table); 0: none held


@get("/admin/quarantine", include_in_schema=False)
async def list_quarantine(
    gw: NamedDependency[Gateway], authorization: Authorization = None
) -> list[Quarantined]:
    """Every quarantined table, per process that held it, the oldest first."""
    _operator(authorization)
    return await gw.store.quarantined()


@post("/admin/quarantine/{table_id:str}/release", status_code=200, include_in_schema=False)
async def release_table(
    table_id: FromPath[str], gw: NamedDependency[Gateway], authorization: Authorization = None
) -> Released:
    """Release a table for every process: the loops take it up again within a second."""
    _operator(authorization)
    return Released(table_id=table_id, released=await gw.store.release(table_id))


ADMIN_ROUTES = [list_quarantine, release_table]


def _operator(authorization: str | None) -> None:
    expected = os.environ.get(TOKEN_ENV, "")
    if not expected:
        raise ApiError(404, "not_found", "", "Not Found")  # as an unknown route
    scheme, _, token = (authorization or "").partition(" ")
    if scheme.lower() != "bearer" or not hmac.compare_digest(
        token.strip().encode(), expected.encode()
    ):
        raise ApiError(401, "bad_admin_token", "", f"send the operator token: Bearer ${TOKEN_ENV}")
