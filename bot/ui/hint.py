"""``/hint``: the coach — the strong player's move and its reason in numbers.

Asked on one's own turn, answered ephemerally in the asker's language, built
only from the asker's own view (``engine.view(state, name)``) and legal
moves, through ``games.<game>.ai.hint``. The asker's engine name is added to
the table's ``ui["hints"]`` (without a version bump, so the buttons already
drawn stay valid); the finished game's record then carries ``hints``
(:func:`bot.tables.cpu_record`) and the result message names them.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import cpu
from bot.i18n import t
from games import registry

if TYPE_CHECKING:
    from bot.app import ChabudaiBot

log = logging.getLogger(__name__)

MAX_LINES = 8  # choices listed under a hint


def pct(value: Any) -> str:
    """``0.1234`` → ``12.3 %``; ``None`` → ``—``."""
    if value is None:
        return "—"
    return f"{100 * float(value):.1f} %"


def num(value: Any, digits: int = 1) -> str:
    if value is None:
        return "—"
    return f"{float(value):.{digits}f}"


def hint_text(game: str, advice: dict[str, Any], lang: Any) -> str:
    """The coach's answer in words, from the AI's ``hint`` result."""
    n = advice.get("numbers") or {}
    lines = [t("hint.title", lang, game=t(f"game.{game}", lang), move=advice.get("move", ""))]
    lines += _LINES[game](n, lang)
    return "\n".join(lines)


def _yahtzee(n: dict[str, Any], lang: str) -> list[str]:
    lines = [t("hint.yahtzee.expected", lang, expected=num(n.get("expected"), 2))]
    choices = n.get("choices") or []
    if choices:
        lines.append(t("hint.yahtzee.header", lang))
        for c in choices[:MAX_LINES]:
            lines.append(
                t("hint.yahtzee.choice", lang, move=c["move"], expected=num(c["expected"], 2))
            )
    return lines


def _sixdice(n: dict[str, Any], lang: str) -> list[str]:
    goal = n.get("goal")
    lines = [t("hint.sixdice.dobon", lang, dice=n.get("dice"), chance=pct(n.get("dobon_chance")))]
    show = num if goal == "points" else pct
    points = n.get("points") or {}
    if "stop_value" in n:
        lines.append(
            t(
                f"hint.sixdice.roll_stop_{goal}" if goal != "points" else "hint.sixdice.roll_stop",
                lang,
                roll=show(n.get("roll_value")),
                stop=show(n.get("stop_value")),
                need=n.get("need", ""),
                total=n.get("turn_total", 0),
            )
        )
        if points:
            lines.append(
                t(
                    "hint.sixdice.roll_stop",
                    lang,
                    roll=num(points.get("roll")),
                    stop=num(points.get("stop")),
                    total=n.get("turn_total", 0),
                )
            )
        return lines
    values = n.get("values") or {}
    if values:
        key = "hint.sixdice.header" if goal == "points" else f"hint.sixdice.header_{goal}"
        lines.append(t(key, lang, need=n.get("need", ""), total=n.get("turn_total", 0)))
        ranked = sorted(values.items(), key=lambda mv: -mv[1])
        for move, value in ranked[:MAX_LINES]:
            if move in points:
                lines.append(
                    t(
                        "hint.sixdice.choice_race",
                        lang,
                        move=move,
                        value=show(value),
                        points=num(points[move]),
                    )
                )
            else:
                lines.append(t("hint.choice", lang, move=move, value=show(value)))
    return lines


def _nine(n: dict[str, Any], lang: str) -> list[str]:
    lines = []
    if "chance_agari" in n:
        lines.append(
            t(
                "hint.nine.before",
                lang,
                chance=pct(n["chance_agari"]),
                left=num(n.get("expected_remaining"), 2),
            )
        )
    flips = n.get("flips") or {}
    for move, v in list(flips.items())[:MAX_LINES]:
        lines.append(
            t(
                "hint.nine.flip",
                lang,
                move=move,
                chance=pct(v.get("chance_agari")),
                left=num(v.get("expected_remaining"), 2),
            )
        )
    return lines


def _bluff(n: dict[str, Any], lang: str) -> list[str]:
    lines = []
    if n.get("dice"):
        from games.bluff.ai import chance_at_least

        reach = pct(chance_at_least(str(n["dice"])))
        lines.append(t("hint.bluff.dice", lang, dice=n["dice"], chance=reach))
    if n.get("announcement"):
        lines.append(
            t(
                "hint.bluff.true",
                lang,
                value=n["announcement"],
                chance=pct(n.get("chance_true")),
                prior=pct(n.get("chance_at_least")),
            )
        )
    else:
        lines.append(t("hint.bluff.first", lang))
    loss = n.get("loss") or {}
    if loss:
        lines.append(t("hint.bluff.header", lang))
        for move, value in sorted(loss.items(), key=lambda mv: mv[1])[:MAX_LINES]:
            lines.append(t("hint.choice", lang, move=move, value=pct(value)))
    return lines


def _sixtysix(n: dict[str, Any], lang: str) -> list[str]:
    lines = [t("hint.sixtysix.win", lang, chance=pct(n.get("win_chance")), points=n.get("points"))]
    moves = n.get("moves") or {}
    ranked = sorted(moves.items(), key=lambda mv: -mv[1]["game_points"])
    for move, v in ranked[:MAX_LINES]:
        lines.append(
            t(
                "hint.sixtysix.move",
                lang,
                move=move,
                points=f"{float(v['game_points']):+.2f}",
                chance=pct(v.get("win_chance")),
            )
        )
    return lines


_LINES = {
    "yahtzee": _yahtzee,
    "sixdice": _sixdice,
    "nine": _nine,
    "bluff": _bluff,
    "sixtysix": _sixtysix,
}


class Coach(commands.Cog):
    """``/hint``."""

    def __init__(self, bot: ChabudaiBot) -> None:
        self.bot = bot

    @app_commands.command(name="hint", description="The coach's move for your turn, with numbers")
    @app_commands.guild_only()
    async def hint(self, interaction: discord.Interaction[ChabudaiBot]) -> None:
        await ask(self.bot, interaction)


async def ask(bot: ChabudaiBot, interaction: discord.Interaction[Any]) -> None:
    service = bot.tables
    assert interaction.channel_id is not None
    row = await service.store.table_in_channel(interaction.channel_id)
    if row is None:
        await service.reply(interaction, "error.no_table_here")
        return
    seat = row.seat_of(interaction.user.id)
    if seat is None:
        await service.reply(interaction, "error.not_in_game")
        return
    if row.phase != "playing" or row.state is None or row.game not in _LINES:
        await service.reply(interaction, "error.not_your_turn")
        return
    eng: Any = registry.engine(row.game)
    state = eng.from_json(row.state)
    name = seat["name"]
    legal = eng.legal_moves(state, name)
    if eng.is_finished(state) or name not in eng.to_move(state) or not legal:
        await service.reply(interaction, "error.not_your_turn")
        return
    view = eng.view(state, name)  # the asker's own view: nothing else
    ready = cpu.start_warm_up(row.game, row.options)
    if row.game == "sixtysix" or (ready is not None and not ready.is_set()):
        # a search (Sixty-Six: up to a second, more on a busy machine) or
        # tables still being built (the Yahtzee solver, the Six Dice race
        # table: seconds): answer "thinking…" within Discord's 3 s
        await interaction.response.defer(ephemeral=True, thinking=True)
    await cpu.prepare(row.game, row.options)
    advice = await asyncio.to_thread(cpu.ai_module(row.game).hint, view, name, legal)
    await mark(bot, row.id, name)
    await service.say(interaction, hint_text(row.game, advice, interaction.locale))


async def mark(bot: ChabudaiBot, table_id: int, name: str) -> None:
    """Remember that ``name`` used a hint at this table (``ui["hints"]``)."""
    service = bot.tables
    async with service.lock(table_id):
        row = await service.store.get_table(table_id)
        if row is None:
            return
        hints = row.ui.setdefault("hints", [])
        if name in hints:
            return
        hints.append(name)
        if not await service.store.set_ui(row):
            log.warning("table %d: could not mark a hint", table_id)
