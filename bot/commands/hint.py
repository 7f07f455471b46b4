"""``/hint``: the coach — the strong player's move and its reason in numbers.

Asked on one's own turn, answered ephemerally in the asker's language, built
only from the asker's own view (``engine.view(state, name)``) and legal
moves, through ``games.<game>.ai.hint``. The asker's engine name is added to
the table's ``ui["hints"]`` (without a version bump, so the buttons already
drawn stay valid); the finished game's record then carries ``hints``
(:func:`bot.results.build.record`) and the result message names them.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import ai, caches
from bot.games import plugin
from bot.i18n import t
from games import registry

if TYPE_CHECKING:
    from bot.host import Host

log = logging.getLogger(__name__)

def hint_text(game: str, advice: dict[str, Any], lang: Any, view: dict[str, Any]) -> str:
    """The coach's answer in words, from the AI's ``hint`` result; every move
    named as its control names it (``view``: the asker's own view)."""
    n = advice.get("numbers") or {}
    the = plugin(game)
    lines = [hint_title(game, str(advice.get("move", "")), lang, view)]
    lines += the.hint_words(n, view, lang)
    return "\n".join(lines)


def hint_title(game: str, move: str, lang: Any, view: dict[str, Any]) -> str:
    move_text = plugin(game).move_text(move, view, lang) if move else ""
    return t("hint.title", lang, game=t(f"game.{game}", lang), move=move_text)


KEPT = 256  # hints kept in memory: (table, version, asker) -> advice


class Coach(commands.Cog):
    """``/hint``. A hint is a pure function of the asker's view, so each is
    computed once per position (the table's version) and asker: a second
    ``/hint`` on the same turn is answered from memory, two at once wait
    for the same job — one member cannot keep the live AI workers busy by
    asking again (docs/cpu.md "/hint")."""

    def __init__(self, bot: Host) -> None:
        self.bot = bot
        self.known: OrderedDict[tuple[int, int, str], dict[str, Any]] = OrderedDict()
        self.asking: dict[tuple[int, int, str], asyncio.Future[dict[str, Any]]] = {}
        self.computed = 0  # hints asked of the AI (not from memory)
        caches.budget("hints", KEPT, "entries", lambda: (len(self.known), 0))

    async def advice(
        self, key: tuple[int, int, str], game: str, view: dict[str, Any], legal: list[str]
    ) -> dict[str, Any]:
        """The hint of ``key``'s position: from memory, else the job already
        asked, else asked now. :class:`bot.ai.AIUnavailable` if the AI cannot
        answer (not kept: the next ask tries again)."""
        known = self.known.get(key)
        if known is not None:
            self.known.move_to_end(key)
            return known
        running = self.asking.get(key)
        if running is None:
            running = asyncio.ensure_future(ai.hint(game, view, key[2], legal))
            self.asking[key] = running
            self.computed += 1
            running.add_done_callback(lambda _done: self.asking.pop(key, None))
        advice = await asyncio.shield(running)
        self.known[key] = advice
        while len(self.known) > KEPT:
            self.known.popitem(last=False)
        return advice

    @app_commands.command(name="hint", description="The coach's move for your turn, with numbers")
    @app_commands.guild_only()
    async def hint(self, interaction: discord.Interaction[Any]) -> None:
        await ask(self.bot, interaction, self)


async def ask(
    bot: Host, interaction: discord.Interaction[Any], coach: Coach | None = None
) -> None:
    service = bot.tables
    assert interaction.channel_id is not None
    row = await service.store.tables.table_in_channel(interaction.channel_id)
    if row is None:
        await service.reply(interaction, "error.no_table_here")
        return
    seat = row.seat_of(interaction.user.id)
    if seat is None:
        await service.reply(interaction, "error.not_in_game")
        return
    spec = registry.spec(row.game)
    if row.phase != "playing" or row.state is None or spec.ai is None:
        await service.reply(interaction, "error.not_your_turn")
        return
    eng = spec.engine
    state = eng.from_json(row.state)
    name = seat["name"]
    legal = eng.legal_moves(state, name)
    if eng.is_finished(state) or name not in eng.to_move(state) or not legal:
        await service.reply(interaction, "error.not_your_turn")
        return
    view = eng.view(state, name)  # the asker's own view: nothing else
    if spec.hint_is_slow or not ai.is_ready(row.game, row.options):
        # a search (Sixty-Six: up to a second, more on a busy machine) or
        # tables still being built (the Yahtzee solver, the Six Dice race
        # table: seconds): answer "thinking…" within Discord's 3 s
        await interaction.response.defer(ephemeral=True, thinking=True)
    await ai.prepare(row.game, row.options)
    try:
        if coach is not None:
            advice = await coach.advice((row.id, row.version, name), row.game, view, legal)
        else:
            advice = await ai.hint(row.game, view, name, legal)
    except ai.AIUnavailable:  # logged: the turn clock's default move, without numbers
        move = spec.timeout_move(state, name, legal, [])[0]
        await service.say(interaction, hint_title(row.game, move, interaction.locale, view))
        return
    await mark(bot, row.id, name)
    await service.say(interaction, hint_text(row.game, advice, interaction.locale, view))


async def mark(bot: Host, table_id: int, name: str) -> None:
    """Remember that ``name`` used a hint at this table (``ui["hints"]``):
    that one key patched, under the table's lock, never the whole UI state
    (another process may be writing other keys of it)."""
    service = bot.tables
    async with service.lock(table_id):
        row = await service.store.tables.get_table(table_id)
        if row is None:
            return
        hints = list(row.ui.get("hints") or [])
        if name in hints:
            return
        await service.store.tables.patch_ui({table_id: {"hints": [*hints, name]}})
