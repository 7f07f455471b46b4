"""The bot plugins of the games, found through the game registry.

:func:`plugin` returns the :class:`GamePlugin` named by the game's spec
(``spec.plugin``: a module whose ``PLUGIN`` it is); a game whose spec names
none gets :class:`GenericPlugin` (one select of every legal move), so any
engine that follows the contract is playable at once.
"""

from __future__ import annotations

import importlib

from bot.games.base import GamePlugin, GenericPlugin
from games import registry

__all__ = ["GamePlugin", "GenericPlugin", "plugin"]

_CACHE: dict[str, GamePlugin] = {}


def plugin(game: str) -> GamePlugin:
    """The plugin of ``game`` (an unknown game is a ``RecordError``)."""
    found = _CACHE.get(game)
    if found is None:
        path = registry.spec(game).plugin
        found = importlib.import_module(path).PLUGIN if path else GenericPlugin(game)
        _CACHE[game] = found
    return found


def forget(game: str) -> None:
    """Drop a cached plugin (tests that register and remove a game)."""
    _CACHE.pop(game, None)
