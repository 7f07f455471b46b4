"""Nine (ナイン): every player's row of cards 1–9, tokens, the last roll and
who is finished and how."""

from __future__ import annotations

from typing import Any

from PIL import Image

from bot import caches
from bot.render import _base as b
from bot.render._dice import paste_die
from bot.render._strings import alt, colon, comma, seat_mark, tr

CARD_W, CARD_H = 36, 50
HEADER = 92
ROW = 62
STATUS_COLOURS: dict[str, b.Color] = {
    "agari": b.GREEN,
    "dobon": (230, 90, 80),
    "one_dobon": (230, 90, 80),
    "forfeit": (160, 150, 140),
}


@caches.sized("render.nine_cards", 1 << 20)  # 18 at most (7 KB each)
def card(value: int, up: bool) -> Image.Image:
    """A Nine card: the value on cream, or the back (face down)."""
    f = 3
    img, d = b.supersampled((CARD_W, CARD_H), f)
    box = (f, f, CARD_W * f - f, CARD_H * f - f)
    if up:
        d.rounded_rectangle(box, 5 * f, fill=(252, 248, 236), outline=(120, 100, 80), width=f)
        d.text(
            (CARD_W * f / 2, CARD_H * f / 2),
            str(value),
            font=b.font(30 * f),
            fill=b.PAPER_INK if value != 1 else (190, 30, 30),
            anchor="mm",
        )
    else:
        d.rounded_rectangle(box, 5 * f, fill=(128, 36, 40), outline=(70, 20, 22), width=f)
        inner = (5 * f, 5 * f, CARD_W * f - 5 * f, CARD_H * f - 5 * f)
        d.rounded_rectangle(inner, 3 * f, outline=(190, 120, 100), width=f)
        d.text(
            (CARD_W * f / 2, CARD_H * f / 2),
            str(value),
            font=b.font(16 * f),
            fill=(170, 90, 84),
            anchor="mm",
        )
    return b.shrink(img, (CARD_W, CARD_H))


ROW_SIZE = (9 * (CARD_W + 3) - 3, CARD_H)


def cards_row(up: tuple[bool, ...]) -> Image.Image:
    """A player's row of cards 1–9 (``up``: each face up or down), one
    sprite: the cards side by side, as each would be pasted. Not kept: on a
    kind's palette its mapped piece is (:func:`bot.render._canvas.paste_made`),
    and drawing it again costs less than keeping 512 of 70 KB."""
    row = Image.new("RGBA", ROW_SIZE, (0, 0, 0, 0))
    for c, face_up in enumerate(up):
        row.paste(card(c + 1, face_up), (c * (CARD_W + 3), 0))  # apart: copied as they are
    return row


def table(view: dict[str, Any], lang: str) -> tuple[Image.Image, str]:
    players: list[str] = list(view.get("order") or view["players"])
    img = b.canvas(HEADER + ROW * len(players) + 12)
    d = b.draw(img)
    b.draw_text(d, (16, 12), tr(lang, "nine"), b.LARGE, b.INK, bold=True)
    turn = view.get("turn")
    winner = view.get("winner")
    if view.get("finished"):
        sub = (
            tr(lang, "wins", player=b.name(b.who(view, winner or ""), b.BODY, 260))
            if winner
            else tr(lang, "game_over")
        )
        b.draw_text(d, (16, 50), sub, b.BODY, b.HILITE)
    elif turn:
        b.draw_text(
            d,
            (16, 50),
            tr(lang, "turn", player=b.name(b.who(view, turn), b.BODY, 260)),
            b.BODY,
            b.INK_DIM,
        )
    last = view.get("last_roll")
    if last:
        dice = list(last["dice"])
        paste_die(img, dice[0], 54, (466, 46))
        paste_die(img, dice[1], 54, (528, 46))
        b.draw_text(d, (592, 46), f"={last['total']}", b.LARGE, b.INK, anchor="mm", bold=True)
        who = b.name(b.who(view, last["player"]), b.SMALL, 150)
        b.draw_text(d, (430, 46), who, b.SMALL, b.INK_DIM, anchor="rm")
        if last.get("doubles"):
            b.draw_text(d, (497, 82), tr(lang, "doubles"), b.SMALL, b.HILITE, anchor="ms")
    cards: dict[str, list[bool]] = view["cards"]
    tokens: dict[str, int] = view.get("tokens", {})
    status: dict[str, str | None] = view.get("status", {})
    remaining: dict[str, int] = view.get("remaining", {})
    multiplier: dict[str, int] = view.get("multiplier", {})
    for i, p in enumerate(players):
        y = HEADER + ROW * i
        if p == turn and not view.get("finished"):
            d.rounded_rectangle((6, y + 1, b.WIDTH - 7, y + ROW - 3), 8, fill=(104, 74, 52))
            d.polygon([(8, y + 20), (18, y + 29), (8, y + 38)], fill=b.HILITE)
        elif p == winner:
            d.rounded_rectangle((6, y + 1, b.WIDTH - 7, y + ROW - 3), 8, fill=(60, 92, 60))
        st = status.get(p)
        below = bool(st or tokens.get(p, 0))
        nm = b.name(b.who(view, p), b.BODY, 136)
        ink = b.INK_DIM if seat_mark(view, p, lang) else b.INK  # a seat out of the game
        if below:
            b.draw_text(d, (24, y + 6), nm, b.BODY, ink)
        else:
            b.draw_text(d, (24, y + ROW / 2 - 2), nm, b.BODY, ink, anchor="lm")
        if st:
            b.pill(d, (24, y + 32), tr(lang, st), b.SMALL - 2, STATUS_COLOURS.get(st, b.INK_DIM))
        n = tokens.get(p, 0)
        if n:
            x0 = 24 if not st else 24 + b.text_width(tr(lang, st), b.SMALL - 2) + b.SMALL + 6
            for k in range(min(n, 3)):
                b.coin(d, (x0 + 10 + k * 14, y + 44), 9)
            if n > 3:
                b.draw_text(d, (x0 + 10 + 3 * 14, y + 44), f"×{n}", b.SMALL, b.GOLD, anchor="lm")
        up = tuple(bool(up) for up in cards[p])
        b.paste_made(img, lambda up=up: cards_row(up), ROW_SIZE, ("nine-row", up), (164, y + 5))
        b.draw_text(
            d, (548, y + 28), str(remaining.get(p, 0)), b.LARGE, b.INK, anchor="mm", bold=True
        )
        m = multiplier.get(p, 1)
        if m > 1:
            b.draw_text(d, (606, y + 28), f"×{m}", b.BODY, b.GREEN, anchor="mm", bold=True)
    return img, _alt(view, lang)


def _alt(view: dict[str, Any], lang: str) -> str:
    parts = [tr(lang, "nine") + ("." if lang == "en" else "。")]
    last = view.get("last_roll")
    if last:
        dice = " ".join(str(x) for x in last["dice"])
        parts.append(
            tr(lang, "rolled", player=b.who(view, last["player"]), dice=dice, total=last["total"])
            + ("." if lang == "en" else "。")
        )
    if view.get("finished") and view.get("winner"):
        parts.append(
            tr(lang, "wins", player=b.who(view, view["winner"])) + ("." if lang == "en" else "。")
        )
    elif view.get("turn"):
        parts.append(
            tr(lang, "turn", player=b.who(view, view["turn"])) + ("." if lang == "en" else "。")
        )
    for p in view.get("order") or view["players"]:
        up = " ".join(str(c) for c in view["up"][p]) or "-"
        total = view["remaining"][p]
        sums = f"（計{total}）" if lang == "ja" else f" (= {total})"
        bits = f"{b.who(view, p)}{seat_mark(view, p, lang)}{colon(lang)}{up}{sums}"
        if view["tokens"].get(p):
            bits += f"{comma(lang)}{tr(lang, 'tokens')} {view['tokens'][p]}"
        said = view["status"].get(p) == "forfeit" and seat_mark(view, p, lang)
        if view["status"].get(p) and not said:  # "carol (left): …" says it once
            bits += f"{comma(lang)}{tr(lang, view['status'][p])}"
        parts.append(bits + (";" if lang == "en" else "。"))
    return alt(parts, lang)
