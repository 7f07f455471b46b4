"""The store: migrations (an old database with a game in progress), the
optimistic version check, results."""

from __future__ import annotations

import sqlite3

from bot.store import MIGRATIONS, Store
from games.core import SeededSource

DICE = SeededSource("bot-store-tests").roll(600)


async def test_fresh_database_migrates_to_the_latest_schema(tmp_path):
    store = Store(tmp_path / "db.sqlite3")
    await store.open()
    assert await store.schema_version() == len(MIGRATIONS)
    await store.close()
    await store.open()  # idempotent
    assert await store.schema_version() == len(MIGRATIONS)
    await store.close()
    with sqlite3.connect(tmp_path / "db.sqlite3") as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


async def test_version_check_refuses_a_second_writer(tmp_path):
    store = Store(tmp_path / "db.sqlite3")
    await store.open()
    row = await store.create_table(
        guild_id=1, channel_id=2, game="nine", host_id=3, seats=[], options={}, now=0.0
    )
    assert row is not None
    again = await store.create_table(
        guild_id=1, channel_id=2, game="nine", host_id=4, seats=[], options={}, now=0.0
    )
    assert again is None  # one table per channel
    copy = await store.get_table(row.id)
    assert copy is not None
    row.ui = {"a": 1}
    assert await store.save_table(row, now=1.0)
    copy.ui = {"b": 2}
    assert not await store.save_table(copy, now=1.0)  # stale version
    fresh = await store.get_table(row.id)
    assert fresh is not None and fresh.ui == {"a": 1} and fresh.version == 1
    await store.close()


def _downgrade_to_v1(path):
    """Make the database look like one written by the first release."""
    with sqlite3.connect(path) as db:
        db.execute("DROP INDEX tables_behind")
        db.execute("ALTER TABLE tables DROP COLUMN shown")
        db.execute("ALTER TABLE tables DROP COLUMN clock")
        db.execute("DELETE FROM schema_version WHERE version > 1")


async def test_an_old_database_with_a_game_in_progress_is_upgraded(game_night):
    async with game_night(dice=DICE, aux=[6, 2]) as night:
        table = await night.table("nine")
        for _ in range(3):  # the player to move presses the first control
            await table.act(table.actions[0])
        before = await table.row()
        await night.store.close()
        _downgrade_to_v1(night.database)
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
        assert len(await night.store.results()) == 1
