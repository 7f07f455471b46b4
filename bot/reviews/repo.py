"""The reviews' storage: a finished game's review, computed once and kept
by review version (derived from the stored record, so ``copy-db`` does not
copy it: another version recomputes)."""

from __future__ import annotations

import json
from typing import Any

from bot.db.core import Database, dumps


class ReviewsRepo:
    """The ``reviews`` table."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def get_review(self, result_id: int, engine: str) -> dict[str, Any] | None:
        """The stored review of a result made by review version ``engine``
        (``None``: none, or another version's)."""
        async with self.db.reading() as c:
            r = await c.fetchone(
                "SELECT review FROM reviews WHERE result_id = ? AND engine = ?",
                (result_id, engine),
            )
        return None if r is None else dict(json.loads(r[0]))

    async def save_review(
        self, result_id: int, engine: str, review: dict[str, Any], *, now: float
    ) -> None:
        """Keep a result's review (the last write wins)."""
        async with self.db.writing() as c:
            await c.execute(
                "INSERT INTO reviews (result_id, engine, review, created_at) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (result_id) DO UPDATE SET engine = excluded.engine,"
                " review = excluded.review, created_at = excluded.created_at",
                (result_id, engine, dumps(review), now),
            )
