"""One sandbox session: the real bot against SimCord's simulated Discord, a
server with its members, and a page for the channel, each member's DMs and
each thread, until it is stopped (:func:`open_sandbox`).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from typing import Any

from bot.i18n import lang_of, t
from bot.sandbox.live import REPUBLISH, TICK, Live, _tick
from bot.sandbox.serving import activity_links, embed_commands, fresh_selects, thread_links
from bot.sandbox.speaking import commands_speak, members_speak

MEMBERS = ("alice", "bob", "carol", "dave")
BOT_NAME = "chabudai"


async def open_sandbox(
    db: str,
    *,
    port: int = 0,
    members: tuple[str, ...] = MEMBERS,
    locale: str = "en-US",
    close_dms: bool = False,
    ready: Callable[[dict[str, Any]], Awaitable[None]] | None = None,
    stop: asyncio.Event | None = None,
    tick: float = TICK,
    cpu_delay: float | tuple[float, float] | None = None,
    on_thread: Callable[[str, str], None] | None = None,
    activity_port: int = 0,
) -> None:
    """Run the sandbox until ``stop`` is set (or the page session closes).

    ``on_thread(name, url)`` is told of each thread's page as it opens.

    ``ready`` receives ``{"url": …, "members": {member: id}, "dm_urls":
    {member: url}, "channel": id, "guild": id, "preview", "env", "bot",
    "actors", "table_channel", "activity_url", "activity_links": {member:
    url}}`` once the pages are served (the tests use it); the clock starts
    moving when it returns.

    The Activity (docs/activity.md) is served on ``activity_port`` (any free
    one by default) with the sandbox's identity: each page shows its member
    an "Open the Activity" link (:func:`activity_links`) that opens the
    client with the SDK's mock, logged in as that member, on that page's
    channel (a DM page's: the game channel).
    """
    import simcord
    from simcord.builders import ChannelHandle

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
    if cpu_delay is not None:
        bot.cpu_delay = cpu_delay
    stop = stop or asyncio.Event()
    # A slash command's or a hint's answer may wait for an AI building its
    # tables for a few seconds; let SimCord wait rather than call it failed.
    # The bot's errors are logged as they happen; none is raised again at exit.
    runner = simcord.run(bot, settle_timeout=60.0, check_errors=False)
    threads: dict[int, str] = {}  # a thread's id -> its page's address
    activity: dict[str, Any] = {}  # the Activity's server: "url", "identity", "guild", "channel"

    def links_of(preview: Any) -> dict[str, str]:
        # a page's members' links to the Activity on its channel
        if "url" not in activity:
            return {}
        channel = getattr(preview.channel, "id", None)
        guild = getattr(preview.channel, "guild", None)  # a handle's (a thread's), else the channel's id
        guild_id = getattr(guild, "id", None) if guild is not None else getattr(preview.channel, "guild_id", None)
        in_guild = guild_id == activity["guild"] or channel == activity["channel"]
        return {
            str(viewer.id): activity_link(
                activity["url"], activity["identity"], viewer.id, activity["guild"],
                channel if in_guild and channel is not None else activity["channel"],
            )
            for viewer in preview.viewers
        }  # fmt: skip

    name_the_bot(runner._env)
    park_computers(runner._env, bot)  # before the start, which kicks a kept --db's computers
    try:
        with (
            members_speak(locale), fresh_selects(), commands_speak(locale), thread_links(threads),
            embed_commands(), activity_links(links_of, t("activity.launch", lang_of(locale))),
        ):
            async with runner as env, contextlib.AsyncExitStack() as pages:
                world["env"] = env
                # the server's language: what the bot's public messages follow
                users = [env.create_user(name) for name in members]
                # the first member owns the server (Manage Server: /config,
                # /tournament create), as whoever tries the bot owns theirs
                guild = env.create_guild(
                    name="chabudai sandbox", preferred_locale=locale, owner=users[0]
                )
                channel = guild.create_text_channel("game-table")
                actors = [_member(guild, user, owner=i == 0) for i, user in enumerate(users)]
                if close_dms:
                    _close_dms(env)
                activity.update(
                    await serve_activity(pages, bot, dict(zip(users, members, strict=True)), locale, activity_port),
                    guild=guild.id, channel=channel.id,
                )  # fmt: skip
                live = Live(env, threads)
                preview = await pages.enter_async_context(
                    env.preview(channel, viewers=actors, layout="channel", locale=locale, port=port)
                )
                live.adopt(preview)
                dm_urls: dict[str, str] = {}
                if not close_dms:
                    for name, actor in zip(members, actors, strict=True):
                        dm = await enter_page(pages, env, actor.user.dm_channel, [actor.user], locale)
                        live.adopt(dm)
                        dm_urls[name] = dm.url

                async def open_thread(thread: Any) -> str:
                    # a page of a thread under the server's channels (a
                    # tournament's match), for every member, as the channel's
                    handle = ChannelHandle(env, guild, thread)
                    page = await enter_page(pages, env, handle, actors, locale)
                    live.adopt(page)
                    if on_thread is not None:
                        on_thread(str(thread.name or thread.id), page.url)
                    return str(page.url)

                live.watch_threads(guild.id, open_thread)
                info = {
                    "url": preview.url,
                    "members": {name: actor.id for name, actor in zip(members, actors, strict=True)},
                    "dm_urls": dm_urls,
                    "channel": channel.id,
                    "guild": guild.id,
                    "preview": preview,
                    "env": env,
                    "bot": bot,
                    "actors": actors,  # the members (SimCord actors), in order
                    "table_channel": channel,
                    "thread_urls": live.threads,  # thread id -> its page, as threads open
                    "activity_url": activity["url"],
                    "activity_links": {
                        name: activity_link(activity["url"], activity["identity"], actor.id, guild.id, channel.id)
                        for name, actor in zip(members, actors, strict=True)
                    },
                }
                if ready is not None:
                    await ready(info)
                closed = asyncio.ensure_future(preview.wait_closed())
                stopped = asyncio.ensure_future(stop.wait())
                ticking = asyncio.ensure_future(_tick(env, live.gate, tick))
                showing = asyncio.ensure_future(live.republish(REPUBLISH))
                try:
                    await asyncio.wait({closed, stopped}, return_when=asyncio.FIRST_COMPLETED)
                finally:
                    for task in (closed, stopped, ticking, showing):
                        task.cancel()
                    await asyncio.gather(ticking, showing, return_exceptions=True)
    finally:
        # the database connection's thread would keep the process alive
        store = bot.tables.store
        if store.is_open:
            with contextlib.suppress(Exception):
                await bot.tables.flush()
            await store.close()


async def serve_activity(
    pages: contextlib.AsyncExitStack, bot: Any, users: dict[Any, str], locale: str, port: int
) -> dict[str, Any]:
    """The Activity's server for the sandbox's bot on loopback (closed with
    ``pages``), with the sandbox's identity: a code minted per member
    (``users``: SimCord user -> name), each speaking the sandbox's language."""
    from aiohttp import web

    from bot.activity import SandboxIdentity, activity_app

    identity = SandboxIdentity({user.id: (name, locale) for user, name in users.items()})
    runner = web.AppRunner(activity_app(bot, identity))
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", port)
    await site.start()
    pages.push_async_callback(runner.cleanup)
    bound = runner.addresses[0][1]
    return {"url": f"http://127.0.0.1:{bound}/activity/", "identity": identity}


def activity_link(base: str, identity: Any, user_id: int, guild_id: int, channel_id: int) -> str:
    """A member's address of the Activity on ``channel_id``: the client with
    the SDK's mock (``sdk=mock``), the member's code in the fragment (which
    no server sees; the client reads it and takes it off the address)."""
    return f"{base}?sdk=mock&guild={guild_id}&channel={channel_id}#code={identity.mint(user_id)}"


def _member(guild: Any, user: Any, *, owner: bool) -> Any:
    """``user`` as a member of ``guild`` (the owner is one already: adding
    them again would announce them twice)."""
    if owner:
        from simcord.actors import MemberActor

        return MemberActor(guild._env, guild, user)
    return guild.add_member(user)


def name_the_bot(env: Any) -> None:
    """The simulated Discord's bot user is "chabudai" (SimCord says "TestBot")."""
    user = env.backend.bot_user
    user.name = BOT_NAME
    user.global_name = BOT_NAME


def park_computers(env: Any, bot: Any) -> None:
    """The computers' moves are not part of the click that led to them.

    SimCord answers a click once every task the bot started has finished or
    waits on something declared external; a computer's move (its pause of
    1-2 s and its think in an AI worker) is such a task, so without this a
    click answered at once on Discord took 6-30 s here. Declared as an
    external wait (``env.external_wait``), the computer's task runs on its
    own: its pause ends when the ticker moves the clock past it, its move is
    committed and drawn like any, and :class:`Live` shows it.

    A computer's move after a move from the Activity (served by aiohttp, not
    an operation of SimCord's) is no work of SimCord's to wait for: it runs
    as it is (SimCord refuses ``external_wait`` outside the bot's work)."""
    computers = bot.computers
    run = computers._run

    async def parked(table_id: int) -> None:
        task = asyncio.current_task()
        if task is not None and task in env._work.tasks:
            await env.external_wait(run(table_id), reason="a computer player's move")
        else:
            await run(table_id)

    computers._run = parked


async def enter_page(
    pages: contextlib.AsyncExitStack, env: Any, channel: Any, viewers: Any, locale: str
) -> Any:
    """A page of another channel than the server's game channel: a member's
    DMs with the bot, a match's thread (a Preview of its own: SimCord's
    Preview shows one channel, and allows one at a time per Env, which only
    the first claims)."""
    main = env._preview
    env._preview = None
    try:
        preview = env.preview(channel, viewers=list(viewers), layout="channel", locale=locale)
        entered = await pages.enter_async_context(preview)
    finally:
        env._preview = main
    return entered


def _close_dms(env: Any) -> None:
    """Make every DM fail as on Discord with DMs closed (403, code 50007)."""
    env.inject_error(
        "POST", "/users/@me/channels", status=403, code=50007,
        message="Cannot send messages to this user", times=None,
    )
