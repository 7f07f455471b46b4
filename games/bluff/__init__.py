"""Bluff dice — Mäxchen family (docs/rules/bluff.md). See :mod:`games.bluff.engine`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from games.bluff.engine import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    NAME,
    OPTIONS,
    RANKING,
    SMALL_OPTION_VALUES,
    BluffState,
    apply,
    canonical,
    forfeit,
    from_json,
    is_finished,
    legal_moves,
    new_game,
    outcome,
    peek,
    settle,
    stronger,
    to_json,
    to_move,
    value_of,
    view,
)

__all__ = [
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "NAME",
    "OPTIONS",
    "RANKING",
    "SMALL_OPTION_VALUES",
    "BluffState",
    "apply",
    "canonical",
    "forfeit",
    "from_json",
    "is_finished",
    "legal_moves",
    "new_game",
    "outcome",
    "peek",
    "settle",
    "stronger",
    "to_json",
    "to_move",
    "value_of",
    "view",
]

if TYPE_CHECKING:  # mypy checks that this package is an engine of its own state
    from games import bluff as _this
    from games.core import Engine

    _engine: Engine[BluffState] = _this
