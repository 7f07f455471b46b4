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

Two tables are built lazily, cached per scoring rules (the last
:data:`TABLES` rule sets), and pure:

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
from functools import lru_cache
from itertools import combinations_with_replacement
from typing import Any, Protocol

import numpy as np
from numpy.typing import NDArray

from games.sixdice.scoring import rules_key as rules_key  # its callers import it from here
from games.sixdice.scoring import scoring_selections

F64 = NDArray[np.float64]

STEP = 50  # points per bucket
CAP = 16000  # turn totals above this are worth themselves
NB = CAP // STEP + 1  # buckets 0…CAP
PAD = 8000 // STEP * 3 + 1  # the largest single take (several kinds of six 1s) fits
NEG = -1e12  # "not allowed"
# Bounded caches (least recently used out), so that no run of options or
# positions grows the process without end: the tables of this many scoring
# rules and start/target pairs (≈ 15 MB each for the points and win tables
# at the default rules), and this many race turn tables (≈ 50 KB each).
TABLES = 8
TURNS = 1024
# Tables handed in whole (games.sixdice.tablecache loads them from a disk
# cache): the builders below return these instead of solving again.
_GIVEN: dict[tuple[Any, ...], Any] = {}
STARTED_MAX = 16000  # started contexts S = 0…STARTED_MAX by 50
UNSTARTED_MIN = -12000  # unstarted contexts S = 0…UNSTARTED_MIN by −1000


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


@lru_cache(maxsize=TABLES)
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


def _class_arrays(
    rc: RollClasses, n: int
) -> tuple[F64, NDArray[np.int64], NDArray[np.int64], NDArray[np.int64], NDArray[np.int64]]:
    """The outcome classes of n dice as flat arrays: the class chances, and per
    take option its dice left, its points bucket, and its class (``starts``:
    the first option of each class)."""
    probs: list[float] = []
    lefts: list[int] = []
    shifts: list[int] = []
    starts: list[int] = []
    segs: list[int] = []
    for ci, (p, prof) in enumerate(rc.classes[n]):
        starts.append(len(lefts))
        probs.append(p)
        for left, shift in prof:
            lefts.append(left)
            shifts.append(shift)
            segs.append(ci)
    ints = np.int64
    return (
        np.array(probs, dtype=np.float64),
        np.array(lefts, dtype=ints),
        np.array(shifts, dtype=ints),
        np.array(starts, dtype=ints),
        np.array(segs, dtype=ints),
    )


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
    plans = [
        (n, *_class_arrays(rc, n)[:4], buta if n == 6 else dobon, rc.fail[n]) for n in range(1, 7)
    ]
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


@lru_cache(maxsize=TABLES)
def points_table(
    key: tuple[str, bool, int], start: int, target: int = 0, finish_bonus: float = 0.0
) -> PointsTable:
    """Expected-points table for these scoring rules and start threshold.

    With ``finish_bonus``, stopping with score + turn total ≥ ``target``
    (which makes the round the last one) is worth that many extra points:
    near the finish the policy plays to get there."""
    given = _GIVEN.pop(("points", key, start, target, finish_bonus), None)
    if given is not None:
        return given  # type: ignore[no-any-return]
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


@lru_cache(maxsize=TABLES)
def win_table(key: tuple[str, bool, int]) -> Table:
    """Chance to end the turn with a total ≥ need, context c = need bucket."""
    given = _GIVEN.pop(("win", key), None)
    if given is not None:
        return given  # type: ignore[no-any-return]
    nc = NB
    rows = np.arange(NB + PAD)[:, None]
    stop = np.where(rows >= np.arange(nc)[None, :], 1.0, NEG)
    stop[NB:, :] = 1.0
    return _solve(key, stop, np.zeros(nc), np.zeros(nc))


@lru_cache(maxsize=7 * TABLES)
def fail_chance(n: int, key: tuple[str, bool, int]) -> float:
    """The exact chance that n dice score nothing (ドボン; ブタ for six).

    >>> round(fail_chance(6, rules_key({})), 4), fail_chance(1, rules_key({}))
    (0.0231, 0.6666666666666666)
    """
    return roll_classes(key).fail[n]


# --------------------------------------------------------------------------
# Two-player race: the chance to win the game


RESET_LEVELS = 4  # unstarted scores 0, −1000, −2000, −3000 (lower is counted as −3000)
RACE_XMAX = 6000  # the largest turn goal considered between turns


@dataclass(frozen=True, eq=False)
class Race:
    """Two-player win chances between turns (docs/ai_dice.md).

    Score states: started 0, 50, …, target − 50 (index score/50) and
    unstarted 0, −1000, …, −3000 (index ns + k). ``me[f][i, j]``: the chance
    that the player to move (score state i, in seat f = 0 first / 1 second of
    the two-player order) wins the game against the opponent in state j;
    ``op[f][i, j]``: the same player's chance when the opponent is to move.
    Between turns each player is modelled as choosing a turn goal x and
    playing the exact "reach at least x" turn policy (success chance from
    :func:`win_table`); both players maximize their own chance (minimax).
    The moves themselves are then chosen by the exact turn solver with
    ``op`` as the value of stopping (:func:`race_turn`)."""

    key: tuple[str, bool, int]
    start: int
    target: int
    ns: int
    me: tuple[F64, F64]
    op: tuple[F64, F64]
    fin: tuple[F64, F64]  # fin[f][b, j]: the mover's chance after stopping at target + 50·b

    def state(self, score: int, started: bool) -> int:
        if started:
            return min(max(score, 0) // STEP, self.ns - 1)
        return self.ns + min(max(-score, 0) // 1000, RESET_LEVELS - 1)

    def reset(self, i: int) -> int:
        return self.ns if i < self.ns else min(i + 1, self.ns + RESET_LEVELS - 1)

    def score(self, i: int) -> int:
        return i * STEP if i < self.ns else -1000 * (i - self.ns)

    def last_turn(self, need: int) -> float:
        """The chance to finish a turn with a total ≥ need (the last round)."""
        p = win_table(self.key).v[6, 0, :]
        return float(p[min(max(bucket(need), 0), NB - 1)])


GOALS = tuple(b for b in range(1, RACE_XMAX // STEP + 1) if b <= 40 or b % 4 == 0)
TURN_SPAN = 10000 // STEP  # turn totals above 10,000 are counted as 10,000 between turns


@dataclass(frozen=True)
class GoalTurns:
    """What a turn played with the exact "reach at least x" policy brings.

    For each goal bucket x of :data:`GOALS`: ``final[k, t]`` the chance to stop
    with turn total bucket t (t ≥ x; the last take usually overshoots the goal:
    "reach 300" stops at 656 on average), ``dobon[k]`` and ``buta[k]`` (ブタ on
    the first roll or after 振りきり)."""

    final: F64
    dobon: F64
    buta: F64


@lru_cache(maxsize=TABLES)
def goal_turns(key: tuple[str, bool, int]) -> GoalTurns:
    """Forward pass of the :func:`win_table` policy for every goal at once."""
    wt = win_table(key)
    rc = roll_classes(key)
    xs = np.array(GOALS)
    nx = len(xs)
    rows = NB + PAD
    w = np.empty((7, rows, nx))
    w[0] = wt.v[6][:, xs]
    for left in range(1, 7):
        w[left] = np.maximum(wt.stop[:, xs], wt.v[left][:, xs])
    plans = []
    for n in range(1, 7):
        probs, lefts, shifts, starts, segs = _class_arrays(rc, n)
        plans.append((n, probs[segs], lefts, shifts, starts, segs))
    mass = np.zeros((7, rows + PAD, nx))
    mass[6, 0] = 1.0
    final = np.zeros((rows + PAD, nx))
    dobon = np.zeros(nx)
    buta = np.zeros(nx)
    for b in range(rows):
        for n, pr, le, sh, st, seg in reversed(plans):
            m = mass[n, b]
            if not m.any():
                continue
            if n == 6:
                buta += m * rc.fail[6]
            else:
                dobon += m * rc.fail[n]
            dest = b + sh
            cand = w[le, np.minimum(dest, rows - 1)]  # (options, goals)
            best = np.maximum.reduceat(cand, st, axis=0)
            hit = cand >= best[seg] - 1e-12
            count = np.cumsum(hit, axis=0)
            before = np.concatenate([np.zeros((1, nx)), count[st[1:] - 1]])
            chosen = hit & (count - before[seg] == 1)  # the first best option of each class
            flow = chosen * (pr[:, None] * m[None, :])
            for k in np.nonzero(flow.any(axis=1))[0]:
                d = int(dest[k])
                if le[k] == 0 and d < rows:
                    mass[6, d] += flow[k]  # 振りきり: six dice again
                    continue
                stops = (d >= xs) | (d >= rows)
                final[d] += flow[k] * stops
                if le[k] > 0:
                    mass[le[k], d] += flow[k] * ~stops
    span = np.zeros((nx, TURN_SPAN + 1))
    span[:, :TURN_SPAN] = final[:TURN_SPAN].T
    span[:, TURN_SPAN] = final[TURN_SPAN:].sum(axis=0)
    return GoalTurns(span, dobon, buta)


RACE_STATS: dict[str, int] = {}


def give(tables: Mapping[tuple[Any, ...], Any]) -> None:
    """Hand in solved tables (keyed ``("points", key, start, target,
    bonus)``, ``("win", key)``, ``("race", key, start, target)``): the next
    call of their builder returns them (and its cache keeps them)."""
    _GIVEN.update(tables)


class Opponent(Protocol):
    """A fixed model of the opponent's turns for :func:`solve_race` (the
    default, ``None``, is an opponent that plays for its own win)."""

    def turn(self, race_scores: NDArray[np.int64], me: F64, f: int) -> F64:
        """The mover's chance with the opponent to move (``op[f]``) given
        ``me[f]`` (the mover's chance when it is to move again)."""
        ...

    def finish(self, mine: int, scores: NDArray[np.int64]) -> F64:
        """Seat 0's chance after stopping at ``mine`` ≥ target: the opponent
        (in each score state) has one last turn."""
        ...


@lru_cache(maxsize=TABLES)
def race_table(key: tuple[str, bool, int], start: int, target: int) -> Race:
    """The two-player race against an opponent that plays for its own win."""
    given = _GIVEN.pop(("race", key, start, target), None)
    if given is not None:
        return given  # type: ignore[no-any-return]
    return solve_race(key, start, target)


def solve_race(
    key: tuple[str, bool, int], start: int, target: int, opponent: Opponent | None = None
) -> Race:
    """Value iteration of the race (see :class:`Race`), optionally against a
    fixed opponent model instead of a win-maximizing opponent."""
    ns = max(1, -(-target // STEP))
    nst = ns + RESET_LEVELS
    scores = np.array([i * STEP for i in range(ns)] + [-1000 * k for k in range(RESET_LEVELS)])
    started = np.arange(nst) < ns
    reach = win_table(key).v[6, 0, :]  # chance to reach ≥ x from a fresh turn
    reset = np.array([ns if i < ns else min(i + 1, nst - 1) for i in range(nst)])
    gt = goal_turns(key)
    xs = np.array(GOALS)
    turns = np.arange(TURN_SPAN + 1) * STEP

    def last(need: F64) -> F64:
        return np.asarray(reach[np.clip(need // STEP, 0, NB - 1)], dtype=np.float64)

    def finish(f: int, mine: int, other: F64, other_started: NDArray[np.bool_]) -> F64:
        """The mover's chance after stopping at ``mine`` ≥ target (other: the
        opponent's scores): seat 1 ends the game; seat 0 gives the opponent
        one last turn that must beat the score (ties: the first seat)."""
        if f == 1:
            return np.ones(len(other))
        if opponent is not None:
            return opponent.finish(mine, scores)
        need = np.maximum(mine - other + STEP, np.where(other_started, 0, start - other))
        return np.asarray(1.0 - last(need), dtype=np.float64)

    # the mover's chance after stopping at a final score ≥ target, by final bucket
    finals = np.arange(target, target + ns * STEP + TURN_SPAN * STEP + 1, STEP)
    fin = [np.stack([finish(f, int(m), scores, started) for m in finals]) for f in (0, 1)]
    # rows of [op[f]; fin[f]] reached by stopping with turn total t from state i
    end = scores[:, None] + turns[None, :]
    row = np.where(end >= target, nst + np.clip((end - target) // STEP, 0, len(finals) - 1), 0)
    row = np.where((end < target) & (end >= 0), end // STEP, row)
    # goals below the start rule are not allowed
    allowed = started[:, None] | (scores[:, None] + xs[None, :] * STEP >= start)  # (state, goal)
    mask = ~allowed.T[:, :, None]
    row_t = np.ascontiguousarray(row.T)  # (turn total, state)
    final32 = gt.final.astype(np.float32)
    me = [np.full((nst, nst), 0.5), np.full((nst, nst), 0.5)]
    op = [np.full((nst, nst), 0.5), np.full((nst, nst), 0.5)]
    for it in range(1000):
        delta = 0.0
        for f in (0, 1):
            stack = np.concatenate([op[f], fin[f]])
            gathered = stack.astype(np.float32)[row_t].reshape(TURN_SPAN + 1, nst * nst)
            val = (final32 @ gathered).reshape(len(xs), nst, nst).astype(np.float64)
            val += gt.buta[:, None, None] * op[f][reset, :][None]
            val += gt.dobon[:, None, None] * op[f][None]
            val[np.broadcast_to(mask, val.shape)] = -1.0
            new = val.max(axis=0)
            delta = max(delta, float(np.abs(new - me[f]).max()))
            me[f] = new
            if opponent is None:
                # the opponent to move: its chance is me[f] with roles swapped
                op[1 - f] = 1.0 - new.T
            else:
                op[f] = opponent.turn(scores, new, f)
        RACE_STATS["iterations"] = it + 1
        if delta < 1e-4:
            break
    return Race(key, start, target, ns, (me[0], me[1]), (op[0], op[1]), (fin[0], fin[1]))


@lru_cache(maxsize=TURNS)
def race_turn(race: Race, i: int, j: int, f: int) -> Table:
    """The exact turn policy (one context) for the mover in state i, seat f,
    against state j: stopping with total T is worth ``op`` at the new score
    (or the finishing chance at ≥ target), ドボン ``op[i, j]``, ブタ the reset."""
    s0 = race.score(i)
    started = i < race.ns
    totals = np.arange(NB + PAD) * STEP
    final = s0 + totals
    op = race.op[f]
    fin = race.fin[f]
    inside = np.clip(final // STEP, 0, race.ns - 1)
    frow = np.clip((final - race.target) // STEP, 0, fin.shape[0] - 1)
    stop = np.where(final >= race.target, fin[frow, j], op[inside, j])
    if not started:
        stop = np.where(final >= race.start, stop, NEG)
    stop[NB:] = np.where(final[NB:] >= race.target, fin[frow[NB:], j], stop[NB:])
    buta = np.array([op[race.reset(i), j]])
    dobon = np.array([op[i, j]])
    return _solve(race.key, stop[:, None].astype(np.float64), buta, dobon)
