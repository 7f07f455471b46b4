"""Finished games' storage: the finishing transaction (the table removed,
the result, its players and their ratings written together), the ratings
of all time and of each server's seasons, the leaderboards, statistics and
history read from them, the display names boards show, and the results
whose message is still to be shown."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, Protocol

from bot.db.core import Conn, Database, dumps
from bot.results.rows import Result
from bot.tables.rows import Ledger, TableRow

UNSHOWN = "unshown."  # meta key prefix: a result whose message is not shown yet (+ its id)

#: what ``copy-db`` moves of this concern (:mod:`bot.db.copy`), a result
#: before its players
COPIED = {
    "results": (
        (
            "id",
            "table_id",
            "guild_id",
            "channel_id",
            "game",
            "record",
            "outcome",
            "settlement",
            "seed",
            "has_bots",
            "finished_at",
            "seats",
            "host_id",
            "message_id",
            "season",
        ),
        "id",
        frozenset({"record", "outcome", "settlement", "seats"}),
    ),
    "result_players": (
        (
            "result_id",
            "user_id",
            "guild_id",
            "game",
            "name",
            "rank",
            "won",
            "points",
            "best",
            "rated",
            "finished_at",
            "season",
            "rating",
        ),
        "result_id, user_id",
        frozenset(),
    ),
    "ratings": (("game", "user_id", "mu", "sigma", "games"), "game, user_id", frozenset()),
    "season_ratings": (
        ("guild_id", "season", "game", "user_id", "mu", "sigma", "games"),
        "guild_id, season, game, user_id",
        frozenset(),
    ),
    # the boards' totals (migration 10; their ratings: 12): copied as they
    # are, not rebuilt
    "board_totals": (
        (
            "game",
            "guild_id",
            "season",
            "user_id",
            "name",
            "games",
            "wins",
            "points",
            "best",
            "top",
            "rating",
            "rated",
        ),
        "game, guild_id, season, user_id",
        frozenset(),
    ),
    "board_counts": (
        ("guild_id", "season", "game", "finished", "rated", "with_bots"),
        "guild_id, season, game",
        frozenset(),
    ),
}

EVERYWHERE = 0  # board_totals / board_counts: the scope of every server's games
ALL_SEASONS = ""  # ... and of every season's


def scopes(guild_id: int | None, season: str | None) -> list[tuple[int, str]]:
    """The boards' scopes a game of ``guild_id`` in ``season`` counts in:
    every server's, its server's, its server season's."""
    out = [(EVERYWHERE, ALL_SEASONS)]
    if guild_id is not None:
        out.append((guild_id, ALL_SEASONS))
        if season is not None:
            out.append((guild_id, season))
    return out


def scope_of(guild_id: int | None, season: str | None) -> tuple[int, str] | None:
    """The kept scope a board of ``guild_id`` / ``season`` reads (``None``:
    a season of every server, which no command asks for: read from the rows)."""
    if guild_id is None:
        return None if season is not None else (EVERYWHERE, ALL_SEASONS)
    return (guild_id, ALL_SEASONS if season is None else season)


def equal(prefix: str, **columns: Any) -> tuple[str, list[Any]]:
    """``col = ? AND …`` for the ``columns`` given a value (not ``None``), in
    their order, each named with ``prefix`` (a table's alias), and the
    values."""
    given = [(name, value) for name, value in columns.items() if value is not None]
    return " AND ".join(f"{prefix}{name} = ?" for name, _ in given), [v for _, v in given]


async def read_ratings(
    c: Conn, game: str, user_ids: Sequence[int]
) -> dict[int, tuple[float, float]]:
    if not user_ids:
        return {}
    marks = ",".join("?" * len(user_ids))
    rows = await c.fetch(
        f"SELECT user_id, mu, sigma FROM ratings WHERE game = ? AND user_id IN ({marks})",
        (game, *user_ids),
    )
    return {r[0]: (r[1], r[2]) for r in rows}


async def _read_rated(
    c: Conn, game: str, user_ids: Sequence[int], season: tuple[int, str] | None
) -> tuple[dict[int, tuple[float, float, int]], dict[int, tuple[float, float, int]]]:
    """The players' all-time ``(mu, sigma, games)`` of ``game`` and, with
    ``season`` (a server's: guild id, season), that season's own — in one
    statement (a hop less to SQLite's thread than one a table)."""
    if not user_ids:
        return {}, {}
    marks = ",".join("?" * len(user_ids))
    sql = (
        "SELECT 0, user_id, mu, sigma, games FROM ratings"
        f" WHERE game = ? AND user_id IN ({marks})"
    )
    args: list[Any] = [game, *user_ids]
    if season is not None:
        sql += (
            " UNION ALL SELECT 1, user_id, mu, sigma, games FROM season_ratings"
            f" WHERE guild_id = ? AND season = ? AND game = ? AND user_id IN ({marks})"
        )
        args += [*season, game, *user_ids]
    books: tuple[dict[int, tuple[float, float, int]], ...] = ({}, {})
    for book, user_id, mu, sigma, games in await c.fetch(sql, args):
        books[int(book)][int(user_id)] = (float(mu), float(sigma), int(games))
    return books[0], books[1]


async def _players_ratings(
    c: Conn, columns: str, user_id: int, guild_id: int | None, season: str | None
) -> list[Sequence[Any]]:
    """``columns`` of a player's ratings by game: all-time, or (``season``)
    that server season's own."""
    if season is not None:
        return await c.fetch(
            f"SELECT {columns} FROM season_ratings WHERE user_id = ? AND guild_id = ? AND season = ?",
            (user_id, guild_id, season),
        )
    # by the ratings' key: the games any result was finished in, then the player
    return await c.fetch(
        f"SELECT {columns} FROM ratings WHERE game IN (SELECT game FROM board_counts"
        f" WHERE guild_id = {EVERYWHERE} AND season = '{ALL_SEASONS}') AND user_id = ?",
        (user_id,),
    )


class Finishing(Protocol):
    """What finishing a game needs of the live tables' storage
    (:class:`bot.tables.repo.TablesRepo`): the table removed, with its
    ledger line, inside the finishing transaction."""

    async def remove(self, tx: Conn, row: Any, ledger: Any, now: float) -> bool: ...


class ResultsRepo:
    """The ``results``, ``result_players``, ``ratings`` and
    ``season_ratings`` tables (and the ``meta`` notes of results not shown)."""

    def __init__(self, db: Database, tables: Finishing) -> None:
        self.db = db
        self.tables = tables

    async def finish_table(
        self,
        row: TableRow,
        result: Result,
        *,
        ledger: Ledger | None = None,
        screen: dict[str, Any] | None = None,
    ) -> int | None:
        """In one transaction: check the version, store the result, its
        players and ratings (read and written inside it, so two games sharing
        a player that finish at once both count), and remove the live table.
        ``screen``: what the result message is drawn from, kept until it is
        shown (:meth:`unshown_results`), so a failed edit or a process killed
        before it still ends with the result on screen. ``None`` = stale."""
        async with self.db.transaction() as tx:
            result_id: int | None = None
            if await self.tables.remove(tx, row, ledger, result.finished_at):
                result_id = await self._store(tx, result)
            if result_id is not None and screen is not None:
                await self.db.put_meta(tx, [(f"{UNSHOWN}{result_id}", dumps(screen))])
        if result_id is not None:
            row.version += 1
        return result_id

    async def unshown_results(self, finished_before: float) -> dict[int, dict[str, Any]]:
        """The results whose message is not shown yet (result id → what it
        is drawn from, :meth:`finish_table`'s ``screen``), finished at or
        before ``finished_before`` (the repair sweep)."""
        rows = await self.db.meta_prefixed(UNSHOWN)
        found = {int(key[len(UNSHOWN) :]): json.loads(value) for key, value in rows}
        return {k: v for k, v in found.items() if float(v.get("at", 0.0)) <= finished_before}

    async def results_shown(self, result_ids: Sequence[int]) -> None:
        """The messages of these results show them now: nothing to repair."""
        await self.db.drop_meta([f"{UNSHOWN}{i}" for i in result_ids])

    async def _store(self, tx: Conn, result: Result) -> int:
        """Inside the finishing transaction: the result, its players and
        their new ratings (read and written under the game's ratings lock)."""
        # one lock per game's ratings, not per row: a player's row may not
        # exist yet, and finishing is rare enough to take turns. An unrated
        # game takes it too: the boards' rows it writes copy the player's
        # all-time rating, which a rated game finishing meanwhile would change
        await self.db.lock_in_transaction(tx, f"chabudai.ratings.{result.game}")
        # the games each player's rating counted before this one (all-time,
        # the season's): what the boards' rows show as its rated games
        counted: dict[int, int] = {}
        counted_season: dict[int, int] = {}
        if result.rate is not None:
            ranks = {p.user_id: p.rank for p in result.players}
            season = (
                (result.guild_id, result.season)
                if result.season is not None and result.guild_id is not None
                else None
            )
            current, now_season = await _read_rated(tx, result.game, list(ranks), season)
            counted = {u: n for u, (_, _, n) in current.items()}
            result.ratings = result.rate(ranks, {u: v[:2] for u, v in current.items()})
            if season is not None:
                # the season's ratings: fresh (the model's defaults) for a
                # player's first game of the season, under the same lock
                counted_season = {u: n for u, (_, _, n) in now_season.items()}
                result.season_ratings = result.rate(
                    ranks, {u: v[:2] for u, v in now_season.items()}
                )
        settlement = {str(p.user_id): p.points for p in result.players}
        r = await tx.fetchone(
            "INSERT INTO results (table_id, guild_id, channel_id, game, record, outcome,"
            " settlement, seed, has_bots, finished_at, seats, host_id, message_id, season)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
            (
                result.table_id,
                result.guild_id,
                result.channel_id,
                result.game,
                dumps(result.record),
                dumps(result.outcome),
                dumps(settlement),
                result.seed,
                int(result.has_bots),
                result.finished_at,
                dumps(result.seats) if result.seats is not None else None,
                result.host_id,
                result.message_id,
                result.season,
            ),
        )
        assert r is not None
        result_id = int(r[0])
        rated = int(not result.has_bots if result.rated is None else result.rated)
        steps = [
            (
                "INSERT INTO result_players (result_id, user_id, guild_id, game, name, rank, won,"
                " points, best, rated, finished_at, season, rating)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    (
                        result_id,
                        p.user_id,
                        result.guild_id,
                        result.game,
                        p.name,
                        p.rank,
                        int(p.won),
                        p.points,
                        p.best,
                        rated,
                        result.finished_at,
                        result.season,
                        # the displayed all-time rating after this game (mu − 3σ)
                        (
                            result.ratings[p.user_id][0] - 3 * result.ratings[p.user_id][1]
                            if p.user_id in result.ratings
                            else None
                        ),
                    )
                    for p in result.players
                ],
            ),
            *self._count(result, rated, counted, counted_season),
        ]
        if result.ratings:
            steps.append(
                (
                    "INSERT INTO ratings (game, user_id, mu, sigma, games) VALUES (?, ?, ?, ?, 1)"
                    " ON CONFLICT (game, user_id) DO UPDATE SET mu = excluded.mu,"
                    " sigma = excluded.sigma, games = ratings.games + 1",
                    sorted((result.game, uid, mu, sigma) for uid, (mu, sigma) in result.ratings.items()),
                )
            )
        if result.season_ratings:
            steps.append(
                (
                    "INSERT INTO season_ratings (guild_id, season, game, user_id, mu, sigma, games)"
                    " VALUES (?, ?, ?, ?, ?, ?, 1)"
                    " ON CONFLICT (guild_id, season, game, user_id) DO UPDATE SET mu = excluded.mu,"
                    " sigma = excluded.sigma, games = season_ratings.games + 1",
                    sorted(
                        (result.guild_id, result.season, result.game, uid, mu, sigma)
                        for uid, (mu, sigma) in result.season_ratings.items()
                    ),
                )
            )
        # every write of the game after its id, in one hop to SQLite's thread
        # (one executemany a table: SQLite runs a prepared one-row upsert
        # again faster than it runs one of many rows)
        await tx.executemany_all(steps)
        return result_id

    def _count(
        self,
        result: Result,
        rated: int,
        counted: dict[int, int],
        counted_season: dict[int, int],
    ) -> list[tuple[str, list[Any]]]:
        """The statements that add the game's places to the boards' totals
        of each scope it counts in (migration 10) with the ratings their
        boards sort by (migration 12), and its counts, in key order (two
        games finishing at once lock the rows in one order). ``counted``,
        ``counted_season``: the games each player's all-time and season
        rating counted before this game (:meth:`_store` read them)."""

        def rating(season: str, user_id: int) -> tuple[float | None, int | None]:
            """The rating a row of ``season`` shows after this game and its
            rated games (``None``: unchanged, or none yet)."""
            book, before = (
                (result.ratings, counted)
                if season == ALL_SEASONS
                else (result.season_ratings, counted_season)
            )
            if user_id not in book:
                return None, None
            mu, sigma = book[user_id]
            return mu - 3 * sigma, before.get(user_id, 0) + 1

        places = sorted(
            (
                result.game,
                guild,
                season,
                p.user_id,
                p.name,
                int(p.won),
                p.points,
                p.best,
                p.points,
                *rating(season, p.user_id),
            )
            for guild, season in scopes(result.guild_id, result.season)
            for p in result.players
        )
        n = len(result.players)
        steps = [
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
            )
        ]
        if not places:
            return steps
        if result.ratings:  # the new ratings, as computed
            new = "?, ?"
        else:
            # no rating changed: a row new to its board (a player's first
            # game in a server) copies the player's all-time rating, if any;
            # a season's row has its season's only from a rated game of it
            new = (
                "(SELECT mu - 3 * sigma FROM ratings WHERE game = ? AND user_id = ? AND ? = ''),"
                " (SELECT games FROM ratings WHERE game = ? AND user_id = ? AND ? = '')"
            )
            places = [
                (*place[:-2], game, user, season, game, user, season)
                for place in places
                for game, _guild, season, user in [place[:4]]
            ]
        steps.insert(
            0,
            (
                "INSERT INTO board_totals (game, guild_id, season, user_id, name, games, wins,"
                f" points, best, top, rating, rated) VALUES (?, ?, ?, ?, ?, 1, ?, ?, ?, ?, {new})"
                " ON CONFLICT (game, guild_id, season, user_id) DO UPDATE SET"
                " name = CASE WHEN excluded.name > board_totals.name THEN excluded.name"
                " ELSE board_totals.name END, games = board_totals.games + 1,"
                " wins = board_totals.wins + excluded.wins,"
                " points = board_totals.points + excluded.points,"
                " best = CASE WHEN board_totals.best IS NULL OR excluded.best > board_totals.best"
                " THEN excluded.best ELSE board_totals.best END,"
                " top = CASE WHEN excluded.top > board_totals.top THEN excluded.top"
                " ELSE board_totals.top END,"
                # a game that changes no rating keeps the row's
                " rating = COALESCE(excluded.rating, board_totals.rating),"
                " rated = COALESCE(excluded.rated, board_totals.rated)",
                places,
            ),
        )
        if result.ratings:
            # a player's all-time rating is on the board of every server
            # they played the game in: their rows of the other servers
            # (board_totals_user; this server's and every server's row are
            # the upsert's)
            steps.insert(
                1,
                (
                    "UPDATE board_totals SET rating = ?, rated = ? WHERE user_id = ? AND game = ?"
                    " AND season = '' AND guild_id <> 0 AND guild_id <> ?",
                    [
                        (
                            *rating(ALL_SEASONS, user_id),
                            user_id,
                            result.game,
                            result.guild_id or EVERYWHERE,
                        )
                        for user_id in sorted(result.ratings)
                    ],
                ),
            )
        return steps

    async def history(
        self,
        *,
        guild_id: int | None,
        user_id: int | None = None,
        game: str | None = None,
        limit: int = 10,
    ) -> list[dict[str, Any]]:
        """The last finished games, newest first: of a server
        (``guild_id``), and/or with ``user_id`` among the players, of
        ``game``. Each with where its result message is, its seed, seats,
        outcome and places (``players``, as :meth:`get_result`)."""
        cols = ("id", "guild_id", "channel_id", "message_id", "game", "seed", "finished_at",
                "outcome", "seats")  # fmt: skip
        if user_id is not None:
            # a player's games from their own places, newest first
            # (result_players_user, which holds all it needs: migration 13):
            # as many rows as the player has games there, however long the
            # server's history (the server's newest results walked until ten
            # had the player grew with the server)
            where, args = equal("rp.", user_id=user_id, guild_id=guild_id, game=game)
            sql = (
                f"SELECT {', '.join('r.' + c for c in cols)}"
                " FROM result_players rp CROSS JOIN results r"
                f" WHERE {where} AND r.id = rp.result_id"
                " ORDER BY rp.finished_at DESC, rp.result_id DESC LIMIT ?"
            )
        else:
            where, args = equal("", guild_id=guild_id, game=game)
            sql = (
                f"SELECT {', '.join(cols)} FROM results"
                + (f" WHERE {where}" if args else "")
                + " ORDER BY finished_at DESC, id DESC LIMIT ?"
            )
        args = [*args, limit]
        async with self.db.reading() as c:
            rows = await c.fetch(sql, args)
            ids = [r[0] for r in rows]
            places: dict[int, list[dict[str, Any]]] = {i: [] for i in ids}
            if ids:
                marks = ",".join("?" * len(ids))
                for p in await c.fetch(
                    "SELECT result_id, user_id, name, rank, won, points FROM result_players"
                    f" WHERE result_id IN ({marks}) ORDER BY rank, name",
                    ids,
                ):
                    places[p[0]].append(
                        {
                            "user_id": p[1],
                            "name": p[2],
                            "rank": p[3],
                            "won": bool(p[4]),
                            "points": p[5],
                        }
                    )
        return [
            {
                "id": r[0],
                "guild_id": r[1],
                "channel_id": r[2],
                "message_id": r[3],
                "game": r[4],
                "seed": r[5],
                "finished_at": float(r[6]),
                "outcome": json.loads(r[7]),
                "seats": json.loads(r[8]) if r[8] is not None else None,
                "players": places[r[0]],
            }
            for r in rows
        ]

    async def all(self, *, game: str | None = None) -> list[dict[str, Any]]:
        """Finished games, oldest first (for tests and tools)."""
        sql = "SELECT id, game, record, outcome, settlement, seed, has_bots, guild_id FROM results"
        args: tuple[Any, ...] = ()
        if game is not None:
            sql += " WHERE game = ?"
            args = (game,)
        async with self.db.reading() as c:
            rows = await c.fetch(sql + " ORDER BY id", args)
        return [
            {
                "id": r[0],
                "game": r[1],
                "record": json.loads(r[2]),
                "outcome": json.loads(r[3]),
                "settlement": json.loads(r[4]),
                "seed": r[5],
                "has_bots": bool(r[6]),
                "guild_id": r[7],
            }
            for r in rows
        ]

    async def get_result(self, result_id: int) -> dict[str, Any] | None:
        """One finished game: its record, outcome, places and where it was
        played (``None`` if there is no such result)."""
        async with self.db.reading() as c:
            r = await c.fetchone(
                "SELECT id, table_id, guild_id, channel_id, game, record, outcome, settlement,"
                " seed, has_bots, finished_at, seats, host_id, message_id, season FROM results"
                " WHERE id = ?",
                (result_id,),
            )
            if r is None:
                return None
            players = await c.fetch(
                "SELECT user_id, name, rank, won, points, best, rated FROM result_players"
                " WHERE result_id = ? ORDER BY rank, name",
                (result_id,),
            )
        return {
            "id": r[0],
            "table_id": r[1],
            "guild_id": r[2],
            "channel_id": r[3],
            "game": r[4],
            "record": json.loads(r[5]),
            "outcome": json.loads(r[6]),
            "settlement": json.loads(r[7]),
            "seed": r[8],
            "has_bots": bool(r[9]),
            "finished_at": float(r[10]),
            # the seats and host (None for games finished before migration 4)
            "seats": json.loads(r[11]) if r[11] is not None else None,
            "host_id": r[12],
            "message_id": r[13],  # the result message (None before migration 5)
            "season": r[14],
            "players": [
                {
                    "user_id": p[0],
                    "name": p[1],
                    "rank": p[2],
                    "won": bool(p[3]),
                    "points": p[4],
                    "best": p[5],
                    "rated": bool(p[6]),
                }
                for p in players
            ],
        }

    async def result_of_table(
        self, table_id: int, *, guild_id: int, game: str, since: float
    ) -> int | None:
        """The stored result of the game of ``game`` played at table
        ``table_id`` in server ``guild_id``, if it finished at ``since`` or
        later (a tournament's match: the tournament's start) — read from
        that server's results of the game since then (``results_guild_game``),
        not from every result ever stored (no index has the table)."""
        async with self.db.reading() as c:
            r = await c.fetchone(
                "SELECT id FROM results WHERE guild_id = ? AND game = ? AND finished_at >= ?"
                " AND table_id = ? ORDER BY id DESC LIMIT 1",
                (guild_id, game, since, table_id),
            )
        return None if r is None else int(r[0])


class BoardsRepo:
    """What is read from the finished games: the ratings (all-time and each
    server season's), leaderboards, statistics and the names boards show."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def ratings(self, game: str, user_ids: Sequence[int]) -> dict[int, tuple[float, float]]:
        async with self.db.reading() as c:
            return await read_ratings(c, game, user_ids)

    async def leaderboard(
        self,
        game: str,
        *,
        guild_id: int | None,
        by: str,
        limit: int = 10,
        season: str | None = None,
    ) -> list[dict[str, Any]]:
        """Top players of ``game`` (``guild_id=None`` = every server).

        ``by``: ``rating`` (mu − 3σ, rated games), ``wins``, ``points`` (sum of
        settlement) or ``best``. ``season`` (a server's, so with ``guild_id``):
        only that season's games, and its own ratings. Each row's ``rated``
        is its rated games (by rating; ``None`` otherwise: bot.ratings.shown).
        """
        scope = scope_of(guild_id, season)
        async with self.db.reading() as c:
            if scope is None:
                rows = await self._leaderboard_of_rows(c, game, guild_id, by, limit, season)
            elif by == "rating":
                rows = await self._rating_board(c, game, scope, limit)
            else:
                column = {"wins": "wins", "points": "points", "best": "best"}[by]
                extra = " AND best IS NOT NULL" if by == "best" else ""
                # the order of the board's index (by wins: wins, then the user)
                then = "" if by == "wins" else ", wins DESC"
                if scope == (EVERYWHERE, ALL_SEASONS):  # written in: its index is partial
                    where = f"guild_id = {EVERYWHERE} AND season = '{ALL_SEASONS}'"
                    args: tuple[Any, ...] = (game, limit)
                else:  # a server's, a season's: by the key, then sorted
                    where = "guild_id = ? AND season = ?"
                    args = (game, *scope, limit)
                rows = await c.fetch(
                    f"SELECT user_id, name, games, wins, points, best, {column} AS value,"
                    f" NULL AS rated FROM board_totals WHERE game = ? AND {where}{extra}"
                    f" ORDER BY {column} DESC{then}, user_id LIMIT ?",
                    args,
                )
        keys = ("user_id", "name", "games", "wins", "points", "best", "value", "rated")
        return [dict(zip(keys, r, strict=True)) for r in rows]

    async def _rating_board(
        self, c: Conn, game: str, scope: tuple[int, str], limit: int
    ) -> list[Sequence[Any]]:
        """A board by rating from the kept totals alone (migration 12): each
        row keeps the rating its scope's board shows — the all-time one on
        every server's and a server's rows, the season's own on a season's —
        read by board_totals_rating as the first ``limit`` rows in the order
        of the other boards (value, wins, user): flat however long the
        history and however many players the server has."""
        return await c.fetch(
            "SELECT user_id, name, games, wins, points, best, rating AS value, rated"
            " FROM board_totals WHERE game = ? AND guild_id = ? AND season = ?"
            " AND rating IS NOT NULL ORDER BY rating DESC, wins DESC, user_id LIMIT ?",
            (game, *scope, limit),
        )

    async def _leaderboard_of_rows(
        self, c: Conn, game: str, guild_id: int | None, by: str, limit: int, season: str | None
    ) -> list[Sequence[Any]]:
        """A board no kept total holds (a season of every server: no command
        asks for one), read from the result rows."""
        where, args = equal("rp.", game=game, guild_id=guild_id, season=season)
        agg = (
            "SELECT rp.user_id, MAX(rp.name) AS name, COUNT(*) AS games, SUM(rp.won) AS wins,"
            " SUM(rp.points) AS points, MAX(rp.best) AS best"
            f" FROM result_players rp WHERE {where} GROUP BY rp.user_id"
        )
        if by == "rating":  # a season's ratings are a server's: none of every server
            return []
        column = {"wins": "wins", "points": "points", "best": "best"}[by]
        extra = " WHERE best IS NOT NULL" if by == "best" else ""
        sql = (
            f"SELECT user_id, name, games, wins, points, best, {column} AS value,"
            f" NULL AS rated FROM ({agg}) a{extra} ORDER BY value DESC, wins DESC, user_id"
            " LIMIT ?"
        )
        return await c.fetch(sql, [*args, limit])

    async def stats(
        self,
        user_id: int,
        *,
        game: str | None,
        guild_id: int | None,
        season: str | None = None,
    ) -> list[dict[str, Any]]:
        """Per-game statistics of one player (optionally one game / server /
        that server's ``season``, whose ratings are the season's own)."""
        scope = scope_of(guild_id, season)
        async with self.db.reading() as c:
            if scope is None:  # a season of every server: no command asks for it
                where, args = equal("", user_id=user_id, game=game, season=season)
                rows = await c.fetch(
                    "SELECT game, COUNT(*), SUM(won), SUM(points), MAX(best), MAX(points)"
                    f" FROM result_players WHERE {where} GROUP BY game ORDER BY game",
                    args,
                )
            else:  # the kept totals, by their key (the games: those with any result)
                games = (
                    "game = ?"
                    if game is not None
                    else "game IN (SELECT game FROM board_counts WHERE guild_id = ? AND season = ?)"
                )
                rows = await c.fetch(
                    "SELECT game, games, wins, points, best, top FROM board_totals"
                    f" WHERE {games} AND guild_id = ? AND season = ? AND user_id = ? ORDER BY game",
                    (
                        *((game,) if game is not None else (EVERYWHERE, ALL_SEASONS)),
                        *scope,
                        user_id,
                    ),
                )
            out = [
                {"game": g, "games": n, "wins": wins, "points": points, "best": best, "top": top}
                for g, n, wins, points, best, top in rows
            ]
            if out:
                rated = await _players_ratings(c, "game, mu, sigma", user_id, guild_id, season)
                ratings = {g: (mu, sigma) for g, mu, sigma in rated}
                for item in out:
                    if item["game"] in ratings:
                        mu, sigma = ratings[item["game"]]
                        item["rating"] = mu - 3 * sigma
        return out

    async def rated_games(
        self, user_id: int, *, guild_id: int | None = None, season: str | None = None
    ) -> dict[str, int]:
        """How many rated games each of a player's ratings counts, by game
        (all-time; a server's ``season``'s own with ``guild_id``): below
        bot.ratings.PROVISIONAL_GAMES the rating is shown provisional."""
        async with self.db.reading() as c:
            rows = await _players_ratings(c, "game, games", user_id, guild_id, season)
        return {str(g): int(n) for g, n in rows}

    async def board_counts(
        self, game: str, *, guild_id: int | None, season: str | None = None
    ) -> dict[str, int]:
        """Why a board may be empty: the places in finished games of ``game``
        (a server's / a season's, as :meth:`leaderboard`) — ``finished``
        all of them, ``rated`` those of rated games, ``with_bots`` those of
        games with computer players."""
        scope = scope_of(guild_id, season)
        async with self.db.reading() as c:
            if scope is None:  # a season of every server: no command asks for it
                where, args = equal("rp.", game=game, season=season)
                row = await c.fetchone(
                    "SELECT COUNT(*), COALESCE(SUM(rp.rated), 0), COALESCE(SUM(r.has_bots), 0)"
                    f" FROM result_players rp JOIN results r ON r.id = rp.result_id WHERE {where}",
                    args,
                )
            else:
                row = await c.fetchone(
                    "SELECT finished, rated, with_bots FROM board_counts"
                    " WHERE guild_id = ? AND season = ? AND game = ?",
                    (*scope, game),
                )
        row = row or (0, 0, 0)
        return {"finished": int(row[0]), "rated": int(row[1]), "with_bots": int(row[2])}

    async def rating_trend(self, user_id: int, game: str, *, limit: int = 20) -> list[float]:
        """A player's all-time rating after each of their last rated games
        of ``game``, oldest first (the stats card's chart)."""
        async with self.db.reading() as c:
            rows = await c.fetch(
                "SELECT rating FROM result_players WHERE user_id = ? AND game = ?"
                " AND rating IS NOT NULL ORDER BY finished_at DESC, result_id DESC LIMIT ?",
                (user_id, game, limit),
            )
        return [float(r[0]) for r in reversed(rows)]

    async def seasons(self, guild_id: int) -> list[str]:
        """The seasons of a server that have finished games, newest first."""
        async with self.db.reading() as c:
            rows = await c.fetch(
                "SELECT DISTINCT season FROM board_counts WHERE guild_id = ? AND season <> ?"
                " ORDER BY season DESC",
                (guild_id, ALL_SEASONS),
            )
        return [str(r[0]) for r in rows]

    async def display_names(self, user_ids: Sequence[int]) -> dict[int, str]:
        """Each user's display name at their latest finished game that kept
        its seats (results since migration 4), for boards that name people
        as they chose (``result_players.name`` is the engine name, "Bob_Smith");
        users without such a game are left out."""
        ids = sorted({int(u) for u in user_ids})
        if not ids:
            return {}
        # each user's latest game with its seats, read back from their newest
        # place (result_players_user, newest first: one result row read per
        # user, not every game they played — 5.6 ms for 10 users at 10^7
        # places when each user's every game was joined)
        one = (
            "SELECT * FROM (SELECT rp.user_id, r.id, r.seats FROM result_players rp"
            " JOIN results r ON r.id = rp.result_id WHERE rp.user_id = ? AND r.seats IS NOT NULL"
            " ORDER BY rp.finished_at DESC LIMIT 1) AS u{}"
        )
        latest: list[Sequence[Any]] = []
        async with self.db.reading() as c:
            for i in range(0, len(ids), 100):  # SQLite: at most 500 SELECTs in one compound
                part = ids[i : i + 100]
                latest += await c.fetch(
                    " UNION ALL ".join(one.format(n) for n in range(len(part))), tuple(part)
                )
        out: dict[int, str] = {}
        for user_id, _result_id, seats in latest:
            for seat in json.loads(seats):
                if seat.get("id") == int(user_id) and not seat.get("bot"):
                    out[int(user_id)] = str(seat.get("display") or seat.get("name"))
        return out
