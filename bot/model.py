"""Small shared facts about tables, seats and people, used by every layer
above the store: seats of people and of computer players, engine names,
links to messages, who may manage a table, who is to move.
"""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.i18n import lang_of, t
from bot.tables.rows import TableRow
from games import registry
from games.core import RuleError

LEVELS = ("easy", "normal", "strong")  # computer players' strengths
CPU_ADD = "cpu:"  # lobby actions cpu:easy, cpu:normal, cpu:strong, cpu:remove
CPU_REMOVE = "cpu:remove"


def parse_options_text(text: str | None, limit: int = 200) -> dict[str, str]:
    """``"target=5000 start=500 kinds=additive"`` → a dict of raw values.

    A bare name means ``on``. Text longer than ``limit`` characters is
    refused (``option.too_long``): every option of a game fits in about 120,
    and a word an error repeats is clipped (:meth:`RuleError.clip`), so no
    answer about options can outgrow a Discord message.

    >>> parse_options_text("target=5000  six_kind_gift")
    {'target': '5000', 'six_kind_gift': 'on'}
    """
    text = (text or "").strip()
    if len(text) > limit:
        raise RuleError("option.too_long", f"options longer than {limit} characters", limit=limit)
    out: dict[str, str] = {}
    for word in text.replace(",", " ").split():
        name, sep, value = word.partition("=")
        if not name or (sep and not value):
            shown = RuleError.clip(word)
            raise RuleError("option.syntax", f"cannot read option {shown!r}", word=shown)
        out[name.strip().lower()] = value.strip() if sep else "on"
    return out


def engine_name(display: str, taken: set[str]) -> str:
    """A player name for the engine and the record: the display name without
    white space, unique at the table.

    >>> engine_name("Mary Ann", {"Mary_Ann"})
    'Mary_Ann_2'
    """
    base = re.sub(r"\s+", "_", display.strip())[:32] or "player"
    name, n = base, 2
    while name in taken:
        name = f"{base}_{n}"
        n += 1
    return name


def message_link(guild_id: int | None, channel_id: int, message_id: int | None) -> str:
    where = str(guild_id) if guild_id is not None else "@me"
    return f"https://discord.com/channels/{where}/{channel_id}/{message_id or ''}".rstrip("/")


def table_link(row: TableRow) -> str:
    """The link to a table's message (its channel while it has none)."""
    return message_link(row.guild_id, row.channel_id, row.message_id)


def is_manager(interaction: discord.Interaction[Any]) -> bool:
    """Whether the user may manage this server (Manage Server)."""
    perms = getattr(interaction, "permissions", None)
    return bool(perms and perms.manage_guild)


# ------------------------------------------------------------------ seats


def human_seat(user: Any, taken: set[str], locale: Any) -> dict[str, Any]:
    """A person's seat: their id, an engine name, their display name and the
    language of their private messages (their locale when they sat down)."""
    return {
        "id": user.id,
        "name": engine_name(user.display_name, taken),
        "display": user.display_name,
        "lang": lang_of(locale),
    }


def is_cpu(seat: dict[str, Any] | None) -> bool:
    return bool(seat and seat.get("bot"))


def humans(seats: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The seats of people (not computer players)."""
    return [s for s in seats if not s.get("bot")]


def cpu_seat(row: TableRow, level: str, lang: str) -> dict[str, Any]:
    """A computer player's seat: ``CPU1``, ``CPU2`` … (first free number),
    a negative id no Discord user has, a label in the table's language."""
    names = {s["name"] for s in row.seats}
    ids = {s["id"] for s in row.seats}
    n = 1
    while f"CPU{n}" in names or -n in ids:
        n += 1
    return {
        "id": -n,
        "name": f"CPU{n}",
        "display": t("cpu.display", lang, name=f"CPU{n}", level=t(f"cpu.level.{level}", lang)),
        "bot": True,
        "level": level,
    }


def seat_named(row: TableRow, name: str | None) -> dict[str, Any] | None:
    return next((s for s in row.seats if s["name"] == name), None)


def mover(row: TableRow, state: Any = None) -> str | None:
    """The player the table message names as the one to move (the first of
    the movers), or ``None`` (lobby, finished game). ``state``: the row's
    state already loaded (else it is loaded from ``row.state``)."""
    if row.phase != "playing" or row.state is None:
        return None
    eng = registry.engine(row.game)
    if state is None:
        state = eng.from_json(row.state)
    if eng.is_finished(state):
        return None
    movers = eng.to_move(state)
    return str(movers[0]) if movers else None
