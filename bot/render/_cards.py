"""Sixty-Six card faces: 9 10 J Q K A in four suits with four colours (and
four shapes) that stay apart for colour-blind players; drawn supersampled and
cached per (card, width)."""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from bot import caches
from bot.render import _base as b

# Four-colour deck: black spades, red hearts, blue diamonds, green clubs.
# Red and green also differ in lightness and shape, so deuteranopes can
# still tell them apart.
SUIT_COLOURS: dict[str, b.Color] = {
    "S": (25, 25, 30),
    "H": (205, 30, 45),
    "D": (20, 95, 200),
    "C": (0, 128, 80),
}
b.KEY_COLOURS.extend(SUIT_COLOURS.values())
RANK_TEXT = {"9": "9", "T": "10", "J": "J", "Q": "Q", "K": "K", "A": "A"}
SUIT_SYMBOL = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
RATIO = 1.4


def suit_shape(
    d: ImageDraw.ImageDraw, suit: str, cx: float, cy: float, s: float, colour: tuple[int, ...]
) -> None:
    """Draw a suit symbol of height ``s`` centred at (cx, cy)."""
    h = s / 2
    if suit == "D":
        d.polygon(
            [(cx, cy - h), (cx + h * 0.72, cy), (cx, cy + h), (cx - h * 0.72, cy)], fill=colour
        )
    elif suit == "H":
        r = h * 0.5
        d.ellipse((cx - 2 * r, cy - h, cx, cy - h + 2 * r), fill=colour)
        d.ellipse((cx, cy - h, cx + 2 * r, cy - h + 2 * r), fill=colour)
        d.polygon(
            [
                (cx - 2 * r + r * 0.06, cy - h + r * 1.3),
                (cx + 2 * r - r * 0.06, cy - h + r * 1.3),
                (cx, cy + h),
            ],
            fill=colour,
        )
    elif suit == "S":
        r = h * 0.46
        d.polygon(
            [(cx, cy - h), (cx + 2 * r, cy + r * 0.3), (cx - 2 * r, cy + r * 0.3)], fill=colour
        )
        d.ellipse((cx - 2 * r, cy - r * 0.5, cx, cy + r * 1.5), fill=colour)
        d.ellipse((cx, cy - r * 0.5, cx + 2 * r, cy + r * 1.5), fill=colour)
        d.polygon([(cx, cy + r * 0.4), (cx + r * 0.7, cy + h), (cx - r * 0.7, cy + h)], fill=colour)
    else:  # clubs
        r = h * 0.42
        d.ellipse((cx - r, cy - h, cx + r, cy - h + 2 * r), fill=colour)
        d.ellipse((cx - 2 * r - r * 0.1, cy - r * 0.55, cx - r * 0.1, cy + r * 1.45), fill=colour)
        d.ellipse((cx + r * 0.1, cy - r * 0.55, cx + 2 * r + r * 0.1, cy + r * 1.45), fill=colour)
        d.polygon([(cx, cy - r * 0.2), (cx + r * 0.7, cy + h), (cx - r * 0.7, cy + h)], fill=colour)


@caches.sized("render.card_faces", 5 << 20)
def face(card: str, width: int, dim: bool = False) -> Image.Image:
    """An RGBA card face, ``width`` px wide (height = 1.4 × width)."""
    f = 3
    w, h = width, round(width * RATIO)
    img, d = b.supersampled((w, h), f)
    W, H = w * f, h * f
    rank, suit = card[0], card[1]
    colour = SUIT_COLOURS[suit] + (255,)
    d.rounded_rectangle((f, f, W - f, H - f), W * 0.08, fill=(0, 0, 0, 90))
    d.rounded_rectangle(
        (0, 0, W - 2 * f, H - 2 * f),
        W * 0.08,
        fill=(255, 253, 248, 255),
        outline=(150, 140, 130, 255),
        width=f,
    )
    idx = b.font(round(W * 0.3))
    text = RANK_TEXT[rank]
    d.text((W * 0.06, H * 0.03), text, font=idx, fill=colour, anchor="la") if len(
        text
    ) == 1 else d.text(
        (W * 0.03, H * 0.03), text, font=b.font(round(W * 0.26)), fill=colour, anchor="la"
    )
    suit_shape(d, suit, W * 0.17, H * 0.3, W * 0.2, colour)
    if rank in "JQK":
        d.rounded_rectangle(
            (W * 0.3, H * 0.2, W * 0.92, H * 0.92),
            W * 0.06,
            fill=tuple(round(253 * 0.86 + v * 0.14) for v in SUIT_COLOURS[suit]) + (255,),
            outline=colour,
            width=f,
        )
        d.text((W * 0.61, H * 0.5), text, font=b.font(round(W * 0.46)), fill=colour, anchor="mm")
        suit_shape(d, suit, W * 0.61, H * 0.78, W * 0.18, colour)
    else:
        suit_shape(d, suit, W * 0.58, H * 0.6, W * (0.55 if rank == "A" else 0.4), colour)
    out = b.shrink(img, (w, h))
    if dim:
        shade = Image.new("RGBA", out.size, (40, 30, 24, 120))
        out = Image.alpha_composite(out, Image.new("RGBA", out.size, (0, 0, 0, 0)))
        out.paste(shade, (0, 0), Image.eval(out.getchannel("A"), lambda a: a * 120 // 255))
    return out


@caches.sized("render.card_backs", 1 << 20)
def back(width: int) -> Image.Image:
    """A card back: indigo with a lattice."""
    f = 3
    w, h = width, round(width * RATIO)
    img, d = b.supersampled((w, h), f)
    W, H = w * f, h * f
    d.rounded_rectangle((f, f, W - f, H - f), W * 0.08, fill=(0, 0, 0, 90))
    d.rounded_rectangle(
        (0, 0, W - 2 * f, H - 2 * f),
        W * 0.08,
        fill=(40, 56, 110, 255),
        outline=(230, 225, 210, 255),
        width=2 * f,
    )
    m = W * 0.12
    d.rounded_rectangle(
        (m, m, W - 2 * f - m, H - 2 * f - m), W * 0.05, outline=(150, 165, 215, 255), width=f
    )
    step = W * 0.16
    k: float = -H
    while k < W + H:
        d.line((m + k, m, m + k + H, m + H), fill=(70, 90, 160, 255), width=f)
        d.line((m + k, m + H, m + k + H, m), fill=(70, 90, 160, 255), width=f)
        k += step
    d.rounded_rectangle(
        (0, 0, W - 2 * f, H - 2 * f), W * 0.08, outline=(230, 225, 210, 255), width=2 * f
    )
    out = b.shrink(img, (w, h))
    # keep the lattice inside the card's rounded outline
    mask = Image.new("L", (W, H), 0)
    ImageDraw.Draw(mask).rounded_rectangle((0, 0, W - 2 * f, H - 2 * f), W * 0.08, fill=255)
    out.putalpha(
        Image.composite(out.getchannel("A"), Image.new("L", (w, h), 0), b.shrink(mask, (w, h)))
    )
    return out


@lru_cache(maxsize=8)
def back_turned(width: int) -> Image.Image:
    """A card back lying across (a trick pile)."""
    return back(width).rotate(90, expand=True)


def paste(canvas: Image.Image, sprite: Image.Image, xy: tuple[float, float]) -> None:
    b.paste(canvas, sprite, xy)


@lru_cache(maxsize=64)
def suit_icon(suit: str, size: int, light: bool = False) -> Image.Image:
    """A smooth suit symbol sprite on a small paper tile (for headers)."""
    f = 4
    img, d = b.supersampled((size + 8, size + 8), f)
    W = (size + 8) * f
    d.rounded_rectangle((0, 0, W - 1, W - 1), 6 * f, fill=(250, 246, 236, 255))
    suit_shape(d, suit, W / 2, W / 2, size * f * 0.8, SUIT_COLOURS[suit] + (255,))
    return b.shrink(img, (size + 8, size + 8))


caches.lru("render.card_backs_turned", back_turned)
caches.lru("render.suit_icons", suit_icon)
