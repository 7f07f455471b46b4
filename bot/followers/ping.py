"""Turn pings: a short channel message that mentions the player whose turn
begins.

The table message is edited in place, and Discord does not notify anyone of
an edit, so when the turn passes to a different human player the bot sends
"@alice, your turn — [Nine table](<link>)" in the table's language (a
link labelled with the table, not a bare URL). Only the
latest ping of a table stays: its message id is kept in the table's UI state
(``ui["ping"]``, noted with :meth:`bot.tables.service.TableService.note_ui`: it goes
to the database with the table's next save) and the previous one is deleted when the turn changes again
or the table goes away. This runs after the move is committed and the press
is answered; a ping that cannot be sent or deleted is logged, never raised.

Against computers the turn comes back to the same person again and again:
when it does within a minute of their last turn beginning, with only
computers moving in between, they are at the table already and get no new
ping (whose turn began last, and when, is ``ui["turn_began"]``, noted
key-wise like the ping's id).
"""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot.events import TableCommitted
from bot.i18n import linked, t
from bot.model import mover, seat_named, table_link
from bot.tables.rows import TableRow
from bot.tables.service import TableService

log = logging.getLogger(__name__)

KEY = "ping"  # the table's UI state: the id of its current ping message
LAST = "turn_began"  # the table's UI state: {"player", "at"} of the last person's turn
AGAIN = 60.0  # seconds: a person to move again this soon (only computers between) is not pinged
MOVERS_KEPT = 10_000  # tables whose last mover is remembered (a few dozen bytes each)
MENTION_USERS = discord.AllowedMentions(users=True, roles=False, everyone=False)


class Pings:
    """Sends and deletes turn pings for one bot."""

    def __init__(self, client: discord.Client, service: TableService) -> None:
        self.client = client
        self.service = service
        # table id → (version, its mover) as this process last committed it:
        # the next change's "before" is usually that version, whose state
        # need not be loaded again to know who was to move
        self._movers: dict[int, tuple[int, str | None]] = {}

    async def on_commit(self, change: TableCommitted) -> None:
        """Ping the player to move now if that is a different human player
        than before (or than the one who pressed Start), and delete the
        table's previous ping when the turn has changed or the table is gone."""
        row = change.after
        if change.started:
            before = change.actor
        elif change.before.phase == "playing":
            before = self._mover_before(change.before)
        else:
            return  # a lobby: nobody was or is to move
        now = mover(row, change.state) if change.live else None
        self._remember(row, now, live=change.live)
        if now == before:  # the same player goes on: the ping (if any) still holds
            if change.started and now is not None:  # who pressed Start moves first
                self.turn_began(row, now)
            return
        old = row.ui.pop(KEY, None)
        seat = seat_named(row, now)
        channel = self.client.get_partial_messageable(row.channel_id, guild_id=row.guild_id)
        if now is not None and seat is not None and not seat.get("bot"):
            clock = self.service.clock()
            # only computers moved since their last turn began: no new ping
            if not self.back_soon(change, before, now, clock):
                lang = row.ui.get("lang", "en")
                game = t(f"game.{row.game}", lang)
                link = linked("link.table", lang, table_link(row), game=game)
                text = t("table.your_turn", lang, player=f"<@{seat['id']}>", link=link)
                try:
                    sent = await channel.send(text, allowed_mentions=MENTION_USERS)
                except discord.HTTPException:
                    log.warning("table %d: could not send the turn ping", row.id)
                else:
                    row.ui[KEY] = sent.id
            self.turn_began(row, now, clock)
        if old is not None:
            await delete(channel, int(old), row.id)
        if change.live and (old is not None or KEY in row.ui):
            # kept without a version bump (the table's buttons stay valid),
            # written with the table's next save
            self.service.note_ui(row.id, KEY, row.ui.get(KEY))

    def _mover_before(self, before: TableRow) -> str | None:
        known = self._movers.get(before.id)
        if known is not None and known[0] == before.version:
            return known[1]
        return mover(before)

    def _remember(self, row: TableRow, now: str | None, *, live: bool) -> None:
        if not live:
            self._movers.pop(row.id, None)
            return
        if len(self._movers) >= MOVERS_KEPT and row.id not in self._movers:
            self._movers.clear()  # tables that went away elsewhere: start again
        self._movers[row.id] = (row.version, now)

    def turn_began(self, row: TableRow, player: str, clock: float | None = None) -> None:
        """Note whose turn began last, and when (key-wise, no version bump)."""
        row.ui[LAST] = {"player": player, "at": self.service.clock() if clock is None else clock}
        self.service.note_ui(row.id, LAST, row.ui[LAST])

    @staticmethod
    def back_soon(change: TableCommitted, before: str | None, now: str, clock: float) -> bool:
        """Whether the turn comes back to ``now`` from a computer within
        :data:`AGAIN` seconds of their last turn beginning, with only
        computers moving in between: they are at the table already."""
        seat = seat_named(change.before, before)
        if seat is None or not seat.get("bot"):
            return False  # a person moved (or the game just started): ping
        last = change.before.ui.get(LAST) or {}
        return bool(last.get("player") == now and clock - float(last.get("at", 0)) < AGAIN)


async def delete(channel: Any, message_id: int, table_id: int) -> None:
    """Delete a ping; one already gone (deleted by hand) is fine."""
    try:
        await channel.get_partial_message(message_id).delete()
    except discord.NotFound:
        pass
    except discord.HTTPException:
        log.warning("table %d: could not delete the old turn ping", table_id)
