"""Headless Chromium for the report tests: load a page, run a script in it, collect errors."""

from __future__ import annotations

import html as htmllib
import json
import os
import re
import signal
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

CHROMIUM_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--enable-logging=stderr",
    "--v=0",
)
# Installed before the page's own script: records errors and console.error calls, then (after
# load) runs the test's actions and writes {"result": ..., "errors": [...]} into the DOM.
HOOK = """<script>
window.__errors = [];
window.addEventListener("error", (e) => window.__errors.push("error: " + e.message));
window.addEventListener("unhandledrejection", (e) => window.__errors.push("rejection: " + e.reason));
const __consoleError = console.error;
console.error = (...args) => { window.__errors.push("console.error: " + args.join(" ")); __consoleError(...args); };
window.addEventListener("load", () => setTimeout(() => {
  let result = null;
  try { result = (function () { %s })(); } catch (e) { window.__errors.push("test: " + e); }
  const out = document.createElement("pre");
  out.id = "__test_result";
  out.textContent = JSON.stringify({result: result, errors: window.__errors});
  document.body.appendChild(out);
}, 0));
</script>"""


@dataclass
class PageRun:
    result: Any
    errors: list[str]
    stderr: str


class Browser:
    """Loads a report page in headless Chromium and returns what the test script returned."""

    def __init__(self, binary: str, tmp: Path) -> None:
        self.binary = binary
        self.tmp = tmp

    def _flags(self, name: str) -> list[str]:
        return [self.binary, *CHROMIUM_FLAGS, f"--user-data-dir={self.tmp / ('profile-' + name)}"]

    def run(self, page: Path, script: str = "return null;", fragment: str = "") -> PageRun:
        """Open a copy of `page` (at `#fragment`) with the hook injected; `script` is the body
        of a JS function run after load, whose return value comes back as `result`."""
        html = page.read_text(encoding="utf-8")
        hooked = page.with_name(f"__hooked-{page.name}")
        hooked.write_text(html.replace("<head>", "<head>" + HOOK % script, 1), encoding="utf-8")
        cmd = [
            *self._flags("dom"),
            "--virtual-time-budget=5000",
            "--dump-dom",
            hooked.as_uri() + fragment,
        ]
        out = _run_chromium(cmd)
        hooked.unlink()
        match = re.search(r'<pre id="__test_result">(.*?)</pre>', out.stdout, re.S)
        assert match, f"no test result in the dumped DOM; chromium stderr:\n{out.stderr[-3000:]}"
        data = json.loads(htmllib.unescape(match.group(1)))
        return PageRun(data["result"], data["errors"], out.stderr)

    def screenshot(self, page: Path, png: Path, size: str = "1400,2400") -> None:
        cmd = [
            *self._flags("shot"),
            "--hide-scrollbars",
            f"--window-size={size}",
            f"--screenshot={png}",
            page.as_uri(),
        ]
        assert _run_chromium(cmd).returncode == 0


def _run_chromium(cmd: list[str], timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """Run Chromium in its own process group, so a hang kills its helper processes too."""
    proc = subprocess.Popen(
        cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True
    )
    try:
        stdout, stderr = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        raise
    return subprocess.CompletedProcess(cmd, proc.returncode, stdout, stderr)


def console_errors(stderr: str) -> list[str]:
    """Console errors Chromium logged (`--enable-logging=stderr`): uncaught exceptions and
    failed resource loads of the page (its own dbus/GPU chatter is not about the page)."""
    return [
        line
        for line in stderr.splitlines()
        if (
            "CONSOLE" in line
            and ("Uncaught" in line or ":ERROR:" in line or "error" in line.lower())
        )
        or "net::ERR" in line
    ]
