"""``python -m bot sandbox``: play chabudai in the browser without Discord.

The real bot (the same :func:`bot.app.create_bot` as in production) runs
against SimCord's simulated Discord, in-process, with one server, a game
channel and a few simulated members. SimCord's Preview serves the channel on
a loopback-only page with the real buttons, selects and slash commands; each
member has its own page. Secret dice and hands reach a member as on Discord
when DMs are closed: ephemerally, and again with the table's "Show my hand"
button (a sandbox page shows one channel, so the members' DMs are closed).

``--locale`` is the language of the whole sandbox, not only the page's: the
server's language (its ``preferred_locale``, which the bot's public messages
follow while ``/config language`` is automatic) and every member's Discord
locale (their ephemeral answers, ``/rules``, ``/hint``), so ``--locale ja``
shows a Japanese newcomer a Japanese table from the first ``/play``.
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
from collections.abc import Awaitable, Callable, Iterator
from typing import Any

MEMBERS = ("alice", "bob", "carol", "dave")

log = logging.getLogger("chabudai.sandbox")


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
        default=1.0,
        help="seconds between moves of the simulated clock (default: %(default)s)",
    )
    ap.add_argument(
        "--dm",
        action="store_true",
        help="deliver secrets by DM (not shown on the page) instead of the ephemeral fallback",
    )
    return ap.parse_args(argv)


async def open_sandbox(
    db: str,
    *,
    port: int = 0,
    members: tuple[str, ...] = MEMBERS,
    locale: str = "en-US",
    close_dms: bool = True,
    ready: Callable[[dict[str, Any]], Awaitable[None]] | None = None,
    stop: asyncio.Event | None = None,
    tick: float = 1.0,
) -> None:
    """Run the sandbox until ``stop`` is set (or the page session closes).

    ``ready`` receives ``{"urls": {member: url}, "channel": id, "guild": id}``
    once the page is served (the tests use it).
    """
    import simcord

    from bot.app import create_bot
    from bot.storage import open_store

    world: dict[str, Any] = {}

    def clock() -> float:
        # The bot's clock is SimCord's simulated clock, which the ticker
        # below moves on with real time, so turn clocks run as on Discord.
        env = world.get("env")
        return env.now().timestamp() if env is not None else 1_767_225_600.0

    # its simulated Discord starts with no commands each run: sync them
    # whatever hash a kept --db holds
    bot = create_bot(open_store(db), clock=clock, sync_commands="always")
    stop = stop or asyncio.Event()
    # A computer player's first decision may build its tables for a few
    # seconds; let SimCord wait for it rather than call the action failed.
    with members_speak(locale):  # the members speak the sandbox's language
        async with simcord.run(bot, settle_timeout=60.0) as env:
            world["env"] = env
            # the server's language: what the bot's public messages follow
            guild = env.create_guild(name="chabudai sandbox", preferred_locale=locale)
            channel = guild.create_text_channel("game-table")
            actors = [guild.add_member(env.create_user(name)) for name in members]
            if close_dms:
                _close_dms(env)
            async with env.preview(
                channel, viewers=actors, layout="channel", locale=locale, port=port
            ) as preview:
                base = preview.url
                info = {
                    "url": base,
                    "members": {name: actor.id for name, actor in zip(members, actors, strict=True)},
                    "channel": channel.id,
                    "guild": guild.id,
                    "preview": preview,
                    "env": env,
                    "actors": actors,  # the members (SimCord actors), in order
                    "table_channel": channel,
                }
                if ready is not None:
                    await ready(info)
                closed = asyncio.ensure_future(preview.wait_closed())
                stopped = asyncio.ensure_future(stop.wait())
                ticking = asyncio.ensure_future(_tick(env, preview, tick))
                await asyncio.wait({closed, stopped}, return_when=asyncio.FIRST_COMPLETED)
                for task in (closed, stopped, ticking):
                    task.cancel()


def _gate_actions(preview: Any) -> asyncio.Lock:
    """One lock for the page's actions and the clock ticker.

    SimCord runs one operation at a time: a click that arrives while the
    ticker's ``advance_time`` runs is refused ("operation overlaps") and the
    page loses it (with the sweeper waking every second, the browser test
    lost a click in one run of three or four). The page's actions wait for
    the tick instead (a tick takes milliseconds), and the ticker waits for a
    running action."""
    gate = asyncio.Lock()
    act = preview._action  # what the page's action route calls

    async def gated(*args: Any, **kwargs: Any) -> Any:
        async with gate:
            return await act(*args, **kwargs)

    preview._action = gated
    return gate


async def _tick(env: Any, preview: Any, step: float = 1.0) -> None:
    """Move SimCord's simulated time on with real time while nobody is
    acting, so turn clocks, warnings and timeouts happen in the sandbox."""
    from simcord import SetupError

    gate = _gate_actions(preview)
    loop = asyncio.get_running_loop()
    last = loop.time()
    while True:
        await asyncio.sleep(step)
        async with gate:
            now = loop.time()
            if getattr(env, "_operation_task", None) is not None:
                continue  # another operation is running: catch up on the next tick
            try:
                await env.advance_time(now - last)
            except SetupError:
                continue
            except Exception:  # the sandbox must survive a failed tick
                log.exception("sandbox clock tick failed")
                continue
            last = now


@contextlib.contextmanager
def members_speak(locale: str) -> Iterator[None]:
    """Every interaction of the sandbox carries ``locale`` as the member's
    Discord locale and the server's as ``guild_locale``, as Discord sends
    them (SimCord itself always says ``en-US``)."""
    import simcord.interactions as sim

    original = sim.base_payload

    def speaking(backend: Any, **kwargs: Any) -> Any:
        record, payload = original(backend, **kwargs)
        payload["locale"] = locale
        if kwargs.get("guild_id") is not None:
            payload["guild_locale"] = backend.get_guild(kwargs["guild_id"]).preferred_locale
        return record, payload

    sim.base_payload = speaking
    try:
        yield
    finally:
        sim.base_payload = original


def _close_dms(env: Any) -> None:
    """Make every DM fail as on Discord with DMs closed (403, code 50007)."""
    env.inject_error(
        "POST", "/users/@me/channels", status=403, code=50007,
        message="Cannot send messages to this user", times=None,
    )


def main(argv: list[str]) -> int:
    args = parse_args(argv)
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
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
        print(f"Members: {', '.join(info['members'])}. Pick who you are in the page's viewer menu;")
        print("open the page in several tabs to play several members at once.")
        print("Type /play in the message box to open a table; the others press Join.")
        print("Stop it with Ctrl+C.", flush=True)

    async def run() -> None:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(NotImplementedError):
                loop.add_signal_handler(sig, stop.set)
        await open_sandbox(
            db, port=args.port, members=members, locale=args.locale,
            close_dms=not args.dm, ready=ready, stop=stop, tick=args.tick,
        )

    try:
        asyncio.run(run())
    except KeyboardInterrupt:
        pass
    finally:
        if tmp is not None:
            tmp.cleanup()
    print("chabudai sandbox stopped.")
    return 0
