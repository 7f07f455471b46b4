"""Sixty-Six as the registry knows it (see :mod:`games.registry`)."""

from __future__ import annotations

from typing import Any

from games import sixtysix
from games.core import CARDS
from games.registry import Example, GameSpec
from games.sixtysix.engine import GOAL, POINTS, POWER


def timeout_move(state: Any, player: str, legal: list[str], played: list[str]) -> tuple[str, bool]:
    """Declare with 66 or more, pass after the last trick, draw, else the
    lowest legal card."""
    me = state.history.players.index(player)
    if "declare" in legal and state.points[me] >= GOAL:
        return "declare", True
    if "pass" in legal:
        return "pass", True
    if "draw" in legal:
        return "draw", False
    plays = [m for m in legal if m.startswith("play ")]
    if plays:
        return min(plays, key=lambda m: (POINTS[m[5:]], POWER[m[5:]], m)), True
    rest = [m for m in legal if m not in ("close", "declare", "exchange")]
    return (rest or legal)[0], True


def own_points(view: dict[str, Any], me: str) -> int:
    """The player's own card points as their view shows them."""
    points = view.get("points")
    if isinstance(points, int):
        return points
    from games.sixtysix import ai  # the search: loaded only when a computer plays

    return int(ai.knowledge(view, me).points[0])


def interject(view: dict[str, Any], me: str, legal: list[str]) -> str | None:
    """A computer not to move declares 66 when its own view shows 66 points."""
    if legal == ["declare"] and own_points(view, me) >= GOAL:
        return "declare"
    return None


SPEC = GameSpec(
    engine=sixtysix,
    plugin="bot.games.sixtysix",
    secrets=True,
    turn_seconds=120,
    example=Example(decks=(CARDS,)),
    timeout_move=timeout_move,
    ai="games.sixtysix.ai",
    review="games.sixtysix.review",
    hint_is_slow=True,
    interject=interject,
)
