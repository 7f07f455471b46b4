"""The names boards show (``store.boards.display_names``): each player's
display name at their newest finished game that kept its seats, on both
databases — checked against an oracle of our own over a random history
(names changed from game to game, games without seats, computers)."""

from __future__ import annotations

import random

from simtable import on_both_databases

from bot.results.rows import PlayerResult, Result
from bot.storage import open_store

USERS = list(range(100, 130))


@on_both_databases
async def test_display_names_are_those_of_each_players_newest_game_with_seats(new_database):
    rng = random.Random(11)
    store = open_store(await new_database())
    await store.open()
    newest: dict[int, str] = {}
    try:
        for i in range(120):
            users = rng.sample(USERS, rng.randint(2, 4))
            with_seats = rng.random() < 0.8
            seats = [
                {"id": u, "name": f"P{u}", "display": f"{u}-{i}", "bot": False} for u in users
            ] + [{"id": None, "name": "CPU1", "bot": True}]
            row = await store.tables.create_table(
                guild_id=1, channel_id=10_000 + i, game="nine", host_id=users[0], seats=[],
                options={}, now=0.0,
            )
            assert row is not None
            result = Result(
                table_id=row.id, guild_id=1, channel_id=row.channel_id, game="nine",
                record={}, outcome={},
                players=[PlayerResult(u, f"P{u}", n, n == 1, 0, None) for n, u in enumerate(users, 1)],
                seed="s", has_bots=True, finished_at=1_000.0 + i,
                seats=seats if with_seats else None, host_id=users[0],
            )
            assert await store.results.finish_table(row, result) is not None
            if with_seats:
                newest.update({u: f"{u}-{i}" for u in users})
        asked = [*USERS, 999]  # 999 never played
        assert await store.boards.display_names(asked) == newest
        assert await store.boards.display_names([]) == {}
    finally:
        await store.close()
