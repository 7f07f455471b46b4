"""The store: migrations (an old database with a game in progress, several
processes opening a fresh one at once), the optimistic version check, the
bookkeeping writes, results and ratings — on SQLite and on PostgreSQL."""

from __future__ import annotations

import asyncio
import sqlite3

import pytest
from simtable import downgrade_to_v1, on_both_databases, on_postgres

from bot.db.core import StoreError
from bot.db.schema_sqlite import MIGRATIONS
from bot.db.sqlite import SqliteDatabase
from bot.results.rows import PlayerResult, Result
from bot.storage import Store, open_store
from bot.tables.rows import Ledger
from games.core import SeededSource

DICE = SeededSource("bot-store-tests").roll(600)


async def _opened(target) -> Store:
    store = open_store(target)
    await store.open()
    return store


def test_the_path_or_url_picks_the_backend(tmp_path):
    from bot.db.postgres import PostgresDatabase

    assert type(open_store(tmp_path / "db.sqlite3").db) is SqliteDatabase
    assert type(open_store("postgresql://u@/db?host=/tmp").db) is PostgresDatabase
    assert type(Store(tmp_path / "db.sqlite3").db) is SqliteDatabase  # Store(path): SQLite
    assert type(Store("postgres://u@h/db").db) is PostgresDatabase  # Store(url): PostgreSQL


@on_both_databases
async def test_fresh_database_migrates_to_the_latest_schema(new_database, backend):
    target = await new_database()
    store = await _opened(target)
    assert await store.schema_version() == len(MIGRATIONS)
    await store.close()
    await store.open()  # idempotent
    assert await store.schema_version() == len(MIGRATIONS)
    await store.close()
    if backend == "sqlite":
        with sqlite3.connect(target) as db:
            assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


@on_both_databases
async def test_three_processes_open_a_fresh_database_at_once(new_database):
    """Each opens, reads the schema version and migrates; one migrates, the
    others wait for its lock and find the schema done (before: ``database is
    locked`` or ``table tables already exists``)."""
    target = await new_database()
    stores = [open_store(target) for _ in range(3)]
    await asyncio.gather(*(s.open() for s in stores))
    try:
        assert [await s.schema_version() for s in stores] == [len(MIGRATIONS)] * 3
        row = await stores[0].tables.create_table(
            guild_id=1, channel_id=2, game="nine", host_id=3, seats=[], options={}, now=0.0
        )
        assert row is not None and (await stores[2].tables.get_table(row.id)) == row
    finally:
        for s in stores:
            await s.close()


@on_both_databases
async def test_version_check_refuses_a_second_writer(new_database):
    store = await _opened(await new_database())
    row = await store.tables.create_table(
        guild_id=1, channel_id=2, game="nine", host_id=3, seats=[], options={}, now=0.0
    )
    assert row is not None
    again = await store.tables.create_table(
        guild_id=1, channel_id=2, game="nine", host_id=4, seats=[], options={}, now=0.0
    )
    assert again is None  # one table per channel
    copy = await store.tables.get_table(row.id)
    assert copy is not None
    row.ui = {"a": 1}
    assert await store.tables.save_table(row, now=1.0)
    copy.ui = {"b": 2}
    assert not await store.tables.save_table(copy, now=1.0)  # stale version
    fresh = await store.tables.get_table(row.id)
    assert fresh is not None and fresh.ui == {"a": 1} and fresh.version == 1
    assert await store.tables.delete_table(copy) is False
    assert await store.tables.delete_table(fresh) is True
    assert await store.tables.live_tables() == []
    await store.close()


async def test_a_sqlite_save_with_its_ledger_line_is_one_round_trip(tmp_path):
    """A save and its ledger line (BEGIN IMMEDIATE, UPDATE, INSERT, COMMIT)
    go to aiosqlite's thread in one hop, not four (each hop costs the event
    loop ~45 µs of CPU and waits for the thread), and are counted as four
    statements; a stale save writes nothing and a failing one rolls back."""
    store = await _opened(tmp_path / "db.sqlite3")
    try:
        row = await store.tables.create_table(
            guild_id=1, channel_id=2, game="nine", host_id=3, seats=[], options={}, now=0.0
        )
        assert row is not None and isinstance(store.db, SqliteDatabase)
        hops = []
        hop = store.db.connection._execute

        def counted(*args, **kwargs):
            hops.append(1)
            return hop(*args, **kwargs)

        store.db.connection._execute = counted
        heard: list[str] = []
        store.db.on_statement = heard.append
        before = store.db.statements
        row.ui = {"a": 1}
        assert await store.tables.save_table(row, now=1.0, ledger=Ledger("start", "press", "a"))
        assert len(hops) == 1
        assert [sql.split()[0] for sql in heard] == ["BEGIN", "UPDATE", "INSERT", "COMMIT"]
        assert store.db.statements - before == 4
        stale = await store.tables.get_table(row.id)
        assert stale is not None
        stale.version -= 1  # someone was first: nothing written, no ledger line
        assert not await store.tables.save_table(stale, now=2.0, ledger=Ledger("x", "press", "a"))
        # the ledger line of this version exists already: the UPDATE is undone too
        await store.db._x(
            "INSERT INTO moves (table_id, version, actor, move, origin, process, at)"
            " VALUES (?, 2, NULL, 'taken', 'press', 'test', 0)",
            (row.id,),
        )
        row.ui = {"b": 2}
        with pytest.raises(sqlite3.IntegrityError):
            await store.tables.save_table(row, now=3.0, ledger=Ledger("y", "press", "a"))
        assert not store.db.connection._conn.in_transaction
        fresh = await store.tables.get_table(row.id)
        assert fresh is not None and fresh.version == 1 and fresh.ui == {"a": 1}
        assert [m["move"] for m in await store.tables.ledger(row.id)] == ["start", "taken"]
    finally:
        await store.close()


async def test_a_state_loaded_again_is_not_parsed_again(tmp_path):
    """A table's state JSON as the store last wrote or read it is kept
    parsed: loading the same text shares it (states are replaced, never
    changed in place); a state another process wrote is read afresh."""
    path = tmp_path / "db.sqlite3"
    store, other = await _opened(path), await _opened(path)
    try:
        row = await store.tables.create_table(
            guild_id=1, channel_id=2, game="nine", host_id=3, seats=[], options={}, now=0.0
        )
        assert row is not None
        row.state = {"moves": ["a roll"]}
        assert await store.tables.save_table(row, now=1.0)
        first, second = await store.tables.get_table(row.id), await store.tables.get_table(row.id)
        assert first is not None and second is not None
        assert first.state is row.state and second.state is row.state
        theirs = await other.tables.get_table(row.id)
        assert theirs is not None and theirs.state == row.state
        theirs.state = {"moves": ["a roll", "b roll"]}
        assert await other.tables.save_table(theirs, now=2.0)
        mine = await store.tables.get_table(row.id)
        assert mine is not None and mine.state == {"moves": ["a roll", "b roll"]}
        mine.ui = {"seen": 1}  # a UI change keeps the state as it was
        assert await store.tables.save_table(mine, now=3.0)
        again = await other.tables.get_table(row.id)
        assert again is not None and again.state == mine.state and again.ui == {"seen": 1}
    finally:
        await store.close()
        await other.close()


@on_both_databases
async def test_discord_ids_and_times_keep_every_digit(new_database):
    """64-bit snowflakes and unix times to the millisecond come back as written
    (PostgreSQL: BIGINT and DOUBLE PRECISION; a REAL would move a clock by a
    minute)."""
    store = await _opened(await new_database())
    big = 1_234_567_890_123_456_789
    now = 1_767_225_600.125
    row = await store.tables.create_table(
        guild_id=big,
        channel_id=big + 1,
        game="nine",
        host_id=big + 2,
        seats=[],
        options={},
        now=now,
    )
    assert row is not None
    assert (row.guild_id, row.channel_id, row.host_id, row.created_at) == (
        big,
        big + 1,
        big + 2,
        now,
    )
    row.deadline = now + 60.5
    assert await store.tables.save_table(row, now=now + 1)
    await store.tables.set_message(row.id, big + 3)
    assert await store.tables.next_deadline(now) == now + 60.5
    assert [r.id for r in await store.tables.due_tables(now + 60.5)] == [row.id]
    assert await store.tables.due_tables(now + 60.4) == []
    again = await store.tables.table_in_channel(big + 1)
    assert again is not None and again.message_id == big + 3 and again.deadline == now + 60.5
    await store.close()


@on_both_databases
async def test_bookkeeping_writes_shown_ui_and_clock(new_database):
    store = await _opened(await new_database())
    rows = []
    for channel in (10, 11):
        row = await store.tables.create_table(
            guild_id=1, channel_id=channel, game="nine", host_id=3, seats=[], options={}, now=0.0
        )
        assert row is not None
        row.ui = {"keep": [1, 2], "ping": 5}
        row.shown = row.version
        assert await store.tables.save_table(row, now=1.0)  # version 1, shown 0: behind
        rows.append(row)
    assert [r.id for r in await store.tables.behind_tables(1.0)] == [r.id for r in rows]
    assert await store.tables.behind_tables(0.5) == []  # changed too recently
    await store.tables.set_shown({rows[0].id: 1})
    await store.tables.set_shown({rows[0].id: 0})  # never backwards
    assert [r.id for r in await store.tables.behind_tables(1.0)] == [rows[1].id]
    # a save carrying an older shown version does not move it back either
    rows[0].shown = 0
    assert await store.tables.save_table(rows[0], now=2.0)
    assert (await store.tables.get_table(rows[0].id)).shown == 1  # type: ignore[union-attr]
    # ui patched key by key, whatever the version; None removes a key
    await store.tables.patch_ui({rows[0].id: {"ping": None, "dm": {"bob": 7}}, rows[1].id: {"ping": 6}})
    first, second = await store.tables.get_table(rows[0].id), await store.tables.get_table(rows[1].id)
    assert first is not None and first.ui == {"keep": [1, 2], "dm": {"bob": 7}}
    assert second is not None and second.ui == {"keep": [1, 2], "ping": 6}
    # a key's value is replaced whole, not merged into
    await store.tables.patch_ui({first.id: {"dm": {"carol": 8}}})
    assert (await store.tables.get_table(first.id)).ui["dm"] == {"carol": 8}  # type: ignore[union-attr]
    # a save writes only the keys it changed: another process's key stays
    await store.tables.patch_ui({second.id: {"theirs": 1}})
    second.ui["keep"] = [3]
    assert await store.tables.save_table(second, now=3.0, ui_patch={"keep": [3], "ping": None})
    assert (await store.tables.get_table(second.id)).ui == {"keep": [3], "theirs": 1}  # type: ignore[union-attr]
    # the clock warning: whoever writes first wins
    expected = dict(first.clock)
    first.clock = {"warned": 1}
    assert await store.tables.set_clock(first, expected)
    first.clock = {"warned": 2}
    assert not await store.tables.set_clock(first, expected)
    stored = await store.tables.get_table(first.id)
    assert stored is not None and stored.clock == {"warned": 1}
    await store.close()


@on_both_databases
async def test_guild_settings_are_cached_and_replaced(new_database, backend):
    target = await new_database()
    store, other = await _opened(target), await _opened(target)
    assert await store.settings.guild_setting(1, "lang") is None
    await store.settings.set_guild_setting(1, "lang", "ja")
    await store.settings.set_guild_setting(1, "clock.nine", {"seconds": 45})
    assert await store.settings.guild_setting(1, "lang") == "ja"
    assert await other.settings.guild_setting(1, "clock.nine") == {"seconds": 45}
    await other.settings.set_guild_setting(1, "lang", "en")
    assert await other.settings.guild_setting(1, "lang") == "en"
    if backend == "sqlite":  # one process per file: this process's cache
        assert await store.settings.guild_setting(1, "lang") == "ja"
    else:  # PostgreSQL: the other process's change is heard (NOTIFY)
        for _ in range(100):
            if await store.settings.guild_setting(1, "lang") == "en":
                break
            await asyncio.sleep(0.01)
        assert await store.settings.guild_setting(1, "lang") == "en"
    await store.close()
    await other.close()


def _result(row, players, *, rate=None) -> Result:
    return Result(
        table_id=row.id,
        guild_id=row.guild_id,
        channel_id=row.channel_id,
        game=row.game,
        record={"z": 1, "a": [1, 2]},
        outcome={"winner": players[0][1], "finished": True},
        players=[
            PlayerResult(user_id=uid, name=name, rank=rank, won=rank == 1, points=pts, best=pts)
            for rank, (uid, name, pts) in enumerate(players, start=1)
        ],
        seed="s",
        has_bots=False,
        finished_at=100.0,
        rate=rate,
    )


def _plus_one(ranks, current):
    """A rating rule the test can count: each game adds 1 to mu."""
    return {uid: (current.get(uid, (0.0, 1.0))[0] + 1, 1.0) for uid in ranks}


@on_both_databases
async def test_two_games_sharing_a_player_finish_at_once_and_both_count(new_database):
    """Ratings are read and written inside the finishing transaction: the
    second game rates on the first's result, never on the same old rating."""
    target = await new_database()
    stores = [await _opened(target) for _ in range(2)]  # two processes
    rows = []
    for channel in range(4):
        row = await stores[0].tables.create_table(
            guild_id=1, channel_id=channel, game="nine", host_id=1, seats=[], options={}, now=0.0
        )
        assert row is not None
        rows.append(row)
    finished = await asyncio.gather(
        *(
            stores[i % 2].results.finish_table(
                row, _result(row, [(1, "alice", 5), (i + 2, "x", -5)], rate=_plus_one)
            )
            for i, row in enumerate(rows)
        )
    )
    assert all(isinstance(n, int) for n in finished)
    assert all(row.version == 1 for row in rows)
    assert await stores[1].boards.ratings("nine", [1, 2, 5]) == {
        1: (4.0, 1.0),
        2: (1.0, 1.0),
        5: (1.0, 1.0),
    }
    # a stale finish stores nothing
    rows[0].version = 0
    assert await stores[0].results.finish_table(rows[0], _result(rows[0], [(1, "alice", 5)])) is None
    results = await stores[0].results.all(game="nine")
    assert len(results) == 4 and results[0]["record"] == {"z": 1, "a": [1, 2]}
    assert sorted(tuple(r["settlement"].items()) for r in results) == [
        (("1", 5), (str(i), -5)) for i in range(2, 6)
    ]
    assert await stores[0].tables.live_tables() == []
    board = await stores[0].boards.leaderboard("nine", guild_id=1, by="rating")
    assert board[0]["user_id"] == 1 and board[0]["games"] == 4 and board[0]["wins"] == 4
    assert board[0]["value"] == pytest.approx(4.0 - 3.0)
    points = await stores[1].boards.leaderboard("nine", guild_id=None, by="points", limit=2)
    assert [(b["user_id"], b["value"]) for b in points] == [(1, 20), (2, -5)]
    best = await stores[1].boards.leaderboard("nine", guild_id=None, by="best")
    assert best[0]["value"] == 5
    stats = await stores[0].boards.stats(1, game=None, guild_id=None)
    assert stats == [
        {"game": "nine", "games": 4, "wins": 4, "points": 20, "best": 5, "top": 5, "rating": 1.0}
    ]
    for s in stores:
        await s.close()


async def test_a_postgres_failure_is_a_store_error():
    """What the bot catches as a database failure (``sqlite3.Error``) covers
    PostgreSQL's too."""
    store = open_store("postgresql://nobody@/none?host=/nonexistent-chabudai&port=1")
    with pytest.raises(sqlite3.Error) as caught:
        await store.open()
    assert isinstance(caught.value, StoreError) and not store.is_open


async def test_an_old_database_with_a_game_in_progress_is_upgraded(game_night):
    async with game_night(dice=DICE, aux=[6, 2]) as night:
        table = await night.table("nine")
        for _ in range(3):  # the player to move presses the first control
            await table.act(table.actions[0])
        before = await table.row()
        await night.store.close()
        downgrade_to_v1(night.database)
        with sqlite3.connect(night.database) as db:
            assert db.execute("SELECT MAX(version) FROM schema_version").fetchone()[0] == 1
        await night.restart()  # migrates at start-up
        assert await night.store.schema_version() == len(MIGRATIONS)
        after = await table.row()
        assert after is not None
        assert (after.state, after.version, after.seats) == (
            before.state,
            before.version,
            before.seats,
        )
        await table.play_to_the_end()
        assert table.shows("result.title", game="Nine")
        assert len(await night.store.results.all()) == 1


def test_documents_are_written_as_compact_json_whatever_they_hold():
    """orjson writes the store's documents; what it will not write (an
    integer past 64 bits) ``json`` does, and both read back the same."""
    import json

    from bot.db.core import dumps as _dumps

    for doc in (
        {"name": "かな", "n": 1, "x": 0.25, "xs": [1, 2, None], "ok": True},
        {"seed": 2**70, "k": "v"},
        {1: "an int key", "ys": (3, 4)},
    ):
        text = _dumps(doc)
        assert text == json.dumps(doc, ensure_ascii=False, separators=(",", ":"))
        assert json.loads(text) == json.loads(json.dumps(doc))


@on_postgres
async def test_a_pool_connection_given_back_sets_no_timer(new_database):
    """A statement through the pool leaves no timer behind on the event loop
    (asyncpg set one at every release — to close a connection idle for 5
    minutes — and cancelled it at the next acquire: ~20-30 µs a statement)."""
    store = await _opened(await new_database())
    try:
        for _ in range(3):
            await store.tables.live_tables()
        loop = asyncio.get_running_loop()
        timers = [
            h for h in loop._scheduled  # type: ignore[attr-defined]
            if not h.cancelled() and "_deactivate_inactive_connection" in repr(h)
        ]  # fmt: skip
        assert timers == []  # (the statements' cache keeps a timer a statement: not a use)
    finally:
        await store.close()
