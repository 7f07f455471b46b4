"""Emoji in names (issue 22, "Pictures"): drawn in colour with the emoji font
where it is installed (Debian's fonts-noto-color-emoji: the Dockerfile and
scripts/test-deps.sh install it), instead of dropped; without the font they
are dropped as before (tests/render/test_extremes.py)."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.pictures import board_picture
from bot.render import _base

needs_font = pytest.mark.skipif(not _base.EMOJI, reason="no colour emoji font installed")


def _board(name: str) -> Image.Image:
    pic = board_picture(
        {
            "title": "Nine leaderboard (this server, by wins)",
            "subtitle": "All time",
            "by": "wins",
            "value_label": "Wins",
            "rows": [{"rank": 1, "name": name, "value": "3", "games": 4, "wins": 3}],
        },
        lang="en",
    )
    return Image.open(io.BytesIO(pic.png)).convert("RGB")


def _colourful(img: Image.Image, box: tuple[int, int, int, int]) -> int:
    """Pixels in ``box`` of a saturated colour, which no name's ink has (the
    die's red pip, the smiley's yellow, a skin tone…)."""
    px = img.load()
    count = 0
    for x in range(box[0], box[2]):
        for y in range(box[1], box[3]):
            r, g, b_ = px[x, y]
            if max(r, g, b_) - min(r, g, b_) > 90:
                count += 1
    return count


@needs_font
def test_emoji_in_a_name_are_drawn_in_colour() -> None:
    name_cell = (60, 100, 360, 134)  # the first row's name, right of the medal
    with _base.emoji(True):
        drawn = _board("🎲 Dice King 🎲")
        plain = _board("Dice King")
        assert _base.safe_text("d😀👍🏽 e") == "d😀👍🏽 e"
        assert _base.text_width("🎲 Dice King 🎲", 20) > _base.text_width("Dice King", 20) + 30
    assert _colourful(drawn, name_cell) > 10  # the two dice's red pips
    assert _colourful(plain, name_cell) == 0
    with _base.emoji(False):  # as on a machine without the font: dropped, as before
        dropped = _board("🎲 Dice King 🎲")
    assert _colourful(dropped, name_cell) == 0


@needs_font
def test_a_long_name_is_cut_between_emoji_never_inside_one() -> None:
    family = "👨\u200d👩\u200d👧"
    with _base.emoji(True):
        for width in range(30, 160, 7):
            cut = _base.fit(family * 6 + " and friends", 20, width)
            kept = cut.removesuffix("…")
            assert not kept.endswith("\u200d"), (width, cut)
            assert kept.count("\u200d") % 2 == 0, (width, cut)  # whole families only
            assert _base.text_width(cut, 20) <= width or kept == ""


@needs_font
def test_a_name_of_emoji_only_is_drawn_not_a_question_mark() -> None:
    with _base.emoji(True):
        assert _base.name("🎲", 20, 100) == "🎲"
    with _base.emoji(False):
        assert _base.name("🎲", 20, 100) == _base.NO_NAME
