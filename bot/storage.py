"""Which database: ``open_store(CHABUDAI_DB)`` — a file path → SQLite
(:class:`bot.store.SqliteStore`, the zero-set-up default), a
``postgresql://…`` URL → PostgreSQL (:class:`bot.store_pg.PostgresStore`).
Both speak the one :class:`bot.store.Store` interface."""

from __future__ import annotations

from pathlib import Path

from bot.store import SqliteStore, Store, is_postgres_url
from bot.store_pg import PostgresStore


def open_store(url_or_path: str | Path, *, migrate: bool = True) -> Store:
    """The store for ``url_or_path`` (not yet connected: ``await
    store.open()``, which the bot does at start-up). ``migrate=False``: its
    open migrates nothing and refuses a schema older than the code
    (:class:`bot.store.SchemaBehind`)."""
    if is_postgres_url(url_or_path):
        return PostgresStore(str(url_or_path), migrate=migrate)
    return SqliteStore(url_or_path, migrate=migrate)
