"""Nine — ナイン (docs/rules/nine.md). See :mod:`games.nine.engine`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from games.nine.engine import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    NAME,
    OPTIONS,
    NineState,
    apply,
    canonical,
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
    "NineState",
    "apply",
    "canonical",
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
    from games import nine as _this
    from games.core import Engine

    _engine: Engine[NineState] = _this
