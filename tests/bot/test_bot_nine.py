"""Nine played through Discord (SimCord) to the end, with scripted dice."""

from __future__ import annotations

import simcord
from simtable import SEED, buttons, open_table

from games import core
from games.core import SeededSource, seed_hash

DICE = SeededSource("nine-bot-test").roll(300)


async def play_out(env, msg, users, limit=200):
    """Each turn: the player to move presses the first of their buttons."""
    by_mention = {u.mention: u for u in users}
    for _ in range(limit):
        ids = buttons(msg)
        if not ids:
            return
        mover = next(u for m, u in by_mention.items() if f"Turn: {m}" in msg.content)
        label = next(iter(ids))
        res = await mover.click(msg, label=label)
        assert res.response is None or not res.response.ephemeral, res.response.content
    raise AssertionError("game did not end")


async def test_nine_two_players_to_the_end(harness):
    harness.dice = DICE
    harness.aux = [6, 2]  # alice rolls 6, bob 2: alice deals and starts
    async with simcord.run(harness.bot()) as env:
        guild = env.create_guild()
        channel = guild.create_text_channel("nine")
        alice = guild.add_member(env.create_user("alice"))
        bob = guild.add_member(env.create_user("bob"))
        msg = await open_table(env, channel, alice, [bob], "nine")
        assert f"Turn: {alice.mention}" in msg.content
        assert seed_hash(SEED) in msg.content
        await play_out(env, msg, [alice, bob])
        assert "the game is over" in msg.content
        assert SEED in msg.content
        results = await harness.bots[-1].tables.store.results()
    assert len(results) == 1
    record = core.Record.from_json(results[0]["record"])
    assert record.players == ["alice", "bob"] and record.dealer == "alice"
    expected = core.engine("nine").outcome(core.replay(record))
    assert results[0]["outcome"] == expected
    assert expected["finished"]
    settlement = expected["settlement"]
    assert results[0]["settlement"] == {str(alice.id): settlement["alice"], str(bob.id): settlement["bob"]}
    for name, user in (("alice", alice), ("bob", bob)):
        assert f"<@{user.id}> " in msg.content or f"<@{user.id}>" in msg.content
        assert f"{settlement[name]:+d}" in msg.content
