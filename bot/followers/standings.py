"""A tournament's standings as players read them (docs/tournaments.md,
"Tie-breaks"): the words — places ("3=" when shared), points, the tie-break
named where it decides and its legend — and the pictures, the standings and
a two-player knockout's bracket with each match in the game's own figures.
The tournament follower (:class:`bot.followers.tournament.Desk`) posts and
edits them; ``/tournament standings`` answers with them."""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Sequence
from typing import Any

import discord

from bot.games import plugin
from bot.i18n import lang_of, t
from bot.render import bracket
from bot.render import tournament as drawing
from bot.storage import Store
from bot.tournament import pairing
from bot.tournament.rows import Entrant, MatchRow, TournamentRow
from bot.tournament.service import TournamentService, history_of
from bot.ui import result_words

log = logging.getLogger(__name__)


def fmt_points(value: float) -> str:
    """1.0 → "1", 0.5 → "0.5", 2.5 → "2.5"."""
    return f"{value:g}"


def pts(value: float, lang: Any) -> str:
    """Tournament points with their word: "1 pt", "2.5 pts", 「勝ち点2.5」."""
    return t("tournament.pts", lang, n=fmt_points(value), count=value)


def place_words(place: int, shared: bool, lang: str) -> str:
    """A place in the chat's standings: "3." (「3位」), or "3=" (「3位タイ」)
    when others share it."""
    return t("tournament.standings.place_shared" if shared else "tournament.standings.place",
             lang, n=place)  # fmt: skip


def tiebreak_names(row: TournamentRow) -> list[str]:
    """The event's tie-breaks, the tables' one named by what the game's
    results count (Nine's chips, Bluff's lives lost: :func:`drawing.score_sum_name`)."""
    words = plugin(row.game).points_words
    return [
        drawing.score_sum_name(words) if name == drawing.SCORE_SUM else name
        for name in pairing.tiebreak_names(row.format, pairing.two_player(row.table_size))
    ]


def fit_message(head: str, rows: Sequence[str], legend: Sequence[str], lang: str) -> str:
    """The standings in one message of at most 2000 characters: the title,
    as many rows as fit, "…and 12 more players" (the picture has them
    all), and the legend whole (it was cut mid-line with the rows)."""
    for shown in range(len(rows), -1, -1):
        more = [t("tournament.standings.more", lang, count=len(rows) - shown)] if shown < len(rows) else []
        text = "\n".join([head, *rows[:shown], *more, *legend])
        if len(text) <= 2000:
            return text
    return "\n".join([head, *legend])[:2000]


def standings_lines(
    table: Sequence[pairing.Standing], names: dict[int, str], tiebreaks: Sequence[str], lang: str
) -> list[str]:
    """The standings in words, a line per player: the place ("3=" when
    shared), the name, the points, the tie-breaks that order players on
    equal points — down to the one that tells them apart — and the games;
    then what each tie-break shown counts, one line each."""
    depth = drawing.deciding([(s.points, s.tiebreaks) for s in table])
    shared = drawing.shared_places([s.place for s in table])
    sep = t("tournament.standings.tiebreak_sep", lang)
    lines = []
    used: set[int] = set()
    for s, shown in zip(table, depth, strict=True):
        args = {"place": place_words(s.place, s.place in shared, lang),
                "name": names.get(s.player, "?"), "points": pts(s.points, lang), "count": s.games}  # fmt: skip
        if not shown:
            lines.append(t("tournament.standings.line", lang, **args))
            continue
        used.update(range(shown))
        words = sep.join(
            t("tournament.standings.tiebreak", lang, label=drawing.tiebreak_label(name, lang),
              value=drawing.tiebreak_value(name, value))  # fmt: skip
            for name, value in zip(tiebreaks[:shown], s.tiebreaks, strict=False)
        )
        lines.append(t("tournament.standings.line_tb", lang, tiebreaks=words, **args))
    lines += [drawing.tiebreak_legend(tiebreaks[i], lang) for i in sorted(used) if i < len(tiebreaks)]
    return lines


class Standings:
    """The standings of a process's tournaments, in words and pictures."""

    def __init__(self, store: Store, service: TournamentService) -> None:
        self.store = store
        self.service = service

    async def message(
        self, row: TournamentRow, *, final: bool = False, lang: str | None = None
    ) -> tuple[str, list[discord.File]]:
        """The standings in words (and the picture when there is one), in
        the event's language unless ``lang`` is given."""
        lang = lang_of(lang) if lang is not None else row.lang
        table = await self.service.standings(row)
        entrants = {e.user_id: e for e in await self.store.tournaments.entrants(row.id)}  # read once
        names = {u: e.name for u, e in entrants.items()}
        if final:
            title = "tournament.standings.final"
        elif row.state == "running" and not await self.service.round_complete(row):
            title = "tournament.standings.live"  # the round is being played
        else:
            title = "tournament.standings.title"
        head = t(title, lang, game=t(f"game.{row.game}", lang), round=row.round)
        words = standings_lines(table, names, tiebreak_names(row), lang)
        left = [u for u, e in entrants.items() if e.status == "left"]
        if left:  # not paired again: say why
            words.append(t("tournament.standings.left", lang,
                           players=t("list.sep", lang).join(f"<@{u}>" for u in left)))  # fmt: skip
        files = await self.files(row, table, entrants, lang, final=final)
        return fit_message(head, words[: len(table)], words[len(table) :], lang), files

    async def files(
        self,
        row: TournamentRow,
        table: Sequence[pairing.Standing],
        entrants: dict[int, Entrant],
        lang: str,
        *,
        final: bool,
    ) -> list[discord.File]:
        """The standings picture (and a knockout's bracket), with alt text."""
        names = {u: e.name for u, e in entrants.items()}
        rows = drawing.rows_from(table, names, {u: e.status for u, e in entrants.items()})
        labels = tiebreak_names(row)
        game = t(f"game.{row.game}", lang)
        title = t("tournament.picture.title", lang, game=game)
        subtitle = t("tournament.picture.subtitle", lang,
                     format=t(f"pic.tournament.format.{row.format}", lang), id=row.id)  # fmt: skip
        seeds = {u: e.seed for u, e in entrants.items() if e.seed is not None}
        stored = await self.store.tournaments.matches(row.id)
        history = history_of(stored)
        paired: list[list[tuple[int, ...]]] = []
        for m in stored:
            while len(paired) < m.round:
                paired.append([])
            paired[m.round - 1].append(tuple(m.seats))
        knockout = row.format == "knockout" and pairing.two_player(row.table_size)
        results = await self.bracket_results(row, stored, lang) if knockout else {}

        def draw() -> list[Any]:
            pictures = [drawing.standings_picture(title, subtitle, rows, labels, lang,
                                                  round_no=row.round, rounds=row.rounds,
                                                  final=final)]  # fmt: skip
            if knockout:
                rounds = drawing.bracket_from(paired, history, seeds, names, results)
                if rounds:
                    legend = t(f"pic.tournament.bracket_legend.{row.game}", lang)
                    pictures.append(bracket.bracket_picture(title, rounds, lang, legend))
            return pictures

        try:
            pictures = await asyncio.to_thread(draw)
        except Exception:
            log.exception("tournament %d: the standings picture failed", row.id)
            return []
        return [
            discord.File(io.BytesIO(p.png), filename=p.filename, description=p.alt[:1000])
            for p in pictures
        ]

    async def bracket_results(
        self, row: TournamentRow, stored: Sequence[MatchRow], lang: str
    ) -> dict[tuple[int, int], tuple[str, str]]:
        """Each played-out match's result in the game's own figures, by
        ``(round, player)``: what the result picture shows first (Sixty-Six's
        game points, Nine's face-up sum, Six Dice's score, Bluff's lives
        lost), as drawn and in words — never the settlement a match's
        record keeps, whose loser's chips are negative. A match nobody
        scored at (a forfeit with no result, one an organiser ended) has
        none: the bracket shows who went through."""
        out: dict[tuple[int, int], tuple[str, str]] = {}
        game = plugin(row.game)
        for m in stored:
            if m.state != "finished" or m.result_id is None or not any(m.points.values()):
                continue
            result = await self.store.results.get_result(m.result_id)
            if result is None or not result.get("seats"):
                continue
            ids = {str(seat["name"]): int(seat["id"]) for seat in result["seats"]
                   if seat.get("id") is not None}  # fmt: skip
            outcome = result.get("outcome") or {}
            try:
                rows = game.result_rows({"players": list(ids)}, outcome)
            except Exception:  # a plugin's bug must not lose the standings
                log.exception("tournament %d: match %d's result has no figures", row.id, m.id)
                continue
            for name, figure, _settled in rows:
                words = result_words.figure_text(row.game, figure, lang) or figure
                if ids.get(name) in m.seats:
                    out[(m.round, ids[name])] = (figure, words)
        return out

    async def names(self, row: TournamentRow) -> dict[int, str]:
        return {e.user_id: e.name for e in await self.store.tournaments.entrants(row.id)}
