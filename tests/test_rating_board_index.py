"""A board by rating reads only its rows (issue 35, migration 12) — SQLite's
own query plan of the statement as sent, its arguments in place: a
server's, a season's and every server's board by rating are a range of
board_totals_rating in the board's order, not every player of the server
joined to their ratings and sorted (``USE TEMP B-TREE``) nor a scan; and
the board is right (an oracle of our own, from the games fed in)."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

from bot.results.rows import PlayerResult, Result
from bot.storage import open_store

SERVER, OTHER, SEASON = 5, 6, "2026-11"


def rule(ranks: dict[int, int], current: dict[int, tuple[float, float]]):
    """mu: the players beaten, summed over games; sigma stays 1."""
    n = len(ranks)
    return {u: (current.get(u, (0.0, 1.0))[0] + n - r, 1.0) for u, r in ranks.items()}


def test_the_boards_by_rating_read_their_rows_through_an_index(tmp_path: Path) -> None:
    path = tmp_path / "rating.sqlite3"
    sent: list[str] = []
    # 120 games of 3: players 1000 + (0..179), server 5 (half in a season)
    # and server 6; place i of game g beats 2 - i players
    games = [
        (
            SERVER if g % 3 else OTHER,
            SEASON if g % 2 else None,
            [1000 + (g * 7 + k * 61) % 180 for k in range(3)],
        )
        for g in range(120)
    ]

    async def run() -> dict[tuple[int | None, str | None], list[dict]]:
        store = open_store(path)
        await store.open()
        try:
            for g, (guild, season, users) in enumerate(games):
                row = await store.tables.create_table(
                    guild_id=guild,
                    channel_id=g,
                    game="nine",
                    host_id=users[0],
                    seats=[],
                    options={},
                    now=0.0,
                )
                assert row is not None
                result = Result(
                    table_id=row.id,
                    guild_id=guild,
                    channel_id=g,
                    game="nine",
                    record={},
                    outcome={},
                    seed="s",
                    has_bots=False,
                    finished_at=float(g),
                    season=season,
                    players=[
                        PlayerResult(u, f"p{u}", k + 1, k == 0, 0, None)
                        for k, u in enumerate(users)
                    ],
                    rate=rule,
                )
                assert await store.results.finish_table(row, result) is not None
            boards = {}
            await store.db._db.set_trace_callback(sent.append)
            for guild, season in ((SERVER, None), (SERVER, SEASON), (None, None)):
                boards[guild, season] = await store.boards.leaderboard(
                    "nine", guild_id=guild, season=season, by="rating", limit=5
                )
            await store.db._db.set_trace_callback(None)
            return boards
        finally:
            await store.close()

    boards = asyncio.run(run())

    def oracle(guild: int | None, season: str | None) -> list[tuple[int, float]]:
        mu: dict[int, float] = {}
        wins: dict[int, int] = {}
        seen: set[int] = set()
        for g_guild, g_season, users in games:
            if season is None or (g_guild, g_season) == (guild, season):
                for k, u in enumerate(users):
                    mu[u] = mu.get(u, 0.0) + 2 - k
            if guild in (None, g_guild) and season in (None, g_season):
                seen.update(users)
                wins[users[0]] = wins.get(users[0], 0) + 1
        order = sorted(seen, key=lambda u: (-(mu[u] - 3), -wins.get(u, 0), u))
        return [(u, mu[u] - 3) for u in order[:5]]

    for (guild, season), board in boards.items():
        assert [(r["user_id"], r["value"]) for r in board] == oracle(guild, season)
    reads = [s for s in sent if s.lstrip().upper().startswith("SELECT")]
    conn = sqlite3.connect(path)
    try:
        for read in reads:
            plan = [row[-1] for row in conn.execute("EXPLAIN QUERY PLAN " + read)]
            assert not [s for s in plan if "TEMP B-TREE" in s or s.startswith("SCAN")], plan
            assert any("USING INDEX board_totals_rating" in s for s in plan), plan
            assert len(plan) == 1, plan  # board_totals alone: no join
    finally:
        conn.close()
    assert len(reads) == 3, reads  # one statement a board
