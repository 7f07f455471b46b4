"""Turn pings: a short channel message that mentions the player whose turn
begins.

The table message is edited in place, and Discord does not notify anyone of
an edit, so when the turn passes to a different human player the bot sends
"@alice, your turn — <link to the table>" in the table's language. Only the
latest ping of a table stays: its message id is kept in the table's UI state
(``ui["ping"]``) and the previous one is deleted when the turn changes again
or the game ends. This runs after the move is committed and the press is
answered; a ping that cannot be sent or deleted is logged, never raised.
"""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot.i18n import t
from bot.store import Store, TableRow
from games import registry

log = logging.getLogger(__name__)

KEY = "ping"  # the table's UI state: the id of its current ping message


def mover(row: TableRow) -> str | None:
    """The player the table message names as the one to move (the first of
    the movers), or ``None`` (lobby, finished game)."""
    if row.phase != "playing" or row.state is None:
        return None
    eng = registry.engine(row.game)
    state = eng.from_json(row.state)
    if eng.is_finished(state):
        return None
    movers = eng.to_move(state)
    return str(movers[0]) if movers else None


async def turn_changed(
    client: discord.Client, store: Store, row: TableRow, before: str | None, *, live: bool = True
) -> None:
    """After a committed change of ``row`` (``before``: who was to move, or
    who pressed Start): ping the player to move now if that is a different
    human player, and delete the table's previous ping when the turn has
    changed. ``live=False``: the table is gone (finished, abandoned), so only
    the old ping is deleted."""
    now = mover(row) if live else None
    if now == before:
        return  # the same player goes on: the ping (if any) still holds
    old = row.ui.pop(KEY, None)
    seat = next((s for s in row.seats if s["name"] == now), None)
    channel = client.get_partial_messageable(row.channel_id, guild_id=row.guild_id)
    if seat is not None and not seat.get("bot"):
        from bot.tables import message_link  # bot.tables imports this module

        lang = row.ui.get("lang", "en")
        text = t(
            "table.your_turn",
            lang,
            player=f"<@{seat['id']}>",
            link=message_link(row.guild_id, row.channel_id, row.message_id),
        )
        try:
            sent = await channel.send(
                text,
                allowed_mentions=discord.AllowedMentions(users=True, roles=False, everyone=False),
            )
        except discord.HTTPException:
            log.warning("table %d: could not send the turn ping", row.id)
        else:
            row.ui[KEY] = sent.id
    if old is not None:
        await delete(channel, int(old), row.id)
    if live and row.phase == "playing" and (old is not None or KEY in row.ui):
        await store.set_ui(row)  # no version bump: the table's buttons stay valid


async def clear(client: discord.Client, row: TableRow) -> None:
    """The table is gone without a result (abandoned): delete its ping."""
    old = row.ui.pop(KEY, None)
    if old is not None:
        channel = client.get_partial_messageable(row.channel_id, guild_id=row.guild_id)
        await delete(channel, int(old), row.id)


async def delete(channel: Any, message_id: int, table_id: int) -> None:
    """Delete a ping; one already gone (deleted by hand) is fine."""
    try:
        await channel.get_partial_message(message_id).delete()
    except discord.NotFound:
        pass
    except discord.HTTPException:
        log.warning("table %d: could not delete the old turn ping", table_id)
