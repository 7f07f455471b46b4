"""Yahtzee as the registry knows it (see :mod:`games.registry`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games import yahtzee
from games.registry import Example, GameSpec


def timeout_move(state: Any, player: str, legal: list[str], played: list[str]) -> tuple[str, bool]:
    """Roll if needed, then score the best box."""
    options = yahtzee.potential_scores(state, player)
    if options:
        best = max(options, key=lambda o: (o["points"], -legal.index(o["move"])))
        return str(best["move"]), True
    return ("roll" if "roll" in legal else legal[0]), False


def warm_up_key(options: Mapping[str, Any]) -> str:
    return f"yahtzee:{options.get('joker', 'forced')}"


def warm_up(options: Mapping[str, Any]) -> None:
    """Load (or build and cache) the optimal solver's table and install it."""
    from games.yahtzee import ai, solver  # numpy tables: loaded only when needed

    table, _built = solver.load_or_build(str(options.get("joker", "forced")))
    ai.install_solver(table)


SPEC = GameSpec(
    engine=yahtzee,
    plugin="bot.games.yahtzee",
    points="total",
    turn_seconds=90,
    example=Example(dice=(3, 3, 3, 5, 5), moves=("roll",)),
    timeout_move=timeout_move,
    ai="games.yahtzee.ai",
    review="games.yahtzee.review",
    warm_up_key=warm_up_key,
    warm_up=warm_up,
    warm_at_start=True,  # the solver's table loads from the disk cache in a second
)
