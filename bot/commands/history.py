"""Finished games: ``/history``, the buttons under a result message
(``cr:<result>:…``) and the replay viewer.

- ``/history [user] [game]``: the last finished games of this server (in
  DMs: the asker's own, wherever they were played), each with its date,
  players by display name, places, seed and a link to its result message;
  two selects under the answer give a game's record file or open its replay.
- "Record file" answers with the game's record — the RULES game-record JSON
  that ``python -m games replay`` reads unchanged (the result is over, so
  the record's hidden information is no secret any more); its seed checks
  with ``python -m games verify``.
- "Replay" opens the step-through viewer (:mod:`bot.ui.replay`) as an
  ephemeral message; its buttons carry the result id and a step and edit it
  in place, so it works after a restart.
"""

from __future__ import annotations

import asyncio
import io
import json
import re
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.commands.choices import offer_games
from bot.games import plugin
from bot.i18n import has, lang_of, t
from bot.model import message_link
from bot.ui import replay
from bot.ui.components import ResultSelect
from bot.ui.present import SHORT_HASH
from bot.ui.result_words import points_text
from games import registry
from games.core import seed_hash

if TYPE_CHECKING:
    from bot.host import Host

SHOWN = 10  # games per /history answer
CPU_NAME = re.compile(r"CPU\d+")  # a computer's own engine name (not a seat it took)
LIMIT = 1900  # characters of entries in one answer (Discord: 2000 in all)


def record_file(result: dict[str, Any]) -> discord.File:
    """The stored record as a downloadable ``.json`` file."""
    data = json.dumps(result["record"], ensure_ascii=False, indent=1).encode()
    name = f"chabudai-{result['game']}-{result['id']}.json"
    return discord.File(io.BytesIO(data), name)


def players_text(entry: dict[str, Any], loc: Any) -> str:
    """Every place of a stored game, best first, by display name — a
    computer's too (its label says it is one: "CPU1 (easy)") — each with its
    points in the game's unit ("+16 chips", "2 lives lost")."""
    display = replay.names_of(entry)
    game = entry["game"]
    places: list[tuple[int, str, int | None]] = [
        (int(p["rank"]), display.get(p["name"], p["name"]), int(p["points"]))
        for p in entry["players"]
    ]
    people = {p["name"] for p in entry["players"]}
    computers = [s for s in entry.get("seats") or [] if s["name"] not in people]
    fallback = _ranks_from_outcome(entry) if any("rank" not in s for s in computers) else {}
    for seat in computers:
        label = cpu_label(seat, loc)
        if "rank" in seat:
            places.append((int(seat["rank"]), label, int(seat.get("points") or 0)))
        else:  # stored before seats kept their places: the rank, no points
            places.append((fallback.get(seat["name"], len(places) + 1), label, None))
    places.sort(key=lambda place: place[0])
    parts = [
        t("history.place", loc, rank=rank, player=player, points=points_text(points, game, loc))
        if points is not None
        else t("history.place_plain", loc, rank=rank, player=player)
        for rank, player, points in places
    ]
    return t("list.sep", loc).join(parts)


def cpu_label(seat: dict[str, Any], loc: Any) -> str:
    """A computer's seat in the reader's language: "CPU1 (easy)", or
    "CPU (normal) in carol's seat" for one that took a removed person's
    seat (its stored label is in the table's language)."""
    level = seat.get("level")
    if not level or not has(f"cpu.level.{level}", loc):
        return str(seat.get("display") or seat["name"])
    strength = t(f"cpu.level.{level}", loc)
    if CPU_NAME.fullmatch(str(seat["name"])):
        return t("cpu.display", loc, name=seat["name"], level=strength)
    took = seat.get("took") or seat["name"]
    return t("kick.cpu_display", loc, name=took, level=strength)


def _ranks_from_outcome(entry: dict[str, Any]) -> dict[str, int]:
    """Places of a result stored before its seats kept them: the order of
    the game's result rows."""
    seats = entry.get("seats") or []
    try:
        rows = plugin(entry["game"]).result_rows(
            {"game": entry["game"], "players": [s["name"] for s in seats]}, entry["outcome"]
        )
    except Exception:  # an outcome this version cannot read: in seat order
        return {}
    return {name: i for i, (name, _main, _settled) in enumerate(rows, 1)}


def entry_line(entry: dict[str, Any], loc: Any) -> str:
    if entry.get("message_id"):
        url = message_link(entry["guild_id"], entry["channel_id"], entry["message_id"])
        link = t("history.link", loc, url=url)
    else:
        link = t("history.no_link", loc)
    return t(
        "history.line",
        loc,
        id=entry["id"],
        game=t(f"game.{entry['game']}", loc),
        date=f"<t:{int(entry['finished_at'])}:d>",
        players=players_text(entry, loc),
        # the fair-dice line's short hash, as the table showed it: the seed
        # itself is under the result's 🔑 Seed and in the record file
        hash=seed_hash(entry["seed"])[:SHORT_HASH] if entry.get("seed") else "—",
        link=link,
    )


class History(commands.Cog):
    """What is kept of finished games."""

    def __init__(self, bot: Host) -> None:
        self.bot = bot
        offer_games(self)
        bot.result_actions["record"] = self.send_record
        bot.result_actions[replay.ACTION] = self.open_replay

    @app_commands.command(
        name="history", description="The last finished games, their records and replays"
    )
    @app_commands.describe(user="Only games this player played", game="Only this game")
    async def history(
        self,
        interaction: discord.Interaction[Any],
        user: discord.User | None = None,
        game: str | None = None,
    ) -> None:
        loc = interaction.locale
        store = self.bot.tables.store
        if game is not None and game not in registry.names():
            await self.bot.tables.reply(interaction, "error.no_game")
            return
        if interaction.guild_id is None:  # a DM: your own games, wherever played
            if user is not None and user.id != interaction.user.id:
                await self.bot.tables.reply(interaction, "error.history_dm")
                return
            rows = await store.results.history(
                guild_id=None, user_id=interaction.user.id, game=game, limit=SHOWN
            )
        else:
            rows = await store.results.history(
                guild_id=interaction.guild_id,
                user_id=user.id if user is not None else None,
                game=game,
                limit=SHOWN,
            )
        if not rows:
            await self.bot.tables.reply(interaction, "history.empty")
            return
        entries = [entry_line(r, loc) for r in rows]
        while len(entries) > 1 and sum(len(e) + 1 for e in entries) > LIMIT:
            entries.pop()  # Discord's 2000 characters: the oldest go
        rows = rows[: len(entries)]
        lines = [t("history.title", loc, n=len(rows), count=len(rows)), *entries]
        view = discord.ui.View(timeout=None)
        for row, action, key in (
            (0, "record", "history.pick_record"),
            (1, "replay", "history.pick_replay"),
        ):
            options = [
                discord.SelectOption(
                    label=t("history.option", loc, id=r["id"], game=t(f"game.{r['game']}", loc))[
                        :100
                    ],
                    value=str(r["id"]),
                )
                for r in rows
            ]
            view.add_item(ResultSelect.build(0, action, t(key, loc), options, row=row))
        await interaction.response.send_message(
            "\n".join(lines)[:2000],  # one entry longer than that: cut
            view=view,
            ephemeral=True,
            allowed_mentions=discord.AllowedMentions.none(),
        )

    async def send_record(
        self, interaction: discord.Interaction[Any], result_id: int, arg: str
    ) -> None:
        result = await self.bot.tables.store.results.get_result(result_id)
        if result is None:
            await self.bot.tables.reply(interaction, "error.no_result")
            return
        await interaction.response.send_message(
            t(
                "result.record_file",
                interaction.locale,
                game=t(f"game.{result['game']}", interaction.locale),
            ),
            file=record_file(result),
            ephemeral=True,
        )

    async def open_replay(
        self, interaction: discord.Interaction[Any], result_id: int, arg: str
    ) -> None:
        """``arg`` empty: open the viewer at the deal (a new ephemeral
        message); else ``<step>[:<slot>]``: show that step in place."""
        step_text = arg.split(":", 1)[0]
        if arg and not step_text.isdigit():
            await self.bot.tables.reply(interaction, "error.replay_step")
            return
        result = await self.bot.tables.store.results.get_result(result_id)
        if result is None:
            await self.bot.tables.reply(interaction, "error.no_result")
            return
        lang = lang_of(interaction.locale)
        msg = await asyncio.to_thread(replay.message, result, int(step_text or 0), lang)
        if not arg:
            files = msg.pop("attachments")
            await interaction.response.send_message(**msg, files=files, ephemeral=True)
        else:
            await interaction.response.edit_message(**msg)
