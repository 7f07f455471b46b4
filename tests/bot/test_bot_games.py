"""Six Dice, Nine and Yahtzee played to the end through Discord (SimCord),
with scripted dice and a restart in the middle of each game."""

from __future__ import annotations

import pytest
from simtable import SEED

from bot.i18n import t
from games import core, registry
from games.core import SeededSource, seed_hash

DICE = SeededSource("bot-game-tests").roll(3000)

# game, options, the first player's draw, players, the moves the players prefer
# (Yahtzee scores at once, in the best box: its select lists boxes by points)
GAMES = [
    ("nine", None, [6, 2], 2, ()),
    ("sixdice", "target=3000 start=500", [1, 5, 3], 3, ("m:stop",)),
    ("yahtzee", None, [2], 2, ()),
]


@pytest.mark.parametrize(
    ("game", "options", "aux", "count", "prefer"), GAMES, ids=[g[0] for g in GAMES]
)
async def test_game_played_to_the_end_with_a_restart(game_night, game, options, aux, count, prefer):
    async with game_night(dice=DICE, aux=aux) as night:
        table = await night.table(game, players=count, options=options)
        assert table.shows("seed.hash.dice", hash=seed_hash(SEED)[:8])  # short on the table
        assert SEED not in table.content
        assert seed_hash(SEED) not in table.content
        assert table.attachments, "the table message carries the picture"
        steps = await table.play_to_the_end(prefer=prefer, restart_at=7)
        assert steps > 7
        assert table.shows("result.title", game=t(f"game.{game}"))
        assert table.shows("seed.result.dice", seed=SEED, hash=seed_hash(SEED)[:8])
        assert "python -m games verify" not in table.content  # /rules says how to check
        results = await night.store.results.all()
        assert await night.store.tables.live_tables() == []
    assert len(results) == 1
    record = core.Record.from_json(results[0]["record"])
    assert record.players == ["alice", "bob", "carol"][:count]
    expected = registry.engine(game).outcome(registry.replay(record))
    assert expected["finished"]
    assert results[0]["outcome"] == expected
    if game == "yahtzee":
        points = expected["totals"]
    else:
        points = expected["settlement"]
        assert sum(points.values()) == 0
    by_name = {u.name: u for u in night.players}
    assert results[0]["settlement"] == {str(by_name[p].id): v for p, v in points.items()}
    for name, value in points.items():
        shown = str(value) if game == "yahtzee" else f"{value:+d}"
        player = by_name[name].mention
        assert table.shows("result.line_win", player=player, points=shown) or table.shows(
            "result.line", player=player, points=shown
        )
