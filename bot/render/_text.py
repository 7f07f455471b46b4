"""Text: the shipped font and the characters it draws, emoji from an
emoji font where one is installed, and text made drawable, measured and
shortened to fit. Loaded once at import; everything is cached."""

from __future__ import annotations

import math
import os
import struct
import unicodedata
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from bot import caches
from bot.render._theme import NO_NAME

ASSETS = Path(__file__).resolve().parents[2] / "assets"
FONT_PATH = ASSETS / "fonts" / "ipaexg.ttf"


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


@lru_cache(maxsize=8192)  # ~0.2 KB an entry (a name and a bool)
def _any_emoji(text: str) -> bool:
    return any(_is_emoji(ch) for ch in text)


@lru_cache(maxsize=1)
def _emoji_font() -> ImageFont.FreeTypeFont:
    assert EMOJI_FONT_PATH is not None
    return ImageFont.truetype(str(EMOJI_FONT_PATH), EMOJI_NATIVE)


def _emoji_width(run: str, size: int) -> int:
    return math.ceil(_emoji_font().getlength(run) * size / _EMOJI_BOX)


@caches.sized("render.emoji", 2 << 20)
def _emoji_image(run: str, size: int) -> Image.Image:
    """A run of emoji in colour (RGBA), ``size`` px high."""
    big = _emoji_font()
    width = max(1, math.ceil(big.getlength(run)))
    img = Image.new("RGBA", (width, _EMOJI_BOX), (0, 0, 0, 0))
    ImageDraw.Draw(img).text((0, 0), run, font=big, embedded_color=True)
    return img.resize((max(1, _emoji_width(run, size)), size), Image.Resampling.LANCZOS)


@lru_cache(maxsize=64)  # the sizes the pictures use (about 25)
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


@lru_cache(maxsize=4096)  # ~0.3 KB an entry (a name twice)
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


@lru_cache(maxsize=8192)  # ~0.2 KB an entry (a label and its width)
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


@caches.sized("render.text_masks", 4 << 20, lambda got: caches.image_bytes(got[0]) + 100)
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


caches.lru("render.emoji_checks", _any_emoji)
caches.lru("render.emoji_font", _emoji_font)
caches.lru("render.fonts", font)
caches.lru("render.safe_names", _safe_text)
caches.lru("render.text_widths", _text_width)
