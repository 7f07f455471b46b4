"""The post-game review (issue 17, docs/review.md): the "Review" button under
every finished game's result (``cr:<result>:review``) and ``/review [result]``.

The press is answered at once ("thinking…", ephemeral) and the review comes
as the follow-up: computed by :func:`games.review.review_json` where the
game's AI runs (:func:`bot.ai.job`: a worker process, or a thread with
``CHABUDAI_AI_WORKERS=0``), never on the event loop. The game is over, so
everyone's play is shown (the presser first); computer seats are not
reviewed. Each human gets their accuracy, decisions, what they lost, dice
luck and the three biggest mistakes (the presser's with a picture of the
position, from :mod:`bot.pictures`, with its alt text).

Reviews are kept per result id in memory (:data:`CACHE` entries) and in the
database (``reviews``, with the review's version), so a second press is
instant, after a restart too (the button carries only the result id); a new
review version (:data:`games.review.VERSION`) computes them again.
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections import OrderedDict
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import ai
from bot.games import plugin
from bot.i18n import lang_of, t
from bot.pictures import Picture, display_names, hand_picture, table_picture
from games import registry
from games.review import VERSION, PlayerReview, Review, has_review, positions, review_json

if TYPE_CHECKING:
    from bot.app import ChabudaiBot

log = logging.getLogger(__name__)

CACHE = 256  # reviews kept in memory (least recently used out first)
PICTURES = 3  # mistake pictures: the presser's three (Discord allows 10 files)


def _fmt(unit: str, value: float, lang: Any, kind: str = "unit") -> str:
    """A worth (``kind="unit"``: "18.3 points", "42.1 % to lose") or a loss
    (``kind="loss"``) in the game's unit."""
    if unit in ("lose_chance", "win_chance"):
        return t(f"review.{kind}.{unit}", lang, value=f"{100 * value:.1f}")
    digits = 2 if unit == "game_points" else 1
    return t(f"review.{kind}.{unit}", lang, value=f"{value:.{digits}f}")


def _luck_line(p: PlayerReview, name: str, lang: Any) -> str | None:
    if p.luck is None:
        return None
    if p.luck >= 0.5:
        share = max(1, round(100 * (1 - p.luck)))
        return t("review.luck.lucky", lang, player=name, percent=share, count=p.rolls)
    share = max(1, round(100 * p.luck))
    return t("review.luck.unlucky", lang, player=name, percent=share, count=p.rolls)


def review_text(
    rv: Review, record: dict[str, Any], names: dict[str, str], order: list[str], lang: Any
) -> str:
    """The review in words: the measure, then each player's figures and mistakes."""
    game = rv.game
    the = plugin(game)
    eng = registry.engine(game)
    rec = registry.read_record(record)
    lines = [t("review.title", lang, game=t(f"game.{game}", lang))]
    lines.append(t(f"review.worth.{game}", lang))
    for engine_name in order:
        p = rv.of(engine_name)
        name = names.get(engine_name, engine_name)
        lines.append("")
        if p.accuracy is None:
            lines.append(t("review.no_decisions", lang, player=name))
        else:
            lines.append(
                t(
                    "review.player",
                    lang,
                    player=name,
                    accuracy=f"{p.accuracy:.1f}",
                    count=p.decisions,
                    lost=_fmt(rv.unit, p.lost, lang, "loss"),
                )
            )
        for n, d in enumerate(p.mistakes, start=1):
            view = eng.view(positions(rec, d.index), d.player)
            lines.append(
                t(
                    "review.mistake",
                    lang,
                    n=n,
                    made=the.move_text(d.made, view, lang),
                    made_worth=_fmt(rv.unit, d.made_worth, lang),
                    best=the.move_text(d.best, view, lang),
                    best_worth=_fmt(rv.unit, d.best_worth, lang),
                )
            )
        if p.accuracy is not None and not p.mistakes:
            lines.append(t("review.flawless", lang))
        luck = _luck_line(p, name, lang)
        if luck:
            lines.append(luck)
    lines.append("")
    lines.append(t("review.formula", lang))
    return "\n".join(lines)


def mistake_pictures(
    rv: Review, record: dict[str, Any], player: str, names: dict[str, str], lang: str
) -> list[Picture]:
    """The positions of ``player``'s biggest mistakes, as they saw them."""
    if player not in {p.player for p in rv.players}:
        return []
    rec = registry.read_record(record)
    eng = registry.engine(rv.game)
    out: list[Picture] = []
    for n, d in enumerate(rv.of(player).mistakes[:PICTURES], start=1):
        view = eng.view(positions(rec, d.index), d.player)
        got_all = [table_picture(view, lang=lang, names=names)]
        if registry.spec(rv.game).secrets:  # their cards or dice, as they saw them
            got_all.append(hand_picture(view, lang=lang, names=names))
        for got in got_all:
            if got is not None:
                alt = t("review.picture", lang, n=n, alt=got.alt)
                out.append(Picture(got.png, alt, f"mistake{n}-{got.filename}"))
    return out[:10]


def _files(pictures: list[Picture]) -> list[discord.File]:
    return [discord.File(io.BytesIO(p.png), p.filename, description=p.alt[:1024]) for p in pictures]


def chunks(text: str, limit: int = 2000) -> list[str]:
    """``text`` cut at line ends into messages of at most ``limit`` characters."""
    out: list[str] = []
    current = ""
    for line in text.split("\n"):
        line = line[:limit]
        if current and len(current) + 1 + len(line) > limit:
            out.append(current)
            current = line
        else:
            current = f"{current}\n{line}" if current else line
    if current:
        out.append(current)
    return out


class Reviews(commands.Cog):
    """The Review button and ``/review``."""

    def __init__(self, bot: ChabudaiBot) -> None:
        self.bot = bot
        self.cache: OrderedDict[int, Review] = OrderedDict()
        self.computed = 0  # reviews computed (not served from the cache)
        self.pending: dict[int, asyncio.Future[Any]] = {}  # reviews being computed
        bot.result_actions["review"] = self.on_button

    async def on_button(
        self, interaction: discord.Interaction[ChabudaiBot], result_id: int, arg: str
    ) -> None:
        await self.answer(interaction, result_id)

    @app_commands.command(name="review", description="How well everyone played a finished game")
    @app_commands.describe(result="The game's result number (default: your last game here)")
    async def review(
        self, interaction: discord.Interaction[ChabudaiBot], result: int | None = None
    ) -> None:
        if result is None:
            found = await self.bot.tables.store.history(
                guild_id=interaction.guild_id, user_id=interaction.user.id, limit=1
            )
            if not found:
                await self.bot.tables.reply(interaction, "error.no_review_game")
                return
            result = int(found[0]["id"])
        await self.answer(interaction, result)

    async def answer(self, interaction: discord.Interaction[Any], result_id: int) -> None:
        """ "Thinking…" at once, then the review as the follow-up."""
        store = self.bot.tables.store
        lang = interaction.locale
        stored = await store.get_result(result_id)
        if stored is None or (
            interaction.guild_id is not None
            and stored["guild_id"] is not None
            and stored["guild_id"] != interaction.guild_id
        ):
            await self.bot.tables.reply(interaction, "error.no_result")
            return
        if not has_review(stored["game"]):
            await self.bot.tables.reply(interaction, "error.no_review")
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        seats = stored.get("seats") or []
        names = display_names(seats) if seats else {}
        bots = {str(s["name"]) for s in seats if s.get("bot")}
        humans = [p for p in stored["record"]["players"] if p not in bots]
        try:
            rv = await self.reviewed(result_id, stored["game"], stored["record"], humans)
        except ai.AIUnavailable:
            await interaction.followup.send(t("error.review_failed", lang), ephemeral=True)
            return
        me = next(
            (
                str(s["name"])
                for s in seats
                if s.get("id") == interaction.user.id and not s.get("bot")
            ),
            None,
        )
        order = [p.player for p in rv.players]
        if me in order:
            order.remove(me)
            order.insert(0, me)
        text, pictures = await asyncio.to_thread(
            self._render, rv, stored["record"], names, order, lang_of(lang)
        )
        first, *rest = chunks(text)
        await interaction.followup.send(first, files=_files(pictures), ephemeral=True)
        for more in rest:
            await interaction.followup.send(more, ephemeral=True)

    async def reviewed(
        self, result_id: int, game: str, record: dict[str, Any], humans: list[str]
    ) -> Review:
        """The review of a result: from the memory cache, else the database,
        else computed once (two presses at the same time wait for the same
        job) and stored."""
        rv = self.cache.get(result_id)
        if rv is not None:
            self.cache.move_to_end(result_id)
            return rv
        running = self.pending.get(result_id)
        if running is None:
            running = asyncio.ensure_future(self._load(result_id, game, record, humans))
            self.pending[result_id] = running
            running.add_done_callback(lambda _done: self.pending.pop(result_id, None))
        doc = await asyncio.shield(running)
        rv = Review.from_json(doc)
        self.cache[result_id] = rv
        while len(self.cache) > CACHE:
            self.cache.popitem(last=False)
        return rv

    async def _load(
        self, result_id: int, game: str, record: dict[str, Any], humans: list[str]
    ) -> dict[str, Any]:
        """A result's review from the database, else computed and stored."""
        store = self.bot.tables.store
        doc = await store.get_review(result_id, VERSION)
        if doc is None:
            doc = await ai.job(game, review_json, (record, humans), "a review")
            self.computed += 1
            await store.save_review(result_id, VERSION, doc, now=self.bot.tables.clock())
        return doc

    @staticmethod
    def _render(
        rv: Review, record: dict[str, Any], names: dict[str, str], order: list[str], lang: str
    ) -> tuple[str, list[Picture]]:
        text = review_text(rv, record, names, order, lang)
        pictures = mistake_pictures(rv, record, order[0], names, lang) if order else []
        return text, pictures
