"""Refusals: out of turn, not a player, stale and duplicate presses, bad
options, a second table; and the /game commands."""

from __future__ import annotations

import simcord
from simtable import (
    buttons,
    controls,
    custom_ids,
    open_table,
    press_from_snapshot,
    select_values,
    snapshot,
)

from games.core import SeededSource

DICE = SeededSource("bot-press-tests").roll(500)


async def _state(harness, table_id=1):
    row = await harness.bots[-1].tables.store.get_table(table_id)
    return row


async def test_out_of_turn_non_player_stale_and_duplicate_change_nothing(harness):
    harness.dice = DICE
    harness.aux = [6, 2]
    async with simcord.run(harness.bot()) as env:
        guild = env.create_guild()
        channel = guild.create_text_channel("nine")
        alice, bob, eve = (guild.add_member(env.create_user(n)) for n in ("alice", "bob", "eve"))
        msg = await open_table(env, channel, alice, [bob], "nine")
        before = await _state(harness)
        old_roll = buttons(msg)["Roll"]

        res = await bob.click(msg, label="Roll")  # alice starts
        assert res.response.ephemeral and res.response.content == "It is not your turn."
        res = await eve.click(msg, label="Roll")
        assert res.response.ephemeral and res.response.content == "You are not in this game."
        after = await _state(harness)
        assert (after.version, after.state) == (before.version, before.state)

        res = await alice.click(msg, label="Roll")  # accepted: the message moves on
        assert res.response is None or not res.response.ephemeral
        moved = await _state(harness)
        assert moved.version == before.version + 1
        assert old_roll not in custom_ids(msg)

        flips = [c for c in controls(msg) if c["type"] == 2]
        assert flips and all(c["custom_id"].split(":")[2] == str(moved.version) for c in flips)
        res = await alice.click(msg, custom_id=flips[0]["custom_id"])
        assert res.response is None or not res.response.ephemeral
        after_flip = await _state(harness)
        assert after_flip.version == moved.version + 1


async def test_duplicate_and_stale_presses_are_refused_politely(harness):
    """The second click of a double click carries the old version."""
    harness.dice = DICE
    harness.aux = [6, 2]
    async with simcord.run(harness.bot()) as env:
        guild = env.create_guild()
        channel = guild.create_text_channel("nine")
        alice, bob = (guild.add_member(env.create_user(n)) for n in ("alice", "bob"))
        msg = await open_table(env, channel, alice, [bob], "nine")
        roll = buttons(msg)["Roll"]
        old = snapshot(env, msg)
        first = await alice.click(msg, custom_id=roll)
        assert first.response is None or not first.response.ephemeral
        row = await _state(harness)
        content = msg.content
        second = await press_from_snapshot(alice, env, old, roll)
        assert second.response.ephemeral
        assert second.response.content.startswith("That button is out of date")
        again = await _state(harness)
        assert (again.version, again.state) == (row.version, row.state)
        assert msg.content == content
        # a stale press after a restart is refused the same way
        await env.restart_bot(harness.bot())
        third = await press_from_snapshot(bob, env, old, roll)
        assert third.response.ephemeral and "out of date" in third.response.content
        # an id for a table that no longer exists
        old["components"][0]["components"][0]["custom_id"] = "cb:999:1:m:roll"
        gone = await press_from_snapshot(alice, env, old, "cb:999:1:m:roll")
        assert gone.response.ephemeral and "This table is gone" in gone.response.content


async def test_bad_options_and_a_second_table(harness):
    async with simcord.run(harness.bot()) as env:
        guild = env.create_guild()
        channel = guild.create_text_channel("dice")
        alice, bob = (guild.add_member(env.create_user(n)) for n in ("alice", "bob"))
        res = await alice.slash(channel, "play", game="sixdice", options="colour=red")
        assert res.response.ephemeral
        assert "there is no house option “colour”" in res.response.content
        res = await alice.slash(channel, "play", game="sixdice", options="target=lots")
        assert res.response.ephemeral and "option “target” cannot be “lots”" in res.response.content
        res = await alice.slash(channel, "play", game="sixdice", options="target=")
        assert res.response.ephemeral and "cannot read “target=”" in res.response.content
        assert await harness.bots[-1].tables.store.live_tables() == []

        lobby = await alice.slash(channel, "play", game="sixdice", options="target=5000 start=500")
        assert "target=5000" in lobby.response.content and "start=500" in lobby.response.content
        res = await bob.slash(channel, "play", game="nine")
        assert res.response.ephemeral
        assert "already running" in res.response.content
        assert f"/channels/{guild.id}/{channel.id}/{lobby.response.id}" in res.response.content


async def test_lobby_buttons(harness):
    async with simcord.run(harness.bot()) as env:
        guild = env.create_guild()
        channel = guild.create_text_channel("dice")
        alice, bob, carol = (
            guild.add_member(env.create_user(n)) for n in ("alice", "bob", "carol")
        )
        lobby = (await alice.slash(channel, "play", game="nine")).response
        res = await bob.click(lobby, label="Start")
        assert res.response.ephemeral and res.response.content == "Only the host can do that."
        await bob.click(lobby, label="Join")
        res = await bob.click(lobby, label="Join")
        assert res.response.ephemeral and "already" in res.response.content
        assert f"<@{bob.id}>" in lobby.content
        await bob.click(lobby, label="Leave")
        assert f"<@{bob.id}>" not in lobby.content
        res = await carol.click(lobby, label="Cancel")
        assert res.response.ephemeral
        await alice.click(lobby, label="Cancel")
        assert "was closed" in lobby.content and not controls(lobby)
        assert await harness.bots[-1].tables.store.live_tables() == []


async def test_game_status_leave_and_end(harness):
    harness.dice = DICE
    harness.aux = [6, 2, 3]  # alice deals (in Six Dice a 1 counts as 10)
    async with simcord.run(harness.bot()) as env:
        guild = env.create_guild()
        channel = guild.create_text_channel("dice")
        alice, bob, carol = (
            guild.add_member(env.create_user(n)) for n in ("alice", "bob", "carol")
        )
        res = await alice.slash(channel, "game status")
        assert res.response.ephemeral and "no table" in res.response.content
        msg = await open_table(env, channel, alice, [bob, carol], "sixdice")
        res = await carol.slash(channel, "game status")
        assert res.response.ephemeral and "Turn: alice" in res.response.content

        res = await bob.slash(channel, "game end")
        assert res.response.ephemeral and "Only the host" in res.response.content
        res = await carol.slash(channel, "game leave")  # a forfeit: carol is out
        assert res.response.ephemeral
        assert "carol left the game" in msg.content
        res = await alice.slash(channel, "game end")  # settled as it stands
        assert "the game is over" in msg.content and "Ended by" in msg.content
        results = await harness.bots[-1].tables.store.results()
    assert len(results) == 1
    settlement = results[0]["settlement"]
    assert sum(settlement.values()) == 0
    assert settlement[str(carol.id)] < 0  # the worst case for the leaver


async def test_game_end_without_a_settlement_abandons_with_the_last_picture(harness):
    """Yahtzee has no settlement as it stands: /game end by the host closes
    the table without a result (no leaderboard entry), shows the sheet as it
    stood and reveals the seed; the channel is free for a new table."""
    harness.dice = [1, 2, 3, 4, 6, 5, 5, 5, 5, 5]
    harness.aux = [1]
    async with simcord.run(harness.bot()) as env:
        guild = env.create_guild()
        channel = guild.create_text_channel("y")
        alice, bob = (guild.add_member(env.create_user(n)) for n in ("alice", "bob"))
        msg = await open_table(env, channel, alice, [bob], "yahtzee")
        await alice.click(msg, label="Roll")
        res = await bob.slash(channel, "game end")
        assert res.response.ephemeral and "Only the host" in res.response.content
        await alice.slash(channel, "game end")
        assert f"ended by <@{alice.id}> without a result" in msg.content, msg.content
        assert "Dice seed: `" in msg.content and "python -m games verify" in msg.content
        assert not controls(msg)
        stored = env.backend.get_message(msg.channel_id, msg.id)
        assert len(stored.attachments) == 1 and stored.attachments[0].get("description")
        store = harness.bots[-1].tables.store
        assert await store.live_tables() == [] and await store.results() == []
        res = await alice.slash(channel, "play", game="nine")
        assert not res.response.ephemeral  # a new lobby in the same channel


async def test_yahtzee_keep_toggles_and_reroll(harness):
    harness.dice = [1, 2, 3, 4, 6, 5, 5, 5, 5, 5]
    harness.aux = [1]  # alice first
    async with simcord.run(harness.bot()) as env:
        guild = env.create_guild()
        channel = guild.create_text_channel("y")
        alice, bob = (guild.add_member(env.create_user(n)) for n in ("alice", "bob"))
        msg = await open_table(env, channel, alice, [bob], "yahtzee")
        await alice.click(msg, label="Roll")
        assert "Dice: 1 2 3 4 6" in msg.content
        res = await bob.click(msg, custom_id=custom_ids(msg)[0])
        assert res.response.ephemeral and res.response.content == "It is not your turn."
        for i in range(4):  # keep 1 2 3 4
            ids = [c for c in custom_ids(msg) if c.endswith(f":k:{i}")]
            await alice.click(msg, custom_id=ids[0])
        reroll = next(c for c in custom_ids(msg) if ":m:keep" in c)
        assert reroll.endswith("m:keep 1 2 3 4")
        await alice.click(msg, custom_id=reroll)
        assert "Dice: 1 2 3 4 5" in msg.content
        assert "score large_straight" in select_values(msg)
        await alice.select(msg, ["score large_straight"])
        assert "alice scored 40 in large_straight" in msg.content
        assert f"Turn: <@{bob.id}>" in msg.content
