"""A tournament played as people would, in the sandbox, in a real browser
(headless Chromium driven by Playwright; issue 26).

alice (the sandbox's first member owns the server, so she may create one)
types ``/tournament create`` for a Nine Swiss of 2 rounds at tables of 3
with computers in the empty seats; bob and alice press Join, alice Start.
Each round opens a thread per match: the channel's "started a thread" line
links to the thread's page, opened as the member who clicked; alice and bob
play their turns there. Round 2 opens by itself, and the channel shows the
final standings with the podium and the standings picture, its places
written as the picture counts them ("1. bob", not a list the page numbers
again), and each thread says, under its result, that the match is recorded
and where the next round opens.

Before: nobody could create a tournament ("Only members with Manage Server
…"), and a thread had no page (its name linked to discord.com); a thread said
nothing after its result."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from browserkit import CHROMIUM, CHROMIUM_ARGS, NEEDS_BROWSER, shot, sync_playwright

pytestmark = NEEDS_BROWSER

NOT_MOVES = ("Show", "Leave", "Replay", "Review", "Record", "🔑")  # a table's buttons that are no move


@pytest.fixture
def sandbox(tmp_path: Path, request: Any) -> Iterator[tuple[str, list[str]]]:
    extra = list(getattr(request, "param", ()))  # ("--locale", "ja")
    proc = subprocess.Popen(
        [sys.executable, "-m", "bot", "sandbox", "--db", str(tmp_path / "s.sqlite3"),
         "--tick", "0.05", "--cpu-delay", "0.1-0.2", *extra],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    lines: list[str] = []
    url = None
    assert proc.stdout is not None
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        lines.append(line)
        m = re.match(r"^\s*(http://127\.0\.0\.1:\d+/\S*)", line)
        if m and url is None:
            url = m.group(1)
        if "Ctrl+C" in line:
            break
    threading.Thread(target=lambda: lines.extend(proc.stdout), daemon=True).start()  # type: ignore[arg-type]
    try:
        assert url, "".join(lines)
        yield url, lines
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
        sys.stderr.write("--- sandbox output ---\n" + "".join(lines))


def view_as(page: Any, member: str) -> None:
    page.locator("#viewer-picker").select_option(label=member)
    page.wait_for_function(
        "name => document.querySelector('#viewer-picker')?.selectedOptions[0]?.label === name", arg=member
    )
    time.sleep(0.3)


SWISS_OF_THREES = (("format", "swiss", "swiss"), ("rounds", "2", None),
                   ("table_size", "3", None), ("cpu_fill", "true", "True"))  # fmt: skip


def create(
    page: Any,
    command: str = "/tournament create",
    described: str = "Open the sign-up of a tournament in this channel",
    game: tuple[str, str] = ("nine", "Nine"),
    options: tuple[tuple[str, str, str | None], ...] = SWISS_OF_THREES,
) -> None:
    """``/tournament create game:Nine format:swiss rounds:2 table_size:3
    cpu_fill:True`` (or ``command`` in another language with its
    ``options``: name, what is typed, the choice picked), typed and picked
    in the composer."""
    box = page.locator("#channel-composer-input")
    box.click()
    box.type(command)
    page.get_by_text(described).first.click()
    page.keyboard.type(game[0])
    page.get_by_role("option", name=game[1]).first.click()
    composer = page.locator("#channel-composer")
    for name, value, choice in options:
        if not composer.get_by_text(name, exact=True).count():
            page.get_by_text(re.compile(r"^\+\d+ more$")).first.click()
        page.get_by_text(name, exact=True).first.click()
        page.keyboard.type(value)
        if choice:
            page.get_by_role("option", name=choice).first.click()
    page.locator("#send-message:not([disabled])").click()


def move(page: Any, member: str, turn: str = "Turn: @{member}", not_moves: tuple[str, ...] = NOT_MOVES) -> bool:
    """``member``'s move at the thread's table if it is their turn (the
    table's ``turn`` line, in its language): the table's first button that
    is a move (Nine: Roll, then Flip …)."""
    table = page.locator(".channel-message").filter(has_text=turn.format(member=member))
    if not table.count():
        return False
    for button in table.first.locator(".message-components").get_by_role("button").all():
        try:
            label = button.inner_text(timeout=500).strip()
            if label and not label.startswith(not_moves):
                button.click(timeout=1500)
                return True
        except Exception:  # the message was redrawn under the click: look again
            return False
    return False


def test_a_two_round_tournament_is_played_to_its_final_standings(sandbox: Any) -> None:
    url, lines = sandbox
    assert sync_playwright is not None
    started = time.monotonic()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1200, "height": 900})
        try:
            page.goto(url)
            page.locator("#channel-composer-input").wait_for()
            create(page)
            page.get_by_text("Nine tournament — Swiss").first.wait_for(timeout=10000)
            for member, count in (("bob", "1 player: "), ("alice", "2 players: ")):
                view_as(page, member)
                page.get_by_role("button", name="Join", exact=True).last.click()
                page.get_by_text(count).first.wait_for(timeout=5000)
            page.get_by_role("button", name="Start", exact=True).last.click()
            shot(page, "tournament-started.png")
            ids = {
                name: page.locator("#viewer-picker option", has_text=name).first.get_attribute("value")
                for name in ("alice", "bob")
            }
            threads: dict[str, list[tuple[str, Any]]] = {}
            deadline = time.monotonic() + 150
            # the podium's message (the sign-up message, edited a moment
            # before, says "the final standings are below" too)
            final = page.locator(".channel-message").filter(has_text="tournament is over!")
            while time.monotonic() < deadline and not final.count():
                for number in (1, 2):
                    name = f"Tournament #1 · Round {number} · match 1"
                    link = page.locator("a.message-system-link", has_text=name)
                    if name in threads or not link.count():
                        continue
                    # alice clicks the thread's name: its page opens, as alice
                    with page.context.expect_page() as opened:
                        link.first.click()
                    mine = opened.value
                    href = link.first.get_attribute("href") or ""
                    assert parse_qs(urlsplit(href).query)["viewer_id"] == [ids["alice"]], href
                    mine.locator("#channel-composer-input").wait_for()
                    assert mine.locator("#viewer-picker").evaluate("e => e.selectedOptions[0].label") == "alice"
                    bobs = browser.new_page(viewport={"width": 1200, "height": 900})
                    bobs.goto(href.replace(f"viewer_id={ids['alice']}", f"viewer_id={ids['bob']}"))
                    bobs.locator("#channel-composer-input").wait_for()
                    mine.get_by_text(re.compile(rf"your round {number} match")).first.wait_for(timeout=10000)
                    threads[name] = [("alice", mine), ("bob", bobs)]
                moved = False
                for pages in threads.values():
                    for member, thread in pages:
                        moved = move(thread, member) or moved
                if not moved:
                    time.sleep(0.1)
            shot(page, "tournament-final.png")
            for name, pages in threads.items():
                shot(pages[0][1], f"tournament-{name[11]}.png")
            assert final.count(), "no final standings in 150 s:\n" + page.locator("#channel-message-list").inner_text()
            # round 2 was opened by itself when round 1's match ended
            assert list(threads) == ["Tournament #1 · Round 1 · match 1", "Tournament #1 · Round 2 · match 1"], list(threads)
            text = final.last.inner_text()
            assert "🏆 The Nine tournament is over!" in text and "🥇" in text, text
            # places in the words as in the picture: "1. bob — 6.5 pts (2 games)", and
            # on equal points the tie-break that decides: "1. bob — 5 pts · Chips +3 (2 games)"
            assert re.search(r"(?m)^1[.=] (alice|bob) — [\d.]+ pts?( · [^(]+)? \(2 games\)$", text), text
            assert final.last.locator("img").count() >= 1  # the standings picture
            # at each result, the thread says what happens next and where
            first = threads["Tournament #1 · Round 1 · match 1"][0][1]
            first.get_by_text("round 2 opens there by itself").first.wait_for(timeout=5000)
            last = threads["Tournament #1 · Round 2 · match 1"][0][1]
            last.get_by_text("It was the last round").first.wait_for(timeout=5000)
        except BaseException:
            shot(page, "tournament-failed.png")
            raise
        finally:
            browser.close()
    took = time.monotonic() - started
    print(f"tournament played in {took:.1f} s")
    out = "".join(lines)
    assert "Thread “Tournament #1 · Round 2 · match 1”: http://127.0.0.1:" in out, out
    assert "Traceback" not in out, out


# ---------------------------------------------------------------- in process


async def run_in_sandbox(tmp_path: Path, locale: str, act: Any) -> dict[str, Any]:
    """``act(info, page)`` in a sandbox of ``locale``, ``page`` a page of the
    channel as alice (what the browser gets from ``/api/pages``)."""
    import asyncio

    from bot.sandbox import open_sandbox

    stop = asyncio.Event()
    seen: dict[str, Any] = {}

    async def ready(info: dict[str, Any]) -> None:
        try:
            preview = info["preview"]
            page = preview._open_page(info["members"]["alice"])
            seen.update(await act(info, page))
        finally:
            stop.set()

    await asyncio.wait_for(
        open_sandbox(str(tmp_path / "s.sqlite3"), locale=locale, ready=ready, stop=stop), timeout=120
    )
    return seen


def command_body(preview: Any, page: Any, path: list[str], options: dict[str, Any]) -> dict[str, Any]:
    """What the page sends for the catalog's command at ``path`` (as shown)."""
    entry = next(e for e in page.command_catalog["entries"] if e["path"] == path)
    return {
        "kind": "run_command", "command_id": entry["commandId"], "path": entry["path"],
        "schema_fingerprint": entry["schemaFingerprint"], "options": options,
        "protocol_version": 3, "sequence": page.last_sequence + 1, "request_id": f"r{page.last_sequence}",
        "generation": page.generation, "bot_generation": preview.env._generation,
        "published_revision": page.revision,
    }  # fmt: skip


async def test_a_japanese_subcommand_runs_from_the_page(tmp_path: Path) -> None:
    """``--locale ja``: the page lists ``/大会 作成`` and sending it opens the
    sign-up in Japanese (before: "Command 'tournament' has no subcommand
    path '作成'", and nothing happened)."""
    from bot.i18n import t

    async def act(info: dict[str, Any], page: Any) -> dict[str, Any]:
        preview = info["preview"]
        body = command_body(preview, page, ["大会", "作成"], {"ゲーム": "nine", "形式": "swiss"})
        answer = await preview._action(page.id, body)
        channel = info["env"].backend.messages[info["channel"]]
        return {"answer": answer, "texts": [m.content for m in channel.values()]}

    seen = await run_in_sandbox(tmp_path, "ja", act)
    assert seen["answer"]["settlement"] == "settled", seen["answer"]
    title = t("tournament.title", "ja", game=t("game.nine", "ja"), format=t("tournament.format.swiss", "ja"))
    assert any(title in text for text in seen["texts"]), seen["texts"]


async def test_help_shows_its_commands_as_commands(tmp_path: Path) -> None:
    """/help is an embed of command mentions: the page reads them as
    "/play", not "</play:1456…>" (SimCord's page left them raw in embeds)."""

    async def act(info: dict[str, Any], page: Any) -> dict[str, Any]:
        preview = info["preview"]
        answer = await preview._action(page.id, command_body(preview, page, ["help"], {}))
        return {"answer": answer, "snapshot": json.dumps(page.snapshot)}

    seen = await run_in_sandbox(tmp_path, "en-US", act)
    assert seen["answer"]["settlement"] == "settled", seen["answer"]
    assert '"type": "command"' in seen["snapshot"] and '"label": "/play"' in seen["snapshot"]


async def test_who_left_before_the_start_is_not_in_the_standings(tmp_path: Path) -> None:
    """carol joins and presses Leave before the start: the standings of the
    event (its message, and /tournament standings) list bob and alice only
    (before: "1. carol — 0 pts (0 games)" beside them, as if she played)."""

    async def act(info: dict[str, Any], page: Any) -> dict[str, Any]:
        alice, bob, carol = info["actors"][:3]
        channel = info["table_channel"]
        res = await alice.slash(channel, "tournament create", game="nine", format="swiss", rounds=1,
                                table_size=3, cpu_fill=True)  # fmt: skip
        signup = res.response
        for who in (bob, carol, alice):
            await who.click(signup, custom_id="ct:1:join")
        await carol.click(signup, custom_id="ct:1:leave")
        await alice.click(signup, custom_id="ct:1:start")
        standings = await bob.slash(channel, "tournament standings")
        return {"standings": str(standings.response.content)}

    seen = await run_in_sandbox(tmp_path, "en-US", act)
    text = seen["standings"]
    assert "alice" in text and "bob" in text, text
    assert "carol" not in text, text


@pytest.mark.parametrize("sandbox", [("--locale", "ja")], indirect=True)
def test_a_japanese_knockout_is_played_to_its_podium_and_bracket(sandbox: Any) -> None:
    """The Japanese server: ``/大会 作成`` a Nine knockout of two, joined,
    started and played from the match's thread to the final standings —
    their words, the podium and the bracket read in Japanese (screenshots
    ``tournament-ja-*.png`` under ``SANDBOX_SHOTS``)."""
    from bot.i18n import t

    url, lines = sandbox
    assert sync_playwright is not None
    not_moves = tuple(t(k, "ja") for k in ("lobby.btn.leave", "result.btn.replay",
                                            "result.btn.review", "result.btn.record")) + ("🔑", "表示")  # fmt: skip
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1200, "height": 900})
        try:
            page.goto(url)
            page.locator("#channel-composer-input").wait_for()
            create(page, "/大会 作成", t("cmd.tournament.create.desc", "ja"), ("ナイン", "ナイン"),
                   (("形式", "トーナメント", "トーナメント戦"), ("卓の人数", "2", None)))  # fmt: skip
            page.get_by_text("ナインの大会 — トーナメント戦").first.wait_for(timeout=10000)
            for member in ("bob", "alice"):
                view_as(page, member)
                page.get_by_role("button", name=t("tournament.btn.join", "ja"), exact=True).last.click()
                time.sleep(0.5)
            page.get_by_role("button", name=t("tournament.btn.start", "ja"), exact=True).last.click()
            name = t("tournament.thread", "ja", id=1, round=1, number=1)
            link = page.locator("a.message-system-link", has_text=name)
            link.first.wait_for(timeout=15000)
            href = link.first.get_attribute("href") or ""
            ids = {m: page.locator("#viewer-picker option", has_text=m).first.get_attribute("value")
                   for m in ("alice", "bob")}  # fmt: skip
            pages = {}
            for member in ("alice", "bob"):
                other = browser.new_page(viewport={"width": 1200, "height": 900})
                other.goto(re.sub(r"viewer_id=\d+", f"viewer_id={ids[member]}", href))
                other.locator("#channel-composer-input").wait_for()
                pages[member] = other
            # the podium's message (not the sign-up message, which reads
            # 「最終順位は下のとおりです」 a moment before it is posted)
            final = page.locator(".channel-message").filter(has_text="大会が終わりました")
            deadline = time.monotonic() + 120
            while time.monotonic() < deadline and not final.count():
                moved = False
                for member, thread in pages.items():
                    moved = move(thread, member, "手番：@{member}", not_moves) or moved
                if not moved:
                    time.sleep(0.1)
            assert final.count(), "no final standings:\n" + page.locator("#channel-message-list").inner_text()
            final.last.scroll_into_view_if_needed()
            time.sleep(1.0)
            shot(page, "tournament-ja-final.png")
            text = final.last.inner_text()
            assert "🥇" in text and "ナインの大会が終わりました" in text, text
            assert " pts" not in text and "Buchholz" not in text, text
            assert final.last.locator("img").count() >= 2, text  # the standings and the bracket
            shot(pages["alice"], "tournament-ja-match.png")
        except BaseException:
            shot(page, "tournament-ja-failed.png")
            raise
        finally:
            browser.close()
    assert "Traceback" not in "".join(lines)
