"""Yahtzee (ヤッツィー): the current dice with keep marks and a score sheet
with a column per player (three with ``triple``): upper section, progress
toward the 63-point bonus, lower section, totals; the turn holder's possible
scores are pencilled into their empty boxes."""

from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw

from bot.render import _base as b
from bot.render._dice import blank_die, paste_die
from bot.render._strings import alt, tr
from games.yahtzee.scoring import LOWER, UPPER

LABELS: dict[str, dict[str, str]] = {
    "en": {
        "ones": "Ones",
        "twos": "Twos",
        "threes": "Threes",
        "fours": "Fours",
        "fives": "Fives",
        "sixes": "Sixes",
        "three_kind": "3 of a kind",
        "four_kind": "4 of a kind",
        "full_house": "Full house",
        "small_straight": "Sm. straight",
        "large_straight": "Lg. straight",
        "yahtzee": "Yahtzee",
        "chance": "Chance",
        "upper": "Upper total",
        "bonus": "Bonus (63+)",
        "ybonus": "Yahtzee bonus",
        "total": "Total",
        "keep": "keep",
        "rolls_left": "rolls left: {n}",
    },
    "ja": {
        "ones": "1の目",
        "twos": "2の目",
        "threes": "3の目",
        "fours": "4の目",
        "fives": "5の目",
        "sixes": "6の目",
        "three_kind": "スリーダイス",
        "four_kind": "フォーダイス",
        "full_house": "フルハウス",
        "small_straight": "S.ストレート",
        "large_straight": "B.ストレート",
        "yahtzee": "ヤッツィー",
        "chance": "チャンス",
        "upper": "上段小計",
        "bonus": "ボーナス(63+)",
        "ybonus": "ヤッツィーB",
        "total": "合計",
        "keep": "キープ",
        "rolls_left": "残り {n} 回",
    },
}

HEADER = 112
ROW = 26
LABEL_W = 150


def _label(lang: str, key: str) -> str:
    return LABELS.get(lang, LABELS["en"])[key]


def table(view: dict[str, Any], lang: str) -> tuple[Image.Image, str]:
    players: list[str] = list(view.get("order") or view["players"])
    sheets: dict[str, list[dict[str, Any]]] = view["sheets"]
    ncol = len(sheets[players[0]]) if players else 1
    room = b.WIDTH - LABEL_W - 30
    # Triple with more than three players: the sheet is split into bands of
    # three players, one under the other, so that the picture stays 640 wide
    per_band = 3 if ncol > 1 else max(1, len(players))
    bands = [players[i : i + per_band] for i in range(0, len(players), per_band)] or [[]]
    if ncol == 1:
        col_w = max(58, min(120, room // max(1, len(players))))
    else:
        col_w = max(46, min(64, room // (ncol * len(bands[0]))))
    pw = col_w * ncol
    width = max(b.WIDTH, LABEL_W + 20 + pw * len(bands[0]) + 10)
    rows = 1 + 6 + 2 + 7 + 2 + (2 if ncol > 1 else 0)
    band_h = ROW * rows + 16
    height = HEADER + band_h * len(bands)
    img = b.canvas(height, width)
    d = ImageDraw.Draw(img)
    turn = view.get("turn")
    # header: title, whose turn, round, the dice with keep marks
    b.draw_text(d, (16, 10), tr(lang, "yahtzee"), b.LARGE, b.INK, bold=True)
    if view.get("finished"):
        winners = view.get("winners") or _winners(view)
        sub = (
            tr(lang, "wins", player=b.name("・".join(winners), b.BODY, 220))
            if winners
            else tr(lang, "game_over")
        )
        b.draw_text(d, (16, 46), sub, b.BODY, b.HILITE)
    elif turn:
        b.draw_text(
            d, (16, 46), tr(lang, "turn", player=b.name(turn, b.BODY, 220)), b.BODY, b.INK_DIM
        )
        b.draw_text(
            d,
            (16, 76),
            tr(lang, "round", n=view.get("round", 1), of=view.get("rounds", 13)),
            b.SMALL,
            b.INK_DIM,
        )
    dice: list[int] = list(view.get("dice") or [])
    kept: list[bool] = list(view.get("kept") or [False] * 5)
    dx = width - 16 - 5 * 62
    for k in range(5):
        at = (dx + 31 + 62 * k, 44)
        if k < len(dice):
            paste_die(img, dice[k], 54, at, "kept" if kept[k] else "normal")
            if kept[k]:
                b.draw_text(d, (at[0], 82), _label(lang, "keep"), b.SMALL, b.GOLD, anchor="ma")
        else:
            blank_die(d, at, 54, b.TABLE_EDGE)
    if not view.get("finished") and dice:
        b.draw_text(
            d,
            (dx - 12, 44),
            _label(lang, "rolls_left").format(n=view.get("rolls_left", 0)),
            b.SMALL,
            b.INK_DIM,
            anchor="rm",
        )

    def sheet(band: list[str], top: int) -> None:
        """One paper sheet with the label column and the columns of ``band``."""
        bottom = top + ROW * rows + 8
        x0, x1 = 10, width - 10
        d.rounded_rectangle((x0, top - 4, x1, bottom), 8, fill=b.PAPER)
        potential: dict[tuple[str, int | None], int] = {}
        for p in view.get("potential") or []:
            potential[(p["box"], p.get("column"))] = int(
                p["points"] if ncol > 1 else p["score"] + p.get("bonus", 0)
            )
        lx = 18
        cx0 = LABEL_W + 20
        y = top
        # name row (and factor row for triple)
        for i, p in enumerate(band):
            px = cx0 + pw * i
            if p == turn:
                d.rectangle((px, top - 4, px + pw, bottom), fill=(255, 240, 196))
            b.draw_text(
                d,
                (px + pw / 2, y + ROW / 2),
                b.name(p, b.SMALL, pw - 6),
                b.SMALL,
                b.PAPER_INK,
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
        y += ROW * (2 if ncol > 1 else 1)
        d.line((x0, y, x1, y), fill=b.PAPER_INK, width=2)

        def row(
            label: str, values: list[tuple[str, b.Color, bool]], dots: bool = False, icon: int = 0
        ) -> None:
            nonlocal y
            if icon:
                paste_die(img, icon, 20, (lx + 10, y + ROW / 2))
                b.draw_text(d, (lx + 26, y + ROW / 2), label, b.SMALL, b.PAPER_INK, anchor="lm")
            else:
                b.draw_text(
                    d, (lx, y + ROW / 2), label, b.SMALL, b.PAPER_INK, anchor="lm", bold=not dots
                )
            for k, (text, colour, bold) in enumerate(values):
                b.draw_text(
                    d,
                    (cx0 + col_w * k + col_w / 2, y + ROW / 2),
                    text,
                    b.SMALL,
                    colour,
                    anchor="mm",
                    bold=bold,
                )
            y += ROW
            d.line((x0 + 4, y, x1 - 4, y), fill=b.PAPER_LINE, width=1)

        def box_values(box: str) -> list[tuple[str, b.Color, bool]]:
            out = []
            for p in band:
                for c, col in enumerate(sheets[p]):
                    v = col["boxes"].get(box)
                    if v is not None:
                        out.append((str(v), b.PAPER_INK, False))
                    elif p == turn and (box, c + 1 if ncol > 1 else None) in potential:
                        pv = potential[(box, c + 1 if ncol > 1 else None)]
                        out.append((str(pv), (30, 100, 210) if pv else (190, 200, 220), False))
                    else:
                        out.append(("", b.PAPER_INK, False))
            return out

        for k, box in enumerate(UPPER):
            row(_label(lang, box), box_values(box), dots=True, icon=k + 1)
        subtotals: list[tuple[str, b.Color, bool]] = []
        bonus: list[tuple[str, b.Color, bool]] = []
        for p in band:
            for col in sheets[p]:
                subtotals.append((str(col["upper_subtotal"]), b.PAPER_INK, False))
                if col["upper_bonus"]:
                    bonus.append((str(col["upper_bonus"]), (20, 140, 60), True))
                elif all(col["boxes"].get(u) is not None for u in UPPER):
                    bonus.append(("0", b.PAPER_DIM, False))
                else:
                    bonus.append((f"-{col['upper_needed']}", b.PAPER_DIM, False))
        row(_label(lang, "upper"), subtotals)
        # bonus progress bars under the numbers
        for k, col in enumerate(col for pl in band for col in sheets[pl]):
            bx = cx0 + col_w * k + 6
            frac = min(1.0, col["upper_subtotal"] / 63)
            d.rectangle((bx, y + ROW - 6, bx + col_w - 12, y + ROW - 3), fill=(225, 216, 196))
            if frac:
                d.rectangle(
                    (bx, y + ROW - 6, bx + (col_w - 12) * frac, y + ROW - 3),
                    fill=(20, 140, 60) if frac >= 1 else (200, 150, 40),
                )
        row(_label(lang, "bonus"), bonus)
        d.line((x0, y, x1, y), fill=b.PAPER_INK, width=2)
        for box in LOWER:
            row(_label(lang, box), box_values(box), dots=True)
        yb = [
            (str(col["yahtzee_bonus"]) if col["yahtzee_bonus"] else "", b.PAPER_INK, False)
            for p in band
            for col in sheets[p]
        ]
        row(_label(lang, "ybonus"), yb, dots=True)
        d.line((x0, y, x1, y), fill=b.PAPER_INK, width=2)
        tot = [(str(col["points"]), b.PAPER_INK, True) for p in band for col in sheets[p]]
        row(_label(lang, "total"), tot)
        if ncol > 1:
            totals: dict[str, int] = view.get("totals", {})
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
            b.draw_text(
                d, (lx, y + ROW / 2), tr(lang, "total"), b.SMALL, b.RED, anchor="lm", bold=True
            )
            y += ROW
        # column separators between players
        for i in range(1, len(band)):
            px = cx0 + pw * i
            d.line((px, top, px, y), fill=b.PAPER_DIM, width=2)
        d.line((cx0, top, cx0, y), fill=b.PAPER_DIM, width=2)

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
            parts.append(tr(lang, "wins", player=", ".join(w)) + end)
    elif turn:
        parts.append(
            tr(lang, "turn", player=turn)
            + ", "
            + tr(lang, "round", n=view.get("round", 1), of=view.get("rounds", 13))
            + end
        )
        dice = view.get("dice") or []
        if dice:
            kept = view.get("kept") or []
            shown = " ".join(
                f"{v}*" if k < len(kept) and kept[k] else str(v) for k, v in enumerate(dice)
            )
            parts.append(tr(lang, "rolled_plain", player=turn, dice=shown) + end)
    for p in view.get("order") or view["players"]:
        parts.append(f"{p} {view.get('totals', {}).get(p, 0)}" + (";" if lang == "en" else "。"))
    return alt(parts, lang)
