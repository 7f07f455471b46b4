"""Six Dice (シックスダイス): a top view of the donburi bowl with the dice in
it, the dice set aside beside it, the turn total and every player's score
with a started mark; ブタ, ドボン and 振りきり get a stamp across the bowl."""

from __future__ import annotations

import math
import random
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from bot import caches
from bot.render import _base as b
from bot.render._dice import paste_die
from bot.render._strings import alt, colon, marked_name, seat_mark, tr

HEIGHT = 430
BOWL_C = (206, 222)
BOWL_R = 192
DIE = 50
PANEL_X = 412


@lru_cache(maxsize=1)
def bowl() -> Image.Image:
    """The donburi seen from above: white glaze, indigo rim band, a deep
    shaded well. Drawn once, supersampled."""
    f = 3
    size = BOWL_R * 2
    img, d = b.supersampled((size + 12, size + 12), f)
    c = (size + 12) * f / 2
    r = BOWL_R * f

    def circle(rad: float, **kw: Any) -> None:
        d.ellipse((c - rad, c - rad + 4 * f, c + rad, c + rad + 4 * f), **kw) if kw.pop(
            "shadow", False
        ) else d.ellipse((c - rad, c - rad, c + rad, c + rad), **kw)

    circle(r + 2 * f, fill=(0, 0, 0, 110), shadow=True)
    circle(r, fill=(244, 242, 236, 255), outline=(180, 176, 168, 255), width=2 * f)
    circle(r * 0.93, fill=(38, 64, 128, 255))  # indigo band on the rim
    circle(r * 0.885, fill=(244, 242, 236, 255))
    # 雷文-like ticks on the band
    for k in range(48):
        a = 2 * math.pi * k / 48
        x0, y0 = c + math.cos(a) * r * 0.89, c + math.sin(a) * r * 0.89
        x1, y1 = c + math.cos(a) * r * 0.925, c + math.sin(a) * r * 0.925
        d.line((x0, y0, x1, y1), fill=(244, 242, 236, 255), width=f)
    # the well: shades darker toward its centre
    steps = 24
    for k in range(steps):
        t = k / steps
        rad = r * (0.84 - 0.5 * t)
        shade = int(236 - 40 * t)
        circle(rad, fill=(shade, shade - 2, shade - 8, 255))
    return b.shrink(img, (size + 12, size + 12))


@caches.sized("render.sixdice_backgrounds", 6 << 20)
def _background(height: int) -> Image.Image:
    """The table with the empty bowl on it (copied for every picture)."""
    img = b.canvas(height, rgb=True)
    bw = bowl()
    img.paste(bw, (BOWL_C[0] - bw.width // 2, BOWL_C[1] - bw.height // 2), bw)
    return img


def _slots(n: int, seed: int) -> list[tuple[float, float, int]]:
    """Where ``n`` dice lie in the bowl: jittered hexagonal slots, the same
    for the same roll (a pure function of the roll number)."""
    rng = random.Random(seed * 7919 + n)
    base = [(0.0, -20.0)] + [
        (78 * math.cos(k * 1.0472 + 0.5), 78 * math.sin(k * 1.0472 + 0.5) - 20) for k in range(6)
    ]
    picks = rng.sample(range(7), n) if n <= 7 else list(range(n))
    out = []
    for i in picks:
        x, y = base[i]
        out.append(
            (
                BOWL_C[0] + x + rng.uniform(-10, 10),
                BOWL_C[1] + y + rng.uniform(-10, 10),
                rng.randrange(-40, 41, 5),
            )
        )
    return out


STAMP_WIDTH = 330  # px the stamp's word may take (the bowl is about 400 wide)


def _stamp(img: Image.Image, text: str, colour: b.Color, whose: str = "") -> None:
    """A tilted hanko-style stamp across the bowl; ``whose`` (a name, already
    drawable) on a second line says whose roll it was."""
    layer = _stamp_layer(text, colour, whose, b.emoji_drawn())
    at = (round(BOWL_C[0] - layer.width / 2), round(BOWL_C[1] + 100 - layer.height / 2))
    b.paste(img, layer, at)


@caches.sized("render.sixdice_stamps", 3 << 20)
def _stamp_layer(text: str, colour: b.Color, whose: str, _emoji: bool) -> Image.Image:
    """The stamp, tilted (kept: the same stamp stays on the table a while)."""
    size = 64 if len(text) <= 5 else 44
    while size > 28 and b.text_width(text, size) > STAMP_WIDTH:  # the bowl holds it
        size -= 2  # a term with its gloss: 振りきり (hot dice)!
    small = b.BODY
    whose = b.fit(whose, small, 300) if whose else ""
    w = max(b.text_width(text, size), b.text_width(whose, small) if whose else 0) + 40
    h = size + 34 + (small + 8 if whose else 0)
    layer = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    d = ImageDraw.Draw(layer)
    d.rounded_rectangle(
        (3, 3, w - 4, h - 4), 14, fill=(255, 250, 240, 225), outline=colour + (255,), width=6
    )
    b.draw_text(d, (w / 2, 17 + size / 2), text, size, colour, anchor="mm", bold=True)
    if whose:
        b.draw_text(d, (w / 2, h - 14 - small / 2), whose, small, colour, anchor="mm")
    return layer.rotate(12, resample=Image.Resampling.BICUBIC, expand=True)


def _remove(dice: list[int], taken: list[int]) -> list[int]:
    rest = list(dice)
    for t in taken:
        if t in rest:
            rest.remove(t)
    return rest


def table(view: dict[str, Any], lang: str) -> tuple[Image.Image, str]:
    players: list[str] = list(view.get("order") or view["players"])
    height = max(HEIGHT, 236 + 32 * len(players) + 12)
    img = b.layer(_background(height))
    d = b.draw(img)
    turn = view.get("turn_player")
    last = view.get("last_roll")
    roll = view.get("roll")
    set_aside: list[dict[str, Any]] = list(view.get("set_aside") or [])
    stamp: tuple[str, b.Color, str] | None = None
    in_bowl: list[int] = []
    style = "normal"
    caption = ""
    if roll:
        in_bowl = list(roll)
    elif (
        last
        and last.get("player") == turn
        and last.get("result") == "score"
        and not view.get("hot_dice")
    ):
        taken = set_aside[-1]["dice"] if set_aside else []
        in_bowl = _remove(list(last["dice"]), list(taken))
        style = "aside"  # left in the bowl, waiting for roll or stop
    elif last and last.get("result") in ("dobon", "buta", "shonben", "gucchon"):
        in_bowl = list(last["dice"])
        result = last["result"]
        whose = b.name(b.who(view, last["player"]), b.BODY, 300)
        caption = whose if result in ("shonben", "gucchon") else ""
        if result == "dobon":
            stamp = (tr(lang, "dobon"), (40, 90, 200), whose)
        else:
            stamp = (tr(lang, "buta"), b.RED, whose)
    if view.get("hot_dice"):
        hot = b.name(b.who(view, turn), b.BODY, 300) if turn else ""
        stamp = (tr(lang, "hot_dice"), (200, 140, 0), hot)
    number = int(last["number"]) if last else 0
    slots = _slots(len(in_bowl), number)
    mishap = (
        last.get("result")
        if last and in_bowl and last.get("result") in ("shonben", "gucchon")
        else None
    )
    for k, face in enumerate(in_bowl):
        x, y, ang = slots[k] if k < len(slots) else (BOWL_C[0], BOWL_C[1], 0)
        if mishap == "shonben" and k == len(in_bowl) - 1:
            x, y = BOWL_C[0] + 150, BOWL_C[1] + 170  # jumped out of the bowl
        if mishap == "gucchon" and k == 1:
            x, y = slots[0][0] + 14, slots[0][1] - 16  # stacked on another die
        paste_die(img, face, DIE, (x, y), style, ang)
    if stamp:
        _stamp(img, *stamp)
    if caption:
        b.draw_text(d, (16, 14), caption, b.BODY, b.INK)
        if mishap:
            cx = 16 + b.text_width(caption, b.BODY) + 12
            b.pill(d, (cx, 12), b.fit(tr(lang, mishap), b.SMALL, 380 - cx), b.SMALL, b.HILITE)
    # right panel: title, whose turn, turn total, set-aside dice, scores
    x = PANEL_X
    b.draw_text(d, (x, 12), tr(lang, "sixdice"), b.LARGE, b.INK, bold=True)
    if view.get("finished"):
        who = view.get("winner")
        sub = (
            tr(lang, "wins", player=b.name(b.who(view, who), b.BODY, 160))
            if who
            else tr(lang, "game_over")
        )
        b.draw_text(d, (x, 48), sub, b.BODY, b.HILITE)
    elif turn:
        b.draw_text(
            d,
            (x, 48),
            tr(lang, "turn", player=b.name(b.who(view, turn), b.BODY, 170)),
            b.BODY,
            b.INK_DIM,
        )
    b.draw_text(d, (x, 84), tr(lang, "turn_total"), b.SMALL, b.INK_DIM)
    b.draw_text(
        d,
        (b.WIDTH - 18, 78),
        f"{view.get('turn_total', 0):,}",
        b.HUGE,
        b.HILITE,
        anchor="ra",
        bold=True,
    )
    # set-aside groups in a flowing row, points under each group
    gx, gy = x, 134
    for g in set_aside:
        n = len(g["dice"])
        if gx + n * 32 > b.WIDTH - 12:
            gx, gy = x, gy + 56
        for k, face in enumerate(g["dice"]):
            paste_die(img, face, 30, (gx + 15 + 32 * k, gy + 15), "kept")
        b.draw_text(d, (gx + n * 16, gy + 34), f"+{g['points']}", b.SMALL, b.INK, anchor="ma")
        gx += n * 32 + 8
    if not set_aside and not roll and not view.get("finished"):
        b.draw_text(
            d, (x, gy + 4), tr(lang, "to_roll", n=view.get("dice_left", 6)), b.SMALL, b.INK_DIM
        )
    sy = max(236, gy + 62)
    if view.get("ending") and not view.get("finished"):
        b.draw_text(d, (x, sy - 26), tr(lang, "final_round"), b.SMALL, b.HILITE)
    scores: dict[str, int] = view.get("scores", {})
    started: dict[str, bool] = view.get("started", {})
    gifts: dict[str, int] = view.get("gifts", {})
    left = set(view.get("forfeited") or [])
    for i, p in enumerate(players):
        y = sy + 32 * i
        if p == turn:
            d.rounded_rectangle((x - 8, y - 2, b.WIDTH - 8, y + 28), 6, fill=(104, 74, 52))
        mark_c = b.GREEN if started.get(p) else (150, 140, 130)
        if started.get(p):
            d.ellipse((x, y + 6, x + 14, y + 20), fill=mark_c)
        else:
            d.ellipse((x, y + 6, x + 14, y + 20), outline=mark_c, width=2)
        sc = scores.get(p, 0)
        ink = b.INK_DIM if p in left or seat_mark(view, p, lang) else b.INK
        # the name (and its mark) up to the score; before the 祝 mark, if any
        room = 90 if gifts.get(p) else b.WIDTH - 26 - b.text_width(f"{sc:,}", b.BODY) - (x + 20)
        nm = marked_name(view, p, lang, b.SMALL, room)
        b.draw_text(d, (x + 20, y + 13), nm, b.SMALL, ink, anchor="lm")
        if gifts.get(p):
            b.draw_text(d, (x + 114, y + 13), "祝", b.SMALL, b.GOLD, anchor="lm")
        b.draw_text(
            d,
            (b.WIDTH - 16, y + 13),
            f"{sc:,}",
            b.BODY,
            b.NEGATIVE if sc < 0 else ink,  # AA on the table (RED is 2.4:1)
            anchor="rm",
            bold=True,
        )
    return img, _alt(view, lang, in_bowl, stamp)


def _alt(
    view: dict[str, Any], lang: str, in_bowl: list[int], stamp: tuple[str, b.Color, str] | None
) -> str:
    end = "." if lang == "en" else "。"
    parts = [tr(lang, "sixdice") + end]
    turn = view.get("turn_player")
    last = view.get("last_roll")
    if view.get("finished") and view.get("winner"):
        parts.append(tr(lang, "wins", player=b.who(view, view["winner"])) + end)
    elif turn:
        parts.append(tr(lang, "turn", player=b.who(view, turn)) + end)
    if last and in_bowl:
        parts.append(
            tr(
                lang,
                "rolled_plain",
                player=b.who(view, last["player"]),
                dice=" ".join(map(str, in_bowl)),
            )
            + end
        )
    if last and last.get("result") in ("shonben", "gucchon") and in_bowl:
        parts.append(tr(lang, last["result"]))
    if stamp:  # whose it is first: "alice: ドボン (dobon)." (a gloss's brackets stay alone)
        word = stamp[0].rstrip("!！")
        parts.append((f"{stamp[2]}{colon(lang)}{word}" if stamp[2] else word) + end)
    aside = [str(x) for g in view.get("set_aside") or [] for x in g["dice"]]
    if aside:
        parts.append(f"{tr(lang, 'set_aside')}{colon(lang)}{' '.join(aside)}" + end)
    parts.append(f"{tr(lang, 'turn_total')}{colon(lang)}{view.get('turn_total', 0)}" + end)
    for p in view.get("order") or view["players"]:
        mark = tr(lang, "started" if view["started"].get(p) else "not_started")
        parts.append(
            f"{b.who(view, p)}{seat_mark(view, p, lang)} {view['scores'].get(p, 0)}"
            + (f"（{mark}）" if lang == "ja" else f" ({mark})")
            + (";" if lang == "en" else "。")
        )
    return alt(parts, lang)


caches.lru("render.sixdice_bowl", bowl)
