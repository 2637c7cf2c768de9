"""The Litestar application: `create_app(store, bus, settings)` wires the gateway."""

from __future__ import annotations

from litestar import Litestar
from litestar.di import Provide

from services.bus.port import Bus
from services.gateway.errors import EXCEPTION_HANDLERS
from services.gateway.http import ROUTES
from services.gateway.limits import MAX_BODY_BYTES, refuse_deep_bodies
from services.gateway.openapi import openapi_config
from services.gateway.play import PLAY_ROUTES
from services.gateway.settings import Settings
from services.gateway.tutorial import lesson_router
from services.gateway.verify import VERIFY_ROUTES
from services.gateway.wiring import Gateway, Probe
from services.gateway.ws import table_socket
from services.store.port import EventStore
from services.verifier.page import page_routes

__all__ = ["create_app"]


def create_app(
    store: EventStore,
    bus: Bus,
    settings: Settings | None = None,
    *,
    probes: dict[str, Probe] | None = None,
) -> Litestar:
    """The gateway app over connected adapters; the caller owns and closes them.

    `probes` replaces the readiness checks of /readyz (name -> async check that raises)."""
    gateway = Gateway(store, bus, settings or Settings.from_env(), probes)

    def provide_gateway() -> Gateway:
        return gateway

    app = Litestar(
        route_handlers=[
            *ROUTES,
            *PLAY_ROUTES,
            table_socket,
            *VERIFY_ROUTES,
            *page_routes,
            lesson_router(),  # PF-MODE-3: the guided lessons, under /lessons
        ],
        dependencies={"gw": Provide(provide_gateway, sync_to_thread=False)},
        exception_handlers=EXCEPTION_HANDLERS,
        before_request=refuse_deep_bodies,  # 400, not a 500, for JSON nested too deeply
        request_max_body_size=MAX_BODY_BYTES,
        openapi_config=openapi_config("0.1.0"),  # served offline (`openapi.py`)
        on_startup=[gateway.start],
        on_shutdown=[gateway.close],
        signature_namespace={"Gateway": Gateway},
    )
    app.state.gateway = gateway
    return app
