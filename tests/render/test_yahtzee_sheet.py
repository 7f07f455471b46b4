"""The Yahtzee sheet reads well (issue 18): pencilled zeros have enough
contrast, the bonus row shows progress ("63 to go" / 「あと63」) and never a
penalty-like "-63", and the sheet names the boxes as the box menu does."""

from __future__ import annotations

import io

import numpy as np
import pytest
from PIL import Image

from bot.games import plugin
from bot.i18n import t
from bot.pictures import table_picture
from bot.render import _base as b
from bot.render import yahtzee as sheet
from games import registry
from games.yahtzee.scoring import BOXES

from .views import NAMES8, play

ENG = registry.engine("yahtzee")


def test_wcag_contrast_of_the_pencilled_and_progress_colours() -> None:
    # the formula itself: black on white is 21:1, a colour on itself 1:1
    assert b.contrast((0, 0, 0), (255, 255, 255)) == pytest.approx(21)
    assert b.contrast(b.PAPER, b.PAPER) == pytest.approx(1)
    # the old pencilled zero was ≈ 1.5:1
    assert b.contrast((190, 200, 220), sheet.TURN_COLUMN) < 1.6
    for colour in (sheet.PENCIL_ZERO, sheet.PENCIL, sheet.BONUS_AMBER):
        for background in (sheet.TURN_COLUMN, b.PAPER):
            assert b.contrast(colour, background) >= 3.0, (colour, background)


def _first_roll(players: list[str]) -> dict:
    """The first player's view right after the game's first roll: every box
    empty, several potential zeros pencilled in."""
    e, s = play("yahtzee", players, 1, 4)
    v = e.view(s, None)
    assert v["dice"] and any(p["score"] == 0 for p in v["potential"])
    return v


def test_pencilled_zeros_are_drawn_in_the_readable_colour() -> None:
    view = _first_roll(["alice", "bob"])
    png = table_picture(view).png  # type: ignore[union-attr]
    pixels = np.asarray(Image.open(io.BytesIO(png)).convert("RGB"))
    found = {tuple(int(v) for v in px) for px in pixels.reshape(-1, 3)}
    assert sheet.PENCIL_ZERO in found
    assert (190, 200, 220) not in found


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_bonus_progress_and_the_menus_box_names(drawn: list[str], lang: str) -> None:
    view = _first_roll(["alice", "bob", "carol"])
    table_picture(view, lang=lang)
    to_go = t("pic.to_go", lang, n=63)
    assert drawn.count(to_go) >= 1  # cached after its first drawing
    assert not [s for s in drawn if s.startswith("-")]
    names = [t(f"yahtzee.box.{box}", lang) for box in BOXES]
    assert set(names) <= set(drawn)
    # the box menu offers the same names (with the points each would score)
    turn = view["turn"]
    state_legal = [p["move"] for p in view["potential"]]
    controls = plugin("yahtzee").controls(view, turn, state_legal, {}, lang)
    [menu] = [c for c in controls if getattr(c, "options", None)]
    box_of = {p["move"]: p["box"] for p in view["potential"]}
    assert len(menu.options) == len(box_of)
    for move, label in menu.options:
        assert label.startswith(t(f"yahtzee.box.{box_of[move]}", lang))


def test_narrow_columns_say_to_the_bonus_in_the_label(drawn: list[str]) -> None:
    """Eight players: "58 to go" no longer fits a column, so the row's name
    says it and the cells hold the points still needed."""
    e, s = play("yahtzee", NAMES8, 60, 3)
    table_picture(e.view(s, None), lang="en")
    assert t("pic.to_bonus", "en") in drawn
    assert not [s for s in drawn if s[:1].isdigit() and " to" in s]  # no "58 to …"
    assert not [s for s in drawn if s.startswith("-")]
