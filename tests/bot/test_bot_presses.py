"""Refusals: out of turn, not a player, stale and duplicate presses, bad
options, a second table; and the /game commands."""

from __future__ import annotations

from simtable import exactly, privately, refused, says, taken

from bot.i18n import linked, t
from games.core import SeededSource

DICE = SeededSource("bot-press-tests").roll(500)


async def test_out_of_turn_non_player_stale_and_duplicate_change_nothing(game_night):
    async with game_night(dice=DICE, aux=[6, 2]) as night:
        table = await night.table("nine")
        alice, bob, eve = night.alice, night.bob, night.eve
        before = await table.row()
        old_roll = table.id_of("Roll")

        res = await table.press("Roll", by=bob)  # alice starts
        assert res.response.ephemeral and exactly(res.response.content, "error.not_your_turn")
        res = await table.press("Roll", by=eve)
        assert res.response.ephemeral and exactly(res.response.content, "error.not_in_game")
        after = await table.row()
        assert (after.version, after.state) == (before.version, before.state)

        assert taken(await table.press("Roll", by=alice))  # accepted: the message moves on
        moved = await table.row()
        assert moved.version == before.version + 1
        assert old_roll not in table.custom_ids

        flips = [c for c in table.controls if c["type"] == 2]
        assert flips and all(c["custom_id"].split(":")[2] == str(moved.version) for c in flips)
        assert taken(await table.press(flips[0]["label"], by=alice))
        after_flip = await table.row()
        assert after_flip.version == moved.version + 1


async def test_duplicate_and_stale_presses_are_refused_politely(game_night):
    """The second click of a double click carries the old version."""
    async with game_night(dice=DICE, aux=[6, 2]) as night:
        table = await night.table("nine")
        alice, bob = night.alice, night.bob
        old = table.snapshot()
        assert taken(await table.press("Roll", by=alice))
        row = await table.row()
        content = table.content
        second = await old.press("Roll", by=alice)
        assert second.response.ephemeral and exactly(second.response.content, "error.stale")
        again = await table.row()
        assert (again.version, again.state) == (row.version, row.state)
        assert table.content == content
        # a stale press after a restart is refused the same way
        await night.restart()
        assert refused(await old.press("Roll", by=bob), "error.stale")
        # an id for a table that no longer exists
        gone = await old.press(custom_id="cb:999:1:m:roll", by=alice)
        assert refused(gone, "error.no_table")


async def test_bad_options_and_a_second_table(game_night):
    async with game_night() as night:
        alice, bob = night.alice, night.bob
        res = await night.command(alice, "play", game="sixdice", options="colour=red")
        assert refused(res, "rule.option.unknown", option="colour")
        res = await night.command(alice, "play", game="sixdice", options="target=lots")
        assert refused(res, "rule.option.bad_value", option="target", value="lots")
        res = await night.command(alice, "play", game="sixdice", options="target=")
        assert refused(res, "rule.option.syntax", word="target=")
        assert await night.store.tables.live_tables() == []

        table = await night.table(
            "sixdice", players=1, start=False, options="target=5000 start=500"
        )
        options = table.reading("lobby.options")["options"]
        assert "target=5000" in options and "start=500" in options
        res = await table.command(bob, "play", game="nine")
        labelled = linked("link.table", "en", table.link, game="Six Dice")  # not a bare URL
        assert refused(res, "error.table_exists", game="Six Dice", link=labelled)


async def test_lobby_buttons(game_night):
    async with game_night() as night:
        table = await night.table("nine", players=1, start=False)
        alice, bob, carol = night.alice, night.bob, night.carol
        res = await table.press("Start", by=bob)
        assert res.response.ephemeral and exactly(res.response.content, "lobby.host_only")
        await table.press("Join", by=bob)
        assert refused(await table.press("Join", by=bob), "lobby.already_in")
        assert bob.mention in table.content
        await table.press("Leave", by=bob)
        assert bob.mention not in table.content
        res = await table.press("Cancel", by=carol)
        assert res.response.ephemeral
        await table.press("Cancel", by=alice)
        assert table.shows("lobby.cancelled", game="Nine") and table.over
        assert await night.store.tables.live_tables() == []


async def test_game_status_leave_and_end(game_night):
    async with game_night(dice=DICE, aux=[6, 2, 3]) as night:  # alice deals (a 1 counts as 10)
        alice, bob, carol = night.alice, night.bob, night.carol
        assert says(await night.ask(alice, "game status"), "error.no_table_here")
        table = await night.table("sixdice", players=3)
        assert says(await table.ask(carol, "game status"), "status.playing", turn="alice")

        # bob agrees to end (1 of 3); carol leaves, so the host's end is everyone's
        assert privately(await table.command(bob, "game end"), "end.agreed", n=1, m=3)
        await table.ask(carol, "game leave")  # a forfeit: carol is out
        assert table.shows("ev.sixdice.forfeit", player="carol")
        assert refused(await table.command(carol, "game end"), "error.end_not_allowed")
        await table.command(alice, "game end")  # settled as it stands
        assert table.shows("result.title", game="Six Dice") and table.shows("result.ended_agreed")
        results = await night.store.results.all()
    assert len(results) == 1
    settlement = results[0]["settlement"]
    assert sum(settlement.values()) == 0
    assert settlement[str(carol.id)] < 0  # the worst case for the leaver


async def test_game_end_without_a_settlement_abandons_with_the_last_picture(game_night):
    """Yahtzee has no settlement as it stands: /game end by the host closes
    the table without a result (no leaderboard entry), shows the sheet as it
    stood and the fair-dice digits (no result: no 🔑 Seed button to point
    to); the channel is free for a new table."""
    async with game_night(dice=[1, 2, 3, 4, 6, 5, 5, 5, 5, 5], aux=[1]) as night:
        table = await night.table("yahtzee")
        alice, bob = night.alice, night.bob
        await table.press("Roll", by=alice)
        assert privately(await table.command(bob, "game end"), "end.agreed", n=1, m=2)
        await table.command(alice, "game end")
        assert table.shows("result.abandoned", game="Yahtzee", user=alice.mention), table.content
        # no result, but the seed can be checked: its line names the button that is there
        assert table.shows("seed.result.dice", button=t("result.btn.fair"))
        assert t("result.btn.fair") in table.buttons
        assert table.over
        (picture,) = table.stored.attachments
        assert picture.get("description")
        assert await night.store.tables.live_tables() == [] and await night.store.results.all() == []
        res = await table.command(alice, "play", game="nine")
        assert not res.response.ephemeral  # a new lobby in the same channel


async def test_yahtzee_keep_toggles_and_reroll(game_night):
    async with game_night(dice=[1, 2, 3, 4, 6, 5, 5, 5, 5, 5], aux=[1]) as night:  # alice first
        table = await night.table("yahtzee")
        alice, bob = night.alice, night.bob
        await table.press("Roll", by=alice)
        assert table.shows("yahtzee.status.dice", dice="1 2 3 4 6")
        res = await table.act(table.actions[0], by=bob)
        assert res.response.ephemeral and exactly(res.response.content, "error.not_your_turn")
        for i in range(4):  # keep 1 2 3 4
            await table.act(f"k:{i}", by=alice)
        reroll = next(a for a in table.actions if a.startswith("m:keep"))
        assert reroll == "m:keep 1 2 3 4"
        await table.act(reroll, by=alice)
        assert table.shows("yahtzee.status.dice", dice="1 2 3 4 5")
        assert "score large_straight" in table.choices
        await table.choose("score large_straight", by=alice)
        assert table.shows("ev.yahtzee.score", player="alice", points=40, box="Large straight")
        assert table.shows("table.turn", player=bob.mention)
