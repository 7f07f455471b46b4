"""The knockout bracket of a tournament (split from
:mod:`bot.render.tournament`, whose docstring says what it draws):
:func:`bracket_picture` — a column per round, a box per match with its two
players and their game's own results, the one who went through
highlighted, lines from each match to its winner's slot, the champion at
the right, and under it a legend of what the figures count.
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from bot.render import Picture
from bot.render import _base as b
from bot.render._strings import alt, colon, tr
from bot.render.result import wrap
from bot.render.stats import title_lines
from bot.render.tournament import (
    LEGEND_LINE,
    LEGEND_SIZE,
    BracketMatch,
    Slot,
    _budgeted,
    _end,
    round_label,
)

MARGIN = 16
GAP = 24  # between a round's boxes and the next round's
CHAMP_W = 110
BOX_MIN, BOX_MAX = 142, 210
SLOT_H = 24  # a player's line in a match box
BOX_H = 2 * SLOT_H
PITCH = 64  # the first round's boxes, one under the other
SEED_SIZE = b.SMALL - 4
LINE_OPEN: b.Color = (150, 120, 92)  # a line from a match not played yet


def _grid(rounds: Sequence[Sequence[BracketMatch]]) -> list[list[BracketMatch]]:
    """Every round of the bracket, the rounds not given (or short) filled
    with matches to come, and each place not given taken by the winner of
    the match that feeds it (match ``j`` of a round is between the winners
    of matches ``2j`` and ``2j + 1`` of the round before)."""
    first = len(rounds[0]) if rounds else 0
    if first < 1 or first & (first - 1):
        raise ValueError(f"a bracket's first round has a power of two matches, not {first}")
    grid: list[list[BracketMatch]] = []
    n = first
    r = 0
    while n >= 1:
        given = list(rounds[r]) if r < len(rounds) else []
        matches = [given[j] if j < len(given) else BracketMatch() for j in range(n)]
        if grid:
            feed = grid[-1]
            filled = []
            for j, m in enumerate(matches):
                sides = []
                for k in (0, 1):
                    s = m.slot(k)
                    won = feed[2 * j + k].through()
                    if s.name is None and not s.bye and won is not None:
                        s = Slot(name=won.name, seed=won.seed)
                    sides.append(s)
                filled.append(BracketMatch(sides[0], sides[1], m.winner))
            matches = filled
        grid.append(matches)
        n //= 2
        r += 1
    return grid


def bracket_image(
    title: str, rounds: Sequence[Sequence[BracketMatch]], lang: str, legend: str = ""
) -> tuple[Image.Image, str]:
    """The bracket as a Pillow image and its alt text (see
    :func:`bracket_picture`)."""
    grid = _grid(rounds)
    count = len(grid)
    box_w = max(BOX_MIN, min(BOX_MAX, (b.WIDTH - 2 * MARGIN - CHAMP_W - count * GAP) // count))
    width = max(b.WIDTH, MARGIN + count * (box_w + GAP) + CHAMP_W + MARGIN)
    title_text = b.safe_text(title)
    lines, size = title_lines(title_text, width - 40)
    extra = (len(lines) - 1) * (size + 6)
    labels_y = 56 + extra
    top = labels_y + 30
    first = len(grid[0])
    scored = any(s.result is not None and not s.bye
                 for rnd in grid for m in rnd for s in (m.top, m.bottom))  # fmt: skip
    legend_lines = wrap(b.safe_text(legend), LEGEND_SIZE, width - 40, lang) if scored else []
    legend_top = top + first * PITCH + 4
    height = legend_top + len(legend_lines) * LEGEND_LINE + (12 if legend_lines else 8)
    img = b.canvas(height, width)
    d = ImageDraw.Draw(img)
    for i, line in enumerate(lines):
        y = 14 + (4 if size < b.LARGE else 0) + i * (size + 6)
        b.draw_text(d, (20, y), line, size, b.INK, bold=True)

    seeds = [s.seed for rnd in grid for m in rnd for s in (m.top, m.bottom) if s.seed is not None]
    seed_w = b.text_width(str(max(seeds)), SEED_SIZE) + 5 if seeds else 0
    scores = [
        s.result
        for rnd in grid
        for m in rnd
        for s in (m.top, m.bottom)
        if s.result is not None and not s.bye
    ]
    score_w = max((b.text_width(v, b.SMALL) + 3 for v in scores), default=0)

    def col_x(r: int) -> int:
        return MARGIN + r * (box_w + GAP)

    def centre(r: int, j: int) -> float:
        return top + (j + 0.5) * PITCH * (1 << r)

    # the round names over their columns, the champion's over theirs
    for r in range(count):
        label = b.fit(round_label(lang, r, count), b.SMALL, box_w)
        b.draw_text(d, (col_x(r) + box_w / 2, labels_y), label, b.SMALL, b.INK_DIM, anchor="ma")
    cx = col_x(count)
    champ_label = b.fit(tr(lang, "tournament.champion"), b.SMALL, CHAMP_W)
    b.draw_text(d, (cx + CHAMP_W / 2, labels_y), champ_label, b.SMALL, b.GOLD, anchor="ma")

    # the lines first, the boxes over their ends
    for r, matches in enumerate(grid):
        for j, m in enumerate(matches):
            x, cy = col_x(r) + box_w, centre(r, j)
            colour, w = (b.HILITE, 3) if m.through() is not None else (LINE_OPEN, 2)
            if r == count - 1:
                d.line([(x, cy), (cx, cy)], fill=colour, width=w)
                continue
            ty = centre(r + 1, j // 2) + (SLOT_H / 2 if j % 2 else -SLOT_H / 2)
            xm = x + GAP / 2
            d.line(
                [(x, cy), (xm, cy), (xm, ty), (col_x(r + 1), ty)],
                fill=colour,
                width=w,
                joint="curve",
            )

    for r, matches in enumerate(grid):
        for j, m in enumerate(matches):
            _box(d, col_x(r), centre(r, j), box_w, m, lang, seed_w, score_w)

    champion = grid[-1][0].through()
    cy = centre(count - 1, 0)
    box = (cx, cy - SLOT_H, cx + CHAMP_W, cy + SLOT_H)
    if champion is not None:
        d.rounded_rectangle(box, 8, fill=b.GOLD, outline=b.HILITE, width=2)
        name = b.name(champion.name or "", b.BODY, CHAMP_W - 14)
        b.draw_text(d, (cx + CHAMP_W / 2, cy), name, b.BODY, b.PAPER_INK, anchor="mm", bold=True)
    else:
        d.rounded_rectangle(box, 8, fill=b.PANEL, outline=LINE_OPEN, width=2)
        b.draw_text(d, (cx + CHAMP_W / 2, cy), "—", b.BODY, b.INK_DIM, anchor="mm")
    # what the figures in the boxes count, once a match has them
    for i, line in enumerate(legend_lines):
        b.draw_text(d, (20, legend_top + i * LEGEND_LINE), line, LEGEND_SIZE, b.INK_DIM)
    return img, bracket_alt(title, grid, lang)


def _box(
    d: ImageDraw.ImageDraw,
    x: int,
    cy: float,
    w: int,
    m: BracketMatch,
    lang: str,
    seed_w: int,
    score_w: int,
) -> None:
    """A match's box: two lines of seed, name and the game's result; the
    line of the one who went through highlighted, the other's dimmed."""
    y0 = cy - BOX_H / 2
    d.rounded_rectangle((x, y0, x + w, y0 + BOX_H), 6, fill=b.PANEL, outline=b.TABLE_EDGE, width=1)
    decided = m.through() is not None
    for k in (0, 1):
        s = m.slot(k)
        ry = y0 + k * SLOT_H + SLOT_H / 2
        won = decided and m.winner == k
        if won:
            corners = (True, True, False, False) if k == 0 else (False, False, True, True)
            d.rounded_rectangle(
                (x + 1, y0 + k * SLOT_H + 1, x + w - 1, y0 + (k + 1) * SLOT_H - 1 + k),
                5,
                fill=b.WIN_ROW,
                corners=corners,
            )
        nx = x + 6
        if seed_w:
            if s.seed is not None and not s.bye:
                b.draw_text(
                    d, (nx + seed_w - 5, ry), str(s.seed), SEED_SIZE, b.INK_DIM, anchor="rm"
                )
            nx += seed_w
        room = x + w - 6 - nx - (score_w + 4 if score_w else 0)
        if s.bye:
            b.draw_text(
                d,
                (nx, ry),
                b.fit(tr(lang, "tournament.bye"), b.SMALL, room),
                b.SMALL,
                b.INK_DIM,
                anchor="lm",
            )
        elif s.name is None:
            b.draw_text(d, (nx, ry), "—", b.SMALL, b.INK_DIM, anchor="lm")
        else:
            colour = b.HILITE if won else b.INK_DIM if decided else b.INK
            b.draw_text(d, (nx, ry), b.name(s.name, b.SMALL, room), b.SMALL, colour, anchor="lm")
        if s.result is not None and not s.bye:
            colour = b.HILITE if won else b.INK_DIM
            b.draw_text(d, (x + w - 6, ry), s.result, b.SMALL, colour, anchor="rm", bold=won)
    d.line([(x + 1, cy), (x + w - 1, cy)], fill=b.TABLE_EDGE, width=1)


def _who(lang: str, s: Slot) -> str:
    if s.seed is None:
        return s.name or "—"
    return tr(lang, "tournament.seeded", name=s.name, seed=s.seed)


def _match_words(lang: str, m: BracketMatch) -> str:
    """A match in words: who beat whom (went through) and each one's
    result in the game's own words, a bye, or who meets whom (not played
    yet); "" when neither player is known."""
    won = m.through()
    if won is not None:
        lost = m.slot(1 - int(m.winner or 0))
        if lost.bye:
            return tr(lang, "tournament.alt_bye", player=_who(lang, won))
        if lost.name is None:
            return tr(lang, "tournament.alt_through", player=_who(lang, won))
        a = won.result_words or won.result
        c = lost.result_words or lost.result
        if a is not None and c is not None:
            score = tr(lang, "tournament.score", a=a, b=c)
            return tr(
                lang,
                "tournament.alt_beat",
                winner=_who(lang, won),
                loser=_who(lang, lost),
                score=score,
            )
        return tr(lang, "tournament.alt_beat_plain", winner=_who(lang, won), loser=_who(lang, lost))
    known = [s for s in (m.top, m.bottom) if s.name is not None]
    if len(known) == 2:
        return tr(lang, "tournament.alt_to_play", a=_who(lang, known[0]), b=_who(lang, known[1]))
    if len(known) == 1:
        other = m.bottom if known[0] is m.top else m.top
        if other.bye:
            return tr(lang, "tournament.alt_bye", player=_who(lang, known[0]))
        return tr(lang, "tournament.alt_waiting", player=_who(lang, known[0]))
    return ""


def bracket_alt(title: str, grid: Sequence[Sequence[BracketMatch]], lang: str) -> str:
    """The bracket in words: the champion, then each round from the latest
    with a player in it back to the first (as many as fit)."""
    end = _end(lang)
    head = [title + end]
    champion = grid[-1][0].through()
    if champion is not None:
        head.append(tr(lang, "tournament.alt_champion", player=_who(lang, champion)) + end)
    items = []
    sep = tr(lang, "tournament.alt_sep")  # "; " (the matches hold commas), 、
    for r in reversed(range(len(grid))):
        words = [w for w in (_match_words(lang, m) for m in grid[r]) if w]
        if words:
            items.append(round_label(lang, r, len(grid)) + colon(lang) + sep.join(words) + end)
    return alt(_budgeted(head, items, lang, "tournament.alt_more_rounds"), lang)


def bracket_picture(
    title: str, rounds: Sequence[Sequence[BracketMatch]], lang: str, legend: str = ""
) -> Picture:
    """A knockout bracket. ``rounds``: the rounds so far, first round first,
    each a list of :class:`BracketMatch` in bracket order (the first round
    has a power of two matches, byes included: 6 players are 4 matches, two
    of them byes); the rounds not given yet are drawn empty, filled with
    the winners known. 640 px wide up to 8 players; 16 and 32 players are
    wider (a column per round). ``legend``: what the boxes' figures count,
    in the game's own unit, drawn under the bracket once a match has them
    (the alt text names the unit with each figure)."""
    img, text = bracket_image(title, rounds, lang, legend)
    return Picture(b.encode(img), text, "bracket.png")
