"""``python -m bot sandbox`` as a process: its command line, what its terminal
shows (the banner, the log filters) and how it stops (one Ctrl+C or SIGTERM).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import signal
import sys
import tempfile
import warnings
from typing import Any

from bot.sandbox.live import TICK
from bot.sandbox.session import MEMBERS, open_sandbox


def parse_delay(text: str) -> float | tuple[float, float]:
    """``1.5`` or ``1-2`` (seconds)."""
    low, sep, high = text.partition("-")
    try:
        if sep:
            pair = (float(low), float(high))
            if not 0 <= pair[0] <= pair[1]:
                raise ValueError(text)
            return pair
        value = float(text)
        if value < 0:
            raise ValueError(text)
        return value
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a delay in seconds: {text!r}") from None


def parse_args(argv: list[str]) -> argparse.Namespace:
    ap = argparse.ArgumentParser(
        prog="python -m bot sandbox",
        description="Play chabudai locally in a browser against a simulated Discord.",
    )
    ap.add_argument(
        "--db",
        help="SQLite file or postgresql:// URL to keep games in (default: a temporary file)",
    )
    ap.add_argument("--port", type=int, default=0, help="loopback port (default: any free one)")
    ap.add_argument(
        "--members",
        default=",".join(MEMBERS),
        help="comma-separated simulated members (default: %(default)s)",
    )
    ap.add_argument(
        "--locale",
        default="en-US",
        help="the language of the page, the server and its members, e.g. ja (default: en-US)",
    )
    ap.add_argument(
        "--tick",
        type=float,
        default=TICK,
        help="seconds between moves of the simulated clock (default: %(default)s)",
    )
    ap.add_argument(
        "--cpu-delay",
        type=parse_delay,
        default=None,
        help="seconds a computer waits before its move, or a range LOW-HIGH (default: 1-2)",
    )
    ap.add_argument(
        "--activity-port",
        type=int,
        default=0,
        help="loopback port of the Activity (docs/activity.md; default: any free one)",
    )
    ap.add_argument(
        "--dm",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="the members' DMs are open and each has a DM page (default); --no-dm closes "
        "them: secrets come ephemerally and through the table's Show my hand/dice button",
    )
    return ap.parse_args(argv)


class _Unrelated(logging.Filter):
    """discord.py's start-up warnings that do not concern a sandbox player:
    no voice (PyNaCl, davey) and the Guilds intent (SimCord's READY)."""

    WORDS = ("PyNaCl is not installed", "davey is not installed", "Guilds intent seems")

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        return not any(word in message for word in self.WORDS)


class _ClosedDms(logging.Filter):
    """With ``--no-dm`` every DM fails on purpose: the bot's warning about it
    (one per player and move) says nothing the player did not ask for."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        return "a DM could not be sent" not in message and "editing a player's DM failed" not in message


def quiet_terminal(*, closed_dms: bool = False) -> None:
    """The terminal shows what concerns the player: the bot's warnings and
    errors, not discord.py's about voice or SimCord's workings."""
    unrelated = _Unrelated()
    for name in ("discord.client", "discord.state", "discord.shard"):
        logging.getLogger(name).addFilter(unrelated)
    if closed_dms:
        logging.getLogger("bot.followers.private").addFilter(_ClosedDms())
    for handler in logging.getLogger().handlers:
        handler.addFilter(unrelated)
    warnings.filterwarnings("ignore", module="simcord")


def main(argv: list[str]) -> int:
    args = parse_args(argv)
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    quiet_terminal(closed_dms=not args.dm)
    members = tuple(m.strip() for m in args.members.split(",") if m.strip())
    if not members or len(set(members)) != len(members):
        sys.stderr.write("sandbox: --members needs distinct names\n")
        return 2
    tmp: tempfile.TemporaryDirectory[str] | None = None
    if args.db:
        db = args.db  # a file (its folder made when the store opens) or a URL
    else:
        tmp = tempfile.TemporaryDirectory(prefix="chabudai-sandbox-")
        db = os.path.join(tmp.name, "sandbox.sqlite3")

    async def ready(info: dict[str, Any]) -> None:
        print("chabudai sandbox is running (loopback only, no Discord, no token).", flush=True)
        print(f"Database: {db}{'' if args.db else ' (temporary; deleted on exit)'}")
        print(f"Open this page (the address is a key to the session; keep it to yourself):\n\n  {info['url']}\n")
        names = list(info["members"])
        print(f"Members: {', '.join(names)}. Pick who you are in the page's viewer menu;")
        print("open the page in several tabs to play several members at once.")
        print(f"{names[0]} owns the server (Manage Server: /config, /tournament create).")
        if info["dm_urls"]:
            print("Each member's DMs with the bot (their Sixty-Six hand, their Bluff dice):")
            for name, url in info["dm_urls"].items():
                print(f"  {name}: {url}")
        else:
            print("The members' DMs are closed (--no-dm): hands and dice come with Show my hand/dice.")
        print(f"The Activity (the table live, as in a voice channel): {info['activity_url']}")
        print("  each member's page has an “Open the Activity” link, logged in as that member.")
        print("Type /play in the message box to open a table; the others press Join.")
        print("A thread (a tournament's match) gets a page of its own: its address is printed")
        print("here, and its name in the channel links to it.")
        print("Stop it with Ctrl+C.", flush=True)

    def on_thread(name: str, url: str) -> None:
        print(f"Thread “{name}”: {url}", flush=True)

    async def run() -> None:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(NotImplementedError):
                loop.add_signal_handler(sig, stop.set)
        await open_sandbox(
            db, port=args.port, members=members, locale=args.locale,
            close_dms=not args.dm, ready=ready, stop=stop, tick=args.tick,
            cpu_delay=args.cpu_delay, on_thread=on_thread, activity_port=args.activity_port,
        )

    try:
        asyncio.run(run())
    except KeyboardInterrupt:
        pass
    finally:
        if tmp is not None:
            tmp.cleanup()
    print("chabudai sandbox stopped.", flush=True)
    return 0
