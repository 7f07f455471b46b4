"""The sandbox as a person uses it: `python -m bot sandbox`, a real browser
(headless Chromium driven by Playwright), /play Yahtzee, Start, Roll."""
from __future__ import annotations

import os
import re
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from browserkit import CHROMIUM, CHROMIUM_ARGS, NEEDS_BROWSER, sync_playwright

pytestmark = NEEDS_BROWSER



@pytest.fixture
def sandbox(tmp_path: Path):
    db = tmp_path / "sandbox.sqlite3"
    proc = subprocess.Popen(
        # the clock moves every 20 ms (not every second): a click that
        # collides with a move of the clock is lost unless the sandbox makes
        # one wait for the other, and at this pace most clicks would collide
        [sys.executable, "-m", "bot", "sandbox", "--db", str(db), "--tick", "0.02"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    url = None
    lines: list[str] = []
    deadline = time.monotonic() + 60
    assert proc.stdout is not None
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        lines.append(line)
        m = re.search(r"(http://127\.0\.0\.1:\d+/\S*)", line)
        if m and url is None:  # the channel's page (the members' DM pages follow)
            url = m.group(1)
        if "Ctrl+C" in line:
            break
    # keep draining the sandbox's output (a full pipe would stall it) and
    # show it when a test fails: the bot's side of what the browser saw
    drain = threading.Thread(target=lambda: lines.extend(proc.stdout), daemon=True)  # type: ignore[arg-type]
    drain.start()
    try:
        assert url, "".join(lines)
        yield url, db, "".join(lines)
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
        drain.join(timeout=5)
        sys.stderr.write("--- sandbox output ---\n" + "".join(lines))


def send_play(page, typed: str, option: str) -> None:
    """Type /play, pick the game and send, as a person does. The composer
    sometimes misses the pick while it is still settling (the Send button
    stays disabled): then reload the page and pick again."""
    box = page.get_by_placeholder(re.compile("Message #game-table"))
    send = page.locator("#send-message:not([disabled])")
    for attempt in range(3):
        box.click()
        box.type("/play")
        page.get_by_text("Open a table for a game in this channel").click()
        page.keyboard.type(typed)
        page.get_by_role("option", name=option).click()
        try:
            send.wait_for(timeout=5000)
        except Exception:
            if attempt == 2:
                raise
            page.reload()  # a fresh composer
            continue
        send.click()
        return


def test_sandbox_plays_yahtzee_in_a_browser(sandbox, tmp_path: Path) -> None:
    url, db, banner = sandbox
    assert "127.0.0.1" in url and "Ctrl+C" in banner
    assert sync_playwright is not None
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1200, "height": 900})
            page.goto(url)
            send_play(page, "yahtzee", "Yahtzee")
            page.get_by_text("Start", exact=True).click()
            roll = page.get_by_role("button", name=re.compile(r"^(Roll|Reroll the others)"))
            for left in (2, 1, 0):  # every click counts, the clock moving all along
                roll.click()
                page.locator(".markdown-paragraph", has_text=f"rolls left: {left}").first.wait_for(timeout=15000)
            pictures = page.locator("img[alt*='Yahtzee']")
            pictures.first.wait_for(timeout=15000)
            assert pictures.count() >= 1
            shot = tmp_path / "sandbox-yahtzee.png"
            page.screenshot(path=str(shot))
            assert shot.stat().st_size > 10_000
        finally:
            browser.close()
    # the game lives in the sandbox's database, as with the real bot
    assert db.exists()


def test_sandbox_second_play_in_the_channel_is_refused_like_discord(sandbox, tmp_path: Path) -> None:
    url, _db, _banner = sandbox
    assert sync_playwright is not None
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1200, "height": 900})
            page.goto(url)
            send_play(page, "nine", "Nine")
            page.get_by_text("Start", exact=True).first.wait_for(timeout=15000)  # the lobby
            send_play(page, "nine", "Nine")
            page.get_by_text(re.compile(r"already", re.I)).first.wait_for(timeout=15000)
            page.screenshot(path=str(tmp_path / "sandbox-second-play.png"))
        finally:
            browser.close()
