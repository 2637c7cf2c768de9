"""The Verify page (PF-FAIR-5): GET /verify serves it, GET /verify/static/{name} its assets.

The page is static: it asks the verifier API (GET /verify/{deal_id}, POST /verify) for the
server's verdict and re-derives the deal itself in the browser (`static/fair.js`, an
independent implementation of docs/fairness.md on WebCrypto), so a player need not trust
the server. Everything is served from here: no CDN, no web font, and a Content Security
Policy that forbids loading anything from elsewhere.
"""

from __future__ import annotations

from pathlib import Path
from typing import Final

from litestar import Response, get
from litestar.exceptions import NotFoundException
from litestar.handlers import HTTPRouteHandler
from litestar.params import FromPath

__all__ = ["STATIC_DIR", "page_routes"]

STATIC_DIR: Final = Path(__file__).resolve().parent / "static"

# Only these files are served, each with its type; anything else under /verify/static is 404.
_ASSETS: Final[dict[str, str]] = {
    "verify.js": "text/javascript; charset=utf-8",
    "fair.js": "text/javascript; charset=utf-8",
    "i18n.js": "text/javascript; charset=utf-8",
    "verify.css": "text/css; charset=utf-8",
}
_CSP: Final = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)
_HEADERS: Final[dict[str, str]] = {
    "Cache-Control": "no-cache",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


@get("/verify", include_in_schema=False, sync_to_thread=False)
def verify_page() -> Response[bytes]:
    """The Verify page, in Arabic by default (`?lang=en` for English, `?deal=ID` to load)."""
    return Response(
        (STATIC_DIR / "verify.html").read_bytes(),
        media_type="text/html; charset=utf-8",
        headers={**_HEADERS, "Content-Security-Policy": _CSP},
    )


@get("/verify/static/{name:str}", include_in_schema=False, sync_to_thread=False)
def verify_asset(name: FromPath[str]) -> Response[bytes]:
    """One of the page's scripts or its style sheet."""
    media_type = _ASSETS.get(name)
    if media_type is None:
        raise NotFoundException(f"no such file: {name}")
    return Response((STATIC_DIR / name).read_bytes(), media_type=media_type, headers=_HEADERS)


page_routes: list[HTTPRouteHandler] = [verify_page, verify_asset]
