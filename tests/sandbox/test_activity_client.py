"""The Activity's browser client (web/activity/, built into
bot/activity/static/) in headless Chromium, against a stand-in server that
speaks the protocol of docs/activity.md over a real engine
(tests/sandbox/activity_fake.py): what the client itself must do, whatever
the server. The whole Activity (the real server, the sandbox, chat and
Activity together, the secrets) is tests/sandbox/test_activity_sandbox.py.

- two players finish a Sixty-Six by clicking the client's controls (their
  cards, its buttons); every move the client sends is one the server offered
  it (echoed, never built), at the version it was shown at;
- a dropped socket shows "reconnecting" (the catalogue's words), comes back
  by itself and catches up with a move made meanwhile (its hello names the
  last version it saw);
- every word is the viewer's catalogue's: a Japanese viewer's page."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from typing import Any

import pytest
from activity_fake import FakeActivity, words
from browserkit import (
    CHROMIUM,
    CHROMIUM_ARGS,
    NEEDS_BROWSER,
    SAID_RECONNECTING,
    WATCH_BAR,
    shot,
    sync_playwright,
)

pytestmark = NEEDS_BROWSER


@pytest.fixture
def chromium() -> Iterator[Any]:
    assert sync_playwright is not None
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


def open_as(browser: Any, url: str, who: str, width: int = 1100) -> Any:
    page = browser.new_page(viewport={"width": width, "height": 800})
    page.goto(f"{url}?sdk=mock&guild=1&channel=5#code=code-{who}")
    page.locator(".table").wait_for(timeout=15000)
    return page


def version(page: Any) -> int:
    return int(page.locator(".table").get_attribute("data-version") or 0)


def controls(page: Any) -> list[str]:
    return [
        str(m)
        for m in page.locator("button[data-move]:not([disabled])").evaluate_all(
            "bs => bs.map(b => b.dataset.move)"
        )
    ]


def test_two_players_finish_a_sixtysix_with_the_clients_controls(chromium: Any) -> None:
    fake = FakeActivity("sixtysix", ["alice", "bob"], {"target": 1}, seed="client-66")
    url = fake.start()
    try:
        pages = {who: open_as(chromium, url, who) for who in ("alice", "bob")}
        played_cards = 0
        deadline = time.monotonic() + 90
        while not fake.engine.is_finished(fake.state):
            assert time.monotonic() < deadline, f"the game did not end in 90 s: {fake.log}"
            who = fake.engine.to_move(fake.state)[0]  # both may move at a deal's end: the first
            page = pages[who]
            before = fake.version
            # what the page offers is what the server's frame offered
            offered = {m["move"] for m in fake.frame(who)["moves"]}
            page.wait_for_function(
                f"() => document.querySelector('.table')?.dataset.version === '{before}'",
                timeout=5000,
            )
            shown = controls(page)
            assert set(shown) == offered, (shown, offered)
            cards = page.locator(".hand.mine button.card[data-move]")
            if cards.count():  # a card of the hand, played by a click on it
                cards.first.click()
                played_cards += 1
            else:
                # at a deal's end (declare or pass) declare, to end it; else no close
                calm = [m for m in shown if m not in ("m:declare", "m:close")] or shown
                pick = "m:declare" if "m:pass" in shown and "m:declare" in shown else calm[0]
                page.locator(f'button[data-move="{pick}"]').first.click()
            page.wait_for_function(
                f"() => Number(document.querySelector('.table')?.dataset.version) > {before}",
                timeout=5000,
            )
        for who, page in pages.items():
            page.locator(".result").wait_for(timeout=5000)
            assert (
                page.locator(".result a.review").get_attribute("href")
                == "https://example.invalid/review"
            )
            assert (
                page.locator(".result a.replay").inner_text() == words("en")["activity.ui.replay"]
            )
            assert not controls(page)
            shot(page, f"fake-sixtysix-end-{who}.png")
        assert played_cards >= 12  # a deal is at least six tricks of two cards
        # every move sent was offered to that socket at that version
        sent_moves = [m for m in fake.received if m["op"] == "move"]
        assert sent_moves and all(re.fullmatch(r"m:\S+( \S+)?", m["move"]) for m in sent_moves)
        offered_at: dict[tuple[str | None, int], set[str]] = {}
        for viewer, frames in fake.sent.items():
            for text in frames:
                doc = json.loads(text)
                if doc["op"] == "table":
                    offered_at.setdefault((viewer, doc["version"]), set()).update(
                        m["move"] for m in doc["moves"]
                    )
        for m in sent_moves:
            assert any(
                m["move"] in moves for (_, v), moves in offered_at.items() if v == m["version"]
            ), m
    finally:
        fake.stop()


def test_a_dropped_socket_reconnects_and_catches_up(chromium: Any) -> None:
    fake = FakeActivity("bluff", ["alice", "bob"], seed="client-bluff")
    url = fake.start()
    try:
        routes: list[Any] = []

        def through(ws: Any) -> None:
            ws.connect_to_server()
            routes.append(ws)

        alice = chromium.new_page(viewport={"width": 1100, "height": 800})
        alice.route_web_socket(re.compile(r".*/api/ws$"), through)
        alice.goto(f"{url}?sdk=mock&channel=5#code=code-alice")
        alice.locator(".table").wait_for(timeout=15000)
        bob = open_as(chromium, url, "bob")
        (first,) = fake.engine.to_move(fake.state)
        {"alice": alice, "bob": bob}[first].locator('button[data-move="m:roll"]').click()
        alice.wait_for_function(
            "() => document.querySelector('.table')?.dataset.version === '2'", timeout=5000
        )
        # the socket drops: the page says so in the catalogue's words
        hellos = fake.hellos
        alice.evaluate(WATCH_BAR)
        fake.refusing = True  # the page cannot come back before the move below
        routes[-1].close()
        reconnecting = words("en")["activity.ui.reconnecting"]
        alice.wait_for_function(SAID_RECONNECTING, timeout=5000)
        assert f"bar warn|{reconnecting}" in alice.evaluate("window.barShown")
        # meanwhile a move is made from elsewhere (as from the chat table)
        fake.play(first, fake.engine.legal_moves(fake.state, first)[0])
        fake.refusing = False
        alice.wait_for_function(
            "() => document.querySelector('.table')?.dataset.version === '3'", timeout=15000
        )
        assert fake.hellos == hellos + 1  # one hello: the socket the server took
        alice.get_by_text(reconnecting).wait_for(state="hidden", timeout=5000)
        last_hello = [m for m in fake.received if m["op"] == "hello"][-1]
        assert last_hello["since"] == 2 and last_hello["token"] == "tok-alice"
        assert version(alice) == fake.version
    finally:
        fake.stop()


def test_a_japanese_viewer_reads_the_japanese_catalogue(chromium: Any) -> None:
    fake = FakeActivity("sixtysix", ["alice", "bob"], seed="client-ja", locale="ja")
    url = fake.start()
    try:
        (first,) = fake.engine.to_move(fake.state)
        page = open_as(chromium, url, first, width=400)  # Discord's mobile width
        ja = words("ja")
        assert page.locator(".turn").inner_text() == ja["activity.ui.your_turn"]
        assert page.locator(".own .who").inner_text() == ja["activity.ui.your_hand"]
        assert page.locator(".scores h2").inner_text().strip() == ja["activity.ui.scores"]
        assert page.evaluate("document.documentElement.lang") == "ja"
        # the hand fits the narrow page: no card out of the window
        right = page.locator(".hand.mine .card").evaluate_all(
            "cs => Math.max(...cs.map(c => c.getBoundingClientRect().right))"
        )
        assert right <= 400
        shot(page, "fake-sixtysix-ja-mobile.png")
    finally:
        fake.stop()


def test_the_clock_counts_from_the_servers_now(chromium: Any) -> None:
    """The sandbox's bot runs on a simulated clock (and a player's computer
    may be off): a deadline 90 s after the frame's ``now`` reads about 1:30,
    whatever the browser's own clock says (here: months later)."""
    fake = FakeActivity("nine", ["alice", "bob"], seed="client-clock")
    fake.now, fake.deadline = "2026-01-01T00:00:00+00:00", "2026-01-01T00:01:30+00:00"
    url = fake.start()
    try:
        page = open_as(chromium, url, "alice")
        value = page.locator(".clock .value")
        page.wait_for_function("() => document.querySelector('.clock .value')?.textContent !== ''")
        shown = value.inner_text()
        minutes, seconds = (int(x) for x in shown.split(":"))
        assert 80 <= minutes * 60 + seconds <= 90, shown
        assert page.locator(".clock .label").inner_text() == words("en")["activity.ui.clock"]
    finally:
        fake.stop()


def test_a_roll_tumbles_briefly_a_key_skips_it_and_reduced_motion_stills_it(chromium: Any) -> None:
    """A new roll's dice tumble (CSS animation) for a moment; a key press
    ends it at once; with prefers-reduced-motion there is no animation."""
    fake = FakeActivity("sixdice", ["alice", "bob"], seed="client-roll")
    url = fake.start()
    try:
        page = open_as(chromium, url, "alice")
        (first,) = fake.engine.to_move(fake.state)
        fake.play(first, "roll")
        page.locator(".die.rolling").first.wait_for(timeout=5000)
        name = page.locator(".die.rolling").first.evaluate("d => getComputedStyle(d).animationName")
        assert name == "roll"
        page.keyboard.press("Escape")
        assert page.locator(".die.rolling").count() == 0
        # setting dice aside is no roll: nothing tumbles; the next roll does,
        # even one that ends the turn (no dice left in "roll", the last roll shown)
        take = next(m for m in fake.engine.legal_moves(fake.state, first) if m.startswith("take"))
        for move, tumbling in ((take, False), ("roll", True)):
            fake.play(first, move)
            page.wait_for_function(f"() => document.querySelector('.table')?.dataset.version === '{fake.version}'")
            assert (page.locator(".die.rolling").count() > 0) is tumbling, (move, fake.log)
        # with reduced motion a rolling die does not move
        still = chromium.new_page(viewport={"width": 1100, "height": 800}, reduced_motion="reduce")
        still.goto(f"{url}?sdk=mock&channel=5#code=code-bob")
        still.locator(".table .die").first.wait_for(timeout=15000)
        names = still.locator(".table .die").evaluate_all(
            "ds => ds.map(d => { d.classList.add('rolling'); return getComputedStyle(d).animationName; })"
        )
        assert names and set(names) == {"none"}, names
    finally:
        fake.stop()


def test_a_question_asked_about_a_move_is_answered_no_or_yes(chromium: Any) -> None:
    """An ``ask`` frame (Sixty-Six's "sure?") is a dialog: "no" closes it and
    the controls come back (no frame follows a "no"); "yes" plays the move."""
    fake = FakeActivity("sixtysix", ["alice", "bob"], {"target": 1}, seed="client-ask")
    fake.asks = {"m:declare"}
    url = fake.start()
    try:
        (first,) = fake.engine.to_move(fake.state)
        page = open_as(chromium, url, first)
        declare = page.locator('.table button[data-move="m:declare"]')
        declare.click()
        page.locator(".ask").wait_for(timeout=5000)
        assert page.locator(".ask strong").inner_text() == "Sure?"
        page.locator('.ask button[data-move="dismiss"]').click()
        page.locator(".ask").wait_for(state="detached", timeout=2000)
        assert declare.is_enabled(), "the controls came back after 'no'"
        before = fake.version
        declare.click()
        page.locator('.ask button[data-move="y:m:declare"]').click()
        page.wait_for_function(f"() => Number(document.querySelector('.table')?.dataset.version) > {before}", timeout=5000)
        assert fake.log[-1] == f"{first.capitalize()}: declare"
        assert [m["move"] for m in fake.received if m["op"] == "move"] == ["m:declare", "dismiss", "m:declare", "y:m:declare"]
    finally:
        fake.stop()
