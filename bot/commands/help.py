"""``/help``: what the bot does, in the user's language (ephemeral).

The games come from the registry — each one's name, player counts (its
spec's ``min_players``/``max_players``) and one line (``help.game.<game>``,
else the first sentence of its ``/rules`` summary) — so a game added to the
registry is listed without a change here. Then how to start a table, where
secret dice and hands arrive (DMs, or the table's "Show my …" button when
DMs are closed), where the full rules are (``/rules``), what the bot
stores about people (Discord ids, display names, game records and results,
server settings — nothing else), and every slash command of the bot's tree
(:func:`command_paths`: a command added to the tree is listed), each by its
name in the reader's language with its description.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import command, has, lang_of, t
from games import registry

if TYPE_CHECKING:
    from bot.host import Host

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


def command_paths(tree: app_commands.CommandTree[Any] | None) -> list[str]:
    """Every slash command of ``tree`` as its path (``"game end"``), in the
    tree's order, groups opened: what /help lists, so a command added to the
    tree is listed without a change here."""
    if tree is None:
        return []
    out: list[str] = []

    def walk(item: Any, prefix: str) -> None:
        path = f"{prefix} {item.name}".strip()
        if isinstance(item, app_commands.Group):
            for child in item.commands:
                walk(child, path)
        else:
            out.append(path)

    for item in tree.get_commands(type=discord.AppCommandType.chat_input):
        walk(item, "")
    return out


def command_lines(paths: list[str], lang: str) -> list[str]:
    """One line a command: its name in ``lang`` (clickable where Discord
    allows, :func:`bot.i18n.command`) and its description."""
    lines = []
    for path in paths:
        key = "cmd." + path.replace(" ", ".") + ".desc"
        what = t(key, lang) if has(key, lang) else ""
        lines.append(t("help.command_line", lang, command=command(path, lang), what=what))
    return lines


def _fields(lines: list[str]) -> list[str]:
    """``lines`` in as few embed field values as fit (1024 characters each)."""
    out: list[str] = []
    for line in lines:
        line = _clip(line)
        if out and len(out[-1]) + 1 + len(line) <= EMBED_FIELD:
            out[-1] += "\n" + line
        else:
            out.append(line)
    return out


# what only organisers may run: a server's settings, its live tables, and a
# tournament's organising (Discord hides a whole command from members by its
# default permissions, never one subcommand of /tournament, whose other
# subcommands are everyone's: /help lists these to organisers only)
ORGANISER_PATHS = ("config", "game list", "tournament create", "tournament kick",
                   "tournament repair", "tournament end")  # fmt: skip


def for_organisers(path: str) -> bool:
    """A command only organisers (Manage Server, or the tournament role) run."""
    return any(path == p or path.startswith(p + " ") for p in ORGANISER_PATHS)


def help_embed(lang: str, paths: list[str] | None = None, *, organiser: bool = True) -> discord.Embed:
    """The /help answer in ``lang``; ``paths``: the commands to list
    (:func:`command_paths` of the bot's tree). An ``organiser`` (Manage
    Server, or the server's tournament role) also gets the organisers'
    commands, under their own heading; a member gets a line saying they
    exist, not commands they cannot run."""
    embed = discord.Embed(title=t("help.title", lang), description=t("help.about", lang))
    lines = [game_line(game, lang) for game in registry.names()]
    embed.add_field(name=t("help.games", lang), value=_clip("\n".join(lines)), inline=False)
    names = {  # buttons as this language names them (commands: {cmd[…]})
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
    everyone = [p for p in paths or [] if not for_organisers(p)]
    organisers = [p for p in paths or [] if for_organisers(p)]
    for i, value in enumerate(_fields(command_lines(everyone, lang))):
        name = t("help.commands", lang) if i == 0 else "\u200b"  # one title, then blank
        embed.add_field(name=name, value=value, inline=False)
    if organisers and organiser:
        for i, value in enumerate(_fields(command_lines(organisers, lang))):
            name = t("help.commands_organisers", lang) if i == 0 else "\u200b"
            embed.add_field(name=name, value=value, inline=False)
    elif organisers:
        embed.add_field(name=t("help.commands_organisers", lang),
                        value=_clip(t("help.organisers_only", lang)), inline=False)  # fmt: skip
    return embed


def _clip(text: str) -> str:
    return text if len(text) <= EMBED_FIELD else text[: EMBED_FIELD - 1] + "…"


class Help(commands.Cog):
    """``/help``."""

    def __init__(self, bot: Host) -> None:
        self.bot = bot

    @app_commands.command(name="help", description="What this bot does and how to play")
    async def help(self, interaction: discord.Interaction[Any]) -> None:
        desk = getattr(self.bot, "tournaments", None)  # who may organise: its one rule
        organiser = interaction.guild_id is None or desk is None or await desk.may_run(interaction, None)
        embed = help_embed(lang_of(interaction.locale), command_paths(self.bot.tree),
                           organiser=organiser)  # fmt: skip
        await interaction.response.send_message(embed=embed, ephemeral=True)


async def setup(bot: Host) -> None:
    await bot.add_cog(Help(bot))
