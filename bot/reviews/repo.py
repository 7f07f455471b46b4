"""The reviews' storage: a finished game's review, computed once and kept
by review version (derived from the stored record, so ``copy-db`` does not
copy it: another version recomputes)."""

from __future__ import annotations

import json
from typing import Any

from bot.db.core import Database, dumps

#: a wait for a review older than this counts no more: the process that
#: wrote it died before the review came (a review runs 300 s at most,
#: bot.ai.JOB_SECONDS, after its place in line)
WAIT_SECONDS = 900.0


class ReviewsRepo:
    """The ``reviews`` table, and ``review_waits``: who waits for which
    review (migration 11; docs/review.md "Limits")."""

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

    async def wait(
        self,
        result_id: int,
        user_id: int,
        guild_id: int | None,
        *,
        now: float,
        limits: tuple[int, int] | None = None,
    ) -> tuple[int, int] | None:
        """The member waits for the result's review from now (a row of
        ``review_waits``, seen by every process). With ``limits`` (the
        member's, the server's): only if the member waits for fewer reviews
        and the server's games for fewer than those, counted in the same
        transaction under the member's lock, then the server's (two presses
        at once, in any processes, count one after the other); else nothing
        is written and the counts are returned. Waits older than
        :data:`WAIT_SECONDS` count no more (a process that died)."""
        fresh = now - WAIT_SECONDS
        async with self.db.transaction() as tx:
            if limits is not None:
                await self.db.lock_in_transaction(tx, f"chabudai.review_waits.user.{user_id}")
                if guild_id is not None:
                    await self.db.lock_in_transaction(
                        tx, f"chabudai.review_waits.guild.{guild_id}"
                    )
                r = await tx.fetchone(
                    "SELECT COUNT(*) FROM review_waits WHERE user_id = ? AND since > ?",
                    (user_id, fresh),
                )
                mine = int(r[0]) if r else 0
                here = 0
                if guild_id is not None:
                    r = await tx.fetchone(
                        "SELECT COUNT(DISTINCT result_id) FROM review_waits"
                        " WHERE guild_id = ? AND since > ?",
                        (guild_id, fresh),
                    )
                    here = int(r[0]) if r else 0
                if mine >= limits[0] or (guild_id is not None and here >= limits[1]):
                    return mine, here
            await tx.execute(
                "INSERT INTO review_waits (result_id, user_id, guild_id, since) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (result_id, user_id) DO UPDATE SET guild_id = excluded.guild_id,"
                " since = excluded.since",
                (result_id, user_id, guild_id, now),
            )
        return None

    async def done_waiting(self, result_id: int, user_id: int) -> None:
        """The member waits for that review no more (it came, or failed)."""
        async with self.db.writing() as c:
            await c.execute(
                "DELETE FROM review_waits WHERE result_id = ? AND user_id = ?",
                (result_id, user_id),
            )
