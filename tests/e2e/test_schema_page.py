"""`/schema` works with no internet, and `/schema/openapi.json` says what each route does.

The gateway app runs over the in-memory store and bus (no route is called but the schema's).
The page is read as text (no outside host in any `src`/`href`, every file it names served
200 by the app) and rendered by a headless Chromium that must fetch nothing from elsewhere.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from litestar import Litestar
from litestar.testing import TestClient

from services.bus.memory import MemoryBus
from services.gateway.app import create_app
from services.gateway.settings import Settings
from services.store.memory import MemoryEventStore
from tests.browser_support import chromium
from tests.e2e.gateway_support import running

_REFERENCE = re.compile(r"""(?:src|href)\s*=\s*["']([^"']+)["']""")
_ERROR_FIELDS = {"code", "rule_id", "message"}


def _app() -> Litestar:
    return create_app(MemoryEventStore(), MemoryBus(), Settings(token_secret=b"s" * 32))


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient[Litestar]]:
    with TestClient(app=_app()) as c:
        yield c


@pytest.fixture(scope="module")
def schema(client: TestClient[Litestar]) -> dict[str, Any]:
    answer = client.get("/schema/openapi.json")
    assert answer.status_code == 200
    found: dict[str, Any] = answer.json()
    return found


def _operations(schema: dict[str, Any]) -> Iterator[tuple[str, str, dict[str, Any]]]:
    for path, item in schema["paths"].items():
        for method, operation in item.items():
            if method in {"get", "post", "put", "patch", "delete"}:
                yield path, method, operation


def test_the_schema_page_names_no_outside_host_and_every_file_it_names_is_served(
    client: TestClient[Litestar],
) -> None:
    page = client.get("/schema")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    references = _REFERENCE.findall(page.text)
    assert len(references) >= 3, references  # the script, the preset and the style sheet
    outside = [r for r in references if "//" in r.split("?")[0]]
    assert outside == []
    for reference in references:
        if reference.startswith("data:"):
            continue
        asset = client.get(reference)
        assert asset.status_code == 200, reference
        assert len(asset.content) > 1000, reference
    assert client.get("/schema/assets/index.html").status_code == 404
    assert client.get("/schema/assets/..%2F__init__.py").status_code == 404


async def test_the_schema_page_renders_in_chromium_without_the_internet(tmp_path: Path) -> None:
    async with running(_app()) as base, chromium(tmp_path) as browser:
        page = await browser.new_page()
        await page.goto(f"{base}/schema")
        title = await page.wait_for(
            "document.querySelector('.swagger-ui .info .title')?.textContent"
        )
        assert title.startswith("Sahra gateway")
        operations = await page.wait_for("document.querySelectorAll('.opblock').length")
        assert operations >= 10
        await page.screenshot(tmp_path / "schema.png")
        outside = [u for u in page.requests if not u.startswith(base + "/")]
        assert [u for u in outside if not u.startswith(("data:", "about:"))] == []
        assert page.unexpected_errors() == []
        await page.close()


def test_every_operation_has_a_summary_and_a_description(schema: dict[str, Any]) -> None:
    missing = [
        f"{method.upper()} {path}"
        for path, method, operation in _operations(schema)
        if not operation.get("summary") or not operation.get("description")
    ]
    assert missing == []


def test_the_error_shape_is_in_the_schema_as_it_is_sent(schema: dict[str, Any]) -> None:
    body = schema["components"]["schemas"]["ApiErrorBody"]
    assert set(body["properties"]) == _ERROR_FIELDS
    assert set(body["required"]) == _ERROR_FIELDS
    assert all(p.get("description") for p in body["properties"].values())


def _refusals(schema: dict[str, Any], method: str, path: str) -> set[int]:
    responses = schema["paths"][path][method]["responses"]
    found = set()
    for status, response in responses.items():
        if not status.startswith(("4", "5")):
            continue
        content = response["content"]["application/json"]["schema"]
        assert content == {"$ref": "#/components/schemas/ApiErrorBody"}, (method, path, status)
        assert response["description"], (method, path, status)
        found.add(int(status))
    return found


@pytest.mark.parametrize(
    ("method", "path", "statuses"),
    [
        ("post", "/tables", {400, 403, 422, 503}),
        ("get", "/tables", {400, 503}),
        ("post", "/tables/{table_id}/seats/{seat}", {400, 404, 409, 422, 503}),
        ("post", "/tables/{table_id}/start", {401, 403, 404, 409, 503}),
        ("get", "/tables/{table_id}", {404, 503}),
        ("get", "/tables/{table_id}/deals/{deal}/events", {404, 409, 503}),
        ("get", "/verify/{deal_id}", {400, 404, 409, 503}),
        ("post", "/verify", {400}),
        ("get", "/deals/{deal_id}/record", {400, 404, 409, 503}),
    ],
)
def test_each_route_lists_the_refusals_it_answers_with_the_error_shape(
    schema: dict[str, Any], method: str, path: str, statuses: set[int]
) -> None:
    assert statuses <= _refusals(schema, method, path)


def test_readiness_documents_its_503(schema: dict[str, Any]) -> None:
    responses = schema["paths"]["/readyz"]["get"]["responses"]
    assert "503" in responses and responses["503"]["description"]
