"""Six Dice — シックスダイス (docs/rules/sixdice.md). See :mod:`games.sixdice.engine`
for moves, events and view keys, and :mod:`games.sixdice.scoring` for the
scoring helpers."""

from __future__ import annotations

from typing import TYPE_CHECKING

from games.sixdice.engine import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    NAME,
    OPTIONS,
    SMALL_OPTION_VALUES,
    State,
    apply,
    canonical,
    choose_dealer,
    end_game,
    forfeit,
    from_json,
    is_finished,
    legal_moves,
    new_game,
    outcome,
    settle,
    settlement,
    to_json,
    to_move,
    units,
    view,
    winner_of,
)
from games.sixdice.scoring import roll_scores, score_dice, scoring_selections, triple_value

__all__ = [
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "NAME",
    "OPTIONS",
    "SMALL_OPTION_VALUES",
    "State",
    "apply",
    "canonical",
    "choose_dealer",
    "end_game",
    "forfeit",
    "from_json",
    "is_finished",
    "legal_moves",
    "new_game",
    "outcome",
    "settle",
    "roll_scores",
    "score_dice",
    "scoring_selections",
    "settlement",
    "to_json",
    "to_move",
    "triple_value",
    "units",
    "view",
    "winner_of",
]

if TYPE_CHECKING:  # mypy checks that this package is an engine of its own state
    from games import sixdice as _this
    from games.core import Engine

    _engine: Engine[State] = _this
