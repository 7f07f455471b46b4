"""A player's secret as a message: their dice or hand, from their own view.

The hidden-information games (Bluff dice, Sixty-Six) keep each player's
secret out of the channel. Everything here is built from the **player's own
view** (``engine.view(state, name)``); the public table message is built
from the public view elsewhere (:mod:`bot.ui.present`). Delivery (DMs, the
ephemeral fallback after a press) is the follower :mod:`bot.followers.private`.

- A private message names the game and links to its table, shows the
  game's hand picture of the player's view, words for the same content, and
  (Sixty-Six) the player's legal moves as controls. Its custom ids follow the
  table scheme (``cb:``/``cs:<table>:<version>:<action>``); cards travel as
  select *values*, never in a custom id.
- The table's "Show my hand/dice" button (action ``show``) opens it for the
  presser only, at any time (:func:`show`).
"""

from __future__ import annotations

import io
import logging
from dataclasses import dataclass, field
from typing import Any

import discord

from bot import pictures
from bot.games import plugin
from bot.i18n import lang_of, t
from bot.model import table_link
from bot.tables.rows import TableRow
from bot.ui.components import build_view
from bot.ui.controls import Control, Standing
from bot.ui.present import (
    AGREED,
    ENDED,
    displayed,
    mention,
    seat_picture_names,
    shown_names,
)
from games import registry
from games.core import Event

log = logging.getLogger(__name__)

MENTIONS = discord.AllowedMentions.none()


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
    row: TableRow,
    state: Any,
    seat: dict[str, Any],
    lang: str,
    *,
    live: bool = True,
    ended: str | None = None,
) -> PrivateMessage:
    """The private content of ``seat`` at this table, from their own view;
    ``live=False``: the table is gone (abandoned), so no controls.
    ``ended``: the game is over, and this line says how (:func:`end_notice`):
    the message then says only that — never a prompt ("Answer A♥.") left
    behind — without controls or picture."""
    eng = registry.engine(row.game)
    the = plugin(row.game)
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
    if ended is not None:
        lines.append(ended)
        return PrivateMessage("\n".join(lines), table_id=row.id, version=row.version)
    # people by their display names (the view keeps the engine names)
    lines.extend(the.private_lines(displayed(view, shown_names(row)), lang))
    controls: list[Control] = []
    if live and not eng.is_finished(state):
        controls = the.private_controls(view, eng.legal_moves(state, name), lang)
        controls += the.private_settings(view, name, row.ui, lang)  # the player's own switches
    msg = PrivateMessage("\n".join(lines), controls=controls, table_id=row.id, version=row.version)
    try:
        names = seat_picture_names(row.seats, lang)
        picture = await pictures.draw_cheapest(
            f"{view['game']}-hand", pictures.hand_picture, view, lang=lang, names=names
        )
        if picture is not None:
            msg.png, msg.filename, msg.alt = picture.png, picture.filename, picture.alt
    except Exception:  # the words carry the same content
        log.exception("table %d: the private picture failed", row.id)
    return msg


def end_notice(
    row: TableRow, lang: str, *, finished: bool, standings: list[Standing], by: int | None
) -> str:
    """How the game ended, for its players' DMs: who won ("The game is over:
    alice wins."), or who ended it with no result ("Alice ended the game: no
    result."), or that it was abandoned (the turn clocks, an unreachable
    channel). ``finished``: the game was settled (its ``standings``);
    ``by``: who ended it otherwise."""
    names = shown_names(row)
    if finished:
        winners = [names.get(s.player, s.player) for s in standings if s.won]
        if not winners:
            return t("private.ended.over", lang)
        return t("private.ended.won", lang, players=names_and(winners, lang), count=len(winners))
    if by is None:
        return t("private.ended.abandoned", lang)
    seat = row.seat_of(by)
    who = str(seat.get("display") or seat["name"]) if seat else str(mention(by))
    agreed = row.ui.get(ENDED) == AGREED  # everyone still playing agreed to stop
    return t("private.ended.agreed" if agreed else "private.ended.by", lang, user=who)


def names_and(names: list[str], lang: str) -> str:
    """Names joined: "alice", "alice and bob", "alice, bob and carol" (「aliceとbob」)."""
    if len(names) < 2:
        return "".join(names)
    return t("list.and", lang, rest=t("list.sep", lang).join(names[:-1]), last=names[-1])


def ended_targets(row: TableRow, state: Any, events: list[Event]) -> list[str]:
    """The players owed the end of the game in their DM: everyone with a DM
    of this table (Bluff: those who looked under a cup), and whoever the
    last move's events change."""
    known = {str(k) for k in (row.ui.get("dm") or {})}
    players = list(state.history.players)
    ids = {str(s["name"]): str(s["id"]) for s in row.seats}
    out = [p for p in players if ids.get(p) in known]
    out += [p for p in plugin(row.game).private_targets(events, players) if p not in out]
    return out


def targets(row: TableRow, state: Any, events: list[Event], *, started: bool) -> list[str]:
    """The players whose private message changes after ``events`` (a game
    that just started: the game's ``start``)."""
    players = list(state.history.players)
    return plugin(row.game).private_targets([Event("start")] if started else events, players)


def repair_targets(row: TableRow, state: Any) -> list[str]:
    """The players owed their private message after a fault (the table is
    redrawn from the database): asked of the game's plugin, with each
    player's own view."""
    eng = registry.engine(row.game)
    views = {p: eng.view(state, p) for p in state.history.players}
    return plugin(row.game).repair_targets(views)


HELD_SECONDS = 14 * 60  # an interaction's token lives 15 minutes (Discord)


@dataclass
class Held:
    """A player's ephemeral hand: the interaction that can still edit it,
    and the message (``None``: the interaction's own response)."""

    interaction: discord.Interaction[Any]
    message_id: int | None
    until: float


class Ephemerals:
    """The ephemeral hands shown to players whose DMs are closed, per table
    and player, while their interaction lives: an opponent's move edits the
    hand in place, as a DM would be (nothing new to press, no new message).
    Kept in memory only: after a restart "Show my hand" shows it again."""

    def __init__(self, clock: Any = None) -> None:
        import time

        self._clock = clock or time.monotonic
        self._held: dict[tuple[int, int], Held] = {}

    def remember(
        self, table_id: int, user_id: int, interaction: discord.Interaction[Any],
        message_id: int | None,
    ) -> None:  # fmt: skip
        self._held[(table_id, user_id)] = Held(
            interaction, message_id, self._clock() + HELD_SECONDS
        )

    def held(self, table_id: int, user_id: int) -> Held | None:
        found = self._held.get((table_id, user_id))
        if found is not None and found.until < self._clock():
            del self._held[(table_id, user_id)]
            return None
        return found

    def forget(self, table_id: int, user_id: int | None = None) -> None:
        for key in [k for k in self._held if k[0] == table_id and user_id in (None, k[1])]:
            del self._held[key]

    async def edit(self, table_id: int, user_id: int, msg: PrivateMessage) -> bool:
        """Edit the player's ephemeral hand in place; ``False``: none held,
        or Discord refused (then it is forgotten)."""
        found = self.held(table_id, user_id)
        if found is None:
            return False
        try:
            if found.message_id is None:
                await found.interaction.edit_original_response(**msg.edit_kwargs())
            else:
                await found.interaction.followup.edit_message(
                    found.message_id, **msg.edit_kwargs()
                )
        except discord.HTTPException as err:
            log.info("table %d: an ephemeral hand could not be edited (%s/%s)", table_id,
                     err.status, err.code)  # fmt: skip
            self.forget(table_id, user_id)
            return False
        return True


async def ephemeral(
    interaction: discord.Interaction[Any],
    msg: PrivateMessage,
    *,
    table_id: int | None = None,
    held: Ephemerals | None = None,
) -> None:
    """The private content as an ephemeral answer (only the presser sees it);
    with ``held``, remembered so the next moves edit it in place."""
    kwargs = msg.send_kwargs()
    message_id = None
    if interaction.response.is_done():
        sent = await interaction.followup.send(ephemeral=True, wait=True, **kwargs)
        message_id = sent.id
    else:
        await interaction.response.send_message(ephemeral=True, **kwargs)
    if held is not None and table_id is not None:
        held.remember(table_id, interaction.user.id, interaction, message_id)


async def show(
    interaction: discord.Interaction[Any], row: TableRow, held: Ephemerals | None = None
) -> None:
    """The "Show my hand/dice" button: the presser's private content,
    ephemerally; someone without a seat is told they have no hand here."""
    lang = lang_of(interaction.locale)
    seat = row.seat_of(interaction.user.id)
    if seat is None or row.state is None or not registry.spec(row.game).secrets:
        text = t("private.no_hand", lang)
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)
        return
    state = registry.engine(row.game).from_json(row.state)
    msg = await private_message(row, state, seat, lang)
    await ephemeral(interaction, msg, table_id=row.id, held=held)


async def ask(
    interaction: discord.Interaction[Any], row: TableRow, text: str, controls: list[Control]
) -> None:
    """A game's question before a move (Sixty-Six: declaring 66 below 66),
    for the presser alone; its buttons carry the table's id and version and
    the move in notation, never a secret. Nothing is changed yet."""
    view = build_view(row.id, row.version, controls)
    kwargs: dict[str, Any] = {"ephemeral": True, "allowed_mentions": MENTIONS}
    if view is not None:
        kwargs["view"] = view
    if interaction.response.is_done():
        await interaction.followup.send(text, **kwargs)
    else:
        await interaction.response.send_message(text, **kwargs)


async def dismiss(interaction: discord.Interaction[Any]) -> None:
    """A "no" to a question: it says nothing changed and loses its buttons."""
    text = t("ui.cancelled", lang_of(interaction.locale))
    if interaction.message is not None and not interaction.response.is_done():
        await interaction.response.edit_message(content=text, view=None)
    elif interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True)
    else:
        await interaction.response.send_message(text, ephemeral=True)


async def answered(interaction: discord.Interaction[Any]) -> None:
    """A "yes" to a question: it keeps its words and loses its buttons (so the
    move's own answers — the player's DM, the table — go where they belong)."""
    if interaction.message is None or interaction.response.is_done():
        return
    try:
        await interaction.response.edit_message(view=None)
    except discord.HTTPException as err:
        log.warning("a question could not be closed (%s/%s)", err.status, err.code)
