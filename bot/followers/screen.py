"""The table message follows the database: after every commit it is drawn
from the stored row and shown — as the answer to a press on it, else edited
by id (a new lobby is posted as the answer to ``/play``) — and the version
shown is noted (:meth:`bot.tables.service.TableService.mark_shown`), so a table
whose message fell behind is found and redrawn.

When showing fails:

- the answer to the press fails (more than 3 s: 10062, a 5xx, a 429): the
  message is edited by id instead;
- the message was deleted (404 Unknown Message): it is posted again in the
  channel, its new id stored, and the players told once (on the new message);
- the channel is gone or closed to the bot (404 Unknown Channel, 403): the
  table is marked unreachable (``ui["unreachable"]``, the time it was first
  seen); the turn clock then ends it unrated (:mod:`bot.followers.clock`).
  The players are told, in a DM (or, when their DMs are closed, with their
  next press or command anywhere): when the channel is lost, and when the
  game ends for it;
- anything else (a 5xx, a 429 on the edit): the table stays behind and the
  repair sweep redraws it.

Discord's budget for edits: about 5 edits of a channel's messages per 5 s
(:data:`EDIT_INTERVAL` apart on average; an answer to a press is not one of
them). Computers pause 1-2 s before a move (:data:`bot.followers.cpu.DELAY`),
so their edits keep within it; a computer's move that another computer's
move follows within one edit interval (a bot set to pause less) is not
drawn: the next one's edit shows it, its words in the table's log lines.
"""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot import events as ev
from bot import turns
from bot.events import TableCommitted
from bot.i18n import t
from bot.model import humans
from bot.tables.rows import TableRow
from bot.tables.service import TableService
from bot.turns import next_cpu
from bot.ui import present
from bot.ui.components import with_launch

log = logging.getLogger(__name__)

UNREACHABLE = turns.UNREACHABLE  # ui key: when the table's channel was first found unreachable
GONE_CODES = (10003, 50001, 50013)  # Unknown Channel, Missing Access, Missing Permissions
EDIT_INTERVAL = 1.0  # seconds: Discord allows ~5 edits of a channel's messages per 5 s


class Screen:
    """Draws and shows table messages for one bot."""

    def __init__(self, client: discord.Client, service: TableService) -> None:
        self.client = client
        self.service = service
        self.store = service.store
        self.launch = False  # the table message opens the Activity too (docs/activity.md)

    async def on_commit(self, change: TableCommitted) -> None:
        row = change.after
        if change.kind == ev.OPENED:
            await self.post_lobby(change)
            return
        if self.shown_by_next(change):
            return
        msg = await self.draw(change)
        # a table that goes on (not finished, abandoned, or a result shown again)
        live = not change.removed and change.result_id is None
        shown = await self.show(change.interaction, row, msg, live=live)
        if shown is not False and change.result_id is not None:
            # shown, or never can be (the channel is gone): nothing to repair
            self.service.mark_result_shown(change.result_id)
        if shown is not False and change.kind == ev.ABANDONED and row.id is not None:
            self.service.mark_end_shown(row.id)  # the same for a game ended without a result
        if change.kind == ev.ABANDONED and UNREACHABLE in change.before.ui:
            await self.tell_players(row, "table.lost_ended")  # nobody saw it end

    def shown_by_next(self, change: TableCommitted) -> bool:
        """A computer's move that another computer's move follows within one
        edit interval: one edit shows both (the table is behind meanwhile;
        should the next move not come, the repair sweep draws it)."""
        if change.origin != "cpu" or change.kind != ev.SAVED or change.interaction is not None:
            return False
        if change.after.phase != "playing" or change.result_id is not None or change.state is None:
            return False
        pause = getattr(self.client, "cpu_delay", None)
        longest = max(pause) if isinstance(pause, tuple) else pause
        if not isinstance(longest, (int, float)) or longest >= EDIT_INTERVAL:
            return False
        return next_cpu(change.after, change.state) is not None

    async def post_lobby(self, change: TableCommitted) -> None:
        """The new lobby, as the answer to ``/play``. If it cannot be posted,
        the lobby is removed so the channel is free, and the user told."""
        row, interaction = change.after, change.interaction
        msg = self.launchable(row, present.lobby_message(row, row.ui.get("lang", "en")))
        if interaction is None:  # a table opened seated (bot.lobby): posted in its channel
            await self.post_seated(row, msg)
            return
        try:
            await interaction.response.send_message(**msg.send_kwargs())
        except discord.HTTPException as err:
            log.warning("table %d: the lobby could not be posted (%s/%s)", row.id, err.status,
                        err.code)  # fmt: skip
            # removed through the one write path (its ledger line: cancelled)
            await self.service.commit(ev.snapshot(row), row, origin="command", kind=ev.CANCELLED)
            try:
                await interaction.followup.send(
                    t("error.lobby_not_posted", interaction.locale), ephemeral=True
                )
            except discord.HTTPException:
                pass  # the interaction itself is gone: nobody to tell
            return
        try:
            original = await interaction.original_response()
        except discord.HTTPException:
            # posted, but its id unknown: the first press on it adopts it
            log.warning("table %d: the lobby's message id is unknown", row.id)
            return
        row.message_id = original.id
        await self.store.tables.set_message(row.id, original.id)
        self.service.mark_shown(row.id, row.version)
        log.info("table %d: lobby for %s in channel %d", row.id, row.game, row.channel_id)

    async def post_seated(self, row: TableRow, msg: present.TableMessage) -> None:
        """A table opened with no interaction (its seats taken; it starts
        next): posted in its channel. If it cannot be, it is removed."""
        channel = self.client.get_partial_messageable(row.channel_id, guild_id=row.guild_id)
        try:
            sent = await channel.send(**msg.send_kwargs())
        except discord.HTTPException as err:
            log.warning("table %d: the table could not be posted (%s/%s)", row.id, err.status,
                        err.code)  # fmt: skip
            await self.service.commit(ev.snapshot(row), row, origin="command", kind=ev.CANCELLED)
            return
        row.message_id = sent.id
        await self.store.tables.set_message(row.id, sent.id)
        self.service.mark_shown(row.id, row.version)
        log.info("table %d: %s seated in channel %d", row.id, row.game, row.channel_id)

    async def show_end(self, screen: dict[str, Any]) -> None:
        """A game ended without a result whose end never reached the table
        message (the edit failed, or the process died after the commit):
        shown from what it is drawn from (:meth:`bot.tables.repo.TablesRepo.delete_table`'s
        ``screen``), its controls gone; noted shown unless the edit failed
        again (a channel gone: it never can be, nothing to repair)."""
        row = TableRow(**screen["row"])
        lang = row.ui.get("lang", "en")
        msg = await present.abandoned_message(row, lang, by=screen.get("by"))
        log.info("table %d: its end (no result) was not on screen; shown again", row.id)
        if await self.edit(row, msg, live=False) is not False:
            self.service.mark_end_shown(row.id)

    async def draw(self, change: TableCommitted) -> present.TableMessage:
        row = change.after
        lang = row.ui.get("lang", "en")
        if change.kind == ev.CANCELLED:
            return present.cancelled_message(row, lang, by=change.by)
        if change.kind == ev.EXPIRED:
            return present.expired_message(row, lang)
        if change.kind == ev.ABANDONED:
            return await present.abandoned_message(row, lang, by=change.by)
        if change.kind == ev.FINISHED or change.result_id is not None:
            # the game's end (or, repaired, its end that was never shown)
            shown_by = change.origin == "command" or change.kind == ev.REPAIRED
            ended_by = change.by if shown_by else None
            return await present.result_message(
                row, lang, change.standings, ended_by=ended_by, result_id=change.result_id
            )
        if row.phase == "lobby":
            return self.launchable(row, present.lobby_message(row, lang))
        return self.launchable(row, await self.table(row, change.state))

    def launchable(self, row: TableRow, msg: present.TableMessage) -> present.TableMessage:
        """A live table's message with its "Open the Activity" button, where
        the bot serves the Activity."""
        if self.launch and row.id is not None:
            label = t("activity.launch", row.ui.get("lang", "en"))
            msg.view = with_launch(msg.view, row.id, label)
        return msg

    async def table(self, row: TableRow, state: Any = None) -> present.TableMessage:
        """The live table's message (``state``: the row's, loaded already); a
        drawing bug must not strand the table, so it falls back to the
        words-only table."""
        lang = row.ui.get("lang", "en")
        try:
            return await present.table_message(row, lang, state)
        except Exception:
            log.exception("table %d: presenting failed; showing the plain table", row.id)
            return await present.plain_message(row, lang)

    async def show(
        self,
        interaction: discord.Interaction[Any] | None,
        row: TableRow,
        msg: present.TableMessage,
        *,
        live: bool = True,
    ) -> bool | None:
        """As the answer to a press on the table message, else by id;
        whether it is shown (``None``: it never can be, the channel or the
        message is gone). ``live``: the table goes on (a lost channel is
        noted only then)."""
        on_table = (
            interaction is not None
            and interaction.type is discord.InteractionType.component
            and interaction.message is not None
            and interaction.message.id == row.message_id
        )
        if on_table and interaction is not None and not interaction.response.is_done():
            try:
                await interaction.response.edit_message(**msg.edit_kwargs())
            except discord.HTTPException as err:
                log.warning("table %d: the answer failed (%s/%s); editing by id", row.id,
                            err.status, err.code)  # fmt: skip
            else:
                self.service.mark_shown(row.id, row.version)
                return True
        return await self.edit(row, msg, live=live)

    async def edit(
        self, row: TableRow, msg: present.TableMessage, *, live: bool = True
    ) -> bool | None:
        """Edit the table message by id; ``True`` = it shows ``msg`` now,
        ``None`` = it never can (the channel is gone: of a table that goes
        on, noted unreachable)."""
        if row.message_id is None:
            return False
        channel = self.client.get_partial_messageable(row.channel_id, guild_id=row.guild_id)
        try:
            await channel.get_partial_message(row.message_id).edit(**msg.edit_kwargs())
        except discord.NotFound as err:
            if err.code == 10008 and row.id is not None:  # the message was deleted
                return await self.repost(row, msg, live=live)
            if live:
                await self.unreachable(row, err)
            return None
        except discord.Forbidden as err:
            if live:
                await self.unreachable(row, err)
            return None
        except discord.HTTPException as err:
            log.warning("table %d: could not edit the table message (%s/%s)", row.id,
                        err.status, err.code)  # fmt: skip
            return False
        if live:
            await self.reachable(row)
        self.service.mark_shown(row.id, row.version)
        return True

    async def repost(
        self, row: TableRow, msg: present.TableMessage, *, live: bool = True
    ) -> bool | None:
        """The table message was deleted: post it again, with a line that says so."""
        lang = row.ui.get("lang", "en")
        msg.content = t("table.reposted", lang) + "\n" + msg.content
        channel = self.client.get_partial_messageable(row.channel_id, guild_id=row.guild_id)
        try:
            sent = await channel.send(**msg.send_kwargs())
        except discord.HTTPException as err:
            if live:
                await self.unreachable(row, err)
            return None if isinstance(err, (discord.Forbidden, discord.NotFound)) else False
        row.message_id = sent.id
        if live:  # a finished game's row is gone (its result keeps the old id)
            await self.store.tables.set_message(row.id, sent.id)
        self.service.mark_shown(row.id, row.version)
        log.info("table %d: the table message was deleted; posted again", row.id)
        return True

    async def unreachable(self, row: TableRow, err: discord.HTTPException) -> None:
        """The channel is gone or closed to the bot: note when it was first seen."""
        if UNREACHABLE in row.ui or not _live(row):
            return
        log.warning("table %d: the channel is unreachable (%s/%s)", row.id, err.status, err.code)
        row.ui[UNREACHABLE] = self.service.clock()
        await self.store.tables.patch_ui({row.id: {UNREACHABLE: row.ui[UNREACHABLE]}})
        if row.phase == "playing":  # ends unrated after one turn clock: say by when
            seconds = await turns.table_seconds(self.store, row)
            # at the deadline already set, if later (a player's first turn is longer)
            at = max(row.ui[UNREACHABLE] + seconds, row.deadline or 0.0)
            ends = f"<t:{int(at)}:t>"
            await self.tell_players(row, "table.lost", time=ends)

    async def tell_players(self, row: TableRow, key: str, **args: Any) -> None:
        """Tell the people at a table nobody can see (its channel is lost):
        in a DM, in their own language; if the DM fails, with their next
        press or command anywhere (:meth:`TableService.tell_later`)."""
        for seat in humans(row.seats):
            lang = seat.get("lang") or row.ui.get("lang", "en")
            game = t(f"game.{row.game}", lang)
            text = t(key, lang, game=game, channel=f"<#{row.channel_id}>", **args)
            try:
                dm = await self.client.create_dm(discord.Object(int(seat["id"])))
                await dm.send(text)
            except discord.HTTPException as err:
                log.warning("table %d: a player could not be told in a DM (%s/%s)", row.id,
                            err.status, err.code)  # fmt: skip
                self.service.tell_later(int(seat["id"]), text)

    async def reachable(self, row: TableRow) -> None:
        if row.ui.pop(UNREACHABLE, None) is not None and _live(row):
            await self.store.tables.patch_ui({row.id: {UNREACHABLE: None}})

    async def acknowledge(self, change: TableCommitted) -> None:
        """A press or command nothing answered yet (a press in a DM that
        changed no DM, ``/game end``…) gets a plain "Done"; a press that
        found the table behind is told it was redrawn."""
        interaction = change.interaction
        if interaction is None:
            return
        if change.kind == ev.REPAIRED and change.result_id is not None:
            # a press on a finished game's old message: the result is the answer
            if not interaction.response.is_done():
                await self.service.reply(interaction, "error.no_table")
            return
        key = "table.redrawn" if change.kind == ev.REPAIRED else done_key(change)
        if change.kind == ev.REPAIRED or not interaction.response.is_done():
            loc = interaction.locale
            text = t(key, loc, game=t(f"game.{change.after.game}", loc))
            try:
                if interaction.response.is_done():
                    await interaction.followup.send(text, ephemeral=True)
                else:
                    await interaction.response.send_message(text, ephemeral=True)
            except discord.HTTPException as err:
                log.warning("an answer could not be sent (%s/%s)", err.status, err.code)


def done_key(change: TableCommitted) -> str:
    """What a command did, said to whoever ran it (``/game leave``: "You
    left the Nine game; your seat forfeits."); a press: plain "Done."."""
    if change.origin != "command":
        return "ok.done"
    if change.kind == ev.CANCELLED:  # /game end of a lobby, or its last person left
        return "ok.closed"
    if change.kind == ev.ABANDONED:
        return "ok.ended_no_result"
    if change.by is not None:  # /game end settled the game
        return "ok.ended"
    if change.before.phase == "lobby":
        return "ok.left_lobby"
    return "ok.left"


def _live(row: TableRow) -> bool:
    return row.phase in ("lobby", "playing")
