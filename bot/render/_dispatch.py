"""Dispatch from a view's game name to its renderer."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PIL import Image

from bot.render import Picture, bluff, nine, sixdice, sixtysix, yahtzee
from bot.render import _base as b

Renderer = Callable[[dict[str, Any], str], tuple[Image.Image, str]]

TABLES: dict[str, Renderer] = {
    "nine": nine.table,
    "sixdice": sixdice.table,
    "yahtzee": yahtzee.table,
    "sixtysix": sixtysix.table,
    "bluff": bluff.table,
}
HANDS: dict[str, Renderer] = {"sixtysix": sixtysix.hand, "bluff": bluff.hand}


def table(view: dict[str, Any], lang: str) -> Picture:
    game = str(view["game"])
    img, alt = TABLES[game](view, lang)
    return Picture(b.encode(img), alt, f"{game}-table.png")


def hand(view: dict[str, Any], lang: str) -> Picture:
    game = str(view["game"])
    # games without secrets have no private picture: their table is the same
    img, alt = HANDS.get(game, TABLES[game])(view, lang)
    return Picture(b.encode(img), alt, f"{game}-hand.png")


def result(
    view: dict[str, Any], outcome: dict[str, Any], lang: str, history: list[dict[str, int]] | None
) -> Picture:
    from bot.render import result as res

    game = str(view["game"])
    img, alt = res.result(view, outcome, lang, history)
    return Picture(b.encode(img), alt, f"{game}-result.png")
