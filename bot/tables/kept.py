"""The table rows a process keeps under its table locks (PostgreSQL: a
load under a lock held since sends nothing), and what makes it forget
them: its own writes of a table outside a versioned save, which either
amend the kept row as the database did or make a read or save under way
keep nothing (docs/bot.md, "Storage")."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from bot.db.core import Database

# tables whose last forgetting a repository remembers (KeptRows.forgot_at)
FORGOT_KEPT = 4096

# what KeptRows.forget forgot: the count of that forgetting, and the
# rows it kept before (table id → (lock token, columns))
Forgotten = tuple[int, dict[int, tuple[object, tuple[Any, ...]]]]


class KeptRows:
    """A table's row as this process last loaded or saved it (in the
    columns' order, its documents as JSON text), kept only while the
    backend says nobody else can have changed it
    (:meth:`Database.lock_token`: PostgreSQL, the table lock this process
    has held since; never on SQLite)."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.rows: dict[int, tuple[object, tuple[Any, ...]]] = {}
        # rows forgotten so far (a count), and the count at each table's
        # last forgetting: a read or save of a table that a write of the
        # same table raced keeps nothing (another table's write does not
        # count); past FORGOT_KEPT tables, every table counts as forgotten
        # at the count of the clearing
        self.forgotten = 0
        self.forgot_at: dict[int, int] = {}
        self.forgot_floor = 0
        self.saving: dict[int, int] = {}  # tables with saves on their way (how many)
        db.on_let_go = self.let_go

    def let_go(self, table_id: int) -> None:
        self.rows.pop(table_id, None)

    def forget_all(self) -> None:
        """The store closes: nothing kept is trusted again."""
        self.rows.clear()

    def forget(self, table_ids: Iterable[int]) -> Forgotten:
        """Written here outside a versioned save, or removed: loaded anew
        (unless :meth:`amend` puts the write into the rows it returns:
        those that were kept, with the count of this forgetting)."""
        self.forgotten += 1
        if len(self.forgot_at) >= FORGOT_KEPT:
            self.forgot_at.clear()
            self.forgot_floor = self.forgotten
        kept: dict[int, tuple[object, tuple[Any, ...]]] = {}
        for table_id in table_ids:
            self.forgot_at[table_id] = self.forgotten
            row = self.rows.pop(table_id, None)
            if row is not None:
                kept[table_id] = row
        return self.forgotten, kept

    def untouched(self, table_id: int, since: int) -> bool:
        """Whether no write of this process outside a versioned save forgot
        the table's row since the count ``since`` (a read or a save that
        started then may keep what it got)."""
        return self.forgot_at.get(table_id, self.forgot_floor) <= since

    def amend(self, forgotten: Forgotten, written: Callable[[int, list[Any]], None]) -> None:
        """A write outside a versioned save went through: the rows it forgot
        (``forgotten``, from :meth:`forget`) kept again with the write in
        them (``written(table_id, columns)`` changes the columns as the
        database did) — if the lock is held still and no other write forgot
        it since and no save of it is on its way (a save that went through
        and kept nothing forgets the row: ``TablesRepo.save_table``); a row
        kept meanwhile is forgotten. A row as the database holds it, so the next load under the lock sends nothing (the sweep's
        flush writes the versions shown of the tables played every second)."""
        at, kept = forgotten
        for table_id, (token, columns) in kept.items():
            if table_id in self.rows:
                # a save or a load kept it meanwhile: it may hold this write
                # or not (the connections' order is the server's) — loaded anew
                self.rows.pop(table_id)
            elif (
                self.db.lock_token(table_id) is token
                and self.forgot_at.get(table_id) == at
                and not self.saving.get(table_id)  # (the row kept may be older than it)
            ):
                amended = list(columns)
                written(table_id, amended)
                self.rows[table_id] = (token, tuple(amended))
