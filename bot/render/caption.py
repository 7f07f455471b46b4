"""A caption band over pictures: the post-game review labels each mistake's
position with the mistake it shows (issue 22, docs/review.md).

:func:`captioned` stacks pictures (a table and, for a game with secrets, the
player's own hand or dice) under a band that names the mistake: a coloured
tag for its class, a title and a few wrapped lines. The words come from the
caller (the catalogue); nothing here knows a game.
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from bot.render import _base as b

PAD = 14
GAP = 6  # between the lines

# The tag of each class (as lichess colours them), with an ink that reads on
# it at WCAG AA (≥ 4.5:1): blue, orange, red — all already key colours of
# the palette (:data:`bot.render._base.KEY_COLOURS`), so they come out exact.
TONES: dict[str, tuple[b.Color, b.Color]] = {
    "inaccuracy": (b.BLUE, b.PAPER_INK),
    "mistake": (b.PLAYER_COLOURS[0], b.PAPER_INK),
    "blunder": (b.RED, (255, 255, 255)),
}

_OPENING = "（「『〔［【"
_CLOSING = "、。，．）」』〕］】：；！？・ー…"


def _cjk(ch: str) -> bool:
    return "\u3000" <= ch <= "\u9fff" or "\uff00" <= ch <= "\uffef"


def _break(text: str, i: int) -> int:
    """How good a line end before ``text[i]`` is: 2 at a space, after 、。：
    or a closing bracket, before an opening one; 1 between two Japanese
    characters; 0 never (inside a word or a number, before 、。）)."""
    before, after = text[i - 1], text[i]
    if after == " " or before == " ":
        return 2
    if after in _CLOSING or before in _OPENING:
        return 0
    if before in _CLOSING or after in _OPENING:
        return 2
    return 1 if _cjk(before) and _cjk(after) else 0


def wrap(text: str, size: int, width: int) -> list[str]:
    """``text`` (already safe) in lines of at most ``width`` px: broken at a
    space or a punctuation mark when one falls in the line's last 40 %, else
    between Japanese characters; a number stays with its label."""
    out: list[str] = []
    while text:
        if b.text_width(text, size) <= width:
            out.append(text)
            break
        fits = 1
        while fits < len(text) and b.text_width(text[: fits + 1], size) <= width:
            fits += 1
        good = [i for i in range(1, fits + 1) if _break(text, i) == 2]
        fair = [i for i in range(1, fits + 1) if _break(text, i) == 1]
        if good and (good[-1] >= 0.6 * fits or not fair):
            cut = good[-1]
        elif fair:
            cut = fair[-1]
        else:
            cut = fits
        out.append(text[:cut].rstrip())
        text = text[cut:].lstrip()
    return out


def captioned(
    images: Sequence[Image.Image],
    title: str,
    lines: Sequence[str] = (),
    *,
    tag: str | None = None,
    tone: str | None = None,
) -> Image.Image:
    """``images`` stacked under a caption band: ``tag`` (a class word) in the
    colour of ``tone`` (:data:`TONES`), then ``title`` in bold beside it and
    ``lines`` under them, each wrapped to the picture's width: nothing is
    cut short (a long name or moment takes another line)."""
    width = max((im.width for im in images), default=b.WIDTH)
    inner = width - 2 * PAD
    wrapped: list[str] = []
    for line in lines:
        wrapped.extend(wrap(b.safe_text(line), b.BODY, inner))
    x = PAD
    if tag:  # the pill's width (bot.render._base.pill) and a gap
        x += b.text_width(b.safe_text(tag), b.BODY) + b.BODY + 10
    # bold strokes its glyphs 1 px wider each side: 2 px of room
    heads = wrap(b.safe_text(title), b.BODY, width - PAD - x - 2) or [""]
    head = b.BODY + 10  # the tag's height
    rows = head + (len(heads) - 1) * (b.BODY + GAP)
    band = PAD + rows + len(wrapped) * (b.BODY + GAP) + PAD - (GAP if wrapped else 0)
    if wrapped:
        band += GAP
    height = band + sum(im.height for im in images)
    img = b.canvas(height, width, b.PANEL)
    d = ImageDraw.Draw(img)
    x = PAD
    if tag:
        fill, ink = TONES.get(tone or "", (b.INK_DIM, b.PAPER_INK))
        x += b.pill(d, (x, PAD), b.safe_text(tag), b.BODY, fill, ink) + 10
    for i, text in enumerate(heads):
        y = PAD + head / 2 + i * (b.BODY + GAP)
        b.draw_text(d, (x, y), text, b.BODY, b.INK, "lm", True)
    y = PAD + rows + GAP
    for line in wrapped:
        b.draw_text(d, (PAD, y), line, b.BODY, b.INK)
        y += b.BODY + GAP
    y = band
    for im in images:
        img.paste(im.convert("RGB"), (0, y))
        y += im.height
    return img
