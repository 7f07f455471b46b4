"""The Activity in the sandbox (issue 36), in headless Chromium: the real bot
against SimCord, the real Activity server (bot/activity/), the built client
opened from a member's "Open the Activity" link (the SDK's DiscordSDKMock,
logged in with the code the sandbox minted for that member).

- two members play a whole Sixty-Six in the Activity (their cards clicked)
  while a third watches the chat table page, which follows every move to the
  result; a spectator's Activity has no hand;
- a Bluff game where alice plays from the chat and bob from the Activity: each
  sees the other's moves with no refresh; bob's socket dropped mid-game comes
  back by itself and catches up with alice's move made meanwhile;
- secrets: every frame each page's socket received is read (Playwright's
  websocket framereceived): bob's Sixty-Six hand is never in alice's frames or
  page, nor alice's in bob's; a Bluff player's frames hold the dice under the
  cup only when they rolled them (the rule: only the roller looks);
- screenshots in English and Japanese (``SANDBOX_SHOTS=DIR``), looked at.

Games are shortened with house options (Sixty-Six ``target=1``: one deal;
Bluff ``losses=1``: the first reveal ends the match)."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

import test_sandbox_live
from browserkit import (
    CHROMIUM,
    CHROMIUM_ARGS,
    NEEDS_BROWSER,
    SAID_RECONNECTING,
    WATCH_BAR,
    PlaywrightTimeout,
    shot,
    sync_playwright,
)
from test_sandbox_live import over, send_play, table, text_of

live_sandbox = test_sandbox_live.sandbox  # the sandbox in a process (a fixture)

pytestmark = NEEDS_BROWSER


ROOT = Path(__file__).resolve().parents[2]
GAMES = ("sixdice", "bluff", "nine", "yahtzee", "sixtysix")  # the games, as /play lists them
CARD = re.compile(r"^[9TJQKA][SHDC]$")


def view_as(page: Any, member: str) -> None:
    page.locator("#viewer-picker").select_option(label=member)
    page.wait_for_function(
        "name => document.querySelector('#viewer-picker')?.selectedOptions[0]?.label === name",
        arg=member,
    )
    time.sleep(0.3)


def activity_link(chat: Any, member: str) -> str:
    """The member's "Open the Activity" link, as their page shows it."""
    view_as(chat, member)
    link = chat.locator("#activity-link")
    link.wait_for(timeout=5000)
    chat.wait_for_function(
        "() => { const a = document.querySelector('#activity-link');"
        " return a && !a.hidden && a.href.includes('#code='); }"
    )
    return str(link.get_attribute("href"))


class Activity:
    """A member's Activity page and every frame its sockets received."""

    def __init__(self, browser: Any, url: str, width: int = 1100, route: Any = None) -> None:
        self.page = browser.new_page(viewport={"width": width, "height": 820})
        self.frames: list[dict[str, Any]] = []
        self.sizes: list[int] = []  # each frame's bytes
        self.page.on("websocket", lambda ws: ws.on("framereceived", self._heard))
        if route is not None:
            self.page.route_web_socket(re.compile(r".*/api/ws$"), route)
        self.page.goto(url)
        self.page.locator(".table").wait_for(timeout=20000)

    def _heard(self, payload: Any) -> None:
        self.sizes.append(len(payload.encode() if isinstance(payload, str) else payload))
        self.frames.append(json.loads(payload if isinstance(payload, str) else payload.decode()))

    def tables(self) -> list[dict[str, Any]]:
        return [f for f in list(self.frames) if f.get("op") == "table"]

    def version(self) -> int:
        return int(self.page.locator(".table").get_attribute("data-version") or 0)

    def controls(self) -> list[str]:
        return [str(m) for m in self.page.locator(".table button[data-move]:not([disabled])").evaluate_all(
            "bs => bs.map(b => b.dataset.move)")]  # fmt: skip

    def press(self, move: str) -> bool:
        """Press the control of ``move``; ``False`` when the page was redrawn
        under the press and it is gone (the caller looks again)."""
        try:
            self.page.locator(f'.table button[data-move="{move}"]:not([disabled])').first.click(timeout=3000)
        except PlaywrightTimeout:
            return False
        return True


def strings(doc: Any) -> set[str]:
    """Every string in a JSON document."""
    if isinstance(doc, str):
        return {doc}
    if isinstance(doc, dict):
        return set().union(*(strings(v) for v in doc.values())) if doc else set()
    if isinstance(doc, list):
        return set().union(*(strings(v) for v in doc)) if doc else set()
    return set()


def start_table(chat: Any, game: str, option: str, options: str, players: tuple[str, ...]) -> None:
    """alice opens a table from the chat, the others join, alice starts it."""
    view_as(chat, "alice")
    send_play(chat, game, option, options)
    chat.get_by_role("button", name="Join", exact=True).last.wait_for(timeout=10000)
    for member in players[1:]:
        view_as(chat, member)
        chat.get_by_role("button", name="Join", exact=True).last.click()
        chat.get_by_text(re.compile(rf"Players {players.index(member) + 1}/")).first.wait_for(
            timeout=5000
        )
    view_as(chat, "alice")
    chat.get_by_role("button", name="Start", exact=True).last.click()


def test_two_members_play_a_whole_sixtysix_in_the_activity_while_a_third_watches_the_chat(
    live_sandbox: Any,
) -> None:
    box = live_sandbox()
    assert sync_playwright is not None
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        chat = browser.new_page(viewport={"width": 1200, "height": 900})
        try:
            chat.goto(box.url)
            chat.locator("#channel-composer-input").wait_for()
            start_table(chat, "sixtysix", "Sixty-Six", "target=1", ("alice", "bob"))
            table(chat).wait_for(timeout=10000)
            players = {m: Activity(browser, activity_link(chat, m)) for m in ("alice", "bob")}
            watcher = Activity(browser, activity_link(chat, "carol"))
            view_as(chat, "carol")  # carol watches the chat table
            chat_states: set[str] = set()
            presses = cards = 0
            deadline = time.monotonic() + 150
            while not all(a.page.locator(".result").count() for a in players.values()):
                assert time.monotonic() < deadline, "the game did not end in 150 s"
                chat_states.add(text_of(table(chat)))
                acted = False
                for member, act in players.items():
                    ask = act.page.locator(".ask button[data-move]")
                    if ask.count():  # "sure?" (Declare 66 below 66): yes
                        ask.first.click()
                        acted = True
                        continue
                    shown = act.controls()
                    if not shown:
                        continue
                    before = act.version()
                    plays = [m for m in shown if m.startswith("m:play ")]
                    if plays:  # a card of the hand (the card is the button)
                        pressed = act.press(plays[0])
                        cards += pressed
                    elif "m:declare" in shown and "m:pass" in shown:
                        pressed = act.press("m:declare")  # a deal's end: declare, to end it
                    else:
                        calm = [m for m in shown if m not in ("m:declare", "m:close")] or shown
                        pressed = act.press(calm[0])
                    if not pressed:
                        continue  # redrawn under the press: look again
                    presses += 1
                    acted = True
                    try:
                        act.page.wait_for_function(
                            f"() => Number(document.querySelector('.table')?.dataset.version) > {before}"
                            " || document.querySelector('.ask') || !document.querySelector('#error').hidden",
                            timeout=8000,
                        )
                    except Exception:
                        pass  # a refusal or a slow commit: look again
                    if presses == 6:
                        shot(act.page, f"activity-sixtysix-{member}-en.png")
                        shot(watcher.page, "activity-sixtysix-watcher-en.png")
                        shot(chat, "activity-sixtysix-chat-en.png")
                if not acted:
                    time.sleep(0.1)
            # the chat table followed the Activity's moves, and shows the result
            chat.get_by_text("the game is over").first.wait_for(timeout=15000)
            assert len(chat_states) >= 6, chat_states
            assert cards >= 10, (cards, presses)
            for member, act in players.items():
                assert (
                    act.page.locator(".result a.review").count()
                    or act.page.locator(".result a.replay").count()
                )
                shot(act.page, f"activity-sixtysix-end-{member}-en.png")
            sizes = sorted(n for a in (*players.values(), watcher) for n in a.sizes)
            print(f"frames: {len(sizes)}, median {sizes[len(sizes) // 2]} bytes, max {sizes[-1]}")
            # the spectator's Activity: the public table, never a hand
            assert watcher.tables() and all(
                f["you"] is None and "hand" not in f["view"] for f in watcher.tables()
            )
            assert watcher.page.locator(".hand.mine").count() == 0
            # secrets: a hand is in its owner's frames only
            hands = {m: {f["version"]: set(f["view"].get("hand") or []) for f in a.tables() if f.get("view")}
                     for m, a in players.items()}  # fmt: skip
            for member, other in (("alice", "bob"), ("bob", "alice")):
                for frame in players[member].tables():
                    theirs = hands[other].get(frame["version"], set())
                    shown_marriages = {c for m in (frame.get("view") or {}).get("marriages", [])
                                       for c in (f"Q{m['suit']}", f"K{m['suit']}")}  # fmt: skip
                    leaked = (theirs - shown_marriages) & {
                        s for s in strings(frame) if CARD.match(s)
                    }
                    assert not leaked, (member, frame["version"], leaked)
            assert any(hands["alice"].values()) and any(hands["bob"].values())
        except BaseException:
            shot(chat, "activity-sixtysix-failed-chat.png")
            raise
        finally:
            browser.close()


def test_bluff_from_the_chat_and_from_the_activity_with_a_dropped_socket(live_sandbox: Any) -> None:
    box = live_sandbox()
    assert sync_playwright is not None
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        chat = browser.new_page(viewport={"width": 1200, "height": 900})
        try:
            chat.goto(box.url)
            chat.locator("#channel-composer-input").wait_for()
            start_table(chat, "bluff", "Bluff dice", "losses=1", ("alice", "bob"))
            table(chat).wait_for(timeout=10000)
            routes: list[Any] = []

            def through(ws: Any) -> None:
                ws.connect_to_server()
                routes.append(ws)

            bob = Activity(browser, activity_link(chat, "bob"), route=through)
            view_as(chat, "alice")
            dropped = False
            hellos_before = calm_until = 0
            ended_away = -1  # bob's welcomes before the drop at the match's end
            deadline = time.monotonic() + 120
            chat_moves = bob_moves = 0
            while not over(chat):
                assert time.monotonic() < deadline, "the match did not end in 120 s"
                shown = bob.controls()
                if shown:
                    before = bob.version()
                    # bob goes on (the match ends with alice's reveal, from the chat)
                    if shown == ["m:reveal"]:
                        pressed = bob.press("m:reveal")
                    elif "m:roll" in shown:
                        pressed = bob.press("m:roll")
                    else:
                        announce = [m for m in shown if m.startswith("m:announce")]
                        # the weakest: the match goes on
                        pressed = bob.press(announce[-1] if announce else shown[0])
                    if not pressed:
                        continue  # redrawn under the press: look again
                    bob_moves += 1
                    bob.page.wait_for_function(
                        f"() => Number(document.querySelector('.table')?.dataset.version) > {before}",
                        timeout=8000,
                    )
                    if bob_moves == 1:
                        shot(bob.page, "activity-bluff-bob-en.png")
                    continue
                shown_chat = text_of(table(chat))
                if re.search(r"Turn: @?alice", shown_chat):
                    if not dropped and bob_moves >= 1:
                        # bob's socket drops just before alice's move in the chat
                        # (one that does not end the match: the table stays)
                        hellos_before = sum(1 for f in bob.frames if f.get("op") == "welcome")
                        bob.page.evaluate(WATCH_BAR)
                        routes[-1].close()
                        bob.page.wait_for_function(SAID_RECONNECTING, timeout=5000)
                        dropped = True
                        calm_until = chat_moves + 2
                    menu = table(chat).locator(".select-trigger")
                    buttons = table(chat).locator(".message-components").get_by_role("button")
                    reveal = table(chat).get_by_role("button", name=re.compile("Reveal"))
                    if reveal.count() and chat_moves >= max(1, calm_until):
                        # and again before the reveal that ends the match: back, bob's
                        # page is greeted with the result he missed
                        welcomes = sum(1 for f in bob.frames if f.get("op") == "welcome")
                        bob.page.wait_for_function("() => !document.querySelector('#bar.warn')", timeout=15000)
                        bob.page.evaluate(WATCH_BAR)
                        routes[-1].close()
                        bob.page.wait_for_function(SAID_RECONNECTING, timeout=5000)
                        ended_away = welcomes
                        reveal.first.click(timeout=3000)
                    elif menu.count():
                        menu.first.click(timeout=3000)
                        table(chat).locator(".select-option").last.click(timeout=3000)  # the weakest
                    elif table(chat).get_by_role("button", name=re.compile(r"^Roll")).count():
                        table(chat).get_by_role("button", name=re.compile(r"^Roll")).first.click(
                            timeout=3000
                        )
                    elif buttons.count():
                        buttons.first.click(timeout=3000)
                    chat_moves += 1
                    time.sleep(0.4)
                    continue
                time.sleep(0.1)
            assert chat_moves >= 1 and bob_moves >= 1, (chat_moves, bob_moves)
            # bob's page came back by itself and caught up to the end
            bob.page.locator(".result").wait_for(timeout=15000)
            assert dropped
            assert sum(1 for f in bob.frames if f.get("op") == "welcome") > hellos_before
            bob.page.wait_for_function("() => !document.querySelector('#bar.warn')", timeout=15000)
            # the match ended while bob was away: his new socket got the result
            assert ended_away >= 0
            after = bob.frames[[i for i, f in enumerate(bob.frames) if f.get("op") == "welcome"][ended_away]:]
            assert after[0]["op"] == "welcome" and any(
                f.get("op") == "table" and f.get("phase") == "finished" for f in after
            ), [(f.get("op"), f.get("phase")) for f in after]
            assert not any(f.get("op") == "none" for f in after)
            shot(bob.page, "activity-bluff-end-bob-en.png")
            # alice's chat moves appeared in bob's Activity: frames of tables
            # whose last announcement was alice's
            assert any((f["view"].get("last_announcement") or {}).get("player") not in (None, f.get("you"))
                       for f in bob.tables() if f.get("view"))  # fmt: skip
            # only the roller looks under the cup: bob's frames hold dice under it
            # only while he was the last to roll
            for f in bob.tables():
                v = f.get("view") or {}
                if v.get("cup_seen"):
                    assert v.get("last_roller") == f["you"], f
        except BaseException:
            shot(chat, "activity-bluff-failed-chat.png")
            if "bob" in locals():
                shot(bob.page, "activity-bluff-failed-bob.png")
                print("bob's last frames:", [(f.get("op"), f.get("version"), f.get("key")) for f in bob.frames[-6:]])
            raise
        finally:
            browser.close()


def test_the_activity_in_japanese_at_mobile_width(live_sandbox: Any) -> None:
    """``--locale ja``: before any table the Activity says, in Japanese, that the
    channel has none (and offers the games); then alice opens a Sixty-Six against a computer with
    /あそぶ and plays cards from her Activity at Discord's mobile width, every
    word of the page from the Japanese catalogue."""
    box = live_sandbox("--locale", "ja")
    assert sync_playwright is not None
    ja = json.loads((ROOT / "bot" / "i18n" / "ja.json").read_text(encoding="utf-8"))
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        chat = browser.new_page(viewport={"width": 1200, "height": 900})
        try:
            chat.goto(box.url)
            chat.locator("#channel-composer-input").wait_for()
            link = activity_link(chat, "alice")
            assert chat.locator("#activity-link").inner_text() == ja["activity.launch"]
            alice = browser.new_page(viewport={"width": 400, "height": 820})
            frames: list[str] = []
            alice.on(
                "websocket",
                lambda ws: ws.on("framereceived", lambda payload: frames.append(payload)),
            )
            alice.goto(link)
            alice.get_by_text(ja["activity.ui.open_game"]).wait_for(timeout=15000)
            games = alice.locator(".games button.game").all_inner_texts()
            assert games == [ja[f"game.{g}"] for g in GAMES], games
            assert "#code=" not in alice.url  # the code is taken off the address
            shot(alice, "activity-ja-no-table.png")
            composer = chat.get_by_placeholder(re.compile("Message #game-table"))
            composer.click()
            composer.type("/")
            chat.get_by_text("このチャンネルでゲームの卓を開く").click()
            chat.keyboard.type("シックスティー")
            chat.get_by_role("option", name="シックスティー・シックス").click()
            chat.get_by_text(re.compile(r"^\+\d+ more$")).click()
            chat.get_by_text("ハウスルール", exact=True).first.click()
            chat.keyboard.type("target=1")
            chat.locator("#send-message:not([disabled])").click()
            chat.get_by_role("button", name="コンピューター追加（普通）").click()
            chat.get_by_text(re.compile(r"CPU1（普通）")).first.wait_for(timeout=5000)
            chat.get_by_role("button", name="開始", exact=True).click()
            # the Activity follows the table from chat, no refresh
            alice.locator(".table[data-phase=playing]").wait_for(timeout=15000)
            played = 0
            deadline = time.monotonic() + 60
            while played < 3 and time.monotonic() < deadline:
                cards = alice.locator(".hand.mine button.card[data-move]")
                if not cards.count():
                    time.sleep(0.2)
                    continue
                before = int(alice.locator(".table").get_attribute("data-version") or 0)
                assert alice.locator(".turn").inner_text() == ja["activity.ui.your_turn"]
                cards.first.click(timeout=3000)
                alice.wait_for_function(
                    f"() => Number(document.querySelector('.table')?.dataset.version) > {before}",
                    timeout=8000,
                )
                played += 1
            assert played == 3
            assert alice.locator(".own .who").inner_text() == ja["activity.ui.your_hand"]
            assert alice.locator(".scores h2").inner_text().strip() == ja["activity.ui.scores"]
            assert alice.evaluate("document.documentElement.lang") == "ja"
            right = alice.locator(".hand.mine .card").evaluate_all(
                "cs => Math.max(0, ...cs.map(c => c.getBoundingClientRect().right))")  # fmt: skip
            assert right <= 400
            welcome = next(json.loads(f) for f in frames if '"op":"welcome"' in f.replace(" ", ""))
            assert (
                welcome["locale"] == "ja"
                and welcome["words"]["activity.ui.your_turn"] == ja["activity.ui.your_turn"]
            )
            shot(alice, "activity-sixtysix-ja-mobile.png")
            shot(chat, "activity-sixtysix-ja-chat.png")
        finally:
            browser.close()


def test_a_table_opened_from_the_activity_shows_in_the_chat(live_sandbox: Any) -> None:
    """With no table in the channel alice's Activity offers the games; she
    opens a Nine from it: the lobby is in her Activity and, as after /play,
    in the chat; bob joins from the chat, alice starts from her Activity,
    and a move made afterwards shows in her Activity."""
    box = live_sandbox()
    assert sync_playwright is not None
    en = json.loads((ROOT / "bot" / "i18n" / "en.json").read_text(encoding="utf-8"))
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        chat = browser.new_page(viewport={"width": 1200, "height": 900})
        try:
            chat.goto(box.url)
            chat.locator("#channel-composer-input").wait_for()
            link = activity_link(chat, "alice")
            alice = browser.new_page(viewport={"width": 1100, "height": 820})
            alice.goto(link)
            alice.get_by_text(en["activity.ui.open_game"]).wait_for(timeout=15000)
            games = alice.locator(".games button.game").all_inner_texts()
            assert games == [en[f"game.{g}"] for g in GAMES], games
            shot(alice, "activity-open-games.png")
            alice.get_by_role("button", name=en["game.nine"], exact=True).click()
            alice.locator(".table[data-phase=lobby]").wait_for(timeout=15000)
            # the lobby message is in the chat: bob joins there
            view_as(chat, "bob")
            chat.get_by_role("button", name=en["lobby.btn.join"], exact=True).last.click(
                timeout=10000
            )
            chat.get_by_text(re.compile(r"Players 2/")).first.wait_for(timeout=5000)
            start = alice.locator('.table button[data-move="start"]:not([disabled])')
            start.wait_for(timeout=10000)
            assert alice.locator(".players .player").all_inner_texts() == ["alice", "bob"]
            shot(alice, "activity-open-lobby.png")
            start.click()
            alice.locator(".table[data-phase=playing]").wait_for(timeout=15000)
            before = int(alice.locator(".table").get_attribute("data-version") or 0)
            roll = alice.locator('.table button[data-move="m:roll"]:not([disabled])')
            if roll.count():  # alice moves first: from her Activity
                roll.first.click()
            else:  # bob does, from the chat
                chat.get_by_role("button", name=en["nine.btn.roll"], exact=True).last.click()
            alice.wait_for_function(
                f"() => Number(document.querySelector('.table')?.dataset.version) > {before}",
                timeout=10000,
            )
            shot(alice, "activity-open-playing.png")
        finally:
            browser.close()
