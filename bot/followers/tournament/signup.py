"""The presses on a sign-up message — Join, Leave, Check in, and the
host's Start — each under the tournament's lock, the message edited in
place; and who may run an event (its host, Manage Server, or the role the
server names)."""

from __future__ import annotations

from typing import Any

import discord

from bot.followers.tournament.board import MENTIONS, Board
from bot.followers.tournament.part import Part, Shared
from bot.followers.tournament.rounds import Rounds
from bot.i18n import t
from bot.presses import MAX_ID
from bot.tournament.rows import TournamentRow
from bot.tournament.service import Outcome


def pressed_here(interaction: discord.Interaction[Any], row: TournamentRow) -> bool:
    """A sign-up press belongs to its event: in the event's server and
    channel, on its sign-up message (when that is known), as a table's
    press belongs to its table (:meth:`bot.presses.Presses._pressed_here`)."""
    if interaction.guild_id != row.guild_id or interaction.channel_id != row.channel_id:
        return False
    message = interaction.message
    return row.message_id is None or message is None or message.id == row.message_id


class SignUps(Part):
    """What the sign-up messages' buttons do."""

    def __init__(self, shared: Shared, board: Board, rounds: Rounds) -> None:
        super().__init__(shared)
        self.board = board
        self.rounds = rounds

    async def press(self, interaction: discord.Interaction[Any], tournament_id: int, action: str) -> None:
        row = await self.store.tournaments.get_tournament(tournament_id) if tournament_id <= MAX_ID else None
        if row is None or not pressed_here(interaction, row):
            # a crafted custom id (another channel's event, an id past 64
            # bits): refused as a press on another channel's table is
            await self.reply(interaction, "tournament.error.stale_button")
            return
        user = interaction.user
        async with self.lock(row.id):
            row = await self.store.tournaments.get_tournament(tournament_id)
            assert row is not None
            if action == "join":
                outcome = await self.service.join(row, user.id, user.display_name)
            elif action == "leave":
                outcome = await self.service.leave(row, user.id)
            elif action == "checkin":
                outcome = await self.service.check_in(row, user.id)
            elif action == "start":
                if not await self.may_run(interaction, row):
                    await self.reply(interaction, "tournament.error.host_only")
                    return
                # opening a round takes longer than Discord waits for an answer
                await interaction.response.defer(ephemeral=True, thinking=True)
                outcome = await self.rounds.begin(row, force=True)
            else:
                outcome = Outcome("error.unknown_action")
            if outcome.changed and action != "start":
                content, view = await self.board.signup_message(row)
                try:
                    await interaction.response.edit_message(
                        content=content, view=view, allowed_mentions=MENTIONS
                    )
                except discord.HTTPException:
                    await self.board.refresh_signup(row)
                else:
                    await interaction.followup.send(
                        t(outcome.key, interaction.locale, **(outcome.args or {})), ephemeral=True
                    )
                    return
        await self.reply(interaction, outcome.key, **(outcome.args or {}))

    async def reply(self, interaction: discord.Interaction[Any], key: str, **args: Any) -> None:
        text = t(key, interaction.locale, **args)
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)

    async def may_run(self, interaction: discord.Interaction[Any], row: TournamentRow | None) -> bool:
        """The host of ``row``, Manage Server, or the role the server names
        (``/config tournament_role``)."""
        if row is not None and interaction.user.id == row.host_id:
            return True
        perms = getattr(interaction, "permissions", None)
        if perms is not None and perms.manage_guild:
            return True
        if interaction.guild_id is None:
            return False
        role = await self.store.settings.guild_setting(interaction.guild_id, "tournament_role")
        roles = getattr(interaction.user, "roles", [])
        return role is not None and any(r.id == int(role) for r in roles)
