"""Turn clocks: a sweeper that fires due deadlines (:mod:`bot.turns` sets them).

At :data:`bot.turns.WARN_BEFORE` seconds left the table message shows a
warning and the player is mentioned once; at the deadline the bot plays the
game's default move for them (``spec.timeout_move``: stop / best box /
smallest flip / reveal / lowest card) and says so, through the one commit
path. After :data:`bot.turns.MAX_TIMEOUTS` timeouts in a row the player is
removed with the engine's ``forfeit``. A lobby expires after
:data:`bot.turns.LOBBY_IDLE` seconds without a change.

The :class:`Clocks` cog runs the sweeper: every :data:`SWEEP_EVERY` seconds
it *claims* the tables due (a lease of :data:`LEASE` seconds, taken with
``FOR UPDATE SKIP LOCKED`` on PostgreSQL, so several processes split them)
and fires each one under the table lock and the row version, so a deadline
fires exactly once even when several are due together or several processes
sweep at the same time. A computer's turn left unplayed for
:data:`bot.turns.CPU_OVERDUE` seconds (its process died mid-think) is
claimed the same way and handed to this process's computer players. As a
follower the sweeper learns every new deadline of this process at once
(:meth:`Sweeper.on_commit`), and those of other processes through the
database's notices (PostgreSQL ``LISTEN``), within a sweep.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import discord
from discord.ext import commands, tasks

from bot import turns
from bot.db.core import PROCESS, TableBusy
from bot.events import ABANDONED, EXPIRED, TableCommitted
from bot.followers.screen import UNREACHABLE, Screen
from bot.i18n import t
from bot.model import seat_named, table_link
from bot.tables.rows import TableRow
from bot.tables.service import TableService
from bot.turns import (
    CPU_OVERDUE,
    MAX_AUTO_MOVES,
    MAX_IDLE,
    MAX_TIMEOUTS,
    RECHECK,
    WARN_BEFORE,
)
from games import core, registry

if TYPE_CHECKING:
    from bot.host import Host

log = logging.getLogger(__name__)

SWEEP_EVERY = 1.0  # seconds between sweeps (most ask nothing of the database)
LEASE = 30.0  # seconds a claim on a due table holds
REPAIR_EVERY = 30.0  # seconds between repair sweeps
REPAIR_GRACE = 10.0  # a table changed this recently may still be being shown
# seconds the sweeper waits for a table another process holds (PostgreSQL):
# past it, that table waits for the next sweep, and the others go on
LOCK_WAIT = 5.0
# The database cannot be written (a full disk, a read-only file): the sweeper
# waits BACKOFF seconds, doubling up to BACKOFF_MAX, before it tries again;
# it says so once, then every REMIND_EVERY seconds until writes work again.
BACKOFF, BACKOFF_MAX = 5.0, 60.0
# The database server cannot be reached (PostgreSQL restarting or stopped): it
# is tried again every UNREACHABLE_EVERY seconds (a failed connection costs
# nothing), so that the clocks go on within seconds of its return.
UNREACHABLE_EVERY = 2.0
REMIND_EVERY = 300.0
MENTION_USERS = discord.AllowedMentions(users=True, roles=False, everyone=False)


class Backoff:
    """A sweep that writes, while the database cannot be written (a full
    disk, a read-only file) or read: it waits :data:`BACKOFF` seconds, then
    twice as long as it has been failing (at most :data:`BACKOFF_MAX`),
    before it tries again, and the operator is told once — one ERROR naming
    the cause and what to do — then reminded every :data:`REMIND_EVERY`
    seconds, and told when writes work again. ``what`` waits (for the
    log); ``resumed`` says what goes on again. Used by the turn-clock
    sweeper and the tournaments' sweep."""

    def __init__(self, what: str, resumed: str, logger: logging.Logger | None = None) -> None:
        self.what = what
        self.resumed = resumed
        self.log = logger or log
        self.since: float | None = None  # failing since (None: writes work)
        self.retry_at = 0.0
        self.reminded_at = 0.0

    def waiting(self, now: float) -> bool:
        """Whether the next try is still to come (skip this sweep)."""
        return self.since is not None and now < self.retry_at

    def failed(self, now: float, err: sqlite3.Error) -> None:
        """A sweep could not write: wait longer each time, and tell the
        operator once (then every :data:`REMIND_EVERY` seconds), not per sweep."""
        unreachable = getattr(err, "unreachable", False)
        if self.since is None:
            self.since = self.reminded_at = now
            wait = BACKOFF
            if unreachable:
                self.log.error("the database server cannot be reached (%s): %s wait until it"
                               " answers; check that the database server is running",
                               err, self.what)  # fmt: skip
            else:
                self.log.error("the database cannot be written (%s): %s wait until it can; free"
                               " disk space or make the database writable", err, self.what)  # fmt: skip
        else:
            wait = min(BACKOFF_MAX, max(BACKOFF, 2 * (now - self.since)))
            if now - self.reminded_at >= REMIND_EVERY:
                self.reminded_at = now
                self.log.error("the database still cannot be written after %.0f s (%s): %s are"
                               " waiting", now - self.since, err, self.what)  # fmt: skip
        if unreachable:
            wait = UNREACHABLE_EVERY
        self.retry_at = now + wait

    def worked(self, now: float) -> None:
        """A sweep went through: say so once if it had been failing."""
        if self.since is not None:
            self.log.warning("the database can be written again (after %.0f s); %s",
                             now - self.since, self.resumed)  # fmt: skip
            self.since = None


def play_for(game: str, state: Any, player: str) -> tuple[list[core.Event], list[str]]:
    """Apply the default moves of ``player`` (the game's ``timeout_move``)."""
    spec = registry.spec(game)
    events: list[core.Event] = []
    played: list[str] = []
    for _ in range(MAX_AUTO_MOVES):
        legal = spec.engine.legal_moves(state, player)
        if not legal:
            break
        move, last = spec.timeout_move(state, player, legal, played)
        events += spec.engine.apply(state, player, move)
        played.append(move)
        if last:
            break
    return events, played


class Sweeper:
    """Fires due deadlines of one bot process."""

    def __init__(self, client: discord.Client, service: TableService, screen: Screen) -> None:
        self.client = client
        self.service = service
        self.screen = screen
        # When the next thing may be due (unix seconds); None = ask the
        # database. Lets an idle sweep skip the query; deadlines set by this
        # process lower it through :meth:`on_commit`, others are seen within
        # RECHECK seconds.
        self.next_due: float | None = None
        self.repaired_at: float | None = None  # the last repair sweep (None: not yet)
        # a computer's turn found overdue: handed to this process's computer
        # players (set by the app)
        self.overdue: Callable[[int], None] | None = None
        self.owner = f"{PROCESS}:{id(self):x}"  # whose lease
        # the database cannot be written: the sweeps wait, the operator is told once
        self.backoff = Backoff("turn clocks and repairs", "the turn clocks go on")

    def hint(self, when: float) -> None:
        """A deadline (or its warning) at ``when`` was just set."""
        if self.next_due is not None:
            self.next_due = min(self.next_due, when)

    def forget_due(self) -> None:
        """What is due next is not known (notices were missed): the next
        sweep asks the database."""
        self.next_due = None

    async def on_commit(self, change: TableCommitted) -> None:
        row = change.after
        if change.removed or row.deadline is None:
            return
        self.hint(row.deadline if row.phase == "lobby" else row.deadline - WARN_BEFORE)

    async def repair(self, now: float) -> int:
        """Redraw the tables whose message is behind the database (a failed
        answer, a process killed between commit and answer, a deleted
        message) and re-send the private messages owed; the same for
        finished games whose result never reached the table message (it
        shows the result, its controls gone). Cheap: one query each for the
        tables and results behind, changed at least :data:`REPAIR_GRACE`
        seconds ago (a press still being answered is not one); at start-up
        all."""
        service = self.service
        await service.flush()
        first = self.repaired_at is None
        if not first and self.repaired_at is not None and now - self.repaired_at < REPAIR_EVERY:
            return 0
        self.repaired_at = now
        behind = await service.store.tables.behind_tables(now if first else now - REPAIR_GRACE)
        for row in behind:
            if row.version == 0:  # never opened (a write failed): a leftover, not a table
                await service.drop_unopened(row)
                continue
            try:
                async with service.lock(row.id, wait=LOCK_WAIT):
                    loaded = await service.load(row.id)
                    if loaded is not None and service.behind(loaded[1]):
                        await service.repair(*loaded)
            except TableBusy as err:
                log.warning("%s: repaired later", err)
            except Exception:
                log.exception("table %d: the repair failed", row.id)
        # finished games whose result never reached the table message
        ended = await service.store.results.unshown_results(now if first else now - REPAIR_GRACE)
        for result_id, screen in ended.items():
            if not service.result_behind(result_id):
                continue  # shown; the note is on its way to the database
            try:
                async with service.lock(int(screen["row"]["id"]), wait=LOCK_WAIT):
                    await service.repair_result(result_id, screen)
            except TableBusy as err:
                log.warning("%s: its result is shown later", err)
            except Exception:
                log.exception("result %d: the repair failed", result_id)
        # games ended without a result whose end never reached the table message
        gone = await service.store.tables.unshown_ends(now if first else now - REPAIR_GRACE)
        for table_id, screen in gone.items():
            if not service.end_behind(table_id):
                continue  # shown; the note is on its way to the database
            try:
                async with service.lock(table_id, wait=LOCK_WAIT):
                    await self.screen.show_end(screen)
            except TableBusy as err:
                log.warning("%s: its end is shown later", err)
            except Exception:
                log.exception("table %d: the repair of its end failed", table_id)
        return len(behind) + len(ended) + len(gone)

    async def sweep(self, *, force: bool = False) -> int:
        """Repair what is behind, then fire every deadline that is due (or
        due for its warning); returns how many tables were due. While the
        database cannot be written, the sweeps back off (claiming due
        tables is a write): once it can, the timeouts due are played, once."""
        self.service.store.tables.let_go_idle_locks()
        self.service.store.db.keep_listening()  # (the database server came back)
        now = self.service.clock()
        if self.backoff.waiting(now):
            return 0
        try:
            due = await self._sweep(now, force=force)
        except sqlite3.Error as err:
            self.backoff.failed(now, err)
            return 0
        self.backoff.worked(now)
        return due

    async def _sweep(self, now: float, *, force: bool) -> int:
        await self.repair(now)
        if not force and self.next_due is not None and now < self.next_due:
            return 0
        store = self.service.store
        due = await store.tables.claim_due(
            until=now + WARN_BEFORE,
            cpu_until=now - CPU_OVERDUE,
            now=now,
            owner=self.owner,
            lease=LEASE,
        )
        busy = False  # a table held elsewhere: the next sweep tries again
        for table_id in due:
            try:
                await self.fire(table_id, now)
            except sqlite3.Error:
                raise  # the database, not this table: the sweeper backs off
            except TableBusy as err:
                log.warning("%s: its clock fires at the next sweep", err)
                busy = True
            except Exception:
                log.exception("table %d: the turn clock failed", table_id)
            finally:
                await store.tables.release(table_id, self.owner)
        upcoming = await store.tables.next_deadline(now, cpu_overdue=CPU_OVERDUE)
        if upcoming is None:
            self.next_due = now + RECHECK
        else:
            # inside the warning window only the deadline itself is left
            soon = upcoming if upcoming <= now + WARN_BEFORE else upcoming - WARN_BEFORE
            self.next_due = min(soon, now + RECHECK)
        if busy:
            self.next_due = now
        return len(due)

    async def fire(self, table_id: int, now: float) -> None:
        service = self.service
        async with service.lock(table_id, wait=LOCK_WAIT):
            loaded = await service.load(table_id)
            if loaded is None:
                return
            before, row = loaded
            if row.cpu_due is not None and row.cpu_due <= now - CPU_OVERDUE:
                log.warning("table %d: a computer's turn is overdue; moving it here", row.id)
                if self.overdue is not None:
                    self.overdue(row.id)
            if row.deadline is None:
                return
            if row.deadline > now:
                if (
                    row.phase == "playing"
                    and not row.clock.get("warned")
                    and row.deadline - now <= WARN_BEFORE
                ):
                    await self.warn(row)
                return
            if row.phase == "lobby":
                await service.commit(before, row, origin="clock", kind=EXPIRED)
            else:
                await self.timeout(before, row)

    async def warn(self, row: TableRow) -> None:
        old = dict(row.clock)
        row.clock = {**old, "warned": True}
        if not await self.service.store.tables.set_clock(row, old):
            return  # another sweeper (or a move) was first
        lang = row.ui.get("lang", "en")
        await self.screen.edit(row, await self.screen.table(row))
        seat = seat_named(row, row.clock.get("player"))
        if seat is None or seat.get("bot"):
            return
        channel = self.client.get_partial_messageable(row.channel_id, guild_id=row.guild_id)
        text = t(
            "clock.ping",
            lang,
            player=f"<@{seat['id']}>",
            seconds=WARN_BEFORE,
            link=table_link(row),
        )
        try:
            await channel.send(text, allowed_mentions=MENTION_USERS)
        except discord.HTTPException:
            log.warning("table %d: could not send the clock warning", row.id)

    async def timeout(self, before: TableRow, row: TableRow) -> None:
        service = self.service
        eng = registry.engine(row.game)
        assert row.state is not None
        state = eng.from_json(row.state)
        movers = eng.to_move(state)
        if not movers:
            row.deadline = None
            await service.commit(before, row, origin="clock", rearm=False)
            return
        seconds = await turns.table_seconds(service.store, row)
        since = row.ui.get(UNREACHABLE)
        if since is not None:
            # nobody can see or reach the table: never play it out (and rate
            # it) by the clock; after one turn clock it ends, unrated
            if service.clock() - float(since) >= seconds:
                log.warning("table %d: unreachable for a turn clock; abandoned", row.id)
                await service.commit(before, row, origin="clock", kind=ABANDONED)
            else:
                # kept until then, through the one write path (the ledger's "clock")
                row.deadline = float(since) + seconds
                await service.commit(before, row, origin="clock", rearm=False)
            return
        idle = int(row.clock.get("idle") or 0) + 1
        if idle >= MAX_IDLE:
            log.info("table %d: no one played for %d turn clocks; abandoned", row.id, idle)
            await service.commit(before, row, origin="clock", kind=ABANDONED)
            return
        owner = row.clock.get("player")
        player = str(owner) if owner in movers else str(movers[0])
        timeouts = dict(row.clock.get("timeouts") or {})
        count = int(timeouts.get(player, 0)) + 1
        if count >= MAX_TIMEOUTS:
            note = {"kind": "timeout_removed", "player": player, "data": {"count": count}}
            events = eng.forfeit(state, player)
            timeouts.pop(player, None)
        else:
            events, _played = play_for(row.game, state, player)
            note = {
                "kind": "timeout",
                "player": player,
                "data": {"count": count, "max": MAX_TIMEOUTS},
            }
            timeouts[player] = count
        row.clock = {**row.clock, "timeouts": timeouts, "idle": idle}
        row.ui.setdefault("log", []).append(note)
        log.info("table %d: %s timed out (%d in a row)", row.id, player, count)
        await service.commit(before, row, origin="clock", state=state, events=events)


class Clocks(commands.Cog):
    """Runs the sweeper while the bot is up (a ``discord.ext.tasks`` loop; its
    first run at start-up fires whatever fell due while the bot was down)."""

    def __init__(self, bot: Host, sweeper: Sweeper) -> None:
        self.bot = bot
        self.sweeper = sweeper

    async def cog_load(self) -> None:
        # deadlines set by other processes wake this sweeper at once
        # (notices missed while the database server was away: the next
        # sweep asks the database what is due)
        await self.bot.tables.store.tables.listen_due(
            self.sweeper.hint, missed=self.sweeper.forget_due
        )
        self.sweep_loop.start()

    async def cog_unload(self) -> None:
        # a sweep cancelled mid-way lets go of what it claimed in its
        # ``finally``: wait for that (at most 5 s) before the store closes
        # behind it (it logged "store is not open" at ERROR at a stop)
        self.sweep_loop.cancel()
        task = self.sweep_loop.get_task()
        if task is not None and task is not asyncio.current_task():
            await asyncio.wait({task}, timeout=5)

    @tasks.loop(seconds=SWEEP_EVERY)
    async def sweep_loop(self) -> None:
        try:
            await self.sweeper.sweep()
        except Exception:
            log.exception("the turn-clock sweeper failed")
