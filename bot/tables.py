"""The one path of every change to a table: load → check → apply → store → publish.

A press carries the table id and the row version its message was drawn from.
Under a per-table lock (one process) and the row version (any number of
processes), the service loads the table, checks that the user may act
(seated? their turn?), applies the move through the game's engine, and
commits it with :meth:`TableService.commit` — the one method through which
every change goes, whoever makes it: a press, a command (``/play``,
``/game leave``, ``/game end``), a turn clock or a computer player. A commit
stores the change (a versioned write: a stale version, from an old message
or a double click, is refused politely and changes nothing) and then
publishes one :class:`bot.events.TableCommitted` on the bus. What happens
next — the table message, DMs, pings, clocks, computer players — is done by
followers (:mod:`bot.followers`) that :mod:`bot.app` subscribes; this module
imports none of them.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import secrets
import sqlite3
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import discord

from bot import results, turns
from bot.events import (
    ABANDONED,
    CANCELLED,
    FINISHED,
    OPENED,
    REMOVED,
    REPAIRED,
    SAVED,
    Bus,
    TableCommitted,
    snapshot,
)
from bot.games import plugin
from bot.games.base import CONFIRMED, DISMISS
from bot.i18n import lang_of, linked, option_error, rule_error, t
from bot.model import (
    CPU_ADD,
    CPU_REMOVE,
    LEVELS,
    cpu_seat,
    human_seat,
    humans,
    is_cpu,
    is_manager,
    message_link,
    parse_options_text,
)
from bot.store import Ledger, Store, TableRow
from bot.ui import present
from bot.ui import secrets as hidden
from bot.ui.controls import Standing
from games import core, registry
from games.core import RuleError, SeededSource, Source

log = logging.getLogger(__name__)

LOG_KEEP = 12  # public events kept with the table for the "last moves" lines
MAX_ID = 2**63 - 1  # SQLite's largest integer
MEMBER_TTL = 300.0  # seconds a server membership, once checked, is trusted
UNOPENED_AFTER = 10.0  # seconds after which a row never opened (version 0) is a leftover


@dataclass
class Again:
    """A lobby that seats a finished game's players again (a rematch): its
    house options as the game had them, who sits at once (the presser, the
    computers), who is invited to press Join (``{"id", "display"}``), the
    host, and everyone's id in the old seat order."""

    result_id: int
    options: dict[str, Any]
    seats: list[dict[str, Any]]
    host_id: int
    invited: list[dict[str, Any]] = field(default_factory=list)
    order: list[int] = field(default_factory=list)


def invited(row: TableRow) -> list[dict[str, Any]]:
    """The people a rematch lobby still waits for (they press Join)."""
    return list(row.ui.get("rematch", {}).get("invited", []))


def _answer_invite(row: TableRow, user_id: int) -> bool:
    """``user_id`` joined or declined: no longer invited. Whether they were."""
    again = row.ui.get("rematch")
    if not again or not any(p["id"] == user_id for p in again["invited"]):
        return False
    again["invited"] = [p for p in again["invited"] if p["id"] != user_id]
    order = again.get("order", [])  # seats as they were in the game played
    row.seats.sort(key=lambda s: order.index(s["id"]) if s["id"] in order else len(order))
    return True


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
        self._locks: dict[int, asyncio.Lock] = {}
        # Bookkeeping noted after a commit — the version shown on a table's
        # message, keys of its UI state such as its turn ping's id — goes to
        # the store with the table's next save, or in one statement per
        # sweep (:meth:`flush`), not in a statement of its own per press.
        self._shown: dict[int, int] = {}
        self._notes: dict[int, dict[str, Any]] = {}
        self._results_shown: set[int] = set()  # finished games whose result is on screen
        self._members: dict[tuple[int, int], float] = {}  # (server, user) → known until
        self.unsaved = False  # the last flush could not write (said once)
        # what a player is to be told with their next press or command
        # anywhere (their DMs are closed): user id → texts
        self._told_later: dict[int, list[str]] = {}
        # the ephemeral hands of players whose DMs are closed (edited in place)
        self.ephemerals = hidden.Ephemerals(clock)
        # wraps every press (the operations endpoint times and counts them)
        self.around_press: Callable[[Awaitable[None]], Awaitable[None]] | None = None

    @contextlib.asynccontextmanager
    async def lock(self, table_id: int) -> AsyncIterator[None]:
        """The table to oneself: this process's lock, then the database's
        lock across processes (PostgreSQL; nothing on SQLite). Held around a
        press — load, apply, commit and the followers that draw it — so two
        processes never present one table out of order."""
        lock = self._locks.get(table_id)
        if lock is None:
            lock = self._locks[table_id] = asyncio.Lock()
        async with lock, self.store.table_lock(table_id):
            yield

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
        stored = await self.store.guild_setting(guild_id, f"options.{game}")
        return dict(stored) if isinstance(stored, dict) else {}

    async def public_lang(self, interaction: discord.Interaction[Any]) -> str:
        """The language of public messages: the server's setting (``/config``),
        else the server's locale, else English."""
        if interaction.guild_id is not None:
            chosen = await self.store.guild_setting(interaction.guild_id, "lang")
            if chosen:
                return str(chosen)
        guild = interaction.guild
        return lang_of(guild.preferred_locale if guild is not None else interaction.guild_locale)

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
        try:
            await self.store.set_shown(shown)
            shown = {}
            await self.store.patch_ui(notes)
            notes = {}
            await self.store.results_shown(sorted(ended))
        except sqlite3.Error as err:
            for table_id, version in shown.items():  # kept: noted meanwhile wins
                self.mark_shown(table_id, version)
            for table_id, keys in notes.items():
                self._notes[table_id] = keys | self._notes.get(table_id, {})
            self._results_shown |= ended
            if not self.unsaved:
                log.warning("could not record what the table messages show (%s); kept until"
                            " the database can be written", err)  # fmt: skip
            self.unsaved = True
            return False
        self.unsaved = False
        return True

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
                result_id = await self.store.finish_table(
                    row, result, ledger=ledger, screen=screen
                )
                stored = result_id is not None
            elif kind in REMOVED:
                stored = await self.store.delete_table(row, ledger=ledger, now=now)
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
                stored = await self.store.save_table(
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
                await self.store.announce_due(wake)
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
            seconds = await turns.turn_seconds(self.store, row.guild_id, row.game)
        seat = next((s for s in row.seats if s["name"] == actor), None)
        human = seat is not None and not is_cpu(seat)
        turns.arm(row, state, now=self.clock(), seconds=seconds, actor=actor, human=human)

    # ------------------------------------------------------------------ /play

    async def open_lobby(
        self,
        interaction: discord.Interaction[Any],
        game: str,
        options_text: str | None,
        *,
        again: Again | None = None,
    ) -> None:
        """``/play``: a new lobby in the interaction's channel, its host the
        user; ``again``: a rematch of a finished game (its options, seats,
        invitations and host instead)."""
        spec = registry.spec(game)
        try:
            if again is not None:
                options = core.parse_options(spec.options, again.options)
            else:
                raw = await self.server_options(interaction.guild_id, game)
                raw.update(parse_options_text(options_text))
                options = core.parse_options(spec.options, raw)
        except RuleError as err:
            name = t(f"game.{game}", interaction.locale)
            reason = option_error(err, spec.options, name, interaction.locale)
            await self.reply(interaction, "error.bad_options", reason=reason)
            return
        channel_id = interaction.channel_id
        assert channel_id is not None
        existing = await self.store.table_in_channel(channel_id)
        if existing is not None and await self.drop_unopened(existing):
            existing = None
        if existing is not None:
            await self._already_here(interaction, existing)
            return
        lang = await self.public_lang(interaction)
        row = await self.store.create_table(
            guild_id=interaction.guild_id,
            channel_id=channel_id,
            game=game,
            host_id=again.host_id if again else interaction.user.id,
            seats=again.seats if again else [human_seat(interaction.user, set(), interaction.locale)],
            options=options,
            now=self.clock(),
        )
        if row is None:  # another /play was faster
            existing = await self.store.table_in_channel(channel_id)
            if existing is not None:
                await self._already_here(interaction, existing)
            return
        before = snapshot(row)
        row.seed = self.seed_factory()
        row.ui = {"lang": lang, "log": []}
        if again is not None:
            row.ui["rematch"] = {"of": again.result_id, "invited": again.invited,
                                 "order": again.order}  # fmt: skip
        opened = await self.commit(
            before, row, origin="command", kind=OPENED, interaction=interaction
        )
        if opened is None:  # the database failed after the row was made: not half a lobby
            with contextlib.suppress(sqlite3.Error):
                await self.store.delete_table(row)  # still version 0: never opened

    async def drop_unopened(self, row: TableRow) -> bool:
        """Remove ``row`` if it is a lobby whose opening was never stored
        (version 0, made more than :data:`UNOPENED_AFTER` seconds ago: the
        database failed, or the process died, between making the row and
        opening it); nothing was shown or played there. Whether it went."""
        if row.version != 0 or row.created_at > self.clock() - UNOPENED_AFTER:
            return False
        try:
            gone = await self.store.delete_table(row)
        except sqlite3.Error:
            return False
        if gone:
            log.info("table %d: a lobby that was never opened removed", row.id)
        return gone

    async def _already_here(self, interaction: discord.Interaction[Any], row: TableRow) -> None:
        game = t(f"game.{row.game}", interaction.locale)
        url = message_link(row.guild_id, row.channel_id, row.message_id)
        link = linked("link.table", interaction.locale, url, game=game)
        await self.reply(interaction, "error.table_exists", game=game, link=link)

    # ------------------------------------------------------------------ press

    async def load(self, table_id: int) -> tuple[TableRow, TableRow] | None:
        """The stored row and a snapshot of it as loaded (call under the lock)."""
        row = await self.store.get_table(table_id)
        if row is None:
            return None
        self._apply_notes(row)
        return snapshot(row), row

    async def press(
        self,
        interaction: discord.Interaction[Any],
        table_id: int,
        version: int,
        action: str,
        values: list[str],
    ) -> None:
        """A button or select on a table message (or a private message)."""
        work = self._answered(self._press(interaction, table_id, version, action, values))
        if self.around_press is None:
            await work
        else:
            await self.around_press(work)
        if self._told_later:
            await self.tell_owed(interaction)

    async def _answered(self, press: Awaitable[None]) -> None:
        """A press whose own answer Discord refused (too late: 10062; a 5xx;
        a 429) — a refusal, "Show my hand", a question: nothing to repair
        (a committed move's followers answer for themselves)."""
        try:
            await press
        except discord.HTTPException as err:
            log.warning("an answer to a press failed (%s/%s)", err.status, err.code)

    async def _press(
        self,
        interaction: discord.Interaction[Any],
        table_id: int,
        version: int,
        action: str,
        values: list[str],
    ) -> None:
        if table_id > MAX_ID:  # a crafted custom id: no table has such an id
            await self.reply(interaction, "error.no_table")
            return
        async with self.lock(table_id):
            loaded = await self.load(table_id)
            if loaded is None:
                if not await self._result_behind(interaction, table_id):
                    await self.reply(interaction, "error.no_table")
                return
            before, row = loaded
            if not self._pressed_here(interaction, row):
                await self.reply(interaction, "error.no_table")
                return
            if interaction.guild_id is None and not await self._still_member(interaction, row):
                await self.reply(interaction, "error.not_in_game")
                return
            message = interaction.message
            if row.message_id is None and message is not None and _on_message(interaction, row):
                # the lobby was posted but its id never stored: adopt it
                row.message_id = message.id
                await self.store.set_message(row.id, message.id)
            if row.version != version:
                await self._stale(interaction, before, row, action)
                return
            if row.phase == "lobby":
                await self._lobby_action(interaction, before, row, action)
            else:
                await self._game_action(interaction, before, row, action, values)

    async def _result_behind(self, interaction: discord.Interaction[Any], table_id: int) -> bool:
        """A press on a finished game's table message that still shows the
        game (its end was never shown): it is redrawn with the result, as
        the answer. Whether it was."""
        if interaction.guild_id is None or interaction.message is None:
            return False
        for result_id, screen in (await self.store.unshown_results(self.clock())).items():
            row = screen.get("row") or {}
            if row.get("id") == table_id and self.result_behind(result_id):
                if (row.get("channel_id"), row.get("message_id")) == (
                    interaction.channel_id,
                    interaction.message.id,
                ):
                    await self.repair_result(result_id, screen, origin="press",
                                             interaction=interaction)  # fmt: skip
                    return True
        return False

    def _pressed_here(self, interaction: discord.Interaction[Any], row: TableRow) -> bool:
        """A press belongs to its table: on the table's channel, or (private
        controls) in a DM of a seated player. A crafted payload naming
        another channel's or server's table is refused."""
        if interaction.guild_id is None:
            return row.phase == "playing" and row.seat_of(interaction.user.id) is not None
        return interaction.channel_id == row.channel_id and interaction.guild_id == row.guild_id

    async def _still_member(self, interaction: discord.Interaction[Any], row: TableRow) -> bool:
        """A press from a DM: is the player still a member of the table's
        server? (Asked of Discord, remembered for a few minutes.)"""
        key = (row.guild_id or 0, interaction.user.id)
        if self._members.get(key, 0.0) > self.clock():
            return True
        guild = interaction.client.get_guild(row.guild_id) if row.guild_id else None
        try:
            if guild is not None:
                await guild.fetch_member(interaction.user.id)
            else:
                await interaction.client.http.get_member(row.guild_id or 0, interaction.user.id)
        except discord.NotFound:
            self._members.pop(key, None)
            return False
        except discord.HTTPException:
            return True  # Discord could not say: do not lock a player out
        self._members[key] = self.clock() + MEMBER_TTL
        return True

    async def _stale(
        self, interaction: discord.Interaction[Any], before: TableRow, row: TableRow, action: str
    ) -> None:
        """A press from an older version of a message. If the table message
        itself is behind the database, it is redrawn at once (the presser is
        told); otherwise the press was a double click or an old window."""
        if self.behind(row) and _on_message(interaction, row):
            await self.repair(before, row, origin="press", interaction=interaction)
            return
        spec = registry.spec(row.game)
        if row.phase == "lobby" and action == "join" and len(row.seats) >= spec.max_players:
            await self.reply(interaction, "lobby.full", max=spec.max_players)  # the last seat went
            return
        await self.reply(interaction, "error.stale")

    async def _lobby_action(
        self, interaction: discord.Interaction[Any], before: TableRow, row: TableRow, action: str
    ) -> None:
        user = interaction.user
        spec = registry.spec(row.game)
        seated = row.seat_of(user.id)
        if action == "join":
            if seated:
                await self.reply(interaction, "lobby.already_in")
                return
            if len(row.seats) >= spec.max_players:
                await self.reply(interaction, "lobby.full", max=spec.max_players)
                return
            waiting = invited(row)
            if not any(p["id"] == user.id for p in waiting):
                if len(row.seats) + len(waiting) >= spec.max_players:  # held for a rematch
                    await self.reply(interaction, "error.seats_held")
                    return
            row.seats.append(human_seat(user, {s["name"] for s in row.seats}, interaction.locale))
            _answer_invite(row, user.id)
        elif action == "leave":
            if not seated:
                if _answer_invite(row, user.id):  # an invitation declined
                    await self.commit(before, row, origin="press", interaction=interaction)
                    return
                await self.reply(interaction, "error.not_in_game")
                return
            await self._leave_lobby(interaction, before, row, seated)
            return
        elif action.startswith(CPU_ADD):  # add or remove a computer player
            if not await self._cpu_seat(interaction, row, action):
                return
        elif action in ("start", "cancel"):
            if user.id != row.host_id and not is_manager(interaction):
                await self.reply(interaction, "lobby.host_only")
                return
            if action == "cancel":
                await self.commit(
                    before, row, origin="press", kind=CANCELLED, interaction=interaction, by=user.id
                )
                return
            if not await self._start(interaction, row):
                return
        else:
            await self.reply(interaction, "error.unknown_action")
            return
        # who pressed Start: the first player, when someone else, is pinged
        actor = seated["name"] if seated else None
        await self.commit(
            before, row, origin="press", state=None, interaction=interaction, actor=actor
        )

    async def _start(self, interaction: discord.Interaction[Any], row: TableRow) -> bool:
        """Deal the game of a lobby (Start, ``/play vs:``): ``True`` = the
        row now holds the first state; ``False`` = refused (answered)."""
        spec = registry.spec(row.game)
        if len(row.seats) < spec.min_players:
            await self.reply(interaction, "lobby.too_few", min=spec.min_players)
            return False
        try:
            assert row.seed is not None
            source = self.source_factory(row.seed)
            names = [s["name"] for s in row.seats]
            state = spec.engine.new_game(names, row.options, None, source)
        except RuleError as err:
            await self.say(interaction, rule_error(err, interaction.locale))
            return False
        row.phase = "playing"
        row.state = spec.engine.to_json(state)
        row.ui.setdefault("log", []).append(
            {"kind": "start", "player": state.history.dealer, "data": {}}
        )
        return True

    async def play_computer(
        self, interaction: discord.Interaction[Any], game: str, options_text: str | None, level: str
    ) -> None:
        """``/play vs:computer``: a table with the user and computer players
        at ``level`` (as many as the game needs, at least one), started at
        once — the lobby is posted, then dealt, as if the host had pressed
        Add computer and Start."""
        spec = registry.spec(game)
        if spec.ai is None or level not in LEVELS:
            await self.reply(interaction, "error.unknown_action")
            return
        channel_id = interaction.channel_id
        assert channel_id is not None
        await self.open_lobby(interaction, game, options_text)
        row = await self.store.table_in_channel(channel_id)
        if row is None or row.phase != "lobby" or row.host_id != interaction.user.id:
            return  # refused (bad options, a table already here): answered
        async with self.lock(row.id):
            loaded = await self.load(row.id)
            if loaded is None:
                return
            before, row = loaded
            if row.phase != "lobby" or len(row.seats) != 1:
                return  # someone joined or started it in between: theirs now
            while len(row.seats) < max(2, spec.min_players):
                row.seats.append(cpu_seat(row, level, row.ui.get("lang", "en")))
            if not await self._start(interaction, row):
                return
            actor = row.seats[0]["name"]
            await self.commit(before, row, origin="command", interaction=interaction, actor=actor)

    async def _leave_lobby(
        self,
        interaction: discord.Interaction[Any],
        before: TableRow,
        row: TableRow,
        seat: dict[str, Any],
    ) -> None:
        user_id = interaction.user.id
        origin = "press" if interaction.type is discord.InteractionType.component else "command"
        row.seats.remove(seat)
        if not humans(row.seats):
            await self.commit(
                before, row, origin=origin, kind=CANCELLED, interaction=interaction, by=user_id
            )
            return
        if row.host_id == user_id:
            row.host_id = humans(row.seats)[0]["id"]
        await self.commit(before, row, origin=origin, interaction=interaction)

    async def _cpu_seat(
        self, interaction: discord.Interaction[Any], row: TableRow, action: str
    ) -> bool:
        """Add or remove a computer player (host only). ``True`` = the row
        changed and is to be saved; ``False`` = refused (already answered)."""
        spec = registry.spec(row.game)
        if interaction.user.id != row.host_id and not is_manager(interaction):
            await self.reply(interaction, "lobby.host_only")
            return False
        if action == CPU_REMOVE:
            bots = [s for s in row.seats if is_cpu(s)]
            if not bots:
                await self.reply(interaction, "cpu.none")
                return False
            row.seats.remove(bots[-1])
            return True
        level = action[len(CPU_ADD) :]
        if level not in LEVELS or spec.ai is None:
            await self.reply(interaction, "error.unknown_action")
            return False
        if len(row.seats) >= spec.max_players:
            await self.reply(interaction, "lobby.full", max=spec.max_players)
            return False
        row.seats.append(cpu_seat(row, level, row.ui.get("lang", "en")))
        return True

    async def _game_action(
        self,
        interaction: discord.Interaction[Any],
        before: TableRow,
        row: TableRow,
        action: str,
        values: list[str],
    ) -> None:
        if action == "show":  # "Show my hand/dice": private content, ephemerally
            await hidden.show(interaction, row, self.ephemerals)
            return
        if action == DISMISS:  # "no" to a question (Cancel): nothing changes
            await hidden.dismiss(interaction)
            return
        seat = row.seat_of(interaction.user.id)
        if seat is None:
            await self.reply(interaction, "error.not_in_game")
            return
        assert row.state is not None
        eng = registry.engine(row.game)
        state = eng.from_json(row.state)
        name = seat["name"]
        legal = eng.legal_moves(state, name)
        if not legal:
            await self.reply(interaction, "error.not_your_turn")
            return
        the = plugin(row.game)
        mapped = the.action_move(action)  # a game's own action that plays a move
        confirmed = action.startswith(CONFIRMED)  # "yes" to the game's question
        if mapped is not None:
            move = mapped
        elif confirmed:
            move = action[len(CONFIRMED) :]
        elif action.startswith("m:"):
            move = action[2:]
        elif (action == "m" or action.startswith("m.")) and values:  # a select
            move = values[0]
        else:
            new_ui = the.ui_action(action, eng.view(state, name), name, row.ui)
            if new_ui is None:
                await self.reply(interaction, "error.unknown_action")
                return
            row.ui = new_ui
            await self.commit(before, row, origin="press", interaction=interaction, rearm=False)
            return
        lang = lang_of(interaction.locale)
        question = None if confirmed else the.confirm(state, name, move, lang)
        if question is not None:  # asked of the player alone; nothing changes yet
            await hidden.ask(interaction, row, *question)
            return
        try:
            events = eng.apply(state, name, move)
            # what follows a move in the same commit (Bluff: a Roll looks under the cup)
            events += the.after_apply(state, name, move, action)
        except RuleError as err:
            await self.say(interaction, rule_error(err, interaction.locale))
            return
        if confirmed:  # the question keeps its words, loses its buttons
            try:
                await hidden.answered(interaction)
            except discord.HTTPException as err:  # the move stands all the same
                log.warning("table %d: the question's answer failed (%s/%s)", row.id,
                            err.status, err.code)  # fmt: skip
        await self.commit(
            before, row, origin="press", state=state, events=events,
            interaction=interaction, actor=name,
        )  # fmt: skip

    # --------------------------------------------------------- /game commands

    async def _channel_table(self, interaction: discord.Interaction[Any]) -> TableRow | None:
        assert interaction.channel_id is not None
        row = await self.store.table_in_channel(interaction.channel_id)
        if row is None:
            await self.reply(interaction, "error.no_table_here")
        return row

    async def status(self, interaction: discord.Interaction[Any]) -> None:
        row = await self._channel_table(interaction)
        if row is None:
            return
        loc = interaction.locale
        sep = t("list.sep", loc)
        players = sep.join(s["display"] for s in row.seats)
        game = t(f"game.{row.game}", loc)
        url = message_link(row.guild_id, row.channel_id, row.message_id)
        link = linked("link.table", loc, url, game=game)
        # the fair-dice line as the table shows it (the same short hash)
        seed = ["\n" + present.seed_line(row, lang_of(loc))] if row.seed else []
        if row.phase == "lobby":
            text = t("status.lobby", loc, game=game, players=players, link=link)
            await self.say(interaction, "".join([text, *seed]))
            return
        assert row.state is not None
        eng = registry.engine(row.game)
        shown = {s["name"]: s.get("display") or s["name"] for s in row.seats}
        movers = sep.join(shown.get(m, m) for m in eng.to_move(eng.from_json(row.state)))
        text = t("status.playing", loc, game=game, players=players, turn=movers, link=link)
        # the whole history the table keeps (the table message shows the last few)
        history = present.log_lines(row, lang_of(loc), limit=None)
        if history:
            seed += ["\n" + t("status.history", loc), *("\n" + line for line in history)]
        await self.say(interaction, "".join([text, *seed]))

    async def _locked_channel_table(
        self, interaction: discord.Interaction[Any], row: TableRow
    ) -> tuple[TableRow, TableRow] | None:
        loaded = await self.load(row.id)
        if loaded is None:
            await self.reply(interaction, "error.no_table_here")
        return loaded

    async def leave(self, interaction: discord.Interaction[Any]) -> None:
        row = await self._channel_table(interaction)
        if row is None:
            return
        async with self.lock(row.id):
            loaded = await self._locked_channel_table(interaction, row)
            if loaded is None:
                return
            before, row = loaded
            seat = row.seat_of(interaction.user.id)
            if seat is None:
                await self.reply(interaction, "error.not_in_game")
                return
            if row.phase == "lobby":
                await self._leave_lobby(interaction, before, row, seat)
                return
            assert row.state is not None
            eng = registry.engine(row.game)
            state = eng.from_json(row.state)
            try:
                events = eng.forfeit(state, seat["name"])
            except RuleError as err:
                await self.say(interaction, rule_error(err, interaction.locale))
                return
            if row.host_id == seat["id"]:
                # who left is no longer the host: the next seated person is
                # (or, with none, the server's managers alone)
                others = [s for s in humans(row.seats) if s["id"] != seat["id"]]
                row.host_id = others[0]["id"] if others else 0
            await self.commit(
                before, row, origin="command", state=state, events=events, interaction=interaction
            )

    async def end(self, interaction: discord.Interaction[Any]) -> None:
        """``/game end``. A lobby: the host (or Manage Server) closes it. A
        running game ends with a result only when every person still playing
        agrees — each runs ``/game end`` within :data:`present.END_WINDOW`
        — and the last agreement ends it, settled and rated as usual; the
        host (or Manage Server) alone ends it at once as **no contest**: the
        standings as they stood are shown, nobody wins, nothing is settled
        and no rating changes. A player who is neither only agrees."""
        row = await self._channel_table(interaction)
        if row is None:
            return
        user_id = interaction.user.id
        may_end = user_id == row.host_id or is_manager(interaction)
        if not may_end and (row.phase == "lobby" or row.seat_of(user_id) is None):
            await self.reply(interaction, "error.end_not_allowed")
            return
        async with self.lock(row.id):
            loaded = await self._locked_channel_table(interaction, row)
            if loaded is None:
                return
            before, row = loaded
            if row.phase != "lobby":
                assert row.state is not None
                agreed = await self._agree_to_end(interaction, before, row, may_end=may_end)
                if agreed is None:
                    return  # an agreement noted (or refused); the game goes on
                if not agreed:
                    row.ui[present.ENDED] = present.NO_CONTEST
            if row.phase == "lobby":
                await self.commit(
                    before,
                    row,
                    origin="command",
                    kind=CANCELLED,
                    interaction=interaction,
                    by=user_id,
                )
                return
            assert row.state is not None
            eng = registry.engine(row.game)
            state = eng.from_json(row.state)
            early = core.ends_early(eng)  # a settlement "as it stands" (Six Dice)
            if early is not None:
                events = early.end_game(state)
                await self.commit(
                    before, row, origin="command", state=state, events=events,
                    interaction=interaction, by=user_id,
                )  # fmt: skip
                return
            # No settlement "as it stands" in this game's rules: the game is
            # abandoned without a result; the seed is revealed all the same.
            await self.commit(
                before, row, origin="command", kind=ABANDONED, interaction=interaction, by=user_id
            )

    async def _agree_to_end(
        self,
        interaction: discord.Interaction[Any],
        before: TableRow,
        row: TableRow,
        *,
        may_end: bool,
    ) -> bool | None:
        """``/game end`` of a running game: the caller's agreement. ``True``:
        everyone still playing agrees (end it with a result); ``False``: the
        host or a manager ends it without everyone (no contest); ``None``:
        the agreement was noted and the game goes on (the caller is told)."""
        assert row.state is not None
        eng = registry.engine(row.game)
        view = eng.view(eng.from_json(row.state), None)
        people = present.must_agree(row, view)
        now = self.clock()
        votes = present.standing_votes(row, now)
        user_id = interaction.user.id
        if any(s["id"] == user_id for s in people):
            votes[str(user_id)] = now
        elif not may_end:  # seated, but no longer playing (they left)
            await self.reply(interaction, "error.end_not_allowed")
            return None
        if all(str(s["id"]) in votes for s in people):
            row.ui[present.ENDED] = present.AGREED
            return True
        if may_end:
            return False
        row.ui[present.END_VOTES] = votes  # on the table while they stand
        agreed = sum(1 for s in people if str(s["id"]) in votes)
        await self.reply(interaction, "end.agreed", n=agreed, m=len(people))
        await self.commit(before, row, origin="command", interaction=interaction, rearm=False)
        return None


def _on_message(interaction: discord.Interaction[Any], row: TableRow) -> bool:
    """Whether the press came from the table message (not a DM)."""
    message = interaction.message
    return (
        interaction.type is discord.InteractionType.component
        and message is not None
        and interaction.guild_id is not None
        and interaction.channel_id == row.channel_id
        and (row.message_id is None or message.id == row.message_id)
    )


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
