"""The last fault cases of "never stranded" (issue 24), each injected through
SimCord: an unwritable database while turn clocks are due, a command on a
read-only database, a failed answer to a DM press, a failed end edit, clock
writes and the moves ledger, a lost channel, a full disk under the repair
sweep. Each story checks what the players and the operator see next."""

from __future__ import annotations

import contextlib
import sqlite3

from simtable import on_both_databases, says

from bot.followers.clock import BACKOFF_MAX, REPAIR_EVERY
from bot.turns import first_turn_seconds
from games import registry
from games.core import SeededSource

DICE = SeededSource("faults").roll(2000)
DECKS = [SeededSource(f"faults-{i}").deck() for i in range(4)]
ANSWER = "/interactions/*/*/callback"  # the answer to a press or command
EDIT = "/channels/*/messages/*"  # an edit of a message by id
TURN = registry.spec("nine").turn_seconds
FIRST = first_turn_seconds(TURN)  # a player's first turn of a game (docs/bot.md)


def fail(night, method: str, path: str, *, status=500, code=0, times=1) -> None:
    night.env.inject_error(method, path, status=status, code=code, times=times)


# ------------------------------------------------ 3: a failed answer to a DM


async def test_a_failed_answer_to_a_dm_press_still_updates_the_other_dm(game_night):
    """Alice's press in her Sixty-Six DM gets 10062: her DM is edited by id,
    and Bob's DM shows her card and his moves all the same."""
    async with game_night(decks=DECKS, aux=[2]) as night:  # bob deals: alice leads
        table = await night.table("sixtysix")
        mover = table.mover
        other = night.bob if mover is night.alice else night.alice
        hand = night.hand(mover)
        theirs = night.hand(other).content
        card = next(c for c in hand.choices if c.startswith("play "))
        fail(night, "POST", ANSWER, status=404, code=10062)
        await hand.choose(card)
        assert (await table.moves())[-1] == f"{mover.name} {card}"
        assert night.hand(other).content != theirs  # Bob's DM follows the move
        assert night.hand(other).choices  # and offers his moves
        assert not any(c == card for c in night.hand(mover).choices)  # hers is edited by id


# ------------------------------------------- 5: one write path, one ledger


def contiguous(lines) -> bool:
    """A table's ledger: versions 1, 2, 3 … with no gap and none twice."""
    return [line["version"] for line in lines] == list(range(1, len(lines) + 1))


@on_both_databases
async def test_the_ledger_is_contiguous_after_every_kind_of_change(game_night):
    """A press, a turn clock, a computer, a kick, an abandon, an end, and a
    table in a channel the bot lost (the clock's saves of an unreachable
    table used to skip the ledger: versions 1, 2, 3, 4, 6)."""
    async with game_night(dice=DICE, aux=[6, 2, 6, 2, 6, 2, 6, 2]) as night:
        kinds: dict[str, set[str]] = {}

        async def check(table_id: int) -> None:
            lines = await night.store.tables.ledger(table_id)
            assert contiguous(lines), lines
            for line in lines:
                kinds.setdefault(line["origin"], set()).add(line["move"].split()[-1])

        # a press, a turn clock, a kick for a computer (which moves), an abandon
        nine = await night.table("nine")
        nine_id = (await nine.row()).id
        await nine.press("Roll", by=night.alice)
        await night.wait(TURN + 5)  # alice's flip by the clock (she has moved: her turn clock)
        await nine.command(night.alice, "game kick", player=night.bob, replace_with_cpu=True)
        await night.settle()
        await nine.command(night.alice, "game end")  # no contest: abandoned
        assert await nine.row() is None
        await check(nine_id)
        # an end: both agree, Six Dice settles as it stands
        six = await night.table("sixdice")
        six_id = (await six.row()).id
        await six.command(night.alice, "game end")
        await six.command(night.bob, "game end")
        assert await six.row() is None and await six.results()
        await check(six_id)
        # a channel the bot lost: the clock keeps it, then abandons it
        lost = await night.table("nine", players=[night.carol, night.dave])
        lost_id = (await lost.row()).id
        for method in ("PATCH", "POST"):
            fail(night, method, f"/channels/{lost.channel.id}/messages*", status=403,
                 code=50001, times=None)  # fmt: skip
        for wait in (FIRST, FIRST):  # carol's first turn, then dave's: found lost, ended
            await night.wait(wait + 5)
        assert await lost.row() is None
        await check(lost_id)
        assert {"press", "clock", "cpu", "command"} <= set(kinds), kinds
        assert {"abandoned", "finished", "seats"} <= set().union(*kinds.values()), kinds
        assert "clock" in kinds["clock"]  # the unreachable table's clock, kept


async def test_a_lobby_that_cannot_be_posted_leaves_a_ledger_line(game_night):
    async with game_night() as night:
        fail(night, "POST", ANSWER, status=503)
        await night.command(night.alice, "play", game="nine")
        assert await night.store.tables.live_tables() == []
        lines = await night.store.tables.ledger()
        assert [line["move"] for line in lines] == ["opened", "cancelled"], lines


# --------------------------------------- 1: an unwritable database, backed off


@contextlib.asynccontextmanager
async def read_only(night):
    """The database file cannot be written (as on a full disk or a file
    made read-only): every write raises, reads still work."""
    await night.store.db._x("PRAGMA query_only = ON")
    try:
        yield
    finally:
        await night.store.db._x("PRAGMA query_only = OFF")


async def test_an_unwritable_database_backs_the_turn_clock_off(game_night, caplog):
    """Ten minutes of a read-only database with a turn clock due: the
    operator is told once and reminded every few minutes (it was an ERROR
    with a traceback every second, 600 of them), the sweeper tries less and
    less often, and once writes work the timeout is played, once."""
    async with game_night(dice=[4, 5] + DICE, aux=[6, 2]) as night:
        table = await night.table("nine")
        store = night.store
        tries = 0
        claim = store.tables.claim_due

        async def counted(**kwargs):
            nonlocal tries
            tries += 1
            return await claim(**kwargs)

        store.tables.claim_due = counted
        caplog.clear()
        async with read_only(night):
            await night.wait(TURN + 600)
            assert await table.moves() == []
        lines = [r for r in caplog.records if r.name == "bot.followers.clock"]
        assert 1 <= len(lines) <= 3, [r.getMessage() for r in lines]  # once, reminders
        assert all(r.exc_info is None for r in lines)  # no traceback
        assert "cannot be written" in lines[0].getMessage()
        assert tries <= 20, tries  # backed off (one a second before)
        caplog.clear()
        await night.wait(BACKOFF_MAX + 1)
        assert await table.moves() == ["alice roll", "alice flip 9"]  # the timeout, once
        assert table.shows("ev.timeout", player="alice", count=1, max=3)
        assert any("can be written again" in r.getMessage() for r in caplog.records)


# ------------------------- 7: a full disk does not make the repair loop


async def test_a_full_disk_does_not_redraw_a_table_every_repair_sweep(game_night, caplog):
    """The table fell behind (answer and edit failed), then the disk filled:
    the repair sweep redraws it once, keeps in memory that it did (the shown
    version cannot be saved), and does not redraw it every 30 s."""
    async with game_night(dice=DICE, aux=[6, 2]) as night:
        table = await night.table("nine")
        table_id = (await table.row()).id
        fail(night, "POST", ANSWER)
        fail(night, "PATCH", EDIT)
        await table.press("Roll", by=night.alice)
        assert table.buttons == ["Roll"]  # behind
        message = f"/channels/{table.channel.id}/messages/{table.message.id}"
        edits = len([r for r in night.env.http_requests if r.path == message])
        async with read_only(night):
            await night.wait(REPAIR_EVERY * 10)
            redrawn = [r for r in night.env.http_requests if r.path == message][edits:]
            assert "Roll" not in table.buttons  # caught up
            assert len(redrawn) == 1, len(redrawn)  # once, not every sweep
        caplog.clear()
        await night.wait(BACKOFF_MAX + 1)
        row = await night.store.tables.get_table(table_id)
        assert row.shown == row.version  # written by the sweeper once the disk had room


# ------------------------------- 2: every command answers, on any error


def answered(res, key: str) -> bool:
    """The command got an answer only its user sees, saying ``key``."""
    text = res.response.content if res.response is not None else None
    if text is None and res.followups:
        text = res.followups[0].content
    return says(text, key)


async def test_play_on_a_read_only_database_answers_and_leaves_nothing(game_night):
    async with game_night() as night:
        async with read_only(night):
            res = await night.command(night.alice, "play", game="nine")
        assert answered(res, "error.db_unavailable"), res
        assert isinstance(night.env.errors[0].original, sqlite3.Error)  # handled, answered
        assert await night.store.tables.live_tables() == []
        res = await night.command(night.alice, "play", game="nine")  # the channel is free
        assert res.response is not None and not res.response.ephemeral


async def test_play_whose_opening_cannot_be_saved_is_not_half_written(game_night, monkeypatch):
    """The row was made, then the disk filled before the lobby was saved:
    the user is told, and no half-made lobby holds the channel."""
    async with game_night() as night:
        async def full(*args, **kwargs):
            raise sqlite3.OperationalError("database or disk is full")

        monkeypatch.setattr(night.store.tables, "save_table", full)
        res = await night.command(night.alice, "play", game="nine")
        assert answered(res, "error.db_unavailable"), res
        monkeypatch.undo()
        assert await night.store.tables.live_tables() == []
        res = await night.command(night.alice, "play", game="nine")
        assert res.response is not None and not res.response.ephemeral


async def test_a_lobby_left_half_made_is_cleared(game_night, monkeypatch):
    """A row never opened (version 0: the database failed, or the process
    died, between its two writes) neither holds the channel nor is redrawn."""
    async with game_night() as night:
        async def full(*args, **kwargs):
            raise sqlite3.OperationalError("database or disk is full")

        monkeypatch.setattr(night.store.tables, "save_table", full)
        monkeypatch.setattr(night.store.tables, "delete_table", full)  # the clean-up fails too
        await night.command(night.alice, "play", game="nine")
        monkeypatch.undo()
        (left,) = await night.store.tables.live_tables()
        assert left.version == 0
        await night.wait(REPAIR_EVERY + 15)  # the repair sweep removes it
        assert await night.store.tables.live_tables() == []
        await night.store.tables.create_table(
            guild_id=night.guild.id, channel_id=night.channel.id, game="nine",
            host_id=night.bob.id, seats=[], options={}, now=night.clock() - 60,
        )  # fmt: skip
        res = await night.command(night.alice, "play", game="nine")  # /play removes it too
        assert res.response is not None and not res.response.ephemeral


async def test_config_on_a_read_only_database_answers_and_changes_nothing(game_night):
    async with game_night(managers=["alice"]) as night:
        async with read_only(night):
            res = await night.command(night.alice, "config language", value="ja")
        assert answered(res, "error.db_unavailable"), res
        assert night.env.errors
        assert await night.store.settings.guild_setting(night.guild.id, "lang") is None


async def test_a_command_that_fails_says_so(game_night, monkeypatch, caplog):
    async with game_night(dice=DICE, aux=[6, 2]) as night:
        table = await night.table("nine")

        async def broken(interaction):
            raise RuntimeError("a bug")

        monkeypatch.setattr(night.bot.presses, "status", broken)
        res = await table.command(night.alice, "game status")
        assert answered(res, "error.command_failed"), res
        assert night.env.errors
        assert any(r.exc_info for r in caplog.records if r.levelname == "ERROR")
        caplog.clear()


async def test_a_press_that_fails_says_so(game_night, monkeypatch, caplog):
    """A button whose handler raises answers the presser as a slash command
    does (the one failure handler), never "This interaction failed"."""
    async with game_night(dice=DICE, aux=[6, 2]) as night:
        table = await night.table("nine")
        before = await table.row()

        async def broken(*args, **kwargs):
            raise RuntimeError("a bug")

        monkeypatch.setattr(night.bot.presses, "press", broken)
        res = await table.play(by=table.mover)
        assert answered(res, "error.command_failed"), res
        assert any(r.exc_info and "button" in r.getMessage() or "select" in r.getMessage()
                   for r in caplog.records if r.levelname == "ERROR")  # fmt: skip
        assert (await table.row()).version == before.version  # nothing changed
        caplog.clear()


# ------------------------------------- 6: a lost channel tells the players


def lose(night, channel) -> None:
    """The bot can no longer post or edit in ``channel`` (403 Missing Access)."""
    for method in ("PATCH", "POST"):
        fail(night, method, f"/channels/{channel.id}/messages*", status=403, code=50001,
             times=None)  # fmt: skip


async def test_a_lost_channel_tells_the_players_where_they_can_see_it(game_night):
    """Alice is told in a DM that the channel is lost (and by when the game
    ends), then that it ended; Bob, whose DMs are closed, hears it with his
    next command anywhere. It used to end silently."""
    async with game_night(dice=DICE, aux=[6, 2], closed_dms=["bob"]) as night:
        table = await night.table("nine")
        dms = len(night.dms(night.alice))
        lose(night, table.channel)
        await night.wait(FIRST + 5)  # the clock's move cannot be shown: the channel is lost
        told = night.dms(night.alice)[dms:]
        channel = table.channel.mention
        assert len(told) == 1 and says(told[0].content, "table.lost", game="Nine",
                                       channel=channel), told  # fmt: skip
        other = await night.table("nine", players=[night.carol], start=False)
        res = await other.act("join", by=night.bob)  # his next press, anywhere
        assert any(says(f.content, "table.lost", channel=channel) for f in res.followups), res
        await night.wait(FIRST + 5)  # bob's first turn's deadline: the time the DM said
        assert await table.row() is None  # ended, unrated
        told = night.dms(night.alice)[dms:]
        assert len(told) == 2 and says(told[1].content, "table.lost_ended", game="Nine",
                                       channel=channel)  # fmt: skip
        res = await night.command(night.bob, "help")
        assert any(says(f.content, "table.lost_ended", channel=channel) for f in res.followups)
        res = await night.command(night.bob, "help")
        assert not res.followups  # told once


# ------------------------------- 4: a finished table is repaired too


def shows_result(table) -> bool:
    """The table message is the result: no table controls, the result's own."""
    return table.over and any(cid.startswith("cr:") for cid in table.custom_ids)


@on_both_databases
async def test_a_finished_table_whose_end_edit_failed_is_repaired(game_night):
    """The edit that shows the game's end failed once (a 500): the message
    kept the live game and its buttons answered "This table is gone". The
    repair sweep shows the result and removes the controls."""
    async with game_night(dice=DICE, aux=[6, 2]) as night:
        table = await night.table("sixdice")
        fail(night, "PATCH", EDIT)
        await table.command(night.alice, "game end")  # the host ends it: stored, not shown
        assert await table.row() is None and await table.results()
        assert not table.over  # still the live game
        await night.wait(REPAIR_EVERY + 15)
        assert shows_result(table), table.content
        assert table.shows("result.no_contest", user=night.alice.mention)


async def test_a_press_on_a_finished_table_that_shows_the_game_shows_the_result(game_night):
    async with game_night(dice=DICE, aux=[6, 2]) as night:
        table = await night.table("sixdice")
        fail(night, "PATCH", EDIT)
        await table.command(night.alice, "game end")
        mover = table.mover
        res = await table.press(table.buttons[0], by=mover)  # the message still shows the game
        assert shows_result(table), table.content  # answered with the result
        assert res.response is None or not res.response.ephemeral, res


@on_both_databases
async def test_killed_after_the_end_was_stored_ends_the_same_way(game_night):
    """The process dies after the finishing commit, before anything is shown
    (kill -9): the next start shows the result."""
    async with game_night(dice=DICE, aux=[6, 2]) as night:
        table = await night.table("sixdice")
        bot = night.bot
        for follower in (bot.screen.on_commit, bot.private.on_commit, bot.screen.acknowledge):
            bot.tables.bus.unsubscribe(follower)  # the process is gone after the commit
        await table.command(night.alice, "game end")
        assert await table.row() is None and not table.over
        await night.restart()
        assert shows_result(table), table.content
        await night.wait(REPAIR_EVERY + 15)
        assert await night.store.results.unshown_results(night.clock()) == {}  # nothing left to repair


async def test_a_finished_table_in_a_lost_channel_is_not_redrawn_forever(game_night):
    async with game_night(dice=DICE, aux=[6, 2]) as night:
        table = await night.table("sixdice")
        fail(night, "PATCH", EDIT)
        await table.command(night.alice, "game end")
        lose(night, table.channel)
        await night.wait(REPAIR_EVERY + 15)  # tried once: the channel is gone
        message = f"/channels/{table.channel.id}/messages/{table.message.id}"
        tried = len([r for r in night.env.http_requests if r.path == message])
        await night.wait(REPAIR_EVERY * 6)
        assert len([r for r in night.env.http_requests if r.path == message]) == tried
        assert await night.store.results.unshown_results(night.clock()) == {}


async def test_a_command_whose_answer_discord_refuses_logs_no_error(game_night, caplog):
    """Discord refuses a command's answer (too late: 10062): a warning, not
    an ERROR with a traceback, and the rest of the bot goes on."""
    async with game_night(dice=DICE, aux=[6, 2]) as night:
        table = await night.table("nine")
        fail(night, "POST", ANSWER, status=404, code=10062, times=2)
        await table.command(night.alice, "game status")
        assert night.env.errors  # raised by the command, handled by the tree's handler
        assert not [r for r in caplog.records if r.levelname == "ERROR"]
        assert any("refused" in r.getMessage() for r in caplog.records)


async def test_a_refused_answer_to_show_my_hand_is_no_error(game_night, caplog):
    """"Show my hand" answered too late (10062): a warning; nothing raised."""
    async with game_night(decks=DECKS, aux=[2], closed_dms=["bob"]) as night:
        table = await night.table("sixtysix")
        fail(night, "POST", ANSWER, status=404, code=10062)
        await table.press("Show my hand", by=night.bob)
        assert not [r.getMessage() for r in caplog.records if r.levelname == "ERROR"]
        res = await table.press("Show my hand", by=night.bob)  # the next one works
        assert res.response is not None and res.response.ephemeral


async def test_a_failed_private_answer_does_not_stop_the_followers(game_night, caplog):
    """The Bluff roller's DMs are closed and the answer that would show
    their dice fails (a 500): the table still shows the roll."""
    async with game_night(dice=[5, 4] + DICE, aux=[1], closed_dms=["alice", "bob"]) as night:
        table = await night.table("bluff")
        roller = table.mover
        fail(night, "POST", ANSWER, times=2)  # the answer, then the private fallback
        await table.press("Roll", by=roller)
        assert (await table.moves())[-1] == f"{roller.name} roll"
        assert "Roll" not in table.buttons
        assert not [r.getMessage() for r in caplog.records if r.levelname == "ERROR"]
