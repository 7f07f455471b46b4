"""Result pictures: final standings and settlement for every game, and for
Six Dice and Yahtzee a line chart of each player's score over the game.

Every number says what it counts: the columns are headed with the game's
figure ("Face-up sum", "Lives lost", "Game points") and, where the game
settles, "Chips"; under a name, in small print, why (「上がり、トークン1個で×4」,
"not started: 5 chips more", the deals won); at the bottom a legend says how
the figures are counted (``pic.legend.<game>``).

The chart is drawn from ``history`` — per-turn score snapshots
``{player: score}`` the bot collects as the game goes (oldest first). Without
it the picture has standings only: the renderer never replays records."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from PIL import Image, ImageDraw

from bot.i18n import t
from bot.render import _base as b
from bot.render._strings import alt, tr

ROW = 34  # a row with a name and its figures
NOTE_LINE = 20  # each line of small print under a name
CHART_H = 220
LEGEND_LINE = 22
FIGURE_X = 470  # the figure column's right edge
NOTE_LINES = 3  # at most, under one name (longer notes end with …)
LEFT = 72  # where names and notes start


def names_and(names: Sequence[str], lang: str) -> str:
    """``A``, ``A and B``, ``A, B and C`` (「AとB」「A、BとC」)."""
    names = list(names)
    if len(names) < 2:
        return "".join(names)
    return t("list.and", lang, rest=t("list.sep", lang).join(names[:-1]), last=names[-1])


def winners_line(names: Sequence[str], lang: str) -> str:
    """The winners: "carol wins", "CPU1 and CPU2 win" (「CPU1とCPU2の勝ち」)."""
    if len(names) == 1:
        return tr(lang, "wins", player=names[0])
    return tr(lang, "wins_many", player=names_and(names, lang))


def wrap(text: str, size: int, width: int, lang: str) -> list[str]:
    """``text`` (already safe) in lines of at most ``width`` px: at spaces in
    English, between any two characters in Japanese (never before 、 。 ）)."""
    if not text:
        return []
    lines: list[str] = []
    if lang == "ja":
        line = ""
        for ch in text:
            if line and b.text_width(line + ch, size) > width and ch not in "、。）」：":
                lines.append(line)
                line = ""
            line += ch
        return [*lines, line] if line else lines
    line = ""
    for word in text.split(" "):
        candidate = f"{line} {word}" if line else word
        if line and b.text_width(candidate, size) > width:
            lines.append(line)
            line = word
        else:
            line = candidate
    return [*lines, line] if line else lines


def ranks(rows: Sequence[tuple[str, str, int | None]], winners: Sequence[str]) -> list[int]:
    """Each row's place: every winner 1st (two winners of a tie are both
    1st), the others by their row, equal figures sharing a place — the
    settlement where the game has one (the places the result's words, the
    ratings and a tournament's place points use: two Six Dice losers who
    pay the same chips share 2nd, whatever their points), else the main
    figure."""
    out: list[int] = []
    prev: tuple[Any, ...] | None = None
    for i, (p, main, s) in enumerate(rows):
        key: tuple[Any, ...] = ("won",) if p in winners else ((s,) if s is not None else (main,))
        out.append(out[-1] if key == prev and out else i + 1)
        prev = key
    return out


def _winners(view: dict[str, Any], outcome: dict[str, Any]) -> list[str]:
    if outcome.get("winners"):
        return list(outcome["winners"])
    return [outcome["winner"]] if outcome.get("winner") else []


def result(
    view: dict[str, Any],
    outcome: dict[str, Any],
    lang: str,
    rows: list[tuple[str, str, int | None]],
    history: list[dict[str, int]] | None = None,
    *,
    notes: Mapping[str, str] | None = None,
    legend: str = "",
    words: Mapping[str, str] | None = None,
) -> tuple[Image.Image, str]:
    """The result picture: ``rows`` (player, main figure, settlement in
    chips), best first, from the game's plugin; ``notes`` (why, by player)
    in small print under each name; ``legend`` at the bottom; ``words`` (a
    player's figures in words, by player) for the alt text; a chart when
    ``history`` is given."""
    game = view["game"]
    notes = notes or {}
    chart = bool(history)
    width = b.WIDTH - 20 - LEFT
    note_lines = {
        p: wrap(b.safe_text(notes[p]), b.SMALL, width, lang)[:NOTE_LINES]
        for p, _, _ in rows
        if notes.get(p)
    }
    for p, lines in note_lines.items():  # a note cut short ends with …
        full = wrap(b.safe_text(notes[p]), b.SMALL, width, lang)
        if len(full) > len(lines):
            lines[-1] = b.fit(lines[-1] + "…", b.SMALL, width)
    legend_lines = wrap(legend, b.SMALL, b.WIDTH - 32, lang)
    heights = [ROW + NOTE_LINE * len(note_lines.get(p, [])) for p, _, _ in rows]
    height = 96 + sum(heights) + 8
    if legend_lines:
        height += 10 + LEGEND_LINE * len(legend_lines)
    if chart:
        height += CHART_H + 50
    height += 12
    img = b.canvas(height)
    d = ImageDraw.Draw(img)
    title = tr(lang, "result_title", game=tr(lang, game))  # 「ヤッツィーの結果」: no dash by ー
    b.draw_text(d, (16, 12), title, b.LARGE, b.INK, bold=True)
    winners = _winners(view, outcome)
    if winners:
        shown = [b.safe_text(b.who(view, w)) or b.NO_NAME for w in winners]
        b.draw_text(
            d, (16, 52), b.fit(winners_line(shown, lang), b.BODY, b.WIDTH - 32), b.BODY, b.HILITE
        )
    has_settle = any(s is not None for _, _, s in rows)
    colours = {
        p: b.PLAYER_COLOURS[i % len(b.PLAYER_COLOURS)] for i, p in enumerate(view["players"])
    }
    y = 92
    # column headers: what the main figure counts, and the chips settled
    # (a game that settles nothing has its figure at the right edge)
    fig_x = FIGURE_X if has_settle else b.WIDTH - 20
    b.draw_text(d, (fig_x, y - 12), tr(lang, f"figure.{game}"), b.SMALL, b.INK_DIM, anchor="rs")
    if has_settle:
        b.draw_text(
            d, (b.WIDTH - 20, y - 12), tr(lang, "settlement"), b.SMALL, b.INK_DIM, anchor="rs"
        )
    for (p, main, s), h, rank in zip(rows, heights, ranks(rows, winners), strict=True):
        if p in winners:
            d.rounded_rectangle((10, y, b.WIDTH - 10, y + h - 4), 8, fill=b.WIN_ROW)
        mid = y + ROW / 2 - 2
        b.draw_text(d, (24, mid), str(rank), b.BODY, b.INK_DIM, anchor="lm")
        if chart:
            d.rectangle((52, y + 10, 62, y + 20), fill=colours[p])
        room = fig_x - LEFT - 16 - b.text_width(main, b.BODY)
        b.draw_text(
            d, (LEFT, mid), b.name(b.who(view, p), b.BODY, room), b.BODY, b.INK, anchor="lm"
        )
        b.draw_text(d, (fig_x, mid), main, b.BODY, b.INK, anchor="rm", bold=True)
        if s is not None:
            colour = b.GREEN if s > 0 else b.NEGATIVE if s < 0 else b.INK_DIM
            b.draw_text(d, (b.WIDTH - 20, mid), f"{s:+,}", b.BODY, colour, anchor="rm", bold=True)
        for i, line in enumerate(note_lines.get(p, [])):
            b.draw_text(d, (LEFT, y + ROW - 6 + NOTE_LINE * i), line, b.SMALL, b.INK_DIM)
        y += h
    y += 8
    if legend_lines:
        d.line((16, y, b.WIDTH - 16, y), fill=b.TABLE_EDGE, width=1)
        y += 10
        for line in legend_lines:
            b.draw_text(d, (16, y), line, b.SMALL, b.INK_DIM)
            y += LEGEND_LINE
    if chart and history:
        _chart(
            d,
            (20, y + 30, b.WIDTH - 20, y + 30 + CHART_H),
            history,
            list(view["players"]),
            colours,
            lang,
        )
    return img, _alt(view, lang, rows, winners, words or {}, notes, legend)


def _alt(
    view: dict[str, Any],
    lang: str,
    rows: list[tuple[str, str, int | None]],
    winners: list[str],
    words: Mapping[str, str],
    notes: Mapping[str, str],
    legend: str,
) -> str:
    game = view["game"]
    end = "." if lang == "en" else "。"
    parts = [tr(lang, "result_title", game=tr(lang, game)) + end]
    if winners:
        parts.append(winners_line([b.who(view, w) for w in winners], lang) + end)
    colon = "：" if lang == "ja" else ": "
    for p, main, s in rows:
        said = words.get(p)
        if said is None:  # no words given: the figure under its heading
            said = f"{tr(lang, f'figure.{game}')} {main}"
            if s is not None:
                said += f"{t('list.sep', lang)}{tr(lang, 'settlement')} {s:+,}"
            if notes.get(p):
                said += t("list.sep", lang) + notes[p]
        parts.append(f"{b.who(view, p)}{colon}{said}" + ("。" if lang == "ja" else ";"))
    if legend:
        parts.append(legend)
    return alt(parts, lang)


def _chart(
    d: ImageDraw.ImageDraw,
    box: tuple[int, int, int, int],
    history: list[dict[str, int]],
    players: list[str],
    colours: dict[str, b.Color],
    lang: str,
) -> None:
    x0, y0, x1, y1 = box
    b.draw_text(d, (x0, y0 - 24), tr(lang, "over_time"), b.SMALL, b.INK_DIM)
    d.rectangle(box, fill=b.PANEL)
    values = [v for snap in history for v in snap.values()] + [0]
    lo, hi = min(values), max(values)
    if hi == lo:
        hi = lo + 1
    left = x0 + 56

    def sy(v: float) -> float:
        return y1 - 10 - (v - lo) / (hi - lo) * (y1 - y0 - 20)

    for v in {lo, hi, 0}:
        yy = sy(v)
        d.line((left, yy, x1 - 6, yy), fill=b.TABLE_EDGE, width=1)
        b.draw_text(
            d,
            (left - 6, yy),
            f"{v:,}",
            b.SMALL - 3 if abs(v) >= 10000 else b.SMALL,
            b.INK_DIM,
            anchor="rm",
        )
    n = len(history)
    step = (x1 - 6 - left) / max(1, n - 1) if n > 1 else 0

    for p in players:
        pts = [(left + step * i, sy(snap.get(p, 0))) for i, snap in enumerate(history)]
        if len(pts) == 1:
            px, py = pts[0]
            d.ellipse((px - 3, py - 3, px + 3, py + 3), fill=colours[p])
        else:
            d.line(pts, fill=colours[p], width=3, joint="curve")
