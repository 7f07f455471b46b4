"""The sandbox's pages play like Discord: one operation at a time, live, on time.

:class:`Live` gates every page's actions, republishes the pages when the
simulated Discord changed, and takes a click on the page before as a click on
the latest; :func:`_tick` moves SimCord's simulated clock on with real time.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Iterator, Mapping
from typing import Any

from bot.sandbox.speaking import _canonical_command

TICK = 0.25  # seconds between moves of the simulated clock
REPUBLISH = 0.1  # seconds between looks for changes to show on the pages
TICK_BUDGET = 5.0  # the longest a move of the clock may wait for the bot

log = logging.getLogger("chabudai.sandbox")


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
