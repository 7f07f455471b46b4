"""Six Dice, Nine and Yahtzee played to the end through Discord (SimCord),
with scripted dice and a restart in the middle of each game."""

from __future__ import annotations

import pytest
import simcord
from simtable import SEED, first_choice, open_table, play_out

from games import core, registry
from games.core import SeededSource, seed_hash

DICE = SeededSource("bot-game-tests").roll(3000)


def sixdice_policy(message):
    return first_choice(message, prefer=("m:stop",))


def yahtzee_policy(message):
    # score at once, with the best box (the select lists boxes by points)
    return first_choice(message)


GAMES = [
    ("nine", None, [6, 2], 2, first_choice),
    ("sixdice", "target=3000 start=500", [1, 5, 3], 3, sixdice_policy),
    ("yahtzee", None, [2], 2, yahtzee_policy),
]


@pytest.mark.parametrize(
    ("game", "options", "aux", "count", "policy"), GAMES, ids=[g[0] for g in GAMES]
)
async def test_game_played_to_the_end_with_a_restart(harness, game, options, aux, count, policy):
    harness.dice = DICE
    harness.aux = aux
    async with simcord.run(harness.bot()) as env:
        guild = env.create_guild()
        channel = guild.create_text_channel(game)
        users = [guild.add_member(env.create_user(n)) for n in ("alice", "bob", "carol")[:count]]
        msg = await open_table(env, channel, users[0], users[1:], game, options)
        assert seed_hash(SEED) in msg.content and SEED not in msg.content.replace(
            seed_hash(SEED), ""
        )
        assert msg.attachments, "the table message carries the picture"
        steps = await play_out(env, harness, msg, users, policy, restart_at=7)
        assert steps > 7
        assert "the game is over" in msg.content
        assert f"`{SEED}`" in msg.content
        results = await harness.bots[-1].tables.store.results()
        assert await harness.bots[-1].tables.store.live_tables() == []
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
    by_name = {u.name: u for u in users}
    assert results[0]["settlement"] == {str(by_name[p].id): v for p, v in points.items()}
    for name, value in points.items():
        shown = str(value) if game == "yahtzee" else f"{value:+d}"
        assert (
            f"<@{by_name[name].id}> 🏆 {shown}" in msg.content
            or f"<@{by_name[name].id}> {shown}" in msg.content
        )
