"""One whole game of each game through Discord (SimCord) on each database:
the bot's every read and write on PostgreSQL as on SQLite — lobbies, moves,
a restart in the middle, computer players, the finish with its ratings, and
the leaderboard after it."""

from __future__ import annotations

import pytest
from simtable import on_both_databases

from bot.i18n import t
from games import core, registry
from games.core import SeededSource

DICE = SeededSource("bot-database-tests").roll(3000)

# game, players, computers, options, the moves the players prefer
GAMES = [
    ("nine", 2, (), None, ()),
    ("sixdice", 2, (), "target=3000 start=500", ("m:stop",)),
    ("yahtzee", 2, (), None, ()),
    ("bluff", 1, ("easy", "easy"), "losses=1", ()),
    ("sixtysix", 1, ("easy",), None, ()),
]


@on_both_databases
@pytest.mark.parametrize(
    ("game", "count", "cpus", "options", "prefer"), GAMES, ids=[g[0] for g in GAMES]
)
async def test_a_whole_game_on_each_database(game_night, game, count, cpus, options, prefer):
    async with game_night(seeded=True) as night:
        table = await night.table(game, players=count, cpus=cpus, options=options)
        steps = await table.play_to_the_end(prefer=prefer, restart_at=1)
        assert steps >= 1
        assert table.shows("result.title", game=t(f"game.{game}"))
        results = await night.store.results.all()
        assert await night.store.tables.live_tables() == []
        by = "points" if cpus else "rating"  # games with computers are not rated
        board = await night.store.boards.leaderboard(game, guild_id=night.guild.id, by=by)
        stats = await night.store.boards.stats(night.alice.id, game=game, guild_id=None)
    assert len(results) == 1
    record = core.Record.from_json(results[0]["record"])
    expected = registry.engine(game).outcome(registry.replay(record))
    assert expected["finished"] and results[0]["outcome"] == expected
    assert night.alice.id in [b["user_id"] for b in board]
    assert stats[0]["games"] == 1 and ("rating" in stats[0]) == (not cpus)
