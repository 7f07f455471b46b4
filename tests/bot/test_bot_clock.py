"""Turn clocks through Discord (SimCord ``env.advance_time``): the default
move of each game at the deadline, the warning, removal after repeated
timeouts, a lobby expiring, deadlines surviving a restart, and due deadlines
firing exactly once."""

from __future__ import annotations

import asyncio

import pytest
import simcord
from simlocale import EnvClock
from simtable import first_choice, mover_of, open_table, press

from bot.followers.clock import Sweeper
from bot.tables import TableService
from games import registry
from games.core import CARDS, ScriptedSource, SeededSource
from games.sixtysix.engine import POINTS, POWER

DICE = SeededSource("bot-clock-tests").roll(2000)


def start(harness, *, dice=None, aux=None, decks=None):
    """A bot whose clock follows SimCord's virtual time."""
    envclock = EnvClock()
    harness.clock = envclock
    if dice is not None:
        harness.dice = dice
    if aux is not None:
        harness.aux = aux
    if decks is not None:
        harness.source = lambda seed: ScriptedSource(
            dice=harness.dice, decks=decks, aux=harness.aux
        )
    return envclock, harness.bot()


async def table_row(harness):
    rows = await harness.bots[-1].tables.store.live_tables()
    assert len(rows) == 1
    return rows[0]


async def moves_of(harness):
    row = await table_row(harness)
    return row.state["history"]["moves"]


def two_players(env):
    guild = env.create_guild()
    channel = guild.create_text_channel("table")
    users = [guild.add_member(env.create_user(n)) for n in ("alice", "bob")]
    return guild, channel, users


# game, options, dice, aux, decks, expected moves of the first player's timeout
SIXTYSIX_DECK = list(CARDS)
CASES = [
    ("sixdice", "start=100", [1, 5, 2, 3, 4, 4] + DICE, [1, 5], None, ["roll", "take 1 5", "stop"]),
    ("yahtzee", None, [3, 3, 3, 5, 5] + DICE, [1], None, ["roll", "score full_house"]),
    ("nine", None, [4, 5] + DICE, [6, 2], None, ["roll", "flip 9"]),
    ("bluff", None, [5, 4] + DICE, [1], None, ["roll", "announce 31"]),
    ("sixtysix", None, [], [1], [SIXTYSIX_DECK] * 3, None),
]


@pytest.mark.parametrize(
    ("game", "options", "dice", "aux", "decks", "expected"), CASES, ids=[c[0] for c in CASES]
)
async def test_timeout_plays_the_default_move(harness, game, options, dice, aux, decks, expected):
    envclock, bot = start(harness, dice=dice, aux=aux, decks=decks)
    async with simcord.run(bot) as env:
        envclock.env = env
        _guild, channel, users = two_players(env)
        msg = await open_table(env, channel, users[0], users[1:], game, options)
        mover = mover_of(msg, users)
        seconds = registry.spec(game).turn_seconds
        assert f"<t:{int(envclock()) + seconds}:R>" in msg.content
        if expected is None:  # Sixty-Six: the lowest legal card of the leader
            row = await table_row(harness)
            state = registry.engine(game).from_json(row.state)
            plays = [
                m for m in registry.engine(game).legal_moves(state, mover.name) if m[:5] == "play "
            ]
            expected = [min(plays, key=lambda m: (POINTS[m[5:]], POWER[m[5:]], m))]
            assert POINTS[expected[0][5:]] == min(POINTS[m[5:]] for m in plays)
        await env.advance_time(seconds - 5)
        assert await moves_of(harness) == []
        await env.advance_time(10)
        assert await moves_of(harness) == [f"{mover.name} {m}" for m in expected]
        assert f"{mover.name} ran out of time (1/3)" in msg.content
        assert mover_of(msg, users) is not mover or game == "sixtysix"


async def test_warning_mentions_the_player_once(harness):
    envclock, bot = start(harness, dice=[4, 5] + DICE, aux=[6, 2])
    async with simcord.run(bot) as env:
        envclock.env = env
        _guild, channel, users = two_players(env)
        msg = await open_table(env, channel, users[0], users[1:], "nine")
        alice = users[0]
        assert mover_of(msg, users) is alice
        before = len(channel.history())
        await env.advance_time(65)
        assert "seconds left" not in msg.content
        await env.advance_time(10)  # 75 s: 15 s left
        assert f"⚠️ <@{alice.id}>: only 20 seconds left" in msg.content
        pings = [m for m in channel.history() if "seconds left for your move" in m.content]
        assert len(pings) == 1 and f"<@{alice.id}>" in pings[0].content
        assert len(channel.history()) == before + 1
        await env.advance_time(10)  # still before the deadline: no second ping
        pings = [m for m in channel.history() if "seconds left for your move" in m.content]
        assert len(pings) == 1
        # a move clears the warning; the buttons were not invalidated by it
        res = await alice.click(msg, label="Roll")
        assert res.response is None or not res.response.ephemeral
        assert "seconds left" not in msg.content


async def test_three_timeouts_in_a_row_remove_the_player(harness):
    envclock, bot = start(harness, dice=DICE, aux=[1])
    async with simcord.run(bot) as env:
        envclock.env = env
        _guild, channel, users = two_players(env)
        msg = await open_table(env, channel, users[0], users[1:], "yahtzee")
        slow = mover_of(msg, users)
        other = next(u for u in users if u is not slow)
        for n in (1, 2, 3):
            assert mover_of(msg, users) is slow
            await env.advance_time(96)
            if n < 3:
                assert f"{slow.name} ran out of time ({n}/3)" in msg.content
                while mover_of(msg, users) is other:  # the other player plays in time
                    await press(other, msg, first_choice(msg))
        assert f"{slow.name} ran out of time 3 times in a row and was removed" in msg.content
        row = await table_row(harness)
        assert row.state["history"]["moves"][-1] == f"{slow.name} forfeit"
        assert mover_of(msg, users) is other  # the rest play on
        assert row.clock["timeouts"] == {}


async def test_lobby_expires_after_ten_idle_minutes(harness):
    envclock, bot = start(harness)
    async with simcord.run(bot) as env:
        envclock.env = env
        _guild, channel, users = two_players(env)
        res = await users[0].slash(channel, "play", game="nine")
        msg = res.response
        await env.advance_time(500)
        await users[1].click(msg, label="Join")  # a change: the idle clock starts again
        await env.advance_time(500)
        assert "Join" in [c.get("label") for c in msg.components[0]["components"]]
        assert await harness.bots[-1].tables.store.live_tables()
        await env.advance_time(110)
        assert "closed after 10 minutes" in msg.content
        assert not msg.components
        assert await harness.bots[-1].tables.store.live_tables() == []


async def test_deadline_survives_a_restart(harness):
    envclock, bot = start(harness, dice=[4, 5] + DICE, aux=[6, 2])
    async with simcord.run(bot) as env:
        envclock.env = env
        _guild, channel, users = two_players(env)
        msg = await open_table(env, channel, users[0], users[1:], "nine")
        started = envclock()
        row = await table_row(harness)
        assert row.deadline == pytest.approx(started + 90)
        await env.advance_time(60)
        await env.restart_bot(harness.bot())
        row = await table_row(harness)
        assert row.deadline == pytest.approx(started + 90)  # not restarted from zero
        await env.advance_time(25)  # 85 s: warned by the new process, not yet timed out
        assert "only 20 seconds left" in msg.content
        assert await moves_of(harness) == []
        await env.advance_time(10)
        assert await moves_of(harness) == ["alice roll", "alice flip 9"]
        pings = [m for m in channel.history() if "seconds left for your move" in m.content]
        assert len(pings) == 1


async def test_due_deadlines_fire_exactly_once(harness):
    """Several tables due together, swept by two sweepers at once (as two
    processes would, each with its own locks): each times out exactly once."""
    envclock, bot = start(harness, dice=DICE, aux=[6, 2] * 4)
    async with simcord.run(bot) as env:
        envclock.env = env
        guild = env.create_guild()
        users = [guild.add_member(env.create_user(n)) for n in ("alice", "bob")]
        for name in ("one", "two", "three"):
            channel = guild.create_text_channel(name)
            await open_table(env, channel, users[0], users[1:], "nine")
        envclock.skew = 200  # every deadline is past; SimCord's own sweeps have not run
        first = Sweeper(bot, bot.tables, bot.screen)
        other = TableService(bot.tables.store, clock=envclock, bus=bot.tables.bus)  # other locks
        second = Sweeper(bot, other, bot.screen)
        await asyncio.gather(
            first.sweep(force=True), second.sweep(force=True), first.sweep(force=True)
        )
        rows = await bot.tables.store.live_tables()
        assert len(rows) == 3
        for row in rows:
            assert row.clock["timeouts"] == {"alice": 1}, row.clock
            moves = row.state["history"]["moves"]
            assert [m.split()[1] for m in moves] == ["roll", "flip"], moves
            assert sum(e["kind"] == "timeout" for e in row.ui["log"]) == 1
