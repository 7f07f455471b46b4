"""Sixty-Six — シックスティー・シックス (docs/rules/sixtysix.md). See :mod:`games.sixtysix.engine`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from games.sixtysix.engine import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    NAME,
    OPTIONS,
    SMALL_OPTION_VALUES,
    State,
    apply,
    canonical,
    clone,
    forfeit,
    from_json,
    is_finished,
    legal_moves,
    new_game,
    outcome,
    settle,
    to_json,
    to_move,
    view,
)

__all__ = [
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "NAME",
    "OPTIONS",
    "SMALL_OPTION_VALUES",
    "State",
    "apply",
    "canonical",
    "clone",
    "forfeit",
    "from_json",
    "is_finished",
    "legal_moves",
    "new_game",
    "outcome",
    "settle",
    "to_json",
    "to_move",
    "view",
]

if TYPE_CHECKING:  # mypy checks that this package is an engine of its own state
    from games import sixtysix as _this
    from games.core import Engine

    _engine: Engine[State] = _this
