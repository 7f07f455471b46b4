"""Six Dice — the exact turn policy of the strong computer player (docs/ai_dice.md).

A turn is a Markov decision process over (dice about to be rolled n = 1…6,
turn total T). After a scoring roll the player sets aside one scoring
selection (points p, k dice) and then, with n − k dice left, stops (if the
start rule allows) or rolls again; with no dice left it is 振りきり and must
roll six. A roll of n < 6 dice that scores nothing is ドボン (the turn total is
lost); a six-dice roll that scores nothing (the first roll of a turn, or after
振りきり) is ブタ.

The value of a turn is solved by backward induction over T (every take adds
at least one point, so V(·, T) depends only on larger totals), for many
*contexts* at once (numpy, vectorized over contexts). A context fixes

- ``threshold``: the smallest T at which ``stop`` is allowed (0 once started;
  ``start − score`` before starting: the start rule);
- the reward of stopping with T (``T`` for expected points; ``1`` for "T wins
  the game" when playing for the win) and of ブタ (``−score`` for a started
  player — back to 0 — and ``−1000`` before starting; 0 for the win goal).

Turn totals are counted in buckets of 50 points (every combination of the
default rules is a multiple of 50; an odd ``straight=N`` is rounded to its
bucket) up to :data:`CAP`; a total above the cap is worth itself (the player
stops there; reaching it is rarer than 1 in 10⁴).

Two tables are built lazily, cached per scoring rules, and pure:

- :func:`points_table` — expected points: contexts "started with score S"
  (S = 0, 50, …, 16000) and "not started with score S" (S = 0, −1000, …,
  −12000);
- :func:`win_table` — the chance to finish the turn with T ≥ need (need = 0,
  50, … as contexts): the end-game player who must beat a score.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from itertools import combinations_with_replacement
from typing import Any

import numpy as np
from numpy.typing import NDArray

from games.sixdice.scoring import DEFAULT_STRAIGHT, scoring_selections

F64 = NDArray[np.float64]

STEP = 50  # points per bucket
CAP = 16000  # turn totals above this are worth themselves
NB = CAP // STEP + 1  # buckets 0…CAP
PAD = 8000 // STEP * 3 + 1  # the largest single take (several kinds of six 1s) fits
NEG = -1e12  # "not allowed"
STARTED_MAX = 16000  # started contexts S = 0…STARTED_MAX by 50
UNSTARTED_MIN = -12000  # unstarted contexts S = 0…UNSTARTED_MIN by −1000


def rules_key(options: Mapping[str, Any]) -> tuple[str, bool, int]:
    """The scoring options the tables depend on."""
    return (
        str(options.get("kinds", "doubling")),
        bool(options.get("four_and_pair_is_nikoniko", False)),
        int(options.get("straight", DEFAULT_STRAIGHT)),
    )


def _opts(key: tuple[str, bool, int]) -> dict[str, Any]:
    return {"kinds": key[0], "four_and_pair_is_nikoniko": key[1], "straight": key[2]}


def bucket(points: int) -> int:
    """The bucket of a turn total (nearest multiple of 50, at least 0)."""
    return max(0, int(round(points / STEP)))


@dataclass(frozen=True)
class RollClasses:
    """The outcomes of rolling n dice, grouped by what they allow.

    ``fail[n]``: the chance that n dice score nothing (ドボン, or ブタ for 6);
    ``classes[n]``: ``(probability, ((dice left, points bucket), …))`` — rolls
    with the same undominated takes (for each number of dice left, the most
    points) are merged.
    """

    fail: tuple[float, ...]
    classes: tuple[tuple[tuple[float, tuple[tuple[int, int], ...]], ...], ...]


@cache
def roll_classes(key: tuple[str, bool, int]) -> RollClasses:
    """Exact outcome classes of rolling 1…6 dice under these scoring rules."""
    opts = _opts(key)
    fail = [0.0] * 7
    classes: list[tuple[tuple[float, tuple[tuple[int, int], ...]], ...]] = [()]
    for n in range(1, 7):
        merged: dict[tuple[tuple[int, int], ...], float] = {}
        for roll in combinations_with_replacement(range(1, 7), n):
            counts = [roll.count(f) for f in range(1, 7)]
            prob = math.factorial(n) / math.prod(math.factorial(c) for c in counts) / 6**n
            best: dict[int, int] = {}
            for sel, points in scoring_selections(roll, opts):
                left = n - len(sel)
                best[left] = max(best.get(left, 0), points)
            if not best:
                fail[n] += prob
                continue
            prof = tuple(sorted((left, max(1, bucket(p))) for left, p in best.items()))
            merged[prof] = merged.get(prof, 0.0) + prob
        classes.append(tuple(sorted((p, prof) for prof, p in merged.items())))
    return RollClasses(tuple(fail), tuple(classes))


@dataclass(frozen=True)
class Table:
    """Solved values for a set of contexts.

    ``v[n, b, c]``: value about to roll n dice (n = 1…6) with turn total
    bucket b in context c (before the roll); ``stop[b, c]``: the reward of
    stopping now (``NEG`` when not allowed). ``w(n, b, c)`` is the value
    right after a take that leaves n dice (0 = 振りきり)."""

    v: F64
    stop: F64

    def w(self, left: int, b: int, c: int) -> float:
        if left == 0:
            return float(self.v[6, b, c])
        return float(max(self.stop[b, c], self.v[left, b, c]))


def _solve(key: tuple[str, bool, int], stop: F64, buta: F64, dobon: F64) -> Table:
    """Backward induction over the buckets; ``stop`` has NB + PAD rows (the
    padding rows are the values above the cap)."""
    rc = roll_classes(key)
    nc = stop.shape[1]
    total = NB + PAD
    v = np.zeros((7, total, nc))
    # w[left, b]: the value right after a take leaving ``left`` dice
    w = np.zeros((7, total, nc))
    w[:, NB:, :] = stop[NB:, :]
    v[:, NB:, :] = stop[NB:, :]
    plans = []
    for n in range(1, 7):
        probs: list[float] = []
        lefts: list[int] = []
        shifts: list[int] = []
        starts: list[int] = []
        for p, prof in rc.classes[n]:
            starts.append(len(lefts))
            probs.append(p)
            for left, sh in prof:
                lefts.append(left)
                shifts.append(sh)
        plans.append(
            (
                n,
                np.array(probs, dtype=np.float64),
                np.array(lefts, dtype=np.int64),
                np.array(shifts, dtype=np.int64),
                np.array(starts, dtype=np.int64),
                buta if n == 6 else dobon,
                rc.fail[n],
            )
        )
    for b in range(NB - 1, -1, -1):
        for nd, pr, le, shf, st, fail_value, p_fail in plans:
            cand = w[le, b + shf, :]  # (options, contexts)
            best = np.maximum.reduceat(cand, st, axis=0)  # (classes, contexts)
            v[nd, b, :] = pr @ best + p_fail * fail_value
        w[0, b, :] = v[6, b, :]
        for left in range(1, 6):
            w[left, b, :] = np.maximum(stop[b, :], v[left, b, :])
    return Table(v, stop)


@dataclass(frozen=True)
class PointsTable:
    """Expected-points values; :meth:`context` maps (score, started) to a column."""

    table: Table
    start: int

    def context(self, score: int, started: bool) -> int:
        n_started = STARTED_MAX // STEP + 1
        if started:
            return min(max(score, 0), STARTED_MAX) // STEP
        k = min(max(-score, 0), -UNSTARTED_MIN) // 1000
        return n_started + k


@cache
def points_table(
    key: tuple[str, bool, int], start: int, target: int = 0, finish_bonus: float = 0.0
) -> PointsTable:
    """Expected-points table for these scoring rules and start threshold.

    With ``finish_bonus``, stopping with score + turn total ≥ ``target``
    (which makes the round the last one) is worth that many extra points:
    near the finish the policy plays to get there."""
    scores = [(s, True) for s in range(0, STARTED_MAX + 1, STEP)]
    scores += [(s, False) for s in range(0, UNSTARTED_MIN - 1, -1000)]
    nc = len(scores)
    totals = np.arange(NB + PAD, dtype=np.float64) * STEP
    stop = np.empty((NB + PAD, nc))
    buta = np.empty(nc)
    for c, (s, started) in enumerate(scores):
        threshold = 0 if started else start - s
        reward = totals + (finish_bonus if target else 0.0) * (s + totals >= target)
        stop[:, c] = np.where(totals >= threshold, reward, NEG)
        buta[c] = -s if started else -1000.0
    # above the cap every context stops
    stop[NB:, :] = totals[NB:, None]
    return PointsTable(_solve(key, stop, buta, np.zeros(nc)), start)


@cache
def win_table(key: tuple[str, bool, int]) -> Table:
    """Chance to end the turn with a total ≥ need, context c = need bucket."""
    nc = NB
    rows = np.arange(NB + PAD)[:, None]
    stop = np.where(rows >= np.arange(nc)[None, :], 1.0, NEG)
    stop[NB:, :] = 1.0
    return _solve(key, stop, np.zeros(nc), np.zeros(nc))


@cache
def fail_chance(n: int, key: tuple[str, bool, int]) -> float:
    """The exact chance that n dice score nothing (ドボン; ブタ for six).

    >>> round(fail_chance(6, rules_key({})), 4), fail_chance(1, rules_key({}))
    (0.0231, 0.6666666666666666)
    """
    return roll_classes(key).fail[n]
