"""Secrets delivered: after a commit, the players whose private message
changed get it in their DM (Sixty-Six: one DM per table, edited after every
move; Bluff: one new DM per look under the cup).

The presser's own private message (a DM or an ephemeral fallback they
pressed on) is edited as the answer to their press. If a DM fails (Discord
50007 "DMs closed", or any other HTTP error), the presser gets the same
content as an ephemeral reply, and the others the table's "Show my
hand/dice" button. Logs name the table and the HTTP status only, never the
content.
"""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot.events import ABANDONED, FINISHED, REPAIRED, SAVED, TableCommitted
from bot.games import plugin
from bot.i18n import t
from bot.storage import Store
from bot.tables.rows import TableRow
from bot.ui import secrets as hidden
from bot.ui.controls import Button
from games import registry

log = logging.getLogger(__name__)

TOLD = "dm_told"  # the table's UI state: the players told that their DMs are closed
MENTION_USERS = discord.AllowedMentions(users=True, roles=False, everyone=False)


class Private:
    """Delivers private messages for one bot."""

    def __init__(
        self, client: discord.Client, store: Store, held: hidden.Ephemerals | None = None
    ) -> None:
        self.client = client
        self.store = store
        self.held = held or hidden.Ephemerals()

    async def on_commit(self, change: TableCommitted) -> None:
        row, state = change.after, change.state
        if not registry.spec(row.game).secrets or state is None or row.phase != "playing":
            return
        ended = change.kind in (ABANDONED, FINISHED)
        if change.kind == REPAIRED:
            names = hidden.repair_targets(row, state)
        elif ended:
            # the game is over: each DM of the table says how it ended, and a
            # hand's controls (its cards) no longer stay pressable
            names = hidden.ended_targets(row, state, change.events)
        elif change.kind == SAVED:
            names = hidden.targets(row, state, change.events, started=change.started)
        else:
            return
        if ended:  # a hand shown ephemerally (DMs closed) learns the end too
            names += [s["name"] for s in row.seats
                      if s["name"] not in names and self.held.held(row.id, s["id"])]  # fmt: skip
        if not names:
            return
        lang = row.ui.get("lang", "en")
        # the end edits the DM it ends (Bluff too: its last look, not a new DM)
        mode = "edit" if ended else plugin(row.game).private_mode
        by_name = {s["name"]: s for s in row.seats}
        interaction = change.interaction
        presser = interaction.user.id if interaction is not None else None
        changed = False
        for name in names:
            seat = by_name.get(name)
            if seat is None or seat.get("bot"):
                continue
            # a DM speaks the player's language (their locale when they sat down)
            speaks = seat.get("lang") or lang
            msg = await hidden.private_message(
                row, state, seat, speaks, live=change.kind != ABANDONED,
                ended=hidden.end_notice(
                    row, speaks, finished=change.kind == FINISHED,
                    standings=change.standings, by=change.by,
                ) if ended else None,
            )  # fmt: skip
            mine = presser is not None and seat["id"] == presser
            if mine and interaction is not None and mode == "edit":
                if _pressed_on_private(interaction, row) and not interaction.response.is_done():
                    try:
                        await interaction.response.edit_message(**msg.edit_kwargs())
                        if _on_ephemeral(interaction):  # its new token edits it from now on
                            self.held.remember(row.id, seat["id"], interaction, None)
                        continue
                    except discord.HTTPException as err:
                        # too late (10062), a 5xx: edited by id below, and
                        # the other players' DMs are sent all the same
                        log.warning("table %d: the answer to a DM press failed (%s/%s)",
                                    row.id, err.status, err.code)  # fmt: skip
            sent, moved = await self._to_dm(row, seat, msg, mode)
            changed = changed or moved
            if not sent and not mine and await self.held.edit(row.id, seat["id"], msg):
                continue  # DMs closed: the hand they were shown is edited in place
            if not sent and mine and interaction is not None:
                try:
                    await hidden.ephemeral(interaction, msg, table_id=row.id, held=self.held)
                except discord.HTTPException as err:  # the others' DMs still follow
                    log.warning("table %d: the presser's private answer failed (%s/%s)",
                                row.id, err.status, err.code)  # fmt: skip
            if not sent and change.live and await self._tell_closed(row, state, seat):
                changed = True
        if ended:
            self.held.forget(row.id)
        if changed and change.live:  # where the DMs are, who was told: those keys only
            await self.store.tables.patch_ui({row.id: {"dm": row.ui.get("dm"), TOLD: row.ui.get(TOLD)}})

    async def _to_dm(
        self, row: TableRow, seat: dict[str, Any], msg: hidden.PrivateMessage, mode: str
    ) -> tuple[bool, bool]:
        """Edit (mode ``edit``) or send the DM; returns (delivered, ui changed)."""
        dms: dict[str, Any] = row.ui.setdefault("dm", {})
        key = str(seat["id"])
        known = dms.get(key)
        if mode == "edit" and known:
            try:
                partial = self.client.get_partial_messageable(int(known["c"]))
                await partial.get_partial_message(int(known["m"])).edit(**msg.edit_kwargs())
                return True, False
            except discord.HTTPException as err:
                log.warning(
                    "table %d: editing a player's DM failed (%s/%s)", row.id, err.status, err.code
                )
        try:
            channel = await self.client.create_dm(discord.Object(int(seat["id"])))
            sent = await channel.send(**msg.send_kwargs())
        except discord.HTTPException as err:
            failed = row.ui.setdefault("dm_failed", [])
            if key not in failed:  # said once a player and table, not every move
                log.warning("table %d: a DM could not be sent (%s/%s)", row.id, err.status,
                            err.code)  # fmt: skip
                failed.append(key)
                return False, True
            log.debug("table %d: a DM could not be sent again (%s/%s)", row.id, err.status,
                      err.code)  # fmt: skip
            return False, False
        dms[key] = {"c": channel.id, "m": sent.id}
        failed = row.ui.get("dm_failed") or []
        if key in failed:
            failed.remove(key)
        return True, True

    async def _tell_closed(self, row: TableRow, state: Any, seat: dict[str, Any]) -> bool:
        """The first time a player's DM fails at this table, tell them in the
        channel where to play instead (the table's "Show my hand/dice"
        button); once per player and table (``ui["dm_told"]``), not on every
        turn. Returns whether the UI state changed."""
        told: list[str] = row.ui.setdefault(TOLD, [])
        key = str(seat["id"])
        if key in told:
            return False
        lang = row.ui.get("lang", "en")
        eng = registry.engine(row.game)
        movers = eng.to_move(state)
        legal = eng.legal_moves(state, movers[0]) if movers else []
        controls = plugin(row.game).controls(eng.view(state, None), None, legal, row.ui, lang)
        show = next((c for c in controls if isinstance(c, Button) and c.action == "show"), None)
        if show is None:
            return False  # nothing on the table to play from: nothing to point at
        text = t("private.dms_closed", lang, player=f"<@{seat['id']}>", button=show.label)
        channel = self.client.get_partial_messageable(row.channel_id, guild_id=row.guild_id)
        try:
            await channel.send(text, allowed_mentions=MENTION_USERS)
        except discord.HTTPException as err:
            log.warning("table %d: could not tell of closed DMs (%s/%s)", row.id, err.status,
                        err.code)  # fmt: skip
            return False
        told.append(key)
        return True


def _on_ephemeral(interaction: discord.Interaction[Any]) -> bool:
    message = interaction.message
    return message is not None and bool(message.flags.ephemeral)


def _pressed_on_private(interaction: discord.Interaction[Any], row: TableRow) -> bool:
    return (
        interaction.type is discord.InteractionType.component
        and interaction.message is not None
        and interaction.message.id != row.message_id
    )
