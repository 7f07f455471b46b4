"""``/rules game:<choice>``: how to play, in the user's language.

An ephemeral answer with an embed: a concise summary (``rules.<game>.summary``),
the scoring table (``rules.<game>.scoring``), the terms the table message uses
(``rules.<game>.terms``: every word of the table message is explained there),
the house options in force on this server (the rules' defaults, changed by
``/config options``; ``opt.<game>.<name>`` says what each does), the turn
clock, how to check the fair dice (``rules.verify.<term>``, in the game's
words: dice or shuffles), and a small example picture drawn by :mod:`bot.render` from a scripted
position (:func:`example_view`).

The result's **🔑 Seed** button (``cr:<result>:fair``) answers here too: the
game's seed, privately, with the short hash the table showed when it opened
(the check: the seed's SHA-256 begins with it; docs/fair-dice.md).
"""

from __future__ import annotations

import asyncio
import io
import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import pictures, turns
from bot.commands.choices import offer_games
from bot.commands.config import option_text
from bot.games import plugin
from bot.i18n import lang_of, t
from bot.presses import MAX_ID
from bot.ui.components import ENDED_TABLE
from bot.ui.present import SHORT_HASH
from games import core, registry

if TYPE_CHECKING:
    from bot.host import Host

log = logging.getLogger(__name__)

EMBED_FIELD = 1024  # Discord's limit for one embed field value

def example_view(game: str, lang: str) -> dict[str, Any]:
    """The public view of the game's small example position (its spec)."""
    players = t("rules.example.players", lang).split()
    state = registry.example_state(game, players)
    return registry.engine(game).view(state, None)


def options_in_force(game: str, server: dict[str, Any], lang: str) -> list[str]:
    """One line per house option: its value here and what it does."""
    eng = registry.engine(game)
    values = core.parse_options(eng.OPTIONS, server)
    lines = []
    for option in eng.OPTIONS:
        value = option_text({option.name: values[option.name]})
        changed = option.name in server
        lines.append(
            t(
                "rules.option_line_changed" if changed else "rules.option_line",
                lang,
                option=value,
                what=t(f"opt.{game}.{option.name}", lang),
            )
        )
    return lines or [t("rules.no_options", lang)]


def _clip(text: str) -> str:
    return text if len(text) <= EMBED_FIELD else text[: EMBED_FIELD - 1] + "…"


async def rules_embed(
    game: str, lang: str, server_options: dict[str, Any], seconds: int
) -> tuple[discord.Embed, list[discord.File]]:
    """The /rules answer: an embed and its example picture."""
    embed = discord.Embed(
        title=t("rules.title", lang, game=t(f"game.{game}", lang)),
        description=t(f"rules.{game}.summary", lang),
    )
    embed.add_field(
        name=t("rules.scoring", lang), value=_clip(t(f"rules.{game}.scoring", lang)), inline=False
    )
    embed.add_field(
        name=t("rules.terms", lang), value=_clip(t(f"rules.{game}.terms", lang)), inline=False
    )
    lines = options_in_force(game, server_options, lang)
    lines.append(
        t(
            "rules.clock",
            lang,
            seconds=seconds,
            first=turns.first_turn_seconds(seconds),
            warn=turns.WARN_BEFORE,
            max=turns.MAX_TIMEOUTS,
        )
    )
    embed.add_field(name=t("rules.options", lang), value=_clip("\n".join(lines)), inline=False)
    # how to check the fair dice, naming the result's button as it reads
    button = t("result.btn.fair", lang)
    verify = t(f"rules.verify.{plugin(game).seed_term}", lang, button=button)
    embed.add_field(name=t("rules.verify", lang), value=_clip(verify), inline=False)
    files: list[discord.File] = []
    try:
        picture = await asyncio.to_thread(
            pictures.table_picture, example_view(game, lang), lang=lang
        )
        if picture is None:
            return embed, files
        files = [discord.File(io.BytesIO(picture.png), picture.filename, description=picture.alt)]
        embed.set_image(url=f"attachment://{picture.filename}")
        embed.set_footer(text=t("rules.example", lang))
    except Exception:  # the words carry the rules; a picture problem must not hide them
        log.warning("no example picture for %s", game, exc_info=True)
    return embed, files


class Rules(commands.Cog):
    """``/rules``."""

    def __init__(self, bot: Host) -> None:
        self.bot = bot
        offer_games(self)
        bot.result_actions["fair"] = self.send_seed

    async def send_seed(
        self, interaction: discord.Interaction[Any], result_id: int, arg: str
    ) -> None:
        """The 🔑 Seed button under a result: the seed of that game, to the
        presser alone (the game is over: the seed is no secret any more)."""
        tables = self.bot.tables
        result: dict[str, Any] | None
        if result_id == 0:  # a game ended without a result: its table's (cr:0:fair:t<id>)
            number = arg.removeprefix(ENDED_TABLE)
            table_id = int(number) if arg.startswith(ENDED_TABLE) and number.isdigit() else 0
            result = await tables.store.tables.ended_seed(table_id) if 0 < table_id <= MAX_ID else None
            if result is None:  # a live table's, or made up: nothing to tell
                await tables.reply(interaction, "error.fair_unseeded")
                return
        else:
            result = await tables.store.results.get_result(result_id)
        if result is None:
            await tables.reply(interaction, "error.no_result")
            return
        seed = result.get("seed")
        if not seed:
            await tables.reply(interaction, "error.fair_unseeded")
            return
        term = plugin(result["game"]).seed_term
        short = core.seed_hash(seed)[:SHORT_HASH]
        await tables.reply(interaction, f"result.fair.{term}", seed=seed, hash=short)

    @app_commands.command(
        name="rules", description="How to play a game: rules, scoring, house options"
    )
    @app_commands.describe(game="The game")
    async def rules(self, interaction: discord.Interaction[Any], game: str) -> None:
        lang = lang_of(interaction.locale)
        tables = self.bot.tables
        server = await tables.server_options(interaction.guild_id, game)
        seconds = await turns.turn_seconds(tables.store, interaction.guild_id, game)
        embed, files = await rules_embed(game, lang, server, seconds)
        await interaction.response.send_message(embed=embed, files=files, ephemeral=True)
