"""/rules for every game in both languages (SimCord)."""

from __future__ import annotations

import discord
import pytest
from simtable import says

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
HOW_TO_PLAY = ("rules.title", "cmd.rules.desc")  # every sentence saying "how to play"


def embed_text(embed: discord.Embed) -> str:
    parts = [embed.title or "", embed.description or ""]
    parts += [f"{f.name}\n{f.value}" for f in embed.fields]
    return "\n".join(parts)


@pytest.mark.parametrize("lang", ["en", "ja"])
async def test_rules_for_every_game(game_night, lang):
    async with game_night(locales={"alice": "ja" if lang == "ja" else "en-US"}) as night:
        for game in registry.names():
            reply = (await night.command(night.alice, "rules", game=game)).response
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
            other = "en" if lang == "ja" else "ja"  # nothing in the other language
            assert not any(says(text, key, other) for key in HOW_TO_PLAY)


async def test_rules_show_the_server_house_options(game_night):
    settings = {"options.sixdice": {"target": 5000}, "clock.sixdice": 45}
    async with game_night(settings=settings) as night:
        res = await night.command(night.alice, "rules", game="sixdice")
        text = embed_text(res.response.embeds[0])
        assert says(text, "rules.option_line_changed", option="target=5000")
        assert says(text, "rules.option_line", option="start=1000")
        assert says(text, "rules.clock", seconds=45)
        # the first move of a game: three turn clocks, at least three minutes
        assert says(text, "rules.clock", seconds=45, first=max(3 * 45, 180))
