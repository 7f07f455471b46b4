"""The table message follows the database: after every commit it is drawn
from the stored row and shown — as the answer to a press on it, else edited
by id (a new lobby is posted as the answer to ``/play``).
"""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot import events as ev
from bot.events import TableCommitted
from bot.i18n import t
from bot.store import Store, TableRow
from bot.ui import present

log = logging.getLogger(__name__)


class Screen:
    """Draws and shows table messages for one bot."""

    def __init__(self, client: discord.Client, store: Store) -> None:
        self.client = client
        self.store = store

    async def on_commit(self, change: TableCommitted) -> None:
        row = change.after
        lang = row.ui.get("lang", "en")
        interaction = change.interaction
        if change.kind == ev.OPENED:
            assert interaction is not None
            msg = present.lobby_message(row, lang)
            await interaction.response.send_message(**msg.send_kwargs())
            original = await interaction.original_response()
            row.message_id = original.id
            await self.store.set_message(row.id, original.id)
            log.info("table %d: lobby for %s in channel %d", row.id, row.game, row.channel_id)
            return
        msg = await self.draw(change)
        await self.show(interaction, row, msg)

    async def draw(self, change: TableCommitted) -> present.TableMessage:
        row = change.after
        lang = row.ui.get("lang", "en")
        if change.kind == ev.CANCELLED:
            return present.cancelled_message(row, lang, by=change.by)
        if change.kind == ev.EXPIRED:
            return present.expired_message(row, lang)
        if change.kind == ev.ABANDONED:
            return await present.abandoned_message(row, lang, by=change.by)
        if change.kind == ev.FINISHED:
            ended_by = change.by if change.origin == "command" else None
            return await present.result_message(row, lang, change.standings, ended_by=ended_by)
        if row.phase == "lobby":
            return present.lobby_message(row, lang)
        return await self.table(row)

    async def table(self, row: TableRow) -> present.TableMessage:
        """The live table's message; a drawing bug must not strand the table,
        so it falls back to the words-only table."""
        lang = row.ui.get("lang", "en")
        try:
            return await present.table_message(row, lang)
        except Exception:
            log.exception("table %d: presenting failed; showing the plain table", row.id)
            return await present.plain_message(row, lang)

    async def show(
        self,
        interaction: discord.Interaction[Any] | None,
        row: TableRow,
        msg: present.TableMessage,
    ) -> None:
        """As the answer to a press on the table message, else by id."""
        on_table = (
            interaction is not None
            and interaction.type is discord.InteractionType.component
            and interaction.message is not None
            and interaction.message.id == row.message_id
        )
        if on_table and interaction is not None and not interaction.response.is_done():
            await interaction.response.edit_message(**msg.edit_kwargs())
            return
        await self.edit(row, msg)

    async def edit(self, row: TableRow, msg: present.TableMessage) -> None:
        """Edit the table message by id (a failure is logged)."""
        if row.message_id is None:
            return
        channel = self.client.get_partial_messageable(row.channel_id, guild_id=row.guild_id)
        try:
            await channel.get_partial_message(row.message_id).edit(**msg.edit_kwargs())
        except discord.HTTPException:
            log.warning("table %d: could not edit the table message", row.id)

    async def acknowledge(self, change: TableCommitted) -> None:
        """A press or command nothing answered yet (a press in a DM that
        changed no DM, ``/game end``…) gets a plain "Done"."""
        interaction = change.interaction
        if interaction is not None and not interaction.response.is_done():
            text = t("ok.done", interaction.locale)
            await interaction.response.send_message(text, ephemeral=True)
