"""Finished games: the buttons under a result message (``cr:<result>:…``)
and, later, ``/history``. The "record" button answers with the game's record
file — the RULES game-record JSON that ``python -m games replay`` reads
unchanged (the result is over, so the record's hidden information is no
secret any more)."""

from __future__ import annotations

import io
import json
from typing import TYPE_CHECKING, Any

import discord
from discord.ext import commands

from bot.i18n import t

if TYPE_CHECKING:
    from bot.app import ChabudaiBot


def record_file(result: dict[str, Any]) -> discord.File:
    """The stored record as a downloadable ``.json`` file."""
    data = json.dumps(result["record"], ensure_ascii=False, indent=1).encode()
    name = f"chabudai-{result['game']}-{result['id']}.json"
    return discord.File(io.BytesIO(data), name)


class History(commands.Cog):
    """What is kept of finished games."""

    def __init__(self, bot: ChabudaiBot) -> None:
        self.bot = bot
        bot.result_actions["record"] = self.send_record

    async def send_record(
        self, interaction: discord.Interaction[ChabudaiBot], result_id: int, arg: str
    ) -> None:
        result = await self.bot.tables.store.get_result(result_id)
        if result is None:
            await self.bot.tables.reply(interaction, "error.no_result")
            return
        await interaction.response.send_message(
            t("result.record_file", interaction.locale, game=t(f"game.{result['game']}", interaction.locale)),
            file=record_file(result),
            ephemeral=True,
        )
