"""One small module per game: public view + legal moves → controls.

:func:`ui_for` returns the module's :class:`GameUI`; a game without its own
module gets :class:`GenericUI` (one select of every legal move), so any
engine that follows the contract is playable at once.
"""

from __future__ import annotations

import importlib

from bot.ui.games.base import Button, Control, GameUI, GenericUI, Select, Standing

__all__ = ["Button", "Control", "GameUI", "GenericUI", "Select", "Standing", "ui_for"]

_CACHE: dict[str, GameUI] = {}


def ui_for(game: str) -> GameUI:
    """The UI of ``game`` (``bot.ui.games.<game>.UI``), else the generic one."""
    if game not in _CACHE:
        try:
            module = importlib.import_module(f"bot.ui.games.{game}")
            _CACHE[game] = module.UI()
        except ModuleNotFoundError:
            _CACHE[game] = GenericUI(game)
    return _CACHE[game]
