"""Yahtzee (ヤッツィー), RULES.md §4: the engine, its scoring and probability code.

See :mod:`games.yahtzee.engine` for moves, events and view keys, and
:mod:`games.yahtzee.scoring` for the pure scoring API the solver and the bot
reuse.
"""

from __future__ import annotations

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
    "to_json",
    "to_move",
    "total",
    "view",
]
