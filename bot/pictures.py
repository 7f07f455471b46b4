"""The pictures of any game, through its plugin (:mod:`bot.games`).

- :func:`table_picture` — the table as ``view`` shows it (public view or a
  player's view); ``None`` when the game draws no picture.
- :func:`hand_picture` — a player's private picture (Sixty-Six hand, Bluff
  dice under the cup as that player saw them).
- :func:`result_picture` — final standings and settlement, with a score chart
  where the game wants one and ``history`` is given.

Pure functions of their inputs (run them off the event loop).
"""

from __future__ import annotations

from typing import Any

from bot.games import plugin
from bot.render import Picture
from bot.render import _base as b
from bot.render import result as result_render

__all__ = ["Picture", "hand_picture", "result_picture", "table_picture"]


def table_picture(view: dict[str, Any], *, lang: str = "en") -> Picture | None:
    """The table of ``view["game"]`` as ``view`` shows it."""
    game = str(view["game"])
    drawn = plugin(game).table_image(view, lang)
    if drawn is None:
        return None
    img, alt = drawn
    return Picture(b.encode(img), alt, f"{game}-table.png")


def hand_picture(view: dict[str, Any], *, lang: str = "en") -> Picture | None:
    """A player's private picture: a Sixty-Six hand, Bluff dice under the cup."""
    game = str(view["game"])
    drawn = plugin(game).hand_image(view, lang)
    if drawn is None:
        return None
    img, alt = drawn
    return Picture(b.encode(img), alt, f"{game}-hand.png")


def result_picture(
    view: dict[str, Any],
    outcome: dict[str, Any],
    *,
    lang: str = "en",
    history: list[dict[str, int]] | None = None,
) -> Picture:
    """Final standings and settlement; a score chart for the games that
    want one, when ``history`` (per-turn score snapshots, oldest first) is
    given."""
    game = str(view["game"])
    the = plugin(game)
    rows = the.result_rows(view, outcome)
    chart = history if the.result_chart and history else None
    img, alt = result_render.result(view, outcome, lang, rows, chart)
    return Picture(b.encode(img), alt, f"{game}-result.png")
