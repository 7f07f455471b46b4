"""Table admin: ``/game kick`` (the host or Manage Server) and ``/game list``
(Manage Server). The commands are declared with the ``/game`` group in
:mod:`bot.commands.tables`; what they do is here.

A kick goes through the table service like ``/game leave``: under the
table's lock, from the stored row, one :meth:`TableService.commit`. In a
lobby the seat is freed; in a game the seat forfeits as if its player had
left (the engine's ``forfeit``), or — when the host asks and the game has an
AI — a computer player takes the seat over under the same engine name and
plays on (the game is then unrated, as any game with a computer). Either
way a line on the table says who removed whom.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.events import CANCELLED
from bot.i18n import lang_of, linked, rule_error, t
from bot.model import humans, is_cpu, is_manager, mover, table_link
from bot.tables.rows import TableRow
from bot.tables.service import TableService
from games import registry
from games.core import RuleError

CPU_LEVEL = "normal"  # the level of a computer that takes a removed player's seat
LIST_LIMIT = 1900  # characters of /game list's answer (Discord allows 2000)


def cpu_in_seat(row: TableRow, seat: dict[str, Any], lang: str) -> dict[str, Any]:
    """A computer player for ``seat``: the same engine name (the record goes
    on), a negative id no person has, a label that says whose seat it took."""
    used = {-int(s["id"]) for s in row.seats if int(s["id"]) < 0}
    n = 1
    while n in used:
        n += 1
    return {
        "id": -n,
        "name": seat["name"],
        "display": t(
            "kick.cpu_display",
            lang,
            name=seat.get("display") or seat["name"],
            level=t(f"cpu.level.{CPU_LEVEL}", lang),
        ),
        "bot": True,
        "level": CPU_LEVEL,
        "took": str(seat.get("display") or seat["name"]),  # whose seat: the pictures say so
    }


async def kick(
    tables: TableService,
    interaction: discord.Interaction[Any],
    member: discord.abc.User,
    replace_with_cpu: bool,
) -> None:
    """``/game kick player [replace_with_cpu]``."""
    assert interaction.channel_id is not None
    found = await tables.store.tables.table_in_channel(interaction.channel_id)
    if found is None:
        await tables.reply(interaction, "error.no_table_here")
        return
    if interaction.user.id != found.host_id and not is_manager(interaction):
        await tables.reply(interaction, "error.kick_not_allowed")
        return
    if member.id == interaction.user.id:
        loc = interaction.locale
        leave = f"{t('cmd.game.name', loc)} {t('cmd.game.leave.name', loc)}"
        await tables.reply(interaction, "error.kick_self", command=leave)
        return
    async with tables.lock(found.id):
        loaded = await tables.load(found.id)
        if loaded is None:
            await tables.reply(interaction, "error.no_table_here")
            return
        before, row = loaded
        seat = row.seat_of(member.id)
        if seat is None or is_cpu(seat):
            await tables.reply(interaction, "error.kick_not_seated", player=member.mention)
            return
        lang = row.ui.get("lang", "en")
        who = str(seat.get("display") or seat["name"])
        by = interaction.user.display_name
        # the removed person by mention (an edit notifies nobody): their
        # engine name may now be the computer's that took their seat
        removed = f"<@{member.id}>"
        if row.phase == "lobby":
            row.seats.remove(seat)
            if not humans(row.seats):  # a manager removed the last person
                await interaction.response.defer(ephemeral=True)
                await tables.commit(
                    before, row, origin="command", kind=CANCELLED,
                    interaction=interaction, by=interaction.user.id,
                )  # fmt: skip
                await _done(tables, interaction, who, row)
                return
            if row.host_id == member.id:
                row.host_id = humans(row.seats)[0]["id"]
            await interaction.response.defer(ephemeral=True)
            if await tables.commit(before, row, origin="command", interaction=interaction):
                await _done(tables, interaction, who, row)
            return
        assert row.state is not None
        spec = registry.spec(row.game)
        state = spec.engine.from_json(row.state)
        if spec.engine.is_finished(state):
            await tables.reply(interaction, "error.no_table_here")
            return
        if replace_with_cpu:
            if spec.ai is None:
                await tables.reply(interaction, "error.kick_no_cpu", game=t(f"game.{row.game}", lang))
                return
            events: list[Any] = []
            row.seats[row.seats.index(seat)] = cpu_in_seat(row, seat, lang)
            note = {"kind": "kicked_cpu", "player": seat["name"], "data": {
                "player": removed, "by": by, "level": t(f"cpu.level.{CPU_LEVEL}", lang)}}  # fmt: skip
        else:
            try:
                events = spec.engine.forfeit(state, seat["name"])
            except RuleError as err:
                await tables.say(interaction, rule_error(err, interaction.locale))
                return
            seat["kicked"] = True  # a rematch does not invite them again
            note = {"kind": "kicked", "player": seat["name"], "data": {"player": removed, "by": by}}
        if row.host_id == member.id:  # the next seated person hosts (or managers alone)
            others = [s for s in humans(row.seats) if s["id"] != member.id]
            row.host_id = others[0]["id"] if others else 0
        row.ui.setdefault("log", []).append(note)
        await interaction.response.defer(ephemeral=True)
        committed = await tables.commit(
            before, row, origin="command", state=state, events=events,
            interaction=interaction, by=interaction.user.id,
        )  # fmt: skip
        if committed is not None:
            await _done(tables, interaction, who, row)


async def _done(
    tables: TableService, interaction: discord.Interaction[Any], who: str, row: TableRow
) -> None:
    await tables.reply(
        interaction, "kick.done", player=who, game=t(f"game.{row.game}", interaction.locale)
    )


def table_line(row: TableRow, lang: str) -> str:
    """One live table of /game list: game, players, whose turn, age, link."""
    game = t(f"game.{row.game}", lang)
    sep = t("list.sep", lang)  # 、 in Japanese
    players = sep.join(str(s.get("display") or s["name"]) for s in row.seats) or "—"
    since = f"<t:{int(row.created_at)}:R>"
    link = linked("link.table", lang, table_link(row), game=game)  # "[Nine table](…)"
    if row.phase == "lobby":
        return t("list.lobby", lang, game=game, players=players, since=since, link=link)
    turn = mover(row)
    named = {s["name"]: str(s.get("display") or s["name"]) for s in row.seats}
    return t(
        "list.playing",
        lang,
        game=game,
        players=players,
        turn=named.get(turn or "", turn or "—"),
        since=since,
        link=link,
    )


async def list_tables(tables: TableService, interaction: discord.Interaction[Any]) -> None:
    """``/game list``: the live tables of this server (Manage Server)."""
    if interaction.guild_id is None or not is_manager(interaction):
        await tables.reply(interaction, "error.list_not_allowed")
        return
    rows = await tables.store.tables.guild_tables(interaction.guild_id)
    lang = lang_of(interaction.locale)
    if not rows:
        await tables.reply(interaction, "list.none")
        return
    lines = [t("list.title", lang, count=len(rows))]
    for n, row in enumerate(rows):
        line = table_line(row, lang)
        more = t("list.more", lang, count=len(rows) - n)
        if sum(len(x) + 1 for x in lines) + len(line) + len(more) + 2 > LIST_LIMIT:
            lines.append(more)
            break
        lines.append(line)
    await tables.say(interaction, "\n".join(lines))
