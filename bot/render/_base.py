"""Shared drawing pieces: the font and its glyph coverage, colours, text
helpers and PNG encoding. Loaded once at import; everything is cached."""

from __future__ import annotations

import math
import os
import struct
import threading
import unicodedata
import zlib
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from functools import cache, lru_cache
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
from PIL import Image, ImageDraw, ImageFont

_deflate: ModuleType
try:  # ISA-L deflates a picture 6-8× faster than zlib's fastest level, files as small
    from isal import isal_zlib as _deflate
except ImportError:  # pragma: no cover - a platform without its wheel: zlib, same PNGs to the eye
    _deflate = zlib

ASSETS = Path(__file__).resolve().parents[2] / "assets"
FONT_PATH = ASSETS / "fonts" / "ipaexg.ttf"

# Pictures are designed 640 px wide. Discord shows an attachment at most
# ~550 px wide, so the smallest text (17 px here) stays ≥ 14 px on screen.
WIDTH = 640
SMALL = 17
BODY = 20
LARGE = 26
HUGE = 40

# Colours: a dark wooden table (ちゃぶ台) that reads on Discord's dark and
# light themes alike, cream ink, paper for score sheets.
Color = tuple[int, int, int]
TABLE: Color = (74, 50, 36)
TABLE_EDGE: Color = (120, 86, 58)
PANEL: Color = (58, 39, 28)
INK: Color = (247, 238, 222)
INK_DIM: Color = (196, 178, 156)
PAPER: Color = (250, 246, 236)
PAPER_LINE: Color = (200, 190, 170)
PAPER_INK: Color = (40, 32, 26)
PAPER_DIM: Color = (150, 140, 128)
RED: Color = (214, 40, 40)
GOLD: Color = (244, 190, 60)
GREEN: Color = (96, 200, 120)
BLUE: Color = (110, 170, 250)
HILITE: Color = (255, 214, 102)
# Text on the dark wood meets WCAG AA (4.5:1, tests/bot/test_bot_results_words.py):
# a negative number is a light red (RED itself is 2.4:1 on TABLE: stamps and
# marks only), and a winner's row is a dark green under INK_DIM and GREEN.
NEGATIVE: Color = (255, 128, 118)  # 4.8:1 on TABLE, 5.8:1 on PANEL
WIN_ROW: Color = (44, 72, 44)  # INK_DIM 4.9:1, GREEN 4.8:1 on it
AA = 4.5  # WCAG AA contrast for text

# Player colours for charts (Okabe–Ito, colour-blind safe, plus two more).
PLAYER_COLOURS: tuple[Color, ...] = (
    (230, 159, 0),
    (86, 180, 233),
    (0, 158, 115),
    (240, 228, 66),
    (213, 94, 0),
    (204, 121, 167),
    (255, 255, 255),
    (160, 160, 160),
)

# What a name with no character the font can draw (all emoji) shows.
NO_NAME = "?"


def _read_cmap(path: Path) -> frozenset[int]:
    """The code points the font maps to a glyph (cmap formats 4 and 12)."""
    data = path.read_bytes()
    num_tables = struct.unpack_from(">H", data, 4)[0]
    cmap_off = -1
    for i in range(num_tables):
        tag, _chk, off, _len = struct.unpack_from(">4sIII", data, 12 + 16 * i)
        if tag == b"cmap":
            cmap_off = off
    if cmap_off < 0:
        return frozenset()
    _ver, n = struct.unpack_from(">HH", data, cmap_off)
    points: set[int] = set()
    for i in range(n):
        _pid, _eid, off = struct.unpack_from(">HHI", data, cmap_off + 4 + 8 * i)
        sub = cmap_off + off
        fmt = struct.unpack_from(">H", data, sub)[0]
        if fmt == 4:
            segx2 = struct.unpack_from(">H", data, sub + 6)[0]
            seg = segx2 // 2
            ends = struct.unpack_from(f">{seg}H", data, sub + 14)
            starts = struct.unpack_from(f">{seg}H", data, sub + 16 + segx2)
            deltas = struct.unpack_from(f">{seg}h", data, sub + 16 + 2 * segx2)
            ro_pos = sub + 16 + 3 * segx2
            offs = struct.unpack_from(f">{seg}H", data, ro_pos)
            for k in range(seg):
                for c in range(starts[k], ends[k] + 1):
                    if c == 0xFFFF:
                        continue
                    if offs[k] == 0:
                        gid = (c + deltas[k]) & 0xFFFF
                    else:
                        at = ro_pos + 2 * k + offs[k] + 2 * (c - starts[k])
                        gid = struct.unpack_from(">H", data, at)[0]
                        if gid:
                            gid = (gid + deltas[k]) & 0xFFFF
                    if gid:
                        points.add(c)
        elif fmt == 12:
            ngroups = struct.unpack_from(">I", data, sub + 12)[0]
            for g in range(ngroups):
                s, e, gid = struct.unpack_from(">III", data, sub + 16 + 12 * g)
                for c in range(s, e + 1):
                    if gid + (c - s):
                        points.add(c)
    return frozenset(points)


COVERED: frozenset[int] = _read_cmap(FONT_PATH)

# Emoji (in names): drawn in colour from an emoji font when one is installed
# — Debian's fonts-noto-color-emoji (the Dockerfile and scripts/test-deps.sh
# install it), or the file CHABUDAI_EMOJI_FONT names — else dropped as
# characters the font lacks. Noto Color Emoji is a bitmap font (CBDT): Pillow
# draws it at its one size, 109 px (136 × 128 bitmaps), which is then scaled
# to the text's size.
EMOJI_FONT_PATHS = (
    "/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf",
    "/usr/share/fonts/noto/NotoColorEmoji.ttf",
    "/usr/share/fonts/google-noto-emoji/NotoColorEmoji.ttf",
)
EMOJI_NATIVE = 109  # the size Noto Color Emoji's bitmaps are drawn at
_EMOJI_BOX = 128  # their height at that size: scaled to the text's size
_SELECTORS = (0xFE0E, 0xFE0F)  # variation selectors (no glyph of their own)


def _emoji_font_path() -> Path | None:
    named = os.environ.get("CHABUDAI_EMOJI_FONT")
    for candidate in ([named] if named else []) + list(EMOJI_FONT_PATHS):
        if Path(candidate).is_file():
            return Path(candidate)
    return None


EMOJI_FONT_PATH = _emoji_font_path()
# what the emoji font draws that the text font does not (emoji, ZWJ, skin tones…)
EMOJI: frozenset[int] = _read_cmap(EMOJI_FONT_PATH) - COVERED if EMOJI_FONT_PATH else frozenset()
_emoji_on = [bool(EMOJI)]


@contextmanager
def emoji(on: bool) -> Iterator[None]:
    """Draw emoji (``on``, when the font is there) or drop them within the
    block: the golden images are drawn without, so they do not depend on
    whether a machine has the emoji font (``tests/render/golden.py``)."""
    before = _emoji_on[0]
    _emoji_on[0] = on and bool(EMOJI)
    try:
        yield
    finally:
        _emoji_on[0] = before


def emoji_drawn() -> bool:
    """Whether emoji are drawn now (the font is installed and not turned off)."""
    return _emoji_on[0]


def _is_emoji(ch: str) -> bool:
    return ord(ch) in EMOJI or ord(ch) in _SELECTORS


def _runs(text: str) -> list[tuple[bool, str]]:
    """``text`` cut into runs of emoji (``True``) and of text."""
    out: list[tuple[bool, str]] = []
    for ch in text:
        kind = _is_emoji(ch)
        if out and out[-1][0] == kind:
            out[-1] = (kind, out[-1][1] + ch)
        else:
            out.append((kind, ch))
    return out


def _has_emoji(text: str) -> bool:
    # no emoji is ASCII: most labels and numbers are answered without a loop
    return _emoji_on[0] and not text.isascii() and _any_emoji(text)


@lru_cache(maxsize=8192)
def _any_emoji(text: str) -> bool:
    return any(_is_emoji(ch) for ch in text)


@cache
def _emoji_font() -> ImageFont.FreeTypeFont:
    assert EMOJI_FONT_PATH is not None
    return ImageFont.truetype(str(EMOJI_FONT_PATH), EMOJI_NATIVE)


def _emoji_width(run: str, size: int) -> int:
    return math.ceil(_emoji_font().getlength(run) * size / _EMOJI_BOX)


@lru_cache(maxsize=1024)
def _emoji_image(run: str, size: int) -> Image.Image:
    """A run of emoji in colour (RGBA), ``size`` px high."""
    big = _emoji_font()
    width = max(1, math.ceil(big.getlength(run)))
    img = Image.new("RGBA", (width, _EMOJI_BOX), (0, 0, 0, 0))
    ImageDraw.Draw(img).text((0, 0), run, font=big, embedded_color=True)
    return img.resize((max(1, _emoji_width(run, size)), size), Image.Resampling.LANCZOS)


@cache
def font(size: int) -> ImageFont.FreeTypeFont:
    """The shipped Japanese + Latin font (IPAex Gothic) at ``size`` px."""
    return ImageFont.truetype(str(FONT_PATH), size)


def safe_text(text: str) -> str:
    """``text`` with every character the fonts lack dropped: emoji stay
    when the emoji font draws them (:data:`EMOJI`), else they go too.

    An emoji sequence goes as a whole (zero-width joiners, variation
    selectors, skin-tone modifiers and combining marks the font cannot draw
    go with it); control characters become spaces; the spaces a dropped
    character leaves are folded, so without the emoji font
    ``"🎲 Dice King 🎲"`` reads ``"Dice King"``. Never an error, never a
    missing-glyph box.
    """
    return _safe_text(text, _emoji_on[0])


@lru_cache(maxsize=4096)
def _safe_text(text: str, with_emoji: bool) -> str:
    out: list[str] = []
    after_emoji = False
    for ch in text:
        if unicodedata.category(ch) == "Cc":
            out.append(" ")
        elif ord(ch) in COVERED:
            out.append(ch)
        elif ch in (" ", "\u3000"):
            out.append(" ")
        elif with_emoji and (ord(ch) in EMOJI or (after_emoji and ord(ch) in _SELECTORS)):
            out.append(ch)
            after_emoji = True
            continue
        # anything else (emoji without their font, ZWJ, selectors…) is left out
        after_emoji = False
    return " ".join("".join(out).split())


def text_width(text: str, size: int) -> int:
    """The advance width of ``text`` at ``size`` px (cached: sheets measure
    the same labels and numbers on every picture), its emoji included."""
    return _text_width(text, size, _has_emoji(text))


@lru_cache(maxsize=8192)
def _text_width(text: str, size: int, with_emoji: bool) -> int:
    if not with_emoji:
        return int(font(size).getlength(text))
    return sum(
        _emoji_width(run, size) if is_emoji else int(font(size).getlength(run))
        for is_emoji, run in _runs(text)
    )


def fit(text: str, size: int, width: int) -> str:
    """``text`` (already safe) shortened with … to fit ``width`` px."""
    if text_width(text, size) <= width:
        return text
    lo, hi = 0, len(text)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if text_width(text[:mid] + "…", size) <= width:
            lo = mid
        else:
            hi = mid - 1
    # never inside an emoji sequence (a joiner, a skin tone or a selector next)
    while 0 < lo < len(text) and _is_emoji(text[lo]) and unicodedata.category(text[lo]) != "So":
        lo -= 1
    while 0 < lo and text[lo - 1] == "\u200d":
        lo -= 1
    return text[:lo] + "…"


def name(text: str, size: int, width: int) -> str:
    """A player name made drawable and shortened to ``width`` px; a name the
    font cannot draw at all (only emoji) shows as :data:`NO_NAME`."""
    return fit(safe_text(text) or NO_NAME, size, width)


def who(view: Mapping[str, Any], player: str) -> str:
    """The name people know ``player`` by: the display name the bot passes
    in ``view["display_names"]`` (engine name → display name, see
    :func:`bot.pictures.table_picture`), else the engine name itself."""
    names = view.get("display_names") or {}
    return str(names.get(player) or player)


def luminance(c: Color) -> float:
    """Relative luminance (WCAG 2)."""

    def lin(v: int) -> float:
        x = v / 255
        return x / 12.92 if x <= 0.04045 else ((x + 0.055) / 1.055) ** 2.4

    r, g, b_ = (lin(v) for v in c)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b_


def contrast(a: Color, b_: Color) -> float:
    """The WCAG 2 contrast ratio of two colours (1 to 21)."""
    la, lb = sorted((luminance(a), luminance(b_)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


@lru_cache(maxsize=8192)
def _text_mask(text: str, size: int, anchor: str, stroke: int) -> tuple[Image.Image, int, int]:
    """``text`` rasterised once as an anti-aliased mask, with its offset from
    the anchor point (glyph rendering is the slowest part of a picture)."""
    box = font(size).getbbox(text, anchor=anchor, stroke_width=stroke)
    left, top, right, bottom = (int(v) for v in box)
    mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
    ImageDraw.Draw(mask).text(
        (-left, -top),
        text,
        font=font(size),
        fill=255,
        anchor=anchor,
        stroke_width=stroke,
        stroke_fill=255,
    )
    return mask, left, top


def draw_text(
    d: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    size: int,
    fill: Color,
    anchor: str = "la",
    bold: bool = False,
) -> None:
    """Draw ``text`` (already safe); ``bold`` strokes it in its own colour.
    Emoji in it are drawn in colour, centred on the line (:data:`EMOJI`)."""
    if not text:
        return
    if _has_emoji(text):
        _draw_with_emoji(d, xy, text, size, fill, anchor, 1 if bold else 0)
        return
    stroke = 1 if bold else 0
    mask, left, top = _text_mask(text, size, anchor, stroke)
    at = (round(xy[0]) + left, round(xy[1]) + top)
    if isinstance(d, _PaletteDraw):
        d.on.paste(mask, at, ("t", text, size, anchor, stroke, fill), fill)
    else:
        d.bitmap(at, mask, fill=fill)


def _draw_with_emoji(
    d: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    size: int,
    fill: Color,
    anchor: str,
    stroke: int,
) -> None:
    """Text and emoji runs one after another, placed as ``anchor`` places
    the whole: the text by its own masks, each emoji run pasted in colour."""
    horizontal, vertical = anchor[0], anchor[1]
    runs = _runs(text)
    widths = [text_width(run, size) for _, run in runs]
    total = sum(widths)
    x = xy[0] - (total if horizontal == "r" else total / 2 if horizontal == "m" else 0)
    line = "l" + vertical
    top, bottom = font(size).getbbox("あ", anchor=line)[1::2]  # a full-height glyph
    middle = xy[1] + (top + bottom) / 2
    image = d._image  # the picture being drawn on (ImageDraw keeps it)
    for (is_emoji, run), width in zip(runs, widths, strict=True):
        if is_emoji:
            pic = _emoji_image(run, size)
            paste(image, pic, (round(x), round(middle - pic.height / 2)))
        elif run.strip():
            mask, left, top_ = _text_mask(run, size, line, stroke)
            at = (round(x) + left, round(xy[1]) + top_)
            if isinstance(d, _PaletteDraw):
                d.on.paste(mask, at, ("t", run, size, line, stroke, fill), fill)
            else:
                d.bitmap(at, mask, fill=fill)
        x += width


def canvas(
    height: int, width: int = WIDTH, colour: Color = TABLE, *, rgb: bool = False
) -> Image.Image:
    """A fresh opaque picture with the table background and a thin edge:
    drawn on the kind's kept palette while :func:`drawn` draws a picture
    there (``rgb``: in full colour all the same, e.g. a layer to be kept)."""
    on = None if rgb else _drawing_now()
    if on is not None:
        img = on.new_canvas((width, height), colour)
    else:
        img = Image.new("RGB", (width, height), colour)
    d = draw(img)
    d.rectangle((0, 0, width - 1, height - 1), outline=TABLE_EDGE, width=3)
    return img


def layer(img: Image.Image) -> Image.Image:
    """A copy of a kept full-colour picture (``img``, e.g. the table with
    the empty bowl) to draw on: on the kind's palette while :func:`drawn`
    draws there, mapped once per palette."""
    on = _drawing_now()
    return img.copy() if on is None else on.from_layer(img)


def draw(img: Image.Image) -> ImageDraw.ImageDraw:
    """The ImageDraw of ``img``: a picture drawn on a palette
    (:func:`canvas` within :func:`drawn`) takes colours as RGB tuples all
    the same."""
    on = _drawing_now()
    if on is not None and img is on.canvas:
        return _PaletteDraw(img, on)
    return ImageDraw.Draw(img)


def paste(
    img: Image.Image, sprite: Image.Image, xy: tuple[float, float], keep: bool = True
) -> None:
    """Paste an RGBA ``sprite`` by its alpha with its top-left at ``xy``
    (``keep``: a sprite that is drawn again, kept by the caller's cache — its
    mapping onto a palette is kept too)."""
    at = (round(xy[0]), round(xy[1]))
    on = _drawing_now()
    if on is not None and img is on.canvas:
        on.paste(sprite, at, ("s", id(sprite)) if keep else None, None, sprite)
    else:
        img.paste(sprite, at, sprite)


# Colours that must come out exact (pips, suits, marks); the renderers add
# theirs at import. The rest of the palette adapts to each picture.
KEY_COLOURS: list[Color] = [
    TABLE,
    TABLE_EDGE,
    PANEL,
    INK,
    INK_DIM,
    PAPER,
    PAPER_LINE,
    PAPER_INK,
    PAPER_DIM,
    RED,
    GOLD,
    GREEN,
    BLUE,
    HILITE,
    NEGATIVE,
    WIN_ROW,
    *PLAYER_COLOURS,
    (0, 0, 0),
    (255, 255, 255),
]


SAMPLE = 5  # a picture's own palette is found on every SAMPLE-th pixel each way
# deflate's level (ISA-L's 0-3; zlib's 1 where ISA-L is missing): ISA-L's 1 packs a
# table picture in 0.1-0.2 ms (zlib's 1 took 0.6-1.4 ms) into files 5-10 % smaller
COMPRESS = 1


FIT = 24  # a kept palette fits a picture whose sampled pixels map this close…
MISFIT = 0.002  # …but for this share of them (the golden tests allow 0.2 % off by > 40)
WORSE = 0.2  # …and on average no further than this beyond how it maps its own sample (0.6-1.2)


# a piece drawn on a palette (Pillow's core images): its pixels, how far each is off, where
# it drew; the bytes it holds with its key; what it was drawn from (kept alive: keyed by id)
_Piece = tuple[Any, Any, Any, int, Any]


class Palette:
    """A palette pictures are mapped onto, and the sample it was found on.

    Pillow keeps with a palette its lookup of the nearest entry (64³ cells,
    each filled when a colour first falls in it): a fresh palette costs
    0.5-1.3 ms a picture to fill, more than the mapping itself, so each kind
    of picture (``"nine-table"``…) keeps its palette while it fits
    (:func:`encode`). Pillow maps without the GIL and fills that lookup as
    it goes: one thread maps onto a palette at a time."""

    def __init__(self, colours: list[int], sample: Image.Image) -> None:
        self.image = Image.new("P", (1, 1))
        self.image.putpalette(colours)
        self.lock = threading.Lock()
        self.sample = sample
        self.own: tuple[float, float] | None = None  # how it maps the sample it was found on
        # drawing on it (:func:`drawn`): its colours, and the colours of lines
        # and fills it maps too far, added after them (the same index for
        # every picture drawn on it, so that mapped pieces stay valid)
        self.colours = list(colours)
        self.base = len(colours) // 3
        self.index: dict[tuple[int, ...], int] = {}  # a line's or fill's colour → its entry
        self.offs: dict[tuple[int, ...], int] = {}  # … and how far off that entry is
        self.extra: list[int] = []
        self.pieces: dict[Any, _Piece] = {}  # looked up without the lock (one dict get)
        self.pieces_size = 0  # bytes the pieces and their keys hold
        self.layers: dict[int, tuple[np.ndarray, Image.Image, Image.Image]] = {}

    def off(self, sample: Image.Image) -> tuple[float, float]:
        """The share of ``sample``'s pixels mapped further than :data:`FIT`
        from their colour (each channel), and the mean distance."""
        mapped, wanted = np.asarray(self.map(sample).convert("RGB")), np.asarray(sample)
        d = np.maximum(mapped, wanted) - np.minimum(mapped, wanted)  # |a - b|, in bytes
        # the largest of the three (max(axis=2) over 3 values took 20× as long)
        off = np.maximum(np.maximum(d[..., 0], d[..., 1]), d[..., 2])
        return float((off > FIT).mean()), float(off.mean())

    def map(self, img: Image.Image) -> Image.Image:
        with self.lock:
            return img.quantize(palette=self.image, dither=Image.Dither.NONE)

    def map_core(self, img: Any) -> Any:
        """:meth:`map` for a small piece, on Pillow's core images (the
        mapped one carries the palette): Image.quantize copies it each time."""
        with self.lock:
            return img.convert("P", 0, self.image.im)

    def fits(self, sample: Image.Image) -> bool:
        """Whether all but :data:`MISFIT` of ``sample``'s pixels (or twice
        the share of the palette's own sample) map within :data:`FIT` of
        their colour (each channel), and on average within :data:`WORSE`
        more than the palette's own sample (0.75 in any case)."""
        if self.own is None:
            self.own = self.off(self.sample)
        if self.own is None:
            self.own = self.off(self.sample)
        return _near(self.off(sample), self.own)

    def close(self, far: float, mean: float) -> bool:
        """Whether a picture drawn on the palette whose sampled pixels are
        ``far`` (share) and ``mean`` (average) off their colours looks as
        drawn (as :meth:`fits` asks)."""
        if self.own is None:
            self.own = self.off(self.sample)
        return _near((far, mean), self.own)

    def ink(self, colour: tuple[int, ...]) -> int:
        """The entry a line or fill of ``colour`` is drawn with: the one a
        picture drawn in full colour maps it to, or where that is off by
        more than :data:`FILL_OFF`, the colour itself added after the palette's
        (:class:`Misfit` when 256 are taken)."""
        rgb = tuple(colour[:3])
        got = self.index.get(rgb)
        if got is not None:
            return got
        mapped = self.map(Image.new("RGB", (1, 1), rgb)).getpixel((0, 0))
        assert isinstance(mapped, int)
        near = self.colours[3 * mapped : 3 * mapped + 3]
        off = max(abs(a - b_) for a, b_ in zip(near, rgb, strict=True))
        with self.lock:
            got = self.index.get(rgb)
            if got is None:
                got = mapped
                if off > FILL_OFF:
                    got, off = self.base + len(self.extra) // 3, 0
                    if got > 255:
                        raise Misfit(f"no room for {rgb}")
                    self.extra.extend(rgb)
                self.offs[rgb] = off
                self.index[rgb] = got
            return got

    def ink_off(self, colour: tuple[int, ...]) -> int:
        """How far off its colour a line or fill of ``colour`` is drawn."""
        rgb = tuple(colour[:3])
        if rgb not in self.offs:
            self.ink(rgb)
        return self.offs[rgb]

    def keep_piece(self, key: Any, got: _Piece) -> None:
        """Keep a piece (the oldest go past :data:`PIECES_BYTES`)."""
        with self.lock:
            if key in self.pieces:
                return
            self.pieces[key] = got
            self.pieces_size += got[3]
            while self.pieces_size > PIECES_BYTES and self.pieces:
                self.pieces_size -= self.pieces.pop(next(iter(self.pieces)))[3]


def _near(off: tuple[float, float], own: tuple[float, float]) -> bool:
    far, mean = off
    own_far, own_mean = own
    return far <= max(MISFIT, 2 * own_far) and mean <= max(0.75, own_mean + WORSE)


def palette_of(sample: Image.Image, colours: int = 160) -> Palette:
    """``colours`` found on ``sample`` (FASTOCTREE) and the exact key
    colours (:data:`KEY_COLOURS`), 256 at most. (More exact colours — a
    sample's most frequent ones — mapped worse: Pillow finds the nearest
    entry for cells of 4×4×4 colours, and crowded entries confuse it.)"""
    found = sample.quantize(colours, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    pal = (found.getpalette() or [])[: colours * 3]
    keys = [v for c in dict.fromkeys(KEY_COLOURS) for v in c]
    pal.extend(keys[: (256 - len(pal) // 3) * 3])
    return Palette(pal, sample)


_kept_palettes: dict[str, Palette] = {}
_palettes_lock = threading.Lock()

PIECES_BYTES = 4 << 20  # a palette's mapped pieces (text and sprites on what lay under them)
FILL_OFF = 6  # a line or fill mapped further off than this gets its own colour


class Misfit(Exception):
    """A picture drawn on a kept palette would not look as drawn in full
    colour (or its palette has no room for a colour): drawn again in full
    colour, with a palette of its own."""


class _OnPalette:
    """A picture being drawn on a kind's kept palette (:func:`drawn`).

    Lines and fills take the entry a picture drawn in full colour maps
    their colour to (:meth:`Palette.ink`). Text and sprites are
    anti-aliased: each is drawn in full colour over the pixels it lands on
    and mapped onto the palette, and that piece is kept by (what is drawn,
    what lay under it), so the next picture pastes it as it is. Beside the
    picture an ``L`` image holds how far each pixel is off its colour, so
    that :meth:`close` checks the whole picture as :meth:`Palette.fits`
    checks a sample."""

    def __init__(self, palette: Palette) -> None:
        self.palette = palette
        self.canvas: Image.Image | None = None
        self.pixels: np.ndarray | None = None  # the canvas's own pixels (shared memory)
        self.errors: Image.Image | None = None  # how far each pixel is off (L)
        self.core: Any = None  # the canvas's and the errors' Pillow cores
        self.errors_core: Any = None
        self.colours = 0  # entries the canvas's palette has

    def _new(self, pixels: np.ndarray, errors: Image.Image) -> Image.Image:
        if self.canvas is not None:
            raise Misfit("a second canvas")
        h, w = pixels.shape
        img = Image.frombuffer("P", (w, h), pixels, "raw", "P", 0, 1)
        img.readonly = 0  # drawn on in place: self.pixels sees every change
        self.canvas, self.pixels, self.errors = img, pixels, errors
        self.core, self.errors_core = img.im, errors.im  # Pillow's own, pasted on directly
        self.sync()
        return img

    def sync(self) -> None:
        """The canvas's palette: the palette's colours and those added."""
        pal = self.palette
        if self.canvas is not None and self.colours != pal.base + len(pal.extra) // 3:
            self.colours = pal.base + len(pal.extra) // 3
            self.canvas.putpalette(pal.colours + pal.extra)

    def new_canvas(self, size: tuple[int, int], colour: Color) -> Image.Image:
        pal = self.palette
        pixels = np.full((size[1], size[0]), pal.ink(colour), np.uint8)
        return self._new(pixels, Image.new("L", size, pal.ink_off(colour)))

    def from_layer(self, img: Image.Image) -> Image.Image:
        pal = self.palette
        got = pal.layers.get(id(img))
        if got is None or got[2] is not img:
            rgb = img.convert("RGB")
            mapped = pal.map(rgb)
            off = _off(np.asarray(mapped.convert("RGB")), np.asarray(rgb))
            got = (np.array(mapped, np.uint8), Image.fromarray(off), img)
            if len(pal.layers) >= 8:  # a renderer's few kept layers (Six Dice: a height each)
                pal.layers.clear()
            pal.layers[id(img)] = got
        pixels, errors, _img = got
        return self._new(pixels.copy(), errors.copy())

    def paste(
        self,
        source: Image.Image,
        at: tuple[int, int],
        key: Any,
        fill: Color | None,
        sprite: Image.Image | None = None,
    ) -> None:
        """Draw ``source`` (an L mask in ``fill``, or an RGBA sprite by its
        alpha) with its top-left at ``at``."""
        assert self.canvas is not None and self.pixels is not None and self.errors is not None
        x0, y0 = at
        w, h = source.size
        x1, y1 = x0 + w, y0 + h
        H, W = self.pixels.shape
        box = (x0, y0, x1, y1)
        if x0 < 0 or y0 < 0 or x1 > W or y1 > H:  # partly off the picture
            box = (
                x0 if x0 > 0 else 0,
                y0 if y0 > 0 else 0,
                x1 if x1 < W else W,
                y1 if y1 < H else H,
            )
            if box[0] >= box[2] or box[1] >= box[3]:
                return
            cut = (box[0] - x0, box[1] - y0, box[2] - x0, box[3] - y0)
            source = source.crop(cut)
            key = None if key is None else (*key, cut)
        under = self.pixels[box[1] : box[3], box[0] : box[2]].tobytes()
        full = None if key is None else (key, under)
        got = None if full is None else self.palette.pieces.get(full)
        if got is None:
            got = self._compose(source, box, fill, sprite, len(under))
            if full is not None:
                self.palette.keep_piece(full, got)
        self.core.paste(got[0], box)
        self.errors_core.paste(got[1], box, got[2])

    def _compose(
        self,
        source: Image.Image,
        box: tuple[int, int, int, int],
        fill: Color | None,
        keep: Any,
        size: int,
    ) -> _Piece:
        """The piece: what lies under ``box`` with ``source`` drawn on it in
        full colour, mapped onto the palette where it drew; how far those
        pixels are off; and where it drew."""
        assert self.canvas is not None
        self.sync()
        self.canvas.load()  # its palette as synced: the piece's colours under
        # all on Pillow's cores: its Python wrappers cost more than the work here
        piece = self.core.crop(box)
        rgb = piece.convert("RGB")
        whole = (0, 0, *source.size)
        if fill is None:
            rgb.paste(source.im, whole, source.im)  # by its alpha
            touched = source.im.getband(3)
        else:
            rgb.paste(fill, whole, source.im)
            touched = source.im
        mapped = self.palette.map_core(rgb)
        where = touched.point(_TOUCHED, None)
        piece.paste(mapped, whole, where)
        # how far each pixel is off: the largest of its three channel differences
        diff = mapped.convert("RGB").chop_difference(rgb)
        errors = diff.getband(0).chop_lighter(diff.getband(1)).chop_lighter(diff.getband(2))
        return piece, errors, where, 4 * size + 200, keep

    def off(self) -> tuple[float, float]:
        """The share of the picture's pixels further than :data:`FIT` off
        their colour (each channel), and the mean distance, on the sample
        :func:`encode` takes of a picture in full colour."""
        assert self.errors is not None
        w, h = self.errors.size
        sample = self.errors.resize(
            (max(1, w // SAMPLE), max(1, h // SAMPLE)), Image.Resampling.NEAREST
        )
        counts = sample.histogram()
        area = sample.width * sample.height
        return sum(counts[FIT + 1 :]) / area, sum(i * n for i, n in enumerate(counts) if n) / area

    def close(self) -> bool:
        """Whether the picture looks as drawn in full colour: its pixels as
        near their colours as :meth:`Palette.fits` wants a sample's."""
        return self.palette.close(*self.off())


_TOUCHED = [0] + [255] * 255  # a mask's touched pixels


def _off(mapped: np.ndarray, wanted: np.ndarray) -> np.ndarray:
    """How far each mapped pixel is off its colour: the largest of its
    three channel differences."""
    d = np.maximum(mapped, wanted) - np.minimum(mapped, wanted)  # |a - b|, in bytes
    off: np.ndarray = np.maximum(np.maximum(d[..., 0], d[..., 1]), d[..., 2])
    return off


class _PaletteDraw(ImageDraw.ImageDraw):
    """ImageDraw on a canvas drawn on a palette: RGB colours become their
    entries (:meth:`Palette.ink`), and each shape is drawn on the picture's
    errors too, in how far its colour is off."""

    def __init__(self, img: Image.Image, on: _OnPalette) -> None:
        super().__init__(img)
        self.on = on
        assert on.errors is not None
        self.shadow = ImageDraw.Draw(on.errors)

    def text(self, *args: Any, **kwargs: Any) -> None:
        raise Misfit("text drawn without draw_text")  # its anti-aliasing would blend entries

    def _getink(self, ink: Any, fill: Any = None) -> tuple[int | None, int | None]:
        if isinstance(ink, (tuple, list)):
            ink = self.on.palette.ink(tuple(ink))
        if isinstance(fill, (tuple, list)):
            fill = self.on.palette.ink(tuple(fill))
        self.on.sync()
        return super()._getink(ink, fill)

    def bitmap(self, xy: Any, bitmap: Image.Image, fill: Any = None) -> None:
        if not isinstance(fill, tuple):
            raise Misfit("a bitmap without its colour")
        self.on.paste(bitmap, (round(xy[0]), round(xy[1])), None, fill)


def _shadowed(name: str) -> Callable[..., None]:
    drawn = getattr(ImageDraw.ImageDraw, name)

    def shape(self: _PaletteDraw, xy: Any, *args: Any, **kwargs: Any) -> None:
        drawn(self, xy, *args, **kwargs)
        if kwargs.get("fill") is None and not any(isinstance(a, tuple) for a in args):
            return  # lines and outlines: too thin to count
        off = self.on.palette.ink_off
        args = tuple(off(a) if isinstance(a, tuple) else a for a in args)
        for k in ("fill", "outline"):
            if isinstance(kwargs.get(k), (tuple, list)):
                kwargs[k] = off(tuple(kwargs[k]))
        getattr(self.shadow, name)(xy, *args, **kwargs)

    shape.__name__ = name
    return shape


for _shape in ("chord", "ellipse", "pieslice", "polygon", "rectangle", "regular_polygon",
               "rounded_rectangle"):  # fmt: skip
    setattr(_PaletteDraw, _shape, _shadowed(_shape))


_drawing = threading.local()  # the picture this thread draws on a palette, if any


def _drawing_now() -> _OnPalette | None:
    return getattr(_drawing, "now", None)


def _shares_memory() -> bool:
    """Whether a picture made on numpy's pixels draws into them (Pillow's
    frombuffer), as :class:`_OnPalette` needs."""
    try:
        pixels = np.zeros((2, 3), np.uint8)
        img = Image.frombuffer("P", (3, 2), pixels, "raw", "P", 0, 1)
        img.readonly = 0
        ImageDraw.Draw(img).point((2, 1), fill=7)
        img.paste(Image.new("P", (1, 1), 5), (0, 0))
        return int(pixels[1, 2]) == 7 and int(pixels[0, 0]) == 5
    except Exception:  # pragma: no cover - another Pillow
        return False


ON_PALETTE = _shares_memory()  # draw table and hand pictures on their kind's palette


def drawn(
    kind: str, render: Callable[[], tuple[Image.Image, str] | None]
) -> tuple[bytes, str] | None:
    """``render()``'s picture as PNG bytes, and its alt text (``None``:
    no picture). While ``kind`` keeps a palette (:func:`encode`), the
    picture is drawn on it: no mapping of the whole picture, and text and
    sprites pasted as mapped before. Where that would not look as drawn
    in full colour (:meth:`_OnPalette.close`), the picture is drawn again
    in full colour and gets a palette of its own."""
    palette = _kept_palettes.get(kind) if ON_PALETTE else None
    if palette is not None:
        on = _OnPalette(palette)
        _drawing.now = on
        try:
            made = render()
            if made is None:
                return None
            img, alt = made
            if img is on.canvas and on.close():
                on.sync()
                return png(img, on.pixels), alt
            if img is not on.canvas and img.mode != "P":
                return encode(img, kind=kind), alt
        except Misfit:
            pass
        finally:
            _drawing.now = None
    made = render()
    if made is None:
        return None
    img, alt = made
    return encode(img, kind=kind, fresh=palette is not None), alt


def encode(
    img: Image.Image, colours: int = 160, kind: str | None = None, fresh: bool = False
) -> bytes:
    """PNG bytes, as an 8-bit palette picture (fast to encode, small file).

    The palette is found on a sparse sample of the picture (every
    :data:`SAMPLE`-th pixel each way: cheap, a picture is mostly flat areas)
    plus the exact key colours (:data:`KEY_COLOURS`). A ``kind`` of picture
    keeps the palette found for one of its pictures while it fits the next
    picture's sample (:meth:`Palette.fits`: nearly as close as the
    picture's own palette would be); a picture it does not fit has a
    palette found for it, kept in its stead (``fresh``: found in any case).
    Every pixel maps to its nearest entry without dithering, and the file
    is written by :func:`png` (15-35 KB, the budget is 150 KB). A table or
    hand picture is drawn on its kind's palette instead (:func:`drawn`).
    """
    sample = img.resize(
        (max(1, img.width // SAMPLE), max(1, img.height // SAMPLE)), Image.Resampling.NEAREST
    )
    if kind is None:
        palette = palette_of(sample, colours)
    else:
        kept = _kept_palettes.get(kind)
        palette = None if fresh else kept  # type: ignore[assignment]
        if palette is None or not palette.fits(sample):
            # found on this picture's sample and the kind's earlier ones: a
            # kind's palette comes to hold all its colours and is kept longer
            palette = palette_of(sample if kept is None else _stacked(kept.sample, sample), colours)
            with _palettes_lock:
                _kept_palettes[kind] = palette
    return png(palette.map(img))


SAMPLES_HIGH = 4 * 600 // SAMPLE  # a kind's palette is found on samples this high at most


def _stacked(older: Image.Image, newer: Image.Image) -> Image.Image:
    """``newer`` under ``older`` (the oldest rows dropped past
    :data:`SAMPLES_HIGH`); where one is narrower, the table's colour."""
    width = max(older.width, newer.width)
    keep = max(0, min(older.height, SAMPLES_HIGH - newer.height))
    out = Image.new("RGB", (width, keep + newer.height), TABLE)
    out.paste(older.crop((0, older.height - keep, older.width, older.height)), (0, 0))
    out.paste(newer, (0, keep))
    return out


def _chunk(tag: bytes, data: bytes) -> bytes:
    return (
        struct.pack(">I", len(data))
        + tag
        + data
        + struct.pack(">I", zlib.crc32(data, zlib.crc32(tag)))
    )


_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def png(img: Image.Image, pixels: np.ndarray | None = None) -> bytes:
    """An 8-bit palette picture (mode ``"P"``) as PNG bytes: every row
    unfiltered (a picture of flat areas packs as small), deflated by ISA-L
    (:data:`COMPRESS`; Pillow's own writer only knows zlib, 5-8× slower).
    ``pixels``: its entries as an array already (a canvas drawn on a palette)."""
    w, h = img.size
    rows = np.empty((h, w + 1), np.uint8)
    rows[:, 0] = 0  # filter type None
    rows[:, 1:] = np.asarray(img) if pixels is None else pixels
    plte = bytes(img.getpalette() or [0, 0, 0])
    return b"".join(
        (
            _SIGNATURE,
            _chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 3, 0, 0, 0)),
            _chunk(b"PLTE", plte),
            _chunk(b"IDAT", _deflate.compress(rows, COMPRESS)),
            _chunk(b"IEND", b""),
        )
    )


def forget_palettes() -> None:
    """Forget every kind's kept palette (each is found again)."""
    with _palettes_lock:
        _kept_palettes.clear()


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
