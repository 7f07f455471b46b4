"""``copy-db``: every row of one database written into another, of either
backend, ids included (a posted button names its table by id and version,
so it keeps working on the copy).

What is copied is declared by each concern's repository (its ``COPIED``:
table → its columns, the order its rows are read in, and which columns
hold JSON documents); :class:`bot.storage.Store` lists them in the order
they are filled (a result before its players, an event before its matches).
JSON documents travel decoded and are written in our own spelling
(PostgreSQL's JSONB respells what it stores, and SQLite compares a turn
clock as text).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from bot.db.core import Database, NotEmpty, Rows, dumps

#: table → (its columns, ORDER BY of its rows, its columns holding JSON)
Copied = Mapping[str, tuple[tuple[str, ...], str, frozenset[str]]]


async def export_rows(db: Database, copied: Copied) -> Rows:
    """Every row of every table of ``copied``, read in one transaction; JSON
    documents decoded."""
    out: Rows = {}
    async with db.transaction() as tx:
        await db.snapshot(tx)
        for name, (columns, order, documents) in copied.items():
            rows = await tx.fetch(f"SELECT {', '.join(columns)} FROM {name} ORDER BY {order}")
            out[name] = [
                tuple(
                    json.loads(v) if col in documents and v is not None else v
                    for col, v in zip(columns, r, strict=True)
                )
                for r in rows
            ]
    return out


async def import_rows(db: Database, copied: Copied, rows: Rows) -> dict[str, int]:
    """Write ``rows`` (from :func:`export_rows` of any database) into this
    empty one, ids included, in one transaction; how many rows per table.
    :class:`NotEmpty` if any table already holds a row."""
    async with db.transaction() as tx:
        full = []
        for name in copied:
            r = await tx.fetchone(f"SELECT COUNT(*) FROM {name}")
            if r and r[0]:
                full.append(f"{name} ({r[0]} rows)")
        if full:
            raise NotEmpty("the destination is not empty: " + ", ".join(full))
        for name, (columns, _order, documents) in copied.items():
            batch: list[tuple[Any, ...]] = [
                tuple(
                    dumps(v) if col in documents and v is not None else v
                    for col, v in zip(columns, row, strict=True)
                )
                for row in rows.get(name, [])
            ]
            if batch:
                marks = ", ".join("?" * len(columns))
                await tx.executemany(
                    f"INSERT INTO {name} ({', '.join(columns)}) VALUES ({marks})", batch
                )
        await db.after_import(tx)
    return {name: len(rows.get(name, [])) for name in copied}
