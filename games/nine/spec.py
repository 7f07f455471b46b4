"""Nine as the registry knows it (see :mod:`games.registry`)."""

from __future__ import annotations

from typing import Any

from games import nine
from games.registry import Example, GameSpec, faces


def timeout_move(state: Any, player: str, legal: list[str], played: list[str]) -> tuple[str, bool]:
    """Roll if needed, then the flip leaving the smallest sum."""
    flips = [m for m in legal if m.startswith("flip ")]
    if flips:
        return max(flips, key=lambda m: (sum(faces(m)), -len(m))), True
    return ("roll" if "roll" in legal else legal[0]), False


SPEC = GameSpec(
    engine=nine,
    plugin="bot.games.nine",
    turn_seconds=90,
    example=Example(dice=(3, 4), moves=("roll",)),
    timeout_move=timeout_move,
    ai="games.nine.ai",
    review="games.nine.review",
)
