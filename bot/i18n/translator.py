"""Slash commands in the user's language: discord.py's ``app_commands.Translator``.

The command code names its commands, options and choices in English (the
default Discord shows). When the tree is synced, discord.py asks the
translator for every other locale; this one answers from the catalogues:

- a command or group: ``cmd.<qualified name, dots for spaces>.name`` / ``.desc``
  (``cmd.config.clock.desc``);
- an option: ``cmd.<command>.<option>.name`` / ``.desc``;
- a choice: ``choice.<value>`` (``choice.sixdice``), else ``game.<value>``.

A string without a key stays English (``None``), as Discord expects.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Where

from bot.i18n import DEFAULT, LANGS, catalogue, lang_of


def command_key(context: app_commands.TranslationContext[Any, Any]) -> str | None:
    """The catalogue key of a string the command tree wants translated."""
    where, data = context.location, context.data
    if where in (Where.command_name, Where.group_name):
        return f"cmd.{_path(data)}.name"
    if where in (Where.command_description, Where.group_description):
        return f"cmd.{_path(data)}.desc"
    if where is Where.parameter_name:
        return f"cmd.{_path(data.command)}.{data.name}.name"
    if where is Where.parameter_description:
        return f"cmd.{_path(data.command)}.{data.name}.desc"
    if where is Where.choice_name:
        return f"choice.{data.value}"
    return None


def _path(command: Any) -> str:
    return str(command.qualified_name).replace(" ", ".")


def lookup(key: str, lang: str) -> str | None:
    """``key`` in ``lang``; choices fall back to the game names."""
    found = catalogue(lang).get(key)
    if found is None and key.startswith("choice."):
        found = catalogue(lang).get("game." + key.removeprefix("choice."))
    return found


class Translator(app_commands.Translator):
    """Answers from ``bot/i18n/<lang>.json`` for every language but English."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContext[Any, Any],
    ) -> str | None:
        lang = lang_of(locale)
        if lang == DEFAULT or lang not in LANGS:
            return None
        key = command_key(context)
        return None if key is None else lookup(key, lang)
