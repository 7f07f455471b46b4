"""The post-game review (issue 17, docs/review.md): the "Review" button under
every finished game's result (``cr:<result>:review``) and ``/review [result]``.

The press is answered at once ("thinking…", ephemeral) and the review comes
as the follow-up: computed by :func:`games.review.review_json` where the
game's AI runs (:func:`bot.ai.job`: a worker process, or a thread with
``CHABUDAI_AI_WORKERS=0``), never on the event loop. The game is over, so
everyone's play is shown (the presser first); computer seats are not
reviewed.

What a player reads (issues 22 and 31, docs/review.md "Bands and classes"):
their accuracy as a percentage with the word of its band (one set of bands
for every game; with fewer than 5 decisions no percentage: "too few
decisions to grade"), how many inaccuracies, mistakes and blunders they
made and what their play lost in the game's own unit (an unsigned loss; a
chance is never summed: the average a decision), their three biggest
mistakes with class, the moment as the table names it ("Round 11, your
2nd roll") and the loss, their dice luck; one line at the end says what
100 % means and where each class starts. Each player is named as the table
names their seat ("carol (CPU)", "Bob (left)"). The presser's mistakes come
as pictures, each labelled with the mistake it shows
(:func:`bot.render.caption.captioned`, and in its alt text).

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

from bot import ai, caches
from bot.games import plugin
from bot.i18n import has, lang_of, t
from bot.pictures import Picture, named, shown_view
from bot.render import _base as b
from bot.render.caption import captioned
from bot.ui.present import seat_picture_names
from games import registry
from games.core import Record
from games.review import (
    CLASSES,
    VERSION,
    Decision,
    GameReviewer,
    PlayerReview,
    Review,
    grades,
    has_review,
    positions,
    review_json,
    reviewer_of,
)

if TYPE_CHECKING:
    from bot.host import Host

log = logging.getLogger(__name__)

CACHE = 256  # reviews kept in memory (least recently used out first)
MEMBER_REVIEWS = 2  # reviews one member may wait for at a time (queued or being computed)
SERVER_REVIEWS = 10  # reviews of one server's games waiting at a time (docs/review.md "Limits")
PICTURES = 3  # mistake pictures: the presser's three (Discord allows 10 files)


MINUS = "\u2212"  # a real minus sign in front of people
CHANCES = ("lose_chance", "win_chance")  # measures that are chances: never summed


def kind_of(rv: Review) -> str:
    """The catalogue suffix of a review's measure: ``<game>.<unit>``
    (Six Dice has two: the win chance with two players, points with more)."""
    return f"{rv.game}.{rv.unit}"


def _number(unit: str, value: float) -> str:
    """A figure of ``unit`` without its sign: a chance in percent (one
    decimal), game points with two decimals, else one."""
    if unit in CHANCES:
        return f"{100 * value:.1f}"
    if unit == "game_points":
        return f"{value:.2f}"
    return f"{value:.1f}"


def _signed(unit: str, value: float) -> str:
    """A worth that may be negative (Sixty-Six's game points), with + or −."""
    text = _number(unit, abs(value))
    if unit != "game_points" or float(text) == 0:
        return text if value >= 0 or float(text) == 0 else MINUS + text
    return ("+" if value > 0 else MINUS) + text


def worth_text(rv: Review, value: float, lang: Any) -> str:
    """A move's worth in the game's unit ("expected 152.4", "19.7 % to win")."""
    return t(f"review.value.{kind_of(rv)}", lang, value=_signed(rv.unit, value))


def loss_text(rv: Review, lost: float, lang: Any) -> str:
    """What a move lost, unsigned, in the game's unit, one phrasing in both
    languages ("lost 17.2 points of expected score", "12.0 % less chance to
    win"): the same words in the mistake lines, the pictures and the totals."""
    return t(f"review.loss.{kind_of(rv)}", lang, value=_number(rv.unit, lost))


def cost_text(rv: Review, p: PlayerReview, lang: Any) -> str:
    """A player's loss in total: the sum where losses add up to a figure of
    the game (expected points, sum left, game points), the average a
    decision for a chance (docs/review.md: a chance summed over decisions
    is no chance)."""
    if rv.unit in CHANCES:
        return t("review.total.average", lang, loss=loss_text(rv, p.lost / p.decisions, lang))
    return t("review.total.sum", lang, loss=loss_text(rv, p.lost, lang))


def percent(accuracy: float) -> int:
    """The accuracy as a whole percentage: 100 only for no loss at all, 99
    at most otherwise (99.7 is not perfect play)."""
    shown = round(accuracy)
    return min(shown, 99) if accuracy < 100.0 else 100


def classes_text(counts: dict[str, int], lang: Any) -> str:
    """ "1 blunder, 2 mistakes" (the worst first); "no inaccuracy, mistake or
    blunder" when there is none."""
    parts = [
        t(f"review.count.{kind}", lang, count=counts[kind])
        for kind in reversed(CLASSES)
        if counts.get(kind)
    ]
    if not parts:
        return t("review.count.none", lang)
    return t("list.sep", lang).join(parts)


def _luck_line(p: PlayerReview, name: str, lang: Any) -> str | None:
    if p.luck is None:
        return None
    if p.luck >= 0.5:
        share = max(1, round(100 * (1 - p.luck)))
        return t("review.luck.lucky", lang, player=name, percent=share, count=p.rolls)
    share = max(1, round(100 * p.luck))
    return t("review.luck.unlucky", lang, player=name, percent=share, count=p.rolls)


def shown_mistakes(rv: Review, p: PlayerReview) -> list[Decision]:
    """The mistakes a player is shown: their biggest losses (three at most)
    that reach an inaccuracy; smaller ones count in the accuracy only."""
    g = grades(rv.game, rv.unit)
    return [d for d in p.mistakes if g.kind(d.lost) is not None]


def when_text(
    rec: Record, d: Decision, view: dict[str, Any], lang: Any, the: GameReviewer | None = None
) -> str:
    """The moment of a decision as the table and the replay name it ("Round
    11, 2nd roll", "Deal 2, trick 5"), not the record's move counter."""
    the = the or reviewer_of(rec)
    kind, fields = the.moment(view, d.player, rec.moves[: d.index])
    return t(f"review.at.{rec.game}.{kind}", lang, **fields)


def mistake_line(rv: Review, rec: Record, d: Decision, n: int, lang: Any, eng: Any = None) -> str:
    """ "1. **Blunder**, Round 11, 2nd roll — lost 17.2 points of
    expected score: Small straight → expected 135.2; best: Yahtzee →
    expected 152.4"."""
    the = plugin(rv.game)
    eng = eng or registry.engine(rv.game)
    view = eng.view(positions(rec, d.index), d.player)
    kind = grades(rv.game, rv.unit).kind(d.lost) or CLASSES[0]
    return t(
        "review.mistake",
        lang,
        n=n,
        when=when_text(rec, d, view, lang),
        kind=t(f"review.class.{kind}", lang),
        loss=loss_text(rv, d.lost, lang),
        made=the.move_text(d.made, view, lang),
        made_worth=worth_text(rv, d.made_worth, lang),
        best=the.move_text(d.best, view, lang),
        best_worth=worth_text(rv, d.best_worth, lang),
    )


def footer(rv: Review, lang: Any) -> str:
    """What 100 % means and where each class starts: the game's unit once
    ("By what a move loses in points of expected score, …"), then the
    three thresholds (a chance's with its %). No formula: docs/review.md
    has it. (The Japanese once put the unit on the last number alone,
    「最終得点の期待値12点以上なら大悪手」: a blunder by the expected score.)"""
    inaccuracy, mistake, blunder = (
        _threshold(rv.unit, v) for v in grades(rv.game, rv.unit).classes
    )
    return t(
        "review.footer",
        lang,
        unit=t(f"review.size.{kind_of(rv)}", lang),
        inaccuracy=inaccuracy,
        mistake=mistake,
        blunder=blunder,
    )


def _threshold(unit: str, value: float) -> str:
    if unit in CHANCES:
        return f"{100 * value:g}%"
    return f"{value:g}"


def review_text(
    rv: Review, record: dict[str, Any], names: dict[str, str], order: list[str], lang: Any
) -> str:
    """The review in words: the measure, then each player's accuracy and
    its band (none below :data:`games.review.MIN_DECISIONS` decisions),
    the classes of their mistakes and what they lost, the mistakes
    themselves, their luck; what the figures mean at the end."""
    game = rv.game
    eng = registry.engine(game)
    rec = registry.read_record(record)
    g = grades(game, rv.unit)
    lines = [t("review.title", lang, game=t(f"game.{game}", lang))]
    lines.append(t(f"review.worth.{game}", lang))
    if has(f"review.note.{game}"):  # Nine: too few choices to tell players apart
        lines.append(t(f"review.note.{game}", lang))
    for engine_name in order:
        p = rv.of(engine_name)
        name = names.get(engine_name, engine_name)
        lines.append("")
        if not p.decisions:
            lines.append(t("review.no_decisions", lang, player=name))
            if has(f"review.no_decisions_why.{game}"):  # Six Dice: they moved, yet…
                lines.append(t(f"review.no_decisions_why.{game}", lang))
            continue
        losses = p.losses or tuple(d.lost for d in p.mistakes)
        accuracy = g.accuracy(losses)  # read now: the bands may be newer than the review
        if accuracy is None:
            lines.append(t("review.player_few", lang, player=name, count=p.decisions))
        else:
            lines.append(
                t(
                    "review.player",
                    lang,
                    player=name,
                    accuracy=percent(accuracy),
                    band=t(f"review.band.{g.band(accuracy)}", lang),
                    count=p.decisions,
                )
            )
        counts = g.counts(losses)
        if p.lost > 0:
            lines.append(
                t(
                    "review.summary",
                    lang,
                    classes=classes_text(counts, lang),
                    cost=cost_text(rv, p, lang),
                )
            )
        shown = shown_mistakes(rv, p)
        for n, d in enumerate(shown, start=1):
            lines.append(mistake_line(rv, rec, d, n, lang, eng))
        if not p.mistakes:
            lines.append(t("review.flawless", lang))
        elif not shown:
            lines.append(t("review.slips", lang))
        luck = _luck_line(p, name, lang)
        if luck:
            lines.append(luck)
    lines.append("")
    lines.append(footer(rv, lang))
    return "\n".join(lines)


def mistake_caption(
    rv: Review, rec: Record, d: Decision, n: int, lang: str, view: dict[str, Any]
) -> tuple[str, list[str], str, str]:
    """A mistake picture's label: its title ("1. Round 11, 2nd roll"),
    its lines ("You: … · Best: …", what it lost), its class and its alt
    text's opening."""
    the = plugin(rv.game)
    kind = grades(rv.game, rv.unit).kind(d.lost) or CLASSES[0]
    when = when_text(rec, d, view, lang)
    title = t("review.caption.title", lang, n=n, when=when)
    moves = t(
        "review.caption.moves",
        lang,
        made=the.move_text(d.made, view, lang),
        best=the.move_text(d.best, view, lang),
    )
    cost = t(
        "review.caption.cost",
        lang,
        loss=loss_text(rv, d.lost, lang),
        made_worth=worth_text(rv, d.made_worth, lang),
        best_worth=worth_text(rv, d.best_worth, lang),
    )
    label = t(
        "review.picture",
        lang,
        n=n,
        kind=t(f"review.class.{kind}", lang),
        when=when,
        moves=moves,
        cost=cost,
    )
    # a line of its own in the picture starts with a capital ("Lost 31.8 …")
    return title, [drawn(moves, lang), cost[:1].upper() + cost[1:]], kind, label


def drawn(text: str, lang: str) -> str:
    """Words drawn in a picture: the Japanese font draws — as ー, so a move
    named "スリーカード — 16" read 「スリーカードー16」 (and 「5 ー 50点」);
    in a Japanese picture its name and figure are parted by ： instead."""
    return text.replace(" — ", "：") if lang == "ja" else text


def mistake_pictures(
    rv: Review, record: dict[str, Any], player: str, names: dict[str, str], lang: str
) -> list[Picture]:
    """The positions of ``player``'s biggest mistakes, as they saw them: one
    picture each (the table, and with a game's secrets their own hand or
    dice under it), labelled with the mistake it shows (a caption band and
    the alt text)."""
    if player not in {p.player for p in rv.players}:
        return []
    rec = registry.read_record(record)
    eng = registry.engine(rv.game)
    the = plugin(rv.game)
    secrets = registry.spec(rv.game).secrets
    out: list[Picture] = []
    for n, d in enumerate(shown_mistakes(rv, rv.of(player))[:PICTURES], start=1):
        view = eng.view(positions(rec, d.index), d.player)
        drawn = [the.table_image(shown_view(view, names=names), lang)]
        if secrets:  # their cards or dice, as they saw them
            drawn.append(the.hand_image(named(view, names), lang))
        got = [x for x in drawn if x is not None]
        if not got:
            continue
        title, lines, kind, label = mistake_caption(rv, rec, d, n, lang, view)
        img = captioned(
            [im for im, _ in got], title, lines, tag=t(f"review.class.{kind}", lang), tone=kind
        )
        alt = ("" if lang == "ja" else " ").join([label, *(a for _, a in got)])
        out.append(Picture(b.encode(img), alt[:1024], f"mistake{n}-{rv.game}.png"))
    return out[:10]


def seat_names(
    seats: list[dict[str, Any]], rec: Record, lang: str
) -> tuple[dict[str, str], dict[str, str]]:
    """How the review names each seat: as the table does. The pictures draw
    the table picture's names (:func:`bot.ui.present.seat_picture_names`:
    "carol (CPU)" for a computer in a removed person's seat); the words add
    how a person left ("Bob (left)", "dave (removed)") — a forfeit in the
    record, or Six Dice's ``forfeited`` (no record move) at the end."""
    pictured = seat_picture_names(seats, lang) if seats else {}
    gone = {m.partition(" ")[0] for m in rec.moves if m.endswith(" forfeit")}
    end = registry.engine(rec.game).view(positions(rec, len(rec.moves)), None)
    gone |= {str(p) for p in end.get("forfeited") or []}
    words = dict(pictured)
    for seat in seats:
        name = str(seat["name"])
        if name in gone and not seat.get("bot"):
            key = "table.seat_removed" if seat.get("kicked") else "table.seat_left"
            words[name] = t(key, lang, player=pictured.get(name, name))
    return words, pictured


def _files(pictures: list[Picture]) -> list[discord.File]:
    return [discord.File(io.BytesIO(p.png), p.filename, description=p.alt[:1024]) for p in pictures]


def ordinal(n: int, lang: Any) -> str:
    """ "3rd" ("3番目"): a place in line, in the reader's language."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return t(f"review.nth.{suffix}", lang, n=n)


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

    def __init__(self, bot: Host) -> None:
        self.bot = bot
        self.cache: OrderedDict[int, Review] = OrderedDict()
        self.computed = 0  # reviews computed (not served from the cache)
        self.pending: dict[int, asyncio.Future[Any]] = {}  # reviews being computed
        self.queued: dict[int, ai.Queued] = {}  # their jobs (where each stands in line)
        self.waiting: dict[int, set[int]] = {}  # result id -> the members waiting for it
        self.asked_in: dict[int, int | None] = {}  # result id -> the server it was asked in
        # (result id, member): the waits written in the database (review_waits)
        self.counted: set[tuple[int, int]] = set()
        caches.budget("reviews", CACHE, "entries", lambda: (len(self.cache), 0))
        bot.result_actions["review"] = self.on_button

    async def on_button(
        self, interaction: discord.Interaction[Any], result_id: int, arg: str
    ) -> None:
        await self.answer(interaction, result_id)

    @app_commands.command(name="review", description="How well everyone played a finished game")
    @app_commands.describe(result="The game's result number (default: your last game here)")
    async def review(
        self, interaction: discord.Interaction[Any], result: int | None = None
    ) -> None:
        if result is None:
            found = await self.bot.tables.store.results.history(
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
        stored = await store.results.get_result(result_id)
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
        if not await self.admit(interaction, result_id):
            return
        user = interaction.user.id
        self.waiting.setdefault(result_id, set()).add(user)
        self.asked_in.setdefault(result_id, interaction.guild_id)
        try:
            await interaction.response.defer(ephemeral=True, thinking=True)
            seats = stored.get("seats") or []
            bots = {str(s["name"]) for s in seats if s.get("bot")}
            humans = [p for p in stored["record"]["players"] if p not in bots]
            try:
                rv = await self.reviewed(result_id, stored["game"], stored["record"], humans)
            except ai.AIUnavailable:
                await interaction.followup.send(t("error.review_failed", lang), ephemeral=True)
                return
        finally:
            waiting = self.waiting.get(result_id, set())
            waiting.discard(user)
            if not waiting:
                self.waiting.pop(result_id, None)
                self.asked_in.pop(result_id, None)
            if (result_id, user) in self.counted:
                self.counted.discard((result_id, user))
                await store.reviews.done_waiting(result_id, user)
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
            self._render, rv, stored["record"], seats, order, lang_of(lang), me
        )
        first, *rest = chunks(text)
        await interaction.followup.send(first, files=_files(pictures), ephemeral=True)
        for more in rest:
            await interaction.followup.send(more, ephemeral=True)

    async def admit(self, interaction: discord.Interaction[Any], result_id: int) -> bool:
        """Whether this press may wait for the review (docs/review.md
        "Limits"); if not, the presser is told why, ephemerally, and nothing
        changes. A review already known, or being computed for someone
        else, costs nothing more: always admitted. A second press by a
        member already waiting for it says where it stands ("Your review is
        3rd in line"). A new computation is refused past
        :data:`MEMBER_REVIEWS` waited for by the presser or
        :data:`SERVER_REVIEWS` asked in the server, unless the review is
        stored (a read, no worker)."""
        if result_id in self.cache:
            return True
        user = interaction.user.id
        guild = interaction.guild_id
        reviews = self.bot.tables.store.reviews
        if result_id in self.pending or result_id in self.waiting:
            if user not in self.waiting.get(result_id, ()):
                # joining: never refused, but counted (in every process)
                await reviews.wait(result_id, user, guild, now=self.bot.tables.clock())
                self.counted.add((result_id, user))
                return True
            queued = self.queued.get(result_id)
            place = queued.place() if queued is not None else 0
            if place:
                nth = ordinal(place, interaction.locale)
                await self.bot.tables.reply(interaction, "review.queue.place", nth=nth)
            else:
                await self.bot.tables.reply(interaction, "review.queue.now")
            return False
        # counted in the database: the waits of every process (review_waits)
        over = await reviews.wait(
            result_id, user, guild, now=self.bot.tables.clock(), limits=(MEMBER_REVIEWS, SERVER_REVIEWS)
        )
        if over is None:
            self.counted.add((result_id, user))
            return True
        mine, here = over
        if await reviews.get_review(result_id, VERSION) is not None:
            return True  # stored: read, not computed
        if mine >= MEMBER_REVIEWS:
            await self.bot.tables.reply(interaction, "error.review_member_limit", count=mine)
        else:
            await self.bot.tables.reply(interaction, "error.review_server_limit", count=here)
        return False

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
        doc = await store.reviews.get_review(result_id, VERSION)
        if doc is None:
            queued = self.queued[result_id] = ai.Queued(
                game, review_json, (record, humans), "a review"
            )
            try:
                doc = await queued.result()
            finally:
                self.queued.pop(result_id, None)
            self.computed += 1
            await store.reviews.save_review(result_id, VERSION, doc, now=self.bot.tables.clock())
        return doc

    @staticmethod
    def _render(
        rv: Review,
        record: dict[str, Any],
        seats: list[dict[str, Any]],
        order: list[str],
        lang: str,
        me: str | None = None,
    ) -> tuple[str, list[Picture]]:
        """The review's words, and the pictures of ``me``'s mistakes ("You:
        … · Best: …"): none for someone who did not play (an onlooker got
        the first player's, captioned "You")."""
        words, pictured = seat_names(seats, registry.read_record(record), lang)
        text = review_text(rv, record, words, order, lang)
        pictures = mistake_pictures(rv, record, me, pictured, lang) if me else []
        return text, pictures
