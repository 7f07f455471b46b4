"""Turn clocks through Discord (SimCord ``env.advance_time``): the default
move of each game at the deadline, the warning, removal after repeated
timeouts, a lobby expiring, deadlines surviving a restart, and due deadlines
firing exactly once."""

from __future__ import annotations

import asyncio

import pytest
from simtable import says, taken

from bot.followers.clock import Sweeper
from bot.tables.service import TableService
from bot.turns import first_turn_seconds
from games import registry
from games.core import CARDS, SeededSource
from games.sixtysix.engine import POINTS, POWER

DICE = SeededSource("bot-clock-tests").roll(2000)
WARNINGS = ("clock.warning", "clock.ping")  # every sentence telling of seconds left


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
async def test_timeout_plays_the_default_move(
    game_night, game, options, dice, aux, decks, expected
):
    async with game_night(dice=dice, aux=aux, decks=decks) as night:
        table = await night.table(game, options=options)
        mover = table.mover
        seconds = first_turn_seconds(registry.spec(game).turn_seconds)  # their first turn
        assert table.shows("clock.deadline", time=f"<t:{int(night.clock()) + seconds}:R>")
        if expected is None:  # Sixty-Six: the lowest legal card of the leader
            state = registry.engine(game).from_json((await table.row()).state)
            plays = [
                m for m in registry.engine(game).legal_moves(state, mover.name) if m[:5] == "play "
            ]
            expected = [min(plays, key=lambda m: (POINTS[m[5:]], POWER[m[5:]], m))]
            assert POINTS[expected[0][5:]] == min(POINTS[m[5:]] for m in plays)
        await night.wait(seconds - 5)
        assert await table.moves() == []
        await night.wait(10)
        assert await table.moves() == [f"{mover.name} {m}" for m in expected]
        assert table.shows("ev.timeout", player=mover.name, count=1, max=3)
        assert table.mover is not mover or game == "sixtysix"


async def test_warning_mentions_the_player_once(game_night):
    async with game_night(dice=[4, 5] + DICE, aux=[6, 2]) as night:
        table = await night.table("nine")
        alice = night.alice
        assert table.mover is alice
        before = len(table.history())
        first = first_turn_seconds(90)  # alice's first turn of the game
        await night.wait(first - 25)
        assert not any(table.shows(key) for key in WARNINGS)
        await night.wait(10)  # 15 s left
        assert table.shows("clock.warning", player=alice.mention, seconds=20)
        (ping,) = table.posts("clock.ping")
        assert says(ping.content, "clock.ping", player=alice.mention)
        assert len(table.history()) == before + 1
        await night.wait(10)  # still before the deadline: no second ping
        assert len(table.posts("clock.ping")) == 1
        # a move clears the warning; the buttons were not invalidated by it
        assert taken(await table.press("Roll", by=alice))
        assert not any(table.shows(key) for key in WARNINGS)


async def test_three_timeouts_in_a_row_remove_the_player(game_night):
    async with game_night(dice=DICE, aux=[1]) as night:
        table = await night.table("yahtzee")
        slow = table.mover
        other = night.bob if slow is night.alice else night.alice
        for n in (1, 2, 3):
            assert table.mover is slow
            await night.wait(96 if n > 1 else first_turn_seconds(90) + 6)
            if n < 3:
                assert table.shows("ev.timeout", player=slow.name, count=n, max=3)
                while table.mover is other:  # the other player plays in time
                    await table.play(by=other)
        assert table.shows("ev.timeout_removed", player=slow.name, count=3)
        row = await table.row()
        assert row.state["history"]["moves"][-1] == f"{slow.name} forfeit"
        assert table.mover is other  # the rest play on
        assert row.clock["timeouts"] == {}


async def test_lobby_expires_after_ten_idle_minutes(game_night):
    async with game_night() as night:
        table = await night.table("nine", players=1, start=False)
        await night.wait(500)
        await table.press("Join", by=night.bob)  # a change: the idle clock starts again
        await night.wait(500)
        assert "Join" in table.buttons
        assert await table.row() is not None
        await night.wait(110)
        assert table.shows("lobby.expired", game="Nine", minutes=10)
        assert not table.message.components
        assert await night.store.tables.live_tables() == []


async def test_deadline_survives_a_restart(game_night):
    async with game_night(dice=[4, 5] + DICE, aux=[6, 2]) as night:
        table = await night.table("nine")
        started = night.clock()
        first = first_turn_seconds(90)  # alice's first turn of the game
        assert (await table.row()).deadline == pytest.approx(started + first, abs=1)
        await night.wait(60)
        await night.restart()
        row = await table.row()
        assert row.deadline == pytest.approx(started + first, abs=1)  # not restarted from zero
        await night.wait(first - 65)  # 5 s left: warned by the new process, not yet timed out
        assert table.shows("clock.warning", seconds=20)
        assert await table.moves() == []
        await night.wait(10)
        assert await table.moves() == ["alice roll", "alice flip 9"]
        assert len(table.posts("clock.ping")) == 1


async def test_due_deadlines_fire_exactly_once(game_night):
    """Several tables due together, swept by two sweepers at once (as two
    processes would, each with its own locks): each times out exactly once."""
    async with game_night(dice=DICE, aux=[6, 2] * 4) as night:
        tables = [await night.table("nine") for _ in range(3)]
        night.clock.skew = first_turn_seconds(90) + 30  # every deadline is past; SimCord's own sweeps have not run
        bot = night.bot
        first = Sweeper(bot, bot.tables, bot.screen)
        other = TableService(bot.tables.store, clock=night.clock, bus=bot.tables.bus)  # other locks
        second = Sweeper(bot, other, bot.screen)
        await asyncio.gather(
            first.sweep(force=True), second.sweep(force=True), first.sweep(force=True)
        )
        rows = [await table.row() for table in tables]
        assert len(await night.store.tables.live_tables()) == 3
        for row in rows:
            assert row.clock["timeouts"] == {"alice": 1}, row.clock
            moves = row.state["history"]["moves"]
            assert [m.split()[1] for m in moves] == ["roll", "flip"], moves
            assert sum(e["kind"] == "timeout" for e in row.ui["log"]) == 1


async def test_a_players_first_turn_of_a_game_gets_a_longer_clock(game_night):
    """docs/bot.md "Turn clocks": a player's first turn of a game lasts three
    turn clocks, and at least three minutes — a newcomer reads the table
    before the clock runs out; from their second turn on, the turn clock."""
    async with game_night(dice=[4, 5, 3, 3, 2, 6, 1, 1] + DICE, aux=[6, 2]) as night:
        await night.settings(**{"clock.nine": 45})
        table = await night.table("nine")
        alice, bob = night.alice, night.bob
        longer = max(3 * 45, 180)  # the promise, read again: 180 s for a 45 s clock
        start = night.clock()
        assert (await table.row()).deadline == pytest.approx(start + longer, abs=1)
        await night.wait(45 + 10)  # the plain clock has run out: not the first turn's
        assert await table.moves() == [] and table.mover is alice
        assert not any(table.shows(key) for key in WARNINGS)
        assert taken(await table.press("Roll", by=alice))
        assert taken(await table.play(by=alice))  # her first turn is over: the flip
        # bob's first turn: the longer clock again, from alice's last move
        assert table.mover is bob
        row = await table.row()
        assert row.deadline == pytest.approx(night.clock() + longer, abs=1)
        assert taken(await table.press("Roll", by=bob))
        assert taken(await table.play(by=bob))
        # alice's second turn: the server's turn clock
        assert table.mover is alice
        assert (await table.row()).deadline == pytest.approx(night.clock() + 45, abs=1)
        await night.wait(45 + 5)
        assert (await table.moves())[-1].startswith("alice ")  # the clock played for her
        assert table.shows("ev.timeout", player="alice", count=1, max=3)
