"""A real headless Chromium driven over the DevTools protocol, for the render tests.

`Browser.open(url)` loads a page and reports every image (loaded or not) and every console
message, exception or log entry at error level; `screenshot()` returns the viewport as a PNG.
Pages are served from a folder by a localhost `http.server` (`serve`).
"""
from __future__ import annotations

import base64
import contextlib
import functools
import http.server
import json
import re
import shutil
import subprocess
import tempfile
import threading
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

import websocket

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--hide-scrollbars", "--font-render-hinting=none", "--remote-debugging-port=0"]


@dataclass
class PageCheck:
    images: list[dict[str, Any]]  # {"src", "complete", "naturalWidth"}
    errors: list[str] = field(default_factory=list)

    @property
    def broken_images(self) -> list[str]:
        return [i["src"] for i in self.images if not i["complete"] or i["naturalWidth"] <= 0]


class Browser:
    def __init__(self, width: int = 1000, height: int = 1400):
        self.profile = tempfile.mkdtemp(prefix="pbem-chromium-")
        self.process = subprocess.Popen([CHROMIUM, *FLAGS, f"--user-data-dir={self.profile}", "about:blank"],
                                        stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
        port = self._port()
        page = next(t for t in json.load(urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list"))
                    if t["type"] == "page")
        self.ws = websocket.create_connection(page["webSocketDebuggerUrl"], suppress_origin=True, timeout=30)
        self.next_id = 0
        self.events: list[dict[str, Any]] = []
        for domain in ("Page", "Runtime", "Log"):
            self.call(f"{domain}.enable")
        self.call("Emulation.setDeviceMetricsOverride",
                  {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})

    def _port(self) -> int:
        deadline = time.monotonic() + 30
        assert self.process.stderr is not None
        while time.monotonic() < deadline:
            line = self.process.stderr.readline()
            match = re.search(r"DevTools listening on ws://[^:]+:(\d+)/", line)
            if match:
                threading.Thread(target=self.process.stderr.read, daemon=True).start()  # keep the pipe drained
                return int(match[1])
        raise RuntimeError("chromium did not start its DevTools server")

    def call(self, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        self.next_id += 1
        self.ws.send(json.dumps({"id": self.next_id, "method": method, "params": params or {}}))
        while True:
            message = json.loads(self.ws.recv())
            if message.get("id") == self.next_id:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message.get("result", {})
            self.events.append(message)

    def _wait_for(self, method: str) -> None:
        while not any(e.get("method") == method for e in self.events):
            self.events.append(json.loads(self.ws.recv()))

    def open(self, url: str) -> PageCheck:
        self.events.clear()
        self.call("Page.navigate", {"url": url})
        self._wait_for("Page.loadEventFired")
        images = self.call("Runtime.evaluate", {"expression": (
            "Array.from(document.images).map(i => ({src: i.getAttribute('src'), complete: i.complete, "
            "naturalWidth: i.naturalWidth}))"), "returnByValue": True})["result"]["value"]
        return PageCheck(images, self._errors())

    def _errors(self) -> list[str]:
        errors = []
        for e in self.events:
            method, params = e.get("method"), e.get("params", {})
            if method == "Runtime.exceptionThrown":
                errors.append(json.dumps(params.get("exceptionDetails", {}))[:300])
            elif method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
                errors.append(f"console.{params['type']}: {params.get('args')}")
            elif method == "Log.entryAdded" and params.get("entry", {}).get("level") == "error" \
                    and not params["entry"].get("url", "").endswith("/favicon.ico"):  # the browser's own asking
                errors.append(f"{params['entry'].get('text')} {params['entry'].get('url', '')}")
        return errors

    def evaluate(self, expression: str) -> Any:
        return self.call("Runtime.evaluate", {"expression": expression, "returnByValue": True})["result"].get("value")

    def screenshot(self) -> bytes:
        return base64.b64decode(self.call("Page.captureScreenshot", {"format": "png"})["data"])

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.ws.close()
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
        shutil.rmtree(self.profile, ignore_errors=True)


@contextlib.contextmanager
def serve(folder: Path) -> Iterator[str]:
    """Serve `folder` on a free localhost port; yields the base URL."""
    handler = functools.partial(_QuietHandler, directory=str(folder))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:  # the base class's name
        pass
