"""/rules for every game in both languages (SimCord)."""

from __future__ import annotations

import discord
import pytest
import simcord
from simlocale import locales

from bot.i18n import t
from games import registry

# Words every table message of the game can show, and the term on /rules that
# explains each (the seeds' Japanese terms in both languages).
TERMS = {
    "sixdice": ["ドボン", "ブタ", "振りきり", "御祝儀"],
    "bluff": ["ゾロ目"],
    "nine": ["ドボン", "ゾロ目", "上がり", "1 ドボン"],
    "yahtzee": [],
    "sixtysix": ["勝利宣言"],
}


def embed_text(embed: discord.Embed) -> str:
    parts = [embed.title or "", embed.description or ""]
    parts += [f"{f.name}\n{f.value}" for f in embed.fields]
    return "\n".join(parts)


@pytest.mark.parametrize("lang", ["en", "ja"])
async def test_rules_for_every_game(harness, lang):
    with locales({}) as by_user:
        async with simcord.run(harness.bot()) as env:
            guild = env.create_guild()
            channel = guild.create_text_channel("games")
            user = guild.add_member(env.create_user("reader"))
            by_user[user.id] = "ja" if lang == "ja" else "en-US"
            for game in registry.names():
                res = await user.slash(channel, "rules", game=game)
                reply = res.response
                assert reply is not None and reply.ephemeral
                (embed,) = reply.embeds
                text = embed_text(embed)
                assert t(f"game.{game}", lang) in embed.title
                assert t(f"rules.{game}.summary", lang) == embed.description
                for key in ("rules.scoring", "rules.terms", "rules.options"):
                    assert t(key, lang) in [f.name for f in embed.fields]
                for term in TERMS[game]:
                    assert term.replace(" ", "") in text.replace(" ", ""), (game, term)
                assert "90" in text or "120" in text  # the turn clock in force
                # the house options in force, each explained
                for option in registry.engine(game).OPTIONS:
                    assert f"`{option.name}=" in text, (game, option.name)
                assert reply.attachments, "a small example picture"
                assert embed.image.url.startswith("attachment://")
                if lang == "ja":
                    assert "How to play" not in text
                else:
                    assert "遊び方" not in text


async def test_rules_show_the_server_house_options(harness):
    async with simcord.run(harness.bot()) as env:
        guild = env.create_guild()
        channel = guild.create_text_channel("games")
        user = guild.add_member(env.create_user("reader"))
        store = harness.bots[-1].tables.store
        await store.set_guild_setting(guild.id, "options.sixdice", {"target": 5000})
        await store.set_guild_setting(guild.id, "clock.sixdice", 45)
        res = await user.slash(channel, "rules", game="sixdice")
        text = embed_text(res.response.embeds[0])
        assert "`target=5000` (set by this server)" in text
        assert "`start=1000` —" in text
        assert "45 s per move" in text
