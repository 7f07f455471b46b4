"""The Activity live beside the chat table (docs/activity.md): a move made
in chat shows in every open Activity, a move made in the Activity shows on
the chat table; a socket that proved nobody sees the public table only;
a frame is built once per kind of viewer, not per socket; a reconnect
catches up; the words come from the catalogues in the viewer's language."""

from __future__ import annotations

import datetime as dt

from activitykit import activity_of
from simtable import accepted, says

from bot.activity import hub
from bot.i18n import catalogue


async def test_a_chat_press_shows_in_the_activity_and_back(game_night):
    async with game_night(seeded=True) as night:
        table = await night.table("nine", players=2)
        alice, bob = night.alice, night.bob
        async with activity_of(night) as act:
            a = await act.open(alice, table.channel)
            b = await act.open(bob, table.channel)
            e = await act.open(None, table.channel)
            first = await a.table()
            assert not act.hub.announce  # SQLite: one process, nobody to tell
            seat = {p["display"]: p["name"] for p in first["players"]}
            assert first["phase"] == "playing" and first["you"] == seat["alice"]
            assert (await e.table())["you"] is None
            mover = table.mover
            sock = a if mover == alice else b
            other = b if sock is a else a
            frame = await sock.latest()
            assert frame["turn"] == [seat[mover.name]]
            assert [m["move"] for m in frame["moves"]] == ["m:roll"]
            assert (await other.latest())["moves"] == []  # not their turn
            assert (await e.latest())["moves"] == []  # a spectator plays nothing

            # chat → Activity: the press is in every socket's next frame
            accepted(await table.press("Roll", by=mover))
            for s in (a, b, e):
                after = await s.latest(frame["version"] + 1)
                assert after["view"]["last_roll"] is not None
                assert after["log"], after
            # Activity → chat: a flip from the Activity shows on the table message
            frame = await sock.latest()
            flip = next(m for m in frame["moves"] if m["move"].startswith("m:flip"))
            before = await table.moves()
            await sock.move(frame, flip["move"])
            moved = await e.latest(frame["version"] + 1)
            assert moved["version"] > frame["version"]
            await act.settle()
            played = await table.moves()
            assert played[len(before) :] == [f"{seat[mover.name]} {flip['move'][2:]}"]
            label = flip["label"]
            assert any(label.split()[-1] in line for line in table.content.splitlines()), label


async def test_one_frame_per_kind_of_viewer_not_per_socket(game_night):
    async with game_night(seeded=True) as night:
        table = await night.table("sixdice", players=2)
        async with activity_of(night) as act:
            socks = [await act.open(night.alice, table.channel)]
            socks += [await act.open(None, table.channel) for _ in range(6)]
            socks += [await act.open(night.eve, table.channel) for _ in range(3)]  # seatless
            for s in socks:
                await s.table()
            built = act.hub.frames_built
            accepted(await table.press("Roll 6 dice", by=table.mover))
            for s in socks:
                await s.latest()
            # alice's own frame, and one public frame for the nine others
            assert act.hub.frames_built - built == 2
            texts = {s.texts[-1] for s in socks[1:]}
            assert len(texts) == 1  # the same bytes to every spectator


async def test_no_identity_sees_the_public_table_and_cannot_move(game_night):
    async with game_night(seeded=True) as night:
        table = await night.table("yahtzee", players=2)
        async with activity_of(night) as act:
            nobody = await act.open(None, table.channel)
            forged = await act.open(night.alice, table.channel, token="forged")
            for s in (nobody, forged):
                frame = await s.table()
                assert frame["you"] is None and frame["moves"] == [] and frame["private"] == []
                version = frame["version"]
                await s.move(frame, "m:roll")
                error = await s.next("error")
                assert error["key"] == "error.not_in_game"
                assert error["text"] == catalogue("en")["error.not_in_game"]
            row = await table.row()
            assert row is not None and row.version == version  # nothing changed


async def test_reconnect_catches_up(game_night):
    async with game_night(seeded=True) as night:
        table = await night.table("sixdice", players=2)
        async with activity_of(night) as act:
            s = await act.open(night.alice, table.channel)
            seen = (await s.table())["version"]
            await s.close()
            accepted(await table.press("Roll 6 dice", by=table.mover))
            res = await table.play()  # a second move while the socket is away
            accepted(res)
            again = await act.open(night.alice, table.channel, since=seen)
            frame = await again.table()
            row = await table.row()
            assert row is not None and frame["version"] == row.version > seen + 1
            assert len(act.hub.sockets(table.channel.id)) == 1  # the closed one was dropped


async def test_words_in_the_viewers_language(game_night):
    async with game_night(seeded=True, locales={"bob": "ja"}) as night:
        table = await night.table("sixdice", players=2)
        async with activity_of(night) as act:
            b = await act.open(night.bob, table.channel)
            welcome = next(f for f in b.frames if f["op"] == "welcome")
            assert welcome["locale"] == "ja"
            ja = {k: v for k, v in catalogue("ja").items() if k.startswith("activity.")}
            assert welcome["words"] == ja and "activity.launch" in ja
            frame = await b.table()
            assert frame["game_name"] == catalogue("ja")["game.sixdice"]
            accepted(await table.press("Roll 6 dice", by=table.mover))
            frame = await b.latest(frame["version"] + 1)
            mover = table.mover.name
            assert says(frame["log"][-1], "ev.sixdice.roll", "ja", player=mover)
            assert not says(frame["log"][-1], "ev.sixdice.roll", "en", player=mover)
            # the same commit in English on an English viewer's socket
            a = await act.open(night.alice, table.channel)
            assert says((await a.table())["log"][-1], "ev.sixdice.roll", "en", player=mover)


async def test_the_bots_clock_and_the_games_terms(game_night):
    """A frame carries the bot's now (the clock to count the deadline from:
    SimCord's here, not the test's) and the game's own words for its view's
    names in the viewer's language (Yahtzee's boxes)."""
    async with game_night(seeded=True, locales={"bob": "ja"}) as night:
        table = await night.table("yahtzee", players=2)
        async with activity_of(night) as act:
            b = await act.open(night.bob, table.channel)
            frame = await b.table()
            now = dt.datetime.fromisoformat(frame["now"]).timestamp()
            assert abs(now - night.bot.tables.clock()) < 2
            row = await table.row()
            assert row is not None and row.deadline is not None
            assert dt.datetime.fromisoformat(frame["deadline"]).timestamp() == int(row.deadline)
            boxes = frame["view"]["sheets"][frame["players"][0]["name"]][0]["boxes"]
            assert set(frame["terms"]) == set(boxes)
            assert frame["terms"]["three_kind"] == catalogue("ja")["yahtzee.box.three_kind"]
            nine = await night.table("nine", players=2)
            assert (await (await act.open(None, nine.channel)).table())["terms"] == {}


async def test_ui_actions_and_game_actions_from_the_activity(game_night):
    """Yahtzee's hold toggles (a UI change, no move) and Bluff's roll without
    looking (a game's own action) work from the Activity as from chat."""
    async with game_night(seeded=True) as night:
        table = await night.table("yahtzee", players=2)
        async with activity_of(night) as act:
            mover = table.mover
            sock = await act.open(mover, table.channel)
            frame = await sock.table()
            await sock.move(frame, "m:roll")
            rolled = await sock.latest(frame["version"] + 1)
            holds = [m for m in rolled["moves"] if m["move"].startswith("k:")]
            assert len(holds) == 5 and rolled["view"]["kept"] == [False] * 5
            await act.settle()

            def shown() -> dict:
                return {c["custom_id"].split(":", 3)[3]: (c.get("style"), c.get("label"))
                        for c in table.controls}  # fmt: skip

            before = shown()
            await sock.move(rolled, holds[0]["move"])
            held = await sock.latest(rolled["version"] + 1)
            assert held["view"]["kept"] == [True, False, False, False, False]
            moves = await table.moves()
            assert len(moves) == 1  # a UI change is no move
            await act.settle()
            row = await table.row()
            assert row is not None and row.ui["hold"][:1] == [True]  # stored, as a chat press
            assert shown()["k:0"] != before["k:0"]  # the chat table shows the die held
            assert shown()["k:1"] == before["k:1"]
        bluff = await night.table("bluff", players=2)
        async with activity_of(night) as act:
            mover = bluff.mover
            sock = await act.open(mover, bluff.channel)
            frame = await sock.table()
            assert "blind" in [m["move"] for m in frame["moves"]]
            await sock.move(frame, "blind")
            after = await sock.latest(frame["version"] + 1)
            assert after["view"].get("cup_seen") is None  # rolled without looking
            assert (await bluff.moves())[-1].endswith(" roll")


async def test_the_end_of_a_table_reaches_the_activity(game_night):
    """A game ended without a result (/game end by the host: Nine has no
    settlement as it stands) and a lobby cancelled: the Activity is told."""
    async with game_night(seeded=True) as night:
        table = await night.table("nine", players=2)
        async with activity_of(night) as act:
            e = await act.open(None, table.channel)
            frame = await e.table()
            res = await night.alice.slash(table.channel, "game end")
            assert res.response is not None
            ended = await e.latest(frame["version"] + 1)
            assert ended["phase"] == "ended" and ended["finished"] and ended["moves"] == []
            assert says(ended["result"][0], "activity.ended", game="Nine")
            lobby = await night.table("nine", players=2, start=False)
            waiting = await act.open(None, lobby.channel)
            assert (await waiting.table())["phase"] == "lobby"
            await lobby.act("cancel", by=night.alice)
            assert (await waiting.next())["op"] == "none"


async def test_a_socket_away_at_the_end_is_shown_the_result(game_night, monkeypatch):
    """A socket that dropped before the game ended is greeted with the
    game's result (not "no table") when it comes back — for a while."""
    async with game_night(seeded=True) as night:
        table = await night.table("nine", players=2)
        async with activity_of(night) as act:
            s = await act.open(night.alice, table.channel)
            seen = (await s.table())["version"]
            await s.close()
            await table.play_to_the_end()
            back = await act.open(night.alice, table.channel, since=seen)
            frame = await back.next()
            assert frame["op"] == "table" and frame["phase"] == "finished", frame
            results = await night.store.results.all(game="nine")
            result = await night.store.results.get_result(results[0]["id"])
            winner = next(p for p in result["players"] if p["won"])
            assert says(frame["result"][0], "activity.place_won", rank="1", player=winner["name"])
            assert frame["links"]["review"].endswith(str(result["message_id"]))
            # long after (RESULT_SHOWN), the channel has no table to show
            monkeypatch.setattr(hub, "RESULT_SHOWN", 0.0)
            later = await act.open(None, table.channel)
            assert (await later.next())["op"] == "none"
