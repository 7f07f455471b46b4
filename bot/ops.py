"""What operators see: ``GET /healthz`` and ``GET /metrics`` (Prometheus).

Off unless ``CHABUDAI_HTTP`` is set (``host:port``, or ``:port`` for every
interface). :class:`Operations` counts as the bot runs (a follower of the
commit bus, a wrapper around :meth:`bot.tables.TableService.press`, the bus's
failure hook) into a registry of its own, so several bots in one process
never share a metric; :meth:`Operations.start` serves them with aiohttp's web
server on the bot's event loop. See ``docs/operations.md``.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import os
import threading
import time
from collections.abc import Awaitable
from typing import TYPE_CHECKING

from aiohttp import web
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    ProcessCollector,
    generate_latest,
)

from bot import ai
from bot.events import REPAIRED, TableCommitted

if TYPE_CHECKING:
    from bot.app import ChabudaiBot

log = logging.getLogger(__name__)

ENV = "CHABUDAI_HTTP"
PING_TIMEOUT = 2.0  # seconds the database has to answer /healthz
TICK = 1.0  # seconds between event-loop lag samples

# seconds; a press is a load, a versioned save and a message edit
PRESS_BUCKETS = (0.01, 0.025, 0.05, 0.1, 0.15, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
LAG_BUCKETS = (0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)

# what became of the press being handled (set by :meth:`Operations.on_commit`)
_PRESS: contextvars.ContextVar[list[str] | None] = contextvars.ContextVar(
    "chabudai_press", default=None
)


def parse_address(value: str) -> tuple[str, int]:
    """``host:port`` or ``:port`` (every interface) → (host, port)."""
    host, sep, port = value.strip().rpartition(":")
    if not sep or not port.isdigit() or int(port) > 65535:
        raise ValueError(f"{ENV} must be host:port or :port, not {value!r}")
    host = host.strip("[]")  # [::1]:8080
    return host or "0.0.0.0", int(port)


class Operations:
    """The bot's metrics and its operators' HTTP endpoint."""

    def __init__(self, bot: ChabudaiBot) -> None:
        self.bot = bot
        self.registry = CollectorRegistry()
        r = self.registry
        ProcessCollector(registry=r)  # memory, CPU, open files of this process
        self.presses = Counter(
            "chabudai_presses",
            "Button and select presses handled, by outcome "
            "(committed: a change was stored; unchanged: refused or UI only; error: raised)",
            ["outcome"],
            registry=r,
        )
        self.press_seconds = Histogram(
            "chabudai_press_seconds",
            "Time to handle a press, from the table lock to the last follower",
            buckets=PRESS_BUCKETS,
            registry=r,
        )
        self.commits = Counter(
            "chabudai_commits",
            "Table changes announced on the bus, by kind and origin",
            ["kind", "origin"],
            registry=r,
        )
        self.follower_failures = Counter(
            "chabudai_follower_failures",
            "Followers of a commit that raised (logged; the next follower still ran)",
            ["follower"],
            registry=r,
        )
        self.repairs = Counter(
            "chabudai_repairs",
            "Table messages redrawn because the screen was behind the database",
            registry=r,
        )
        self.tables = Gauge(
            "chabudai_tables",
            "Tables in the database, by phase (lobby, playing); counted at each scrape",
            ["phase"],
            registry=r,
        )
        self.ai_workers = Gauge(
            "chabudai_ai_workers",
            "Computer players' worker processes running",
            registry=r,
        )
        self.loop_lag = Histogram(
            "chabudai_event_loop_lag_seconds",
            f"How long a callback waited for the bot's event loop (sampled every {TICK:g} s)",
            buckets=LAG_BUCKETS,
            registry=r,
        )
        self.up = Gauge(
            "chabudai_up",
            "1 when connected to Discord and the database answers (as /healthz)",
            registry=r,
        )
        self._runner: web.AppRunner | None = None
        self._stopping = threading.Event()  # ends the lag probe
        self.address: tuple[str, int] | None = None  # where it listens, once started

    # ------------------------------------------------------------ counting

    async def around_press(self, press: Awaitable[None]) -> None:
        """One press, counted and timed (``TableService.around_press``)."""
        outcome: list[str] = []
        token = _PRESS.set(outcome)
        start = time.perf_counter()
        try:
            await press
        except BaseException:
            outcome.append("error")
            raise
        finally:
            self.press_seconds.observe(time.perf_counter() - start)
            _PRESS.reset(token)
            self.presses.labels(outcome[-1] if outcome else "unchanged").inc()

    async def on_commit(self, change: TableCommitted) -> None:
        """The last follower: count what was committed."""
        self.commits.labels(change.kind, change.origin).inc()
        if change.kind == REPAIRED:
            self.repairs.inc()
        outcome = _PRESS.get()
        if outcome is not None and change.origin == "press" and not outcome:
            outcome.append("committed")

    def follower_failed(self, name: str) -> None:
        """The bus's failure hook."""
        self.follower_failures.labels(name).inc()

    # ------------------------------------------------------------- serving

    async def health(self) -> str | None:
        """None when healthy, else why not (a few words)."""
        bot = self.bot
        ws = bot.ws  # None before the first connection; closed while reconnecting
        if bot.is_closed() or not bot.is_ready() or ws is None or not ws.open:
            return "not connected to Discord"
        store = bot.tables.store
        if not store.is_open:
            return "database closed"
        try:
            await asyncio.wait_for(store.ping(), PING_TIMEOUT)
        except Exception as err:
            log.warning("healthz: the database did not answer: %r", err)
            return "database not answering"
        return None

    async def _healthz(self, request: web.Request) -> web.Response:
        reason = await self.health()
        if reason is None:
            return web.Response(text="ok")
        return web.Response(status=503, text=reason)

    async def _metrics(self, request: web.Request) -> web.Response:
        reason = await self.health()
        self.up.set(1 if reason is None else 0)
        if reason is None:
            counts = await self.bot.tables.store.table_counts()
            for phase in ("lobby", "playing"):
                self.tables.labels(phase).set(counts.get(phase, 0))
        self.ai_workers.set(len(ai.worker_pids()))
        body = generate_latest(self.registry)
        return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE_LATEST})

    def _probe(self, loop: asyncio.AbstractEventLoop, stopping: threading.Event) -> None:
        """Every :data:`TICK` seconds (a thread, real time), ask the loop to
        run a callback; how long it waited is the loop's lag."""
        while not stopping.wait(TICK):
            try:
                loop.call_soon_threadsafe(self._lagged, time.perf_counter())
            except RuntimeError:  # the loop is closed
                return

    def _lagged(self, asked: float) -> None:
        self.loop_lag.observe(time.perf_counter() - asked)

    async def start(self) -> None:
        """Serve ``/healthz`` and ``/metrics`` if ``CHABUDAI_HTTP`` is set."""
        value = os.environ.get(ENV, "").strip()
        if not value or self._runner is not None:
            return
        host, port = parse_address(value)
        app = web.Application()
        app.router.add_get("/healthz", self._healthz)
        app.router.add_get("/metrics", self._metrics)
        runner = web.AppRunner(app, access_log=None)
        await runner.setup()
        try:
            await web.TCPSite(runner, host, port).start()
        except BaseException:
            await runner.cleanup()
            raise
        self._runner = runner
        bound = runner.addresses[0]
        self.address = (str(bound[0]), int(bound[1]))
        self._stopping = threading.Event()
        threading.Thread(
            target=self._probe,
            args=(asyncio.get_running_loop(), self._stopping),
            name="chabudai-loop-lag",
            daemon=True,
        ).start()
        log.info("operations: /healthz and /metrics on http://%s:%d", *self.address)

    async def stop(self) -> None:
        self._stopping.set()
        runner, self._runner = self._runner, None
        if runner is not None:
            await runner.cleanup()
        self.address = None
