"""Drive headless Chromium through the DevTools protocol over a pipe (no extra packages).

Chromium started with ``--remote-debugging-pipe`` reads protocol messages from file
descriptor 3 and writes replies to descriptor 4, each message JSON terminated by a NUL byte.
That is enough to open a page, wait for a condition in it, and take a screenshot.
"""

from __future__ import annotations

import base64
import contextlib
import fcntl
import json
import os
import select
import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from types import TracebackType
from typing import Any

#: The flags the docs issue asks for, plus a fixed window so screenshots are comparable.
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--window-size=1280,1000",
)


class BrowserError(Exception):
    """Chromium failed, timed out, or answered a command with an error."""


def find_chromium() -> str | None:
    """Return the path of a Chromium binary, or None if there is none."""
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


def _high_fd(fd: int) -> int:
    """Return a copy of ``fd`` numbered 10 or more (close-on-exec), closing the original."""
    high = fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10)
    os.close(fd)
    return high


#: What DevTools answers when the page was navigating or reloading as it was asked.
_NAVIGATING = ("Inspected target navigated or closed", "Execution context was destroyed",
               "Cannot find context with specified id")


class Chromium:
    """One headless Chromium process with one page, driven over the DevTools pipe."""

    def __init__(self, binary: str, *, timeout: float = 30.0) -> None:
        self.timeout = timeout
        self._profile = tempfile.TemporaryDirectory(prefix="rulespec-chromium-")
        # bash wires the pipe ends onto descriptors 3 and 4, where Chromium expects them (doing
        # it in a shell avoids preexec_fn, unsafe in a threaded process). The ends are moved
        # to 10 and above first, so wiring one onto 3 or 4 cannot clobber another.
        to_child_r, self._to_child, self._from_child, from_child_w = (
            _high_fd(fd) for fd in (*os.pipe(), *os.pipe()))
        wiring = f'exec "$0" "$@" 3<&{to_child_r} 4>&{from_child_w} {to_child_r}<&- {from_child_w}>&-'
        self._proc = subprocess.Popen(
            [shutil.which("bash") or "/bin/bash", "-c", wiring, binary, *FLAGS, f"--user-data-dir={self._profile.name}",
             "--remote-debugging-pipe", "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            pass_fds=(to_child_r, from_child_w),
        )
        os.close(to_child_r)
        os.close(from_child_w)
        self._buffer = b""
        self._next_id = 0
        #: The events :meth:`record_events` asked for, kept until :meth:`drain_events`.
        self._recording: frozenset[str] = frozenset()
        self._events: list[dict[str, Any]] = []
        target = self.command("Target.createTarget", {"url": "about:blank"})["targetId"]
        self._session = self.command("Target.attachToTarget",
                                     {"targetId": target, "flatten": True})["sessionId"]
        self.command("Page.enable", session=True)

    # -- protocol -----------------------------------------------------------------------------

    def command(self, method: str, params: dict[str, Any] | None = None, *,
                session: bool = False) -> dict[str, Any]:
        """Send one protocol command and return its result; BrowserError on an error reply."""
        self._next_id += 1
        message: dict[str, Any] = {"id": self._next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = self._session
        os.write(self._to_child, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + self.timeout
        while True:
            reply = self._read(deadline)
            if reply.get("method") in self._recording:
                self._events.append(reply)
            if reply.get("id") != self._next_id:
                continue  # an event, or the reply to something else
            if "error" in reply:
                raise BrowserError(f"{method} failed: {reply['error']}")
            result: dict[str, Any] = reply.get("result", {})
            return result

    def _read(self, deadline: float) -> dict[str, Any]:
        while b"\0" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                raise BrowserError(f"chromium did not answer within {self.timeout} s")
            ready, _, _ = select.select([self._from_child], [], [], left)
            if ready:
                chunk = os.read(self._from_child, 1 << 16)
                if not chunk:
                    raise BrowserError(f"chromium exited (code {self._proc.poll()})")
                self._buffer += chunk
        raw, self._buffer = self._buffer.split(b"\0", 1)
        message: dict[str, Any] = json.loads(raw)
        return message

    def record_events(self, *methods: str) -> None:
        """Keep the protocol events named ``methods`` (none: stop keeping any)."""
        self._recording = frozenset(methods)
        if not methods:
            self._events.clear()

    def drain_events(self) -> list[dict[str, Any]]:
        """Return the events kept so far (read while waiting for replies) and forget them."""
        self.evaluate("0")  # read what Chromium has sent up to now
        events, self._events = self._events, []
        return events

    # -- page helpers -------------------------------------------------------------------------

    def open(self, url: str) -> None:
        """Load ``url`` and wait until the new document is complete."""
        # Mark the old document, so waiting cannot succeed before the new one replaces it.
        self.evaluate("window.__rulespecOld = true")
        self.command("Page.navigate", {"url": url}, session=True)
        self.wait_for("!window.__rulespecOld && document.readyState === 'complete'")

    def evaluate(self, expression: str) -> Any:
        """Evaluate a JavaScript expression in the page and return its JSON value."""
        result = self.command("Runtime.evaluate", {"expression": expression,
                                                   "returnByValue": True, "awaitPromise": True},
                              session=True)
        if "exceptionDetails" in result:
            raise BrowserError(f"javascript error in {expression!r}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def wait_for(self, expression: str, *, timeout: float | None = None) -> Any:
        """Poll a JavaScript expression until it is truthy and return its value. A page that
        is navigating away when asked (a click on a link to another page) is asked again."""
        deadline = time.monotonic() + (timeout or self.timeout)
        while True:
            try:
                value = self.evaluate(expression)
            except BrowserError as exc:
                if not any(m in str(exc) for m in _NAVIGATING) or time.monotonic() > deadline:
                    raise
                value = None
            if value:
                return value
            if time.monotonic() > deadline:
                raise BrowserError(f"timed out waiting for {expression!r} on "
                                   f"{self.evaluate('location.href')}")
            time.sleep(0.1)

    def screenshot(self, path: Path) -> Path:
        """Save a PNG of the whole page to ``path``."""
        data = self.command("Page.captureScreenshot", {"format": "png",
                                                       "captureBeyondViewport": True},
                            session=True)["data"]
        path.write_bytes(base64.b64decode(data))
        return path

    def viewport(self, width: int, height: int, *, mobile: bool = False) -> None:
        """Emulate a window of ``width`` x ``height`` CSS pixels (a phone with ``mobile``)."""
        self.command("Emulation.setDeviceMetricsOverride",
                     {"width": width, "height": height, "deviceScaleFactor": 1,
                      "mobile": mobile}, session=True)

    def allow_downloads(self, folder: Path) -> None:
        """Save downloads into ``folder`` instead of refusing them."""
        self.command("Browser.setDownloadBehavior",
                     {"behavior": "allow", "downloadPath": str(folder)})

    def set_files(self, selector: str, *paths: Path) -> None:
        """Choose ``paths`` in the file input matching ``selector`` (as a visitor would)."""
        root = self.command("DOM.getDocument", {"depth": 0}, session=True)["root"]["nodeId"]
        node = self.command("DOM.querySelector", {"nodeId": root, "selector": selector},
                            session=True)["nodeId"]
        if not node:
            raise BrowserError(f"no element matches {selector!r}")
        self.command("DOM.setFileInputFiles", {"nodeId": node, "files": [str(p) for p in paths]},
                     session=True)

    # -- lifetime -----------------------------------------------------------------------------

    def close(self) -> None:
        """Stop Chromium and remove its profile."""
        with contextlib.suppress(BrowserError, OSError):
            self.command("Browser.close")
        try:
            self._proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self._proc.kill()
            self._proc.wait()
        for fd in (self._to_child, self._from_child):
            with contextlib.suppress(OSError):
                os.close(fd)
        self._profile.cleanup()

    def __enter__(self) -> Chromium:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()
