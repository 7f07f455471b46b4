"""``python -m bot sandbox``: play chabudai in the browser without Discord.

The real bot (the same :func:`bot.app.create_bot` as in production) runs
against SimCord's simulated Discord, in-process, with one server, a game
channel and a few simulated members. SimCord's Preview serves the channel on
a loopback-only page with the real buttons, selects and slash commands; each
member has its own page, and (DMs open, the default) a page of their DMs with
the bot, where Sixty-Six hands and Bluff dice arrive and are edited in place
as on Discord. ``--no-dm`` closes the members' DMs: secrets then come
ephemerally and through the table's "Show my hand/dice" button.

It plays like Discord (docs/sandbox.md):

- a click is answered as soon as the bot has answered it: the computers'
  moves are not part of the click (SimCord would otherwise wait for every
  computer move and think before answering the click); each computer move,
  turn-clock warning, timeout and game end appears on the pages as it is
  committed (the pages are republished whenever the bot changed something);
- the simulated clock moves with real time (the ticker), and the pages tell
  time by it, so a 90-second turn clock reads "in 1 minute";
- a click on a page published a moment before the latest is still the click
  the member meant, when the control they clicked is unchanged;
- a select offers every choice fresh each turn;
- one Ctrl+C (SIGINT) or SIGTERM stops it cleanly.

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
import hashlib
import logging
import os
import signal
import sys
import tempfile
import warnings
from collections.abc import Awaitable, Callable, Iterator, Mapping
from typing import Any

MEMBERS = ("alice", "bob", "carol", "dave")
BOT_NAME = "chabudai"
TICK = 0.25  # seconds between moves of the simulated clock
REPUBLISH = 0.1  # seconds between looks for changes to show on the pages
TICK_BUDGET = 5.0  # the longest a move of the clock may wait for the bot
SELECTS = frozenset({3, 5, 6, 7, 8})  # Discord's select component types

log = logging.getLogger("chabudai.sandbox")


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
        "--dm",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="the members' DMs are open and each has a DM page (default); --no-dm closes "
        "them: secrets come ephemerally and through the table's Show my hand/dice button",
    )
    return ap.parse_args(argv)


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
) -> None:
    """Run the sandbox until ``stop`` is set (or the page session closes).

    ``on_thread(name, url)`` is told of each thread's page as it opens.

    ``ready`` receives ``{"url": …, "members": {member: id}, "dm_urls":
    {member: url}, "channel": id, "guild": id, "preview", "env", "bot",
    "actors", "table_channel"}`` once the pages are served (the tests use
    it); the clock starts moving when it returns.
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
    name_the_bot(runner._env)
    park_computers(runner._env, bot)  # before the start, which kicks a kept --db's computers
    try:
        with (
            members_speak(locale), fresh_selects(), commands_speak(locale), thread_links(threads),
            embed_commands(),
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
    committed and drawn like any, and :class:`Live` shows it."""
    computers = bot.computers
    run = computers._run

    async def parked(table_id: int) -> None:
        await env.external_wait(run(table_id), reason="a computer player's move")

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


class Live:
    """The pages play like Discord: one operation at a time, live, on time.

    - **One gate.** SimCord runs one operation at a time: a click that
      arrives while the ticker's ``advance_time`` runs is refused ("operation
      overlaps") and the page loses it. Every page's actions, the ticker and
      the republisher take :attr:`gate` (each holds it for milliseconds).
    - **Live.** A page shows what was published to it, and SimCord publishes
      a page only after its own actions: the computers' moves, clock warnings,
      timeouts and a game's end appeared only on "Refresh preview". The
      republisher looks every :data:`REPUBLISH` seconds whether the simulated
      Discord received anything since (its transcript grew by more than
      reads) and republishes every page then.
    - **On time.** A page tells relative times (``<t:…:R>``, "runs out in 1
      minute") from its presentation time, which SimCord fixes when the
      session starts: a 90 s clock read "in 36 minutes" after half an hour.
      Every publication now moves it to the simulated clock's now.
    - **A click on the page before.** A page's action names the revision it
      was published at, and SimCord refuses it when a newer one exists; now
      the pages change as the computers move, so a click a moment after a
      move would be lost. A click or a select whose control (at the same
      place, with the same custom id) is unchanged since that revision is
      taken as a click on the latest; a slash command or a message too.
    """

    KEPT = 40  # revisions of a page whose controls are remembered

    def __init__(self, env: Any, threads: dict[int, str] | None = None) -> None:
        self.env = env
        self.gate = asyncio.Lock()
        self.previews: list[Any] = []
        self.seen = len(env.backend.transcript)
        self.controls: dict[str, dict[int, dict[str, str]]] = {}  # page -> revision -> key -> custom id
        self.rewritten: dict[str, Mapping[str, Any]] = {}  # request id -> the body acted on
        self.threads: dict[int, str] = {} if threads is None else threads  # id -> page address
        self._guild_id: int | None = None
        self._open_thread: Callable[[Any], Awaitable[str]] | None = None

    def watch_threads(self, guild_id: int, open_thread: Callable[[Any], Awaitable[str]]) -> None:
        """Each thread made in ``guild_id`` gets a page (``open_thread``
        enters it and returns its address), looked for with every change."""
        self._guild_id = guild_id
        self._open_thread = open_thread

    async def open_threads(self) -> None:
        """Pages for the threads made since the last look (call holding the
        gate: entering a page is an operation of SimCord's)."""
        if self._open_thread is None:
            return
        new = [
            channel for channel in list(self.env.backend.channels.values())
            if channel.is_thread and channel.guild_id == self._guild_id and channel.id not in self.threads
        ]
        for thread in new:
            if getattr(self.env, "_operation_task", None) is not None:
                return  # an operation runs: the next look opens it
            try:
                self.threads[thread.id] = await self._open_thread(thread)
            except Exception:  # a page that cannot open must not stop the others
                self.threads[thread.id] = ""
                log.warning("the page of thread %s could not be opened", thread.name, exc_info=True)

    def adopt(self, preview: Any) -> None:
        self.previews.append(preview)
        act = preview._action  # what the page's action route calls
        publish = preview._publish

        async def gated(context_id: str | None, body: Any) -> Any:
            async with self.gate:
                cursor = self.env.error_cursor
                try:
                    return await act(context_id, self.current(preview, context_id, body))
                finally:
                    # the page says "inspect the local Env error log": show it
                    for error in self.env.errors_since(cursor):
                        log.error("the bot failed on a page's action: %r", error,
                                  exc_info=(type(error), error, error.__traceback__))  # fmt: skip

        def publishing(page: Any, **kwargs: Any) -> None:
            preview._advance_presentation_time()
            publish(page, **kwargs)
            self.remember(page)

        preview._action = gated
        preview._publish = publishing

    def remember(self, page: Any) -> None:
        kept = self.controls.setdefault(page.id, {})
        kept[page.revision] = {
            control["control_key"]: str(control.get("custom_id"))
            for message in page.snapshot.get("messages", {}).values()
            for control in _controls(message.get("components"))
        }
        for old in [r for r in kept if r <= page.revision - self.KEPT]:
            del kept[old]

    def current(self, preview: Any, context_id: str | None, body: Any) -> Any:
        """``body`` as an action on the page's latest revision, when what it
        acts on is unchanged since the revision it names; else as it is."""
        if not isinstance(body, Mapping):
            return body
        request = body.get("request_id")
        if isinstance(request, str) and request in self.rewritten:
            return self.rewritten[request]  # a retry of one already taken
        if body.get("kind") in ("run_command", "autocomplete_command"):
            body = _canonical_command(self.env, body)
        page = preview._pages.get(context_id) if isinstance(context_id, str) else None
        revision = body.get("published_revision")
        if page is None or not isinstance(revision, int) or revision == page.revision:
            return body
        kind = body.get("kind")
        if kind in ("click", "select"):
            key = body.get("control_key")
            then = self.controls.get(page.id, {}).get(revision, {}).get(key)
            if then is None or then != _custom_id_now(self.env, page.channel_id, body.get("target_id"), key):
                return body
        elif kind not in ("run_command", "autocomplete_command", "send_message", "modal_submit"):
            return body
        taken = {**body, "published_revision": page.revision}
        if isinstance(request, str):
            self.rewritten[request] = taken
            while len(self.rewritten) > 64:
                del self.rewritten[next(iter(self.rewritten))]
        return taken

    def changed(self) -> bool:
        """Whether the simulated Discord received anything but reads since
        the last look (a message sent or edited, an interaction answered)."""
        transcript = self.env.backend.transcript
        new = transcript[self.seen :]
        self.seen = len(transcript)
        return any(kind != "HTTP" or not str(what).startswith("GET ") for kind, what, *_ in new)

    async def republish(self, every: float) -> None:
        while True:
            await asyncio.sleep(every)
            if len(self.env.backend.transcript) == self.seen:
                continue
            async with self.gate:
                if not self.changed():
                    continue
                await self.open_threads()
                for preview in self.previews:
                    if not preview._active or preview._closed:
                        continue
                    # the pages open in a browser (not SimCord's Python page,
                    # which nobody looks at in the sandbox)
                    for page in [p for key, p in preview._pages.items() if key != "python"]:
                        try:
                            if page.id in preview._pages:
                                preview._publish(page, reason="refresh")
                        except Exception:  # a page must not stop the others
                            log.debug("republishing a sandbox page failed", exc_info=True)


def _localized(node: Mapping[str, Any], key: str, locale: str) -> str:
    return str((node.get(f"{key}_localizations") or {}).get(locale) or node.get(key, ""))


def _leaf_names(command: Mapping[str, Any], path: list[str], locale: str) -> tuple[list[str], Mapping[str, Any]]:
    """``path``'s names in ``locale`` and the leaf's node."""
    names = [_localized(command, "name", locale)]
    node: Mapping[str, Any] = command
    for part in path[1:]:
        node = next(o for o in node.get("options") or [] if o.get("name") == part)
        names.append(_localized(node, "name", locale))
    return names, node


def _canonical_command(env: Any, body: Mapping[str, Any]) -> Mapping[str, Any]:
    """A slash command from a page that shows the commands' names in the
    sandbox's language (:func:`commands_speak`), in the names the bot
    registered (which Discord sends the bot whatever the user's language)."""
    from simcord.interactions import command_leaves

    locale = _COMMANDS_LOCALE.get("locale")
    path = body.get("path")
    if not locale or not isinstance(path, list):
        return body
    command = next(
        (c for scope in env.backend.commands.values() for c in scope.values()
         if str(c.get("id")) == str(body.get("command_id"))),
        None,
    )
    if command is None:
        return body
    for canonical, leaf in command_leaves(command):
        names, _node = _leaf_names(command, canonical, locale)
        if names != path:
            continue
        back = {_localized(o, "name", locale): o["name"] for o in leaf.get("options") or []}
        out = {**body, "path": list(canonical)}
        if isinstance(body.get("options"), Mapping):
            out["options"] = {back.get(k, k): v for k, v in body["options"].items()}
        if isinstance(body.get("focused"), str):
            out["focused"] = back.get(body["focused"], body["focused"])
        return out
    return body


_COMMANDS_LOCALE: dict[str, str] = {}


@contextlib.contextmanager
def commands_speak(locale: str) -> Iterator[None]:
    """The page's slash commands in the sandbox's language, as Discord shows a
    Japanese user ``/あそぶ``: SimCord's command catalog shows the registered
    names and ignores the translations the bot synced with them
    (``name_localizations``, from ``cmd.*.name`` in bot/i18n). The page
    shows them translated; what a page sends back is turned into the
    registered names (:func:`_canonical_command`). Only the catalog the page
    reads is translated: the action run from it still names the command as
    registered (``tournament create``; SimCord walks a subcommand's path by
    its registered names)."""
    from simcord.interactions import command_leaves
    from simcord.preview import _commands as catalog

    lang = locale if locale not in ("en-US", "en-GB") else ""
    original = catalog.build_catalog

    def speak(entry: dict[str, Any], command: Mapping[str, Any]) -> None:
        path = list(entry["path"])
        leaf = next((node for canonical, node in command_leaves(dict(command)) if canonical == path), None)
        if leaf is None:
            return
        names, _node = _leaf_names(command, path, lang)
        entry["path"] = names
        entry["invocation"] = " ".join(names)
        entry["description"] = _localized(leaf, "description", lang)
        for wire, option in zip(entry["options"], leaf.get("options") or [], strict=False):
            wire["name"] = _localized(option, "name", lang)
            wire["description"] = _localized(option, "description", lang)
            for choice, raw in zip(wire["choices"], option.get("choices") or [], strict=False):
                choice["name"] = _localized(raw, "name", lang)

    def speaking(preview: Any, page: Any) -> dict[str, Any]:
        built: dict[str, Any] = original(preview, page)
        if not lang:
            return built
        commands = {
            str(c.get("id")): c for scope in preview.env.backend.commands.values() for c in scope.values()
        }
        for entry in built.get("entries", []):
            command = commands.get(str(entry.get("commandId")))
            if command is not None:
                speak(entry, command)
        return built

    catalog.build_catalog = speaking
    _COMMANDS_LOCALE["locale"] = lang
    try:
        yield
    finally:
        catalog.build_catalog = original
        _COMMANDS_LOCALE.pop("locale", None)


def _controls(components: Any) -> Iterator[dict[str, Any]]:
    for node in components or []:
        if isinstance(node, dict):
            if node.get("control_key") and node.get("custom_id"):
                yield node
            yield from _controls(node.get("components"))
            for child in ("accessory", "component"):
                if isinstance(node.get(child), dict):
                    yield from _controls([node[child]])


def _custom_id_now(env: Any, channel_id: int, target: Any, key: Any) -> str | None:
    """The custom id of the control at ``key`` in the message as it is now."""
    from simcord.preview import _action_plans as plans

    try:
        message = env.backend.get_message(channel_id, int(target))
    except Exception:
        return None
    for index, root in enumerate(message.components):
        for path, component in plans._component_paths(root, str(index)):
            if plans._component_key(component, path, message.id) == key:
                return str(component.get("custom_id"))
    return None


async def _tick(env: Any, gate: asyncio.Lock, step: float = TICK) -> None:
    """Move SimCord's simulated time on with real time, so turn clocks,
    warnings and timeouts happen in the sandbox. A move of the clock waits
    for what the bot does at that time (a sweep of the turn clocks) at most
    :data:`TICK_BUDGET` seconds, then goes on with real time anyway."""
    from simcord import SetupError

    loop = asyncio.get_running_loop()
    last = loop.time()
    while True:
        await asyncio.sleep(step)
        async with gate:
            now = loop.time()
            if getattr(env, "_operation_task", None) is not None:
                continue  # another operation is running: catch up on the next tick
            budget, env.settle_timeout = env.settle_timeout, TICK_BUDGET
            try:
                await env.advance_time(now - last)
            except SetupError:
                continue
            except TimeoutError:  # the bot is busy: its work goes on, and so does time
                log.debug("the sandbox clock moved on while the bot was busy", exc_info=True)
            except Exception:  # the sandbox must survive a failed tick
                log.exception("sandbox clock tick failed")
                continue
            finally:
                env.settle_timeout = budget
            last = now


@contextlib.contextmanager
def fresh_selects() -> Iterator[None]:
    """A select offers every choice fresh each turn.

    The page keeps what was chosen in a select under the control's key, which
    SimCord makes of the message and the control's place in it; the table
    message is edited in place, so next turn's select had the same key, showed
    last turn's choice as chosen, and choosing it again sent nothing (the
    page only sends a changed choice). Here a select's key also names its
    custom id, which the bot makes new each turn (the table's version), so a
    new turn's select is a new control. Upstream report: docs/sandbox.md."""
    from simcord.preview import _action_plans as plans
    from simcord.preview import _component_projection as projection

    component_key, control_key = plans._component_key, projection._control_key

    def mark(key: str | None, component: Mapping[str, Any]) -> str | None:
        custom = component.get("custom_id")
        if key is None or component.get("type") not in SELECTS or not custom:
            return key
        if not key.startswith("message:"):
            return key
        return f"{key}~{hashlib.sha1(str(custom).encode()).hexdigest()[:10]}"

    def keyed_component(component: Mapping[str, Any], path: str, message_id: int) -> str | None:
        return mark(component_key(component, path, message_id), component)

    def keyed_control(scope: str, component: Mapping[str, Any], path: str) -> str | None:
        return mark(control_key(scope, component, path), component)

    plans._component_key = keyed_component
    projection._control_key = keyed_control
    try:
        yield
    finally:
        plans._component_key = component_key
        projection._control_key = control_key


# what SimCord's page allows as a link (Discord's own), and what it sends to
# open a page (no viewer: the first); both widened by :func:`thread_links`
_LINK_CHECK = 'if (url.protocol !== "https:" || url.hostname !== "discord.com") return;'
_LINK_LOCAL = (
    'if ((url.protocol !== "https:" || url.hostname !== "discord.com")'
    ' && (url.origin !== "http://127.0.0.1:" + url.port || !url.port)) return;'
)
_OPEN_PAGE = 'request("/api/pages", "POST", {}, null)'
_OPEN_AS = (
    'request("/api/pages", "POST", new URLSearchParams(window.location.search).has("viewer_id")'
    ' ? { viewer_id: new URLSearchParams(window.location.search).get("viewer_id") } : {}, null)'
)


@contextlib.contextmanager
def thread_links(threads: Mapping[int, str]) -> Iterator[None]:
    """A thread's line in its channel ("started a thread: Tournament #1 · Round 1 · match 1")
    links to the thread's page.

    SimCord's page links a thread's name to discord.com, which knows nothing
    of the sandbox, and allows no other link. Here the link goes to the
    thread's page (``threads``: a thread's id -> its address), which opens
    in a new tab as the member who clicked (``?viewer_id=``), and the page
    allows a link to its own loopback host; a thread without a page yet
    shows no link (the next publication, 0.1 s later, has it)."""
    from simcord.preview import _messages as messages
    from simcord.preview import _server as server

    project = messages._system_projection
    static = server.PreviewServer._static

    def projecting(preview: Any, page: Any, message: Any, *args: Any, **kwargs: Any) -> dict[str, Any]:
        system: dict[str, Any] = project(preview, page, message, *args, **kwargs)
        target = system.get("channel")
        if isinstance(target, dict) and str(target.get("id", "")).isdigit():
            thread_id = int(target["id"])
            channel = preview.env.backend.channels.get(thread_id)
            if channel is not None and channel.is_thread:
                url = threads.get(thread_id)
                if url:
                    base, _, key = url.partition("#")
                    target["url"] = f"{base}?viewer_id={page.viewer.id}#{key}"
                else:
                    del system["channel"]
        return system

    async def serving(self: Any, request: Any) -> Any:
        response = await static(self, request)
        name = request.path.rsplit("/", 1)[-1]
        if name in ("messages.js", "app.js") and isinstance(getattr(response, "text", None), str):
            text = response.text
            patched = text.replace(_LINK_CHECK, _LINK_LOCAL).replace(_OPEN_PAGE, _OPEN_AS)
            if patched == text:
                log.debug("SimCord's %s changed: thread links may not open", name)
            response.text = patched
        return response

    messages._system_projection = projecting
    server.PreviewServer._static = serving  # type: ignore[method-assign]
    try:
        yield
    finally:
        messages._system_projection = project
        server.PreviewServer._static = static  # type: ignore[method-assign]


@contextlib.contextmanager
def embed_commands() -> Iterator[None]:
    """A command mention (``</play:123>``) in an embed's description or a
    field reads "/play" as on Discord: SimCord's page shows it raw there
    (``/help`` is an embed of them), and only in a message's text as a
    command."""
    from simcord.preview import _markdown as markdown

    fields = [markdown._FIELD_POLICIES.get(name) for name in ("embed_description", "embed_field_value")]
    before = [None if policy is None else policy.get("commands") for policy in fields]
    for policy in fields:
        if policy is not None:
            policy["commands"] = True
    try:
        yield
    finally:
        for policy, value in zip(fields, before, strict=True):
            if policy is not None:
                policy["commands"] = bool(value)


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
            cpu_delay=args.cpu_delay, on_thread=on_thread,
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
