"""A real browser for the tests: Debian's headless chromium driven over the Chrome DevTools
Protocol (a websocket; `websocket-client`). Enough to do what a person does on a static
site — open a page, click a link, type into a box and press Enter — and to read what the
page shows (its text, through the DOM) and keep a screenshot of it."""

from __future__ import annotations

import base64
import json
import os
import shutil
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest
import websocket

CHROMIUM = os.environ.get("TETHER_CHROMIUM", "/usr/bin/chromium")
WAIT = 60  # seconds a step may take on a loaded machine before the test gives up (not a measurement)


def available() -> bool:
    return Path(CHROMIUM).exists() or shutil.which(CHROMIUM) is not None


class Browser:
    def __init__(self, profile: Path):
        profile.mkdir(parents=True, exist_ok=True)
        self.proc = subprocess.Popen(
            [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-extensions",
             "--disable-background-networking", "--disable-component-update", "--disable-sync",
             "--remote-debugging-port=0", "--remote-allow-origins=*", f"--user-data-dir={profile}", "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        port_file = profile / "DevToolsActivePort"
        deadline = time.monotonic() + WAIT
        while not port_file.is_file() or not port_file.read_text().strip():
            if self.proc.poll() is not None or time.monotonic() > deadline:
                self.close()
                pytest.fail(f"chromium did not start ({CHROMIUM})")
            time.sleep(0.1)
        port = port_file.read_text().split()[0]
        targets = json.load(urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=WAIT))
        page = next(t for t in targets if t["type"] == "page")
        self.ws = websocket.create_connection(page["webSocketDebuggerUrl"], timeout=WAIT)
        self.next_id, self.events, self.requests = 0, [], []
        for domain in ("Page", "Runtime", "Network"):
            self.call(f"{domain}.enable")

    def close(self) -> None:
        if getattr(self, "ws", None):
            self.ws.close()
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, 9)
        self.proc.wait()

    def call(self, method: str, **params) -> dict:
        self.next_id += 1
        self.ws.send(json.dumps({"id": self.next_id, "method": method, "params": params}))
        while True:
            msg = json.loads(self.ws.recv())
            if msg.get("id") == self.next_id:
                if "error" in msg:
                    raise AssertionError(f"{method}: {msg['error']}")
                return msg["result"]
            self._event(msg)

    def _event(self, msg: dict) -> None:
        if msg.get("method") == "Network.requestWillBeSent":
            self.requests.append(msg["params"]["request"]["url"])
        self.events.append(msg.get("method"))

    def _until(self, event: str) -> None:
        while event not in self.events:
            self._event(json.loads(self.ws.recv()))

    def _loads(self, act) -> None:
        """Run ``act`` and wait until the page it leads to has loaded."""
        self.events.clear()
        act()
        self._until("Page.loadEventFired")

    def open(self, url: str) -> None:
        self._loads(lambda: self.call("Page.navigate", url=url))

    def js(self, expression: str):
        r = self.call("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in r:
            raise AssertionError(f"{expression}: {r['exceptionDetails']}")
        return r["result"].get("value")

    @property
    def url(self) -> str:
        return self.js("location.href")

    def text(self, selector: str = "body") -> str:
        """What the page shows there, as a person reads it."""
        return self.js(f"document.querySelector({json.dumps(selector)}).innerText")

    def click(self, selector: str, text: str | None = None, navigates: bool = True) -> None:
        """A mouse click in the middle of the (first) element matching ``selector`` and holding
        ``text``, scrolled into view first, as a person would click it."""
        find = f"[...document.querySelectorAll({json.dumps(selector)})]" + (
            f".find(e => e.innerText.includes({json.dumps(text)}))" if text else "[0]")
        box = self.js(f"(() => {{ const e = {find}; if (!e) return null; e.scrollIntoView({{block: 'center'}});"
                      f" const r = e.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; }})()")
        assert box, f"nothing to click: {selector} {text or ''} on {self.url}"

        def press():
            for kind in ("mousePressed", "mouseReleased"):
                self.call("Input.dispatchMouseEvent", type=kind, x=box[0], y=box[1], button="left", clickCount=1)
        self._loads(press) if navigates else press()

    def type(self, selector: str, words: str) -> None:
        self.js(f"document.querySelector({json.dumps(selector)}).focus()")
        self.call("Input.insertText", text=words)

    def enter(self) -> None:
        def press():
            for kind in ("keyDown", "keyUp"):
                self.call("Input.dispatchKeyEvent", type=kind, key="Enter", code="Enter", windowsVirtualKeyCode=13,
                          **({"text": "\r"} if kind == "keyDown" else {}))
        self._loads(press)

    def size(self, width: int, height: int, mobile: bool = False) -> None:
        self.call("Emulation.setDeviceMetricsOverride", width=width, height=height, deviceScaleFactor=1, mobile=mobile)

    def screenshot(self, path: Path) -> Path:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(base64.b64decode(self.call("Page.captureScreenshot", format="png")["data"]))
        return path
