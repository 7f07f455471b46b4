"""The table service: the one path of every change to a table — load →
check → apply → store → publish — and what it keeps of the tables it shows.

Under a per-table lock (one process) and the row version (any number of
processes), a change is made to a row loaded with :meth:`TableService.load`
and stored with :meth:`TableService.commit` — the one method through which
every change goes, whoever makes it: a press or a ``/game`` command
(:mod:`bot.presses`), a lobby opened, joined or started (:mod:`bot.lobby`),
``/game kick``, a turn clock or a computer player. A commit stores the
change (a versioned write: a stale version, from an old message or a double
click, is refused politely and changes nothing) and then publishes one
:class:`bot.events.TableCommitted` on the bus. What happens next — the table
message, DMs, pings, clocks, computer players — is done by followers
(:mod:`bot.followers`) that :mod:`bot.app` subscribes; this module imports
none of them, nor the lobby or the presses.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import secrets
import sqlite3
import time
from collections.abc import AsyncIterator, Callable, Sequence
from typing import Any

import discord

from bot import turns
from bot.events import (
    ABANDONED,
    FINISHED,
    REMOVED,
    REPAIRED,
    SAVED,
    Bus,
    TableCommitted,
    snapshot,
)
from bot.games import plugin
from bot.i18n import lang_of, t
from bot.model import is_cpu
from bot.results import build as results
from bot.storage import Store
from bot.tables.rows import Ledger, TableRow
from bot.ui import present
from bot.ui import secrets as hidden
from bot.ui.controls import Standing
from games import core, registry
from games.core import SeededSource, Source

log = logging.getLogger(__name__)

LOG_KEEP = 12  # public events kept with the table for the "last moves" lines
UNOPENED_AFTER = 10.0  # seconds after which a row never opened (version 0) is a leftover


class TableService:
    """Tables of one bot process. Time and randomness are injected."""

    def __init__(
        self,
        store: Store,
        *,
        clock: Callable[[], float] = time.time,
        seed_factory: Callable[[], str] | None = None,
        source_factory: Callable[[str], Source] = SeededSource,
        bus: Bus | None = None,
    ) -> None:
        self.store = store
        self.clock = clock
        self.seed_factory = seed_factory or (lambda: secrets.token_hex(16))
        self.source_factory = source_factory
        self.bus = bus or Bus()
        # a table's lock in this process and how many hold or wait for it:
        # dropped when none does (only the tables being pressed have one)
        self._locks: dict[int, tuple[asyncio.Lock, list[int]]] = {}
        # Bookkeeping noted after a commit — the version shown on a table's
        # message, keys of its UI state such as its turn ping's id — goes to
        # the store with the table's next save, or in one statement per
        # sweep (:meth:`flush`), not in a statement of its own per press.
        self._shown: dict[int, int] = {}
        self._notes: dict[int, dict[str, Any]] = {}
        self._results_shown: set[int] = set()  # finished games whose result is on screen
        self._ends_shown: set[int] = set()  # games ended without a result, on screen (table ids)
        self.unsaved = False  # the last flush could not write (said once)
        # what a player is to be told with their next press or command
        # anywhere (their DMs are closed): user id → texts
        self._told_later: dict[int, list[str]] = {}
        # the ephemeral hands of players whose DMs are closed (edited in place)
        self.ephemerals = hidden.Ephemerals(clock)
        store.before_let_go = self.flush_table

    @contextlib.asynccontextmanager
    async def lock(self, table_id: int, *, wait: float | None = None) -> AsyncIterator[None]:
        """The table to oneself: this process's lock, then the database's
        lock across processes (PostgreSQL; nothing on SQLite). Held around a
        press — load, apply, commit and the followers that draw it — so two
        processes never present one table out of order. ``wait``: how long
        another process may hold it (:class:`bot.db.core.TableBusy` past it;
        the sweeper's, so one hung process never stops every clock)."""
        entry = self._locks.get(table_id)
        if entry is None:
            entry = self._locks[table_id] = (asyncio.Lock(), [0])
        lock, users = entry
        users[0] += 1
        try:
            async with lock, self.store.tables.table_lock(table_id, wait=wait):
                yield
        finally:
            users[0] -= 1
            if not users[0] and self._locks.get(table_id) is entry:
                del self._locks[table_id]

    # ---------------------------------------------------------------- replies

    def tell_later(self, user_id: int, text: str) -> None:
        """Say ``text`` to ``user_id`` with their next press or command."""
        self._told_later.setdefault(user_id, []).append(text)

    async def tell_owed(self, interaction: discord.Interaction[Any]) -> None:
        """What the user is owed (:meth:`tell_later`), after their press or
        command was answered, only for them."""
        owed = self._told_later.pop(interaction.user.id, None)
        for n, text in enumerate(owed or []):
            try:
                await self.say(interaction, text)
            except discord.HTTPException:
                self._told_later.setdefault(interaction.user.id, []).extend(owed[n:])  # next time
                return

    async def reply(self, interaction: discord.Interaction[Any], key: str, **args: Any) -> None:
        """An ephemeral answer in the user's language."""
        await self.say(interaction, t(key, interaction.locale, **args))

    async def say(self, interaction: discord.Interaction[Any], text: str) -> None:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)

    async def server_options(self, guild_id: int | None, game: str) -> dict[str, Any]:
        """The server's default house options of ``game`` (``/config options``)."""
        if guild_id is None:
            return {}
        stored = await self.store.settings.guild_setting(guild_id, f"options.{game}")
        return dict(stored) if isinstance(stored, dict) else {}

    async def public_lang(self, interaction: discord.Interaction[Any]) -> str:
        """The language of public messages: the server's setting (``/config``),
        else the server's locale, else English."""
        guild = interaction.guild
        locale = guild.preferred_locale if guild is not None else interaction.guild_locale
        return await self.server_lang(interaction.guild_id, locale)

    async def server_lang(self, guild_id: int | None, locale: Any) -> str:
        """The language of a server's public messages: its setting, else
        ``locale`` (the server's)."""
        if guild_id is not None:
            chosen = await self.store.settings.guild_setting(guild_id, "lang")
            if chosen:
                return str(chosen)
        return lang_of(locale)

    # --------------------------------------------------------- what is shown

    def mark_shown(self, table_id: int, version: int) -> None:
        """The table message now shows ``version`` (the screen follower)."""
        if version > self._shown.get(table_id, -1):
            self._shown[table_id] = version

    def shown_version(self, row: TableRow) -> int:
        """The version on the table message, as far as this process knows."""
        return max(row.shown, self._shown.get(row.id, -1))

    def behind(self, row: TableRow) -> bool:
        """Whether the table message shows an older version than the row."""
        return self.shown_version(row) < row.version

    def mark_result_shown(self, result_id: int) -> None:
        """The table message shows the finished game's result now."""
        self._results_shown.add(result_id)

    def mark_end_shown(self, table_id: int) -> None:
        """The table message shows the game's end without a result now."""
        self._ends_shown.add(table_id)

    def end_behind(self, table_id: int) -> bool:
        """Whether a game ended without a result is not on screen, as far as
        this process knows."""
        return table_id not in self._ends_shown

    def note_ui(self, table_id: int, key: str, value: Any) -> None:
        """Keep ``key`` of the table's UI state (``None`` removes it), written
        with its next save or the next :meth:`flush`."""
        self._notes.setdefault(table_id, {})[key] = value

    def _ui_changes(self, before: TableRow, row: TableRow) -> dict[str, Any]:
        """The keys of the UI state this change wrote (``None``: removed) and
        the bookkeeping noted for it: written key by key, so another
        process's keys written meanwhile stay."""
        changed = {
            key: row.ui.get(key)
            for key in before.ui.keys() | row.ui.keys()
            if before.ui.get(key) != row.ui.get(key)
        }
        return changed | self._notes.get(row.id, {})

    def _apply_notes(self, row: TableRow) -> None:
        for key, value in self._notes.get(row.id, {}).items():
            if value is None:
                row.ui.pop(key, None)
            else:
                row.ui[key] = value

    async def flush(self) -> bool:
        """Write what was noted since the last flush (shown versions, UI keys);
        whether it was written. If the database cannot be written (a full
        disk), the notes stay here — this process knows what it showed, so
        the repair sweep does not redraw the same table again and again —
        and are written with the table's next save or a later flush."""
        shown, self._shown = self._shown, {}
        notes, self._notes = self._notes, {}
        ended, self._results_shown = self._results_shown, set()
        gone, self._ends_shown = self._ends_shown, set()
        try:
            await self._write_noted(shown, notes)
            await self.store.results.results_shown(sorted(ended))
            await self.store.tables.ends_shown(sorted(gone))
        except sqlite3.Error as err:
            self._results_shown |= ended
            self._ends_shown |= gone
            if not self.unsaved:
                log.warning("could not record what the table messages show (%s); kept until"
                            " the database can be written", err)  # fmt: skip
            self.unsaved = True
            return False
        self.unsaved = False
        return True

    async def flush_table(self, table_id: int) -> None:
        """Write what was noted of one table (its shown version, UI keys)
        now: the store lets go of its lock (PostgreSQL), and the process
        that takes it next loads the table with them. Kept for the next
        :meth:`flush` if the database cannot be written."""
        shown = self._shown.pop(table_id, None)
        notes = self._notes.pop(table_id, None)
        await self._write_noted(
            {} if shown is None else {table_id: shown}, {table_id: notes} if notes else {}
        )

    async def _write_noted(self, shown: dict[int, int], notes: dict[int, dict[str, Any]]) -> None:
        """Write noted shown versions and UI keys (taken out of the notes by
        the caller); what the database would not take is noted again (what
        was noted meanwhile wins) and the error raised."""
        try:
            await self.store.tables.set_shown(shown)
            shown = {}
            await self.store.tables.patch_ui(notes)
        except sqlite3.Error:
            for table_id, version in shown.items():
                self.mark_shown(table_id, version)
            for table_id, keys in notes.items():
                self._notes[table_id] = keys | self._notes.get(table_id, {})
            raise

    async def repair(
        self,
        before: TableRow,
        row: TableRow,
        *,
        origin: str = "repair",
        interaction: discord.Interaction[Any] | None = None,
    ) -> TableCommitted:
        """The screen is behind the database: announce the stored table again
        (nothing is written) so the followers redraw the table message and
        re-send the private messages owed."""
        state = None
        if row.state is not None:
            state = registry.engine(row.game).from_json(row.state)
        change = TableCommitted(
            before=before, after=row, state=state, events=[], kind=REPAIRED,
            origin=origin, interaction=interaction,
        )  # fmt: skip
        log.info("table %d: the screen was behind (v%d shown, v%d stored)", row.id,
                 self.shown_version(row), row.version)  # fmt: skip
        await self.bus.publish(change)
        return change

    def result_behind(self, result_id: int) -> bool:
        """Whether a finished game's result is not on screen, as far as this
        process knows (it may have shown it but not yet written so)."""
        return result_id not in self._results_shown

    async def repair_result(
        self,
        result_id: int,
        screen: dict[str, Any],
        *,
        origin: str = "repair",
        interaction: discord.Interaction[Any] | None = None,
    ) -> TableCommitted:
        """A finished game's result never reached the table message (the
        edit failed, or the process died after the commit): announce it
        again from what it is drawn from (nothing is written), so the table
        message shows the result and loses its controls, and the private
        messages show the game's end."""
        row = TableRow(**screen["row"])
        assert row.state is not None
        state = registry.engine(row.game).from_json(row.state)
        standings = [Standing(**s) for s in screen.get("standings", [])]
        change = TableCommitted(
            before=row, after=row, state=state, events=[], kind=REPAIRED, origin=origin,
            interaction=interaction, by=screen.get("by"), standings=standings,
            result_id=result_id,
        )  # fmt: skip
        log.info("table %d: the result (%d) was not on screen; shown again", row.id, result_id)
        await self.bus.publish(change)
        return change

    # ----------------------------------------------------------------- commit

    async def commit(
        self,
        before: TableRow,
        row: TableRow,
        *,
        origin: str,
        kind: str = SAVED,
        state: Any = None,
        events: Sequence[core.Event] = (),
        interaction: discord.Interaction[Any] | None = None,
        actor: str | None = None,
        by: int | None = None,
        rearm: bool = True,
    ) -> TableCommitted | None:
        """Store a change of ``row`` (loaded as ``before``) and announce it.

        ``state`` is the engine state after a move (its ``events``), or
        ``None`` when only the lobby or the UI state changed. A finished game
        stores its result, settlement and ratings and removes the table in
        one transaction; ``kind`` CANCELLED / EXPIRED / ABANDONED removes the
        table without a result. ``rearm=False`` keeps the turn clock (a
        UI-only change). Returns the published event, or ``None`` when the
        row was stale: nothing was written and the presser (if any) is told.
        """
        events = list(events)
        standings = []
        result_id = None
        now = self.clock()
        if kind == SAVED and state is not None:
            eng = registry.engine(row.game)
            the = plugin(row.game)
            if not eng.is_finished(state):  # what the bot plays for a person (Sixty-Six's draw)
                events += the.automatic(state, row.seats, row.ui)
            row.state = eng.to_json(state)
            the.after_move(events, row.ui)
            row.ui.setdefault("log", []).extend(e.to_json() for e in events if e.public)
            row.ui["log"] = present.kept_log(row, LOG_KEEP)  # a departure stays until seen
            if eng.is_finished(state):
                kind = FINISHED
                standings = the.standings(eng.settle(state), row.ui)
        ledger = Ledger(ledger_move(before, row, state, kind), origin, actor)
        try:
            if kind == FINISHED:
                result = await results.build(self.store, row, state, standings, now=now)
                # what the result message is drawn from, kept until it is shown
                screen = {
                    "row": dataclasses.asdict(row) | {"version": row.version + 1},
                    "standings": [dataclasses.asdict(s) for s in standings],
                    "by": by if origin == "command" else None,
                    "at": now,
                }
                result_id = await self.store.results.finish_table(
                    row, result, ledger=ledger, screen=screen
                )
                stored = result_id is not None
            elif kind in REMOVED:
                ended = None
                if kind == ABANDONED:  # its message shows the end (kept until it does)
                    ended = {"row": dataclasses.asdict(row) | {"version": row.version + 1},
                             "by": by, "at": now}  # fmt: skip
                stored = await self.store.tables.delete_table(row, ledger=ledger, now=now, screen=ended)
                if stored:
                    row.version += 1
            else:
                if rearm:
                    await self._arm(row, state, actor)
                row.cpu_due = None
                computers = any(is_cpu(s) for s in row.seats)
                if computers and row.phase == "playing" and row.state is not None:
                    live = state if state is not None else registry.engine(row.game).from_json(
                        row.state
                    )
                    if turns.next_cpu(row, live) is not None:
                        row.cpu_due = now  # moved by this process at once; claimed if overdue
                row.shown = self.shown_version(row)  # noted since the last write: goes along
                self._apply_notes(row)
                stored = await self.store.tables.save_table(
                    row, now=now, ledger=ledger, ui_patch=self._ui_changes(before, row)
                )
                if stored:
                    self._notes.pop(row.id, None)
                    if self._shown.get(row.id, -1) <= row.shown:
                        self._shown.pop(row.id, None)
        except sqlite3.Error as err:
            # a full disk, a read-only file: nothing was changed; say so
            log.warning("table %d: the database could not be written (%s)", row.id, err)
            if interaction is not None:
                await self.reply(interaction, "error.db_unavailable")
            return None
        if not stored:
            if interaction is not None:
                await self.reply(interaction, "error.stale")
            return None
        if kind in REMOVED:
            self._locks.pop(row.id, None)  # the table is gone; a late press finds no row
            self._notes.pop(row.id, None)
            log.info("table %d: %s %s", row.id, row.game, kind)
        elif before.phase == "lobby" and row.phase == "playing":
            log.info("table %d: %s started with %d players", row.id, row.game, len(row.seats))
        if state is None and row.state is not None:  # a start, a UI change, a removal
            state = registry.engine(row.game).from_json(row.state)
        if kind not in REMOVED and row.deadline != before.deadline:
            wake = turns.wake_time(row)
            if wake is not None and wake < now + turns.RECHECK:
                # sooner than other processes' sweepers would look: tell them
                await self.store.tables.announce_due(wake)
        committed = TableCommitted(
            before=before,
            after=row,
            state=state,
            events=events,
            kind=kind,
            origin=origin,
            interaction=interaction,
            actor=actor,
            by=by,
            standings=standings,
            result_id=result_id,
        )
        await self.bus.publish(committed)
        return committed

    async def _arm(self, row: TableRow, state: Any, actor: str | None) -> None:
        if row.phase == "playing" and state is None:
            assert row.state is not None
            state = registry.engine(row.game).from_json(row.state)
        seconds = 0
        if row.phase == "playing":
            seconds = await turns.table_seconds(self.store, row)
        seat = next((s for s in row.seats if s["name"] == actor), None)
        human = seat is not None and not is_cpu(seat)
        turns.arm(row, state, now=self.clock(), seconds=seconds, actor=actor, human=human)

    # ------------------------------------------------------------ leftovers

    async def drop_unopened(self, row: TableRow) -> bool:
        """Remove ``row`` if it is a lobby whose opening was never stored
        (version 0, made more than :data:`UNOPENED_AFTER` seconds ago: the
        database failed, or the process died, between making the row and
        opening it); nothing was shown or played there. Whether it went."""
        if row.version != 0 or row.created_at > self.clock() - UNOPENED_AFTER:
            return False
        try:
            gone = await self.store.tables.delete_table(row)
        except sqlite3.Error:
            return False
        if gone:
            log.info("table %d: a lobby that was never opened removed", row.id)
        return gone

    # ------------------------------------------------------------------- load

    async def load(self, table_id: int) -> tuple[TableRow, TableRow] | None:
        """The stored row and a snapshot of it as loaded (call under the lock)."""
        row = await self.store.tables.get_table(table_id)
        if row is None:
            return None
        self._apply_notes(row)
        return snapshot(row), row


def ledger_move(before: TableRow, row: TableRow, state: Any, kind: str) -> str:
    """What a commit did, for the moves ledger: the moves the engine recorded
    since ``before`` (in notation, ``; ``-separated; a move always names its
    player, so it has a space), else one word: ``start``, ``seats`` (a change
    of seats), the kind of removal, ``clock`` (only the deadline moved), or
    ``ui``."""
    if state is not None:
        done = len(before.state["history"]["moves"]) if before.state is not None else 0
        moves = state.history.moves[done:]
        if moves:
            return "; ".join(moves)
    if kind != SAVED:
        return kind
    if before.phase == "lobby" and row.phase == "playing":
        return "start"
    if before.seats != row.seats:
        return "seats"
    if before.deadline != row.deadline and before.ui == row.ui:
        return "clock"  # only the turn clock moved (a table nobody can reach)
    return "ui"


def ledger_moves(lines: Sequence[dict[str, Any]]) -> list[str]:
    """The moves in notation that ledger lines (:meth:`Store.ledger`) hold,
    in order: the lines of moves (with a space), not the one-word others."""
    return [m for line in lines if " " in line["move"] for m in line["move"].split("; ")]
