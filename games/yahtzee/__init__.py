"""Yahtzee (ヤッツィー), docs/rules/yahtzee.md: the engine, its scoring and probability code.

See :mod:`games.yahtzee.engine` for moves, events and view keys, and
:mod:`games.yahtzee.scoring` for the pure scoring API the solver and the bot
reuse.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from games.yahtzee.engine import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    NAME,
    OPTIONS,
    State,
    apply,
    forfeit,
    from_json,
    is_finished,
    legal_moves,
    new_game,
    outcome,
    potential_scores,
    settle,
    to_json,
    to_move,
    total,
    view,
)
from games.yahtzee.scoring import BOXES, box_score, legal_boxes

__all__ = [
    "BOXES",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "NAME",
    "OPTIONS",
    "State",
    "apply",
    "box_score",
    "forfeit",
    "from_json",
    "is_finished",
    "legal_boxes",
    "legal_moves",
    "new_game",
    "outcome",
    "potential_scores",
    "settle",
    "to_json",
    "to_move",
    "total",
    "view",
]

if TYPE_CHECKING:  # mypy checks that this package is an engine of its own state
    from games import yahtzee as _this
    from games.core import Engine

    _engine: Engine[State] = _this
