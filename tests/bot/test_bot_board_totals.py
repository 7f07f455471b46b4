"""The boards' kept totals (migration 10, issue 35): every leaderboard, the
statistics, why a board is empty, a server's seasons and its history, read
after random histories of finished games, equal an oracle computed here
straight from the games fed in — on both databases, kept game by game, back-
filled by the migration from a database at schema 9, and carried by copy-db.

The histories (seeded): three games (one keeps no best), servers and direct
messages, two seasons and none, games with computers and unrated ones, places
tied (two winners), points and ratings tied (the rating rule here moves mu by
whole places: many equal ordinals), a player's name changing between games
(the board shows the greatest, as MAX(name) read it; lowercase letters only,
so both databases' collations order them as Python does).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

import pytest
from simtable import on_both_databases

from bot.db import schema_postgres, schema_sqlite
from bot.results.repo import ResultsRepo
from bot.results.rows import PlayerResult, Result
from bot.storage import Store, open_database, open_store

GAMES = ("nine", "bluff", "yahtzee")
KEEPS_NO_BEST = "bluff"
GUILDS = (11, 12, 13)
SEASONS = ("2026-10", "2026-11")
NAMES = ("ann", "anne", "bo", "bob", "cy")
USERS = tuple(range(101, 109))


@dataclass
class Game:
    guild: int | None
    season: str | None
    game: str
    places: list[tuple[int, str, int, bool, int, int | None]]  # user, name, rank, won, points, best
    has_bots: bool
    rated: bool
    finished_at: float


def history(seed: int, n: int) -> list[Game]:
    rng = random.Random(seed)
    out = []
    for i in range(n):
        guild = None if rng.random() < 0.15 else rng.choice(GUILDS)
        season = rng.choice((None, *SEASONS)) if guild is not None else None
        game = rng.choice(GAMES)
        users = rng.sample(USERS, rng.randint(1, 4))
        ranks = sorted(rng.randint(1, len(users)) for _ in users)
        ranks = [r - ranks[0] + 1 for r in ranks]  # someone is first (ties allowed)
        places = [
            (
                u,
                rng.choice(NAMES),
                rank,
                rank == 1,
                rng.randint(-3, 3),
                None if game == KEEPS_NO_BEST else rng.randint(0, 4),
            )
            for u, rank in zip(users, ranks, strict=True)
        ]
        has_bots = rng.random() < 0.25
        rated = (not has_bots if rng.random() < 0.8 else rng.random() < 0.5) and len(users) >= 2
        out.append(Game(guild, season, game, places, has_bots, rated, 1000.0 + i // 2))
    return out


def rule(ranks: dict[int, int], current: dict[int, tuple[float, float]]):
    """Whole places: mu goes up by the players beaten, sigma stays 1."""
    n = len(ranks)
    return {u: (current.get(u, (0.0, 1.0))[0] + n - r, 1.0) for u, r in ranks.items()}


async def play(store: Store, games: list[Game], first_channel: int = 0) -> None:
    for i, g in enumerate(games):
        row = await store.tables.create_table(
            guild_id=g.guild,
            channel_id=first_channel + i,
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
            channel_id=row.channel_id,
            game=g.game,
            record={"i": i},
            outcome={"finished": True},
            players=[
                PlayerResult(u, name, rank, won, pts, best)
                for u, name, rank, won, pts, best in g.places
            ],
            seed="s",
            has_bots=g.has_bots,
            finished_at=g.finished_at,
            seats=[{"id": u, "name": name, "bot": False} for u, name, *_ in g.places],
            season=g.season,
            rated=g.rated,
            rate=rule if g.rated else None,
        )
        assert await store.results.finish_table(row, result) is not None


class Oracle:
    """The boards, read again from the games themselves."""

    def __init__(self, games: list[Game]) -> None:
        self.games = games
        self.ratings: dict[str, dict[int, tuple[float, float, int]]] = {}
        self.season_ratings: dict[tuple[int, str, str], dict[int, tuple[float, float, int]]] = {}
        for g in games:
            if not g.rated:
                continue
            ranks = {u: rank for u, _, rank, *_ in g.places}
            books = [self.ratings.setdefault(g.game, {})]
            if g.guild is not None and g.season is not None:
                books.append(self.season_ratings.setdefault((g.guild, g.season, g.game), {}))
            for book in books:
                new = rule(ranks, {u: v[:2] for u, v in book.items()})
                for u, (mu, sigma) in new.items():
                    book[u] = (mu, sigma, book.get(u, (0, 0, 0))[2] + 1)

    def rows(self, game: str | None, guild: int | None, season: str | None):
        for i, g in enumerate(self.games, start=1):
            if (
                (game is None or g.game == game)
                and (guild is None or g.guild == guild)
                and (season is None or g.season == season)
            ):
                for place in g.places:
                    yield i, g, place

    def totals(self, game: str | None, guild: int | None, season: str | None, user=None):
        out: dict[tuple[str, int], dict[str, Any]] = {}
        for _, g, (u, name, _rank, won, pts, best) in self.rows(game, guild, season):
            if user is not None and u != user:
                continue
            t = out.setdefault(
                (g.game, u),
                {"name": name, "games": 0, "wins": 0, "points": 0, "best": None, "top": pts},
            )
            t["name"] = max(t["name"], name)
            t["games"] += 1
            t["wins"] += int(won)
            t["points"] += pts
            if best is not None and (t["best"] is None or best > t["best"]):
                t["best"] = best
            t["top"] = max(t["top"], pts)
        return out

    def book(self, game: str, guild: int | None, season: str | None):
        if season is not None:
            return self.season_ratings.get((guild, season, game), {}) if guild else {}
        return self.ratings.get(game, {})

    def leaderboard(self, game, guild, season, by, limit):
        board = []
        book = self.book(game, guild, season)
        for (_, u), t in self.totals(game, guild, season).items():
            rated = None
            if by == "rating":
                if u not in book:
                    continue
                mu, sigma, rated = book[u]
                value: Any = mu - 3 * sigma
            else:
                value = t[by]
                if value is None:
                    continue
            board.append(
                {
                    "user_id": u,
                    "name": t["name"],
                    "games": t["games"],
                    "wins": t["wins"],
                    "points": t["points"],
                    "best": t["best"],
                    "value": value,
                    "rated": rated,
                }
            )
        board.sort(key=lambda r: (-r["value"], -r["wins"], r["user_id"]))
        return board[:limit]

    def stats(self, user, game, guild, season):
        out = []
        for (g, _), t in sorted(self.totals(game, guild, season, user).items()):
            item = {"game": g, **{k: t[k] for k in ("games", "wins", "points", "best", "top")}}
            book = self.book(g, guild, season)
            if user in book:
                mu, sigma, _ = book[user]
                item["rating"] = mu - 3 * sigma
            out.append(item)
        return out

    def counts(self, game, guild, season):
        rows = list(self.rows(game, guild, season))
        return {
            "finished": len(rows),
            "rated": sum(int(g.rated) for _, g, _ in rows),
            "with_bots": sum(int(g.has_bots) for _, g, _ in rows),
        }

    def seasons(self, guild):
        return sorted({g.season for g in self.games if g.guild == guild and g.season}, reverse=True)

    def history(self, guild, user, limit, game=None):
        found = [
            (g.finished_at, i)
            for i, g in enumerate(self.games, start=1)
            if (guild is None or g.guild == guild)
            and (user is None or user in [p[0] for p in g.places])
            and (game is None or g.game == game)
        ]
        return [i for _, i in sorted(found, reverse=True)[:limit]]


def scopes(oracle: Oracle):
    yield None, None
    for guild in GUILDS:
        yield guild, None
        for season in (*SEASONS, "2025-01"):
            yield guild, season


async def check(store: Store, oracle: Oracle) -> int:
    """Every board, statistics, count, season list and history against the
    oracle; how many reads were compared."""
    b = store.boards
    n = 0
    for guild, season in scopes(oracle):
        for game in GAMES:
            for by in ("rating", "wins", "points", "best"):
                for limit in (3, 10, 100):
                    got = await b.leaderboard(
                        game, guild_id=guild, by=by, season=season, limit=limit
                    )
                    assert got == oracle.leaderboard(game, guild, season, by, limit), (
                        game,
                        guild,
                        season,
                        by,
                        limit,
                    )
                    n += 1
            got_counts = await b.board_counts(game, guild_id=guild, season=season)
            assert got_counts == oracle.counts(game, guild, season), (game, guild, season)
            n += 1
        for user in USERS:
            for game in (None, *GAMES):
                got_stats = await b.stats(user, game=game, guild_id=guild, season=season)
                assert got_stats == oracle.stats(user, game, guild, season), (
                    user,
                    game,
                    guild,
                    season,
                )
                n += 1
    for guild in GUILDS:
        assert await b.seasons(guild) == oracle.seasons(guild)
        n += 1
    for guild in (None, *GUILDS):  # None: every server's and direct messages' games
        for user in (None, *USERS):
            for game in (None, *GAMES):
                got_history = await store.results.history(
                    guild_id=guild, user_id=user, game=game, limit=5
                )
                assert [r["id"] for r in got_history] == oracle.history(guild, user, 5, game), (
                    guild,
                    user,
                    game,
                )
                n += 1
    return n


async def opened(target) -> Store:
    store = open_store(target)
    await store.open()
    return store


@pytest.mark.parametrize("seed", [1, 2])
@on_both_databases
async def test_the_kept_boards_equal_an_oracle_of_the_games(new_database, seed):
    games = history(seed, 60)
    store = await opened(await new_database())
    try:
        await play(store, games[:30])
        assert await check(store, Oracle(games[:30])) > 900
        # the history has what the order must settle: equal ordinals, names changed
        board = Oracle(games).leaderboard("nine", None, None, "rating", 100)
        assert len({r["value"] for r in board}) < len(board)
        assert any(len({p[1] for g in games for p in g.places if p[0] == u}) > 1 for u in USERS)
        await play(store, games[30:], first_channel=30)  # kept on, game by game
        await check(store, Oracle(games))
    finally:
        await store.close()


@on_both_databases
async def test_migration_10_back_fills_the_boards_of_a_schema_9_database(
    new_database, backend, monkeypatch
):
    """A database of schema 9 with its games (written as the code of schema 9
    did: no totals) opens on today's code, migrates, and its boards read
    the same as the oracle, and go on the same with the next games."""
    games = history(3, 70)
    target = await new_database()
    everything = (schema_postgres if backend == "postgres" else schema_sqlite).MIGRATIONS
    db = open_database(target)
    db.migrations = everything[:9]
    old = Store(db)
    await old.open()
    with monkeypatch.context() as m:

        def no_totals(self, result, *counts):  # schema 9 had none
            return []

        m.setattr(ResultsRepo, "_count", no_totals, raising=False)
        await play(old, games[:50])
    assert await old.schema_version() == 9
    await old.close()
    store = await opened(target)  # today's code: migrates at open
    try:
        assert await store.schema_version() == len(everything) >= 10
        await check(store, Oracle(games[:50]))
        await play(store, games[50:], first_channel=50)
        await check(store, Oracle(games))
    finally:
        await store.close()


@on_both_databases
async def test_copy_db_carries_the_kept_boards(new_database):
    games = history(4, 50)
    source = await opened(await new_database())
    copy = await opened(await new_database())
    try:
        await play(source, games[:40])
        counts = await copy.import_rows(await source.export_rows())
        assert counts["board_totals"] > 0 and counts["board_counts"] > 0
        await check(copy, Oracle(games[:40]))
        await play(copy, games[40:], first_channel=40)  # and they go on there
        await check(copy, Oracle(games))
    finally:
        await source.close()
        await copy.close()


async def test_the_upgrade_fixture_keeps_its_boards(tmp_path):
    """The database an earlier main wrote (tests/bot/upgrade/, schema 2, a
    finished Bluff game) migrates to today's and its boards, counts and
    statistics read what its rows say (read here with plain sqlite3)."""
    import shutil
    import sqlite3
    from pathlib import Path

    path = tmp_path / "old.sqlite3"
    shutil.copy(Path(__file__).parent / "upgrade" / "chabudai.sqlite3", path)
    with sqlite3.connect(path) as con:
        assert con.execute("SELECT MAX(version) FROM schema_version").fetchone()[0] < 10
        places = con.execute(
            "SELECT rp.guild_id, rp.game, rp.user_id, rp.name, rp.won, rp.points, rp.best,"
            " rp.rated, r.has_bots FROM result_players rp JOIN results r ON r.id = rp.result_id"
        ).fetchall()
        rated = {
            (g, u): (mu, sigma, n)
            for g, u, mu, sigma, n in con.execute(
                "SELECT game, user_id, mu, sigma, games FROM ratings"
            )
        }
    assert places
    store = await opened(path)
    try:
        for guild in {None, *(p[0] for p in places)}:
            for game in {p[1] for p in places}:
                mine = [p for p in places if p[1] == game and guild in (None, p[0])]
                users = sorted({p[2] for p in mine})
                want = {
                    u: {
                        "user_id": u,
                        "name": max(p[3] for p in mine if p[2] == u),
                        "games": sum(1 for p in mine if p[2] == u),
                        "wins": sum(p[4] for p in mine if p[2] == u),
                        "points": sum(p[5] for p in mine if p[2] == u),
                        "best": max(
                            (p[6] for p in mine if p[2] == u and p[6] is not None), default=None
                        ),
                    }
                    for u in users
                }
                wins = sorted(want.values(), key=lambda r: (-r["wins"], r["user_id"]))
                assert await store.boards.leaderboard(game, guild_id=guild, by="wins") == [
                    {**r, "value": r["wins"], "rated": None} for r in wins
                ]
                by_rating = sorted(
                    (
                        {
                            **r,
                            "value": rated[game, u][0] - 3 * rated[game, u][1],
                            "rated": rated[game, u][2],
                        }
                        for u, r in want.items()
                        if (game, u) in rated
                    ),
                    key=lambda r: (-r["value"], -r["wins"], r["user_id"]),
                )
                assert (
                    await store.boards.leaderboard(game, guild_id=guild, by="rating") == by_rating
                )
                assert await store.boards.board_counts(game, guild_id=guild) == {
                    "finished": len(mine),
                    "rated": sum(p[7] for p in mine),
                    "with_bots": sum(p[8] for p in mine),
                }
    finally:
        await store.close()
