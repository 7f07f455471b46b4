"""What operators see: ``GET /healthz`` and ``GET /metrics`` (Prometheus),
and which Discord shards this process holds (``CHABUDAI_SHARDS``).

Off unless ``CHABUDAI_HTTP`` (``host:port``, or ``:port`` for every
interface) or ``CHABUDAI_METRICS_PORT`` (a port) is set. :class:`Operations`
counts as the bot runs (a follower of the commit bus, a wrapper around
:meth:`bot.presses.Presses.press`, the bus's failure hook) into a
registry of its own, so several bots in one process never share a metric;
:meth:`Operations.start` serves them with aiohttp's web server on the bot's
event loop, every sample labelled with the process and its shards. See
``docs/operations.md``.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import threading
import time
from collections.abc import Awaitable, Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, Protocol

import discord
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
from prometheus_client.metrics_core import Metric
from prometheus_client.registry import Collector

from bot import ai
from bot.db.core import PROCESS  # host:pid, as the moves ledger names this process
from bot.db.postgres import PostgresDatabase
from bot.deploy import Shards, configured_address, shards_label
from bot.events import REPAIRED, TableCommitted

if TYPE_CHECKING:
    from bot.tables.service import TableService

log = logging.getLogger(__name__)

PING_TIMEOUT = 2.0  # seconds the database has to answer /healthz
TICK = 1.0  # seconds between event-loop lag samples

# seconds; a press is a load, a versioned save and a message edit
PRESS_BUCKETS = (0.01, 0.025, 0.05, 0.1, 0.15, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
LAG_BUCKETS = (0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
# seconds from a turn clock's deadline to its firing done (the sweeper ticks
# every second; another process's deadline is heard by NOTIFY)
CLOCK_BUCKETS = (0.1, 0.25, 0.5, 1.0, 1.5, 2.0, 3.0, 5.0, 10.0, 30.0, 60.0, 120.0)

# what became of the press being handled (set by :meth:`Operations.on_commit`)
_PRESS: contextvars.ContextVar[list[str] | None] = contextvars.ContextVar(
    "chabudai_press", default=None
)


class _Labelled(Collector):
    """A registry as exposed: every sample also carries this process's
    labels (``process``, ``shards``), so several processes' series never
    mix wherever they are scraped from."""

    def __init__(self, registry: CollectorRegistry, labels: dict[str, str]) -> None:
        self.registry = registry
        self.labels = labels

    def collect(self) -> Iterator[Metric]:
        for family in self.registry.collect():
            out = Metric(family.name, family.documentation, family.type, family.unit)
            out.samples = [s._replace(labels={**s.labels, **self.labels}) for s in family.samples]
            yield out


class Monitored(Protocol):
    """What the operators' endpoint reads of the bot (:class:`bot.app.ChabudaiBot`,
    typed by what it is, not imported: ``bot.app`` imports this module):
    its gateway connections and its tables."""

    @property
    def tables(self) -> TableService: ...
    @property
    def guilds(self) -> Sequence[discord.Guild]: ...
    @property
    def shard_count(self) -> int | None: ...
    @property
    def latency(self) -> float: ...
    @property
    def ws(self) -> Any: ...
    def is_closed(self) -> bool: ...
    def is_ready(self) -> bool: ...


class Operations:
    """The bot's metrics and its operators' HTTP endpoint."""

    def __init__(self, bot: Monitored) -> None:
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
        self.clock_lag = Histogram(
            "chabudai_clock_fire_lag_seconds",
            "From a turn clock's deadline to its firing stored and shown (timeouts, "
            "expired lobbies, abandoned tables)",
            buckets=CLOCK_BUCKETS,
            registry=r,
        )
        self.pool = Gauge(
            "chabudai_db_pool_connections",
            "PostgreSQL connections of this process's pool, by state (in_use, idle, max)",
            ["state"],
            registry=r,
        )
        self.shard_up = Gauge(
            "chabudai_shard_up",
            "1 while this process's gateway connection for the shard is open",
            ["shard"],
            registry=r,
        )
        self.shard_latency = Gauge(
            "chabudai_shard_latency_seconds",
            "The shard's gateway heartbeat latency (+Inf or NaN before the first heartbeat)",
            ["shard"],
            registry=r,
        )
        self.shard_guilds = Gauge(
            "chabudai_shard_guilds",
            "Servers the shard serves (what Discord sent since the connection)",
            ["shard"],
            registry=r,
        )
        self._runner: web.AppRunner | None = None
        # more routes on the same server (the Activity: bot.activity)
        self._also: list[Callable[[web.Application], None]] = []
        self._stopping = threading.Event()  # ends the lag probe
        self.address: tuple[str, int] | None = None  # where it listens, once started

    # ------------------------------------------------------------ counting

    async def around_press(self, press: Awaitable[None]) -> None:
        """One press, counted and timed (``Presses.around_press``)."""
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
        due = change.before.deadline
        if change.origin == "clock" and due is not None:
            self.clock_lag.observe(max(0.0, self.bot.tables.clock() - due))
        if change.kind == REPAIRED:
            self.repairs.inc()
        outcome = _PRESS.get()
        if outcome is not None and change.origin == "press" and not outcome:
            outcome.append("committed")

    def follower_failed(self, name: str) -> None:
        """The bus's failure hook."""
        self.follower_failures.labels(name).inc()

    # ------------------------------------------------------------- serving

    @property
    def shards(self) -> Shards | None:
        """The shards this process holds (``None``: unsharded, every server)."""
        ids = getattr(self.bot, "shard_ids", None)  # an AutoShardedBot's
        count = self.bot.shard_count
        return None if ids is None or count is None else Shards(tuple(ids), count)

    @property
    def labels(self) -> dict[str, str]:
        """What every exposed sample carries: this process and its shards."""
        return {"process": PROCESS, "shards": shards_label(self.shards)}

    def _connections(self) -> dict[int, tuple[bool, float]]:
        """Each gateway connection: shard id → (open, heartbeat latency);
        an unsharded bot's one connection is shard 0."""
        bot = self.bot
        if isinstance(bot, discord.AutoShardedClient):
            return {
                shard_id: (not info.is_closed(), info.latency)
                for shard_id, info in bot.shards.items()
            }
        ws = bot.ws  # None before the first connection; closed while reconnecting
        return {0: (ws is not None and bool(ws.open), bot.latency)}

    async def health(self) -> str | None:
        """None when healthy, else why not (a few words)."""
        bot = self.bot
        connections = self._connections()
        closed = sorted(shard for shard, (up, _) in connections.items() if not up)
        if bot.is_closed() or not bot.is_ready() or not connections or closed:
            if isinstance(bot, discord.AutoShardedClient) and closed:
                return "not connected to Discord (shard " + ", ".join(map(str, closed)) + ")"
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
            counts = await self.bot.tables.store.tables.table_counts()
            for phase in ("lobby", "playing"):
                self.tables.labels(phase).set(counts.get(phase, 0))
        self.ai_workers.set(len(ai.worker_pids()))
        db = self.bot.tables.store.db
        if isinstance(db, PostgresDatabase) and db.is_open:
            pool = db.pool
            idle = pool.get_idle_size()
            self.pool.labels("in_use").set(pool.get_size() - idle)
            self.pool.labels("idle").set(idle)
            self.pool.labels("max").set(pool.get_max_size())
        guilds: dict[int, int] = {}
        for guild in self.bot.guilds:
            guilds[guild.shard_id] = guilds.get(guild.shard_id, 0) + 1
        for shard, (up, latency) in self._connections().items():
            name = str(shard)
            self.shard_up.labels(name).set(1 if up else 0)
            self.shard_latency.labels(name).set(latency)
            self.shard_guilds.labels(name).set(guilds.get(shard, 0))
        body = generate_latest(_Labelled(self.registry, self.labels))
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

    def also_serve(self, routes: Callable[[web.Application], None]) -> None:
        """Add routes to the server (``routes(app)``, called at :meth:`start`)."""
        self._also.append(routes)

    async def start(self) -> None:
        """Serve ``/healthz`` and ``/metrics`` (and what :meth:`also_serve`
        added) if ``CHABUDAI_HTTP`` (or ``CHABUDAI_METRICS_PORT``) is set."""
        where = configured_address()
        if where is None or self._runner is not None:
            return
        host, port = where
        app = web.Application()
        app.router.add_get("/healthz", self._healthz)
        app.router.add_get("/metrics", self._metrics)
        for routes in self._also:
            routes(app)
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
