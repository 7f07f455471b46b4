"""Bluff dice (Mäxchen): the covered cup and the announcement ladder while
the dice are hidden; the revealed dice and the verdict at a reveal.

The table picture reads only public keys (never ``cup_seen``), so it is the
same for every viewer; a player's own dice are drawn by :func:`hand`."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from PIL import Image

from bot import caches
from bot.render import _base as b
from bot.render._dice import paste_die
from bot.render._strings import alt, colon, comma, marked_name, seat_mark, tr

HEIGHT = 490
LADDER_X = 420
RANKING = ("21", "66", "55", "44", "33", "22", "11", "65", "64", "63", "62", "61",
           "54", "53", "52", "51", "43", "42", "41", "32", "31")  # fmt: skip


@lru_cache(maxsize=1)
def cup() -> Image.Image:
    """A leather dice cup upside down on the table, seen from the side."""
    f = 3
    w, h = 190, 170
    img, d = b.supersampled((w, h), f)
    W, H = w * f, h * f
    d.ellipse((W * 0.02, H * 0.82, W * 0.98, H * 0.99), fill=(0, 0, 0, 90))
    top, bot = H * 0.1, H * 0.88
    steps = 40
    for k in range(steps):  # shaded body, lighter in the middle
        t = k / (steps - 1)
        x0 = W * (0.2 - 0.14 * 0) + (W * 0.06) * 0
        shade = int(80 + 70 * (1 - abs(t - 0.4) * 1.8))
        xl = W * 0.18 + (W * 0.06 - W * 0.18) * 0
        del x0, xl
        d.polygon(
            [
                (W * (0.2 + 0.6 * t), top),
                (W * (0.2 + 0.6 * min(1, t + 1 / steps)), top),
                (W * (0.06 + 0.88 * min(1, t + 1 / steps)), bot),
                (W * (0.06 + 0.88 * t), bot),
            ],
            fill=(shade + 40, shade, shade - 30, 255),
        )
    d.ellipse((W * 0.2, top - H * 0.05, W * 0.8, top + H * 0.05), fill=(150, 100, 60, 255))
    d.rectangle((W * 0.06, bot - H * 0.1, W * 0.94, bot), fill=(90, 50, 30, 255))
    d.ellipse((W * 0.06, bot - H * 0.04, W * 0.94, bot + H * 0.06), fill=(90, 50, 30, 255))
    for k in range(12):  # stitches on the rim
        x = W * (0.1 + 0.8 * k / 11)
        d.line(
            (x, bot - H * 0.07, x + W * 0.025, bot - H * 0.05), fill=(230, 200, 150, 255), width=f
        )
    return b.shrink(img, (w, h))


@lru_cache(maxsize=1)
def small_cup() -> Image.Image:
    """The cup at two thirds of its size (the hand picture's)."""
    cp = cup()
    return cp.resize((cp.width * 2 // 3, cp.height * 2 // 3), Image.Resampling.LANCZOS)


def _showing_reveal(view: dict[str, Any]) -> bool:
    """A reveal is on the table until someone announces in the next game."""
    return bool(view.get("last_reveal")) and (view.get("finished") or not view.get("announcements"))


def _game_number(view: dict[str, Any], reveal: dict[str, Any] | None) -> int:
    """The game the picture is about: the one a reveal on show ended (the
    view's ``game_number`` has moved on to the next game by then), else the
    game being played."""
    games: list[dict[str, Any]] = list(view.get("games") or [])
    if reveal:
        for k in range(len(games), 0, -1):
            g = games[k - 1]
            if g.get("loser") == reveal.get("loser") and g.get("reason") == reveal.get("reason"):
                return k
        return max(1, len(games))
    return int(view.get("game_number") or 1)


LINE = 372  # the widest line centred under the cup (x 200 ± 186, left of the ladder)


def _with_name(lang: str, key: str, player: str, width: int, **more: Any) -> str:
    """``key``'s line with ``player``'s name shortened so that the whole line
    fits ``width`` px: a long name once ran past the picture's left edge
    (「がいなまえのプレイヤー・た…がカップを持つ」, its first letter cut)."""
    rest = b.text_width(tr(lang, key, player="", **more), b.BODY)
    return tr(lang, key, player=b.name(player, b.BODY, max(60, width - rest)), **more)


def table(view: dict[str, Any], lang: str) -> tuple[Image.Image, str]:
    img = b.canvas(HEIGHT)
    d = b.draw(img)
    b.draw_text(d, (16, 10), tr(lang, "bluff"), b.LARGE, b.INK, bold=True)
    holder = view.get("holder")
    reveal = view.get("last_reveal") if _showing_reveal(view) else None
    b.draw_text(d, (16, 46), tr(lang, "game_n", n=_game_number(view, reveal)), b.SMALL, b.INK_DIM)
    cx, cy = 200, 190
    if reveal:
        dice = list(reveal["dice"])
        d.ellipse((cx - 130, cy - 70, cx + 130, cy + 70), fill=(60, 40, 30))
        paste_die(img, dice[0], 80, (cx - 50, cy), "normal", -8)
        paste_die(img, dice[1], 80, (cx + 50, cy), "normal", 10)
        caught = reveal["reason"] == "bluff_called"
        verdict = tr(
            lang,
            "bluff_called" if caught else "wrong_call",
            player=b.name(b.who(view, reveal["loser"]), b.BODY, 220),
        )
        b.draw_text(
            d,
            (cx, cy + 96),
            f"{reveal['value']}  vs  {reveal['announced']}",
            b.LARGE,
            b.INK,
            anchor="mm",
            bold=True,
        )
        b.pill(
            d,
            (cx - (b.text_width(verdict, b.BODY) + b.BODY) / 2, cy + 124),
            verdict,
            b.BODY,
            b.RED if caught else b.GOLD,
            (255, 255, 255) if caught else b.PAPER_INK,
        )
    else:
        cp = cup()
        b.paste(img, cp, (cx - cp.width // 2, cy - cp.height // 2 + 10))
        if holder:
            b.draw_text(
                d,
                (cx, cy + 104),
                _with_name(lang, "holds_cup", b.who(view, holder), LINE),
                b.BODY,
                b.INK,
                anchor="mm",
            )
        last = view.get("last_announcement")
        if last:
            b.draw_text(
                d,
                (cx, 72),
                tr(
                    lang,
                    "announced",
                    player=b.name(b.who(view, last["player"]), b.BODY, 200),
                    value=last["value"],
                ),
                b.BODY,
                b.HILITE,
                anchor="mm",
                bold=True,
            )
        else:
            b.draw_text(d, (cx, 72), tr(lang, "no_announce"), b.BODY, b.INK_DIM, anchor="mm")
        if last and last["value"] == "21" and not view.get("finished"):
            b.draw_text(d, (cx, cy + 134), tr(lang, "mexchen"), b.SMALL, b.HILITE, anchor="mm")
    # losses per player
    players: list[str] = list(view["players"])
    limit = int(view.get("options", {}).get("losses") or 3)
    losses: dict[str, int] = view.get("losses", {})
    cols = 2 if len(players) > 5 else 1
    lw = 380 // cols
    for i, p in enumerate(players):
        x = 16 + lw * (i // 5 if cols == 2 else 0)
        y = 350 + 26 * (i % 5)
        if p == holder:
            d.polygon([(x, y + 5), (x + 8, y + 12), (x, y + 19)], fill=b.HILITE)
        b.draw_text(
            d,
            (x + 12, y + 12),
            marked_name(view, p, lang, b.SMALL, lw - 100),
            b.SMALL,
            b.INK_DIM if seat_mark(view, p, lang) else b.INK,
            anchor="lm",
        )
        n = losses.get(p, 0)
        for k in range(min(limit, 6)):
            bx = x + lw - 18 - 13 * (min(limit, 6) - 1 - k)
            if k < n:
                d.ellipse((bx - 5, y + 7, bx + 5, y + 17), fill=b.RED)
            else:
                d.ellipse((bx - 5, y + 7, bx + 5, y + 17), outline=b.INK_DIM, width=1)
        if n > 6:
            b.draw_text(d, (x + lw - 100, y + 12), str(n), b.SMALL, b.NEGATIVE, anchor="rm")
    # the announcement ladder, strongest on top
    anns = view.get("announcements") or []
    said: dict[str, str] = {a["value"]: a["player"] for a in anns}
    last_v = anns[-1]["value"] if anns else None
    reached = RANKING.index(last_v) if last_v in RANKING else len(RANKING)
    in_cup = None
    if reveal:
        # the reveal on the ladder: the called announcement and the real roll
        last_v, in_cup = reveal["announced"], reveal["value"]
        said = {last_v: reveal["announcer"]}
        reached = len(RANKING)
    # room for a name next to "in the cup" (drawn bold: a little wider)
    cup_room = b.WIDTH - 30 - int(b.text_width(tr(lang, "in_cup"), b.SMALL) * 1.15) - LADDER_X - 40
    rh = 21
    top = 18
    d.rounded_rectangle((LADDER_X - 8, top - 6, b.WIDTH - 10, top + rh * 21 + 6), 8, fill=b.PANEL)
    for k, v in enumerate(RANKING):
        y = top + rh * k
        dead = k >= reached  # not strong enough to announce any more
        colour = (128, 110, 94) if dead else b.INK
        if v == last_v:
            d.rounded_rectangle((LADDER_X - 4, y, b.WIDTH - 14, y + rh - 1), 5, fill=b.HILITE)
            colour = b.PAPER_INK
        b.draw_text(
            d, (LADDER_X + 4, y + rh / 2), v, b.SMALL, colour, anchor="lm", bold=v == last_v
        )
        if v in said:
            b.draw_text(
                d,
                (LADDER_X + 40, y + rh / 2),
                b.name(b.who(view, said[v]), b.SMALL, cup_room if v == in_cup else 160),
                b.SMALL,
                colour if v == last_v else b.INK_DIM,
                anchor="lm",
            )
        if v == in_cup:
            d.rounded_rectangle(
                (LADDER_X - 4, y, b.WIDTH - 14, y + rh - 1), 5, outline=b.RED, width=2
            )
            b.draw_text(
                d,
                (b.WIDTH - 20, y + rh / 2),
                tr(lang, "in_cup"),
                b.SMALL,
                b.PAPER_INK if v == last_v else b.RED,
                anchor="rm",
                bold=True,
            )
        if k in (0, 6):
            d.line((LADDER_X, y + rh, b.WIDTH - 16, y + rh), fill=b.TABLE_EDGE, width=1)
    return img, _alt(view, lang, reveal)


def _alt(view: dict[str, Any], lang: str, reveal: dict[str, Any] | None) -> str:
    end = "." if lang == "en" else "。"
    parts = [
        tr(lang, "bluff") + comma(lang) + tr(lang, "game_n", n=_game_number(view, reveal)) + end
    ]
    if reveal:
        parts.append(
            tr(lang, "revealed", dice=" ".join(map(str, reveal["dice"])))
            + (
                f" ({reveal['value']} / {reveal['announced']})"
                if lang == "en"
                else f"（{reveal['value']}／{reveal['announced']}）"
            )
            + end
        )
        key = "bluff_called" if reveal["reason"] == "bluff_called" else "wrong_call"
        verdict = tr(lang, key, player=b.who(view, reveal["loser"]))
        parts.append(verdict + ("" if verdict.endswith(("!", "！")) else end))
    else:
        if view.get("holder"):
            parts.append(tr(lang, "holds_cup", player=b.who(view, view["holder"])) + end)
        last = view.get("last_announcement")
        if last:
            parts.append(
                tr(lang, "announced", player=b.who(view, last["player"]), value=last["value"]) + end
            )
    for p in view["players"]:
        parts.append(
            f"{b.who(view, p)}{seat_mark(view, p, lang)}{colon(lang)}"
            f"{tr(lang, 'losses_n', n=view.get('losses', {}).get(p, 0))}"
            + (";" if lang == "en" else "。")
        )
    return alt(parts, lang)


def hand(view: dict[str, Any], lang: str) -> tuple[Image.Image, str]:
    """The dice under the cup as this player saw them (or that they did not look)."""
    img = b.canvas(200)
    d = b.draw(img)
    b.draw_text(d, (16, 12), tr(lang, "your_dice"), b.BODY, b.INK, bold=True)
    seen = view.get("cup_seen")
    if seen:
        dice = sorted(seen, reverse=True)
        paste_die(img, dice[0], 90, (b.WIDTH / 2 - 60, 112))
        paste_die(img, dice[1], 90, (b.WIDTH / 2 + 60, 112))
        value = f"{dice[0]}{dice[1]}" if dice != [2, 1] else "21"
        text = tr(lang, "you_saw", value=value)
        b.draw_text(d, (b.WIDTH - 20, 112), value, b.HUGE, b.HILITE, anchor="rm", bold=True)
    else:
        small = small_cup()
        b.paste(img, small, (b.WIDTH // 2 - small.width // 2, 60))
        text = tr(lang, "not_seen")
        b.draw_text(d, (b.WIDTH - 20, 112), text, b.BODY, b.INK_DIM, anchor="rm")
    return img, alt([tr(lang, "bluff") + ("." if lang == "en" else "。"), text], lang)


caches.lru("render.bluff_cup", cup)
caches.lru("render.bluff_small_cup", small_cup)
