"""A real headless Chromium for tests, driven over the Chrome DevTools Protocol.

Debian's chromium (`/usr/bin/chromium`, or `$SAHRA_CHROMIUM`); `scripts/ensure-chromium.sh`
installs it. No Playwright and no downloaded browser: the protocol is spoken directly over
`websockets`. When no Chromium can be found the tests fail with the install hint, they
never skip.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import itertools
import json
import os
import shutil
import signal
import subprocess
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import ClientConnection, connect

__all__ = ["Browser", "CdpError", "Page", "chromium", "chromium_path"]

FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
    "--window-size=1280,900",
    "--remote-debugging-port=0",
)
_INSTALL_HINT = (
    "no Chromium for the browser tests: run scripts/ensure-chromium.sh as root "
    "(apt-get install -y chromium), or set SAHRA_CHROMIUM to a Chromium binary"
)


class CdpError(RuntimeError):
    """A DevTools command failed, or the page threw."""


def chromium_path() -> str:
    """The Chromium to run; fails the test (never skips) when there is none."""
    for candidate in (os.environ.get("SAHRA_CHROMIUM"), "/usr/bin/chromium"):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found:
        return found
    pytest.fail(_INSTALL_HINT, pytrace=False)


class Browser:
    """One browser process and its DevTools WebSocket (flat sessions, one per page)."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self._ids = itertools.count(1)
        self._pending: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self.pages: dict[str, Page] = {}
        self._reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        async for raw in self.ws:
            message = json.loads(raw)
            if "id" in message:
                future = self._pending.pop(message["id"], None)
                if future is not None and not future.done():
                    if "error" in message:
                        future.set_exception(CdpError(json.dumps(message["error"])))
                    else:
                        future.set_result(message.get("result", {}))
            else:
                page = self.pages.get(message.get("sessionId", ""))
                if page is not None:
                    page.on_event(message["method"], message.get("params", {}))

    async def send(
        self, method: str, params: dict[str, Any] | None = None, session: str | None = None
    ) -> dict[str, Any]:
        ident = next(self._ids)
        message: dict[str, Any] = {"id": ident, "method": method, "params": params or {}}
        if session is not None:
            message["sessionId"] = session
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._pending[ident] = future
        await self.ws.send(json.dumps(message))
        async with asyncio.timeout(60):
            return await future

    async def new_page(self, width: int = 1280, height: int = 900) -> Page:
        target = await self.send("Target.createTarget", {"url": "about:blank"})
        attached = await self.send(
            "Target.attachToTarget", {"targetId": target["targetId"], "flatten": True}
        )
        page = Page(self, attached["sessionId"])
        self.pages[page.session] = page
        for domain in ("Page", "Runtime", "Network", "Log"):
            await page.send(f"{domain}.enable")
        await page.send(
            "Emulation.setDeviceMetricsOverride",
            {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False},
        )
        return page

    async def close(self) -> None:
        with contextlib.suppress(Exception):
            await self.send("Browser.close")
        await self.ws.close()
        self._reader.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await self._reader


class Page:
    """One tab. Records every request, console error and uncaught exception it sees."""

    def __init__(self, browser: Browser, session: str) -> None:
        self.browser = browser
        self.session = session
        self.requests: list[str] = []
        self.errors: list[str] = []
        self.expected_errors: list[str] = []  # substrings of errors a test provokes on purpose
        self._loaded = asyncio.Event()

    def on_event(self, method: str, params: dict[str, Any]) -> None:
        if method == "Page.loadEventFired":
            self._loaded.set()
        elif method == "Network.requestWillBeSent":
            self.requests.append(params["request"]["url"])
        elif method == "Runtime.exceptionThrown":
            details = params["exceptionDetails"]
            self.errors.append(details.get("exception", {}).get("description") or details["text"])
        elif method == "Runtime.consoleAPICalled" and params["type"] in ("error", "assert"):
            self.errors.append(
                " ".join(str(a.get("value", a.get("description"))) for a in params["args"])
            )
        elif method == "Log.entryAdded" and params["entry"]["level"] == "error":
            entry = params["entry"]
            self.errors.append(f"{entry.get('source')}: {entry.get('text')} {entry.get('url', '')}")

    async def send(self, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        return await self.browser.send(method, params, self.session)

    def unexpected_errors(self) -> list[str]:
        return [e for e in self.errors if not any(x in e for x in self.expected_errors)]

    async def close(self) -> None:
        target = await self.send("Target.getTargetInfo")
        await self.browser.send(
            "Target.closeTarget", {"targetId": target["targetInfo"]["targetId"]}
        )
        self.browser.pages.pop(self.session, None)

    async def goto(self, url: str) -> None:
        self._loaded.clear()
        await self.send("Page.navigate", {"url": url})
        async with asyncio.timeout(30):
            await self._loaded.wait()

    async def evaluate(self, expression: str) -> Any:
        """The JSON value of `expression` (awaited when it is a promise)."""
        answer = await self.send(
            "Runtime.evaluate",
            {"expression": expression, "awaitPromise": True, "returnByValue": True},
        )
        if "exceptionDetails" in answer:
            details = answer["exceptionDetails"]
            text = details.get("exception", {}).get("description") or details.get("text")
            raise CdpError(f"the page threw: {text}")
        return answer["result"].get("value")

    async def wait_for(self, expression: str, timeout: float = 30) -> Any:
        """Poll until `expression` is truthy; returns its value."""
        async with asyncio.timeout(timeout):
            while True:
                value = await self.evaluate(expression)
                if value:
                    return value
                await asyncio.sleep(0.05)

    async def set_files(self, selector: str, paths: Sequence[Path]) -> None:
        """Choose files in an <input type=file> as a user would (fires input and change)."""
        document = await self.send("DOM.getDocument", {"depth": 0})
        node = await self.send(
            "DOM.querySelector", {"nodeId": document["root"]["nodeId"], "selector": selector}
        )
        if not node.get("nodeId"):
            raise CdpError(f"no element matches {selector!r}")
        await self.send(
            "DOM.setFileInputFiles",
            {"nodeId": node["nodeId"], "files": [str(p) for p in paths]},
        )

    async def screenshot(self, path: Path) -> Path:
        """A PNG of the whole page (not only the viewport)."""
        metrics = await self.send("Page.getLayoutMetrics")
        size = metrics["cssContentSize"]
        shot = await self.send(
            "Page.captureScreenshot",
            {
                "format": "png",
                "captureBeyondViewport": True,
                "clip": {
                    "x": 0,
                    "y": 0,
                    "width": size["width"],
                    "height": size["height"],
                    "scale": 1,
                },
            },
        )
        path.write_bytes(base64.b64decode(shot["data"]))
        return path


@contextlib.asynccontextmanager
async def chromium(workdir: Path) -> AsyncIterator[Browser]:
    """Start a headless Chromium with a fresh profile under `workdir`; stop it after."""
    executable = chromium_path()
    profile = workdir / "chromium-profile"
    profile.mkdir(parents=True, exist_ok=True)
    log = (workdir / "chromium.log").open("wb")
    proc = subprocess.Popen(
        [executable, *FLAGS, f"--user-data-dir={profile}", "about:blank"],
        stdin=subprocess.DEVNULL,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,  # its helpers share this process group, stopped below
    )
    browser: Browser | None = None
    try:
        port_file = profile / "DevToolsActivePort"
        async with asyncio.timeout(30):
            while not port_file.exists() or len(port_file.read_text().split()) < 2:
                if proc.poll() is not None:
                    raise CdpError(
                        f"chromium exited with {proc.returncode}; see {workdir / 'chromium.log'}"
                    )
                await asyncio.sleep(0.05)
        port, path = port_file.read_text().split()[:2]
        ws = await connect(f"ws://127.0.0.1:{port}{path}", max_size=None, open_timeout=15)
        browser = Browser(ws)
        yield browser
    finally:
        if browser is not None:
            await browser.close()  # asks the browser to quit
        else:
            proc.terminate()
        try:
            await asyncio.to_thread(proc.wait, 10)
        except subprocess.TimeoutExpired:
            # Only this browser's own process group (start_new_session above).
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
            await asyncio.to_thread(proc.wait, 10)
        log.close()


@contextlib.asynccontextmanager
async def checked_tab(browser: Browser, base: str) -> AsyncIterator[Page]:
    """A new tab that must end with no script error and no request to anywhere but the
    server at `base` (the Verify page works with no internet)."""
    tab = await browser.new_page()
    yield tab
    assert tab.unexpected_errors() == []
    outside = [u for u in tab.requests if not u.startswith(base + "/")]
    assert [u for u in outside if u != "about:blank"] == []
    await tab.close()
