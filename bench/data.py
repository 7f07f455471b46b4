"""History at scale (issue 35): fill a database with a synthetic history of
N player results, then time every read a user can trigger and the write of
finishing a game. Prints p50/p99 (ms) per query and size, and the growth from
10^5 (else the second size) to the largest. A bench, not a test: it prints its figures.

    PYTHONPATH=$PWD python bench/data.py --sizes 1e4,1e5,1e6
    PYTHONPATH=$PWD python bench/data.py --pg --sizes 1e4,1e5,1e6

The history: 10,000 servers (5% of games in DMs), players = N/10 (at least
10,000, at most 10^6), each with a home server; games of 2-4 players of all
five games, 70% of a server's games in a monthly season (12 of them), 20%
with a computer (unrated); all-time and season ratings for the rated
players; 1% of results reviewed; a tournament per 5,000 player results (8
entrants, 3 rounds). It is written straight into the tables (executemany in
big transactions; the indexes of results and result_players after the rows,
SQLite without journal for the fill, PostgreSQL by COPY) at schema 9, then
the store migrates it to today's schema
(the migration's back-fill is timed: ``migrate``). ``--pg`` runs the same on
a throwaway PostgreSQL (tests/bot/pgcluster.py; durability off).

Every size is filled and migrated first, then the reads are timed with the
sizes taking turns (five rounds of each read at each size in turn), so a
load that drifts over the run weighs on every size alike. ``--keep DIR``
(SQLite) keeps each size's fill and copies it on the next run.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import pickle
import random
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "bot"))

from pgcluster import Cluster, why_not, with_database  # noqa: E402

from bot import ratings  # noqa: E402
from bot.db import schema_postgres, schema_sqlite  # noqa: E402
from bot.results.rows import PlayerResult, Result  # noqa: E402
from bot.storage import Store, open_database  # noqa: E402

GAMES = ("sixdice", "bluff", "nine", "yahtzee", "sixtysix")
SERVERS = 10_000
SEASONS = [f"2026-{m:02d}" for m in range(1, 13)]
FILLED_AT = 9  # the schema the history is written at (then migrated)
SHAPE = 2  # the generator's version: a kept fill (--keep) of another is not used
BATCH = 50_000  # player results per transaction
BUDGET = 4.0  # seconds of timing per query and size (at least MIN_REPS)
REPS, MIN_REPS = 100, 5
ROUNDS = 5  # the sizes take turns: each read timed in ROUNDS parts at each size


class History:
    """The synthetic history's shape, kept for the queries' arguments."""

    def __init__(self, size: int, seed: int = 35) -> None:
        self.size = size
        self.rng = random.Random(seed)
        self.players = min(10**6, max(10_000, size // 10))
        self.home = [self.rng.randrange(1, SERVERS + 1) for _ in range(self.players)]
        by_server: dict[int, list[int]] = {}
        for i, g in enumerate(self.home):
            by_server.setdefault(g, []).append(1_000_000 + i)
        self.members = by_server
        self.guilds = list(by_server)
        self.result_ids: list[int] = []
        self.seasons_of: dict[int, set[str]] = {}
        self.tournaments: list[tuple[int, int]] = []  # (id, guild)
        self.reviewed: list[int] = []

    def user(self, guild: int | None) -> int:
        if guild is not None and self.members.get(guild):
            return self.rng.choice(self.members[guild])
        return 1_000_000 + self.rng.randrange(self.players)

    def guild(self) -> int:
        return self.rng.choice(self.guilds)


MOVES = range(100)


def record_doc(rng: random.Random) -> str:
    return json.dumps({"v": 1, "moves": rng.choices(MOVES, k=40)})


RESULTS = (
    "id", "table_id", "guild_id", "channel_id", "game", "record", "outcome", "settlement",
    "seed", "has_bots", "finished_at", "seats", "host_id", "message_id", "season",
)
PLACES = (
    "result_id", "user_id", "guild_id", "game", "name", "rank", "won", "points", "best",
    "rated", "finished_at", "season", "rating",
)
BULK = ("results", "result_players")  # the tables filled row by row (their indexes after)


async def write(tx: Any, pg: bool, table: str, columns: tuple[str, ...], rows: list[Any]) -> None:
    """``rows`` into ``table``: PostgreSQL's COPY (asyncpg's binary
    ``copy_records_to_table``), SQLite's prepared INSERT."""
    if not rows:
        return
    if pg:
        await tx.conn.copy_records_to_table(table, records=rows, columns=list(columns))
    else:
        marks = ", ".join("?" * len(columns))
        await tx.executemany(f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks})", rows)


@asynccontextmanager
async def bulk(store: Store) -> AsyncIterator[None]:
    """For the fill only: the indexes of the row-by-row tables dropped, then
    built once after the rows (as a migration's back-fill does); on SQLite
    no journal and no sync (a crash mid-fill loses a bench's scratch file)."""
    pg = store.is_postgres
    async with store.db.reading() as c:
        if pg:
            rows = await c.fetch(
                "SELECT indexname, indexdef FROM pg_indexes WHERE tablename IN"
                " ('results', 'result_players') AND indexname NOT IN"
                " (SELECT conname FROM pg_constraint)"
            )
        else:
            rows = await c.fetch(
                "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL"
                " AND tbl_name IN ('results', 'result_players')"
            )
            await c.execute("PRAGMA journal_mode=OFF")
            await c.execute("PRAGMA synchronous=OFF")
            await c.execute("PRAGMA cache_size=-262144")  # 256 MB while the indexes are built
        for name, _ in rows:
            await c.execute(f"DROP INDEX {name}")
    try:
        yield
    finally:
        async with store.db.transaction() as tx:
            for _, sql in rows:
                await tx.execute(sql)
        if not pg:
            async with store.db.reading() as c:
                await c.execute("PRAGMA cache_size=-2000")
                await c.execute("PRAGMA synchronous=NORMAL")
                await c.execute("PRAGMA journal_mode=WAL")


async def fill(store: Store, h: History) -> None:
    """N player results, their ratings, reviews and tournaments, written
    straight into the tables."""
    async with bulk(store):
        await fill_rows(store, h)


async def fill_rows(store: Store, h: History) -> None:
    rng = h.rng
    db = store.db
    pg = store.is_postgres
    mu_sigma: dict[tuple[str, int], tuple[float, float, int]] = {}
    season_r: dict[tuple[int, str, str, int], tuple[float, float, int]] = {}
    written = 0
    result_id = 0
    t0 = 1_700_000_000.0
    while written < h.size:
        results: list[tuple[Any, ...]] = []
        players: list[tuple[Any, ...]] = []
        while written < h.size and len(players) < BATCH:
            result_id += 1
            guild: int | None = None if rng.random() < 0.05 else h.guild()
            game = rng.choice(GAMES)
            n = min(rng.randint(2, 4), h.size - written) or 1
            users: list[int] = []
            while len(users) < n:
                u = h.user(guild) if rng.random() < 0.9 else h.user(None)
                if u not in users:
                    users.append(u)
            has_bots = rng.random() < 0.2
            at = t0 + result_id * 10.0
            season = (
                SEASONS[min(11, result_id * 12 // max(1, h.size // 3))]
                if guild is not None and rng.random() < 0.7
                else None
            )
            seats = [{"id": u, "name": f"P{u}", "display": f"Player {u}", "bot": False} for u in users]
            outcome = {"winner": f"P{users[0]}", "finished": True}
            points = [rng.randint(-30, 60) for _ in users]
            results.append(
                (
                    result_id, result_id, guild, 10_000 + (guild or 0), game,
                    record_doc(rng), json.dumps(outcome),
                    json.dumps({str(u): p for u, p in zip(users, points, strict=True)}),
                    f"seed{result_id}", int(has_bots), at, json.dumps(seats), users[0],
                    result_id * 7, season,
                )
            )
            h.result_ids.append(result_id)
            if guild is not None and season is not None:
                h.seasons_of.setdefault(guild, set()).add(season)
            for rank, (u, p) in enumerate(zip(users, points, strict=True), start=1):
                rating = None
                if not has_bots:
                    mu, sigma, games = mu_sigma.get((game, u), (25.0, 25 / 3, 0))
                    mu += rng.uniform(-1, 1.2)
                    sigma = max(1.0, sigma * 0.97)
                    mu_sigma[(game, u)] = (mu, sigma, games + 1)
                    rating = mu - 3 * sigma
                    if season is not None and guild is not None:
                        smu, ssig, sg = season_r.get((guild, season, game, u), (25.0, 25 / 3, 0))
                        season_r[(guild, season, game, u)] = (
                            smu + rng.uniform(-1, 1.2), max(1.0, ssig * 0.97), sg + 1,
                        )
                best = None if game in ("bluff", "nine") else rng.randint(0, 300)
                players.append(
                    (
                        result_id, u, guild, game, f"P{u}", rank, int(rank == 1), p, best,
                        int(not has_bots), at, season, rating,
                    )
                )
            written += n
        async with db.transaction() as tx:
            await write(tx, pg, "results", RESULTS, results)
            await write(tx, pg, "result_players", PLACES, players)
    rows = [(g, u, mu, s, n) for (g, u), (mu, s, n) in mu_sigma.items()]
    srows = [(g, s, game, u, mu, sg, n) for (g, s, game, u), (mu, sg, n) in season_r.items()]
    reviews = [
        (rid, "v1", json.dumps({"players": [], "turns": list(range(50))}), 0.0)
        for rid in h.result_ids[:: 100]
    ]
    h.reviewed = [r[0] for r in reviews]
    async with db.transaction() as tx:
        for i in range(0, len(rows), BATCH):
            await write(
                tx, pg, "ratings", ("game", "user_id", "mu", "sigma", "games"), rows[i : i + BATCH]
            )
        for i in range(0, len(srows), BATCH):
            await write(
                tx, pg, "season_ratings",
                ("guild_id", "season", "game", "user_id", "mu", "sigma", "games"),
                srows[i : i + BATCH],
            )
        await write(tx, pg, "reviews", ("result_id", "engine", "review", "created_at"), reviews)
        tournaments, entrants, matches = [], [], []
        for tid in range(1, max(2, h.size // 5000) + 1):
            guild = h.guild()
            game = rng.choice(GAMES)
            tournaments.append(
                (
                    tid, guild, 20_000 + guild, game, "swiss", 3, 2, "{}", None, None, 0, 0,
                    h.user(guild), "en", "finished", 3, tid, tid, 5, t0 + tid, t0 + tid + 9,
                )
            )
            h.tournaments.append((tid, guild))
            # eight entrants at every size: the server's members first (at
            # 10^5 a server has one or two), then anyone's
            people = list(dict.fromkeys(h.user(guild) for _ in range(8)))
            while len(people) < 8:
                people = list(dict.fromkeys([*people, h.user(None)]))
            for seed, u in enumerate(people, start=1):
                entrants.append((tid, u, f"P{u}", 0.0, seed, "checked_in", t0 + tid))
            for rnd in range(1, 4):
                for num in range(len(people) // 2):
                    pair = people[2 * num : 2 * num + 2]
                    matches.append(
                        (
                            tid, rnd, num + 1, json.dumps(pair), None, None, None, "finished",
                            json.dumps({str(pair[0]): 1, str(pair[1]): 0}),
                            json.dumps({str(pair[0]): 5, str(pair[1]): 2}),
                        )
                    )
        await tx.executemany(
            "INSERT INTO tournaments (id, guild_id, channel_id, game, format, rounds, table_size,"
            " options, clock_seconds, starts_at, checkin_seconds, cpu_fill, host_id, lang, state,"
            " round, message_id, standings_message_id, version, created_at, finished_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            tournaments,
        )
        await tx.executemany(
            "INSERT INTO tournament_players (tournament_id, user_id, name, rating, seed, status,"
            " joined_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
            entrants,
        )
        await tx.executemany(
            "INSERT INTO tournament_matches (tournament_id, round, number, seats, thread_id,"
            " table_id, result_id, state, points, scores) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            matches,
        )
    if store.is_postgres:
        async with db.transaction() as tx:  # the identity columns go on after the ids written
            for name in ("results", "tournaments", "tournament_matches"):
                await tx.execute(
                    f"SELECT setval(pg_get_serial_sequence('{name}', 'id'),"
                    f" (SELECT MAX(id) FROM {name}))"
                )
        async with db.reading() as c:
            await c.execute("ANALYZE")


async def admin(url: str, sql: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(url)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


#: the hot queries' plans (``--explain``: printed at the largest size), as
#: the repositories send them; guild 0 / season '' = every server's totals
PLANS: dict[str, tuple[str, tuple[Any, ...]]] = {
    "board global wins": (
        "SELECT user_id, name, games, wins, points, best, wins AS value, NULL AS rated"
        " FROM board_totals WHERE game = ? AND guild_id = 0 AND season = ''"
        " ORDER BY wins DESC, user_id LIMIT ?",
        ("nine", 10),
    ),
    "board global points": (
        "SELECT user_id, name, games, wins, points, best, points AS value, NULL AS rated"
        " FROM board_totals WHERE game = ? AND guild_id = 0 AND season = ''"
        " ORDER BY points DESC, wins DESC, user_id LIMIT ?",
        ("nine", 10),
    ),
    "board global best": (
        "SELECT user_id, name, games, wins, points, best, best AS value, NULL AS rated"
        " FROM board_totals WHERE game = ? AND guild_id = 0 AND season = '' AND best IS NOT NULL"
        " ORDER BY best DESC, wins DESC, user_id LIMIT ?",
        ("yahtzee", 10),
    ),
    "board global rating": (
        "SELECT user_id, name, games, wins, points, best, rating AS value, rated"
        " FROM board_totals WHERE game = ? AND guild_id = ? AND season = ?"
        " AND rating IS NOT NULL ORDER BY rating DESC, wins DESC, user_id LIMIT ?",
        ("nine", 0, "", 10),
    ),
    "board server rating": (
        "SELECT user_id, name, games, wins, points, best, rating AS value, rated"
        " FROM board_totals WHERE game = ? AND guild_id = ? AND season = ?"
        " AND rating IS NOT NULL ORDER BY rating DESC, wins DESC, user_id LIMIT ?",
        ("nine", 5, "", 10),
    ),
    "board season rating": (
        "SELECT user_id, name, games, wins, points, best, rating AS value, rated"
        " FROM board_totals WHERE game = ? AND guild_id = ? AND season = ?"
        " AND rating IS NOT NULL ORDER BY rating DESC, wins DESC, user_id LIMIT ?",
        ("nine", 5, "2026-01", 10),
    ),
    "finish: the player's rows of the other servers (a rated game)": (
        "UPDATE board_totals SET rating = ?, rated = ? WHERE user_id = ? AND game = ?"
        " AND season = '' AND guild_id <> 0 AND guild_id <> ?",
        (20.0, 9, 1_000_005, "nine", 5),
    ),
    "stats": (
        "SELECT game, games, wins, points, best, top FROM board_totals WHERE game IN"
        " (SELECT game FROM board_counts WHERE guild_id = ? AND season = ?) AND guild_id = ?"
        " AND season = ? AND user_id = ? ORDER BY game",
        (0, "", 0, "", 1_000_005),
    ),
    "stats: the ratings, rated_games": (
        "SELECT game, mu, sigma FROM ratings WHERE game IN (SELECT game FROM board_counts"
        " WHERE guild_id = 0 AND season = '') AND user_id = ?",
        (1_000_005,),
    ),
    "board_counts": (
        "SELECT finished, rated, with_bots FROM board_counts"
        " WHERE guild_id = ? AND season = ? AND game = ?",
        (0, "", "nine"),
    ),
    "seasons (autocomplete)": (
        "SELECT DISTINCT season FROM board_counts WHERE guild_id = ? AND season <> ?"
        " ORDER BY season DESC",
        (5, ""),
    ),
    "history server": (
        "SELECT id FROM results WHERE guild_id = ? ORDER BY finished_at DESC, id DESC LIMIT ?",
        (5, 10),
    ),
    "history server user": (
        "SELECT r.id FROM result_players rp CROSS JOIN results r WHERE rp.user_id = ?"
        " AND rp.guild_id = ? AND r.id = rp.result_id"
        " ORDER BY rp.finished_at DESC, rp.result_id DESC LIMIT ?",
        (1_000_005, 5, 10),
    ),
    "history DM user": (
        "SELECT r.id FROM result_players rp CROSS JOIN results r WHERE rp.user_id = ?"
        " AND r.id = rp.result_id ORDER BY rp.finished_at DESC, rp.result_id DESC LIMIT ?",
        (1_000_005, 10),
    ),
}


async def explain(store: Store) -> None:
    """The plans of :data:`PLANS` (placeholders as the store sends them)."""
    async with store.db.reading() as c:
        for name, (sql, args) in PLANS.items():
            if store.is_postgres:
                rows = await c.fetch("EXPLAIN " + sql, args)
                lines = [str(r[0]) for r in rows]
            else:
                rows = await c.fetch("EXPLAIN QUERY PLAN " + sql, args)
                lines = [str(r[3]) for r in rows]
            print(f"-- {name}")
            for line in lines:
                print(f"    {line}")


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def rows_of(answer: Any) -> int:
    """How many rows a read returned (a list's or a dict's length; else 1)."""
    return len(answer) if isinstance(answer, (list, dict)) else int(answer is not None)


async def timed(
    call: Callable[[], Awaitable[Any]], parts: int = 1
) -> tuple[list[float], list[int]]:
    """Calls of ``call`` timed: :data:`REPS` (at most :data:`BUDGET`
    seconds, at least :data:`MIN_REPS`), each divided by ``parts``; their
    milliseconds and the rows each returned."""
    out: list[float] = []
    rows: list[int] = []
    spent = 0.0
    while len(out) < REPS // parts and (spent < BUDGET / parts or len(out) < MIN_REPS):
        t = time.perf_counter()
        answer = await call()
        dt = time.perf_counter() - t
        out.append(dt * 1000)
        rows.append(rows_of(answer))
        spent += dt
    return out, rows


def queries(store: Store, h: History) -> dict[str, Callable[[], Awaitable[Any]]]:
    """Every read a user can trigger, each with fresh random arguments."""
    rng = random.Random(7)
    b, r = store.boards, store.results

    def seasoned() -> tuple[int, str]:
        guild = rng.choice(list(h.seasons_of)) if h.seasons_of else h.guild()
        return guild, rng.choice(sorted(h.seasons_of.get(guild, {"2026-01"})))

    def board(scope: str, by: str) -> Callable[[], Awaitable[Any]]:
        async def run() -> Any:
            game = rng.choice(GAMES)
            if scope == "global":
                return await b.leaderboard(game, guild_id=None, by=by)
            if scope == "server":
                return await b.leaderboard(game, guild_id=h.guild(), by=by)
            guild, season = seasoned()
            return await b.leaderboard(game, guild_id=guild, by=by, season=season)

        return run

    def old() -> int:
        return h.result_ids[rng.randrange(max(1, len(h.result_ids) // 10))]

    async def finish() -> Any:
        raise NotImplementedError  # timed on its own (finish_times)

    out: dict[str, Callable[[], Awaitable[Any]]] = {}
    for scope in ("global", "server", "season"):
        for by in ("rating", "wins", "points", "best"):
            out[f"board {scope} {by}"] = board(scope, by)
    out["board_counts global"] = lambda: b.board_counts(rng.choice(GAMES), guild_id=None)
    out["board_counts server"] = lambda: b.board_counts(rng.choice(GAMES), guild_id=h.guild())

    async def counts_season() -> Any:
        guild, season = seasoned()
        return await b.board_counts(rng.choice(GAMES), guild_id=guild, season=season)

    out["board_counts season"] = counts_season
    out["display_names (10)"] = lambda: b.display_names([h.user(None) for _ in range(10)])
    out["stats all"] = lambda: b.stats(h.user(None), game=None, guild_id=None)

    async def stats_server() -> Any:
        guild = h.guild()
        return await b.stats(h.user(guild), game=None, guild_id=guild)

    async def stats_season() -> Any:
        guild, season = seasoned()
        return await b.stats(h.user(guild), game=None, guild_id=guild, season=season)

    out["stats server"] = stats_server
    out["stats season"] = stats_season
    out["rated_games"] = lambda: b.rated_games(h.user(None))
    out["rating_trend"] = lambda: b.rating_trend(h.user(None), rng.choice(GAMES))
    out["seasons (autocomplete)"] = lambda: b.seasons(h.guild())
    out["history server"] = lambda: r.history(guild_id=h.guild(), limit=10)
    out["history server game"] = lambda: r.history(
        guild_id=h.guild(), game=rng.choice(GAMES), limit=10
    )

    async def history_user() -> Any:
        guild = h.guild()
        return await r.history(guild_id=guild, user_id=h.user(guild), limit=10)

    out["history server user"] = history_user
    out["history DM user"] = lambda: r.history(guild_id=None, user_id=h.user(None), limit=10)
    out["history DM user game"] = lambda: r.history(
        guild_id=None, user_id=h.user(None), game=rng.choice(GAMES), limit=10
    )
    out["review's last game"] = lambda: r.history(guild_id=h.guild(), user_id=h.user(None), limit=1)
    out["get_result (old)"] = lambda: r.get_result(old())
    out["get_review (old)"] = lambda: store.reviews.get_review(
        rng.choice(h.reviewed) if h.reviewed else 1, "v1"
    )
    out["tournament history"] = lambda: store.tournaments.guild_tournaments(
        rng.choice(h.tournaments)[1]
    )
    out["tournament standings"] = lambda: store.tournaments.matches(rng.choice(h.tournaments)[0])
    out["tournament entrants"] = lambda: store.tournaments.entrants(rng.choice(h.tournaments)[0])
    del finish
    return out


async def finish_times(store: Store, h: History, reps: int, first: int = 0) -> list[float]:
    """Finishing a rated 3-player game in a season (ratings, season ratings,
    the result, its players, and whatever the store keeps with them);
    ``first``: the first game's number (its channel)."""
    rng = random.Random(11 + first)
    out = []
    for i in range(first, first + reps):
        guild = h.guild()
        users = list({h.user(guild) for _ in range(3)})
        row = await store.tables.create_table(
            guild_id=guild, channel_id=9_000_000 + i, game="nine", host_id=users[0], seats=[],
            options={}, now=0.0,
        )
        assert row is not None
        result = Result(
            table_id=row.id, guild_id=guild, channel_id=row.channel_id, game="nine",
            record={"v": 1, "moves": [rng.randrange(100) for _ in range(40)]},
            outcome={"finished": True},
            players=[
                PlayerResult(u, f"P{u}", rank, rank == 1, rng.randint(-20, 40), None)
                for rank, u in enumerate(users, start=1)
            ],
            seed="s", has_bots=False, finished_at=time.time(),
            seats=[{"id": u, "name": f"P{u}", "bot": False} for u in users],
            host_id=users[0], season="2026-12", rate=ratings.rate,
        )
        t = time.perf_counter()
        done = await store.results.finish_table(row, result)
        out.append((time.perf_counter() - t) * 1000)
        assert done is not None
    return out


async def filled(target: str, size: int, pg: bool, keep: str) -> tuple[History, float]:
    """``target`` filled with the history of ``size`` at schema
    :data:`FILLED_AT` (closed); the seconds it took. ``keep`` (SQLite): a
    folder where the filled file and its history's shape are kept, and
    copied from when they are there (the fill of 10^7 takes minutes)."""
    kept = Path(keep) / f"schema{FILLED_AT}-v{SHAPE}-{size}.db" if keep and not pg else None
    if kept is not None and kept.exists() and kept.with_suffix(".history").exists():
        shutil.copy(kept, target)
        with kept.with_suffix(".history").open("rb") as f:
            return pickle.load(f), 0.0
    h = History(size)
    db = open_database(target)
    db.migrations = (schema_postgres if pg else schema_sqlite).MIGRATIONS[:FILLED_AT]
    store = Store(db)
    await store.open()
    try:
        t = time.perf_counter()
        await fill(store, h)
        took = time.perf_counter() - t
    finally:
        await store.close()
    if kept is not None:
        kept.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(target, kept)
        with kept.with_suffix(".history").open("wb") as f:
            pickle.dump(h, f)
    return h, took


async def prepare(target: str, size: int, pg: bool, keep: str) -> tuple[History, float]:
    """``target`` filled (:func:`filled`), migrated to today's schema and
    closed; the history's shape and the migration's seconds. Closed, so
    that the reads are timed as a bot meets them after its upgrade: the
    store opened again (SQLite's write-ahead log folded into the file when
    the last connection closed, PostgreSQL vacuumed and analyzed as
    autovacuum does within minutes of a bulk write) and the fill's
    gigabytes written out by the OS (``sync``) — not while they are still
    being written back."""
    h, fill_s = await filled(target, size, pg, keep)
    everything = (schema_postgres if pg else schema_sqlite).MIGRATIONS
    db = open_database(target)
    db.migrations = everything[:FILLED_AT]
    store = Store(db)
    await store.open()
    try:
        t = time.perf_counter()
        version = await store.migrate(everything)
        migrated = time.perf_counter() - t
        if pg:
            async with store.db.reading() as c:
                await c.execute("VACUUM ANALYZE")
    finally:
        await store.close()
    os.sync()
    print(
        f"# {size:.0e} player results: filled in {fill_s:.1f} s (0: a kept fill),"
        f" migrated to {version} in {migrated:.2f} s",
        flush=True,
    )
    return h, migrated


async def measure(
    targets: dict[int, str],
    shapes: dict[int, History],
    finishes: int,
    finish_only: bool,
    returned: dict[int, dict[str, list[int]]],
) -> dict[int, dict[str, tuple[float, float, int]]]:
    """Every read, the sizes taking turns (:data:`ROUNDS` rounds of each
    read at each size in turn, then the next read): the machine's load,
    which drifts over a run of many minutes, weighs on every size alike,
    so the growth from one size to another is the code's. ``returned``:
    the rows each read returned, by size and read (filled in)."""
    stores = {size: Store(open_database(t)) for size, t in targets.items()}
    for store in stores.values():
        await store.open()
    try:
        calls = {size: queries(stores[size], shapes[size]) for size in stores}
        times: dict[int, dict[str, list[float]]] = {size: {} for size in stores}
        names = [] if finish_only else list(next(iter(calls.values())))
        for name in names:
            for _ in range(ROUNDS):
                for size in stores:
                    ms, rows = await timed(calls[size][name], ROUNDS)
                    times[size].setdefault(name, []).extend(ms)
                    returned[size].setdefault(name, []).extend(rows)
        for k in range(ROUNDS):
            for size in stores:
                ms = await finish_times(
                    stores[size], shapes[size], max(1, finishes // ROUNDS), first=k * finishes
                )
                times[size].setdefault("finish_table", []).extend(ms)
        return {
            size: {
                name: (statistics.median(ms), pct(ms, 0.99), len(ms))
                for name, ms in found.items()
            }
            for size, found in times.items()
        }
    finally:
        for store in stores.values():
            await store.close()


async def main_async(args: argparse.Namespace) -> int:
    sizes = [int(float(s)) for s in args.sizes.split(",")]
    cluster = None
    if args.pg:
        why = why_not()
        if why:
            print(f"no PostgreSQL: {why}")
            return 1
        cluster = Cluster()
        url = cluster.start()
    try:
        with tempfile.TemporaryDirectory(prefix="chabudai-data-") as tmp:
            targets: dict[int, str] = {}
            shapes: dict[int, History] = {}
            migrated: dict[int, float] = {}
            for n, size in enumerate(sizes):
                if cluster is not None:
                    name = f"data{n}"
                    await admin(url, f"CREATE DATABASE {name}")
                    targets[size] = with_database(url, name)
                else:
                    targets[size] = str(Path(tmp) / f"data{n}.db")
                shapes[size], migrated[size] = await prepare(
                    targets[size], size, args.pg, args.keep
                )
            returned: dict[int, dict[str, list[int]]] = {size: {} for size in sizes}
            table = await measure(targets, shapes, args.finishes, args.finish_only, returned)
            for size in sizes:
                table[size]["(migrate, s)"] = (migrated[size], migrated[size], 1)
            report(table)
            report_rows(returned)
            if args.explain:
                store = Store(open_database(targets[sizes[-1]]))
                await store.open()
                try:
                    await explain(store)
                finally:
                    await store.close()
    finally:
        if cluster is not None:
            cluster.stop()
    return 0


def report(table: dict[int, dict[str, tuple[float, float, int]]]) -> None:
    sizes = sorted(table)
    names = list(table[sizes[0]])
    head = "| query | " + " | ".join(f"{s:.0e} p50 / p99 ms" for s in sizes)
    grow = len(sizes) > 2
    base = sizes[0]
    if grow:  # the growth: from 10^5
        base = 100_000 if 100_000 in sizes[:-1] else sizes[1]
    span = f"{base:.0e}→{sizes[-1]:.0e}" if grow else ""
    print(head + (f" | p50, p99 {span} |" if grow else " |"))
    print("|---" * (len(sizes) + 1 + int(grow)) + "|")
    for name in names:
        cells = [f"{table[s][name][0]:.2f} / {table[s][name][1]:.2f}" for s in sizes]
        line = f"| {name} | " + " | ".join(cells)
        if grow:
            a, b = table[base][name], table[sizes[-1]][name]
            line += f" | {b[0] / max(1e-6, a[0]):.2f}×, {b[1] / max(1e-6, a[1]):.2f}×"
        print(line + " |", flush=True)


def report_rows(returned: dict[int, dict[str, list[int]]]) -> None:
    """The reads whose answers differ in size from the first size to the
    last (the history's shape: at 10^5 a server has 1-2 players a game and
    ~2 results of one game, at 10^7 ~100 and hundreds): the mean rows each
    returned, so that a read's growth can be read per row."""
    sizes = sorted(returned)
    if len(sizes) < 2:
        return
    means = {s: {n: statistics.fmean(r) for n, r in returned[s].items() if r} for s in sizes}
    names = [
        n
        for n in means[sizes[0]]
        if abs(means[sizes[-1]][n] - means[sizes[0]][n]) > 0.25 * max(1.0, means[sizes[0]][n])
    ]
    if not names:
        return
    print()
    print("| rows a read returned (mean) | " + " | ".join(f"{s:.0e}" for s in sizes) + " |")
    print("|---" * (len(sizes) + 1) + "|")
    for n in names:
        print(f"| {n} | " + " | ".join(f"{means[s][n]:.1f}" for s in sizes) + " |", flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="1e4,1e5,1e6", help="player results, comma-separated")
    parser.add_argument("--pg", action="store_true", help="a throwaway PostgreSQL, not SQLite")
    parser.add_argument("--finishes", type=int, default=60, help="games finished, timed")
    parser.add_argument("--finish-only", action="store_true", help="time finishing alone")
    parser.add_argument(
        "--keep", default="", help="SQLite: keep each size's fill in this folder, reuse it after"
    )
    parser.add_argument(
        "--explain", action="store_true", help="the hot queries' plans at the largest size"
    )
    return asyncio.run(main_async(parser.parse_args()))


if __name__ == "__main__":
    sys.exit(main())
