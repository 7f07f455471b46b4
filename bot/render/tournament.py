"""Pictures of a tournament (issue 26): the standings and the knockout
bracket, each with alt text that says the same facts.

Pure functions of plain data (the tournament service gathers it; the small
frozen dataclasses below are the input):

- :func:`standings_picture` — the title, the event's line and where it
  stands ("Round 2 of 3", "Final standings"), then a row per player: place
  (medals for the first three, as on the leaderboard; a shared place is
  "3=" and keeps its medal), name, points, the tie-breaks, games played (a
  bye is none); a player who dropped out or was removed is greyed with the
  word after the name; under the rows, a line per tie-break saying what it
  counts ("Buchholz: the sum of your opponents' points."). Up to 64
  players: the rows are lower past 24, the picture taller.
- :func:`bot.render.bracket.bracket_picture` — a knockout bracket: a column per round
  ("Round 1", "Quarter-final", "Semi-final", "Final"), a box per match with
  its two players (seed numbers before the names), the one who went
  through highlighted, each with the game's own result (Sixty-Six's game
  points, Nine's face-up sum, Bluff's lives lost — never a settlement's
  negative chips), "Bye" opposite a player who has one, "—" for a place
  not decided yet, lines from each match to the slot its winner takes in
  the next round, and the champion at the right.

Points are written "3", "2.5" (a decimal only when fractional), tie-breaks
with one decimal ("6.0"), a column of whole numbers without. Every word is
a ``pic.tournament.*`` catalogue key; headings in sentence case ("Round
robin · tournament #3", "Final standings", "Wins").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from PIL import Image, ImageDraw

from bot.i18n import has
from bot.render import Picture
from bot.render import _base as b
from bot.render._strings import alt, comma, tr
from bot.render.result import wrap
from bot.render.stats import MEDALS, title_lines
from bot.tournament import pairing

STATUSES = ("dropped", "removed")  # a player out of the event: greyed, the word after the name
ALT_BUDGET = 940  # alt text: sentences while under this, then "and 12 more" (Discord: 1024)


@dataclass(frozen=True)
class StandingRow:
    """A player's line of the standings. ``tiebreaks`` in the order of the
    labels given to :func:`standings_picture`; ``status`` is ``""`` or one
    of :data:`STATUSES`."""

    place: int
    name: str
    points: float
    tiebreaks: tuple[float, ...] = ()
    games: int = 0
    status: str = ""


@dataclass(frozen=True)
class Slot:
    """One side of a bracket match: a player (``name``, ``seed``, once
    played the game's own ``result`` as drawn, "7" or "11,050", and in
    words for the alt text, ``result_words`` "7 game points"), a bye
    (``bye``: no opponent) or, with neither, a place not decided yet ("—")."""

    name: str | None = None
    seed: int | None = None
    result: str | None = None
    bye: bool = False
    result_words: str | None = None


@dataclass(frozen=True)
class BracketMatch:
    """A match of the bracket: ``winner`` is 0 (``top``) or 1 (``bottom``)
    once decided (a bye's player goes through: ``winner=0``), else None."""

    top: Slot = Slot()
    bottom: Slot = Slot()
    winner: int | None = None

    def slot(self, k: int) -> Slot:
        return self.top if k == 0 else self.bottom

    def through(self) -> Slot | None:
        """The player who goes on to the next round, once decided."""
        if self.winner not in (0, 1):
            return None
        won = self.slot(self.winner)
        return won if won.name is not None else None


def points_text(value: float) -> str:
    """Points as the standings write them: a decimal only when fractional.

    >>> points_text(3.0), points_text(2.5), points_text(0), points_text(7 / 3)
    ('3', '2.5', '0', '2.33')
    """
    value = float(value)
    if value.is_integer():
        return str(int(value))
    return f"{value:.2f}".rstrip("0").rstrip(".")


def tiebreak_text(value: float, whole: bool = False) -> str:
    """A tie-break with one decimal, or none in a column of whole numbers
    (a score sum: "-11", not "-11.0").

    >>> tiebreak_text(6), tiebreak_text(5.25), tiebreak_text(-11, whole=True)
    ('6.0', '5.2', '-11')
    """
    if whole:
        return str(int(value))
    return f"{float(value):.1f}"


def whole_column(values: Sequence[float]) -> bool:
    """Whether a tie-break column holds whole numbers only."""
    return all(float(v).is_integer() for v in values)


SCORE_SUM = "score_sum"  # the tie-break of tables: the game's own results added up
SCORE_WORDS = ("chips", "game_points", "lives_lost", "points")


def score_sum_name(words: str) -> str:
    """The tie-break of tables named by what the game's results count (a
    game plugin's ``points_words``): ``score_sum.chips`` is "Chips" (Nine's
    and Six Dice's settlements), ``score_sum.lives_lost`` "Lives lost"
    (Bluff's points are minus the lives lost), ``score_sum.points``
    "Score" (Yahtzee's totals)."""
    return f"{SCORE_SUM}.{words}" if words in SCORE_WORDS else SCORE_SUM


def _tb_key(kind: str, name: str, lang: str) -> str | None:
    """``pic.tournament.<kind>.<name>`` if the catalogue has it (a
    ``score_sum.*`` without its own falls back to ``score_sum``)."""
    for key in (name, name.split(".")[0]):
        if has(f"pic.tournament.{kind}.{key}", lang):
            return f"tournament.{kind}.{key}"
    return None


def tiebreak_label(name: str, lang: str) -> str:
    """The column name of a tie-break: ``buchholz``, ``sonneborn_berger``,
    ``wins``, ``score_sum`` (:func:`bot.tournament.pairing.tiebreak_names`;
    ``score_sum.chips`` and the like: :func:`score_sum_name`) in words;
    another label is drawn as given."""
    key = _tb_key("tb", name, lang)
    return tr(lang, key) if key else name


def tiebreak_legend(name: str, lang: str) -> str:
    """What a tie-break counts, in one sentence ("Buchholz: the sum of your
    opponents' points."); "" for a label of no known tie-break."""
    key = _tb_key("legend", name, lang)
    return tr(lang, key) if key else ""


def tiebreak_value(name: str, value: float) -> str:
    """A tie-break's value as the chat writes it: chips signed ("+34"),
    lives lost as a count ("2": the points are minus the lives), the others
    as points are ("21.5", "6").

    >>> tiebreak_value("buchholz", 21.5), tiebreak_value("score_sum.chips", 34)
    ('21.5', '+34')
    >>> tiebreak_value("score_sum.lives_lost", -2), tiebreak_value("wins", 3.0)
    ('2', '3')
    """
    if name.endswith(".lives_lost"):
        return points_text(-value + 0.0)
    if name.endswith(".chips"):
        return f"{int(value):+d}" if float(value).is_integer() else f"{value:+.1f}"
    return points_text(value)


def _column_value(name: str, value: float, whole: bool) -> str:
    """A tie-break in the picture's column (:func:`tiebreak_text`; chips
    signed, lives lost as a count)."""
    if name.endswith(".lives_lost"):
        value = -value + 0.0
    text = tiebreak_text(value, whole)
    if name.endswith(".chips") and value > 0:
        text = "+" + text
    return text


def deciding(lines: Sequence[tuple[float, Sequence[float]]]) -> list[int]:
    """How many tie-breaks each line of the standings needs shown, best
    first, as ``(points, tie-breaks)``: none for a player alone on their
    points; for players on equal points, every tie-break down to the
    deepest one that tells two neighbours apart — the same for the whole
    group. Players equal on every tie-break too need none between them
    (nothing decides: they share a place, "3="); a group all equal shows
    none (40 players on 0 points before a game is played).

    >>> deciding([(3, (5, 1)), (2, (6, 2)), (2, (6, 1)), (2, (4, 0)), (1, (0, 0))])
    [0, 2, 2, 2, 0]
    >>> deciding([(2, (6, 1)), (2, (6, 1)), (2, (4, 0)), (0, (0, 0)), (0, (0, 0))])
    [1, 1, 1, 0, 0]
    """
    out = [0] * len(lines)
    i = 0
    while i < len(lines):
        j = i
        while j + 1 < len(lines) and lines[j + 1][0] == lines[i][0]:
            j += 1
        if j > i:
            depth = 0
            for k in range(i, j):
                a, c = lines[k][1], lines[k + 1][1]
                first = next((n for n, (x, y) in enumerate(zip(a, c, strict=False)) if x != y), None)
                depth = max(depth, 0 if first is None else first + 1)
            out[i : j + 1] = [depth] * (j - i + 1)
        i = j + 1
    return out


def shared_places(places: Sequence[int]) -> set[int]:
    """The places held by more than one player ("3=")."""
    return {p for p in places if list(places).count(p) > 1}


def stage_words(lang: str, round_no: int | None, rounds: int | None, final: bool) -> str:
    """The stage: "Final standings", "Round 2 of 3" (「第2回戦（全3回戦）」) or ""."""
    if final:
        return tr(lang, "tournament.final_standings")
    if round_no and rounds:
        return tr(lang, "tournament.round_of", round=round_no, rounds=rounds)
    return ""


def round_label(lang: str, index: int, count: int) -> str:
    """The name of a knockout round (``index`` from 0 of ``count``): the
    last three are the final, semi-final and quarter-final, the others
    "Round n".

    >>> [round_label("en", i, 4) for i in range(4)]
    ['Round 1', 'Quarter-final', 'Semi-final', 'Final']
    """
    from_end = count - 1 - index
    if from_end < 3:
        return tr(
            lang,
            ("tournament.final", "tournament.semi_final", "tournament.quarter_final")[from_end],
        )
    return tr(lang, "tournament.round", n=index + 1)


def _end(lang: str) -> str:
    return "。" if lang == "ja" else "."


def _budgeted(head: list[str], items: list[str], lang: str, more_key: str) -> list[str]:
    """``head`` and as many of ``items`` as keep the alt text under
    :data:`ALT_BUDGET`, then "and {n} more"."""
    sep = 0 if lang == "ja" else 1
    used = sum(len(p) + sep for p in head)
    out = list(head)
    for i, item in enumerate(items):
        rest = len(items) - i - 1
        reserve = 40 if rest else 0
        if used + len(item) + sep + reserve > ALT_BUDGET:
            out.append(tr(lang, more_key, n=len(items) - i) + _end(lang))
            break
        out.append(item)
        used += len(item) + sep
    return out


# ---------------------------------------------------------------- standings

HEAD_SIZE = b.SMALL
HEAD_MAX = 104  # a column's name wider than this goes on two lines
HEAD_LINE = b.SMALL + 3
COL_GAP = 18
NAME_X = 64
MARK_SIZE = b.SMALL  # "(dropped)" after a name
LEGEND_SIZE = b.SMALL - 2  # the tie-breaks' legend under the rows
LEGEND_LINE = LEGEND_SIZE + 6


def head_lines(label: str, size: int = HEAD_SIZE, width: int = HEAD_MAX) -> list[str]:
    """A column name on one line, or two broken after a dash or ・ or at a
    space (the break that makes the longer line shortest).

    >>> head_lines("Points"), head_lines("Sonneborn–Berger"), head_lines("ソネボーン・ベルガー")
    (['Points'], ['Sonneborn–', 'Berger'], ['ソネボーン・', 'ベルガー'])
    """
    if b.text_width(label, size) <= width:
        return [label]
    cuts = [i + 1 for i, ch in enumerate(label) if ch in "–-・" and 0 < i < len(label) - 1]
    cuts += [i for i, ch in enumerate(label) if ch == " " and i > 0]
    best: tuple[int, list[str]] | None = None
    for i in cuts:
        lines = [label[:i].rstrip(), label[i:].lstrip()]
        widest = max(b.text_width(line, size) for line in lines)
        if best is None or widest < best[0]:
            best = (widest, lines)
    if best is None:
        return [b.fit(label, size, width)]
    return [b.fit(line, size, width) for line in best[1]]


def _row(r: StandingRow | Mapping[str, Any]) -> StandingRow:
    if isinstance(r, StandingRow):
        return r
    return StandingRow(
        place=int(r["place"]),
        name=str(r["name"]),
        points=float(r["points"]),
        tiebreaks=tuple(float(v) for v in r.get("tiebreaks") or ()),
        games=int(r.get("games") or 0),
        status=str(r.get("status") or ""),
    )


def _mark(lang: str, status: str) -> str:
    return tr(lang, "tournament.marked", status=tr(lang, "tournament.status." + status))


def legend_wrapped(text: str, lang: str) -> list[str]:
    """A tie-break's legend in the lines the picture draws under the rows."""
    return wrap(b.safe_text(text), LEGEND_SIZE, b.WIDTH - 40, lang)


def standings_image(
    title: str,
    subtitle: str,
    rows: Sequence[StandingRow | Mapping[str, Any]],
    tiebreak_labels: Sequence[str],
    lang: str,
    *,
    round_no: int | None = None,
    rounds: int | None = None,
    final: bool = False,
) -> tuple[Image.Image, str]:
    """The standings as a Pillow image and its alt text (see
    :func:`standings_picture`)."""
    table = [_row(r) for r in rows]
    names = list(tiebreak_labels)
    labels = [tiebreak_label(name, lang) for name in names]
    legend = [w for w in (tiebreak_legend(name, lang) for name in names) if w]
    shared = shared_places([r.place for r in table])
    stage = stage_words(lang, round_no, rounds, final)
    row_h = 34 if len(table) <= 24 else 28
    # the number columns, right to left from the edge: games, tie-breaks, points
    heads = [tr(lang, "tournament.points"), *labels, tr(lang, "tournament.games")]
    whole = [
        whole_column([r.tiebreaks[i] for r in table if i < len(r.tiebreaks)])
        for i in range(len(labels))
    ]
    values: list[list[str]] = [
        [points_text(r.points) for r in table],
        *[
            [_column_value(names[i], r.tiebreaks[i], whole[i]) if i < len(r.tiebreaks) else "—"
             for r in table]  # fmt: skip
            for i in range(len(labels))
        ],
        [str(r.games) for r in table],
    ]
    head_text = [head_lines(h) for h in heads]
    widths = [
        max(
            [b.text_width(line, HEAD_SIZE) for line in lines]
            + [b.text_width(v, b.BODY) + 2 for v in column]
        )
        for lines, column in zip(head_text, values, strict=True)
    ]
    rights: list[int] = []
    x = b.WIDTH - 24
    for w in reversed(widths):
        rights.append(x)
        x -= w + COL_GAP
    rights.reverse()
    name_right = rights[0] - widths[0] - 14
    head_rows = max(len(lines) for lines in head_text)

    title_text = b.safe_text(title)
    lines, size = title_lines(title_text)
    extra = (len(lines) - 1) * (size + 6)
    top = 84 + extra
    rows_top = top + head_rows * HEAD_LINE + 8
    legend_lines = [line for text in legend for line in legend_wrapped(text, lang)]
    legend_h = len(legend_lines) * LEGEND_LINE + (8 if legend_lines else 0)
    height = rows_top + row_h * max(1, len(table)) + legend_h + 16
    img = b.canvas(height)
    d = ImageDraw.Draw(img)
    for i, line in enumerate(lines):
        y = 14 + (4 if size < b.LARGE else 0) + i * (size + 6)
        b.draw_text(d, (20, y), line, size, b.INK, bold=True)
    # the event's line, and where it stands in a pill at the right
    sub_right = b.WIDTH - 20
    if stage:
        w = b.text_width(stage, b.SMALL) + b.SMALL
        sub_right -= w + 12
        b.pill(d, (b.WIDTH - 20 - w, 47 + extra), stage, b.SMALL, b.HILITE)
    b.draw_text(
        d,
        (20, 52 + extra),
        b.fit(b.safe_text(subtitle), b.SMALL, sub_right - 20),
        b.SMALL,
        b.INK_DIM,
    )

    # the column names, bottom-aligned
    def head(x: float, text_lines: list[str], anchor: str) -> None:
        y = top + (head_rows - len(text_lines)) * HEAD_LINE
        for k, line in enumerate(text_lines):
            b.draw_text(d, (x, y + k * HEAD_LINE), line, HEAD_SIZE, b.INK_DIM, anchor=anchor)

    last = top + (head_rows - 1) * HEAD_LINE
    b.draw_text(d, (35, last), tr(lang, "tournament.place"), HEAD_SIZE, b.INK_DIM, anchor="ma")
    b.draw_text(d, (NAME_X, last), tr(lang, "tournament.player"), HEAD_SIZE, b.INK_DIM)
    for right, text_lines in zip(rights, head_text, strict=True):
        head(right, text_lines, "ra")
    y = rows_top
    if not table:
        b.draw_text(
            d,
            (b.WIDTH / 2, y + row_h / 2),
            tr(lang, "tournament.no_players"),
            b.BODY,
            b.INK_DIM,
            anchor="mm",
        )
    for i, r in enumerate(table):
        out = r.status in STATUSES
        if i % 2 == 0:
            d.rectangle((10, y, b.WIDTH - 10, y + row_h - 1), fill=b.PANEL)
        cy = y + row_h / 2
        # a shared place reads "3=" and keeps its medal (the disc widened)
        place = str(r.place) + ("=" if r.place in shared else "")
        if 1 <= r.place <= 3:
            radius = 13 if row_h > 30 else 11
            half = max(radius, (b.text_width(place, b.SMALL) + 10) / 2)
            d.rounded_rectangle(
                (35 - half, cy - radius, 35 + half, cy + radius), radius, fill=MEDALS[r.place - 1]
            )
            # the bold face draws "=" as a bar: a shared place's "3=" is regular
            bold = r.place not in shared
            b.draw_text(d, (35, cy), place, b.SMALL, b.PAPER_INK, anchor="mm", bold=bold)
        else:
            b.draw_text(d, (35, cy), place, b.BODY, b.INK_DIM, anchor="mm")
        room = name_right - NAME_X
        if out:
            mark = _mark(lang, r.status)
            space = 0 if mark.startswith("（") else 6  # a full-width bracket has its own
            mark_w = b.text_width(mark, MARK_SIZE) + space
            shown = b.name(r.name, b.BODY, max(room - mark_w, b.BODY * 2))
            b.draw_text(d, (NAME_X, cy), shown, b.BODY, b.INK_DIM, anchor="lm")
            mx = NAME_X + b.text_width(shown, b.BODY) + space
            b.draw_text(d, (mx, cy + 1), mark, MARK_SIZE, b.INK_DIM, anchor="lm")
        else:
            b.draw_text(d, (NAME_X, cy), b.name(r.name, b.BODY, room), b.BODY, b.INK, anchor="lm")
        for k, (right, column) in enumerate(zip(rights, values, strict=True)):
            if k == 0:  # the points
                colour, bold = (b.INK_DIM, False) if out else (b.HILITE, True)
            else:
                colour, bold = (b.INK_DIM if out else b.INK), False
            b.draw_text(d, (right, cy), column[i], b.BODY, colour, anchor="rm", bold=bold)
        y += row_h
    # what each tie-break counts, under the rows
    y += 8
    for line in legend_lines:
        b.draw_text(d, (20, y), line, LEGEND_SIZE, b.INK_DIM)
        y += LEGEND_LINE
    return img, standings_alt(title, subtitle, stage, table, names, lang)


def standings_alt(
    title: str,
    subtitle: str,
    stage: str,
    table: Sequence[StandingRow],
    names: Sequence[str],
    lang: str,
) -> str:
    """The standings in words: what each tie-break counts, then every row's
    place (a shared one said so), name, points, tie-breaks, games and
    status (as many rows as fit, then "and 12 more")."""
    end = _end(lang)
    head = [title + end] + [p + end for p in (subtitle, stage) if p]
    head += [w for w in (tiebreak_legend(name, lang) for name in names) if w]
    if not table:
        head.append(tr(lang, "tournament.no_players"))
    labels = [tiebreak_label(name, lang) for name in names]
    wholes = [
        whole_column([r.tiebreaks[i] for r in table if i < len(r.tiebreaks)])
        for i in range(len(labels))
    ]
    shared = shared_places([r.place for r in table])
    items = []
    for r in table:
        details = [tr(lang, "tournament.points_n", n=points_text(r.points), count=r.points)]
        details += [
            _alt_tiebreak(lang, name, label, value, whole)
            for name, label, value, whole in zip(names, labels, r.tiebreaks, wholes, strict=False)
        ]
        details.append(tr(lang, "tournament.games_n", n=r.games))
        text = tr(
            lang,
            "tournament.alt_row_shared" if r.place in shared else "tournament.alt_row",
            place=r.place,
            name=r.name,
            details=comma(lang).join(details),
        )
        if r.status in STATUSES:
            text += ("" if lang == "ja" else " ") + _mark(lang, r.status)
        items.append(text + end)
    return alt(_budgeted(head, items, lang, "tournament.alt_more_players"), lang)


def _alt_tiebreak(lang: str, name: str, label: str, value: float, whole: bool) -> str:
    """A tie-break in a row of the alt text, worded as a sentence says it
    ("+14 chips", "1 win", "Buchholz 3.0"; the column's capitalised label
    only for a tie-break the catalogue does not know)."""
    shown = _column_value(name, value, whole)
    key = _tb_key("alt_tb", name, lang)
    if key is None:
        return tr(lang, "tournament.alt_tiebreak", label=label, value=shown)
    return tr(lang, key, value=shown, count=abs(value))


def standings_picture(
    title: str,
    subtitle: str,
    rows: Sequence[StandingRow | Mapping[str, Any]],
    tiebreak_labels: Sequence[str],
    lang: str,
    *,
    round_no: int | None = None,
    rounds: int | None = None,
    final: bool = False,
) -> Picture:
    """The standings: ``title`` and ``subtitle`` are words (the event, its
    game and format); ``rows`` best first (:class:`StandingRow`, or dicts of
    its fields); ``tiebreak_labels`` the tie-breaks' names in the rows'
    order (``buchholz``, ``sonneborn_berger``, ``wins``, ``score_sum`` and
    its game's :func:`score_sum_name` are translated, and explained under
    the rows and in the alt text); ``round_no`` of ``rounds`` ("Round 2 of
    3") or ``final`` ("Final standings") says where the event stands."""
    img, text = standings_image(
        title, subtitle, rows, tiebreak_labels, lang, round_no=round_no, rounds=rounds, final=final
    )
    return Picture(b.encode(img), text, "standings.png")


# ---------------------------------------------------------------- from the pairing's records


def rows_from(
    table: Sequence[pairing.Standing],
    names: Mapping[int, str],
    statuses: Mapping[int, str] | None = None,
) -> list[StandingRow]:
    """The standings' rows from :func:`bot.tournament.pairing.standings`:
    each player's name from ``names`` ("?" if unknown) and status from
    ``statuses`` (``dropped``; ``kicked`` or ``removed`` → ``removed``)."""
    statuses = statuses or {}
    rows = []
    for s in table:
        status = statuses.get(s.player, "")
        status = "removed" if status == "kicked" else status
        rows.append(
            StandingRow(
                place=s.place,
                name=names.get(s.player, "?"),
                points=s.points,
                tiebreaks=tuple(s.tiebreaks),
                games=s.games,
                status=status if status in STATUSES else "",
            )
        )
    return rows


def bracket_from(
    paired: Sequence[Sequence[tuple[int, ...]]],
    history: Sequence[pairing.Match],
    seeds: Mapping[int, int],
    names: Mapping[int, str],
    results: Mapping[tuple[int, int], tuple[str, str]] | None = None,
) -> list[list[BracketMatch]]:
    """A two-player knockout's rounds for :func:`bracket_picture`.

    ``paired``: each round's tables as paired (round 1 first, in the
    pairing's order — bracket order; a 1-tuple is a bye), played or not;
    ``history``: the matches that have ended (:class:`pairing.Match`; the
    winner by :func:`pairing.knockout_winner`); ``seeds`` and ``names`` by
    player id; ``results``: by ``(round, player)``, the game's own result
    of a match that was played out (as drawn and in words: ``("7", "7 game
    points")``) — a match without (a forfeit, a game ended by an
    organiser) shows who went through and no figures, and the
    tournament's records (settlement chips, which are negative for the
    loser) are never shown as a score. A later round's table is placed by
    where its players came from, so the lines join each winner to their
    slot."""
    ended = {(m.round, frozenset(m.seats)): m for m in history}
    out: list[list[BracketMatch]] = []
    came_from: dict[int, int] = {}  # a player → the match they won in the round before

    results = results or {}

    def slot(player: int, result: tuple[str, str] | None) -> Slot:
        shown, words = result if result is not None else (None, None)
        return Slot(names.get(player, "?"), seeds.get(player), shown, result_words=words)

    for r, tables in enumerate(paired, start=1):
        if r > 1 and len(out[-1]) == 1:
            break  # the final was the last round
        count = len(tables) if r == 1 else len(out[-1]) // 2
        matches = [BracketMatch() for _ in range(count)]
        went_on: dict[int, int] = {}
        for i, seats in enumerate(tables):
            if len(seats) not in (1, 2):
                raise ValueError(f"a knockout bracket has matches of two, not {seats}")
            sides: list[int | None]
            if r == 1:
                at, sides = i, list(seats)
            else:
                known = [p for p in seats if p in came_from]
                if not known:
                    continue
                at = came_from[known[0]] // 2
                sides = [None, None]
                for p in seats:
                    k = came_from[p] % 2 if p in came_from else (1 if sides[0] is not None else 0)
                    sides[k] = p
            if at >= count:
                raise ValueError(f"round {r} has more matches than its bracket")
            match = ended.get((r, frozenset(seats)))
            figures: dict[int, tuple[str, str]] = {}
            winner: int | None = None
            if match is not None:
                won = pairing.knockout_winner(match)
                if all((r, p) in results for p in match.seats) and not match.is_bye:
                    figures = {p: results[(r, p)] for p in match.seats}
                winner = sides.index(won)
                went_on[won] = at
            elif len(seats) == 1:  # a bye goes through at once
                winner = 0
                went_on[seats[0]] = at
            if len(seats) == 1:
                matches[at] = BracketMatch(slot(seats[0], None), Slot(bye=True), winner)
                continue
            top, bottom = (slot(p, figures.get(p)) if p is not None else Slot() for p in sides[:2])
            matches[at] = BracketMatch(top, bottom, winner)
        out.append(matches)
        came_from = went_on
    return out
