"""Secrets on Discord: a player's dice or hand, delivered privately.

The hidden-information games (Bluff dice, Sixty-Six) keep each player's
secret out of the channel. Everything here is built from the **player's own
view** (``engine.view(state, name)``); the public table message is built from
the public view elsewhere (:mod:`bot.ui.present`).

- A private message names the game and links to its table, shows
  :func:`bot.render.hand_picture` of the player's view, words for the same
  content, and (Sixty-Six) the player's legal moves as controls. Its custom
  ids follow the table scheme (``cb:``/``cs:<table>:<version>:<action>``);
  cards travel as select *values*, never in a custom id.
- Delivery: to the player's DM (Sixty-Six: one DM per table, edited after
  every move; Bluff: one new DM per look under the cup). If the DM fails
  (Discord 50007 "DMs closed", or any other HTTP error), the player gets the
  same content as an ephemeral reply to their press, and the table's
  "Show my hand/dice" button (action ``show``) re-opens it for that player
  only at any time.
- Logs name the table and the HTTP status only, never the content.
"""

from __future__ import annotations

import asyncio
import io
import logging
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import discord

from bot.i18n import lang_of, t
from bot.store import TableRow
from bot.ui.components import build_view
from bot.ui.games import Control, ui_for
from games.core import Event
from games.registry import engine

if TYPE_CHECKING:
    from bot.tables import TableService

log = logging.getLogger(__name__)

HIDDEN_GAMES = frozenset({"bluff", "sixtysix"})
MENTIONS = discord.AllowedMentions.none()


def is_hidden(game: str) -> bool:
    """Whether ``game`` has secrets that go to DMs."""
    return game in HIDDEN_GAMES


def table_link(row: TableRow) -> str:
    where = str(row.guild_id) if row.guild_id is not None else "@me"
    link = f"https://discord.com/channels/{where}/{row.channel_id}"
    return f"{link}/{row.message_id}" if row.message_id else link


@dataclass
class PrivateMessage:
    """One player's private content; files are built afresh for every send
    (a ``discord.File`` can be read once)."""

    content: str
    png: bytes | None = None
    filename: str = "hand.png"
    alt: str = ""
    controls: list[Control] = field(default_factory=list)
    table_id: int = 0
    version: int = 0

    def files(self) -> list[discord.File]:
        if self.png is None:
            return []
        return [discord.File(io.BytesIO(self.png), self.filename, description=self.alt[:1000])]

    def _view(self) -> discord.ui.View | None:
        return build_view(self.table_id, self.version, self.controls)

    def send_kwargs(self) -> dict[str, Any]:
        kwargs: dict[str, Any] = {
            "content": self.content,
            "files": self.files(),
            "allowed_mentions": MENTIONS,
        }
        view = self._view()
        if view is not None:
            kwargs["view"] = view
        return kwargs

    def edit_kwargs(self) -> dict[str, Any]:
        return {
            "content": self.content,
            "attachments": self.files(),
            "view": self._view(),
            "allowed_mentions": MENTIONS,
        }


async def private_message(
    row: TableRow, state: Any, seat: dict[str, Any], lang: str
) -> PrivateMessage:
    """The private content of ``seat`` at this table, from their own view."""
    eng = engine(row.game)
    ui = ui_for(row.game)
    name = seat["name"]
    view = eng.view(state, name)
    lines = [
        t(
            "private.header",
            lang,
            game=t(f"game.{row.game}", lang),
            channel=f"<#{row.channel_id}>",
            link=table_link(row),
        )
    ]
    describe = getattr(ui, "private_lines", None)
    if describe is not None:
        lines.extend(describe(view, lang))
    controls: list[Control] = []
    if not eng.is_finished(state):
        make = getattr(ui, "private_controls", None)
        if make is not None:
            controls = make(view, eng.legal_moves(state, name), lang)
    msg = PrivateMessage("\n".join(lines), controls=controls, table_id=row.id, version=row.version)
    try:
        from bot import render

        picture = await asyncio.to_thread(render.hand_picture, view, lang=lang)
        msg.png, msg.filename, msg.alt = picture.png, picture.filename, picture.alt
    except Exception:  # the words carry the same content
        log.exception("table %d: the private picture failed", row.id)
    return msg


def targets(row: TableRow, state: Any, events: list[Event]) -> list[str]:
    """The players whose private message changes after ``events``."""
    ui = ui_for(row.game)
    pick = getattr(ui, "private_targets", None)
    if pick is None:
        return []
    names: list[str] = pick(events, list(state.history.players))
    return names


async def update(
    service: TableService,
    interaction: discord.Interaction[Any],
    row: TableRow,
    state: Any,
    events: list[Event],
) -> None:
    """Deliver the private messages that ``events`` changed.

    The presser's own private message (a DM or an ephemeral fallback they
    pressed on) is edited as the answer to their press; other players' DMs
    are edited or sent by id; a DM that fails reaches the presser as an
    ephemeral message, the others through the "Show my hand" button.
    """
    if not is_hidden(row.game):
        return
    names = targets(row, state, events)
    if not names:
        return
    lang = row.ui.get("lang", "en")
    mode = getattr(ui_for(row.game), "private_mode", "edit")
    by_name = {s["name"]: s for s in row.seats}
    presser = interaction.user.id
    changed = False
    for name in names:
        seat = by_name.get(name)
        if seat is None or seat.get("bot"):
            continue
        # a DM speaks the player's language (their locale when they sat down)
        msg = await private_message(row, state, seat, seat.get("lang") or lang)
        mine = seat["id"] == presser
        if mine and _pressed_on_private(interaction, row) and mode == "edit":
            if not interaction.response.is_done():
                await interaction.response.edit_message(**msg.edit_kwargs())
                continue
        sent, moved = await _to_dm(interaction.client, row, seat, msg, mode)
        changed = changed or moved
        if not sent and mine:
            await ephemeral(interaction, msg)
    if changed and row.phase == "playing":
        await service.store.set_ui(row)


def _pressed_on_private(interaction: discord.Interaction[Any], row: TableRow) -> bool:
    return (
        interaction.type is discord.InteractionType.component
        and interaction.message is not None
        and interaction.message.id != row.message_id
    )


async def _to_dm(
    client: discord.Client, row: TableRow, seat: dict[str, Any], msg: PrivateMessage, mode: str
) -> tuple[bool, bool]:
    """Edit (mode ``edit``) or send the DM; returns (delivered, ui changed)."""
    dms: dict[str, Any] = row.ui.setdefault("dm", {})
    key = str(seat["id"])
    known = dms.get(key)
    if mode == "edit" and known:
        try:
            partial = client.get_partial_messageable(int(known["c"]))
            await partial.get_partial_message(int(known["m"])).edit(**msg.edit_kwargs())
            return True, False
        except discord.HTTPException as err:
            log.warning(
                "table %d: editing a player's DM failed (%s/%s)", row.id, err.status, err.code
            )
    try:
        channel = await client.create_dm(discord.Object(int(seat["id"])))
        sent = await channel.send(**msg.send_kwargs())
    except discord.HTTPException as err:
        log.warning("table %d: a DM could not be sent (%s/%s)", row.id, err.status, err.code)
        failed = row.ui.setdefault("dm_failed", [])
        if key not in failed:
            failed.append(key)
            return False, True
        return False, False
    dms[key] = {"c": channel.id, "m": sent.id}
    failed = row.ui.get("dm_failed") or []
    if key in failed:
        failed.remove(key)
    return True, True


async def ephemeral(interaction: discord.Interaction[Any], msg: PrivateMessage) -> None:
    """The private content as an ephemeral answer (only the presser sees it)."""
    kwargs = msg.send_kwargs()
    if interaction.response.is_done():
        await interaction.followup.send(ephemeral=True, **kwargs)
    else:
        await interaction.response.send_message(ephemeral=True, **kwargs)


async def show(interaction: discord.Interaction[Any], row: TableRow) -> None:
    """The "Show my hand/dice" button: the presser's private content,
    ephemerally; someone without a seat is told they have no hand here."""
    lang = lang_of(interaction.locale)
    seat = row.seat_of(interaction.user.id)
    if seat is None or row.state is None or not is_hidden(row.game):
        text = t("private.no_hand", lang)
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)
        return
    state = engine(row.game).from_json(row.state)
    await ephemeral(interaction, await private_message(row, state, seat, lang))


async def start(
    service: TableService, interaction: discord.Interaction[Any], row: TableRow
) -> None:
    """A hidden game just started: every player's first private message."""
    if not is_hidden(row.game) or row.state is None:
        return
    state = engine(row.game).from_json(row.state)
    await update(service, interaction, row, state, [Event("start")])
