"""Table admin: ``/game kick @player`` (the host or Manage Server) and
``/game list`` (Manage Server)."""

from __future__ import annotations

from simtable import privately, reading, refused, says

from bot.i18n import linked, t

NINE = t("game.nine")


async def kick(table, by, player, **options):
    return await table.command(by, "game kick", player=player, **options)


async def test_the_host_kicks_a_player_whose_seat_forfeits(game_night):
    async with game_night(seeded=True) as night:
        table = await night.table("nine", players=3)
        before = await table.row()
        res = await kick(table, night.alice, night.bob)
        assert privately(res, "kick.done", player="bob", game=NINE)
        assert table.shows("ev.kicked", by="alice", player=night.bob.mention)
        row = await table.row()
        assert row.version == before.version + 1
        assert "bob forfeit" in row.state["history"]["moves"]  # as if bob had left
        assert [s["id"] for s in row.seats] == [s["id"] for s in before.seats]
        # bob presses nothing any more; the others play on to the end
        await table.play_to_the_end()
        [result] = await table.results()
        assert result["outcome"]["finished"]
        assert result["record"]["players"] == ["alice", "bob", "carol"]


async def test_a_manager_kicks_without_a_seat(game_night):
    async with game_night(seeded=True, managers=["dave"]) as night:
        table = await night.table("yahtzee", players=3)
        res = await kick(table, night.dave, night.carol)
        assert privately(res, "kick.done", player="carol", game=t("game.yahtzee"))
        assert table.shows("ev.kicked", by="dave", player=night.carol.mention)
        row = await table.row()
        assert "carol forfeit" in row.state["history"]["moves"]


async def test_kicking_the_host_passes_the_table_on(game_night):
    async with game_night(seeded=True, managers=["dave"]) as night:
        table = await night.table("nine", players=3)
        await kick(table, night.dave, night.alice)
        row = await table.row()
        assert row.host_id == night.bob.id


async def test_others_may_not_kick(game_night):
    async with game_night(seeded=True) as night:
        table = await night.table("nine", players=3)
        before = await table.row()
        assert refused(await kick(table, night.bob, night.carol), "error.kick_not_allowed")
        assert refused(await kick(table, night.eve, night.carol), "error.kick_not_allowed")
        after = await table.row()
        assert after.version == before.version and after.state == before.state


async def test_kick_refuses_a_stranger_oneself_and_a_channel_without_a_table(game_night):
    async with game_night(seeded=True) as night:
        table = await night.table("nine", players=2, cpus=["easy"])
        before = await table.row()
        res = await kick(table, night.alice, night.eve)
        assert refused(res, "error.kick_not_seated", player=night.eve.mention)
        res = await kick(table, night.alice, night.alice)  # that is /game leave
        assert refused(res, "error.kick_self", command="game leave")
        after = await table.row()
        assert after.version == before.version and after.seats == before.seats
        res = await night.command(night.alice, "game kick", player=night.bob)
        assert refused(res, "error.no_table_here")


async def test_a_computer_takes_the_kicked_players_seat(game_night):
    async with game_night(seeded=True) as night:
        table = await night.table("nine", players=2)
        bob = (await table.row()).seat_of(night.bob.id)
        res = await kick(table, night.alice, night.bob, replace_with_cpu=True)
        assert privately(res, "kick.done", player="bob", game=NINE)
        level = t("cpu.level.normal")
        assert table.shows("ev.kicked_cpu", by="alice", player=night.bob.mention, level=level)
        row = await table.row()
        assert row.seat_of(night.bob.id) is None
        cpu = next(s for s in row.seats if s.get("bot"))
        assert (cpu["name"], cpu["level"]) == (bob["name"], "normal")  # the record goes on
        assert "bob forfeit" not in row.state["history"]["moves"]
        await table.play_to_the_end()  # the computer plays bob's turns
        [result] = await table.results()
        assert result["has_bots"] and result["outcome"]["finished"]
        assert any(m.startswith("bob ") for m in result["record"]["moves"][2:])
        assert [p["user_id"] for p in (await night.store.results.get_result(result["id"]))["players"]] == [
            night.alice.id
        ]


async def test_kicked_in_the_lobby(game_night):
    async with game_night() as night:
        table = await night.table("nine", players=3, start=False)
        res = await kick(table, night.alice, night.carol)
        assert privately(res, "kick.done", player="carol", game=NINE)
        row = await table.row()
        assert [s["id"] for s in row.seats] == [night.alice.id, night.bob.id]
        assert row.phase == "lobby" and night.carol.mention not in table.content


async def test_kick_in_japanese(game_night):
    async with game_night(seeded=True, settings={"lang": "ja"}, locales={"alice": "ja"}) as night:
        table = await night.table("nine", players=3)
        res = await kick(table, night.alice, night.bob)
        assert privately(res, "kick.done", "ja", player="bob", game=t("game.nine", "ja"))
        assert table.shows("ev.kicked", "ja", by="alice", player=night.bob.mention)


async def test_the_list_of_live_tables(game_night):
    async with game_night(seeded=True, managers=["dave"]) as night:
        nine = await night.table("nine", players=2)
        lobby = await night.table("yahtzee", players=[night.carol], start=False)
        elsewhere = night.server("another server")
        await elsewhere.table("nine", players=[elsewhere.member("erin")], start=False)
        text = await night.ask(night.dave, "game list")
        assert says(text, "list.title", count=2)
        row = await nine.row()
        mover = nine.mover
        labelled = linked("link.table", "en", nine.link, game=NINE)  # not a bare URL
        playing = reading(text, "list.playing", game=NINE, link=labelled)
        assert playing is not None
        assert playing["players"] == "alice, bob" and playing["turn"] == mover.name
        assert playing["since"] == f"<t:{int(row.created_at)}:R>"
        labelled = linked("link.table", "en", lobby.link, game=t("game.yahtzee"))
        waiting = reading(text, "list.lobby", game=t("game.yahtzee"), link=labelled)
        assert waiting is not None and waiting["players"] == "carol"
        assert "erin" not in text  # another server's table


async def test_the_list_is_for_managers(game_night):
    async with game_night(seeded=True, managers=["dave"]) as night:
        await night.table("nine", players=2)
        res = await night.command(night.alice, "game list")  # the host of a table, no manager
        assert refused(res, "error.list_not_allowed")
        text = await night.ask(night.dave, "game list")
        assert not says(text, "list.none")


async def test_an_empty_list(game_night):
    async with game_night(managers=["dave"], locales={"dave": "ja"}) as night:
        assert says(await night.ask(night.dave, "game list"), "list.none", "ja")
