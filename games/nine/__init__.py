"""Nine — ナイン (RULES.md §3). See :mod:`games.nine.engine`."""

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
    "to_json",
    "to_move",
    "view",
]
