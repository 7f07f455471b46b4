"""Slash commands: /play, /game status|leave|end."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.commands import admin
from bot.commands.choices import offer_games
from bot.model import LEVELS

if TYPE_CHECKING:
    from bot.host import Host


class Tables(commands.Cog):
    """Playing at tables and looking at results."""

    def __init__(self, bot: Host) -> None:
        self.bot = bot
        offer_games(self)

    game_group = app_commands.Group(name="game", description="The game at this channel's table")

    @app_commands.command(name="play", description="Open a table for a game in this channel")
    @app_commands.describe(
        game="The game to play",
        options='House options, e.g. "target=5000 start=500"',
        vs="Play alone against the computer: the table starts at once",
    )
    @app_commands.choices(vs=[
        app_commands.Choice(name=f"computer ({level})", value=f"cpu_{level}") for level in LEVELS
    ])  # fmt: skip
    @app_commands.guild_only()
    async def play(
        self,
        interaction: discord.Interaction[Any],
        game: str,
        options: str | None = None,
        vs: str | None = None,
    ) -> None:
        if vs is None:
            await self.bot.lobby.open_lobby(interaction, game, options)
        else:
            level = vs.removeprefix("cpu_")
            await self.bot.lobby.play_computer(interaction, game, options, level)

    @game_group.command(name="status", description="Who is playing and whose turn it is")
    async def status(self, interaction: discord.Interaction[Any]) -> None:
        await self.bot.presses.status(interaction)

    @game_group.command(name="leave", description="Leave the game here (a forfeit)")
    async def leave(self, interaction: discord.Interaction[Any]) -> None:
        await self.bot.presses.leave(interaction)

    @game_group.command(
        name="end", description="End the game (host or Manage Server), or agree to end it"
    )
    async def end(self, interaction: discord.Interaction[Any]) -> None:
        await self.bot.presses.end(interaction)

    @game_group.command(
        name="kick", description="Remove a player from the table here (host or Manage Server)"
    )
    @app_commands.describe(
        player="The player to remove",
        replace_with_cpu="A computer player takes the seat (else the seat forfeits)",
    )
    @app_commands.guild_only()
    async def kick(
        self,
        interaction: discord.Interaction[Any],
        player: discord.Member,
        replace_with_cpu: bool = False,
    ) -> None:
        await admin.kick(self.bot.tables, interaction, player, replace_with_cpu)

    @game_group.command(name="list", description="The live tables of this server (Manage Server)")
    @app_commands.guild_only()
    async def list_tables(self, interaction: discord.Interaction[Any]) -> None:
        await admin.list_tables(self.bot.tables, interaction)


async def setup(bot: Host) -> None:
    await bot.add_cog(Tables(bot))
