"""What a server asks of its own rows is read through an index (issue 35,
migration 11) — SQLite's own query plan of the statement as sent, its
arguments in place: the limits of /play (bot/tables/repo.py
``open_counts``) read no other server's tables and count right; a server's
/history of one game reads its newest ten of that game."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

from bot.storage import open_store


def test_open_counts_read_the_servers_rows_through_an_index(tmp_path: Path) -> None:
    path = tmp_path / "counts.sqlite3"
    sent: list[str] = []

    async def run() -> tuple[int, int]:
        store = open_store(path)
        await store.open()
        try:
            for n in range(600):  # 60 servers, 10 tables each; host 7 hosts every third
                guild = 1_000 + n % 60
                row = await store.tables.create_table(
                    guild_id=guild, channel_id=50_000 + n, game="nine",
                    host_id=7 if n % 3 == 0 else 100 + n, seats=[], options={}, now=0.0,
                )
                assert row is not None
                if n % 7 < 3:  # 3 in 7 playing, not in the lobby
                    await store.db._db.execute(
                        "UPDATE tables SET phase = 'playing' WHERE id = ?", (row.id,)
                    )
            await store.db._db.set_trace_callback(sent.append)
            counts = await store.tables.open_counts(1_003, 7)
            await store.db._db.set_trace_callback(None)
            return counts
        finally:
            await store.close()

    tables, lobbies = asyncio.run(run())
    # an oracle of our own: server 1003's tables (n = 3, 63, …, 543), the
    # lobbies among them that host 7 hosts
    mine = [n for n in range(600) if 1_000 + n % 60 == 1_003]
    assert tables == len(mine) == 10
    assert lobbies == sum(1 for n in mine if n % 3 == 0 and n % 7 >= 3) > 0
    reads = [s for s in sent if s.lstrip().upper().startswith("SELECT")]
    assert len(reads) == 1, reads
    conn = sqlite3.connect(path)
    try:
        plan = [row[-1] for row in conn.execute("EXPLAIN QUERY PLAN " + reads[0])]
    finally:
        conn.close()
    assert not [step for step in plan if step.startswith("SCAN tables")], plan
    assert any("COVERING INDEX tables_guild (guild_id=?)" in step for step in plan), plan


async def _three_hundred_results(tx, games: tuple[str, ...]) -> None:
    """Results 1-300: result i of server 1 + i % 4, game games[i % 3], at
    table 5000 + i, finished at i."""
    await tx.executemany(
        "INSERT INTO results (id, table_id, guild_id, channel_id, game, record,"
        " outcome, settlement, has_bots, finished_at)"
        " VALUES (?, ?, ?, 1, ?, '{}', '{}', '{}', 0, ?)",
        [(i, 5_000 + i, 1 + i % 4, games[i % 3], float(i)) for i in range(1, 301)],
    )


def test_a_servers_history_of_one_game_reads_its_newest_ten_by_an_index(tmp_path: Path) -> None:
    """``/history`` of a server and a game (migration 11): the plan reads the
    server's results of that game newest first from ``results_guild_game``
    — ten index entries — not the server's every newest result until ten
    are of the game; and the history is right (an oracle of our own)."""
    path = tmp_path / "history.sqlite3"
    sent: list[str] = []
    games = ("nine", "bluff", "yahtzee")

    async def run() -> list[dict]:
        store = open_store(path)
        await store.open()
        try:
            async with store.db.transaction() as tx:
                await _three_hundred_results(tx, games)
            await store.db._db.set_trace_callback(sent.append)
            found = await store.results.history(guild_id=2, game="bluff", limit=10)
            await store.db._db.set_trace_callback(None)
            return found
        finally:
            await store.close()

    found = asyncio.run(run())
    mine = sorted((i for i in range(1, 301) if 1 + i % 4 == 2 and games[i % 3] == "bluff"), reverse=True)
    assert [r["id"] for r in found] == mine[:10]
    first = next(s for s in sent if s.lstrip().upper().startswith("SELECT"))
    conn = sqlite3.connect(path)
    try:
        plan = [row[-1] for row in conn.execute("EXPLAIN QUERY PLAN " + first)]
    finally:
        conn.close()
    assert any("INDEX results_guild_game (guild_id=? AND game=?)" in step for step in plan), plan
    assert not any("TEMP B-TREE" in step for step in plan), plan


def _plan_of(path: Path, sql: str) -> list[str]:
    conn = sqlite3.connect(path)
    try:
        return [row[-1] for row in conn.execute("EXPLAIN QUERY PLAN " + sql)]
    finally:
        conn.close()


def test_a_players_history_and_a_tables_result_read_their_own_rows(tmp_path: Path) -> None:
    """A player's /history (of a server, of a game, or everywhere) is read
    from the player's own places newest first (``result_players_user``),
    not the server's newest results walked until ten had the player; the
    repair's result of a match's table from its server's results of the
    game since the tournament began (``results_guild_game``), not a scan of
    every result. Both right against an oracle of our own."""
    path = tmp_path / "player.sqlite3"
    sent: list[str] = []
    games = ("nine", "bluff", "yahtzee")
    # result i: server 1 + i % 4, game games[i % 3], finished at i; its
    # players i % 5 and 5 + i % 7 (ids 100 + …)
    players = {i: (100 + i % 5, 105 + i % 7) for i in range(1, 301)}

    async def run() -> tuple[list[list[int]], int | None, int | None, list[float]]:
        store = open_store(path)
        await store.open()
        try:
            async with store.db.transaction() as tx:
                await _three_hundred_results(tx, games)
                await tx.executemany(
                    "INSERT INTO result_players (result_id, user_id, guild_id, game, name, rank,"
                    " won, points, best, rated, finished_at, rating) VALUES (?, ?, ?, ?, 'p', 1,"
                    " 0, 0, NULL, 1, ?, ?)",
                    [
                        (i, u, 1 + i % 4, games[i % 3], float(i), float(i))
                        for i in range(1, 301)
                        for u in players[i]
                    ],
                )
            await store.db._db.set_trace_callback(sent.append)
            found = [
                [r["id"] for r in await store.results.history(guild_id=g, user_id=102, game=game)]
                for g, game in ((3, None), (None, None), (None, "bluff"), (2, "yahtzee"))
            ]
            trend_from = len(sent)
            trend = await store.boards.rating_trend(102, "bluff", limit=3)
            trend_sql = [s for s in sent[trend_from:] if s.lstrip().upper().startswith("SELECT")]
            plan = _plan_of(path, trend_sql[0])
            assert plan == ["SEARCH result_players USING COVERING INDEX result_players_user (user_id=?)"]
            mark = len(sent)
            table = await store.results.result_of_table(5_150, guild_id=3, game="nine", since=100.0)
            late = await store.results.result_of_table(5_150, guild_id=3, game="nine", since=151.0)
            await store.db._db.set_trace_callback(None)
            reads = [s for s in sent[:mark] if s.lstrip().upper().startswith("SELECT")]
            assert reads
            for sql in reads[::2]:  # each history's first read (then its places)
                plan = _plan_of(path, sql)
                # the player's places from the index alone (migration 13), in
                # the history's order: no row of result_players read, no sort
                assert any("COVERING INDEX result_players_user (user_id=?)" in s for s in plan), plan
                assert not [s for s in plan if s.startswith("SCAN") or "TEMP B-TREE" in s], plan
            last = [s for s in sent[mark:] if s.lstrip().upper().startswith("SELECT")][0]
            plan = _plan_of(path, last)
            assert any("results_guild_game (guild_id=? AND game=? AND finished_at>?)" in s
                       for s in plan), plan  # fmt: skip
            assert not [s for s in plan if s.startswith("SCAN")], plan
            return found, table, late, trend
        finally:
            await store.close()

    found, table, late, trend = asyncio.run(run())

    def mine(guild: int | None, game: str | None) -> list[int]:
        return sorted(
            (
                i
                for i in range(1, 301)
                if 102 in players[i]
                and (guild is None or 1 + i % 4 == guild)
                and (game is None or games[i % 3] == game)
            ),
            reverse=True,
        )[:10]

    assert found == [mine(3, None), mine(None, None), mine(None, "bluff"), mine(2, "yahtzee")]
    assert all(found)
    assert table == 150 and 1 + 150 % 4 == 3 and games[150 % 3] == "nine"
    assert late is None  # finished before the tournament began: not its match's
    # the rating after each of the player's last three rated games of Bluff, oldest first
    bluffs = sorted(i for i in range(1, 301) if 102 in players[i] and games[i % 3] == "bluff")
    assert trend == [float(i) for i in bluffs[-3:]]
