"""Pictures of the five games, rendered with Pillow from views.

Public API (the bot codes against this; everything else in ``bot.render`` is
private):

- :class:`Picture` — ``png`` bytes, ``alt`` text (Discord's attachment
  description, in plain words) and a ``filename``.
- :func:`table_picture` — the table as ``view`` shows it (public view or a
  player's view).
- :func:`hand_picture` — a player's private picture (Sixty-Six hand, Bluff dice
  under the cup as that player saw them).
- :func:`result_picture` — final standings and settlement, with a score chart
  for Six Dice and Yahtzee.

All three are pure functions of their inputs; fonts and sprites are cached at
import; nothing here imports discord.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["Picture", "table_picture", "hand_picture", "result_picture"]


@dataclass(frozen=True)
class Picture:
    """A rendered PNG with its alt text (the Discord attachment description)."""

    png: bytes
    alt: str
    filename: str


def table_picture(view: dict[str, Any], *, lang: str = "en") -> Picture:
    """The table of ``view["game"]`` as ``view`` shows it."""
    from bot.render import _dispatch

    return _dispatch.table(view, lang)


def hand_picture(view: dict[str, Any], *, lang: str = "en") -> Picture:
    """A player's private picture: a Sixty-Six hand, Bluff dice under the cup."""
    from bot.render import _dispatch

    return _dispatch.hand(view, lang)


def result_picture(
    view: dict[str, Any],
    outcome: dict[str, Any],
    *,
    lang: str = "en",
    history: list[dict[str, int]] | None = None,
) -> Picture:
    """Final standings and settlement; a score chart for Six Dice and Yahtzee.

    ``history`` is a list of per-turn score snapshots ``{player: score}``, oldest
    first, collected by the bot; when absent the chart is left out.
    """
    from bot.render import _dispatch

    return _dispatch.result(view, outcome, lang, history)
