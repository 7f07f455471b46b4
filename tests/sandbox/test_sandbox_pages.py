"""The sandbox's pages are live and on time (issue 23), in process, without
a browser: what a page shows is its last published snapshot (what the
browser's poll reads), so these look at ``page.snapshot`` and never ask for
a refresh.

- a turn clock's warning appears on a page nobody acted on;
- the page tells time by the simulated clock ("runs out in 1 minute", not
  "in 36 minutes" after half an hour);
- a click is answered before the computers move;
- a select of a new turn is a new control on the page (its choice of the
  turn before is not kept), the workaround for SimCord's page keeping a
  select's choice under the message and the control's place.
"""

from __future__ import annotations

import asyncio
import time
import uuid
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from bot import turns
from bot.i18n import t
from bot.sandbox import fresh_selects, open_sandbox


def messages(page: Any) -> list[dict[str, Any]]:
    return list(page.snapshot.get("messages", {}).values())


def controls(message: dict[str, Any]) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    stack = list(message.get("components") or [])
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            if node.get("custom_id") and node.get("control_key"):
                found.append(node)
            stack.extend(node.get("components") or [])
    return found


async def click(preview: Any, page: Any, message: dict[str, Any], action: str) -> tuple[float, dict[str, Any]]:
    """A click as the browser sends it, through the page's action route."""
    control = next(c for c in controls(message) if c["custom_id"].endswith(":" + action))
    body = {
        "protocol_version": 3, "kind": "click", "sequence": page.last_sequence + 1,
        "request_id": uuid.uuid4().hex, "generation": page.generation,
        "bot_generation": preview.env._generation, "published_revision": page.revision,
        "target_id": message["id"], "control_key": control["control_key"],
    }
    started = time.perf_counter()
    result = await preview._action(page.id, body)
    return time.perf_counter() - started, result


def table_message(page: Any) -> dict[str, Any]:
    return next(m for m in reversed(messages(page)) if any(c["custom_id"].startswith("cb:") for c in controls(m)))


async def test_the_page_is_live_and_on_time(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # the warning of a 30 s clock within 40 real seconds: the first turn of a
    # game gets no longer clock here (docs/bot.md; its own test: test_bot_clock.py)
    monkeypatch.setattr(turns, "FIRST_TURN_FACTOR", 1)
    monkeypatch.setattr(turns, "FIRST_TURN_MIN", 0)
    stop = asyncio.Event()
    seen: dict[str, Any] = {}

    async def ready(info: dict[str, Any]) -> None:
        alice, channel, preview, env = info["actors"][0], info["table_channel"], info["preview"], info["env"]
        store = info["bot"].tables.store
        await store.settings.set_guild_setting(info["guild"], "clock.nine", 30)  # /config clock game:nine seconds:30
        await alice.slash(channel, "play", game="nine")
        page = preview._open_page(str(alice.id))

        async def play() -> None:
            try:
                await asyncio.sleep(0.3)
                await click(preview, page, table_message(page), "cpu:normal")
                seen["start"], result = await click(preview, page, table_message(page), "start")
                assert result["settlement"] == "settled", result
                warning = t("clock.warning", "en", player="@alice", seconds=20).split("@alice")[1][:20]
                deadline = time.monotonic() + 40
                while time.monotonic() < deadline:
                    shown = "\n".join(str(m.get("content")) for m in messages(page))
                    if warning in shown:
                        seen["warned"] = True
                        break
                    await asyncio.sleep(0.1)
                seen["presentation"] = page.snapshot["profile"]["presentationTime"]
                seen["now"] = env.now()
            finally:
                stop.set()

        asyncio.get_running_loop().create_task(play())

    await asyncio.wait_for(
        open_sandbox(str(tmp_path / "s.sqlite3"), ready=ready, stop=stop, tick=0.05, cpu_delay=0.5),
        timeout=120,
    )
    # the Start click is answered before the computer's move (its pause alone is 0.5 s)
    assert seen["start"] < 0.5, seen
    # the clock's warning reached the page without any action or refresh
    assert seen.get("warned"), seen
    # and the page tells time by the simulated clock
    shown_at = datetime.fromisoformat(seen["presentation"])
    assert abs((seen["now"] - shown_at).total_seconds()) < 2, seen


def test_a_new_turns_select_is_a_new_control() -> None:
    from simcord.preview import _action_plans as plans
    from simcord.preview import _component_projection as projection

    turn1 = {"type": 3, "custom_id": "cs:1:5:m", "options": []}
    turn2 = {"type": 3, "custom_id": "cs:1:9:m", "options": []}
    button1 = {"type": 2, "custom_id": "cb:1:5:m:roll"}
    button2 = {"type": 2, "custom_id": "cb:1:9:m:roll"}
    with fresh_selects():
        assert projection._control_key("message:7", turn1, "0.0") != projection._control_key("message:7", turn2, "0.0")
        assert plans._component_key(turn1, "0.0", 7) == projection._control_key("message:7", turn1, "0.0")
        assert plans._component_key(turn2, "0.0", 7) != plans._component_key(turn1, "0.0", 7)
        # a button keeps its place's key (a click on a redrawn page still finds it)
        assert plans._component_key(button1, "0.1", 7) == plans._component_key(button2, "0.1", 7)
    # SimCord's own keys are back afterwards
    assert projection._control_key("message:7", turn1, "0.0") == projection._control_key("message:7", turn2, "0.0")
