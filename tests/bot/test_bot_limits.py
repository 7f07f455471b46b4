"""The limits on what one member or one server may open (issue 35, "Fair
under load"; docs/bot.md "Limits"): lobbies a member hosts, tables a server
has open, live tournaments a server runs. Past each, the refusal is said in
the user's language, for them alone, and nothing is opened."""

from __future__ import annotations

from simtable import on_both_databases, privately, refused

from bot import lobby
from bot.commands import tournament as tournament_command


async def open_tables(night):
    return len(await night.store.tables.guild_tables(night.guild.id))


async def test_a_member_hosts_three_lobbies_at_most(game_night) -> None:
    async with game_night(locales={"carol": "ja"}) as night:
        for _ in range(lobby.MEMBER_LOBBIES):
            await night.table("nine", players=[night.alice], start=False)
        channel = night.guild.create_text_channel("one-more")
        res = await night.alice.slash(channel, "play", game="yahtzee")
        assert refused(res, "error.member_lobbies_limit", count=3)
        assert await open_tables(night) == 3 and not list(channel.history())
        # the same in Japanese
        for _ in range(lobby.MEMBER_LOBBIES):
            await night.table("nine", players=[night.carol], start=False)
        res = await night.carol.slash(channel, "play", game="yahtzee")
        assert refused(res, "error.member_lobbies_limit", "ja", count=3)
        # another host may still open one
        res = await night.bob.slash(channel, "play", game="yahtzee")
        assert res.response is not None and not res.response.ephemeral
        assert await open_tables(night) == 7


@on_both_databases
async def test_a_server_has_a_limit_of_open_tables(game_night, monkeypatch) -> None:
    monkeypatch.setattr(lobby, "SERVER_TABLES", 2)
    async with game_night(seeded=True) as night:
        await night.table("nine", players=2)
        await night.table("yahtzee", players=[night.carol], start=False)
        channel = night.guild.create_text_channel("third")
        res = await night.dave.slash(channel, "play", game="nine")
        assert refused(res, "error.server_tables_limit", count=2)
        assert await open_tables(night) == 2 and not list(channel.history())
        # another server is not this one's
        elsewhere = night.server()
        table = await elsewhere.table("nine", players=[elsewhere.dave], start=False)
        assert table.content


@on_both_databases
async def test_a_server_runs_a_limited_number_of_live_tournaments(game_night, monkeypatch) -> None:
    monkeypatch.setattr(tournament_command, "SERVER_TOURNAMENTS", 1)
    async with game_night(managers=["alice"], locales={"alice": "ja"}) as night:
        hall = night.guild.create_text_channel("hall")
        res = await night.alice.slash(hall, "tournament create", game="sixtysix", format="swiss")
        assert res.response is not None and not res.response.ephemeral
        annex = night.guild.create_text_channel("annex")
        res = await night.alice.slash(annex, "tournament create", game="nine", format="swiss")
        assert privately(res, "tournament.error.too_many", "ja", max=1)
        assert len(await night.store.tournaments.guild_tournaments(night.guild.id)) == 1
        assert not list(annex.history())
