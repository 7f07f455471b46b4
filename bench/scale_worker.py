"""One bot process of ``bench/scale.py`` (and of the slow multi-process test):
a real bot on a shared database, its own SimCord world, its own servers, and
clients pressing at once.

    python bench/scale_worker.py '<json settings>'

Talks to its parent over stdin/stdout, one JSON document a line: it prints
``{"ready": …}`` once its world is built and its bot started, waits for a
``go`` line (after an ``idle`` line: measures itself with nothing to do
until the ``go``, and prints ``{"idled": …}``), opens its tables, presses for ``warmup`` + ``duration``
seconds (or until ``stop`` on stdin), and prints ``{"done": …}`` with its
figures.

One Discord, modelled in each process. SimCord's world lives in one process,
but every bot process of a real deployment sees the same Discord: a turn
clock fired by another process edits the table message by id. So every
worker builds the *same* world — every process's servers, channels and
users, created in the same order at the same virtual instant, hence with
the same snowflake ids (checked: the ids are reported and compared) — and
plays only in its own servers (as a process holds only its shards). A
channel is one channel whatever process looks at it, and two processes'
channels never share an id. What a world creates afterwards (messages) gets
ids from a clock shifted per process and per generation (a restarted
process is a new generation), so a message id never names two messages.
A message another process posts in its own copy of the world stays there:
a table message edited by another process (a turn clock it fired, a
computer it moved) is posted again in that process's world (the bot's
repost of a deleted message). The owner's clients still see the older
copy; their press is refused as stale, and the worker then puts the stored
table on its own world's screen (:func:`resync`, the bot's repair) — on
Discord there would be one message, edited by whoever moved last. A
restarted process (``adopt``) builds the same world and finds its tables in
the database the same way.

Concurrency: SimCord serializes its public operations (a click waits until
the whole bot has settled), so the clients here dispatch their
interactions one level down, the way ``click`` does but without waiting
for the world to settle: the interaction is emitted on the simulated
gateway and the client waits for the bot's handler of that interaction
(``Presses.press`` / ``Lobby.open_lobby``) to return. A press is timed from
its dispatch to that return: the wait for the table lock, load, apply,
commit and the table message's edit (its picture drawn) included; what the
followers do afterwards in tasks of their own (computers, pings) is not.

Time: the bot's clock is the wall clock (deadlines and the ledger's times
are real). SimCord runs ``ext.tasks`` loops on its virtual clock, which
moves only when the whole world has settled — never while clients keep
pressing — so the worker runs the bot's turn-clock sweeper itself once a
second of wall time (:func:`sweeping`), as the Clocks cog's loop does in
production; the bot's other timers fire on the wall clock too
(:func:`real_timers`), and SimCord's records of cancelled callbacks are
dropped as its settling would (:func:`pruning`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import random
import re
import resource
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "bot"))
if __name__ == "__main__" and len(sys.argv) > 1 and json.loads(sys.argv[1]).get("code"):
    # the bot's and the games' code from another checkout (``scale.py --against``):
    # the same workload, this harness, that code
    sys.path.insert(0, str(Path(json.loads(sys.argv[1])["code"]).resolve()))

import simcord  # noqa: E402
from simcord import actors as sim_actors  # noqa: E402
from simcord.backend import serializers  # noqa: E402
from simcord.enums import InteractionType  # noqa: E402

from bot import turns  # noqa: E402
from bot.app import create_bot  # noqa: E402
from bot.followers.clock import SWEEP_EVERY  # noqa: E402
from bot.i18n import t  # noqa: E402
from bot.storage import open_store  # noqa: E402

# game → (people seated, computers, house options, preferred actions)
GAMES: dict[str, tuple[int, tuple[str, ...], str | None, tuple[str, ...]]] = {
    "nine": (2, (), None, ()),
    "sixdice": (2, (), "target=3000 start=500", ("m:stop",)),
    "yahtzee": (1, ("easy",), None, ()),
    "bluff": (1, ("easy", "easy"), "losses=1", ()),
    "sixtysix": (1, ("easy",), None, ()),
}
USERS = 4  # people per server
TURN = re.compile(r"Turn: <@(\d+)>")
WORLD_AT = 7 * 86400.0  # SimCord seconds: when every process builds its world
WORLD_SHIFT_MS = 10**10  # ~116 days of snowflake time between worlds

log = logging.getLogger("scale_worker")


def out(doc: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(doc) + "\n")
    sys.stdout.flush()


# ------------------------------------------------------------- counting SQL


class Counts:
    """SQL statements (at the store's interface) and round trips (what the
    driver sends: SQLite, each hop to aiosqlite's thread; PostgreSQL, each
    query asyncpg sends — transactions' BEGIN/COMMIT, pool resets and
    advisory locks included), while ``active``."""

    def __init__(self) -> None:
        self.active = False
        self.statements = 0
        self.round_trips = 0
        self.kinds: Counter[str] = Counter()
        self.lock_waits: list[float] = []  # PostgreSQL: seconds to take a table lock
        self.lock_misses = 0  # PostgreSQL: tries of a table lock another session held
        self.pictures = 0  # pictures drawn (table, hand, result), on any thread
        self.picture_kinds: Counter[str] = Counter()  # how many of each
        self.picture_cpu = 0.0  # their CPU seconds (each on its own thread)
        self.picture_kind_cpu: Counter[str] = Counter()  # of each kind

    def statement(self, sql: str) -> None:
        if self.active:
            self.statements += 1
            self.kinds[" ".join(sql.split()[:3])] += 1

    def trip(self) -> None:
        if self.active:
            self.round_trips += 1


def count_pictures(counts: Counts) -> None:
    """Count the pictures drawn while ``active`` and their CPU time (the
    drawing thread's: the bot draws in worker threads)."""
    import threading

    from bot import pictures

    lock = threading.Lock()

    def wrap(name: str) -> None:
        draw = getattr(pictures, name)

        def counted(*args: Any, **kwargs: Any) -> Any:
            c0 = time.thread_time()
            try:
                return draw(*args, **kwargs)
            finally:
                if counts.active:
                    with lock:
                        counts.pictures += 1
                        counts.picture_kinds[name.split("_")[0]] += 1
                        spent = time.thread_time() - c0
                        counts.picture_cpu += spent
                        counts.picture_kind_cpu[name.split("_")[0]] += spent

        setattr(pictures, name, counted)

    for name in ("table_picture", "hand_picture", "result_picture"):
        wrap(name)


def concern(store: Any, name: str) -> Any:
    """The store's repository of a concern (``store.tables``…), or the store
    itself on older code (``--against``: one store class for everything)."""
    return getattr(store, name, store)


def memory_parts() -> dict[str, Any]:
    """Where the process's memory is at its end (``--verbose``): its RSS now
    by kind (``/proc/self/smaps_rollup``: anonymous — the heap, arenas,
    Pillow's images — and file-backed — the code of the modules and
    libraries mapped), in kB, and the modules imported (numpy among them?)."""
    parts: dict[str, Any] = {}
    with contextlib.suppress(OSError):
        for line in Path("/proc/self/smaps_rollup").read_text().splitlines()[1:]:
            name, _, value = line.partition(":")
            if name in ("Rss", "Anonymous", "Shared_Clean", "Private_Clean", "Private_Dirty"):
                parts[name] = int(value.split()[0])
    parts["modules"] = len(sys.modules)
    parts["numpy"] = "numpy" in sys.modules
    return parts


def count_sql(counts: Counts) -> None:
    """Wrap the store's connections (both backends) and the drivers."""
    import aiosqlite
    import asyncpg.connection

    try:  # the storage by concern (bot/db/)
        from bot.db import postgres as store_pg
        from bot.db import sqlite as sqlite_store

        sqlite_class: Any = sqlite_store.SqliteDatabase
        pg_class: Any = store_pg.PostgresDatabase
    except ImportError:  # older code (--against): one store module per backend
        from bot import store as sqlite_store  # type: ignore[attr-defined,no-redef]
        from bot import store_pg  # type: ignore[attr-defined,no-redef]

        sqlite_class = sqlite_store.SqliteStore
        pg_class = store_pg.PostgresStore

    def wrap_conn(cls: Any) -> None:
        for name in ("fetch", "execute", "executemany"):
            orig = getattr(cls, name)

            def make(orig: Any) -> Any:
                async def counted(self: Any, sql: str, *args: Any, **kwargs: Any) -> Any:
                    counts.statement(sql)
                    return await orig(self, sql, *args, **kwargs)

                return counted

            setattr(cls, name, make(orig))

    wrap_conn(store_pg._PgConn)
    sent = getattr(sqlite_class, "_sent", None)
    if sent is not None:  # the SQLite store counts its statements where it sends them

        def counted_sent(self: Any, sql: str) -> None:
            counts.statement(sql)
            sent(self, sql)

        sqlite_class._sent = counted_sent
    else:  # older code (--against): at its connection and its _x
        wrap_conn(sqlite_store._SqliteConn)
        x = sqlite_class._x

        async def counted_x(self: Any, sql: str, args: Any = ()) -> None:
            counts.statement(sql)
            await x(self, sql, args)

        sqlite_class._x = counted_x
    # the PostgreSQL table locks and notices go to asyncpg directly
    lock = pg_class.table_lock

    @contextlib.asynccontextmanager
    async def counted_lock(self: Any, table_id: int, **kwargs: Any) -> Any:
        # its statements are counted at the driver (below): a lock kept
        # after use sends none when used again
        t0 = time.perf_counter()
        async with lock(self, table_id, **kwargs):
            if counts.active:
                counts.lock_waits.append(time.perf_counter() - t0)
            yield

    pg_class.table_lock = counted_lock
    # (a notice between processes goes through _PgConn.execute: counted there)

    hop = aiosqlite.Connection._execute

    async def counted_hop(self: Any, fn: Any, *args: Any, **kwargs: Any) -> Any:
        counts.trip()
        return await hop(self, fn, *args, **kwargs)

    aiosqlite.Connection._execute = counted_hop  # type: ignore[method-assign]

    conn_cls = asyncpg.connection.Connection
    pg_execute, pg_inner, pg_many = conn_cls.execute, conn_cls._execute, conn_cls._executemany

    def lock_statement(query: str) -> None:
        # the table locks' statements go to asyncpg directly, not through
        # the store's connection wrapper
        if query.startswith(("SELECT pg_try_advisory_lock(", "SELECT pg_advisory_lock(",
                             "SELECT pg_advisory_unlock(")):  # fmt: skip
            counts.statement(query.split("(", 1)[0])

    async def counted_execute(self: Any, query: str, *args: Any, **kwargs: Any) -> Any:
        lock_statement(query)
        if not args:  # the simple query protocol; with arguments: _execute
            counts.trip()
        return await pg_execute(self, query, *args, **kwargs)

    async def counted_inner(self: Any, *args: Any, **kwargs: Any) -> Any:
        counts.trip()
        return await pg_inner(self, *args, **kwargs)

    async def counted_many(self: Any, *args: Any, **kwargs: Any) -> Any:
        counts.trip()
        return await pg_many(self, *args, **kwargs)

    pg_fetchval = conn_cls.fetchval

    async def watched_fetchval(self: Any, query: str, *args: Any, **kwargs: Any) -> Any:
        lock_statement(query)
        got = await pg_fetchval(self, query, *args, **kwargs)
        if query.startswith("SELECT pg_try_advisory_lock") and not got:
            counts.lock_misses += 1  # another holds it: the store backs off and tries again
        return got

    conn_cls.fetchval = watched_fetchval  # type: ignore[method-assign]
    conn_cls.execute = counted_execute  # type: ignore[method-assign]
    conn_cls._execute = counted_inner  # type: ignore[method-assign]
    conn_cls._executemany = counted_many  # type: ignore[method-assign]


# ---------------------------------------------------------- the world


class World:
    """The same servers, channels and users in every process's SimCord:
    created in one order at one virtual instant (:data:`WORLD_AT`), whatever
    the bot's start did to SimCord's clock before."""

    def __init__(
        self, env: simcord.Env, procs: int, per_game: int | list[int], clocks: int | list[int]
    ) -> None:
        """``per_game`` and ``clocks``: each process's (a list, one a process:
        ``scale.py`` splits its totals among them) or every process's (one
        number)."""
        self.env = env
        per_game_of = per_game if isinstance(per_game, list) else [per_game] * procs
        clocks_of = clocks if isinstance(clocks, list) else [clocks] * procs
        clock = env.backend.clock
        assert clock.elapsed < WORLD_AT, clock.elapsed
        clock.elapsed = WORLD_AT
        self.servers: list[dict[str, Any]] = []
        for p in range(procs):
            guild = env.create_guild(f"p{p}")
            users = [guild.add_member(env.create_user(f"p{p}u{i}")) for i in range(USERS)]
            channels = [
                (game, guild.create_text_channel(f"{game}-{i}"))
                for i in range(per_game_of[p])
                for game in GAMES
            ]
            cguild = env.create_guild(f"p{p}-clock")
            cusers = [cguild.add_member(env.create_user(f"p{p}c{i}")) for i in range(2)]
            cchannels = [cguild.create_text_channel(f"clock-{i}") for i in range(clocks_of[p])]
            self.servers.append(
                {
                    "guild": guild,
                    "users": users,
                    "channels": channels,
                    "clock_guild": cguild,
                    "clock_users": cusers,
                    "clock_channels": cchannels,
                }
            )

    def ids(self) -> dict[str, int]:
        """Every object's id by its name (the same in every process)."""
        out: dict[str, int] = {}
        for p, s in enumerate(self.servers):
            out[f"p{p}"] = s["guild"].id
            out[f"p{p}-clock"] = s["clock_guild"].id
            for i, u in enumerate(s["users"]):
                out[f"p{p}u{i}"] = u.id
            for i, u in enumerate(s["clock_users"]):
                out[f"p{p}c{i}"] = u.id
            for _game, ch in s["channels"]:
                out[f"p{p}/{ch.name}"] = ch.id
            for ch in s["clock_channels"]:
                out[f"p{p}-clock/{ch.name}"] = ch.id
        return out


def shift_snowflakes(env: simcord.Env, slot: int) -> None:
    """Ids made from now on come from a clock ``slot`` worlds further on."""
    backend = env.backend
    allocate = backend._allocate_at
    backend._allocate_at = lambda ms: allocate(ms + slot * WORLD_SHIFT_MS)  # type: ignore[method-assign]


# ---------------------------------------------------------- clients


class Driver:
    """Interactions dispatched without waiting for the world to settle;
    each waits for its handler in the bot to return."""

    def __init__(self, env: simcord.Env, bot: Any) -> None:
        self.env = env
        self.bot = bot
        self.waiting: dict[int, asyncio.Future[None]] = {}
        self.emitted: dict[int, float] = {}
        self.queued: list[float] = []  # from the dispatch to the handler's start
        # the press and /play handlers (on the table service itself before
        # bot/tables.py was split: --against an older checkout)
        presses = getattr(bot, "presses", bot.tables)
        lobby = getattr(bot, "lobby", bot.tables)
        press, open_lobby = presses.press, lobby.open_lobby

        async def pressed(interaction: Any, *args: Any, **kwargs: Any) -> None:
            emitted = self.emitted.pop(interaction.id, None)
            if emitted is not None:
                self.queued.append(time.perf_counter() - emitted)
            try:
                await press(interaction, *args, **kwargs)
            finally:
                self._done(interaction.id)

        async def opened(interaction: Any, *args: Any, **kwargs: Any) -> None:
            try:
                await open_lobby(interaction, *args, **kwargs)
            finally:
                self._done(interaction.id)

        presses.press = pressed
        lobby.open_lobby = opened

    def _done(self, interaction_id: int) -> None:
        fut = self.waiting.pop(interaction_id, None)
        if fut is not None and not fut.done():
            fut.set_result(None)

    async def _dispatch(
        self,
        actor: Any,
        type_: int,
        channel: Any,
        data: dict[str, Any],
        *,
        extra: dict[str, Any] | None = None,
        source_message_id: int | None = None,
    ) -> Any:
        """``simcord.actors._dispatch_actor_interaction`` without the settle:
        emit, then wait for the bot's handler."""
        backend = self.env.backend
        guild = getattr(actor, "guild", None)
        record, payload = sim_actors._interactions.base_payload(
            backend,
            type=type_,
            channel_id=channel.id,
            guild_id=guild.id if guild is not None else None,
            user_id=actor.id,
            data=data,
        )
        if extra:
            payload.update(extra)
        if source_message_id is not None:
            record.source_message_id = source_message_id
        fut = asyncio.get_running_loop().create_future()
        self.waiting[record.id] = fut
        self.emitted[record.id] = time.perf_counter()
        backend.emit("INTERACTION_CREATE", payload)
        try:
            await asyncio.wait_for(fut, 30.0)
        finally:
            self.waiting.pop(record.id, None)
        return record

    async def click(self, actor: Any, stored: Any, custom_id: str, value: str | None) -> Any:
        """A button press (``value`` None) or a select's choice on ``stored``."""
        component = next(c for c in _walk(stored.components) if c.get("custom_id") == custom_id)
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": component["type"]}
        if value is not None:
            data["values"] = [value]
        channel = self.env.backend.get_channel(stored.channel_id)
        return await self._dispatch(
            actor,
            InteractionType.MESSAGE_COMPONENT,
            channel,
            data,
            extra={"message": dict(serializers.message_payload(self.env.backend, stored))},
            source_message_id=stored.id,
        )

    async def play(self, actor: Any, channel: Any, game: str, options: str | None) -> Any:
        """``/play game`` in ``channel``."""
        root = sim_actors._resolve_visible_command(
            actor, channel.id, "play", int(simcord.enums.AppCommandType.CHAT_INPUT)
        )
        leaf, nesting = sim_actors._interactions.walk_to_subcommand(root, [])
        args = {"game": game} | ({"options": options} if options else {})
        leaf_options, _resolved = sim_actors._interactions.build_options(
            actor, "play", leaf, args, channel_id=channel.id
        )
        data = {
            "id": root["id"],
            "name": root["name"],
            "type": root.get("type", 1),
            "options": sim_actors._interactions.nest_options(root, nesting, leaf_options),
        }
        return await self._dispatch(actor, InteractionType.APPLICATION_COMMAND, channel, data)


def _walk(components: list[dict[str, Any]]) -> Any:
    for c in components or []:
        yield c
        yield from _walk(c.get("components") or [])


def table_message(env: simcord.Env, channel_id: int) -> Any:
    """The channel's newest public message with table controls (None: none)."""
    best = None
    for stored in env.backend.messages.get(channel_id, {}).values():
        if not stored.visible_to(None):
            continue
        if any(
            str(c.get("custom_id", "")).startswith(("cb:", "cs:")) for c in _walk(stored.components)
        ):
            if best is None or stored.id > best.id:
                best = stored
    return best


class Seat:
    """One channel a client plays in, again and again."""

    def __init__(self, game: str, channel: Any, people: list[Any]) -> None:
        self.game = game
        self.channel = channel
        self.people = people


class Stats:
    def __init__(self, stream: bool = False) -> None:
        self.stream = stream
        self.resynced = 0
        self.latencies: list[float] = []  # seconds, measured presses
        self.taken = 0
        self.refused: Counter[str] = Counter()
        self.acked: list[tuple[int, int, str]] = []  # (table, version before, actor id)
        self.errors: Counter[str] = Counter()
        self.opened = 0
        self.measuring = False


async def open_table(driver: Driver, seat: Seat, stats: Stats) -> bool:
    """``/play`` in the seat's channel, the others join, computers are added,
    the host starts."""
    env = driver.env
    people, cpus, options, _prefer = GAMES[seat.game]
    host, *others = seat.people[:people]
    await driver.play(host, seat.channel, seat.game, options)
    for who in others:
        msg = table_message(env, seat.channel.id)
        if msg is None:
            return False
        cid = next(c["custom_id"] for c in _walk(msg.components)
                   if str(c.get("custom_id", "")).endswith(":join"))  # fmt: skip
        await driver.click(who, msg, cid, None)
    for level in cpus:
        msg = table_message(env, seat.channel.id)
        cid = next(c["custom_id"] for c in _walk(msg.components)
                   if str(c.get("custom_id", "")).endswith(f":cpu:{level}"))  # fmt: skip
        await driver.click(host, msg, cid, None)
    msg = table_message(env, seat.channel.id)
    cid = next(c["custom_id"] for c in _walk(msg.components)
               if str(c.get("custom_id", "")).endswith(":start"))  # fmt: skip
    await driver.click(host, msg, cid, None)
    stats.opened += 1
    return True


def _response(env: simcord.Env, record: Any) -> tuple[bool, str]:
    """Whether a press was taken (no answer for the presser alone), and the
    refusal's text."""
    if not record.ephemeral:
        return True, ""
    text = ""
    if record.message_id is not None:
        with contextlib.suppress(Exception):
            text = env.backend.get_message(record.channel_id, record.message_id).content
    return False, text


async def client(
    driver: Driver,
    seats: list[Seat],
    stats: Stats,
    stop: asyncio.Event,
    rng: random.Random,
    every: float = 0.0,
) -> None:
    """Presses the tables of ``seats`` in turn, one press at a time; with
    ``every`` > 0, at most one press every ``every`` seconds (a fixed
    offered load: a press that finds its client behind goes at once)."""
    env = driver.env
    i = rng.randrange(len(seats))
    idle = 0
    due = time.perf_counter() + rng.random() * every  # spread the clients' first presses
    while not stop.is_set():
        seat = seats[i % len(seats)]
        i += 1
        msg = table_message(env, seat.channel.id)
        if msg is None:  # the game is over (or never opened): a new one
            try:
                await open_table(driver, seat, stats)
            except Exception as err:  # noqa: BLE001
                stats.errors[f"open: {type(err).__name__}: {err}"[:120]] += 1
            continue
        m = TURN.search(msg.content)
        mover = None
        if m is not None:
            mover = next((u for u in seat.people if u.id == int(m.group(1))), None)
        if mover is None:  # a computer's turn, or a lobby
            idle += 1
            if idle >= len(seats):
                idle = 0
                await asyncio.sleep(0.01)
            continue
        idle = 0
        where, actor = msg, mover
        if not playable(msg):  # moves from the hand (Sixty-Six): the mover's DM
            table_id = next(str(c["custom_id"]).split(":")[1] for c in _walk(msg.components)
                            if str(c.get("custom_id", "")).startswith(("cb:", "cs:")))  # fmt: skip
            hand = hand_message(env, mover, table_id)
            if hand is None:
                await asyncio.sleep(0.01)
                continue
            where, actor = hand, mover.user
        kind, cid, value = choose(where, GAMES[seat.game][3])
        parts = cid.split(":", 3)
        if every > 0:
            now = time.perf_counter()
            if due > now:
                await asyncio.sleep(due - now)
                i -= 1  # the same table, looked at again (it may have moved meanwhile)
                continue
            due = max(due, now - every) + every  # behind: no burst to catch up
        t0 = time.perf_counter()
        try:
            record = await driver.click(actor, where, cid, value)
        except Exception as err:  # noqa: BLE001
            stats.errors[f"press: {type(err).__name__}: {err}"[:120]] += 1
            continue
        elapsed = time.perf_counter() - t0
        taken, text = _response(env, record)
        if stats.measuring:
            stats.latencies.append(elapsed)
            if taken:
                stats.taken += 1
            else:
                stats.refused[text.splitlines()[0][:60] if text else "?"] += 1
        if taken:
            ack = (int(parts[1]), int(parts[2]), str(mover.id))
            stats.acked.append(ack)
            if stats.stream:
                out({"ack": ack})
        elif STALE in text:  # another process drew the table last
            if await resync(driver, seat.channel.id) == "redrawn":
                stats.resynced += 1


STALE = t("error.stale", "en")
AVOID = ("m:declare",)  # Sixty-Six: declaring below 66 asks first (privately)
ELSEWHERE = ("show",)  # "Show my hand": the moves are in the player's DM


def _actions(stored: Any) -> list[str]:
    return [
        str(c["custom_id"]).split(":", 3)[-1]
        for c in _walk(stored.components)
        if c.get("type") in (2, 3) and str(c.get("custom_id", "")).startswith(("cb:", "cs:"))
    ]


def playable(stored: Any) -> bool:
    """Whether the table message offers a move of its own."""
    return any(a not in AVOID + ELSEWHERE for a in _actions(stored))


def hand_message(env: simcord.Env, member: Any, table_id: str) -> Any:
    """The bot's newest DM to ``member`` with controls of table ``table_id``."""
    channel_id = env.backend.dm_channels.get(member.id)
    if channel_id is None:
        return None
    best = None
    for stored in env.backend.messages.get(channel_id, {}).values():
        ids = [str(c.get("custom_id", "")) for c in _walk(stored.components)]
        if any(i.split(":")[1:2] == [table_id] for i in ids if i.startswith(("cb:", "cs:"))):
            if best is None or stored.id > best.id:
                best = stored
    return best


def first_choice(message: Any, prefer: tuple[str, ...] = ()) -> tuple[str, str, str | None]:
    """``simtable.first_choice`` (a copy: the worker imports no test helper,
    so that it runs another checkout's bot too): a preferred button if
    shown, else the first select's first option, else the first button."""
    ctl = [c for c in _walk(message.components) if c.get("type") in (2, 3)]
    for word in prefer:
        for c in ctl:
            if c["type"] == 2 and c["custom_id"].split(":", 3)[3] == word:
                return ("click", c["custom_id"], None)
    for c in ctl:
        if c["type"] == 3:
            return ("select", c["custom_id"], c["options"][0]["value"])
    c = next(c for c in ctl if c["type"] == 2)
    return ("click", c["custom_id"], None)


def choose(stored: Any, prefer: tuple[str, ...]) -> tuple[str, str, str | None]:
    """``simtable.first_choice`` (a preferred action, else a select's first
    option, else the first button) among the table's controls, a move that
    asks for a confirmation left for last."""

    class Shown:
        components = [
            c for c in _walk(stored.components)
            if c.get("type") in (2, 3) and str(c.get("custom_id", "")).split(":", 3)[-1] not in AVOID
        ] or list(_walk(stored.components))  # fmt: skip

    return first_choice(Shown(), prefer)


# ---------------------------------------------------------- clock tables


class ClockWatch:
    """Turn clocks fired by this process: (table, deadline, fired at)."""

    def __init__(self, service: Any, stream: bool = False) -> None:
        self.fired: list[tuple[int, float, float]] = []
        commit = service.commit

        async def watched(before: Any, row: Any, *args: Any, **kwargs: Any) -> Any:
            deadline = before.deadline
            done = await commit(before, row, *args, **kwargs)
            if kwargs.get("origin") == "clock" and done is not None and deadline is not None:
                fire = (row.id, deadline, service.clock())
                self.fired.append(fire)
                if stream:
                    out({"fired": fire})
            return done

        service.commit = watched


async def clock_tables(
    driver: Driver, server: dict[str, Any], seconds: int, stats: Stats, stop: asyncio.Event
) -> None:
    """Idle two-player Nine tables on a server whose Nine clock is ``seconds``
    (set as /config stores it): their turn clocks fire while nobody plays,
    until the game is abandoned (no one acted for three clocks); then a new
    one is opened in the channel. Opened one after another, spread over a
    clock, so their deadlines do not all fall at one instant."""
    store = driver.bot.tables.store
    await concern(store, "settings").set_guild_setting(server["clock_guild"].id, "clock.nine", seconds)
    seats = clock_seats(server)
    pause = seconds / max(len(seats), 1)
    while not stop.is_set():
        for seat in seats:
            if stop.is_set():
                return
            if table_message(driver.env, seat.channel.id) is None:
                try:
                    await open_table(driver, seat, stats)
                except Exception as err:  # noqa: BLE001
                    stats.errors[f"clock table: {type(err).__name__}: {err}"[:120]] += 1
                await asyncio.sleep(pause)
        await asyncio.sleep(0.5)


# ---------------------------------------------------------- main


def real_timers(env: simcord.Env) -> None:
    """The bot's own timers (``asyncio.sleep``, a driver's timeout) fire on
    the wall clock, as in production. SimCord fires such a timer by moving
    its virtual clock forward once the whole world has settled, which never
    happens while clients keep pressing: a task that sleeps — a table lock
    backing off while another process holds it — would wait for minutes.
    Here the timer runs when its time has come, the virtual clock moved to
    it first. (Waits SimCord recognizes as the bot's own loops —
    ``ext.tasks``, view timeouts — stay virtual; the worker runs the
    sweeper itself.) Set before the bot starts."""
    from simcord import _dpy_internals

    def schedule_timer(record: Any, callback: Any, args: Any, context: Any) -> None:
        def fire() -> None:
            handle = record.handle
            if handle is None or handle.cancelled():
                return
            if env._virtual_time < record.when:
                env._move_clock(record.when)
            handle._run()

        remaining = max(record.when - env._virtual_time, 0.0)
        record.real_handle = env._runtime.call_at(  # the loop's own, untracked
            _dpy_internals.real_monotonic() + remaining, fire, context=context
        )

    env._schedule_timer = schedule_timer  # type: ignore[method-assign]


class Forgetting:
    """What SimCord records for tests to look at — every HTTP request (its
    JSON copied), every request and gateway event in its transcript, every
    uploaded picture's bytes on its CDN — dropped as the run goes (the
    requests counted first, while ``active``): kept, they grow with the
    presses (~65 KB a press, most of a process's RSS after a minute at
    full speed), so the RSS a run reports would measure how fast the bot
    was, not what it keeps. Nothing here reads them back."""

    def __init__(self, env: simcord.Env) -> None:
        self.backend = env.backend
        self.active = False
        self.requests: Counter[str] = Counter()

    def drain(self) -> None:
        backend = self.backend
        entries = backend.http_requests[:]
        del backend.http_requests[: len(entries)]
        if self.active:
            self.requests.update(route(e.method, e.path, e.json) for e in entries)
        backend.transcript.clear()
        backend.cdn._blobs.clear()


async def pruning(env: simcord.Env, stop: asyncio.Event, forgetting: Forgetting) -> None:
    """SimCord keeps a record of every callback the bot schedules and drops
    the cancelled ones when the world settles; a world that never settles
    (clients pressing all the time) keeps them all — every cancelled
    timeout of the database driver — and each callback run then scans the
    whole list (``list.remove``): the harness, not the bot, would grow
    slower with time (on PostgreSQL most of a process's CPU after a few
    seconds). So the worker drops them as settling would, every 0.2 s, and
    the records compare by identity (what ``remove`` looks for) instead of
    field by field. What SimCord records for tests is dropped as often
    (:class:`Forgetting`)."""
    from simcord._runtime import _CallbackRecord
    from simcord._settlement import _active_callbacks

    _CallbackRecord.__eq__ = object.__eq__  # type: ignore[assignment]

    while not stop.is_set():
        await asyncio.sleep(0.2)
        _active_callbacks(env._settlement_state())
        forgetting.drain()


async def sweeping(bot: Any, stop: asyncio.Event) -> None:
    """The turn-clock sweeper every :data:`SWEEP_EVERY` seconds of wall time,
    as the Clocks cog's loop runs it in production (SimCord runs ``ext.tasks``
    loops on its virtual clock, which moves only when the whole world has
    settled: never while clients keep pressing)."""
    while not stop.is_set():
        await asyncio.sleep(SWEEP_EVERY)
        c0 = time.thread_time()
        try:
            await bot.sweeper.sweep()
        except Exception:
            log.exception("sweep")
        SWEEPS[0] += 1
        SWEEPS[1] += time.thread_time() - c0  # (a sweep that waits on the database: not all its own)


SWEEPS = [0, 0.0]  # sweeps run, the event loop's CPU seconds from their start to their end


async def read_line(reader: asyncio.StreamReader) -> str:
    line = await reader.readline()
    return line.decode().strip()


def dump_tasks() -> None:
    """SIGUSR1: every task's chain of awaits to stderr (where a process waits)."""
    for task in asyncio.all_tasks():
        sys.stderr.write(f"--- {task.get_name()}\n")
        coro: Any = task.get_coro()
        while coro is not None:
            frame = getattr(coro, "cr_frame", None) or getattr(coro, "ag_frame", None)
            if frame is not None:
                sys.stderr.write(
                    f"  {frame.f_code.co_filename}:{frame.f_lineno} {frame.f_code.co_name}\n"
                )
            coro = getattr(coro, "cr_await", None) or getattr(coro, "ag_await", None)
    sys.stderr.flush()


async def main(cfg: dict[str, Any]) -> None:
    import signal

    index, procs = int(cfg["index"]), int(cfg["procs"])
    stream = bool(cfg.get("stream"))  # acknowledged presses and clock fires as they happen
    loop = asyncio.get_running_loop()
    loop.add_signal_handler(signal.SIGUSR1, dump_tasks)
    counts = Counts()
    count_sql(counts)
    count_pictures(counts)
    store = open_store(cfg["db"])
    # the idle tables' clocks fire every clock_seconds, as they did before a
    # player's first turn of a game got three turn clocks (docs/bot.md): the
    # workload stays comparable with the earlier runs (docs/operations.md)
    turns.FIRST_TURN_FACTOR, turns.FIRST_TURN_MIN = 1, 0
    bot = create_bot(store, sync_commands="always")  # each world is a Discord of its own
    try:  # the collector as python -m bot sets it (older checkouts: Python's default)
        from bot.__main__ import tune_gc
    except ImportError:
        pass
    else:
        if not os.environ.get("CHABUDAI_BENCH_DEFAULT_GC"):
            tune_gc()
    try:  # and the allocator (older checkouts: glibc's defaults)
        from bot.__main__ import tune_malloc
    except ImportError:
        pass
    else:
        if not os.environ.get("CHABUDAI_BENCH_DEFAULT_MALLOC"):
            tune_malloc()
    bot.cpu_delay = float(cfg.get("cpu_delay", 0.0))
    watch = ClockWatch(bot.tables, stream)
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    runner = simcord.run(bot, settle_timeout=float(cfg.get("settle", 120.0)))
    env = runner._env
    # the world exists before the bot starts (its start-up repair edits by id)
    per_game_of = each(cfg["per_game"], procs)
    clocks_of = each(cfg["clocks"], procs)
    clients_of = each(cfg["clients"], procs)
    world = World(env, procs, per_game_of, clocks_of)
    shift_snowflakes(env, 1 + index + procs * int(cfg.get("generation", 0)))
    # SimCord gives a starting bot 5 s to settle; a process started on a
    # busy database (a restart: its computers' turns, its stale tables) may
    # need longer on a loaded machine
    settle = env._settle_internal

    async def patient(**kwargs: Any) -> None:
        if kwargs.get("timeout") is not None:
            kwargs["timeout"] = max(float(kwargs["timeout"]), float(cfg.get("settle", 120.0)))
        await settle(**kwargs)

    env._settle_internal = patient  # type: ignore[method-assign]
    real_timers(env)
    async with runner:
        driver = Driver(env, bot)
        mine = world.servers[index]
        import bot as bot_package

        out({"ready": {"index": index, "pid": os.getpid(), "ids": world.ids(),
                       "code": str(Path(bot_package.__file__).resolve().parents[1])}})  # fmt: skip
        stop = asyncio.Event()
        forgetting = Forgetting(env)
        background: list[asyncio.Task[None]] = []
        said = await read_line(reader)
        if said == "idle":  # an idle window first (scale.py --idle): no tables, no presses
            background = [asyncio.create_task(sweeping(bot, stop)),
                          asyncio.create_task(pruning(env, stop, forgetting))]  # fmt: skip
            t0, cpu0, main0 = time.perf_counter(), time.process_time(), time.thread_time()
            sweeps0 = list(SWEEPS)
            counts.active = True
            said = await read_line(reader)
            counts.active = False
            sweeps = SWEEPS[0] - sweeps0[0]
            out({"idled": {"index": index, "elapsed": time.perf_counter() - t0,
                           "cpu_s": time.process_time() - cpu0,
                           "main_cpu_s": time.thread_time() - main0,
                           "sweeps": sweeps, "sweep_cpu_s": SWEEPS[1] - sweeps0[1],
                           "statements": counts.statements, "round_trips": counts.round_trips,
                           "kinds": dict(counts.kinds.most_common(10))}})  # fmt: skip
            counts.statements = counts.round_trips = 0
            counts.kinds.clear()
        if said != "go":
            return
        seats: list[Seat] = []
        users = mine["users"]
        for k, (game, channel) in enumerate(mine["channels"]):
            people = [users[(k + j) % len(users)] for j in range(USERS)]
            seats.append(Seat(game, channel, people))
        adopted: dict[str, list[int]] = {}
        if cfg.get("adopt"):
            adopted = await adopt(driver, seats + clock_seats(mine))
        stats = Stats(stream)
        if not background:
            background = [asyncio.create_task(sweeping(bot, stop)),
                          asyncio.create_task(pruning(env, stop, forgetting))]  # fmt: skip
        clocks = clocks_of[index]
        if clocks:
            background.append(asyncio.create_task(
                clock_tables(driver, mine, int(cfg["clock_seconds"]), stats, stop)
            ))  # fmt: skip
        rng = random.Random(index)
        clients_n = clients_of[index]
        groups = [seats[c::clients_n] for c in range(clients_n)]
        # --rate: presses/s of all clients of all processes
        rate = float(cfg.get("rate") or 0.0)
        every = sum(clients_of) / rate if rate > 0 else 0.0
        tasks = [asyncio.create_task(client(driver, g, stats, stop, rng, every))
                 for g in groups if g]  # fmt: skip
        warmup, duration = float(cfg["warmup"]), float(cfg["duration"])
        out({"started": {"index": index, "tables": len(seats), "clock_tables": clocks,
                         "clients": len(tasks),
                         "adopted": adopted, "at": time.time()}})  # fmt: skip
        stopper = asyncio.create_task(read_line(reader))
        await asyncio.wait([stopper], timeout=warmup)
        profiler = None
        if cfg.get("profile"):  # cProfile of the measured window
            import cProfile

            # the thread's CPU time, not the wall clock's: a send() that wakes
            # the database server on a busy 2-core machine waits while the
            # server runs, and the wall clock blamed that on the send
            profiler = cProfile.Profile(time.thread_time)
            profiler.enable()
        forgetting.drain()  # the warm-up's requests: not counted
        stats.measuring = True
        counts.active = forgetting.active = True
        t0 = time.perf_counter()
        cpu0 = time.process_time()
        main0 = time.thread_time()  # the event loop's thread alone
        queued_before = len(driver.queued)
        sweeps0 = list(SWEEPS)
        await asyncio.wait([stopper], timeout=duration if duration > 0 else None)
        elapsed = time.perf_counter() - t0
        cpu_window = time.process_time() - cpu0
        main_window = time.thread_time() - main0
        sweeps_window = [SWEEPS[0] - sweeps0[0], SWEEPS[1] - sweeps0[1]]
        forgetting.drain()
        stats.measuring = False
        counts.active = forgetting.active = False
        requests = forgetting.requests
        if profiler is not None:
            profiler.disable()
            profiler.dump_stats(f"{cfg['profile']}.w{index}")  # one per process
        stop.set()
        for failed in await asyncio.gather(*tasks, return_exceptions=True):
            if isinstance(failed, BaseException):
                stats.errors[f"client: {type(failed).__name__}: {failed}"[:120]] += 1
        await asyncio.gather(*background, return_exceptions=True)
        await bot.tables.flush()
        rss_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        memory = memory_parts()
        try:  # what each cache holds at the end (older checkouts: not said)
            from bot.caches import report as kept
        except ImportError:
            held: dict[str, Any] = {}
        else:
            held = kept()
        out(
            {
                "done": {
                    "index": index,
                    "elapsed": elapsed,
                    "latencies": stats.latencies,
                    "queued": driver.queued[queued_before:],
                    "taken": stats.taken,
                    "refused": dict(stats.refused),
                    "errors": dict(stats.errors),
                    "opened": stats.opened,
                    "resynced": stats.resynced,
                    "acked": stats.acked,
                    "statements": counts.statements,
                    "round_trips": counts.round_trips,
                    "pictures": counts.pictures,
                    "picture_cpu_s": counts.picture_cpu,
                    "picture_kinds": dict(counts.picture_kinds),
                    "picture_kind_cpu_s": dict(counts.picture_kind_cpu),
                    "kinds": dict(counts.kinds.most_common(25)),
                    "requests": dict(requests),
                    "fired": watch.fired,
                    "rss_kb": rss_kb,
                    "memory": memory,
                    "caches": held,
                    "cpu_s_window": cpu_window,
                    "main_cpu_s_window": main_window,
                    "sweeps_window": sweeps_window,  # the sweeper's: how many, CPU seconds
                    "lock_waits": counts.lock_waits,
                    "lock_misses": counts.lock_misses,
                }
            }
        )
        # the world's own shutdown would wait for it to settle: the database
        # is what counts, and it was written by transactions
        os._exit(0)


def each(value: int | list[int], procs: int) -> list[int]:
    """A setting of every process: one number a process (a list: ``scale.py``
    splits its totals among the processes), or the same for all."""
    if isinstance(value, list):
        assert len(value) == procs, (value, procs)
        return [int(v) for v in value]
    return [int(value)] * procs


def route(method: str, path: str, body: Any) -> str:
    """A request to Discord by kind: its method and path with the ids
    dropped (an interaction's callback by its type: 4 a reply, 7 an edit of
    the message)."""
    parts = ["{id}" if part.isdigit() else part for part in path.strip("/").split("/")]
    if parts[0] in ("interactions", "webhooks") and len(parts) > 2:
        parts[2] = "{token}"
    kind = f"{method} " + "/".join(parts)
    if kind.endswith("/callback") and isinstance(body, dict):
        kind += f" type {body.get('type')}"
    return kind


def clock_seats(server: dict[str, Any]) -> list[Seat]:
    return [Seat("nine", ch, server["clock_users"]) for ch in server["clock_channels"]]


async def resync(driver: Driver, channel_id: int) -> str:
    """The table of ``channel_id`` as the database holds it, on this world's
    screen. Another process drew it last (a turn clock, a computer, a
    restart): on Discord it would have edited the one message everybody
    sees; here it posted in its own copy of the world. So the stored table
    is announced again (as the bot's repair sweep does, under the table's
    lock): this process's screen follower edits the message by id, finds
    no such message in its world and posts the table again. Returns what
    it found: ``"gone"``, ``"shown"`` (the newest message shows it) or
    ``"redrawn"``."""
    service = driver.bot.tables
    row = await concern(service.store, "tables").table_in_channel(channel_id)
    if row is None:
        return "gone"
    async with service.lock(row.id):
        loaded = await service.load(row.id)
        if loaded is None:
            return "gone"
        shown = table_message(driver.env, channel_id)
        if shown is not None and shown.id == loaded[1].message_id:
            return "shown"
        await service.repair(*loaded, origin="resync")
    return "redrawn"


async def adopt(driver: Driver, seats: list[Seat]) -> dict[str, list[int]]:
    """A restarted process: its servers' tables are in the database, but this
    new world lacks the messages the killed one had posted (Discord would
    still show them). A table the bot's own start-up repair already drew
    (it was behind when the process died) is left alone; the others are
    put on this world's screen (:func:`resync`). Returns the channels of
    each kind."""
    found: dict[str, list[int]] = {"drawn_by_bot": [], "redrawn": [], "gone": []}
    for seat in seats:
        row = await concern(driver.bot.tables.store, "tables").table_in_channel(seat.channel.id)
        if row is None:
            found["gone"].append(seat.channel.id)
        elif table_message(driver.env, seat.channel.id) is not None:
            found["drawn_by_bot"].append(seat.channel.id)
        else:
            await resync(driver, seat.channel.id)
            found["redrawn"].append(seat.channel.id)
    return found


if __name__ == "__main__":
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr,
                        format=f"%(asctime)s w{os.getpid()} %(name)s %(levelname)s %(message)s")  # fmt: skip
    asyncio.run(main(json.loads(sys.argv[1])))
