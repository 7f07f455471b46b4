"""A table started from the Activity shows in the channel as today
(docs/activity.md "Protocol", ``open``): with no table in its channel a
proven user is offered the games; ``open`` makes a lobby through ``/play``'s
own code (its message posted in the chat, the limits and refusals of
``/play``), and the lobby's buttons (Join, Start, Add computer…) can be
pressed from the Activity too. A socket that proved nobody is offered
nothing and can open nothing."""

from __future__ import annotations

from types import SimpleNamespace

from activitykit import activity_of
from conftest import Table
from simcord.results import ResponseMessage
from simtable import says, taken

from bot import lobby
from bot.i18n import t
from games import registry


def bot_messages(night, channel):
    return [m for m in channel.history() if m.author.id == night.bot.user.id]


async def test_a_proven_socket_opens_a_lobby_that_shows_in_chat_and_is_played(game_night):
    async with game_night(seeded=True, locales={"carol": "ja"}) as night:
        channel = night.guild.create_text_channel("activity-open")
        alice, bob, carol = night.alice, night.bob, night.carol
        async with activity_of(night) as act:
            a = await act.open(alice, channel)
            c = await act.open(carol, channel)
            e = await act.open(None, channel)
            offer = await a.next("none")
            assert [g["name"] for g in offer["games"]] == list(registry.names())
            assert {g["name"]: g["label"] for g in offer["games"]}["nine"] == t("game.nine", "en")
            ja = await c.next("none")
            assert {g["name"]: g["label"] for g in ja["games"]}["nine"] == t("game.nine", "ja")
            assert "games" not in await e.next("none")  # nobody proven: no offer

            await a.send({"op": "open", "game": "nine"})
            lobby_frame = await a.table()
            await act.settle()
            assert lobby_frame["phase"] == "lobby" and lobby_frame["game"] == "nine"
            assert [p["display"] for p in lobby_frame["players"]] == ["alice"]
            assert lobby_frame["you"] == lobby_frame["players"][0]["name"]
            moves = [m["move"] for m in lobby_frame["moves"]]
            assert "leave" in moves and "cpu:normal" in moves and "join" not in moves
            assert "start" in moves  # Nine is played alone too (RULES.md)
            assert [m["move"] for m in (await c.table())["moves"]] == ["join"]
            assert (await e.table())["moves"] == []  # nobody proven: nothing to press

            # the lobby message is in the channel, as after /play
            (posted,) = bot_messages(night, channel)
            assert says(posted.content, "lobby.title", game=t("game.nine"))
            row = await night.store.tables.table_in_channel(channel.id)
            assert row is not None and row.host_id == alice.id and row.message_id == posted.id
            shown = ResponseMessage(night.env, night.env.backend.get_message(channel.id, posted.id))
            table = Table(night, shown, "nine", channel)

            # bob joins from the chat; the Activity shows him and offers Start
            assert taken(await table.act("join", by=bob))
            frame = await a.latest(lobby_frame["version"] + 1)
            assert [p["display"] for p in frame["players"]] == ["alice", "bob"]
            assert "start" in [m["move"] for m in frame["moves"]]
            assert "start" not in [m["move"] for m in (await c.latest())["moves"]]

            # the host starts from the Activity; the chat's message is the game
            await a.move(frame, "start")
            started = await a.latest(frame["version"] + 1)
            await act.settle()
            assert started["phase"] == "playing"
            assert "start" not in table.actions and "join" not in table.actions
            assert (await night.store.tables.table_in_channel(channel.id)).phase == "playing"

            # a move is played (from the chat), and shows in the Activity
            mover = table.mover
            before = await table.moves()
            assert taken(await table.press("Roll", by=mover))
            await a.latest(started["version"] + 1)
            assert len(await table.moves()) == len(before) + 1


async def test_join_and_add_computer_from_the_activity(game_night):
    async with game_night(seeded=True) as night:
        channel = night.guild.create_text_channel("activity-seats")
        async with activity_of(night) as act:
            a = await act.open(night.alice, channel)
            b = await act.open(night.bob, channel)
            await a.next("none")
            await a.send({"op": "open", "game": "bluff"})
            frame = await b.table()
            assert "start" not in [m["move"] for m in (await a.latest())["moves"]]  # one: too few
            await b.move(frame, "join")
            frame = await a.latest(frame["version"] + 1)
            await act.settle()
            assert [p["display"] for p in frame["players"]] == ["alice", "bob"]
            assert "start" in [m["move"] for m in frame["moves"]]
            # bob is no host: Add computer is refused, in words, and nothing changes
            mine = await b.latest()
            assert "cpu:normal" not in [m["move"] for m in mine["moves"]]
            await b.move(mine, "cpu:normal")
            refusal = await b.next("error")
            assert refusal["key"] == "lobby.host_only" and says(refusal["text"], "lobby.host_only")
            await a.move(frame, "cpu:normal")
            frame = await a.latest(frame["version"] + 1)
            await act.settle()
            assert [p["cpu"] for p in frame["players"]] == [False, False, True]
            row = await night.store.tables.table_in_channel(channel.id)
            assert [s.get("level") for s in row.seats] == [None, None, "normal"]
            (posted,) = bot_messages(night, channel)
            assert "CPU1" in posted.content and night.bob.mention in posted.content


async def test_nobody_proven_cannot_open(game_night):
    async with game_night() as night:
        channel = night.guild.create_text_channel("activity-nobody")
        async with activity_of(night) as act:
            e = await act.open(None, channel)
            await e.next("none")
            await e.send({"op": "open", "game": "nine"})
            err = await e.next("error")
            assert err["key"] == "activity.error.not_proven"
            assert says(err["text"], "activity.error.not_proven")
            await act.settle()
            assert await night.store.tables.table_in_channel(channel.id) is None
            assert bot_messages(night, channel) == []


async def test_a_channel_the_bot_does_not_see_is_refused_as_such(game_night):
    """alice is signed in, but her Activity names a channel of no server
    the bot sees (a DM's, say): she is told that, not that she is not signed
    in (it said "Only a player Discord has signed in can open a table")."""
    async with game_night() as night:
        nowhere = SimpleNamespace(id=987_654_321_012)
        async with activity_of(night) as act:
            a = await act.open(night.alice, nowhere)
            await a.next("none")
            await a.send({"op": "open", "game": "nine"})
            err = await a.next("error")
            assert err["key"] == "activity.error.no_server", err
            assert says(err["text"], "activity.error.no_server")
            await act.settle()
            assert await night.store.tables.table_in_channel(nowhere.id) is None


async def test_an_unknown_game_is_refused(game_night):
    async with game_night(locales={"alice": "ja"}) as night:
        channel = night.guild.create_text_channel("activity-unknown")
        async with activity_of(night) as act:
            a = await act.open(night.alice, channel)
            await a.next("none")
            for game in ("chess", 7, None):
                await a.send({"op": "open", "game": game})
                err = await a.next("error")
                assert says(err["text"], "activity.error.unknown_game", "ja"), err
            await act.settle()
            assert await night.store.tables.table_in_channel(channel.id) is None
            assert bot_messages(night, channel) == []


async def test_a_host_at_the_lobby_limit_is_refused_and_nothing_opens(game_night):
    async with game_night(locales={"carol": "ja"}) as night:
        for host in (night.alice, night.carol):
            for _ in range(lobby.MEMBER_LOBBIES):
                await night.table("nine", players=[host], start=False)
        channel = night.guild.create_text_channel("activity-limit")
        async with activity_of(night) as act:
            for host, lang in ((night.alice, "en"), (night.carol, "ja")):
                sock = await act.open(host, channel)
                await sock.next("none")
                await sock.send({"op": "open", "game": "yahtzee"})
                err = await sock.next("error")
                assert err["key"] == "error.member_lobbies_limit"
                assert says(err["text"], "error.member_lobbies_limit", lang, count=3), err
            await act.settle()
            assert await night.store.tables.table_in_channel(channel.id) is None
            assert bot_messages(night, channel) == []
            assert len(await night.store.tables.guild_tables(night.guild.id)) == 6
            # another member may still open one, from the Activity
            d = await act.open(night.dave, channel)
            await d.next("none")
            await d.send({"op": "open", "game": "yahtzee"})
            assert (await d.table())["phase"] == "lobby"
            await act.settle()
            assert len(bot_messages(night, channel)) == 1


async def test_a_table_already_here_is_refused(game_night):
    async with game_night(seeded=True) as night:
        table = await night.table("nine", players=2)
        async with activity_of(night) as act:
            c = await act.open(night.carol, table.channel)
            await c.table()
            await c.send({"op": "open", "game": "yahtzee"})
            err = await c.next("error")
            assert err["key"] == "error.table_exists"
            await act.settle()
            assert (await night.store.tables.table_in_channel(table.channel.id)).game == "nine"


async def test_the_last_to_leave_from_the_activity_closes_the_lobby(game_night):
    async with game_night() as night:
        channel = night.guild.create_text_channel("activity-leave")
        async with activity_of(night) as act:
            a = await act.open(night.alice, channel)
            await a.next("none")
            await a.send({"op": "open", "game": "yahtzee"})
            frame = await a.table()
            await act.settle()
            await a.move(frame, "leave")
            offer = await a.next("none")  # no table again: the games are offered
            assert [g["name"] for g in offer["games"]] == list(registry.names())
            await act.settle()
            assert await night.store.tables.table_in_channel(channel.id) is None
            (posted,) = bot_messages(night, channel)
            shown = ResponseMessage(night.env, night.env.backend.get_message(channel.id, posted.id))
            assert says(shown.content, "lobby.cancelled", game=t("game.yahtzee"),
                        user=night.alice.mention)  # fmt: skip
