"""The bot's storage: one :class:`Store` — the database (:mod:`bot.db`) and
one repository per concern on it — opened from a path or a URL.

``open_store(CHABUDAI_DB)``: a file path → SQLite
(:class:`bot.db.sqlite.SqliteDatabase`, the zero-set-up default), a
``postgresql://…`` URL → PostgreSQL (:class:`bot.db.postgres.PostgresDatabase`).
Each concern's queries are its repository's, written once for both:

- ``store.tables`` — live tables, the moves ledger, table locks, due clocks,
  what is shown (:mod:`bot.tables.repo`);
- ``store.results`` — finishing a game, results, history
  (:mod:`bot.results.repo`); ``store.boards`` — ratings, seasons, boards,
  stats, names (read from the results: the same module);
- ``store.reviews`` — post-game reviews (:mod:`bot.reviews.repo`);
- ``store.tournaments`` — events, entrants, matches, the round claim
  (:mod:`bot.tournament.repo`);
- ``store.settings`` — server settings (:mod:`bot.settings.repo`);
- ``store.db`` — the connection, the schema and the bot's own bookkeeping.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from bot.db import copy
from bot.db.core import Database, Rows, is_postgres_url
from bot.db.postgres import PostgresDatabase
from bot.db.sqlite import SqliteDatabase
from bot.results import repo as results_repo
from bot.reviews.repo import ReviewsRepo
from bot.settings import repo as settings_repo
from bot.tables import repo as tables_repo
from bot.tournament import repo as tournament_repo

#: what ``copy-db`` moves, in the order the rows are filled (a result before
#: its players, an event before its players and matches)
COPIED: copy.Copied = {
    "tables": tables_repo.COPIED["tables"],
    **results_repo.COPIED,
    **settings_repo.COPIED,
    **tournament_repo.COPIED,
    "moves": tables_repo.COPIED["moves"],
}


def open_database(url_or_path: str | Path, *, migrate: bool = True) -> Database:
    """The database for ``url_or_path`` (not yet connected)."""
    if is_postgres_url(url_or_path):
        return PostgresDatabase(str(url_or_path), migrate=migrate)
    return SqliteDatabase(url_or_path, migrate=migrate)


class Store:
    """The database and its repositories. ``Store(path_or_url)`` (or a
    :class:`Database`); ``await store.open()`` connects and migrates
    (``migrate=False``: migrates nothing and refuses a schema older than the
    code, :class:`bot.db.core.SchemaBehind`)."""

    def __init__(self, target: str | Path | Database, *, migrate: bool = True) -> None:
        self.db = target if isinstance(target, Database) else open_database(target, migrate=migrate)
        self.tables = tables_repo.TablesRepo(self.db)
        self.results = results_repo.ResultsRepo(self.db, self.tables)
        self.boards = results_repo.BoardsRepo(self.db)
        self.reviews = ReviewsRepo(self.db)
        self.tournaments = tournament_repo.TournamentsRepo(self.db)
        self.settings = settings_repo.SettingsRepo(self.db)

    @property
    def is_postgres(self) -> bool:
        return isinstance(self.db, PostgresDatabase)

    @property
    def before_let_go(self) -> Callable[[int], Awaitable[None]] | None:
        """Called with a table's id before this process lets its lock go
        (PostgreSQL): the table service writes what it noted of the table."""
        return self.db.before_let_go

    @before_let_go.setter
    def before_let_go(self, hook: Callable[[int], Awaitable[None]] | None) -> None:
        self.db.before_let_go = hook

    async def open(self) -> None:
        await self.db.open()
        try:
            await self.settings.listen()
        except BaseException:
            await self.close()
            raise

    async def close(self) -> None:
        self.tables.forget_all()
        await self.db.close()

    @property
    def is_open(self) -> bool:
        return self.db.is_open

    async def schema_version(self) -> int:
        return await self.db.schema_version()

    async def migrate(self, migrations: Any = None) -> int:
        return await self.db.migrate(migrations)

    async def ping(self) -> None:
        await self.db.ping()

    async def export_rows(self) -> Rows:
        """Every row of every table (:data:`COPIED`), read in one
        transaction; JSON documents decoded."""
        return await copy.export_rows(self.db, COPIED)

    async def import_rows(self, rows: Rows) -> dict[str, int]:
        """Write ``rows`` (from :meth:`export_rows` of any store) into this
        empty database, ids included, in one transaction; how many rows per
        table (:class:`bot.db.core.NotEmpty` if any table holds a row)."""
        counts = await copy.import_rows(self.db, COPIED, rows)
        self.settings.forget_all()
        return counts


def open_store(url_or_path: str | Path, *, migrate: bool = True) -> Store:
    """The store for ``url_or_path`` (not yet connected: ``await
    store.open()``, which the bot does at start-up)."""
    return Store(url_or_path, migrate=migrate)
