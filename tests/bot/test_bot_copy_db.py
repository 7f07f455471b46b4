"""Database operations: ``python -m bot migrate`` (the deploy step),
``python -m bot --no-migrate`` (a start that refuses an old schema) and
``python -m bot copy-db SRC DST`` (SQLite → PostgreSQL → SQLite with a game
in progress and a finished one: the same rows, and the buttons already
posted still work on the copy)."""

from __future__ import annotations

import asyncio
import sqlite3
import uuid

import pytest
from simtable import downgrade_to_v1, on_both_databases, taken

from bot import __main__ as entry
from bot.db.core import NotEmpty, SchemaBehind
from bot.db.schema_sqlite import MIGRATIONS
from bot.storage import open_store
from games.core import SeededSource

DICE = SeededSource("bot-copy-db-tests").roll(600)


def _version(path) -> int:
    with sqlite3.connect(path) as db:
        return int(db.execute("SELECT MAX(version) FROM schema_version").fetchone()[0])


async def _rows(target):
    store = open_store(target)
    await store.open()
    try:
        return await store.export_rows()
    finally:
        await store.close()


async def _pg_schema(postgres_url: str) -> str:
    """An empty schema of the test process's PostgreSQL database, as a URL."""
    from conftest import _admin
    from pgcluster import with_schema

    schema = f"c_{uuid.uuid4().hex[:16]}"
    await _admin(postgres_url, f"CREATE SCHEMA {schema}")
    return with_schema(postgres_url, schema)


# ----------------------------------------------------------------- migrate


@on_both_databases
def test_migrate_brings_a_fresh_database_to_the_latest_schema(new_database, capsys):
    target = str(asyncio.run(new_database()))
    assert entry.main(["migrate", "--db", target]) == 0
    out = capsys.readouterr().out
    assert f"schema version {len(MIGRATIONS)}" in out
    if "@" in target:  # a URL's credentials are not printed
        assert target.split("@")[0] not in out
    assert entry.main(["migrate", "--db", target]) == 0  # nothing left to do
    assert f"schema version {len(MIGRATIONS)}" in capsys.readouterr().out

    async def opened_without_migrating() -> int:
        store = open_store(target, migrate=False)
        await store.open()
        try:
            return await store.schema_version()
        finally:
            await store.close()

    assert asyncio.run(opened_without_migrating()) == len(MIGRATIONS)


def test_migrate_defaults_to_chabudai_db_and_needs_no_token(monkeypatch, tmp_path, capsys):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    monkeypatch.setenv("CHABUDAI_DB", str(tmp_path / "env.sqlite3"))
    assert entry.main(["migrate"]) == 0
    assert _version(tmp_path / "env.sqlite3") == len(MIGRATIONS)
    monkeypatch.delenv("CHABUDAI_DB")
    assert entry.main(["migrate"]) == 0  # the default file
    assert _version(tmp_path / entry.DEFAULT_DB) == len(MIGRATIONS)
    assert entry.DEFAULT_DB in capsys.readouterr().out


def test_an_old_schema_is_migrated_by_the_command(tmp_path, capsys):
    path = tmp_path / "old.sqlite3"
    assert entry.main(["migrate", "--db", str(path)]) == 0
    downgrade_to_v1(path)
    assert entry.main(["migrate", "--db", str(path)]) == 0
    assert _version(path) == len(MIGRATIONS)


# -------------------------------------------------------------- --no-migrate


def test_no_migrate_refuses_an_old_schema_and_leaves_it_alone(monkeypatch, tmp_path, capsys):
    path = tmp_path / "old.sqlite3"
    assert entry.main(["migrate", "--db", str(path)]) == 0
    downgrade_to_v1(path)
    capsys.readouterr()
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DISCORD_TOKEN", "not-a-real-token")
    monkeypatch.setenv("CHABUDAI_DB", str(path))
    monkeypatch.setattr(entry, "setup_logging", lambda token, *shards: None)
    started = []
    monkeypatch.setattr("bot.app.create_bot", lambda *a, **k: started.append(a))
    assert entry.main(["--no-migrate"]) == 2
    err = capsys.readouterr().err
    assert f"schema version 1, this code needs {len(MIGRATIONS)}" in err
    assert "python -m bot migrate" in err
    assert not started and _version(path) == 1  # not started, not migrated
    # after the deploy step the same start goes ahead
    assert entry.main(["migrate", "--db", str(path)]) == 0
    assert asyncio.run(entry._schema_problem(str(path))) is None


def test_unknown_arguments_still_print_the_usage(capsys):
    assert entry.main(["--no-such-flag"]) == 2
    err = capsys.readouterr().err
    assert "--no-migrate" in err and "copy-db SRC DST" in err and "sandbox" in err


@on_both_databases
async def test_a_store_told_not_to_migrate_refuses_an_empty_database(new_database):
    target = await new_database()
    store = open_store(target, migrate=False)
    with pytest.raises(SchemaBehind) as caught:
        await store.open()
    assert (caught.value.found, caught.value.needed) == (0, len(MIGRATIONS))
    assert not store.is_open
    store = open_store(target)  # migrates
    await store.open()
    await store.close()
    store = open_store(target, migrate=False)
    await store.open()
    assert await store.schema_version() == len(MIGRATIONS)
    await store.close()


# ----------------------------------------------------------------- copy-db


async def test_copy_between_sqlite_files_keeps_ids_and_refuses_a_full_destination(
    harness, tmp_path
):
    store = open_store(harness.path)
    await store.open()
    first = await store.tables.create_table(
        guild_id=1, channel_id=10, game="pig", host_id=7, seats=[], options={}, now=5.0
    )
    second = await store.tables.create_table(
        guild_id=1, channel_id=11, game="pig", host_id=7, seats=[], options={}, now=6.0
    )
    assert first and second
    await store.tables.delete_table(first)  # a gap: the next id is not max + 1 by count
    await store.settings.set_guild_setting(1, "lang", "ja")
    await store.close()

    copy = tmp_path / "copy.sqlite3"
    counts = await asyncio.to_thread(entry.main, ["copy-db", str(harness.path), str(copy)])
    assert counts == 0
    assert await _rows(copy) == await _rows(harness.path)
    dst = open_store(copy)
    await dst.open()
    again = await dst.tables.create_table(
        guild_id=1, channel_id=12, game="pig", host_id=7, seats=[], options={}, now=7.0
    )
    assert again is not None and again.id == second.id + 1  # AUTOINCREMENT followed
    assert await dst.settings.guild_setting(1, "lang") == "ja"
    with pytest.raises(NotEmpty):
        await dst.import_rows(await dst.export_rows())
    await dst.close()
    before = await _rows(copy)
    assert await asyncio.to_thread(entry.main, ["copy-db", str(harness.path), str(copy)]) == 2
    assert await _rows(copy) == before  # nothing written
    assert await asyncio.to_thread(entry.main, ["copy-db", str(copy), str(copy)]) == 2


@pytest.mark.postgres
async def test_a_live_database_moves_to_postgres_and_back_with_its_buttons(
    game_night, postgres_url, tmp_path, capsys
):
    async with game_night(dice=DICE, aux=[6, 2]) as night:
        finished = await night.table("nine")
        await finished.play_to_the_end()
        assert len(await night.store.results.all()) == 1
        table = await night.table("nine")
        for _ in range(3):
            assert taken(await table.act(table.actions[0]))
        await night.settings(lang="en")
        before = await table.row()
        assert before is not None
        source = night.database
        await night.store.close()  # the bot stops
        original = await _rows(source)
        assert original["tables"] and original["results"] and original["ratings"]
        assert original["result_players"] and original["guild_settings"]

        # SQLite → PostgreSQL
        pg = await _pg_schema(postgres_url)
        assert await asyncio.to_thread(entry.main, ["copy-db", str(source), pg]) == 0
        out = capsys.readouterr().out
        assert "1 results" in out and "2 result_players" in out
        assert await _rows(pg) == original
        # a full destination is refused, with the reason
        assert await asyncio.to_thread(entry.main, ["copy-db", str(source), pg]) == 2
        assert "not empty" in capsys.readouterr().err

        # a bot on the copy takes a press on the message the first bot posted
        night.harness.path = pg
        await night.restart()
        row = await table.row()
        assert row is not None and (row.id, row.version, row.state, row.ui, row.clock) == (
            before.id,
            before.version,
            before.state,
            before.ui,
            before.clock,
        )
        assert taken(await table.act(table.actions[0]))
        # new rows get ids past the copied ones
        other = await night.table("nine")
        other_row = await other.row()
        assert other_row is not None and other_row.id > max(r[0] for r in original["tables"])
        on_pg = await _rows(pg)
        await night.store.close()

        # PostgreSQL → SQLite
        back = tmp_path / "back.sqlite3"
        assert await asyncio.to_thread(entry.main, ["copy-db", pg, str(back)]) == 0
        assert await _rows(back) == on_pg
        night.harness.path = back
        await night.restart()
        assert taken(await table.act(table.actions[0]))
        await table.play_to_the_end()
        results = await night.store.results.all(game="nine")
        assert [r["id"] for r in results] == [original["results"][0][0], results[0]["id"] + 1]
        assert results[0] == (await _results_of(source))[0]


async def _results_of(target):
    store = open_store(target)
    await store.open()
    try:
        return await store.results.all()
    finally:
        await store.close()
