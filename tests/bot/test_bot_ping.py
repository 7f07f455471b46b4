"""Turn pings (SimCord): Discord notifies nobody of an edited table message,
so when the turn passes to another human player the bot sends a short channel
message mentioning them, in the table's language, and deletes the previous
one; none for a computer player or for the same player going on, none left
when the game ends."""

from __future__ import annotations

from simtable import exactly, taken

from bot.i18n import linked, t
from games.core import SeededSource

DICE = SeededSource("bot-ping-tests").roll(3000)
PING = "table.your_turn"


def link(table, lang="en"):
    """The ping's link: labelled with the table ("Yahtzee table"), not a bare URL."""
    return linked("link.table", lang, table.link, game=t(f"game.{table.game}", lang))


async def finish_turn(table, user):
    """Yahtzee: roll (the same player goes on), then score the first box."""
    assert taken(await table.press("Roll", by=user))
    assert taken(await table.play(by=user))


async def test_a_ping_mentions_the_next_player_and_replaces_the_last(game_night):
    async with game_night(dice=DICE, aux=[2]) as night:
        table = await night.table("yahtzee")
        alice, first = night.alice, table.mover
        second = night.bob if first is alice else alice
        # Start pressed by alice: the first player is pinged unless it is alice
        at_start = table.posts(PING)
        if first is alice:
            assert at_start == []
        else:
            (ping,) = at_start
            assert exactly(ping.content, PING, player=first.mention, link=link(table))

        assert taken(await table.press("Roll", by=first))  # the same player goes on
        assert [p.id for p in table.posts(PING)] == [p.id for p in at_start]
        assert taken(await table.play(by=first))  # the turn passes
        assert table.mover is second
        (ping,) = table.posts(PING)
        assert exactly(ping.content, PING, player=second.mention, link=link(table))
        assert len(table.history()) == 2  # the table message and one ping

        await finish_turn(table, second)
        assert table.mover is first
        (new,) = table.posts(PING)
        assert exactly(new.content, PING, player=first.mention, link=link(table))
        assert new.id != ping.id
        assert night.gone(ping)  # deleted
        assert len(table.history()) == 2

        # a ping already deleted by hand: the next turn change goes on quietly
        channel = night.bot.get_partial_messageable(table.channel.id)
        await channel.get_partial_message(new.id).delete()
        assert table.posts(PING) == []
        await finish_turn(table, first)
        (last,) = table.posts(PING)
        assert exactly(last.content, PING, player=second.mention, link=link(table))
        assert (await table.row()).ui["ping"] == last.id


async def test_the_last_ping_goes_when_the_game_ends(game_night):
    async with game_night(dice=DICE, aux=[2]) as night:
        table = await night.table("yahtzee")
        await table.play_to_the_end(restart_at=9)
        assert table.shows("result.title", game="Yahtzee")
        assert table.posts(PING) == []
        assert len(table.history()) == 1


async def test_pings_in_the_table_language(game_night):
    async with game_night(dice=DICE, aux=[2]) as night:
        table = await night.table("yahtzee", lang="ja")
        for _ in range(2):
            who = table.mover
            assert table.shows("table.turn", "ja", player=who.mention)
            await finish_turn(table, who)
            other = night.bob if who is night.alice else night.alice
            (ping,) = table.posts(PING, "ja")
            assert exactly(ping.content, PING, "ja", player=other.mention, link=link(table, "ja"))


async def test_no_ping_for_a_computer_player(game_night):
    """alice → the computer: no ping (alice's old one goes); the computer →
    alice within a minute of her last turn: no new ping (she is at the table
    already); after a longer think: a new ping; alice going on: the ping
    stays. A short game against a computer pings once or twice, not a dozen
    times."""
    async with game_night(seeded=True) as night:
        table = await night.table("nine", players=1, cpus=["easy"])
        await night.settle()
        alice = night.alice
        handed_back = went_on = 0
        seen: set[int] = {p.id for p in table.posts(PING)}
        while not table.over and handed_back < 6:
            assert table.shows("table.turn", player=alice.mention)
            slow = handed_back == 3  # this time alice thinks longer than a minute
            if slow:
                await night.wait(61)
            before = [p.id for p in table.posts(PING)]
            assert taken(await table.play(by=alice))
            await night.settle()
            row = await table.row()
            if row is None:
                break  # the game is over
            last = row.state["history"]["moves"][-1]
            now = table.posts(PING)
            seen |= {p.id for p in now}
            assert all(exactly(p.content, PING, player=alice.mention) for p in now)
            if last.startswith("alice "):  # alice goes on
                assert [p.id for p in now] == before
                went_on += 1
            elif slow:  # the computer handed the turn back after a long turn: pinged
                assert len(now) == 1 and now[0].id not in before
                assert row.ui["ping"] == now[0].id
                handed_back += 1
            else:  # handed back within a minute: no new ping, the old one went
                assert now == [] and "ping" not in row.ui
                assert row.ui["turn_began"]["player"] == "alice"
                handed_back += 1
        assert handed_back > 3 and went_on
        assert 1 <= len(seen) <= 2
