"""The games offered in slash commands: every registered game, read when a
cog is made (so a game registered before the bot starts is offered too)."""

from __future__ import annotations

from discord import app_commands
from discord.ext import commands

from bot.i18n import t
from games import registry


def games() -> list[app_commands.Choice[str]]:
    """One choice per registered game (names translated by the tree's translator)."""
    return [
        app_commands.Choice(name=app_commands.locale_str(t(f"game.{n}", "en")), value=n)
        for n in registry.names()
    ]


def offer_games(cog: commands.Cog) -> None:
    """Give every ``game`` parameter of ``cog``'s commands the registered games
    as choices (the cog's own copies of its commands, before they are added
    to the tree)."""
    for command in cog.walk_app_commands():
        if isinstance(command, app_commands.Command):
            params = command._params  # discord.py keeps a command's parameters here
            if "game" in params:
                params["game"].choices = games()
