"""Yahtzee (ヤッツィー): the current dice with keep marks and a score sheet
with a column per player (three with ``triple``): upper section, progress
toward the 63-point bonus, lower section, totals; the turn holder's possible
scores are pencilled into their empty boxes."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from PIL import Image

from bot import caches
from bot.i18n import t
from bot.render import _base as b
from bot.render._dice import blank_die, paste_die
from bot.render._strings import alt, comma, marked_name, seat_mark, tr
from bot.render.result import winners_line
from games.yahtzee.scoring import LOWER, UPPER

# Potential scores pencilled into the turn holder's empty boxes: blue, and a
# zero a muted blue-grey that still reads (≥ 3:1 against the column's
# highlight and the paper; tests/render/test_yahtzee_sheet.py checks it).
PENCIL: b.Color = (30, 100, 210)
PENCIL_ZERO: b.Color = (100, 125, 180)
TURN_COLUMN: b.Color = (255, 240, 196)
BONUS_GREEN: b.Color = (20, 140, 60)
BAR_AMBER: b.Color = (200, 150, 40)
BONUS_AMBER: b.Color = (150, 96, 10)  # "63 to go": the bar's colour, dark enough to read
b.KEY_COLOURS.extend([PENCIL, PENCIL_ZERO, TURN_COLUMN, BONUS_AMBER])

HEADER = 112
ROW = 26
LABEL_W = 150  # at least; wider when a box name needs it


def _label(lang: str, key: str) -> str:
    """A row of the sheet: a box by the name the box menu and ``/rules`` use
    (``yahtzee.box.*``), the other rows from the picture words (``pic.*``)."""
    if key in UPPER or key in LOWER:
        return t(f"yahtzee.box.{key}", lang)
    return tr(lang, key)


@lru_cache(maxsize=8)
def label_width(lang: str) -> int:
    """The label column: room for the longest row name (a die icon before
    the upper boxes), never narrower than :data:`LABEL_W`."""
    widest = max(
        [b.text_width(_label(lang, k), b.SMALL) + 26 for k in UPPER]
        + [b.text_width(_label(lang, k), b.SMALL) for k in LOWER]
        + [b.text_width(_label(lang, k), b.SMALL) + 2 for k in ("upper_total", "bonus_63")]
        + [b.text_width(_label(lang, k), b.SMALL) for k in ("yahtzee_bonus", "to_bonus")]
    )
    return max(LABEL_W, widest + 14)


def _small(text: str, width: int) -> tuple[str, int]:
    """``text`` at the small size, or a size smaller when the column is
    narrow (eight players), shortened with … only as a last resort."""
    for size in (b.SMALL, b.SMALL - 3):
        if b.text_width(text, size) <= width:
            return text, size
    return b.fit(text, b.SMALL - 3, width), b.SMALL - 3


def _layout(
    top: int, ncol: int
) -> tuple[list[tuple[str, int, bool, int]], list[tuple[int, bool]], int]:
    """A sheet's rows that have a name: (key, top, bold, die icon); its
    rules: (y, thick), in the order they are drawn; and its bottom."""
    y = top + ROW * (2 if ncol > 1 else 1)  # the names (and factors with triple)
    names: list[tuple[str, int, bool, int]] = []
    rules: list[tuple[int, bool]] = [(y, True)]

    def add(key: str, bold: bool = False, icon: int = 0, thick: bool = False) -> None:
        nonlocal y
        names.append((key, y, bold, icon))
        y += ROW
        rules.append((y, False))
        if thick:
            rules.append((y, True))

    for k, box in enumerate(UPPER):
        add(box, icon=k + 1)
    add("upper_total", bold=True)
    add("bonus", bold=True, thick=True)
    for box in LOWER:
        add(box)
    add("yahtzee_bonus", thick=True)
    add("total", bold=True)
    if ncol > 1:
        names.append(("grand_total", y, True, 0))
        y += ROW
    return names, rules, y


@caches.sized("render.yahtzee_sheets", 8 << 20)
def _sheets(
    lang: str, width: int, height: int, tops: tuple[int, ...], ncol: int, label_w: int
) -> Image.Image:
    """The table with its empty sheets: paper, row names, die icons and
    rules — the same for every picture of a layout and language (kept; the
    bonus row's name depends on the columns and is drawn with them)."""
    img = b.canvas(height, width, rgb=True)
    d = b.draw(img)
    rows = 1 + 6 + 2 + 7 + 2 + (2 if ncol > 1 else 0)
    x0, x1, lx = 10, width - 10, 18
    for top in tops:
        d.rounded_rectangle((x0, top - 4, x1, top + ROW * rows + 8), 8, fill=b.PAPER)
        names, rules, _end = _layout(top, ncol)
        for key, y, bold, icon in names:
            if key == "bonus":
                continue
            if key == "grand_total":
                label = tr(lang, "grand_total")
                b.draw_text(d, (lx, y + ROW / 2), label, b.SMALL, b.RED, anchor="lm", bold=True)
            elif icon:
                paste_die(img, icon, 20, (lx + 10, y + ROW / 2))
                label = _label(lang, key)
                b.draw_text(d, (lx + 26, y + ROW / 2), label, b.SMALL, b.PAPER_INK, anchor="lm")
            else:
                label = _label(lang, key)
                b.draw_text(
                    d, (lx, y + ROW / 2), label, b.SMALL, b.PAPER_INK, anchor="lm", bold=bold
                )
        for y, thick in rules:
            if thick:
                d.line((x0, y, x1, y), fill=b.PAPER_INK, width=2)
            else:
                d.line((x0 + 4, y, x1 - 4, y), fill=b.PAPER_LINE, width=1)
    return img


def table(view: dict[str, Any], lang: str) -> tuple[Image.Image, str]:
    players: list[str] = list(view.get("order") or view["players"])
    sheets: dict[str, list[dict[str, Any]]] = view["sheets"]
    ncol = len(sheets[players[0]]) if players else 1
    label_w = label_width(lang)
    room = b.WIDTH - label_w - 30
    # Triple with more than three players: the sheet is split into bands of
    # three players, one under the other, so that the picture stays 640 wide
    per_band = 3 if ncol > 1 else max(1, len(players))
    bands = [players[i : i + per_band] for i in range(0, len(players), per_band)] or [[]]
    if ncol == 1:
        col_w = min(120, room // max(1, len(players)))
    else:
        col_w = max(46, min(64, room // (ncol * len(bands[0]))))
    pw = col_w * ncol
    width = max(b.WIDTH, label_w + 20 + pw * len(bands[0]) + 10)
    rows = 1 + 6 + 2 + 7 + 2 + (2 if ncol > 1 else 0)
    band_h = ROW * rows + 16
    height = HEADER + band_h * len(bands)
    img = b.layer(
        _sheets(
            lang,
            width,
            height,
            tuple(HEADER + k * band_h for k in range(len(bands))),
            ncol,
            label_w,
        )
    )
    d = b.draw(img)
    turn = view.get("turn")
    gone = set(view.get("seat_marks") or {})  # seats out of the game: their column greyed
    # header: title, whose turn, round, the dice with keep marks
    b.draw_text(d, (16, 10), tr(lang, "yahtzee"), b.LARGE, b.INK, bold=True)
    dice: list[int] = list(view.get("dice") or [])
    kept: list[bool] = list(view.get("kept") or [False] * 5)
    dx = width - 16 - 5 * 62
    room_left = dx - 16 - 16  # the header's text stops short of the dice
    if view.get("finished"):
        winners = view.get("winners") or _winners(view)
        # "alice and carol win" (「aliceとcarolの勝ち」), never "alice・carol wins"
        names = [b.safe_text(b.who(view, w)) or b.NO_NAME for w in winners]
        sub = (
            b.fit(winners_line(names, lang), b.BODY, room_left)
            if winners
            else tr(lang, "game_over")
        )
        b.draw_text(d, (16, 46), sub, b.BODY, b.HILITE)
    elif turn:
        room = room_left - b.text_width(tr(lang, "turn", player=""), b.BODY)
        b.draw_text(
            d,
            (16, 46),
            tr(lang, "turn", player=b.name(b.who(view, turn), b.BODY, room)),
            b.BODY,
            b.INK_DIM,
        )
        line = tr(lang, "round", n=view.get("round", 1), of=view.get("rounds", 13))
        b.draw_text(d, (16, 76), line, b.SMALL, b.INK_DIM)
        if dice:
            b.draw_text(
                d,
                (16 + b.text_width(line, b.SMALL) + 18, 76),
                tr(lang, "rolls_left", n=view.get("rolls_left", 0)),
                b.SMALL,
                b.INK,
            )
    for k in range(5):
        at = (dx + 31 + 62 * k, 44)
        if k < len(dice):
            paste_die(img, dice[k], 54, at, "kept" if kept[k] else "normal")
            if kept[k]:
                b.draw_text(d, (at[0], 82), tr(lang, "keep"), b.SMALL, b.GOLD, anchor="ma")
        else:
            blank_die(d, at, 54, b.TABLE_EDGE)

    def sheet(band: list[str], top: int) -> None:
        """One paper sheet's columns of ``band`` (the paper, the row names
        and the rules are the kept layer's: :func:`_sheets`)."""
        bottom = top + ROW * rows + 8
        x0, x1 = 10, width - 10
        names, rules, end = _layout(top, ncol)
        at = {key: y for key, y, _bold, _icon in names}
        potential: dict[tuple[str, int | None], int] = {}
        for p in view.get("potential") or []:
            potential[(p["box"], p.get("column"))] = int(
                p["points"] if ncol > 1 else p["score"] + p.get("bonus", 0)
            )
        lx = 18
        cx0 = label_w + 20
        y = top
        # name row (and factor row for triple)
        for i, p in enumerate(band):
            px = cx0 + pw * i
            if p == turn:
                d.rectangle((px, top - 4, px + pw, bottom), fill=TURN_COLUMN)
                for ry, thick in rules:  # the rules across the column, over its highlight
                    inset = 0 if thick else 4
                    d.line(
                        (max(px, x0 + inset), ry, min(px + pw, x1 - inset), ry),
                        fill=b.PAPER_INK if thick else b.PAPER_LINE,
                        width=2 if thick else 1,
                    )
            b.draw_text(
                d,
                (px + pw / 2, y + ROW / 2),
                marked_name(view, p, lang, b.SMALL, pw - 6),
                b.SMALL,
                b.PAPER_DIM if p in gone else b.PAPER_INK,  # a seat out of the game: greyed
                anchor="mm",
                bold=p == turn,
            )
            if ncol > 1:
                for c in range(ncol):
                    b.draw_text(
                        d,
                        (px + col_w * c + col_w / 2, y + ROW + ROW / 2),
                        f"×{c + 1}",
                        b.SMALL,
                        b.PAPER_DIM,
                        anchor="mm",
                    )

        def row(key: str, values: list[tuple[str, b.Color, bool]]) -> None:
            """Each column's value in a row (shrunk to fit)."""
            y = at[key]
            for k, (text, colour, bold) in enumerate(values):
                shown, size = _small(text, col_w - 6)
                b.draw_text(
                    d,
                    (cx0 + col_w * k + col_w / 2, y + ROW / 2),
                    shown,
                    size,
                    colour,
                    anchor="mm",
                    bold=bold,
                )

        def box_values(box: str) -> list[tuple[str, b.Color, bool]]:
            out = []
            for p in band:
                for c, col in enumerate(sheets[p]):
                    v = col["boxes"].get(box)
                    if v is not None:
                        out.append((str(v), b.PAPER_DIM if p in gone else b.PAPER_INK, False))
                    elif p == turn and (box, c + 1 if ncol > 1 else None) in potential:
                        pv = potential[(box, c + 1 if ncol > 1 else None)]
                        out.append((str(pv), PENCIL if pv else PENCIL_ZERO, False))
                    else:
                        out.append(("", b.PAPER_INK, False))
            return out

        for box in UPPER:
            row(box, box_values(box))
        cols = [col for pl in band for col in sheets[pl]]
        subtotals: list[tuple[str, b.Color, bool]] = []
        bonus: list[tuple[str, b.Color, bool]] = []
        to_go: list[int] = []  # the cells still short of 63 (their index)
        for p in band:
            ink = b.PAPER_DIM if p in gone else b.PAPER_INK
            for col in sheets[p]:
                subtotals.append((str(col["upper_subtotal"]), ink, False))
                if col["upper_bonus"]:
                    bonus.append((str(col["upper_bonus"]), BONUS_GREEN, True))
                elif all(col["boxes"].get(u) is not None for u in UPPER):
                    bonus.append(("0", ink, False))
                else:  # progress toward 63, never a sign that reads as a penalty
                    to_go.append(len(bonus))
                    bonus.append((tr(lang, "to_go", n=col["upper_needed"]), BONUS_AMBER, False))
        bonus_label = _label(lang, "bonus_63")
        if any(b.text_width(bonus[k][0], b.SMALL - 3) > col_w - 6 for k in to_go):
            # narrow columns: the row says "to the bonus", the cells the points
            bonus_label = tr(lang, "to_bonus")
            for k in to_go:
                bonus[k] = (str(cols[k]["upper_needed"]), BONUS_AMBER, False)
        row("upper_total", subtotals)
        # bonus progress bars under the numbers
        y = at["bonus"]
        for k, col in enumerate(cols):
            bx = cx0 + col_w * k + 6
            frac = min(1.0, col["upper_subtotal"] / 63)
            d.rectangle((bx, y + ROW - 6, bx + col_w - 12, y + ROW - 3), fill=(225, 216, 196))
            if frac:
                d.rectangle(
                    (bx, y + ROW - 6, bx + (col_w - 12) * frac, y + ROW - 3),
                    fill=BONUS_GREEN if frac >= 1 else BAR_AMBER,
                )
        b.draw_text(d, (lx, y + ROW / 2), bonus_label, b.SMALL, b.PAPER_INK, anchor="lm", bold=True)
        row("bonus", bonus)
        for box in LOWER:
            row(box, box_values(box))
        yb = [
            (str(col["yahtzee_bonus"]) if col["yahtzee_bonus"] else "", b.PAPER_INK, False)
            for p in band
            for col in sheets[p]
        ]
        row("yahtzee_bonus", yb)
        tot = [
            (str(col["points"]), b.PAPER_DIM if p in gone else b.PAPER_INK, True)
            for p in band
            for col in sheets[p]
        ]
        row("total", tot)
        if ncol > 1:
            totals: dict[str, int] = view.get("totals", {})
            y = at["grand_total"]
            for i, p in enumerate(band):
                px = cx0 + pw * i
                b.draw_text(
                    d,
                    (px + pw / 2, y + ROW / 2),
                    str(totals.get(p, 0)),
                    b.BODY,
                    b.RED,
                    anchor="mm",
                    bold=True,
                )
        # column separators between players
        for i in range(1, len(band)):
            px = cx0 + pw * i
            d.line((px, top, px, end), fill=b.PAPER_DIM, width=2)
        d.line((cx0, top, cx0, end), fill=b.PAPER_DIM, width=2)

    for k, band in enumerate(bands):
        sheet(band, HEADER + k * band_h)
    return img, _alt(view, lang)


def _winners(view: dict[str, Any]) -> list[str]:
    totals: dict[str, int] = view.get("totals", {})
    if not totals:
        return []
    best = max(totals.values())
    return [p for p in view["players"] if totals.get(p) == best]


def _alt(view: dict[str, Any], lang: str) -> str:
    end = "." if lang == "en" else "。"
    parts = [tr(lang, "yahtzee") + end]
    turn = view.get("turn")
    if view.get("finished"):
        w = _winners(view)
        if w:
            parts.append(winners_line([b.who(view, p) for p in w], lang) + end)
    elif turn:
        parts.append(
            tr(lang, "turn", player=b.who(view, turn))
            + comma(lang)
            + tr(lang, "round", n=view.get("round", 1), of=view.get("rounds", 13))
            + end
        )
        dice = view.get("dice") or []
        if dice:
            kept = view.get("kept") or []
            shown = " ".join(
                f"{v}*" if k < len(kept) and kept[k] else str(v) for k, v in enumerate(dice)
            )
            parts.append(tr(lang, "rolled_plain", player=b.who(view, turn), dice=shown) + end)
    for p in view.get("order") or view["players"]:
        parts.append(
            f"{b.who(view, p)}{seat_mark(view, p, lang)} {view.get('totals', {}).get(p, 0)}"
            + (";" if lang == "en" else "。")
        )
    return alt(parts, lang)


caches.lru("render.yahtzee_labels", label_width)
