"""The live tables' storage: their rows (every write a versioned
read-modify-write, ``UPDATE … WHERE id = ? AND version = ?``, so a stale or
duplicate press, or a second process, never overwrites a newer state), the
moves ledger written in the same transaction, the table locks and the
claims of due clocks across processes, what each table message shows, and
the games ended without a result still to be shown. The one write path
above it is :class:`bot.tables.service.TableService`."""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any

from bot import caches
from bot.db.core import PROCESS, Conn, Database, dumps
from bot.tables.kept import KeptRows
from bot.tables.rows import TABLE_COLS, Ledger, TableRow, decode

log = logging.getLogger("bot.store")

_COLUMN = {name: i for i, name in enumerate(TABLE_COLS.split(", "))}  # places in a row as read
_SHOWN, _UI, _MESSAGE = _COLUMN["shown"], _COLUMN["ui"], _COLUMN["message_id"]
# tables whose state JSON a repository keeps parsed (TablesRepo._states): ~25 KB
# each at most (a Yahtzee state's text and its parse; docs/operations.md, "Memory")
STATES_KEPT = 256

# the moves ledger's row (written by :meth:`Database.update_then_insert`)
LEDGER_INTO = "moves (table_id, version, actor, move, origin, process, at)"
# the channel on which processes tell each other of new due times
DUE_CHANNEL = "chabudai_due"
# meta key prefixes of a game ended without a result (+ its table's id): its
# seed and game, kept to be checked (the 🔑 Seed button of its message), and
# what its message is drawn from, kept until it is shown
ENDED_SEED = "ended_seed."
ENDED_UNSHOWN = "ended_unshown."

#: what ``copy-db`` moves of this concern (:mod:`bot.db.copy`)
COPIED = {
    "tables": (
        tuple(TABLE_COLS.split(", ")),
        "id",
        frozenset({"seats", "options", "state", "ui", "clock"}),
    ),
    "moves": (
        ("table_id", "version", "actor", "move", "origin", "process", "at"),
        "table_id, version",
        frozenset(),
    ),
}


class TablesRepo:
    """The ``tables`` and ``moves`` tables (and the ``meta`` notes of games
    ended without a result)."""

    def __init__(self, db: Database) -> None:
        self.db = db
        # a table's state JSON as last written or read here, and parsed
        # (never changed in place, only replaced): a load of the same text
        # shares it instead of parsing it again (a Yahtzee state: ~2.5 KB)
        self._states: dict[int, tuple[str, Any]] = {}
        # the rows kept under the table locks (bot.tables.kept)
        self.kept = KeptRows(db)
        caches.budget("tables.states", STATES_KEPT, "entries", lambda: (len(self._states), 0))

    def forget_all(self) -> None:
        """The store closes: nothing kept is trusted again."""
        self.kept.forget_all()

    async def create_table(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        game: str,
        host_id: int,
        seats: list[dict[str, Any]],
        options: dict[str, Any],
        now: float,
    ) -> TableRow | None:
        """A new lobby; ``None`` if the channel already has a table."""
        async with self.db.writing() as c:
            r = await c.fetchone(
                "INSERT INTO tables (guild_id, channel_id, game, phase, host_id, seats, options,"
                " version, created_at, updated_at) VALUES (?, ?, ?, 'lobby', ?, ?, ?, 0, ?, ?)"
                " ON CONFLICT (channel_id) DO NOTHING RETURNING id",
                (guild_id, channel_id, game, host_id, dumps(seats), dumps(options), now, now),
            )
        if r is None:
            return None
        return await self.get_table(r[0])

    async def _tables(self, where: str, args: Sequence[Any] = ()) -> list[TableRow]:
        async with self.db.reading() as c:
            rows = await c.fetch(f"SELECT {TABLE_COLS} FROM tables {where}", args)
        return [self._decoded(r) for r in rows]

    def _decoded(self, r: Sequence[Any]) -> TableRow:
        text = r[9]
        known = self._states.get(r[0])
        if text is not None and known is not None and known[0] == text:
            return decode(r, known[1])
        row = decode(r)
        if text is not None:
            self._keep_state(row.id, text, row.state)
        return row

    def _keep_state(self, table_id: int, text: str, doc: Any) -> None:
        if len(self._states) >= STATES_KEPT and table_id not in self._states:
            self._states.clear()  # a table not played for a while parses its state again
        self._states[table_id] = (text, doc)

    async def get_table(self, table_id: int) -> TableRow | None:
        token = self.db.lock_token(table_id)
        if token is not None:
            kept = self.kept.rows.get(table_id)
            if kept is not None and kept[0] is token:
                return self._decoded(kept[1])
        forgotten = self.kept.forgotten
        async with self.db.reading() as c:
            found = await c.fetch(f"SELECT {TABLE_COLS} FROM tables WHERE id = ?", (table_id,))
        if not found:
            return None
        # held all along, and nothing of this process wrote meanwhile
        if (
            token is not None
            and self.db.lock_token(table_id) is token
            and self.kept.untouched(table_id, forgotten)
        ):
            self.kept.rows[table_id] = (token, tuple(found[0]))
        return self._decoded(found[0])

    async def table_in_channel(self, channel_id: int) -> TableRow | None:
        rows = await self._tables("WHERE channel_id = ?", (channel_id,))
        return rows[0] if rows else None

    async def live_tables(self) -> list[TableRow]:
        return await self._tables("ORDER BY id")

    async def guild_tables(self, guild_id: int) -> list[TableRow]:
        """The live tables of one server, oldest first (``/game list``)."""
        return await self._tables("WHERE guild_id = ? ORDER BY created_at, id", (guild_id,))

    async def open_counts(self, guild_id: int, host_id: int) -> tuple[int, int]:
        """How many tables a server has open (lobbies and games), and how
        many of its lobbies ``host_id`` hosts (the limits of ``/play``)."""
        async with self.db.reading() as c:
            rows = await c.fetch(
                "SELECT COUNT(*), COALESCE(SUM(CASE WHEN phase = 'lobby' AND host_id = ?"
                " THEN 1 ELSE 0 END), 0) FROM tables WHERE guild_id = ?",
                (host_id, guild_id),
            )
        return int(rows[0][0]), int(rows[0][1])

    async def table_counts(self) -> dict[str, int]:
        """How many tables there are per phase (/metrics), without loading them."""
        async with self.db.reading() as c:
            rows = await c.fetch("SELECT phase, COUNT(*) FROM tables GROUP BY phase")
        return {str(phase): int(n) for phase, n in rows}

    async def set_message(self, table_id: int, message_id: int) -> None:
        """Where the table message is (not a game change: no version bump)."""
        kept = self.kept.forget((table_id,))
        async with self.db.writing() as c:
            await c.execute("UPDATE tables SET message_id = ? WHERE id = ?", (message_id, table_id))

        def written(_table_id: int, columns: list[Any]) -> None:
            columns[_MESSAGE] = message_id

        self.kept.amend(kept, written)

    async def save_table(
        self,
        row: TableRow,
        *,
        now: float,
        ledger: Ledger | None = None,
        ui_patch: dict[str, Any] | None = None,
    ) -> bool:
        """Write ``row`` if the stored version is still ``row.version``; on
        success ``row.version`` is incremented. ``False`` = someone was first.
        ``row.shown`` (what is on screen) is written along, never backwards.
        With ``ledger``, the change's ledger line is written in the same
        transaction. With ``ui_patch`` only those keys of the UI state are
        written (``None`` removes one), never the whole of it: another
        process's bookkeeping in other keys stays."""
        if ui_patch is None:
            ui_sql, ui_args = "?", (dumps(row.ui),)
        else:
            ui_sql, ui_args = self.db.json_patch("ui", ui_patch)
        state = None
        if row.state is not None:
            known = self._states.get(row.id)  # the state as loaded (a UI change, a lobby)
            state = known[0] if known is not None and known[1] is row.state else dumps(row.state)
        seats, options = dumps(row.seats), dumps(row.options)
        sql = (
            "UPDATE tables SET phase = ?, host_id = ?, seats = ?, options = ?, state = ?,"
            f" ui = {ui_sql}, seed = ?, deadline = ?, clock = ?, cpu_due = ?,"
            " shown = CASE WHEN shown > ? THEN shown ELSE ? END, version = version + 1,"
            " updated_at = ? WHERE id = ? AND version = ?"
        )
        args = (
            row.phase,
            row.host_id,
            seats,
            options,
            state,
            *ui_args,
            row.seed,
            row.deadline,
            dumps(row.clock),
            row.cpu_due,
            row.shown,
            row.shown,
            now,
            row.id,
            row.version,
        )
        token = self.db.lock_token(row.id)
        kept = self.kept.rows.pop(row.id, None)  # (a failed write: loaded anew)
        forgotten = self.kept.forgotten
        self.kept.saving[row.id] = self.kept.saving.get(row.id, 0) + 1
        n = -1  # (unknown: the write failed)
        try:
            if ledger is None:
                async with self.db.writing() as c:
                    n = await c.execute(sql, args)
            else:
                n = await self.db.update_then_insert(
                    sql,
                    args,
                    into=LEDGER_INTO,
                    returning="id, version",
                    key=(row.id, row.version + 1),
                    values=(ledger.actor, ledger.move, ledger.origin, PROCESS, now),
                )
        finally:
            if self.kept.saving[row.id] > 1:
                self.kept.saving[row.id] -= 1
            else:
                del self.kept.saving[row.id]
            if n != 0 and not (
                token is not None
                and self.db.lock_token(row.id) is token
                and self.kept.untouched(row.id, forgotten)
            ):
                # saved (or not known) and not kept below: no row kept of
                # this table before the save may be kept again (a write
                # outside a save under way amends only what it forgot)
                self.kept.forget((row.id,))
        if n == 1:
            row.version += 1
            if state is not None:
                self._keep_state(row.id, state, row.state)
            if (
                token is not None
                and self.db.lock_token(row.id) is token
                and self.kept.untouched(row.id, forgotten)  # (another write of it meanwhile)
            ):
                # the row as stored now: its UI state is the loaded one with
                # this change's keys, that is ``row.ui``; ``shown`` never back
                shown = max(row.shown, kept[1][_SHOWN] if kept is not None else -1)
                self.kept.rows[row.id] = (token, (  # in TABLE_COLS' order
                    row.id, row.guild_id, row.channel_id, row.message_id, row.game, row.phase,
                    row.host_id, seats, options, state, dumps(row.ui), row.seed,
                    row.version, row.deadline, row.created_at, now, dumps(row.clock),
                    shown, row.cpu_due,
                ))  # fmt: skip
        return n == 1

    async def _write_ledger(
        self, tx: Conn, table_id: int, version: int, ledger: Ledger, now: float
    ) -> None:
        await tx.execute(
            f"INSERT INTO {LEDGER_INTO} VALUES (?, ?, ?, ?, ?, ?, ?)",
            (table_id, version, ledger.actor, ledger.move, ledger.origin, PROCESS, now),
        )

    async def ledger(self, table_id: int | None = None) -> list[dict[str, Any]]:
        """The moves ledger (of one table, or all), in order."""
        sql = "SELECT table_id, version, actor, move, origin, process, at FROM moves"
        args: tuple[Any, ...] = ()
        if table_id is not None:
            sql += " WHERE table_id = ?"
            args = (table_id,)
        async with self.db.reading() as c:
            rows = await c.fetch(sql + " ORDER BY table_id, version", args)
        keys = ("table_id", "version", "actor", "move", "origin", "process", "at")
        return [dict(zip(keys, r, strict=True)) for r in rows]

    def table_lock(
        self, table_id: int, *, wait: float | None = None
    ) -> AbstractAsyncContextManager[None]:
        """The table held across processes (:meth:`Database.table_lock`)."""
        return self.db.table_lock(table_id, wait=wait)

    def let_go_idle_locks(self) -> None:
        """Table locks kept after use past their time let go (PostgreSQL;
        the sweeper calls it every second)."""
        self.db.let_go_idle_locks()

    async def claim_due(
        self, *, until: float, cpu_until: float, now: float, owner: str, lease: float
    ) -> list[int]:
        """Claim, for ``lease`` seconds, the tables whose turn clock is due by
        ``now`` — by ``until`` while its warning is owed (a game in play
        whose clock has not warned yet; a warned one waits for its deadline,
        not claimed, loaded and let go every sweep till then) — or whose
        computer's turn is overdue (due by ``cpu_until``), and which nobody
        holds a live lease on; their ids, earliest first. Two sweepers never
        claim one table at once (PostgreSQL: ``FOR UPDATE SKIP LOCKED``;
        SQLite: one writer), and the versioned write stays the final guard."""
        async with self.db.writing() as c:
            rows = await c.fetch(
                "UPDATE tables SET lease_owner = ?, lease_until = ? WHERE id IN ("
                " SELECT id FROM tables WHERE ((deadline IS NOT NULL AND (deadline <= ?"
                f" OR (deadline <= ? AND phase = 'playing' AND {self.db.json_unset('clock', 'warned')})))"
                " OR (cpu_due IS NOT NULL AND cpu_due <= ?))"
                " AND (lease_until IS NULL OR lease_until <= ?)"
                " ORDER BY deadline LIMIT 200" + self.db.skip_locked + ") RETURNING id, deadline",
                (owner, now + lease, now, until, cpu_until, now),
            )
        rows.sort(key=lambda r: (r[1] is None, r[1] or 0.0, r[0]))
        return [int(r[0]) for r in rows]

    async def release(self, table_id: int, owner: str) -> None:
        """Give up the lease on ``table_id`` (its due work is done)."""
        async with self.db.writing() as c:
            await c.execute(
                "UPDATE tables SET lease_owner = NULL, lease_until = NULL"
                " WHERE id = ? AND lease_owner = ?",
                (table_id, owner),
            )

    async def announce_due(self, when: float) -> None:
        """Tell the other processes that something is due at ``when`` (a new
        deadline or computer turn): PostgreSQL ``NOTIFY``; SQLite has no
        other processes to tell."""
        await self.db.notify(DUE_CHANNEL, repr(float(when)))

    async def listen_due(
        self, callback: Callable[[float], None], *, missed: Callable[[], None] | None = None
    ) -> None:
        """Call ``callback(when)`` for every :meth:`announce_due` of any
        process (PostgreSQL ``LISTEN``); nothing on SQLite. ``missed()``: the
        notices come again after a lost connection (some were missed)."""

        def heard(payload: str) -> None:
            try:
                callback(float(payload))
            except ValueError:
                log.warning("a due notice that is no time: %r", payload)

        await self.db.listen(DUE_CHANNEL, heard, missed=missed)

    async def set_shown(self, shown: dict[int, int]) -> None:
        """Record the versions now shown on table messages (``table id →
        version``), in one statement; never moves a table's ``shown`` back."""
        if not shown:
            return
        kept = self.kept.forget(shown)
        async with self.db.writing() as c:
            await c.executemany(
                "UPDATE tables SET shown = ? WHERE id = ? AND shown < ?",
                [(version, table_id, version) for table_id, version in shown.items()],
            )

        def written(table_id: int, columns: list[Any]) -> None:
            columns[_SHOWN] = max(columns[_SHOWN], shown[table_id])

        self.kept.amend(kept, written)

    async def behind_tables(self, changed_before: float) -> list[TableRow]:
        """Tables whose message shows an older version than the stored one,
        last changed at or before ``changed_before`` (the repair sweep), by
        id. Read through the partial index ``tables_behind`` (only the tables
        behind): ordered by id in SQL, SQLite's planner scanned every table
        instead (11 ms a sweep at 10,000 idle tables; bench/idle.py)."""
        rows = await self._tables("WHERE shown < version AND updated_at <= ?", (changed_before,))
        return sorted(rows, key=lambda row: row.id)

    async def due_tables(self, until: float) -> list[TableRow]:
        """Tables whose deadline is at or before ``until`` (the turn-clock sweeper)."""
        return await self._tables(
            "WHERE deadline IS NOT NULL AND deadline <= ? ORDER BY deadline", (until,)
        )

    async def next_deadline(self, after: float, *, cpu_overdue: float = 0.0) -> float | None:
        """The earliest deadline later than ``after`` — or, with
        ``cpu_overdue``, the earliest time a computer's turn becomes overdue
        (its due time plus that) — the sweeper's next wake."""
        async with self.db.reading() as c:
            r = await c.fetchone(
                "SELECT MIN(t) FROM (SELECT MIN(deadline) AS t FROM tables WHERE deadline > ?"
                " UNION ALL SELECT MIN(cpu_due) + ? FROM tables"
                " WHERE ? > 0 AND cpu_due IS NOT NULL AND cpu_due + ? > ?) AS due",
                (after, cpu_overdue, cpu_overdue, cpu_overdue, after),
            )
        return float(r[0]) if r and r[0] is not None else None

    async def set_clock(self, row: TableRow, expected: dict[str, Any]) -> bool:
        """Write only ``row.clock`` (the turn-clock warning), if the version is
        unchanged and the stored clock is still ``expected``: whoever writes
        first wins, so a warning is given once. No version bump."""
        self.kept.forget((row.id,))
        async with self.db.writing() as c:
            n = await c.execute(
                "UPDATE tables SET clock = ? WHERE id = ? AND version = ? AND clock = ?",
                (dumps(row.clock), row.id, row.version, dumps(expected)),
            )
        return n == 1

    async def delete_table(
        self,
        row: TableRow,
        *,
        ledger: Ledger | None = None,
        now: float = 0.0,
        screen: dict[str, Any] | None = None,
    ) -> bool:
        """Remove a table (cancelled lobby) if its version is unchanged (and
        write its ledger line in the same transaction). ``screen``: a game
        ended without a result — what its message is drawn from, kept until
        it is shown (:meth:`unshown_ends`), and its seed, kept to be checked
        (:meth:`ended_seed`)."""
        async with self.db.transaction() as tx:
            removed = await self.remove(tx, row, ledger, now)
            if removed and screen is not None:
                await self.db.put_meta(
                    tx,
                    [(f"{ENDED_UNSHOWN}{row.id}", dumps(screen))]
                    + ([(f"{ENDED_SEED}{row.id}", dumps({"game": row.game, "seed": row.seed}))]
                       if row.seed else []),
                )  # fmt: skip
        return removed

    async def unshown_ends(self, ended_before: float) -> dict[int, dict[str, Any]]:
        """The games ended without a result whose message is not shown yet
        (table id → what it is drawn from), ended at or before
        ``ended_before`` (the repair sweep)."""
        rows = await self.db.meta_prefixed(ENDED_UNSHOWN)
        found = {int(key[len(ENDED_UNSHOWN) :]): json.loads(value) for key, value in rows}
        return {k: v for k, v in found.items() if float(v.get("at", 0.0)) <= ended_before}

    async def ends_shown(self, table_ids: Sequence[int]) -> None:
        """The messages of these games ended without a result show it now."""
        await self.db.drop_meta([f"{ENDED_UNSHOWN}{i}" for i in table_ids])

    async def ended_seed(self, table_id: int) -> dict[str, Any] | None:
        """The game and seed of a game that ended without a result at table
        ``table_id`` (``None``: no such game — a live table tells nothing)."""
        value = await self.db.get_meta(f"{ENDED_SEED}{table_id}")
        return None if value is None else dict(json.loads(value))

    async def patch_ui(self, patches: dict[int, dict[str, Any]]) -> None:
        """Set keys of tables' UI state (``None`` removes a key), whatever
        their version: bookkeeping such as the id of a table's turn ping, in
        one statement. A key's value is replaced whole (not merged into)."""
        if not patches:
            return
        kept = self.kept.forget(patches)
        rows = [
            (*self.db.json_patch("ui", patch)[1], table_id) for table_id, patch in patches.items()
        ]
        expression = self.db.json_patch("ui", {})[0]
        async with self.db.writing() as c:
            await c.executemany(f"UPDATE tables SET ui = {expression} WHERE id = ?", rows)

        def written(table_id: int, columns: list[Any]) -> None:
            ui = json.loads(columns[_UI])  # the keys removed, then set (as json_patch)
            for key, value in patches[table_id].items():
                ui.pop(key, None)
                if value is not None:
                    ui[key] = value
            columns[_UI] = dumps(ui)

        self.kept.amend(kept, written)

    async def remove(self, tx: Conn, row: TableRow, ledger: Ledger | None, now: float) -> bool:
        """Inside ``tx``: remove the table if its version is unchanged, and
        write its ledger line; whether it was (``False``: stale)."""
        self.kept.forget((row.id,))
        n = await tx.execute(
            "DELETE FROM tables WHERE id = ? AND version = ?", (row.id, row.version)
        )
        if n == 1:
            self._states.pop(row.id, None)  # a removed table's state is never loaded again
            if ledger is not None:
                await self._write_ledger(tx, row.id, row.version + 1, ledger, now)
        return n == 1
