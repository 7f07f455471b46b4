"""Yahtzee — computer players and the coach (docs/ai_dice.md).

Uniform AI API: :data:`LEVELS`, :func:`choose` (from the player's view only,
deterministic given ``rng``), :func:`hint`.

- ``strong``: the exact optimal solitaire strategy of
  :mod:`games.yahtzee.solver` (maximum expected final score, for the joker
  rule in force); with option ``triple``, the solver's documented heuristic
  :func:`games.yahtzee.solver.triple_advice`.
- ``normal``: the solver's advice, but one decision in four takes the
  second-best candidate.
- ``easy``: keeps the dice of its most common face (the higher face on a
  tie) and rerolls the rest; scores the box that pays the most now.

The solver needs its table (8 MB, ≈ 15 s to build). The bot loads it once
from the disk cache with :func:`games.yahtzee.solver.load_or_build` and hands
it over with :func:`install_solver`; without that, the first strong or normal
decision builds the table in memory (pure, slow once).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from typing import Any

from games.yahtzee import solver as ysolver

LEVELS = ("easy", "normal", "strong")
_SOLVERS: dict[str, ysolver.Solver] = {}


def install_solver(solver: ysolver.Solver) -> None:
    """Use this solver (e.g. from ``load_or_build``) for its joker rule."""
    _SOLVERS[solver.joker] = solver


def get_solver(joker: str) -> ysolver.Solver:
    """The installed solver for ``joker``, built in memory on first use if none."""
    if joker not in _SOLVERS:
        _SOLVERS[joker] = ysolver.Solver(ysolver.build_table(joker), joker)
    return _SOLVERS[joker]


def _columns(view: Mapping[str, Any], me: str) -> list[dict[str, int | None]]:
    return [{**col["boxes"], "yahtzee_bonus": col["yahtzee_bonus"]} for col in view["sheets"][me]]


def advice(view: Mapping[str, Any], me: str) -> ysolver.Advice:
    """The solver's candidates for the current dice, best first."""
    opts = view["options"]
    solver = get_solver(str(opts.get("joker", "forced")))
    columns = _columns(view, me)
    rerolls = int(view["rolls_left"])
    if opts.get("triple"):
        return ysolver.triple_advice([solver] * len(columns), columns, view["dice"], rerolls)
    return solver.advise(columns[0], view["dice"], rerolls)


def _easy(view: Mapping[str, Any], legal: list[str]) -> str:
    counts = Counter(view["dice"])
    face, n = max(counts.items(), key=lambda fc: (fc[1], fc[0]))
    keeps = f"keep {' '.join([str(face)] * n)}"
    if view["rolls_left"] > 0 and n < 5 and keeps in legal:
        return keeps
    scores = [s for s in view["potential"] if s["move"] in legal]
    if not scores:
        return legal[0]
    return str(max(scores, key=lambda s: (s["points"], -legal.index(s["move"])))["move"])


def choose(view: dict[str, Any], me: str, legal: list[str], level: str, rng: random.Random) -> str:
    """A move from ``legal`` for ``me`` at ``level``, from the view only."""
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}")
    if len(legal) == 1:
        return legal[0]
    if level == "easy":
        return _easy(view, legal)
    ranked = [c.move for c in advice(view, me).choices if c.move in legal]
    if not ranked:
        return legal[0]
    if level == "normal" and len(ranked) > 1 and rng.random() < 0.25:
        return ranked[1]
    return ranked[0]


def hint(view: dict[str, Any], me: str, legal: list[str]) -> dict[str, Any]:
    """The optimal move with the expected final score of each choice (best first)."""
    if legal == ["roll"] or not legal:
        column = _columns(view, me)
        solver = get_solver(str(view["options"].get("joker", "forced")))
        expected = sum(
            col["factor"] * solver.expected_total(c)
            for col, c in zip(view["sheets"][me], column, strict=True)
        )
        return {
            "move": legal[0] if legal else "",
            "reason": "hint.yahtzee",
            "numbers": {"expected": round(expected, 2), "choices": []},
        }
    choices = [c for c in advice(view, me).choices if c.move in legal]
    return {
        "move": choices[0].move,
        "reason": "hint.yahtzee",
        "numbers": {
            "expected": round(choices[0].expected, 2),
            "keep": choices[0].move.startswith("keep"),
            "choices": [{"move": c.move, "expected": round(c.expected, 2)} for c in choices[:8]],
        },
    }
