"""Shared drawing pieces, in one place for the renderers (``from
bot.render import _base as b``): the look (:mod:`bot.render._theme`), text
(:mod:`bot.render._text`), the canvas and drawing on a kept palette
(:mod:`bot.render._canvas`), PNG encoding (:mod:`bot.render._palette`), and
the small shapes every picture uses (a pill, a coin, a sprite drawn large
and shrunk) defined here."""

from __future__ import annotations

from PIL import Image, ImageDraw

from bot.render._canvas import (
    ON_PALETTE,
    canvas,
    draw,
    draw_text,
    drawn,
    layer,
    paste,
    paste_made,
)
from bot.render._palette import (
    COMPRESS,
    FILL_OFF,
    FIT,
    MISFIT,
    PIECES_BYTES,
    SAMPLE,
    SAMPLES_HIGH,
    WORSE,
    Misfit,
    Palette,
    _deflate,
    _kept_palettes,
    encode,
    forget_palettes,
    palette_of,
    png,
)
from bot.render._text import (
    ASSETS,
    COVERED,
    EMOJI,
    EMOJI_FONT_PATH,
    EMOJI_FONT_PATHS,
    EMOJI_NATIVE,
    FONT_PATH,
    _is_emoji,
    _text_mask,
    emoji,
    emoji_drawn,
    fit,
    font,
    name,
    safe_text,
    text_width,
    who,
)
from bot.render._theme import (
    AA,
    BLUE,
    BODY,
    GOLD,
    GREEN,
    HILITE,
    HUGE,
    INK,
    INK_DIM,
    KEY_COLOURS,
    LARGE,
    NEGATIVE,
    NO_NAME,
    PANEL,
    PAPER,
    PAPER_DIM,
    PAPER_INK,
    PAPER_LINE,
    PLAYER_COLOURS,
    RED,
    SMALL,
    TABLE,
    TABLE_EDGE,
    WIDTH,
    WIN_ROW,
    Color,
    contrast,
    luminance,
)

__all__ = [  # what the renderers read as b.<name> (and the tests, some private)
    "AA",
    "ASSETS",
    "BLUE",
    "BODY",
    "canvas",
    "coin",
    "Color",
    "COMPRESS",
    "contrast",
    "COVERED",
    "_deflate",
    "draw",
    "draw_text",
    "drawn",
    "EMOJI",
    "emoji",
    "emoji_drawn",
    "EMOJI_FONT_PATH",
    "EMOJI_FONT_PATHS",
    "EMOJI_NATIVE",
    "encode",
    "FILL_OFF",
    "FIT",
    "fit",
    "font",
    "FONT_PATH",
    "forget_palettes",
    "GOLD",
    "GREEN",
    "HILITE",
    "HUGE",
    "INK",
    "INK_DIM",
    "_is_emoji",
    "_kept_palettes",
    "KEY_COLOURS",
    "LARGE",
    "layer",
    "luminance",
    "MISFIT",
    "Misfit",
    "name",
    "NEGATIVE",
    "NO_NAME",
    "ON_PALETTE",
    "Palette",
    "palette_of",
    "PANEL",
    "PAPER",
    "PAPER_DIM",
    "PAPER_INK",
    "PAPER_LINE",
    "paste",
    "paste_made",
    "PIECES_BYTES",
    "pill",
    "PLAYER_COLOURS",
    "png",
    "RED",
    "safe_text",
    "SAMPLE",
    "SAMPLES_HIGH",
    "shrink",
    "SMALL",
    "supersampled",
    "TABLE",
    "TABLE_EDGE",
    "_text_mask",
    "text_width",
    "who",
    "WIDTH",
    "WIN_ROW",
    "WORSE",
]


def pill(
    d: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    size: int,
    fill: Color,
    ink: Color = PAPER_INK,
) -> int:
    """A rounded label with its top-left at ``xy``; returns its width."""
    w = text_width(text, size) + size
    h = size + 8
    x, y = xy
    d.rounded_rectangle((x, y, x + w, y + h), h // 2, fill=fill)
    draw_text(d, (x + w / 2, y + h / 2), text, size, ink, anchor="mm")
    return w


def coin(d: ImageDraw.ImageDraw, centre: tuple[float, float], r: float) -> None:
    """A gold token."""
    x, y = centre
    d.ellipse((x - r, y - r, x + r, y + r), fill=GOLD, outline=(150, 110, 30), width=2)
    d.ellipse(
        (x - r * 0.45, y - r * 0.45, x + r * 0.45, y + r * 0.45), outline=(190, 140, 40), width=2
    )


def supersampled(size: tuple[int, int], factor: int = 3) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    """An RGBA scratch picture ``factor`` times larger, for smooth sprites."""
    img = Image.new("RGBA", (size[0] * factor, size[1] * factor), (0, 0, 0, 0))
    return img, ImageDraw.Draw(img)


def shrink(img: Image.Image, size: tuple[int, int]) -> Image.Image:
    return img.resize(size, Image.Resampling.LANCZOS)
