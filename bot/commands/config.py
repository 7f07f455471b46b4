"""``/config``: server settings (Manage Server only).

Settings live in ``guild_settings`` (one JSON value per key), so they survive
restarts:

| key | what | default |
| --- | --- | --- |
| ``lang`` | ``en`` / ``ja`` for public table messages | the server's locale, else English |
| ``clock.<game>`` | turn clock in seconds (30–3600) | 90, Sixty-Six 120 (:mod:`bot.turns`) |
| ``options.<game>`` | default house options (``/play … options`` still wins) | the rules' defaults |
| ``bots_rated`` | games with computer players count for ratings | off |
| ``tournament_role`` | a role whose members may create tournaments (``/tournament create``) | none: Manage Server only |
| ``season`` | the season length of leaderboards and ratings (:mod:`bot.seasons`): ``monthly``, ``quarterly`` or ``off`` | monthly |

Every answer is ephemeral, in the user's language; an invalid value is
refused with a message that says what is allowed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot import seasons, turns
from bot.commands.choices import offer_games
from bot.i18n import option_error, t
from bot.model import parse_options_text
from games import core, registry
from games.core import RuleError

if TYPE_CHECKING:
    from bot.host import Host

LANG_VALUES = ("auto", "en", "ja")


def _lang_choices() -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=t(f"choice.{v}", "en"), value=v) for v in LANG_VALUES]


def option_text(options: dict[str, Any]) -> str:
    """``{"target": 5000, "strict": True}`` → ``target=5000 strict=on``."""

    def show(value: Any) -> str:
        if isinstance(value, bool):
            return "on" if value else "off"
        return "off" if value is None else str(value)

    return " ".join(f"{k}={show(v)}" for k, v in options.items())


def validate_options(game: str, text: str) -> dict[str, Any]:
    """The options of ``text`` that differ from nothing else: validated,
    coerced, only the names given (``RuleError`` names the bad one)."""
    raw = parse_options_text(text)
    parsed = core.parse_options(registry.engine(game).OPTIONS, raw)
    return {name: parsed[name] for name in raw}


class Config(commands.Cog):
    """Server settings."""

    def __init__(self, bot: Host) -> None:
        self.bot = bot
        offer_games(self)

    config = app_commands.Group(
        name="config",
        description="Server settings for the games (Manage Server)",
        guild_only=True,
        default_permissions=discord.Permissions(manage_guild=True),
    )

    async def _allowed(self, interaction: discord.Interaction[Any]) -> bool:
        perms = interaction.permissions
        if interaction.guild_id is None or not perms.manage_guild:
            await self._say(interaction, "config.no_permission")
            return False
        return True

    async def _say(self, interaction: discord.Interaction[Any], key: str, **args: Any) -> None:
        await interaction.response.send_message(t(key, interaction.locale, **args), ephemeral=True)

    @property
    def store(self) -> Any:
        return self.bot.tables.store

    @config.command(name="show", description="List this server's settings")
    async def show(self, interaction: discord.Interaction[Any]) -> None:
        if not await self._allowed(interaction):
            return
        assert interaction.guild_id is not None
        gid, loc = interaction.guild_id, interaction.locale
        lines = [t("config.show.title", loc)]
        lang = await self.store.settings.guild_setting(gid, "lang")
        if lang:
            lines.append(t("config.show.lang", loc, lang=t(f"lang.{lang}", loc)))
        else:
            auto = await self.bot.tables.public_lang(interaction)
            shown = t("config.lang_auto", loc, lang=t(f"lang.{auto}", loc))
            lines.append(t("config.show.lang_auto", loc, lang=shown))
        rated = bool(await self.store.settings.guild_setting(gid, "bots_rated"))
        length = seasons.length_of(await self.store.settings.guild_setting(gid, "season"))
        lines.append(t("config.show.season", loc, value=t(f"choice.{length}", loc)))
        lines.append(
            t("config.show.bots_rated", loc, value=t(f"config.{'on' if rated else 'off'}", loc))
        )
        role = await self.store.settings.guild_setting(gid, "tournament_role")
        if role is not None:
            lines.append(t("config.show.tournament_role", loc, role=f"<@&{role}>"))
        for game in registry.names():
            seconds = await turns.turn_seconds(self.store, gid, game)
            options = await self.bot.tables.server_options(gid, game)
            lines.append(
                t(
                    "config.show.game",
                    loc,
                    game=t(f"game.{game}", loc),
                    seconds=seconds,
                    options=option_text(options) if options else t("config.defaults", loc),
                )
            )
        await interaction.response.send_message("\n".join(lines), ephemeral=True)

    @config.command(name="language", description="The language of public table messages")
    @app_commands.describe(value="auto = the server's locale")
    @app_commands.choices(value=_lang_choices())
    async def language(self, interaction: discord.Interaction[Any], value: str) -> None:
        if not await self._allowed(interaction):
            return
        assert interaction.guild_id is not None
        if value not in LANG_VALUES:
            values = t("list.sep", interaction.locale).join(f"`{v}`" for v in LANG_VALUES)
            await self._say(interaction, "config.bad_lang", values=values)
            return
        await self.store.settings.set_guild_setting(
            interaction.guild_id, "lang", None if value == "auto" else value
        )
        loc = interaction.locale
        if value == "auto":
            auto = await self.bot.tables.public_lang(interaction)
            shown = t("config.lang_auto", loc, lang=t(f"lang.{auto}", loc))
        else:
            shown = t(f"lang.{value}", loc)
        await self._say(interaction, "config.saved.lang", lang=shown)

    @config.command(name="clock", description="The turn clock of a game, in seconds")
    @app_commands.describe(game="The game", seconds="Seconds per turn (30–3600)")
    async def clock_(
        self, interaction: discord.Interaction[Any], game: str, seconds: int
    ) -> None:
        if not await self._allowed(interaction):
            return
        assert interaction.guild_id is not None
        if game not in registry.names():
            await self._say(interaction, "config.bad_game")
            return
        if not turns.MIN_TURN <= seconds <= turns.MAX_TURN:
            await self._say(
                interaction,
                "config.bad_clock",
                min=turns.MIN_TURN,
                max=turns.MAX_TURN,
                value=seconds,
            )
            return
        await self.store.settings.set_guild_setting(interaction.guild_id, f"clock.{game}", seconds)
        await self._say(
            interaction,
            "config.saved.clock",
            game=t(f"game.{game}", interaction.locale),
            seconds=seconds,
        )

    @config.command(name="options", description="Default house options of a game")
    @app_commands.describe(
        game="The game", options='e.g. "target=5000 start=500"; "default" clears them'
    )
    async def options(
        self, interaction: discord.Interaction[Any], game: str, options: str
    ) -> None:
        if not await self._allowed(interaction):
            return
        assert interaction.guild_id is not None
        loc = interaction.locale
        if game not in registry.names():
            await self._say(interaction, "config.bad_game")
            return
        if options.strip().lower() in ("default", "defaults", "reset"):
            await self.store.settings.set_guild_setting(interaction.guild_id, f"options.{game}", None)
            await self._say(interaction, "config.saved.options_reset", game=t(f"game.{game}", loc))
            return
        try:
            chosen = validate_options(game, options)
        except RuleError as err:
            name = t(f"game.{game}", loc)
            reason = option_error(err, registry.engine(game).OPTIONS, name, loc)
            await self._say(interaction, "config.bad_options", reason=reason)
            return
        await self.store.settings.set_guild_setting(interaction.guild_id, f"options.{game}", chosen)
        await self._say(
            interaction,
            "config.saved.options",
            game=t(f"game.{game}", loc),
            options=option_text(chosen),
        )

    @config.command(
        name="bots_rated", description="Whether games with computer players count for ratings"
    )
    @app_commands.describe(value="Yes: games with computer players count for ratings")
    async def bots_rated(self, interaction: discord.Interaction[Any], value: bool) -> None:
        if not await self._allowed(interaction):
            return
        assert interaction.guild_id is not None
        await self.store.settings.set_guild_setting(interaction.guild_id, "bots_rated", bool(value))
        loc = interaction.locale
        await self._say(
            interaction,
            "config.saved.bots_rated",
            value=t(f"config.{'on' if value else 'off'}", loc),
        )

    @config.command(name="season", description="How long a season of leaderboards and ratings is")
    @app_commands.describe(value="monthly (the default), quarterly, or off: all time only")
    async def season(
        self,
        interaction: discord.Interaction[Any],
        value: Literal["monthly", "quarterly", "off"],
    ) -> None:
        if not await self._allowed(interaction):
            return
        assert interaction.guild_id is not None
        if value not in seasons.LENGTHS:
            values = t("list.sep", interaction.locale).join(f"`{v}`" for v in seasons.LENGTHS)
            await self._say(interaction, "config.bad_season", values=values)
            return
        await self.store.settings.set_guild_setting(interaction.guild_id, "season", value)
        if value == "off":  # no seasons to talk about: all time only
            await self._say(interaction, "config.saved.season_off")
            return
        await self._say(
            interaction, "config.saved.season", value=t(f"choice.{value}", interaction.locale)
        )

    @config.command(name="tournament_role", description="A role whose members may create tournaments")
    @app_commands.describe(role="The role (left out: Manage Server only)")
    async def tournament_role(
        self, interaction: discord.Interaction[Any], role: discord.Role | None = None
    ) -> None:
        if not await self._allowed(interaction):
            return
        assert interaction.guild_id is not None
        await self.store.settings.set_guild_setting(
            interaction.guild_id, "tournament_role", None if role is None else role.id
        )
        if role is None:
            await self._say(interaction, "config.saved.tournament_role_off")
            return
        await interaction.response.send_message(
            t("config.saved.tournament_role", interaction.locale, role=role.mention),
            ephemeral=True,
            allowed_mentions=discord.AllowedMentions.none(),
        )
