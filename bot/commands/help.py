"""``/help``: what the bot does, in the user's language (ephemeral).

The games come from the registry — each one's name, player counts (its
spec's ``min_players``/``max_players``) and one line (``help.game.<game>``,
else the first sentence of its ``/rules`` summary) — so a game added to the
registry is listed without a change here. Then how to start a table, where
secret dice and hands arrive (DMs, or the table's "Show my …" button when
DMs are closed), where the full rules are (``/rules``), and what the bot
stores about people (Discord ids, display names, game records and results,
server settings — nothing else).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import has, lang_of, t
from games import registry

if TYPE_CHECKING:
    from bot.app import ChabudaiBot

EMBED_FIELD = 1024  # Discord's limit for one embed field value


def game_line(game: str, lang: str) -> str:
    """One game in one line: its name, how many play, what it is."""
    spec = registry.spec(game)
    if has(f"help.game.{game}", lang):
        what = t(f"help.game.{game}", lang)
    else:  # a game from outside chabudai: the first sentence of its summary
        summary = t(f"rules.{game}.summary", lang) if has(f"rules.{game}.summary", lang) else ""
        what = summary.split(". ")[0].split("。")[0].rstrip(".。")
    low, high = spec.min_players, spec.max_players
    players = (
        t("help.players_one", lang, count=low)
        if low == high
        else t("help.players", lang, min=low, max=high)
    )
    name = t(f"game.{game}", lang)
    return t("help.game_line", lang, game=name, players=players, what=what).rstrip(" —：:")


def help_embed(lang: str) -> discord.Embed:
    """The /help answer in ``lang``."""
    embed = discord.Embed(title=t("help.title", lang), description=t("help.about", lang))
    lines = [game_line(game, lang) for game in registry.names()]
    embed.add_field(name=t("help.games", lang), value=_clip("\n".join(lines)), inline=False)
    names = {  # commands and buttons as this language names them
        "play": t("cmd.play.name", lang),
        "game": t("cmd.game.name", lang),
        "status": t("cmd.game.status.name", lang),
        "leave": t("cmd.game.leave.name", lang),
        "hint": t("cmd.hint.name", lang),
        "rules": t("cmd.rules.name", lang),
        "config": t("cmd.config.name", lang),
        "join": t("lobby.btn.join", lang),
        "start": t("lobby.btn.start", lang),
        "rematch": t("result.btn.rematch", lang),
    }
    for section in ("start", "secrets", "rules", "privacy"):
        embed.add_field(
            name=t(f"help.{section}.title", lang),
            value=_clip(t(f"help.{section}", lang, **names)),
            inline=False,
        )
    return embed


def _clip(text: str) -> str:
    return text if len(text) <= EMBED_FIELD else text[: EMBED_FIELD - 1] + "…"


class Help(commands.Cog):
    """``/help``."""

    def __init__(self, bot: ChabudaiBot) -> None:
        self.bot = bot

    @app_commands.command(name="help", description="What this bot does and how to play")
    async def help(self, interaction: discord.Interaction[ChabudaiBot]) -> None:
        embed = help_embed(lang_of(interaction.locale))
        await interaction.response.send_message(embed=embed, ephemeral=True)


async def setup(bot: ChabudaiBot) -> None:
    await bot.add_cog(Help(bot))
