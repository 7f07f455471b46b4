"""A PostgreSQL server that fails (issue 35): the server restarted or stopped
mid-game, a backend terminated mid-save. The player pressing meanwhile is
told "cannot save right now… nothing was changed" and nothing is
half-written; once the server is back the game goes on, the turn clock
fires, and the notices between processes (LISTEN) arrive again.

These tests restart the server, so they run on a throwaway server of this
module's own (``postgres_url`` below), never on a shared one."""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator

import asyncpg
import pytest
from pgcluster import Cluster, why_not
from simtable import on_postgres, says, taken

from bot.db import postgres as store_pg
from bot.storage import open_store

BACK_WITHIN = 5.0  # seconds after the server returns: every part of the bot works again


@pytest.fixture(scope="module")
def cluster() -> Iterator[Cluster]:
    reason = why_not()
    if reason is not None:
        pytest.skip(reason)
    own = Cluster(durable=True)  # (a commit is kept across -m immediate)
    own.start()
    try:
        yield own
    finally:
        own.stop()


@pytest.fixture(autouse=True)
def server_up(cluster: Cluster) -> Iterator[None]:
    """The server running again after each test, whatever it left."""
    yield
    try:
        cluster.resume()
    except RuntimeError:  # (running already)
        pass


@pytest.fixture(scope="module")
def postgres_url(cluster: Cluster) -> str:
    """The ``new_database`` fixture's server: this module's own (restarted here)."""
    return cluster.url


def answered(res, key: str) -> bool:
    text = res.response.content if res.response is not None else None
    if text is None and res.followups:
        text = res.followups[0].content
    return says(text, key)


def noisy(caplog) -> list[logging.LogRecord]:
    """The bot's and asyncpg's WARNING lines and worse so far."""
    return [r for r in caplog.records
            if r.levelno >= logging.WARNING and r.name.startswith(("bot", "asyncpg"))]  # fmt: skip


async def _back(night, check, what: str) -> float:
    """Real seconds until ``await check()`` is true (SimCord's time moving
    on meanwhile: the bot's retries are timers); fails past BACK_WITHIN."""
    started = time.monotonic()
    while True:
        if await check():
            return time.monotonic() - started
        if time.monotonic() - started > BACK_WITHIN:
            raise AssertionError(f"{what}: not back {BACK_WITHIN} s after the server returned")
        await night.wait(0.2)


@on_postgres
@pytest.mark.parametrize("mode", ["fast", "immediate"])
async def test_a_game_goes_on_across_a_server_restart(game_night, cluster, caplog, mode):
    async with game_night(seeded=True) as night:
        table = await night.table("nine", players=2)
        assert taken(await table.play())
        other = open_store(night.database)  # another process on the same database
        await other.open()
        try:
            # the bot has the server's setting (a copy kept; another process's
            # change is heard through LISTEN)
            assert await night.store.settings.guild_setting(night.guild.id, "clock.nine") is None
            before = await table.moves()
            version = (await table.row()).version

            cluster.halt(mode)
            caplog.clear()
            res = await table.play()
            assert answered(res, "error.db_unavailable"), res  # the clear answer
            await night.wait(10)  # ten sweeps while the server is away
            told = noisy(caplog)
            assert not [r for r in told if r.exc_info], "a traceback while the server is away"
            await night.wait(30)  # thirty more: told once (the back-offs, the lost notices)
            again = noisy(caplog)[len(told) :]
            assert not again, [f"{r.name}: {r.getMessage()[:80]}" for r in again]
            cluster.resume()

            async def pressed() -> bool:
                return taken(await table.play())

            await _back(night, pressed, "a press")
            row = await table.row()
            moves = await table.moves()
            # the move of the outage not made, this one once, nothing lost
            assert moves[: len(before)] == before and row.version == version + 1
            ledger = await night.store.tables.ledger(row.id)
            assert [line["version"] for line in ledger] == list(range(1, row.version + 1))

            # the clock fires
            await night.wait(row.deadline - night.clock() + 5)
            after = await table.row()
            assert after.version > row.version, "the turn clock did not fire"

            # LISTEN again: another process's change reaches this one
            await other.settings.set_guild_setting(night.guild.id, "clock.nine", 120)

            async def heard() -> bool:
                return await night.store.settings.guild_setting(night.guild.id, "clock.nine") == 120

            await _back(night, heard, "the notices")
            assert any("notices come again" in r.getMessage() for r in caplog.records)
            caplog.clear()  # (the sweeper's one ERROR while the server was away: expected)
        finally:
            await other.close()


@on_postgres
async def test_a_backend_terminated_mid_save_changes_nothing(game_night, monkeypatch, caplog):
    """pg_terminate_backend on the connection that saves a move, between its
    statements: the player is told, the table is as before (the transaction
    died with its backend), and the next press is taken."""
    async with game_night(seeded=True) as night:
        table = await night.table("nine", players=2)
        assert taken(await table.play())
        row = await table.row()
        before = (row.version, await table.moves(), await night.store.tables.ledger(row.id))
        admin = await asyncpg.connect(night.database)
        execute = store_pg._PgConn.execute
        killed: list[int] = []

        async def terminated(self, sql, args=()):
            if not killed and "UPDATE tables SET phase" in sql:  # a move's save
                pid = self.conn.get_server_pid()
                killed.append(pid)
                await admin.execute("SELECT pg_terminate_backend($1)", pid)
            return await execute(self, sql, args)

        monkeypatch.setattr(store_pg._PgConn, "execute", terminated)
        try:
            res = await table.play()
        finally:
            monkeypatch.undo()
            await admin.close()
        assert killed, "no save was made"
        assert answered(res, "error.db_unavailable"), res
        row = await table.row()
        assert (row.version, await table.moves(), await night.store.tables.ledger(row.id)) == before
        assert taken(await table.play())  # the pool's dead connection is not handed out again
        assert (await table.row()).version == before[0] + 1
        caplog.clear()
