"""Pictures of the games, rendered with Pillow from views.

One module per game (``bot.render.<game>``: ``table``, and for games with
secrets ``hand``) returns a Pillow image and its alt text; ``result`` draws
final standings from the rows a game's plugin gives. The bot asks for
pictures through :mod:`bot.pictures`, which finds the game's plugin; nothing
here imports discord, the table service, clocks or computer players.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Picture"]


@dataclass(frozen=True)
class Picture:
    """A rendered PNG with its alt text (the Discord attachment description)."""

    png: bytes
    alt: str
    filename: str
