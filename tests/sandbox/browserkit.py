"""What the sandbox's browser tests share: headless Chromium driven by
Playwright (skipped where either is missing), and screenshots of the pages
(``SANDBOX_SHOTS=DIR``) taken once their pictures have loaded."""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
try:
    from playwright.sync_api import TimeoutError as PlaywrightTimeout
    from playwright.sync_api import sync_playwright
except ImportError:  # pragma: no cover - depends on the machine
    sync_playwright = None  # type: ignore[assignment]
    PlaywrightTimeout = TimeoutError  # type: ignore[assignment,misc]

NEEDS_BROWSER = [  # a test module's pytestmark
    pytest.mark.skipif(
        CHROMIUM is None, reason="Chromium is not installed (Debian: apt-get install chromium)"
    ),
    pytest.mark.skipif(
        sync_playwright is None, reason="playwright is not installed (pip install playwright)"
    ),
]

CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]  # fmt: skip

SHOTS = Path(os.environ["SANDBOX_SHOTS"]) if os.environ.get("SANDBOX_SHOTS") else None


def shot(page: Any, name: str) -> None:
    """A screenshot of ``page`` as ``name`` in ``SANDBOX_SHOTS`` (if set),
    once its pictures have loaded: the page fetches each one after its words
    appear (till then an image has no source and shows its alt text)."""
    if SHOTS is None:
        return
    SHOTS.mkdir(parents=True, exist_ok=True)
    loaded = "() => Array.from(document.images).every(i => i.src && i.naturalWidth > 0)"
    deadline = time.monotonic() + 5  # a picture that never loads is shot as it is
    while not page.evaluate(loaded) and time.monotonic() < deadline:
        time.sleep(0.05)
    page.screenshot(path=str(SHOTS / name))


# The Activity's page (web/activity/).
# What the connection's bar showed, recorded as it changes (a reconnect can
# come and go faster than a poll of the page sees it).
WATCH_BAR = """() => {
  const bar = document.getElementById("bar");
  window.barShown = [];
  new MutationObserver(() => window.barShown.push(bar.className + "|" + bar.textContent))
    .observe(bar, { attributes: true, childList: true, subtree: true, characterData: true });
}"""
SAID_RECONNECTING = "() => (window.barShown || []).some(s => s.startsWith('bar warn|'))"
