"""The boards by rating read board_totals alone (migration 12, issue 35):
each row keeps the rating its board sorts by, written when a game finishes.
Random histories of finished games (four servers, two seasons and none,
players in several servers, games with computers, unrated games, rated
games of one player that rate nobody), and each board by rating — every
server's, a server's, a season's; limits small, so ties and the cut
matter — against a brute force of our own from the tables ``ratings``,
``season_ratings`` and ``result_players`` (not the repository's helpers).
On both databases: kept game by game, back-filled by the migration from a
database filled at schema 11, and carried by copy-db both ways.

What must hold that only these rows can break: a rated game changes the
player's all-time rating on the boards of every server they played in
(not only this one's), and a game that rates nobody (computers, a lone
player) erases no rating — a player's first game in a server, unrated,
puts them on its board with the all-time rating they already have.
"""

from __future__ import annotations

import asyncio
import random
from dataclasses import dataclass
from typing import Any

import pytest
from simtable import on_both_databases, on_postgres

from bot.db import schema_postgres, schema_sqlite
from bot.results.repo import ResultsRepo, scopes
from bot.results.rows import PlayerResult, Result
from bot.storage import Store, open_database, open_store

GAMES = ("nine", "bluff")
GUILDS = (21, 22, 23, 24)
SEASONS = ("2026-10", "2026-11")
USERS = tuple(range(201, 213))
LIMITS = (1, 2, 3, 5, 50)


@dataclass
class Game:
    guild: int | None
    season: str | None
    game: str
    places: list[tuple[int, int, bool, int]]  # user, rank, won, points
    has_bots: bool
    rated: bool


def history(seed: int, n: int) -> list[Game]:
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        guild = None if rng.random() < 0.1 else rng.choice(GUILDS)
        season = rng.choice((None, *SEASONS)) if guild is not None else None
        users = rng.sample(USERS, rng.choice((1, 2, 2, 3, 4)))
        ranks = sorted(rng.randint(1, len(users)) for _ in users)
        ranks = [r - ranks[0] + 1 for r in ranks]
        places = [(u, r, r == 1, rng.randint(-2, 2)) for u, r in zip(users, ranks, strict=True)]
        has_bots = rng.random() < 0.3
        out.append(Game(guild, season, rng.choice(GAMES), places, has_bots, not has_bots))
    return out


def rule(ranks: dict[int, int], current: dict[int, tuple[float, float]]):
    """Whole places (many equal ratings); nobody rated alone, as bot.ratings.rate."""
    if len(ranks) < 2:
        return {}
    n = len(ranks)
    return {u: (current.get(u, (0.0, 1.0))[0] + n - r, 1.0) for u, r in ranks.items()}


async def play(store: Store, games: list[Game], first: int = 0) -> None:
    for i, g in enumerate(games, start=first):
        row = await store.tables.create_table(
            guild_id=g.guild,
            channel_id=i,
            game=g.game,
            host_id=g.places[0][0],
            seats=[],
            options={},
            now=0.0,
        )
        assert row is not None
        result = Result(
            table_id=row.id,
            guild_id=g.guild,
            channel_id=i,
            game=g.game,
            record={"i": i},
            outcome={"finished": True},
            players=[PlayerResult(u, f"p{u}", r, won, pts, None) for u, r, won, pts in g.places],
            seed="s",
            has_bots=g.has_bots,
            finished_at=1000.0 + i,
            season=g.season,
            rated=g.rated,
            rate=rule if g.rated else None,
        )
        assert await store.results.finish_table(row, result) is not None


def situations(games: list[Game]) -> dict[str, int]:
    """How often the history does what only the kept ratings can get wrong."""
    rated: set[tuple[str, int]] = set()
    servers: dict[tuple[str, int], set[int]] = {}
    seen = {"fan-out": 0, "unrated first game in a server": 0, "unrated game of rated": 0}
    for g in games:
        ranked = g.rated and len(g.places) >= 2
        for u, *_ in g.places:
            mine = servers.setdefault((g.game, u), set())
            others = mine - {g.guild}
            if ranked and others:
                seen["fan-out"] += 1
            if not ranked and (g.game, u) in rated:
                seen["unrated game of rated"] += 1
                if g.guild is not None and g.guild not in mine:
                    seen["unrated first game in a server"] += 1
            if g.guild is not None:
                mine.add(g.guild)
            if ranked:
                rated.add((g.game, u))
    return seen


async def brute(store: Store, game: str, guild: int | None, season: str | None, limit: int):
    """A board by rating from the rows themselves: the scope's places summed
    here, each player's rating (all-time, or the season's own) looked up."""
    where, args = ["game = ?"], [game]
    for column, value in (("guild_id", guild), ("season", season)):
        if value is not None:
            where.append(f"{column} = ?")
            args.append(value)
    async with store.db.reading() as c:
        places = await c.fetch(
            f"SELECT user_id, name, won, points, best FROM result_players WHERE {' AND '.join(where)}",
            args,
        )
        if season is None:
            book = await c.fetch(
                "SELECT user_id, mu, sigma, games FROM ratings WHERE game = ?", (game,)
            )
        else:
            book = await c.fetch(
                "SELECT user_id, mu, sigma, games FROM season_ratings"
                " WHERE guild_id = ? AND season = ? AND game = ?",
                (guild, season, game),
            )
    ratings = {int(u): (mu - 3 * sigma, int(n)) for u, mu, sigma, n in book}
    totals: dict[int, dict[str, Any]] = {}
    for u, name, won, points, best in places:
        t = totals.setdefault(
            int(u),
            {"user_id": int(u), "name": name, "games": 0, "wins": 0, "points": 0, "best": None},
        )
        t["name"] = max(t["name"], name)
        t["games"] += 1
        t["wins"] += int(won)
        t["points"] += points
        if best is not None and (t["best"] is None or best > t["best"]):
            t["best"] = best
    board = [
        {**t, "value": ratings[u][0], "rated": ratings[u][1]}
        for u, t in totals.items()
        if u in ratings
    ]
    board.sort(key=lambda r: (-r["value"], -r["wins"], r["user_id"]))
    return board[:limit]


async def check(store: Store) -> int:
    """Every board by rating of every scope and limit against the brute
    force; how many boards had a row."""
    filled = 0
    for game in GAMES:
        boards = [(None, None)] + [
            (guild, season) for guild in GUILDS for season in (None, *SEASONS, "2025-01")
        ]
        for guild_id, season in boards:
            for limit in LIMITS:
                want = await brute(store, game, guild_id, season, limit)
                got = await store.boards.leaderboard(
                    game, guild_id=guild_id, by="rating", season=season, limit=limit
                )
                assert got == want, (game, guild_id, season, limit)
                filled += bool(want)
    return filled


async def opened(target) -> Store:
    store = open_store(target)
    await store.open()
    return store


@pytest.mark.parametrize("seed", [5, 6, 7])
@on_both_databases
async def test_the_boards_by_rating_equal_a_brute_force_of_the_tables(new_database, seed):
    games = history(seed, 90)
    seen = situations(games)
    assert min(seen.values()) >= 3, seen  # the history exercises each
    store = await opened(await new_database())
    try:
        for part in range(3):  # kept game by game: looked at as it goes
            await play(store, games[30 * part : 30 * (part + 1)], first=30 * part)
            assert await check(store) > 40
        # ties settled by wins and the user, and cut by the limit
        top = await brute(store, "nine", None, None, 50)
        assert len({r["value"] for r in top}) < len(top)
    finally:
        await store.close()


def schema_11_count(self, result: Result, rated: int, *_counted: Any):
    """The totals as schema 11's code wrote them (bot/results/repo.py
    ``_count`` before migration 12: no ratings in them)."""
    places = sorted(
        (result.game, guild, season, p.user_id, p.name, int(p.won), p.points, p.best, p.points)
        for guild, season in scopes(result.guild_id, result.season)
        for p in result.players
    )
    n = len(result.players)
    return [
        (
            "INSERT INTO board_totals (game, guild_id, season, user_id, name, games, wins,"
            " points, best, top) VALUES (?, ?, ?, ?, ?, 1, ?, ?, ?, ?)"
            " ON CONFLICT (game, guild_id, season, user_id) DO UPDATE SET"
            " name = CASE WHEN excluded.name > board_totals.name THEN excluded.name"
            " ELSE board_totals.name END, games = board_totals.games + 1,"
            " wins = board_totals.wins + excluded.wins,"
            " points = board_totals.points + excluded.points,"
            " best = CASE WHEN board_totals.best IS NULL OR excluded.best > board_totals.best"
            " THEN excluded.best ELSE board_totals.best END,"
            " top = CASE WHEN excluded.top > board_totals.top THEN excluded.top"
            " ELSE board_totals.top END",
            places,
        ),
        (
            "INSERT INTO board_counts (guild_id, season, game, finished, rated, with_bots)"
            " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id, season, game) DO UPDATE SET"
            " finished = board_counts.finished + excluded.finished,"
            " rated = board_counts.rated + excluded.rated,"
            " with_bots = board_counts.with_bots + excluded.with_bots",
            sorted(
                (guild, season, result.game, n, n * rated, n * int(result.has_bots))
                for guild, season in scopes(result.guild_id, result.season)
            ),
        ),
    ]


@on_both_databases
async def test_migration_12_back_fills_the_ratings_of_a_schema_11_database(
    new_database, backend, monkeypatch
):
    """A database filled at schema 11 (its code: totals without ratings)
    migrates at open; its boards by rating read as the brute force, and go
    on so with the next games."""
    games = history(8, 80)
    target = await new_database()
    everything = (schema_postgres if backend == "postgres" else schema_sqlite).MIGRATIONS
    db = open_database(target)
    db.migrations = everything[:11]
    old = Store(db)
    await old.open()
    with monkeypatch.context() as m:
        m.setattr(ResultsRepo, "_count", schema_11_count)
        await play(old, games[:60])
    assert await old.schema_version() == 11
    await old.close()
    store = await opened(target)
    try:
        assert await store.schema_version() == len(everything) >= 12
        assert await check(store) > 40
        await play(store, games[60:], first=60)
        await check(store)
    finally:
        await store.close()


@on_both_databases
async def test_copy_db_carries_the_ratings_of_the_boards_both_ways(new_database, tmp_path):
    """SQLite → the test's backend → SQLite again: the boards by rating read
    the same on each copy, and go on with the next games there."""
    games = history(9, 70)
    source = await opened(tmp_path / "source.sqlite3")
    there = await opened(await new_database())
    back = await opened(tmp_path / "back.sqlite3")
    try:
        await play(source, games[:50])
        rows = await source.export_rows()
        assert any(r[-2] is not None for r in rows["board_totals"])  # rating, rated
        await there.import_rows(rows)
        await back.import_rows(await there.export_rows())
        for store in (there, back):
            assert await check(store) > 40
            await play(store, games[50:], first=50)
            await check(store)
    finally:
        for store in (source, there, back):
            await store.close()


@on_postgres
async def test_a_game_that_rates_nobody_waits_for_a_rated_game_of_the_same_game(new_database):
    """PostgreSQL, two processes: a game that rates nobody copies each
    player's all-time rating into the rows it adds (and keeps it in those it
    updates) while a rated game of the same game, elsewhere, is changing it.
    It waits for that game's ratings lock, so every board shows the rating
    that game left. Without the lock its statement read the old rating
    before waiting on the row the rated game held, and wrote it back over
    the new one (every server's board: -2 where the ratings say 3)."""
    target = await new_database()
    store = await opened(target)
    other = await opened(target)
    try:
        rated = Game(21, None, "nine", [(201, 1, True, 0), (202, 2, False, 0)], False, True)
        await play(store, [rated])
        first_here = Game(22, None, "nine", [(201, 1, True, 1)], True, False)
        async with other.db.transaction() as tx:
            # a rated game of nine finishing in another process: it holds the
            # lock and moves 201's rating (its fan-out finds no row of 22 yet)
            await other.db.lock_in_transaction(tx, "chabudai.ratings.nine")
            await tx.execute(
                "UPDATE ratings SET mu = mu + 5, games = games + 1 WHERE game = ? AND user_id = ?",
                ("nine", 201),
            )
            await tx.execute(
                "UPDATE board_totals SET rating = rating + 5, rated = rated + 1"
                " WHERE game = ? AND user_id = ? AND season = ''",
                ("nine", 201),
            )
            waiting = asyncio.create_task(play(store, [first_here], first=1))
            await asyncio.sleep(0.5)
            assert not waiting.done()  # the unrated game waits
        await waiting
        for guild in (22, None, 21):  # the new row, every server's, the rated game's
            board = await store.boards.leaderboard("nine", guild_id=guild, by="rating")
            assert board == await brute(store, "nine", guild, None, 10), guild
        here = await store.boards.leaderboard("nine", guild_id=22, by="rating")
        assert [r["value"] for r in here] == [3.0]  # rule: mu 0 + 1 beaten, − 3σ, + 5
    finally:
        await store.close()
        await other.close()
