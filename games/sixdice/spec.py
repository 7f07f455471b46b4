"""Six Dice as the registry knows it (see :mod:`games.registry`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games import sixdice
from games.core import parse_options
from games.registry import Example, GameSpec, faces
from games.sixdice.scoring import rules_key


def timeout_move(state: Any, player: str, legal: list[str], played: list[str]) -> tuple[str, bool]:
    """Take the best-scoring dice, then stop if allowed, else roll."""
    takes = [m for m in legal if m.startswith("take ")]
    if takes:
        options = state.history.options
        best = max(takes, key=lambda m: (sixdice.score_dice(faces(m), options) or 0, len(m)))
        return best, False
    if "stop" in legal:
        return "stop", True
    return "roll", bool(played and played[-1].startswith("take "))


def warm_up_key(options: Mapping[str, Any]) -> str:
    """The options the tables depend on, defaults filled in (the bot's
    start-up warm-up of ``{}`` and a table at the default options share one)."""
    opts = parse_options(sixdice.OPTIONS, options)
    return f"sixdice:{rules_key(opts)}:{opts['start']}:{opts['target']}"


def warm_up(options: Mapping[str, Any]) -> None:
    """Load (or build and keep on disk) the turn-policy and race tables of
    these options (games.sixdice.tablecache)."""
    from games.sixdice import tablecache  # numpy tables: loaded only when needed

    tablecache.load_or_build(options)


SPEC = GameSpec(
    engine=sixdice,
    plugin="bot.games.sixdice",
    turn_seconds=90,
    example=Example(dice=(1, 5, 5, 2, 3, 4), moves=("roll",)),
    timeout_move=timeout_move,
    ai="games.sixdice.ai",
    review="games.sixdice.review",
    warm_up_key=warm_up_key,
    warm_up=warm_up,
    warm_at_start=True,  # the default options' tables: from the disk cache in a second
)
