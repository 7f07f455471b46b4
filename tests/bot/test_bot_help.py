"""``/help``: what the bot does, every game of the registry in one line with
its player counts, how to start, where secrets arrive, the rules, privacy —
in the asker's language, for them alone."""

from __future__ import annotations

import pig
import pytest
from simtable import says

from bot.i18n import t
from games import registry


def answer(res):
    """The /help embed (for the asker alone)."""
    assert res.response is not None and res.response.ephemeral, res
    [embed] = res.response.embeds
    return embed


def field(embed, key, lang):
    return next(f.value for f in embed.fields if f.name == t(key, lang))


def players(game, lang):
    spec = registry.spec(game)
    if spec.min_players == spec.max_players:
        return t("help.players_one", lang, count=spec.min_players)
    return t("help.players", lang, min=spec.min_players, max=spec.max_players)


@pytest.mark.parametrize("lang", ["en", "ja"])
async def test_help_in_the_askers_language(game_night, lang):
    async with game_night(locales={"alice": lang}) as night:
        embed = answer(await night.command(night.alice, "help"))
        assert embed.title == t("help.title", lang)
        assert embed.description == t("help.about", lang)
        games = field(embed, "help.games", lang).splitlines()
        assert len(games) == len(registry.names()) == 5
        for game, line in zip(registry.names(), games, strict=True):
            assert says(
                line, "help.game_line", lang,
                game=t(f"game.{game}", lang), players=players(game, lang),
                what=t(f"help.game.{game}", lang),
            )  # fmt: skip
        start = field(embed, "help.start.title", lang)
        assert f"/{t('cmd.play.name', lang)}" in start and t("lobby.btn.join", lang) in start
        assert says(field(embed, "help.secrets.title", lang), "help.secrets", lang)
        rules = field(embed, "help.rules.title", lang)
        assert f"/{t('cmd.rules.name', lang)}" in rules
        assert says(field(embed, "help.privacy.title", lang), "help.privacy", lang)


async def test_help_counts_players_from_the_specs(game_night):
    """Sixty-Six is for exactly two; Bluff from two to ten — as the specs say."""
    async with game_night() as night:
        embed = answer(await night.command(night.bob, "help"))
        lines = field(embed, "help.games", "en").splitlines()
        sixtysix = next(line for line in lines if t("game.sixtysix") in line)
        assert "(2 players)" in sixtysix
        bluff = next(line for line in lines if t("game.bluff") in line)
        assert f"({registry.spec('bluff').min_players}–{registry.spec('bluff').max_players}" in bluff


async def test_help_lists_a_game_added_to_the_registry(game_night):
    """A sixth game (Pig, from tests/: no one-line description of its own)
    is listed by its name and its spec's player counts; nothing in bot/
    names it."""
    pig.install()
    try:
        async with game_night() as night:
            embed = answer(await night.command(night.alice, "help"))
            lines = field(embed, "help.games", "en").splitlines()
        assert len(lines) == 6
        line = next(line for line in lines if t("game.pig") in line)
        assert line == f"**{t('game.pig')}** ({players('pig', 'en')})"
        assert "help." not in line and "rules." not in line  # no raw catalogue key
    finally:
        pig.uninstall()


async def test_help_works_in_a_dm(game_night):
    async with game_night() as night:
        res = await night.alice.user.slash("help")
        assert answer(res).title == t("help.title")
