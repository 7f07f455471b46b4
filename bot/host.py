"""What the followers and commands need from the bot, as a protocol.

They type their ``bot`` against :class:`Host` instead of importing
:class:`bot.app.ChabudaiBot` (even under ``TYPE_CHECKING``): ``bot.app``
imports every one of them, so a type hint the other way made the import
graph, as a type checker sees it, one loop of every follower, command and
the service (tests/test_layers.py keeps it out). ``ChabudaiBot`` is a
``Host``; so is any bot a test or a tool builds with these attributes.
This module sits with the service, which it names; the table buttons
(:mod:`bot.ui.components`, below the service) have the smaller
:class:`bot.ui.components.ComponentHost`, which this one extends.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, Protocol

import discord
from discord import app_commands
from discord.ext import commands
from discord.http import HTTPClient

from bot.ui.components import ComponentHost

if TYPE_CHECKING:
    from bot.lobby import Lobby
    from bot.presses import Presses
    from bot.tables.service import TableService

# a press of a button under a result message: (interaction, result id, arg)
ResultHandler = Callable[[discord.Interaction[Any], int, str], Awaitable[None]]


class Host(ComponentHost, Protocol):
    """The bot as its followers and commands use it."""

    @property
    def tables(self) -> TableService:
        """The table service: load, lock, commit — the one write path."""
        ...

    @property
    def lobby(self) -> Lobby:
        """Opening tables and seating players (``/play``, a seated table)."""
        ...

    @property
    def presses(self) -> Presses:
        """What a press or a ``/game`` command means."""
        ...

    @property
    def result_actions(self) -> dict[str, ResultHandler]:
        """The result message's buttons: action → handler."""
        ...

    @property
    def cpu_delay(self) -> float | tuple[float, float]:
        """The pause before a computer's move: seconds, or a (low, high) range."""
        ...

    @property
    def tree(self) -> app_commands.CommandTree[Any]: ...

    @property
    def http(self) -> HTTPClient:
        """Discord's REST (a thread made, a member asked for)."""
        ...

    @property
    def user(self) -> discord.ClientUser | None: ...

    def get_user(self, id: int, /) -> discord.User | None: ...

    def get_guild(self, id: int, /) -> discord.Guild | None: ...

    def get_channel(self, id: int, /) -> Any: ...

    def get_partial_messageable(
        self, id: int, *, guild_id: int | None = None, type: discord.ChannelType | None = None
    ) -> discord.PartialMessageable: ...

    async def create_dm(self, user: discord.abc.Snowflake) -> discord.DMChannel: ...

    async def add_cog(self, cog: commands.Cog, /, *, override: bool = False) -> None: ...
