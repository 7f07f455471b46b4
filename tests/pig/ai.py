"""Pig's computer player: hold at 20 (strong), 15 (normal), by a coin (easy)."""

from __future__ import annotations

import random
from typing import Any

LEVELS = ("easy", "normal", "strong")
HOLD_AT = {"easy": 10, "normal": 15, "strong": 20}


def choose(view: dict[str, Any], me: str, legal: list[str], level: str, rng: random.Random) -> str:
    if "hold" not in legal:
        return legal[0]
    need = view["target"] - view["scores"][me]
    if view["turn_total"] >= min(need, HOLD_AT[level]):
        return "hold"
    if level == "easy" and rng.random() < 0.2:
        return "hold"
    return "roll"


def hint(view: dict[str, Any], me: str, legal: list[str]) -> dict[str, Any]:
    move = choose(view, me, legal, "strong", random.Random(0))
    return {"move": move, "numbers": {"turn_total": view["turn_total"]}}
