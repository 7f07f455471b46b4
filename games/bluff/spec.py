"""Bluff dice as the registry knows it (see :mod:`games.registry`)."""

from __future__ import annotations

from typing import Any

from games import bluff
from games.bluff.engine import STRENGTH
from games.core import Event
from games.registry import Example, GameSpec


def timeout_move(state: Any, player: str, legal: list[str], played: list[str]) -> tuple[str, bool]:
    """Reveal; a first player rolls and announces the weakest value."""
    if "reveal" in legal:
        return "reveal", True
    if "roll" in legal and not played:
        return "roll", False
    announces = [m for m in legal if m.startswith("announce ")]
    return min(announces, key=lambda m: STRENGTH[m.split()[1]]), True


def after_cpu_move(state: Any, player: str, move: str) -> list[Event]:
    """A computer looks under the cup right after rolling."""
    return bluff.peek(state, player) if move == "roll" else []


SPEC = GameSpec(
    engine=bluff,
    plugin="bot.games.bluff",
    secrets=True,
    turn_seconds=90,
    example=Example(dice=(5, 4), moves=("roll", "announce 54")),
    timeout_move=timeout_move,
    ai="games.bluff.ai",
    review="games.bluff.review",
    after_cpu_move=after_cpu_move,
)
