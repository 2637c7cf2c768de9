"""How much JSON a client may send: a size bound on bodies, and no nesting the decoder
cannot follow.

msgspec decodes nested arrays and objects recursively and raises RecursionError (not a
DecodeError) somewhere under a thousand levels: ten thousand nested "[" were a 500 over
HTTP and closed a socket without a word. No request of ours nests more than a few levels,
so such a body is refused before it is decoded for the handler: a 400 `too_deep` over
HTTP (`refuse_deep_bodies`, a before-request hook of the app) and a "rejected" message
over the WebSocket (ws.py), both logged.

Bodies are bounded at MAX_BODY_BYTES (413 `too_large`): a deal record posted to /verify
is the largest thing a client sends (a long series is a few hundred kilobytes). WebSocket
messages have their own, smaller bound (Settings.max_message_bytes).
"""

from __future__ import annotations

import logging
from typing import Any

import msgspec
from litestar import Request

from engine.errors import RuleViolation

__all__ = ["MAX_BODY_BYTES", "refuse_deep_bodies", "too_deep"]

MAX_BODY_BYTES = 4 * 1024 * 1024
# A body with fewer brackets than this cannot nest deeper, whatever its shape: no need to
# decode it twice to know.
_SHALLOW = 256
_log = logging.getLogger(__name__)


def too_deep() -> RuleViolation:
    return RuleViolation(
        "too_deep", "", "the JSON is nested too deeply to be read (a request nests a few levels)"
    )


async def refuse_deep_bodies(request: Request[Any, Any, Any]) -> None:
    """Before a handler: a JSON body nested deeper than the decoder goes is a 400."""
    if request.method not in ("POST", "PUT", "PATCH"):
        return
    body = await request.body()  # kept by the request: the handler reads it again for free
    if body.count(b"[") + body.count(b"{") < _SHALLOW:
        return
    try:
        msgspec.json.decode(body)
    except RecursionError:
        _log.warning(
            "%s %s: refused a JSON body nested too deeply", request.method, request.url.path
        )
        raise too_deep() from None
    except msgspec.DecodeError:
        return  # malformed: the handler's own decoding says so
