"""The sandbox's click-to-answer time over a scripted game with computers.

    python bench/sandbox.py [--game sixdice] [--cpus strong,easy]
                            [--options "target=4000 start=0"] [--tick 0.05]
                            [--cpu-delay 1-2] [--db FILE] [--clicks 400]

``python -m bot sandbox`` as a person uses it, without the browser: the
sandbox (:func:`bot.sandbox.open_sandbox`) opens a page for alice, and the
script plays through the page's own action route (``preview._action``, what
``POST /api/action`` calls) exactly the bodies the browser sends, reading
only what the page has published (``page.snapshot``, what ``GET /api/state``
returns) — so a click counts as answered when the browser would show the
answer. Alice opens a table (the slash command as the setup, outside the
measure), adds the computers, presses Start, then on each of her turns picks
a move from the table message: a select's first option (Six Dice: keep the
first scoring choice), else Stop, else Roll, else the first move button.

Printed: the clicks, click-to-answer p50 / p99 / max (the Start press
separately: the computers' first decision builds their tables), how long
alice waited from a click to her next turn on the page (the computers'
moves), and how many distinct table messages the page showed while she
waited (1 = the computers' moves appeared all at once, more = one by one).

It runs against whatever :mod:`bot.sandbox` is importable, so the figures
before a change come from a ``git worktree`` of the older commit::

    git worktree add /tmp/before HEAD~1
    cd /tmp/before && /work/main/.venv/bin/python bench/sandbox.py
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path.cwd()))

from bot import sandbox  # noqa: E402

TURN = re.compile(r"<@(\d+)>")


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def table_message(page: Any, table_id: int) -> dict[str, Any] | None:
    """The table's message as the page shows it (its controls' custom ids
    name the table)."""
    found = None
    for message in page.snapshot.get("messages", {}).values():
        for control in controls(message):
            if control["custom_id"].startswith((f"cb:{table_id}:", f"cs:{table_id}:")):
                found = message
    return found


def controls(message: dict[str, Any]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            if node.get("type") in (2, 3) and node.get("custom_id") and not node.get("disabled"):
                out.append(node)
            for child in node.get("components", []) or []:
                walk(child)

    for root in message.get("components", []) or []:
        walk(root)
    return out


def my_turn(message: dict[str, Any], me: int) -> bool:
    for line in str(message.get("content", "")).splitlines():
        if line.startswith(("Turn:", "手番")):
            return any(int(m) == me for m in TURN.findall(line))
    return False


def pick(message: dict[str, Any]) -> tuple[str, dict[str, Any], list[str] | None] | None:
    moves = [c for c in controls(message) if ":m:" in c["custom_id"] or c["custom_id"].endswith(":m")]
    for c in moves:
        if c["type"] == 3 and c.get("options"):
            return "select", c, [c["options"][0]["value"]]
    for word in ("m:stop", "m:roll"):
        for c in moves:
            if c["type"] == 2 and c["custom_id"].endswith(word):
                return "click", c, None
    for c in moves:
        if c["type"] == 2:
            return "click", c, None
    return None


async def act(preview: Any, page: Any, kind: str, message: dict[str, Any], control: dict[str, Any],
              values: list[str] | None = None) -> tuple[float, dict[str, Any]]:
    """One action as the browser sends it; its time to the answer."""
    body: dict[str, Any] = {
        "protocol_version": 3,
        "kind": kind,
        "sequence": page.last_sequence + 1,
        "request_id": uuid.uuid4().hex,
        "generation": page.generation,
        "bot_generation": preview.env._generation,
        "published_revision": page.revision,
        "target_id": message["id"],
        "control_key": control["control_key"],
    }
    if values is not None:
        body["values"] = values
    started = time.perf_counter()
    result = await preview._action(page.id, body)
    return time.perf_counter() - started, result


async def drive(info: dict[str, Any], args: argparse.Namespace, out: dict[str, Any]) -> None:
    preview = info["preview"]
    alice = info["actors"][0]
    me = alice.id
    page = preview._open_page(str(me))
    table_id = 1
    answers: list[float] = []
    waits: list[float] = []
    shown: list[int] = []
    refused = 0
    out.update(answers=answers, waits=waits, shown=shown)
    started_game = time.perf_counter()
    await asyncio.sleep(0.2)  # the ticker installs its gate on its first step
    # the lobby: add the computers, then Start
    for level in [*args.cpus.split(","), "start"]:
        while True:
            message = table_message(page, table_id)
            assert message is not None, "the table is not on the page"
            want = "start" if level == "start" else f"cpu:{level}"
            control = next((c for c in controls(message) if c["custom_id"].endswith(":" + want)), None)
            if control is not None:
                break
            await asyncio.sleep(0.05)
        took, result = await act(preview, page, "click", message, control)
        if args.verbose:
            print(f"  {want}: {took:.2f} s {result.get('settlement')}", flush=True)
        if level == "start":
            out["start"] = took
        else:
            answers.append(took)
    clicked_at = time.perf_counter()
    seen: set[str] = set()
    while len(answers) < args.clicks:
        message = table_message(page, table_id)
        if message is None:  # no controls on the page: the game may be over
            if not await preview.env.bot.tables.store.tables.live_tables():
                break
            await asyncio.sleep(0.02)
            continue
        content = str(message.get("content", ""))
        if content not in seen:
            seen.add(content)
        chosen = pick(message) if my_turn(message, me) else None
        if chosen is None:
            if args.verbose and time.perf_counter() - clicked_at > 20 and not out.get("dumped"):
                out["dumped"] = True
                print(message.get("content"), [(c["custom_id"], c.get("label")) for c in controls(message)])
            if time.perf_counter() - clicked_at > 300:
                raise TimeoutError("alice's turn did not come back in 300 s")
            await asyncio.sleep(0.02)
            continue
        waits.append(time.perf_counter() - clicked_at)
        shown.append(len(seen))
        seen = set()
        kind, control, values = chosen
        took, result = await act(preview, page, kind, message, control, values)
        if result.get("rejected") or result.get("settlement") != "settled":
            refused += 1
            codes = [d.get("code") for d in result.get("diagnostics", [])]
            print(f"  refused: {result.get('settlement')} {codes}", flush=True)
            await asyncio.sleep(0.1)
        answers.append(took)
        if args.verbose:
            print(f"  {control['custom_id']} {values or ''}: {took:.2f} s "
                  f"(waited {waits[-1]:.2f} s, {shown[-1]} shown)", flush=True)
        clicked_at = time.perf_counter()
        seen.add(str((table_message(page, table_id) or {}).get("content", "")))
    out["game"] = time.perf_counter() - started_game
    out["refused"] = refused


async def run(args: argparse.Namespace) -> dict[str, Any]:
    stop = asyncio.Event()
    out: dict[str, Any] = {}
    errors: list[BaseException] = []

    async def ready(info: dict[str, Any]) -> None:
        alice, channel = info["actors"][0], info["table_channel"]
        await alice.slash(channel, "play", game=args.game, options=args.options)

        async def go() -> None:
            try:
                await drive(info, args, out)
            except BaseException as err:  # noqa: BLE001 - reported below
                errors.append(err)
            finally:
                stop.set()

        asyncio.get_running_loop().create_task(go())

    kwargs: dict[str, Any] = {}
    if args.cpu_delay is not None and "cpu_delay" in sandbox.open_sandbox.__code__.co_varnames:
        kwargs["cpu_delay"] = args.cpu_delay
    with tempfile.TemporaryDirectory() as tmp:
        db = args.db or os.path.join(tmp, "bench.sqlite3")
        await sandbox.open_sandbox(db, ready=ready, stop=stop, tick=args.tick, **kwargs)
    if errors:
        raise errors[0]
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", default="sixdice")
    ap.add_argument("--cpus", default="strong,easy", help="levels of the computers added")
    ap.add_argument("--options", default="target=4000 start=0")
    ap.add_argument("--tick", type=float, default=0.05, help="the sandbox's --tick")
    ap.add_argument("--cpu-delay", default=None, help="the sandbox's --cpu-delay, if it has one")
    ap.add_argument("--clicks", type=int, default=400, help="stop after this many clicks")
    ap.add_argument("--db")
    ap.add_argument("--verbose", action="store_true", help="print every click")
    args = ap.parse_args()
    began = time.perf_counter()
    out = asyncio.run(run(args))
    answers, waits, shown = out["answers"], out["waits"], out["shown"]
    print(f"sandbox bench: {args.game} vs {args.cpus} ({args.options}), tick {args.tick}s, "
          f"cpu delay {args.cpu_delay or 'default'}")
    print(f"  clicks {len(answers)} (refused {out.get('refused', 0)}), game {out.get('game', 0):.1f} s, "
          f"run {time.perf_counter() - began:.1f} s")
    print(f"  click-to-answer p50 {pct(answers, 0.5) * 1000:.0f} ms  p99 {pct(answers, 0.99) * 1000:.0f} ms  "
          f"max {max(answers) * 1000:.0f} ms;  Start {out.get('start', float('nan')) * 1000:.0f} ms")
    if waits:
        print(f"  click to alice's next turn on the page p50 {statistics.median(waits):.2f} s  "
              f"max {max(waits):.2f} s")
        print(f"  table messages shown while waiting: median {statistics.median(shown):.0f}, "
              f"max {max(shown)} (1 = all at once)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
