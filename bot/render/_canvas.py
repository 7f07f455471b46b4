"""The picture being drawn: its canvas, its ImageDraw, sprites pasted and
text drawn on it — in full colour, or while :func:`drawn` draws a table or
hand picture, straight on its kind's kept palette (:mod:`bot.render._palette`)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from PIL import Image, ImageDraw

from bot.render._palette import (
    LAYERS_KEPT,
    SAMPLE,
    Misfit,
    Palette,
    _kept_palettes,
    _Piece,
    encode,
    off_image,
    png,
    rows_buffer,
    spread,
)
from bot.render._text import _emoji_image, _has_emoji, _runs, _text_mask, font, text_width
from bot.render._theme import TABLE, TABLE_EDGE, WIDTH, Color


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


def paste_made(
    img: Image.Image,
    make: Callable[[], Image.Image],
    size: tuple[int, int],
    key: Any,
    xy: tuple[float, float],
) -> None:
    """Paste the RGBA sprite of ``size`` that ``make()`` draws, by its alpha
    with its top-left at ``xy``. ``key`` says what it shows (hashable): on a
    kind's palette, a piece mapped before from the same key over the same
    pixels is pasted as it is and ``make`` is not called — no sprite kept
    anywhere, only the mapped piece (:data:`render.palette_pieces`)."""
    at = (round(xy[0]), round(xy[1]))
    on = _drawing_now()
    if on is not None and img is on.canvas:
        on.paste(make, at, ("k", key), None, size=size)
    else:
        sprite = make()
        img.paste(sprite, at, sprite)


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
        self.rows: bytearray | None = None  # the canvas's PNG rows (its memory: rows_buffer)
        self.errors: Image.Image | None = None  # how far each pixel is off (L)
        self.core: Any = None  # the canvas's and the errors' Pillow cores
        self.errors_core: Any = None
        self.colours = 0  # entries the canvas's palette has

    def _new(self, rows: bytearray, img: Image.Image, errors: Image.Image) -> Image.Image:
        if self.canvas is not None:
            raise Misfit("a second canvas")
        self.canvas, self.rows, self.errors = img, rows, errors
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
        rows, img = rows_buffer(size, pal.ink(colour))
        return self._new(rows, img, Image.new("L", size, pal.ink_off(colour)))

    def from_layer(self, img: Image.Image) -> Image.Image:
        pal = self.palette
        got = pal.layers.get(id(img))
        if got is None or got[2] is not img:
            rgb = img.convert("RGB")
            mapped = pal.map(rgb)
            got = (mapped, off_image(mapped.convert("RGB"), rgb), img)
            if len(pal.layers) >= LAYERS_KEPT:  # a renderer's few (Six Dice: a height each)
                pal.layers.clear()
            pal.layers[id(img)] = got
        mapped, errors, _img = got
        rows, canvas = rows_buffer(img.size)
        canvas.im.paste(mapped.im, (0, 0, *img.size))
        return self._new(rows, canvas, errors.copy())

    def paste(
        self,
        source: Image.Image | Callable[[], Image.Image],
        at: tuple[int, int],
        key: Any,
        fill: Color | None,
        sprite: Image.Image | None = None,
        size: tuple[int, int] | None = None,
    ) -> None:
        """Draw ``source`` (an L mask in ``fill``, or an RGBA sprite by its
        alpha) with its top-left at ``at`` (``source``: or what draws the
        sprite, of ``size``, called only if its piece is not kept)."""
        assert self.canvas is not None and self.errors is not None
        x0, y0 = at
        w, h = size if size is not None else source.size  # type: ignore[union-attr]
        x1, y1 = x0 + w, y0 + h
        W, H = self.canvas.size
        box = (x0, y0, x1, y1)
        cut = None
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
            key = None if key is None else (*key, cut)
        under = entries(self.core, box)
        full = None if key is None else (key, under)
        got = None if full is None else self.palette.pieces.get(full)
        if got is None:
            if not isinstance(source, Image.Image):
                source = source()
            if cut is not None:
                source = source.crop(cut)
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
        return spread(sample)

    def close(self) -> bool:
        """Whether the picture looks as drawn in full colour: its pixels as
        near their colours as :meth:`Palette.fits` wants a sample's."""
        return self.palette.close(*self.off())


_TOUCHED = [0] + [255] * 255  # a mask's touched pixels


def entries(core: Any, box: tuple[int, int, int, int]) -> bytes:
    """The entries of a palette picture's ``box``, row by row, read by
    Pillow's raw encoder from its core (as fast as a numpy slice: a loop
    over the rows in Python cost 4× as much)."""
    encoder = Image.core.raw_encoder("P", "P")
    encoder.setimage(core, box)
    size = (box[2] - box[0]) * (box[3] - box[1])
    chunks = []
    try:
        while True:
            _used, status, data = encoder.encode(size)
            chunks.append(data)
            if status:
                break
    finally:
        encoder.cleanup()
    if status < 0:
        raise Misfit(f"encoder error {status}")
    return b"".join(chunks)


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
    """Whether a picture made on PNG rows draws into them (Pillow's
    frombuffer, :func:`rows_buffer`), as :class:`_OnPalette` needs."""
    try:
        rows, img = rows_buffer((3, 2), 1)
        ImageDraw.Draw(img).point((2, 1), fill=7)
        img.paste(Image.new("P", (1, 1), 5), (0, 0))
        return rows == bytearray([0, 5, 1, 1, 0, 1, 1, 7, 0]) and entries(img.im, (1, 0, 3, 2)) == (
            b"\1\1\1\7"
        )
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
                return png(img, on.rows), alt
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
