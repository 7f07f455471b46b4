"""Yahtzee's post-game review (:mod:`games.review`, docs/review.md).

Worth of a keep or a box: the expected final total of the column if it is
taken and optimal play follows, from the exact solver for the joker rule in
force (:meth:`games.yahtzee.solver.Solver.advise`); keeping all five dice
(a wasted reroll) is worth the best choice with one reroll fewer. With option
``triple`` the worths come from the solver's documented heuristic
(:func:`games.yahtzee.solver.triple_advice`), an estimate.

Luck of a roll (single column): the value of the rolled dice (the best
choice's expected total after them) among every outcome of the dice rerolled.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from itertools import combinations_with_replacement
from typing import Any

import numpy as np

from games import yahtzee
from games.core import Event, Record
from games.review import Assessment, GameReviewer, Grades, Luck, mid_percentile
from games.yahtzee import ai
from games.yahtzee import solver as ys

# docs/review.md, "Bands and classes". The accuracy's anchors: (average loss
# per decision, accuracy) — each level's measured median loss mapped into the
# middle of its band (normal 80: good, easy 57.5: fair, random 22.5: needs
# work; strong 95 where its median is not 0), from
#     python bench/review.py --only yahtzee --games 200 --dump FILE
# medians (points a decision): strong 0, normal 0.978, easy 2.50, random 7.32.
# The classes: the least loss of an inaccuracy (at most the loss where good
# ends: 1.50), a mistake and a blunder.
GRADES = {"points": Grades(((1.0, 80.0), (2.5, 57.5), (7.3, 22.5)), (1.5, 5.0, 12.0))}


class YahtzeeReviewer(GameReviewer):
    unit = "points"
    higher = True

    def __init__(self, joker: str, triple: bool) -> None:
        self.joker = joker
        self.triple = triple
        self._rolls: dict[tuple[int, int, int, int], list[float]] = {}

    def _advice(
        self, view: dict[str, Any], player: str, dice: list[int], rerolls: int
    ) -> ys.Advice:
        solver = ai.get_solver(self.joker)
        columns = ai._columns(view, player)
        if self.triple:
            return ys.triple_advice([solver] * len(columns), columns, dice, rerolls)
        return solver.advise(columns[0], dice, rerolls)

    def assess(self, state: Any, player: str, legal: list[str], move: str) -> Assessment | None:
        view = yahtzee.view(state, player)
        if not view["dice"]:
            return None
        dice = list(view["dice"])
        rerolls = int(view["rolls_left"])
        values = {c.move: c.expected for c in self._advice(view, player, dice, rerolls).choices}
        values = {m: v for m, v in values.items() if m in legal}
        if move not in values:
            words = move.split()
            if words[0] != "keep" or len(words) != 6 or rerolls < 1:
                return None
            # all five kept: a reroll spent for nothing
            values[move] = self._advice(view, player, dice, rerolls - 1).best.expected
        return Assessment(values, move)

    def moment(
        self, view: dict[str, Any], player: str, before: Sequence[str]
    ) -> tuple[str, dict[str, Any]]:
        """ "Round 11, 2nd roll": the table's round and the roll whose
        dice the decision keeps or scores."""
        return f"roll{3 - int(view['rolls_left'])}", {"round": int(view["round"])}

    def before(self, state: Any, player: str, move: str) -> Any:
        if self.triple or not (move == "roll" or move.startswith("keep")):
            return None
        view = yahtzee.view(state, player)
        column = ai._columns(view, player)[0]
        kept = [int(w) for w in move.split()[1:]]
        after = 2 if move == "roll" else int(view["rolls_left"]) - 1
        return ys.column_state(column), kept, after

    def luck(
        self, memo: Any, state: Any, player: str, move: str, events: Sequence[Event]
    ) -> list[tuple[str, Luck]]:
        if memo is None:
            return []
        roll = next((e for e in events if e.kind == "roll"), None)
        if roll is None or len(memo[1]) == 5:
            return []
        (mask, upper, bonus), kept, after = memo
        values = self._roll_values(mask, upper, bonus, after)
        outcomes = []
        for extra, p in _rerolls(5 - len(kept)):
            outcomes.append((p, values[ys.roll_index(kept + list(extra))]))
        actual = values[ys.roll_index(roll.data["dice"])]
        return [(player, mid_percentile(outcomes, actual))]

    def _roll_values(self, mask: int, upper: int, bonus: int, after: int) -> list[float]:
        """The value (points to come) of each of the 252 rolls with ``after``
        rerolls left, in this column state."""
        key = (mask, upper, bonus, after)
        hit = self._rolls.get(key)
        if hit is None:
            solver = ai.get_solver(self.joker)
            if after == 0:
                m, u, b = (np.array([x], dtype=np.int64) for x in (mask, upper, bonus))
                v = ys._final_values(solver.table, m, u, b, self.joker)
            else:
                k = solver._keep_arrays(mask, upper, bonus)[after - 1]
                v = ys._best_keep(k.copy())
            hit = [float(x) for x in v[:, 0]]
            if len(self._rolls) > 64:
                self._rolls.clear()
            self._rolls[key] = hit
        return hit


_REROLLS: dict[int, list[tuple[tuple[int, ...], float]]] = {}


def _rerolls(n: int) -> list[tuple[tuple[int, ...], float]]:
    """The multisets of ``n`` dice with their chances."""
    if n not in _REROLLS:
        out = []
        for combo in combinations_with_replacement(range(1, 7), n):
            counts = [combo.count(f) for f in range(1, 7)]
            p = math.factorial(n) / math.prod(math.factorial(c) for c in counts) / 6**n
            out.append((combo, p))
        _REROLLS[n] = out
    return _REROLLS[n]


_LOADED: set[str] = set()


def reviewer(record: Record) -> GameReviewer:
    """The reviewer for this record's rules; the solver's table is loaded
    from the disk cache (or built and saved) once per process."""
    options = record.options
    joker = str(options.get("joker", "forced"))
    if joker not in _LOADED:
        table, _built = ys.load_or_build(joker)
        ai.install_solver(table)
        _LOADED.add(joker)
    return YahtzeeReviewer(str(options.get("joker", "forced")), bool(options.get("triple", False)))
