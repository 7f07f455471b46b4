"""Turn pings (SimCord): Discord notifies nobody of an edited table message,
so when the turn passes to another human player the bot sends a short channel
message mentioning them, in the table's language, and deletes the previous
one; none for a computer player or for the same player going on, none left
when the game ends."""

from __future__ import annotations

import simcord
from simtable import controls, first_choice, mover_of, open_table, play_out, press

from bot.model import message_link
from games.core import SeededSource

DICE = SeededSource("bot-ping-tests").roll(3000)


def pings(channel, words="your turn —"):
    return [m for m in channel.history() if words in m.content]


def accepted(res):
    assert res.response is None or not res.response.ephemeral, res.response.content


async def finish_turn(user, msg):
    """Yahtzee: roll (the same player goes on), then score the first box."""
    accepted(await user.click(msg, label="Roll"))
    accepted(await press(user, msg, first_choice(msg)))


async def test_a_ping_mentions_the_next_player_and_replaces_the_last(harness):
    harness.dice = DICE
    harness.aux = [2]
    async with simcord.run(harness.bot()) as env:
        guild = env.create_guild()
        channel = guild.create_text_channel("yahtzee")
        users = [guild.add_member(env.create_user(n)) for n in ("alice", "bob")]
        alice = users[0]
        msg = await open_table(env, channel, alice, users[1:], "yahtzee")
        first = mover_of(msg, users)
        second = next(u for u in users if u is not first)
        link = message_link(guild.id, channel.id, msg.id)
        # Start pressed by alice: the first player is pinged unless it is alice
        at_start = pings(channel)
        if first is alice:
            assert at_start == []
        else:
            assert [p.content for p in at_start] == [f"<@{first.id}>, your turn — {link}"]

        accepted(await first.click(msg, label="Roll"))  # the same player goes on
        assert [p.id for p in pings(channel)] == [p.id for p in at_start]
        accepted(await press(first, msg, first_choice(msg)))  # the turn passes
        assert mover_of(msg, users) is second
        (ping,) = pings(channel)
        assert ping.content == f"<@{second.id}>, your turn — {link}"
        assert len(channel.history()) == 2  # the table message and one ping

        await finish_turn(second, msg)
        assert mover_of(msg, users) is first
        (new,) = pings(channel)
        assert new.content == f"<@{first.id}>, your turn — {link}"
        assert new.id != ping.id
        assert env.backend.messages.get(channel.id, {}).get(ping.id) is None  # deleted
        assert len(channel.history()) == 2

        # a ping already deleted by hand: the next turn change goes on quietly
        bot = harness.bots[-1]
        await bot.get_partial_messageable(channel.id).get_partial_message(new.id).delete()
        assert pings(channel) == []
        await finish_turn(first, msg)
        (last,) = pings(channel)
        assert last.content == f"<@{second.id}>, your turn — {link}"
        (row,) = await bot.tables.store.live_tables()
        assert row.ui["ping"] == last.id


async def test_the_last_ping_goes_when_the_game_ends(harness):
    harness.dice = DICE
    harness.aux = [2]
    async with simcord.run(harness.bot()) as env:
        guild = env.create_guild()
        channel = guild.create_text_channel("yahtzee")
        users = [guild.add_member(env.create_user(n)) for n in ("alice", "bob")]
        msg = await open_table(env, channel, users[0], users[1:], "yahtzee")
        await play_out(env, harness, msg, users, restart_at=9)
        assert "the game is over" in msg.content
        assert pings(channel) == []
        assert len(channel.history()) == 1


async def test_pings_in_the_table_language(harness):
    harness.dice = DICE
    harness.aux = [2]
    async with simcord.run(harness.bot()) as env:
        guild = env.create_guild()
        channel = guild.create_text_channel("yahtzee")
        users = [guild.add_member(env.create_user(n)) for n in ("alice", "bob")]
        await harness.bots[-1].tables.store.set_guild_setting(guild.id, "lang", "ja")
        res = await users[0].slash(channel, "play", game="yahtzee")
        msg = res.response
        accepted(await users[1].click(msg, custom_id=_id(msg, "join")))
        accepted(await users[0].click(msg, custom_id=_id(msg, "start")))
        for _ in range(2):
            who = next(u for u in users if f"手番: <@{u.id}>" in msg.content)
            accepted(await who.click(msg, custom_id=_id(msg, "m:roll")))
            accepted(await press(who, msg, first_choice(msg)))
            other = next(u for u in users if u is not who)
            (ping,) = pings(channel, "あなたの手番です")
            link = message_link(guild.id, channel.id, msg.id)
            assert ping.content == f"<@{other.id}>さん、あなたの手番です — {link}"


def _id(msg, action):
    return next(c["custom_id"] for c in controls(msg) if c["custom_id"].endswith(":" + action))


async def test_no_ping_for_a_computer_player(harness):
    """alice → the computer: no ping (alice's old one goes); the computer →
    alice: a new ping for alice; alice going on: the ping stays."""
    harness.source = SeededSource
    bot = harness.bot()
    bot.cpu_delay = 0.0
    async with simcord.run(bot, settle_timeout=60.0) as env:
        guild = env.create_guild()
        channel = guild.create_text_channel("nine")
        alice = guild.add_member(env.create_user("alice"))
        res = await alice.slash(channel, "play", game="nine")
        msg = res.response
        accepted(await alice.click(msg, label="Add computer (easy)"))
        accepted(await alice.click(msg, label="Start"))
        await env.settle()
        store = harness.bots[-1].tables.store
        handed_back = went_on = 0
        while controls(msg) and handed_back < 3:
            assert f"Turn: <@{alice.id}>" in msg.content
            before = [p.id for p in pings(channel)]
            accepted(await press(alice, msg, first_choice(msg)))
            await env.settle()
            rows = await store.live_tables()
            if not rows:
                break  # the game is over
            last = rows[0].state["history"]["moves"][-1]
            now = pings(channel)
            assert all(p.content.startswith(f"<@{alice.id}>, your turn") for p in now)
            if last.startswith("alice "):  # alice goes on
                assert [p.id for p in now] == before
                went_on += 1
            else:  # the computer moved and handed the turn back
                assert len(now) == 1 and now[0].id not in before
                assert rows[0].ui["ping"] == now[0].id
                handed_back += 1
        assert handed_back and went_on
