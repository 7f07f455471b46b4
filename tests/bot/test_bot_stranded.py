"""Never stranded: every committed move reaches the screen, every fault is
repaired, and a game nobody can play ends unrated.

Discord's faults are injected with SimCord (``env.inject_error``): a late or
failed answer (10062, 5xx), a failed edit, a deleted message, a channel the
bot lost. Each story checks what a player sees next: the table shows the
game as stored, the next press works without waiting for the turn clock,
nothing is rated that nobody could play, the channel is free.
"""

from __future__ import annotations

import sqlite3

from simtable import privately, refused, says, taken, walk

from bot.followers.clock import REPAIR_EVERY, REPAIR_GRACE
from bot.turns import first_turn_seconds
from games import registry
from games.core import SeededSource

DICE = SeededSource("stranded").roll(2000)
ANSWER = "/interactions/*/*/callback"  # the answer to a press or command
EDIT = "/channels/*/messages/*"  # an edit of a message by id
TURN = registry.spec("nine").turn_seconds
FIRST = first_turn_seconds(TURN)  # a player's first turn of a game (docs/bot.md)


def fail(night, method: str, path: str, *, status=500, code=0, times=1) -> None:
    night.env.inject_error(method, path, status=status, code=code, times=times)


async def test_a_late_answer_still_shows_the_move_and_sends_the_dice(game_night):
    """The answer came after Discord's 3 s (10062): the table is edited by id
    and the Bluff roller still sees the dice under the cup in a DM."""
    async with game_night(dice=[5, 4] + DICE, aux=[1]) as night:
        table = await night.table("bluff")
        roller = table.mover
        fail(night, "POST", ANSWER, status=404, code=10062)
        await table.press("Roll", by=roller)
        assert (await table.moves())[-1] == f"{roller.name} roll"
        assert "Roll" not in table.buttons  # the screen shows the roll
        assert any(says(m.content, "private.header") for m in night.dms(roller))
        row = await table.row()
        assert row.shown == row.version


async def test_a_table_that_fell_behind_is_redrawn_by_the_next_press(game_night):
    """The answer and the edit both failed: the message still offers Roll.
    Pressing it redraws the table at once — with working buttons — and says
    so; the next press plays."""
    async with game_night(dice=DICE, aux=[6, 2]) as night:
        table = await night.table("nine")
        alice = table.mover
        fail(night, "POST", ANSWER)
        fail(night, "PATCH", EDIT)
        await table.press("Roll", by=alice)
        row = await table.row()
        assert row.state["history"]["moves"] == [f"{alice.name} roll"]
        assert row.shown < row.version and table.buttons == ["Roll"]  # behind
        res = await table.press("Roll", by=alice)
        assert res.followups and says(res.followups[0].content, "table.redrawn")
        assert "Roll" not in table.buttons  # the flips of the roll stored
        assert await table.moves() == [f"{alice.name} roll"]  # nothing played twice
        assert taken(await table.play(by=alice))
        assert len(await table.moves()) == 2


async def test_a_double_click_on_an_up_to_date_table_is_refused_as_before(game_night):
    async with game_night(dice=DICE, aux=[6, 2]) as night:
        table = await night.table("nine")
        old = table.snapshot()
        assert taken(await table.press("Roll", by=night.alice))
        assert refused(await old.press("Roll", by=night.alice), "error.stale")


async def test_the_repair_sweep_catches_up_without_a_press(game_night):
    async with game_night(dice=DICE, aux=[6, 2]) as night:
        table = await night.table("nine")
        fail(night, "POST", ANSWER)
        fail(night, "PATCH", EDIT)
        await table.press("Roll", by=night.alice)
        assert table.buttons == ["Roll"]
        await night.wait(REPAIR_EVERY + REPAIR_GRACE)
        assert "Roll" not in table.buttons
        row = await table.row()
        assert row.shown == row.version


async def test_killed_between_commit_and_answer(game_night):
    """The process dies right after the commit (nothing shown, no DM sent):
    the next start redraws the table and sends the roller's dice."""
    async with game_night(dice=[5, 4] + DICE, aux=[1]) as night:
        table = await night.table("bluff")
        roller = table.mover
        bot = night.bot
        for follower in (bot.screen.on_commit, bot.private.on_commit, bot.screen.acknowledge):
            bot.tables.bus.unsubscribe(follower)  # the process is gone after the commit
        dms = len(night.dms(roller))
        await table.press("Roll", by=roller)
        assert "Roll" in table.buttons and len(night.dms(roller)) == dms
        await night.restart()
        assert "Roll" not in table.buttons
        assert len(night.dms(roller)) == dms + 1
        assert says(night.dms(roller)[-1].content, "private.header")


async def test_a_deleted_table_message_is_posted_again(game_night):
    async with game_night(dice=DICE, aux=[6, 2]) as night:
        table = await night.table("nine")
        old_id = table.message.id
        night.env.backend.delete_message(table.channel.id, old_id)
        await night.wait(FIRST - 15)  # the clock's warning finds no message to edit
        row = await table.row()
        assert row.message_id != old_id
        again = night.env.backend.get_message(table.channel.id, row.message_id)
        assert says(again.content, "table.reposted")  # the players are told, once
        assert any(c.get("type") == 2 for c in _components(again))  # working buttons
        status = await table.ask(night.alice, "game status")
        assert str(row.message_id) in status
        await night.wait(20)  # the clock plays on the new message
        again = night.env.backend.get_message(table.channel.id, row.message_id)
        assert not says(again.content, "table.reposted") and len(await table.moves()) >= 1


async def test_a_lobby_that_cannot_be_posted_leaves_the_channel_free(game_night):
    async with game_night() as night:
        fail(night, "POST", ANSWER, status=503)
        res = await night.command(night.alice, "play", game="nine")
        assert res.followups and says(res.followups[0].content, "error.lobby_not_posted")
        assert await night.store.tables.live_tables() == []
        res = await night.command(night.alice, "play", game="nine")
        assert res.response is not None and not res.response.ephemeral


async def test_an_unwritable_database_changes_nothing_and_says_so(game_night, monkeypatch):
    async with game_night(dice=DICE, aux=[6, 2]) as night:
        table = await night.table("nine")
        before = await table.row()

        async def full(*args, **kwargs):
            raise sqlite3.OperationalError("database or disk is full")

        monkeypatch.setattr(night.store.tables, "save_table", full)
        res = await table.press("Roll", by=night.alice)
        assert privately(res, "error.db_unavailable")
        monkeypatch.undo()
        after = await table.row()
        assert (after.version, after.state) == (before.version, before.state)
        assert table.buttons == ["Roll"]


async def test_a_table_in_a_channel_the_bot_lost_ends_unrated(game_night):
    async with game_night(dice=DICE, aux=[6, 2]) as night:
        table = await night.table("nine")
        channel = table.channel.id
        for method in ("PATCH", "POST"):
            fail(night, method, f"/channels/{channel}/messages*", status=403, code=50001,
                 times=None)  # fmt: skip
        await night.wait(FIRST + 5)  # a default move, unseen: the channel is unreachable
        assert len(await table.moves()) <= 2
        await night.wait(FIRST + 5)  # bob's first turn: the table is found unreachable
        assert await table.row() is None  # abandoned: the channel is free
        assert await night.store.results.all() == []  # no result, nothing rated


async def test_a_game_nobody_plays_ends_unrated(game_night):
    async with game_night(dice=DICE, aux=[6, 2]) as night:
        table = await night.table("nine")
        for wait in (FIRST, FIRST, TURN):  # alice's and bob's first turns, alice's second
            await night.wait(wait + 5)
        assert await table.row() is None
        assert table.shows("result.abandoned_idle", game="Nine", n=3)  # by nobody: no <@None>
        assert "None" not in table.content
        assert await night.store.results.all() == []


async def test_a_press_naming_another_channels_table_is_refused(game_night):
    async with game_night(dice=DICE, aux=[6, 2]) as night:
        mine = await night.table("nine")
        other = await night.table("nine", players=[night.carol, night.dave])
        before = await other.row()
        forged = other.message.components  # a control of the other table …
        cid = next(c["custom_id"] for c in walk(forged) if c.get("type") == 2)
        res = await mine.snapshot().press(by=night.alice, custom_id=cid)  # … pressed here
        assert refused(res, "error.no_table")
        assert (await other.row()).version == before.version
        huge = await mine.snapshot().press(
            by=night.alice, custom_id="cb:99999999999999999999:1:join"
        )
        assert refused(huge, "error.no_table")


async def test_the_race_for_the_last_seat_says_full(game_night):
    async with game_night() as night:
        table = await night.table("sixtysix", players=1, start=False)
        old = table.snapshot()
        assert taken(await table.press("Join", by=night.bob))
        assert refused(await old.press("Join", by=night.carol), "lobby.full", max=2)


def _components(message):
    return list(walk(getattr(message, "components", None) or []))


async def test_two_games_finishing_at_once_both_rate_the_shared_player(tmp_path):
    """The ratings are read and written inside each finishing transaction."""
    import asyncio

    from bot import ratings
    from bot.results.rows import PlayerResult, Result
    from bot.storage import Store

    store = Store(tmp_path / "db.sqlite3")
    await store.open()
    finished = []
    for channel in (1, 2):
        row = await store.tables.create_table(
            guild_id=9, channel_id=channel, game="nine", host_id=1,
            seats=[], options={}, now=0.0,
        )  # fmt: skip
        players = [
            PlayerResult(1, "alice", 1, True, 2),
            PlayerResult(channel + 1, "x", 2, False, -2),
        ]
        result = Result(
            table_id=row.id, guild_id=9, channel_id=channel, game="nine", record={},
            outcome={}, players=players, seed=None, has_bots=False, finished_at=0.0,
            rated=True, rate=ratings.rate,
        )  # fmt: skip
        finished.append(store.results.finish_table(row, result))
    assert all(await asyncio.gather(*finished))
    async with store.db.connection.execute("SELECT games FROM ratings WHERE user_id = 1") as cur:
        assert (await cur.fetchone())[0] == 2  # both games counted for alice
    await store.close()


async def test_who_left_is_no_longer_the_host(game_night):
    async with game_night(dice=DICE, aux=[6, 2, 1]) as night:
        table = await night.table("nine", players=3)
        await table.command(night.alice, "game leave")  # the host forfeits
        assert (await table.row()).host_id == night.bob.id
        res = await table.command(night.alice, "game end")
        assert refused(res, "error.end_not_allowed")


def test_secrets_never_reach_a_debug_log(monkeypatch):
    """discord.py logs whole gateway events (a DM interaction carries a hand)
    at DEBUG: those loggers stay at INFO whatever the bot's level."""
    import logging

    from bot import __main__ as entry

    monkeypatch.setenv("CHABUDAI_LOG_LEVEL", "DEBUG")
    root = logging.getLogger()
    saved = (root.handlers[:], root.level)
    try:
        entry.setup_logging("token")
        assert root.isEnabledFor(logging.DEBUG)
        for name in ("discord.gateway", "discord.webhook", "discord.http"):
            assert not logging.getLogger(name).isEnabledFor(logging.DEBUG), name
    finally:
        root.handlers[:], _ = saved[0], root.setLevel(saved[1])


async def test_a_member_who_left_the_server_cannot_play_from_a_dm(game_night):
    from games.core import SeededSource as Seeded

    decks = [Seeded(f"stranded-{i}").deck() for i in range(4)]
    async with game_night(decks=decks, aux=[1]) as night:
        table = await night.table("sixtysix")
        player = table.mover
        hand = night.hand(player)
        before = await table.row()
        night.guild.remove_member(player)
        res = await hand.choose(hand.choices[0])
        assert refused(res, "error.not_in_game")
        assert (await table.row()).version == before.version


async def test_a_drawing_bug_shows_the_words_only_table_with_labelled_moves(
    game_night, monkeypatch, caplog
):
    from bot.games import plugin

    async with game_night(dice=DICE, aux=[6, 2]) as night:
        table = await night.table("nine")

        def broken(view, lang):
            raise RuntimeError("a drawing bug")

        monkeypatch.setattr(plugin("nine"), "status_line", broken)
        assert taken(await table.press("Roll", by=night.alice))
        assert not table.attachments and table.choices  # words only, a select of the moves
        labels = [o["label"] for s in table.selects for o in s["options"]]
        assert labels and all(says(label, "nine.btn.flip") for label in labels), labels
        assert taken(await table.choose(table.choices[0], by=night.alice))  # it plays
    assert any("presenting failed" in r.getMessage() for r in caplog.records)
    caplog.clear()  # the failure was logged, as it must be


async def test_an_abandoned_sixty_six_leaves_no_playable_hand(game_night):
    from games.core import SeededSource as Seeded

    decks = [Seeded(f"stranded-{i}").deck() for i in range(4)]
    async with game_night(decks=decks, aux=[1]) as night:
        table = await night.table("sixtysix")
        assert night.hand(night.alice).controls and night.hand(night.bob).controls
        turn = registry.spec("sixtysix").turn_seconds
        for wait in (first_turn_seconds(turn), first_turn_seconds(turn), turn):
            await night.wait(wait + 5)  # nobody plays (two first turns): abandoned, unrated
        assert await table.row() is None and table.shows("result.abandoned_idle", game="Sixty-Six")
        assert not night.hand(night.alice).controls and not night.hand(night.bob).controls
