"""Nine — computer players and the coach (docs/ai_dice.md).

Uniform AI API: :data:`LEVELS`, :func:`choose` (from the player's view only,
deterministic given ``rng``), :func:`hint`.

The only decision in Nine is which legal flip to take (``roll`` is the only
other move). Every flip for a roll turns down the same total, so the face-up
sum after it is the same: the choice matters only for what comes later.

- ``strong``: the exact dynamic programming of :mod:`games.nine.solver`
  (face-up cards × tokens) with the objective :data:`STRONG_GOAL`: the
  lowest expected remaining sum, ties broken by the highest chance of 上がり.
  The other objective (highest chance of 上がり, ties by remaining) is
  :func:`choose_for` ``(…, "remaining")``; ``bench/ai_dice.py`` plays the two
  against each other and the one that wins more often is the strong level
  (see docs/ai_dice.md for the figures).
- ``normal``: keeps the high cards down first: the single card if it can,
  else the pair with the highest card (a common human rule of thumb).
- ``easy``: a random legal flip.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from functools import cache
from typing import Any

from games.nine import solver

LEVELS = ("easy", "normal", "strong")
STRONG_GOAL = "remaining"  # wins 51.8 % of 2-player games against "agari" (bench)


@cache
def tables() -> solver.NineTables:
    """The solved tables (with tokens), computed once (a few tens of ms)."""
    return solver.solve(tokens=True)


def _tokens_before(view: Mapping[str, Any], me: str) -> int:
    """Tokens held before the current roll (a doubles token is already counted in the view)."""
    tokens = int(view["tokens"][me])
    roll = view["last_roll"]
    if view["phase"] == "flip" and roll and roll["player"] == me and roll["doubles"]:
        tokens -= 1
    return max(0, tokens)


def flip_choices(view: Mapping[str, Any], me: str) -> list[solver.FlipChoice]:
    """The legal flips of the current roll with their chance of 上がり and
    expected remaining sum under optimal play."""
    roll = view["last_roll"]
    if not roll or view["phase"] != "flip":
        return []
    return tables().choices(view["up"][me], _tokens_before(view, me), roll["dice"])


def choose_for(view: Mapping[str, Any], me: str, legal: list[str], goal: str) -> str:
    """The best legal move for one objective: ``"agari"`` or ``"remaining"``."""
    if len(legal) == 1:
        return legal[0]
    choices = [c for c in flip_choices(view, me) if c.move in legal]
    if goal == "agari":
        best = min(choices, key=lambda c: (-c.agari, c.remaining, c.move))
    else:
        best = min(choices, key=lambda c: (c.remaining, -c.agari, c.move))
    return best.move


def _high_first(legal: list[str]) -> str:
    return max(legal, key=lambda m: (len(m.split()) == 2, max(int(w) for w in m.split()[1:])))


def choose(view: dict[str, Any], me: str, legal: list[str], level: str, rng: random.Random) -> str:
    """A move from ``legal`` for ``me`` at ``level``, from the view only."""
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}")
    if len(legal) == 1:
        return legal[0]
    if level == "easy":
        return rng.choice(legal)
    if level == "normal":
        return _high_first(legal)
    return choose_for(view, me, legal, STRONG_GOAL)


def hint(view: dict[str, Any], me: str, legal: list[str]) -> dict[str, Any]:
    """The strong flip with the chance of 上がり (and expected remaining sum)
    of every legal flip; before the roll, the chances from here."""
    move = choose(view, me, legal, "strong", random.Random(0)) if legal else ""
    numbers: dict[str, Any] = {
        "flips": {
            c.move: {"chance_agari": round(c.agari, 4), "expected_remaining": round(c.remaining, 3)}
            for c in flip_choices(view, me)
        },
    }
    if view["phase"] == "roll":
        numbers["expected_remaining"] = round(
            tables().expected_remaining(view["up"][me], int(view["tokens"][me])), 3
        )
        numbers["chance_agari"] = round(
            tables().chance_agari(view["up"][me], int(view["tokens"][me])), 4
        )
    return {"move": move, "reason": "hint.nine", "numbers": numbers}
