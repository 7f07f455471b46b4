"""Pig's facts for the game registry."""

from __future__ import annotations

from typing import Any

from games.registry import Example, GameSpec
from pig import engine


def timeout_move(state: Any, player: str, legal: list[str], played: list[str]) -> tuple[str, bool]:
    """Hold what the turn has, else roll once."""
    return ("hold", True) if "hold" in legal else ("roll", True)


SPEC = GameSpec(
    engine=engine,
    plugin="pig.plugin",
    turn_seconds=60,
    example=Example(dice=(4,), moves=("roll",)),
    timeout_move=timeout_move,
    ai="pig.ai",
)
