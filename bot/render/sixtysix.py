"""Sixty-Six (シックスティー・シックス): the table (trump card under the talon,
talon size or closed, the current trick, the last trick, trick piles, game
points) and a player's hand as a row of cards.

The table picture reads only public keys, so even a player's view renders
the same public table; the hand is drawn only by :func:`hand`."""

from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw

from bot.render import _base as b
from bot.render import _cards as c
from bot.render._strings import alt, colon, comma, marked_name, seat_mark, tr

HEIGHT = 400
CARD = 76
TRUMP_W = 70  # the trump card beside the talon
TRUMP_X = 22 + CARD + 18
TRICK_X = 268  # the centre of the current trick
PANEL_X = 400  # the players' column
SUIT_NAMES = {
    "en": {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"},
    "ja": {"S": "スペード", "H": "ハート", "D": "ダイヤ", "C": "クラブ"},
}
RANK_NAMES = {"9": "9", "T": "10", "J": "J", "Q": "Q", "K": "K", "A": "A"}


def card_words(card: str, lang: str) -> str:
    suit = SUIT_NAMES.get(lang, SUIT_NAMES["en"])[card[1]]
    rank = RANK_NAMES[card[0]]
    return f"{suit}の{rank}" if lang == "ja" else f"{rank} of {suit}"


def _suit_icon(d: ImageDraw.ImageDraw, suit: str, xy: tuple[float, float], size: float) -> None:
    c.suit_shape(
        d, suit, xy[0], xy[1], size, c.SUIT_COLOURS[suit] if suit != "S" else (235, 230, 220)
    )


def _marriage(
    img: Image.Image, d: ImageDraw.ImageDraw, right_top: tuple[int, int], suit: str, points: int
) -> int:
    """A marriage as a paper tag, suit and points ("♦ 20", "♠ 40"), with its
    right edge at ``right_top``; returns its width."""
    text = str(points)
    w = 16 + 4 + b.text_width(text, b.SMALL) + 14
    x1, y0 = right_top
    x0 = x1 - w
    d.rounded_rectangle((x0, y0, x1, y0 + 26), 8, fill=b.PAPER)
    c.suit_shape(d, suit, x0 + 15, y0 + 13, 15, c.SUIT_COLOURS[suit])
    b.draw_text(d, (x1 - 7, y0 + 13), text, b.SMALL, b.PAPER_INK, anchor="rm", bold=True)
    return w


def table(view: dict[str, Any], lang: str) -> tuple[Image.Image, str]:
    img = b.canvas(HEIGHT)
    d = b.draw(img)
    players: list[str] = list(view["players"])
    target = view.get("options", {}).get("target", 7)
    b.draw_text(d, (16, 10), tr(lang, "sixtysix"), b.LARGE, b.INK, bold=True)
    b.draw_text(d, (16, 46), tr(lang, "deal", n=view.get("deal", 1)), b.SMALL, b.INK_DIM)
    trump = view.get("trump")
    if trump:
        tx = 16 + b.text_width(tr(lang, "deal", n=view.get("deal", 1)), b.SMALL) + 16
        b.draw_text(d, (tx, 46), tr(lang, "trump"), b.SMALL, b.INK_DIM)
        tx += b.text_width(tr(lang, "trump"), b.SMALL) + 22
        c.paste(img, c.suit_icon(trump, 20), (tx - 14, 41))
    # the talon (a face-down stack) and beside it the trump card, upright and
    # whole, so that its rank and suit read at a glance
    talon = int(view.get("talon", 0))
    closed = bool(view.get("closed"))
    tx0, ty0 = 22, 104
    trump_card = view.get("trump_card")
    stack = talon - (1 if trump_card else 0)
    if stack > 0 or closed:
        layers = min(max(stack, 1), 6)
        for k in range(layers):
            c.paste(img, c.back(CARD), (tx0 + k * 2, ty0 - k * 2))
    if trump_card:
        c.paste(img, c.face(trump_card, TRUMP_W), (TRUMP_X, ty0))
        b.draw_text(
            d,
            (TRUMP_X + TRUMP_W / 2, ty0 + TRUMP_W * c.RATIO + 8),
            tr(lang, "trump"),
            b.SMALL,
            b.INK_DIM,
            anchor="ma",
        )
    below = ty0 + CARD * c.RATIO + 8
    if closed:
        b.pill(d, (tx0 - 4, below), tr(lang, "talon_closed"), b.SMALL, b.HILITE)
        closer = view.get("closer")
        if closer:
            b.draw_text(
                d, (tx0, below + 34), b.name(b.who(view, closer), b.SMALL, 150), b.SMALL, b.INK_DIM
            )
    elif talon > 0:
        b.draw_text(
            d,
            (tx0 + CARD / 2, below),
            tr(lang, "talon_n", n=talon),
            b.SMALL,
            b.INK,
            anchor="ma",
        )
    else:
        d.rounded_rectangle(
            (tx0, ty0, tx0 + CARD, ty0 + CARD * c.RATIO), 8, outline=b.TABLE_EDGE, width=2
        )
        b.draw_text(
            d,
            (tx0 + CARD / 2, ty0 + CARD * 0.7),
            tr(lang, "talon_empty"),
            b.SMALL,
            b.INK_DIM,
            anchor="mm",
        )
    # the current trick in the middle; the last trick smaller below it
    mx = TRICK_X
    trick = view.get("trick") or []
    d.rounded_rectangle((mx - 72, 96, mx + 72, 246), 12, outline=b.TABLE_EDGE, width=2)
    for k, t in enumerate(trick):
        c.paste(img, c.face(t["card"], 84), (mx - 42 + k * 30, 108 + k * 10))
        b.draw_text(
            d,
            (mx, 252),
            b.name(b.who(view, t["player"]), b.SMALL, 180),
            b.SMALL,
            b.INK_DIM,
            anchor="ma",
        )
    last = view.get("last_trick")
    if last:
        lx = mx - 112
        b.draw_text(d, (lx, 290), tr(lang, "last_trick"), b.SMALL, b.INK_DIM)
        for k, t in enumerate(last["cards"]):
            c.paste(img, c.face(t["card"], 46), (lx + k * 52, 316))
        wx = lx + 2 * 52 + 6
        b.draw_text(
            d,
            (wx, 348),
            "→ " + b.name(b.who(view, last.get("winner") or ""), b.SMALL, PANEL_X - 16 - wx - 24),
            b.SMALL,
            b.INK,
            anchor="lm",
        )
    # players: name, game points, tricks, hand size, marriages
    px = PANEL_X
    turn = (view.get("to_move") or [None])[0]
    tricks: dict[str, int] = view.get("tricks", {})
    sizes: dict[str, int] = view.get("hand_sizes", {})
    gp: dict[str, int] = view.get("game_points", {})
    marriages = view.get("marriages") or []
    for i, p in enumerate(players):
        y = 96 + 150 * i
        if p == turn and not view.get("finished"):
            d.rounded_rectangle((px - 10, y - 6, b.WIDTH - 10, y + 138), 10, fill=(104, 74, 52))
        ink = b.INK_DIM if seat_mark(view, p, lang) else b.INK  # a seat out of the game
        nm = marked_name(view, p, lang, b.BODY, 150)
        b.draw_text(d, (px, y), nm, b.BODY, ink, bold=p == turn)
        b.draw_text(
            d,
            (b.WIDTH - 20, y),
            f"{gp.get(p, 0)}/{target}",
            b.BODY,
            b.HILITE,
            anchor="ra",
            bold=True,
        )
        # hand size as a small fan of backs
        n = sizes.get(p, 0)
        for k in range(n):
            c.paste(img, c.back(30), (px + k * 12, y + 34))
        b.draw_text(
            d,
            (px + max(n, 1) * 12 + 24, y + 54),
            tr(lang, "cards_in_hand", n=n),
            b.SMALL,
            b.INK_DIM,
            anchor="lm",
        )
        # trick pile
        t = tricks.get(p, 0)
        for k in range(min(t, 6)):
            c.paste(img, c.back_turned(24), (px + k * 2, y + 94 - k * 2))
        b.draw_text(d, (px + 50, y + 108), tr(lang, "tricks_n", n=t), b.SMALL, b.INK, anchor="lm")
        mx2 = b.WIDTH - 18  # marriages shown this deal, right-aligned: "♦ 20"
        for m in marriages:
            if m["player"] == p:
                mx2 -= _marriage(img, d, (mx2, y + 94), m["suit"], int(m.get("points") or 0)) + 6
    if view.get("finished") and view.get("winner"):
        b.draw_text(
            d,
            (b.WIDTH / 2, HEIGHT - 30),
            tr(lang, "wins", player=b.name(b.who(view, view["winner"]), b.BODY, 300)),
            b.BODY,
            b.HILITE,
            anchor="mm",
        )
    return img, _alt(view, lang)


def _alt(view: dict[str, Any], lang: str) -> str:
    end = "." if lang == "en" else "。"
    parts = [tr(lang, "sixtysix") + comma(lang) + tr(lang, "deal", n=view.get("deal", 1)) + end]
    if view.get("trump"):
        parts.append(
            f"{tr(lang, 'trump')}{colon(lang)}{SUIT_NAMES.get(lang, SUIT_NAMES['en'])[view['trump']]}"
            + end
        )
    if view.get("trump_card"):
        parts.append(tr(lang, "trump_card", card=card_words(view["trump_card"], lang)) + end)
    if view.get("closed"):
        parts.append(tr(lang, "talon") + " " + tr(lang, "talon_closed") + end)
    else:
        parts.append(tr(lang, "talon_n", n=view.get("talon", 0)) + end)
    trick = view.get("trick") or []
    for t in trick:
        parts.append(f"{b.who(view, t['player'])}{colon(lang)}{card_words(t['card'], lang)}" + end)
    for m in view.get("marriages") or []:
        suit = SUIT_NAMES.get(lang, SUIT_NAMES["en"])[m["suit"]]
        parts.append(
            tr(lang, "marriage_of", player=b.who(view, m["player"]), suit=suit, n=m.get("points"))
            + end
        )
    for p in view["players"]:
        parts.append(
            f"{b.who(view, p)} {tr(lang, 'game_points_n', n=view.get('game_points', {}).get(p, 0))}"
            f"{tr(lang, 'list_sep')}{tr(lang, 'tricks_n', n=view.get('tricks', {}).get(p, 0))}"
            + (";" if lang == "en" else "。")
        )
    return alt(parts, lang)


def hand(view: dict[str, Any], lang: str) -> tuple[Image.Image, str]:
    """A player's hand as a row; cards they may play now are lifted, the
    others dimmed."""
    cards: list[str] = list(view.get("hand") or [])
    moves: list[str] = list(view.get("moves") or [])
    playable = {m.split()[1] for m in moves if m.startswith(("play ", "marry "))}
    img = b.canvas(230)
    d = b.draw(img)
    me = next((p for p in view["players"] if view.get("hand_sizes", {}).get(p) == len(cards)), "")
    title = tr(lang, "sixtysix")
    b.draw_text(d, (16, 12), title, b.BODY, b.INK, bold=True)
    if view.get("trump"):
        x = 16 + b.text_width(title, b.BODY) + 20
        b.draw_text(d, (x, 12), tr(lang, "trump"), b.BODY, b.INK_DIM)
        x += b.text_width(tr(lang, "trump"), b.BODY) + 18
        c.paste(img, c.suit_icon(view["trump"], 20), (x - 14, 9))
    if view.get("points") is not None:
        b.draw_text(
            d,
            (b.WIDTH - 16, 12),
            tr(lang, "your_points", n=view["points"]),
            b.BODY,
            b.HILITE,
            anchor="ra",
        )
    w = 92
    gap = 8 if len(cards) <= 6 else 2
    total = len(cards) * w + (len(cards) - 1) * gap
    x0 = (b.WIDTH - total) / 2
    for k, card in enumerate(cards):
        lifted = card in playable
        dim = bool(playable) and not lifted
        c.paste(img, c.face(card, w, dim), (x0 + k * (w + gap), 50 if lifted else 62))
    del me
    words = comma(lang).join(card_words(x, lang) for x in cards)
    text = [tr(lang, "sixtysix") + ("." if lang == "en" else "。"), words]
    if view.get("points") is not None:
        points = tr(lang, "your_points", n=view["points"])
        text.append(f"（{points}）" if lang == "ja" else f"({points})")
    return img, alt(text, lang)
