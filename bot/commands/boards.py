"""Slash commands about finished games: /leaderboard and /stats."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.commands.choices import offer_games
from bot.i18n import t

if TYPE_CHECKING:
    from bot.app import ChabudaiBot


class Boards(commands.Cog):
    """Leaderboards and players' statistics."""

    def __init__(self, bot: ChabudaiBot) -> None:
        self.bot = bot
        offer_games(self)

    @app_commands.command(name="leaderboard", description="The best players of a game")
    async def leaderboard(
        self,
        interaction: discord.Interaction[ChabudaiBot],
        game: str,
        scope: Literal["server", "global"] = "server",
        by: Literal["rating", "wins", "points", "best"] = "rating",
    ) -> None:
        store = self.bot.tables.store
        guild_id = interaction.guild_id if scope == "server" else None
        if scope == "server" and guild_id is None:
            guild_id = None
        rows = await store.leaderboard(game, guild_id=guild_id, by=by)
        lang = await self.bot.tables.public_lang(interaction)
        title = t(
            "board.title",
            lang,
            game=t(f"game.{game}", lang),
            scope=t(f"board.scope.{scope}", lang),
            by=t(f"board.by.{by}", lang),
        )
        if not rows:
            await interaction.response.send_message(title + "\n" + t("board.empty", lang))
            return
        lines = [title]
        for i, r in enumerate(rows, start=1):
            value = r["value"]
            shown = f"{value:.1f}" if by == "rating" else str(value)
            lines.append(
                t(
                    "board.line",
                    lang,
                    rank=i,
                    name=r["name"],
                    value=shown,
                    games=r["games"],
                    wins=r["wins"],
                )
            )
        await interaction.response.send_message(
            "\n".join(lines), allowed_mentions=discord.AllowedMentions.none()
        )

    @app_commands.command(name="stats", description="A player's games, wins and records")
    async def stats(
        self,
        interaction: discord.Interaction[ChabudaiBot],
        user: discord.User | None = None,
        game: str | None = None,
        scope: Literal["server", "global"] = "global",
    ) -> None:
        who = user or interaction.user
        loc = interaction.locale
        guild_id = interaction.guild_id if scope == "server" else None
        rows = await self.bot.tables.store.stats(who.id, game=game, guild_id=guild_id)
        if not rows:
            await interaction.response.send_message(
                t("stats.empty", loc, user=who.display_name), ephemeral=True
            )
            return
        lines = [t("stats.title", loc, user=who.display_name)]
        for r in rows:
            rate = 100 * r["wins"] / r["games"]
            line = t(
                "stats.line",
                loc,
                game=t(f"game.{r['game']}", loc),
                games=r["games"],
                wins=r["wins"],
                rate=f"{rate:.0f}",
                points=r["points"],
            )
            if r.get("best") is not None:
                line += t(f"stats.best.{r['game']}", loc, best=r["best"])
            if r.get("rating") is not None:
                line += t("stats.rating", loc, rating=f"{r['rating']:.1f}")
            lines.append(line)
        await interaction.response.send_message("\n".join(lines), ephemeral=True)

