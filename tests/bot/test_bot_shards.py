"""Shards (``CHABUDAI_SHARDS``): the setting parsed and refused, an
auto-sharded bot built from it, and a sharded bot playing games end to end
through SimCord on servers of each of its shards."""

from __future__ import annotations

import functools

import aiohttp
import discord
import pytest
import simtable
from prometheus_client.parser import text_string_to_metric_families
from simtable import taken

from bot.__main__ import main
from bot.app import ChabudaiBot, ShardedChabudaiBot, create_bot
from bot.deploy import ENV, SHARDS_ENV, Shards, configured_shards, parse_shards
from bot.i18n import t
from bot.ops import PROCESS
from bot.storage import Store
from games.core import SeededSource

DICE = SeededSource("bot-shard-tests").roll(3000)


@pytest.mark.parametrize(
    ("value", "ids", "count", "shown"),
    [
        ("0-3/8", (0, 1, 2, 3), 8, "0-3/8"),
        ("0,2/4", (0, 2), 4, "0,2/4"),
        ("5/8", (5,), 8, "5/8"),
        (" 0-1, 3 / 4 ", (0, 1, 3), 4, "0-1,3/4"),
        ("6-7,0-1/8", (6, 7, 0, 1), 8, "0-1,6-7/8"),
        ("0/1", (0,), 1, "0/1"),
    ],
)
def test_shards_parsed(value: str, ids: tuple[int, ...], count: int, shown: str) -> None:
    shards = parse_shards(value)
    assert shards == Shards(ids, count)
    assert str(shards) == shown
    assert parse_shards(str(shards)).count == count  # what logs show reads back


@pytest.mark.parametrize(
    ("value", "why"),
    [
        ("8", "like 0-3/8"),
        ("0-3", "like 0-3/8"),
        ("/8", "is not a shard id"),
        ("a/8", "is not a shard id"),
        ("0-/8", "is not a shard id"),
        ("-1/8", "is not a shard id"),
        ("1/x", "like 0-3/8"),
        ("0/0", "at least 1"),
        ("4/4", "shard 4 does not exist with 4 shard(s)"),
        ("3-1/8", "backwards"),
        ("0,0-1/2", "named twice"),
    ],
)
def test_bad_shards_refused_saying_why(value: str, why: str) -> None:
    with pytest.raises(ValueError, match=SHARDS_ENV) as err:
        parse_shards(value)
    assert why in str(err.value)


def test_unset_is_one_process_for_every_shard(monkeypatch, tmp_path) -> None:
    monkeypatch.delenv(SHARDS_ENV, raising=False)
    assert configured_shards() is None
    bot = create_bot(Store(tmp_path / "db.sqlite3"))
    assert type(bot) is ChabudaiBot and not isinstance(bot, discord.AutoShardedClient)
    monkeypatch.setenv(SHARDS_ENV, "2-3/4")
    shards = configured_shards()
    bot = create_bot(Store(tmp_path / "db.sqlite3"), shards=shards)
    assert isinstance(bot, ShardedChabudaiBot) and isinstance(bot, discord.AutoShardedClient)
    assert (bot.shard_ids, bot.shard_count) == ([2, 3], 4)
    assert bot.ops.shards == shards and bot.ops.labels["shards"] == "2-3/4"


def test_the_bot_refuses_to_start_on_bad_shards(monkeypatch, tmp_path, capsys) -> None:
    monkeypatch.chdir(tmp_path)  # no .env of the developer's
    monkeypatch.setenv("DISCORD_TOKEN", "not-a-real-token")
    monkeypatch.setenv("CHABUDAI_DB", str(tmp_path / "db.sqlite3"))
    monkeypatch.setenv(SHARDS_ENV, "0-8/8")
    assert main([]) == 2
    err = capsys.readouterr().err
    assert SHARDS_ENV in err and "shard 8 does not exist" in err
    assert "not-a-real-token" not in err
    assert not (tmp_path / "db.sqlite3").exists()  # nothing started


async def test_a_sharded_bot_plays_on_each_of_its_shards(game_night, monkeypatch) -> None:
    monkeypatch.setenv(SHARDS_ENV, "0-1/2")
    monkeypatch.setenv(ENV, "127.0.0.1:0")
    shards = configured_shards()
    monkeypatch.setattr(simtable, "create_bot", functools.partial(create_bot, shards=shards))
    async with game_night(dice=DICE, aux=[6, 2]) as night:
        bot = night.bot
        assert isinstance(bot, ShardedChabudaiBot)
        assert sorted(bot.shards) == [0, 1] and bot.shard_count == 2
        # a server on each shard (the night's own and one made on the other)
        first = night.guild.id >> 22 & 1
        other_shard = 1 - first
        create = night.env.create_guild
        monkeypatch.setattr(
            night.env, "create_guild", functools.partial(create, shard_id=other_shard)
        )
        other = night.server("the other shard")
        assert other.guild.id >> 22 & 1 == other_shard
        for server, shard in ((night, first), (other, other_shard)):
            assert bot.get_guild(server.guild.id).shard_id == shard
            table = await server.table("nine", players=2)
            steps = await table.play_to_the_end()
            assert steps > 2 and table.shows("result.title", game=t("game.nine"))
        results = await night.store.results.all()
        assert sorted(r["guild_id"] for r in results) == sorted([night.guild.id, other.guild.id])
        assert await night.store.tables.live_tables() == []

        # the operators see both connections, labelled with the shards held
        host, port = bot.ops.address
        async with aiohttp.ClientSession() as session:
            async with session.get(f"http://{host}:{port}/healthz") as res:
                assert (res.status, await res.text()) == (200, "ok")
            async with session.get(f"http://{host}:{port}/metrics") as res:
                text = await res.text()
        got = {
            (s.name, s.labels.get("shard")): s.value
            for family in text_string_to_metric_families(text)
            for s in family.samples
            if s.name.startswith("chabudai_shard_")
        }
        assert got[("chabudai_shard_up", "0")] == got[("chabudai_shard_up", "1")] == 1.0
        assert got[("chabudai_shard_guilds", "0")] == got[("chabudai_shard_guilds", "1")] == 1.0
        labels = {
            (s.labels["process"], s.labels["shards"])
            for family in text_string_to_metric_families(text)
            for s in family.samples
        }
        assert labels == {(PROCESS, "0-1/2")}

        # a shard's connection down: /healthz names it
        shard = bot.get_shard(other_shard)
        await shard.disconnect()
        assert shard.is_closed()
        assert await bot.ops.health() == f"not connected to Discord (shard {other_shard})"
        await shard.connect()
        assert await bot.ops.health() is None
        await bot.ops.stop()


async def test_a_sharded_bot_serves_only_its_shards_servers(game_night, monkeypatch) -> None:
    monkeypatch.setattr(
        simtable, "create_bot", functools.partial(create_bot, shards=parse_shards("1/2"))
    )
    async with game_night(dice=DICE, aux=[6, 2]) as night:
        bot = night.bot
        mine = night.env.create_guild("shard one", shard_id=1)
        theirs = night.env.create_guild("shard zero", shard_id=0)
        await night.settle()
        assert bot.get_guild(mine.id) is not None
        assert bot.get_guild(theirs.id) is None  # another process's server
        assert {g.shard_id for g in bot.guilds} == {1}
        channel = mine.create_text_channel("games")
        alice = mine.add_member(night.env.create_user("alice"))
        res = await alice.slash(channel, "play", game="nine")
        assert taken(res) or (res.response is not None and not res.response.ephemeral)
