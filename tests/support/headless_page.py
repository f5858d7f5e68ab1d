"""Opens a local HTML page in headless Chromium and reports what a reader would meet: the console's
errors and warnings, uncaught exceptions, failed loads, every request the page made, facts the
page's own DOM gives (from a JavaScript expression), and a screenshot.

Chromium is driven over the DevTools protocol on a pipe (--remote-debugging-pipe: commands on fd 3,
events and replies on fd 4, each message JSON ended by a NUL byte), so nothing listens on a port
and nothing beyond the standard library is needed.
"""

import base64
import json
import os
import select
import shutil
import subprocess
import tempfile
import time

BROWSERS = ("chromium", "chromium-browser", "google-chrome")


def find_browser():
    for name in BROWSERS:
        path = shutil.which(name)
        if path:
            return path
    raise RuntimeError("no headless Chromium found (Debian: apt-get install chromium; scripts/install-deps.sh "
                       "--test installs it)")


class DevTools:
    """One Chromium process and the pipe to it."""

    def __init__(self, width, height, timeout_s):
        self.deadline = time.monotonic() + timeout_s
        self.profile = tempfile.mkdtemp(prefix="acmesim-chromium-")
        commands_read, self.commands = os.pipe()
        self.replies, replies_write = os.pipe()

        def wire_pipes():  # in the child, before the descriptors not passed are closed
            os.dup2(commands_read, 3)
            os.dup2(replies_write, 4)

        self.process = subprocess.Popen(
            [find_browser(), "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
             "--disable-extensions", "--remote-debugging-pipe", f"--user-data-dir={self.profile}",
             f"--window-size={width},{height}", "about:blank"],
            pass_fds=(3, 4), preexec_fn=wire_pipes,  # fd 3 reads commands, fd 4 writes replies
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(commands_read)
        os.close(replies_write)
        self.buffer, self.last_id, self.events = b"", 0, []

    def close(self):
        self.process.kill()
        self.process.wait()
        os.close(self.commands)
        os.close(self.replies)
        shutil.rmtree(self.profile, ignore_errors=True)

    def _message(self):
        while b"\0" not in self.buffer:
            left = self.deadline - time.monotonic()
            if left <= 0 or not select.select([self.replies], [], [], left)[0]:
                raise RuntimeError("Chromium did not answer in time")
            chunk = os.read(self.replies, 1 << 16)
            if not chunk:
                raise RuntimeError("Chromium closed its pipe")
            self.buffer += chunk
        message, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(message)

    def call(self, method, session=None, **params):
        self.last_id += 1
        message = {"id": self.last_id, "method": method, "params": params}
        if session:
            message["sessionId"] = session
        os.write(self.commands, json.dumps(message).encode() + b"\0")
        while True:
            reply = self._message()
            if reply.get("id") == self.last_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            self.events.append(reply)

    def wait_for(self, method):
        while not any(e.get("method") == method for e in self.events):
            self.events.append(self._message())


def problems_in(events):
    """The console's errors and warnings, uncaught exceptions and logged failures, as text."""
    found = []
    for event in events:
        method, p = event.get("method"), event.get("params", {})
        if method == "Runtime.consoleAPICalled" and p.get("type") in ("error", "warning", "assert"):
            text = " ".join(str(a.get("value", a.get("description", ""))) for a in p.get("args", []))
            found.append(f"console.{p['type']}: {text}")
        elif method == "Runtime.exceptionThrown":
            details = p.get("exceptionDetails", {})
            found.append("uncaught: " + details.get("exception", {}).get("description", details.get("text", "")))
        elif method == "Log.entryAdded" and p.get("entry", {}).get("level") in ("error", "warning"):
            entry = p["entry"]
            found.append(f"log {entry['level']}: {entry.get('text', '')} {entry.get('url', '')}".rstrip())
    return found


def open_page(path, screenshot, expression="null", width=1280, height=1600, timeout_s=60):
    """Loads the file at `path`, waits for its load event, evaluates `expression` (its JSON-able
    value is returned as "facts"), writes a PNG screenshot of the first width x height pixels to
    `screenshot`, and returns {"facts", "problems", "requests"}."""
    url = "file://" + os.path.abspath(path)
    browser = DevTools(width, height, timeout_s)
    try:
        target = browser.call("Target.createTarget", url="about:blank")["targetId"]
        session = browser.call("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
        for domain in ("Page", "Runtime", "Log", "Network"):
            browser.call(f"{domain}.enable", session)
        browser.call("Emulation.setDeviceMetricsOverride", session, width=width, height=height,
                     deviceScaleFactor=1, mobile=False)
        browser.call("Page.navigate", session, url=url)
        browser.wait_for("Page.loadEventFired")
        facts = browser.call("Runtime.evaluate", session, expression=expression, returnByValue=True)
        shot = browser.call("Page.captureScreenshot", session, format="png")["data"]
        with open(screenshot, "wb") as f:
            f.write(base64.b64decode(shot))
        requests = [e["params"]["request"]["url"] for e in browser.events
                    if e.get("method") == "Network.requestWillBeSent"]
        return {"facts": facts.get("result", {}).get("value"), "problems": problems_in(browser.events),
                "requests": requests}
    finally:
        browser.close()
