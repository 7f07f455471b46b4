"""The limits on reviews hold across processes (issue 35, migration 11;
docs/review.md "Limits"): two bot processes on one database — two stores,
each with its own Reviews cog — count the same waits, so a member waits for
two reviews at most and a server's games for ten (here three), whichever
processes their presses reach. A wait ends with its review (here: the
worker fails), and a wait a dead process left behind counts no more after
``WAIT_SECONDS``."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

import discord
from simtable import on_both_databases

from bot import ai
from bot.commands import review as review_command
from bot.i18n import t
from bot.results.rows import PlayerResult, Result
from bot.reviews.repo import WAIT_SECONDS
from bot.storage import open_store

GUILD = 555
NOW = 1_700_000_000.0


class Press:
    """A press of Review: what the cog reads of an interaction, and what it
    answered (ephemeral replies, the follow-up)."""

    def __init__(self, user: int, guild: int | None = GUILD) -> None:
        self.user = SimpleNamespace(id=user)
        self.guild_id = guild
        self.locale = discord.Locale.american_english
        self.said: list[str] = []
        self.deferred = False

        async def defer(**_: Any) -> None:
            self.deferred = True

        async def send(text: str, **_: Any) -> None:
            self.said.append(text)

        self.response = SimpleNamespace(defer=defer, is_done=lambda: self.deferred)
        self.followup = SimpleNamespace(send=send)


class Process:
    """One bot process's Reviews cog on its own store; every review it
    starts waits for ``gate``, then its worker fails."""

    def __init__(self, store: Any, gate: asyncio.Event, started: list[int]) -> None:
        async def reply(press: Press, key: str, **args: Any) -> None:
            press.said.append(t(key, press.locale, **args))

        tables = SimpleNamespace(store=store, reply=reply, clock=lambda: self.now)
        self.now = NOW
        self.cog = review_command.Reviews(SimpleNamespace(tables=tables, result_actions={}))

        async def reviewed(result_id: int, *_: Any) -> Any:
            started.append(result_id)
            await gate.wait()
            raise ai.AIUnavailable("the test's worker")

        self.cog.reviewed = reviewed  # type: ignore[method-assign]


async def finished_games(store: Any, n: int) -> list[int]:
    ids = []
    for i in range(n):
        row = await store.tables.create_table(
            guild_id=GUILD, channel_id=7_000 + i, game="nine", host_id=1, seats=[],
            options={}, now=NOW,
        )
        result = Result(
            table_id=row.id, guild_id=GUILD, channel_id=row.channel_id, game="nine",
            record={"players": ["A", "B"]}, outcome={"finished": True},
            players=[PlayerResult(1, "A", 1, True, 5, None), PlayerResult(2, "B", 2, False, -5, None)],
            seed="s", has_bots=False, finished_at=NOW,
            seats=[{"id": 1, "name": "A", "bot": False}, {"id": 2, "name": "B", "bot": False}],
            host_id=1,
        )
        result_id = await store.results.finish_table(row, result)
        assert result_id is not None
        ids.append(result_id)
    return ids


async def until(started: list[int], n: int) -> None:
    for _ in range(400):
        if len(started) >= n:
            return
        await asyncio.sleep(0.01)
    raise AssertionError(started)


@on_both_databases
async def test_two_processes_count_the_same_waits(new_database, monkeypatch) -> None:
    monkeypatch.setattr(review_command, "SERVER_REVIEWS", 3)
    target = await new_database()
    stores = [open_store(target), open_store(target)]
    for store in stores:
        await store.open()
    gate = asyncio.Event()
    started: list[int] = []
    try:
        games = await finished_games(stores[0], 6)
        a, b = Process(stores[0], gate, started), Process(stores[1], gate, started)
        alice, bob, carol = 10, 11, 12
        waits = [
            asyncio.create_task(a.cog.answer(Press(alice), games[0])),
            asyncio.create_task(a.cog.answer(Press(alice), games[1])),
        ]
        await until(started, 2)
        # alice's third, pressed in the other process: refused, nothing started
        third = Press(alice)
        await asyncio.wait_for(b.cog.answer(third, games[2]), 10)  # (not left waiting)
        assert third.said == [t("error.review_member_limit", third.locale, count=2)]
        assert not third.deferred and started == games[:2]
        # bob's in the other process makes three of this server's games…
        waits.append(asyncio.create_task(b.cog.answer(Press(bob), games[3])))
        await until(started, 3)
        # …so carol's new one is refused in the first, but joining bob's is not
        fourth = Press(carol)
        await asyncio.wait_for(a.cog.answer(fourth, games[4]), 10)
        assert fourth.said == [t("error.review_server_limit", fourth.locale, count=3)]
        assert started == [*games[:2], games[3]]
        # every review ends (its worker fails): every wait with it
        gate.set()
        await asyncio.gather(*waits)
        async with stores[0].db.reading() as c:
            assert await c.fetch("SELECT * FROM review_waits") == []
        gate.clear()
        again = asyncio.create_task(b.cog.answer(Press(alice), games[2]))
        await until(started, 4)
        assert started[-1] == games[2]
        gate.set()
        await again
    finally:
        gate.set()
        for store in stores:
            await store.close()


@on_both_databases
async def test_a_wait_left_by_a_dead_process_counts_no_more_in_time(new_database) -> None:
    store = open_store(await new_database())
    await store.open()
    try:
        reviews = store.reviews
        limits = (2, 10)
        assert await reviews.wait(1, 10, GUILD, now=NOW, limits=limits) is None
        assert await reviews.wait(2, 10, GUILD, now=NOW, limits=limits) is None
        # the process died: nobody ends these two waits
        assert await reviews.wait(3, 10, GUILD, now=NOW + 60, limits=limits) == (2, 2)
        later = NOW + WAIT_SECONDS + 1
        assert await reviews.wait(3, 10, GUILD, now=later, limits=limits) is None
        await reviews.done_waiting(3, 10)
        # a member's waits in a DM count for the member, for no server
        assert await reviews.wait(4, 11, None, now=later, limits=(1, 0)) is None
        assert await reviews.wait(5, 11, None, now=later, limits=(1, 0)) == (1, 0)
    finally:
        await store.close()
