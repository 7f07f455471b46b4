"""PNG encoding: a picture mapped onto an 8-bit palette found on a sample
of it (each kind of picture keeps its palette while it fits) and written
as PNG bytes by the bot itself, deflated by ISA-L. All on Pillow's images:
numpy, which the bot used here, costs ~14 MB of RSS once imported."""

from __future__ import annotations

import struct
import threading
import zlib
from types import ModuleType
from typing import Any

from PIL import Image, ImageChops

from bot import caches
from bot.render._theme import KEY_COLOURS, TABLE

_deflate: ModuleType
try:  # ISA-L deflates a picture 6-8× faster than zlib's fastest level, files as small
    from isal import isal_zlib as _deflate
except ImportError:  # pragma: no cover - a platform without its wheel: zlib, same PNGs to the eye
    _deflate = zlib


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
        # a layer mapped (:meth:`_OnPalette.from_layer`): its entries, how far off, the layer
        self.layers: dict[int, tuple[Image.Image, Image.Image, Image.Image]] = {}

    def off(self, sample: Image.Image) -> tuple[float, float]:
        """The share of ``sample``'s pixels mapped further than :data:`FIT`
        from their colour (each channel), and the mean distance."""
        return spread(off_image(self.map(sample).convert("RGB"), sample))

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
        """Keep a piece (this palette's oldest go past :data:`PIECES_BYTES`,
        or while all palettes' pieces weigh more than :data:`PIECES_ALL`)."""
        with self.lock:
            if key in self.pieces:
                return
            self.pieces[key] = got
            self.pieces_size += got[3]
            while self.pieces and (self.pieces_size > PIECES_BYTES or _pieces_all() > PIECES_ALL):
                self.pieces_size -= self.pieces.pop(next(iter(self.pieces)))[3]


def off_image(mapped: Image.Image, wanted: Image.Image) -> Image.Image:
    """How far each pixel of ``mapped`` is off its colour in ``wanted`` (both
    RGB): the largest of its three channel differences, an ``L`` image."""
    red, green, blue = ImageChops.difference(mapped, wanted).split()
    return ImageChops.lighter(ImageChops.lighter(red, green), blue)


def spread(off: Image.Image) -> tuple[float, float]:
    """The share of an :func:`off_image`'s pixels further than :data:`FIT`
    off, and their mean distance."""
    counts = off.histogram()
    area = off.width * off.height
    return sum(counts[FIT + 1 :]) / area, sum(i * n for i, n in enumerate(counts) if n) / area


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

PIECES_BYTES = 4 << 20  # a palette's mapped pieces (text and sprites on what lay under them)…
PIECES_ALL = 8 << 20  # …and all palettes' together
LOOKUP_BYTES = 64**3 * 2  # Pillow's lookup of a palette's nearest entries, once filled
LAYER_BYTES = 2 * 600 * 800  # a kept layer at most: its entries and how far off (an L image)
FILL_OFF = 6  # a line or fill mapped further off than this gets its own colour


class Misfit(Exception):
    """A picture drawn on a kept palette would not look as drawn in full
    colour (or its palette has no room for a colour): drawn again in full
    colour, with a palette of its own."""


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


def rows_buffer(size: tuple[int, int], fill: int = 0) -> tuple[bytearray, Image.Image]:
    """PNG's rows for a picture of ``size``, each a 0 (filter type None)
    and its pixels (entry ``fill``), and a palette picture (``P``: its
    entries) on the same memory: what is drawn or pasted on it is in the
    rows (the 0s stay)."""
    w, h = size
    # the picture starts at byte 1, a row every w + 1 bytes: one byte more than the rows
    rows = bytearray(b"\0" + bytes((fill,)) * w) * h
    rows.append(0)
    img = Image.frombuffer("P", size, memoryview(rows)[1:], "raw", "P", w + 1, 1)
    img.readonly = 0  # drawn on in place
    return rows, img


def png(img: Image.Image, rows: bytearray | None = None) -> bytes:
    """An 8-bit palette picture (mode ``"P"``) as PNG bytes: every row
    unfiltered (a picture of flat areas packs as small), deflated by ISA-L
    (:data:`COMPRESS`; Pillow's own writer only knows zlib, 5-8× slower).
    ``rows``: its rows already (:func:`rows_buffer`: a canvas drawn on a palette)."""
    w, h = img.size
    if rows is None:
        rows, on = rows_buffer(img.size)
        on.im.paste(img.im, (0, 0, w, h))
    plte = bytes(img.getpalette() or [0, 0, 0])
    return b"".join(
        (
            _SIGNATURE,
            _chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 3, 0, 0, 0)),
            _chunk(b"PLTE", plte),
            _chunk(b"IDAT", _deflate.compress(memoryview(rows)[: (w + 1) * h], COMPRESS)),
            _chunk(b"IEND", b""),
        )
    )


def forget_palettes() -> None:
    """Forget every kind's kept palette (each is found again)."""
    with _palettes_lock:
        _kept_palettes.clear()


def _pieces_all() -> int:
    """The bytes all kept palettes' pieces weigh (read without their locks)."""
    return sum(p.pieces_size for p in list(_kept_palettes.values()))


def _palettes_held() -> tuple[int, int]:
    with _palettes_lock:
        palettes = list(_kept_palettes.values())
    return len(palettes), sum(
        LOOKUP_BYTES + p.sample.width * p.sample.height * 3 for p in palettes
    )


def _layers_held() -> tuple[int, int]:
    with _palettes_lock:
        palettes = list(_kept_palettes.values())
    layers = [got for p in palettes for got in list(p.layers.values())]
    return len(layers), sum(2 * mapped.width * mapped.height for mapped, _errors, _ in layers)


# a palette a kind of picture (each game's table, hand and result pictures)
PALETTE_KINDS = 3 * 5
LAYERS_KEPT = 8  # layers a palette keeps (a renderer's few: Six Dice, a height each)
caches.budget("render.palettes", PALETTE_KINDS, "entries", _palettes_held)
caches.budget("render.palette_pieces", PIECES_ALL, "bytes", lambda: (
    sum(len(p.pieces) for p in list(_kept_palettes.values())), _pieces_all()))
caches.budget("render.palette_layers", PALETTE_KINDS * LAYERS_KEPT, "entries", _layers_held)
