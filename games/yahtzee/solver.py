"""Yahtzee: the exact optimal solitaire strategy (RULES.md §4), by dynamic programming.

The state between turns is (boxes used: 13 bits) × (upper subtotal, capped at
63) × (the yahtzee box holds 50: 0/1). :func:`build_table` computes, for every
reachable state, the expected number of points still to come under optimal
play (upper bonus 35 and Yahtzee bonuses 100 included, joker rules of
``joker="forced"`` — the seed's, the default — or ``joker="free"`` — the
published studies'). A turn is solved inside: the box choice on the final
roll, then two "keep" stages, each an expectation over the rerolled dice and a
maximum over the sub-multisets of the dice showing.

Everything is vectorized with numpy over the 252 rolls (five-dice
multisets) and the 462 keeps (multisets of 0–5 dice), and over many states
at once; the expectation adds one die at a time (6 gathers per keep) and the
maximum over sub-multisets removes one die at a time (≤ 5 gathers per keep).

Start-of-game values (checked by ``bench/ai.py`` and a cached-table test):
254.5877 (``forced``) and 254.5896 (``free``, Verhoeff; Glenn).

The table is an array of ``8192 × 64 × 2`` float64 (8 MB). The only I/O is
:func:`load_or_build`, an explicit edge for the bot and the benchmark (a
``.npy`` cache file whose name carries :data:`RULES_VERSION` and the joker
rule); the rest is pure computation.

Triple Yahtzee (option ``triple``) has no exact solver here: its state space
is the product of three columns. :func:`triple_advice` is the documented
heuristic: every (column, box) and keep is valued by the single-column
table, as the column's gain over its own expectation, times its factor.
"""

from __future__ import annotations

import math
import os
import pathlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations_with_replacement

import numpy as np
from numpy.typing import NDArray

F64 = NDArray[np.float64]
I64 = NDArray[np.int64]

BOXES = (
    "ones", "twos", "threes", "fours", "fives", "sixes",
    "three_kind", "four_kind", "full_house", "small_straight",
    "large_straight", "yahtzee", "chance",
)  # fmt: skip
UPPER = 6  # boxes 0..5 are ones..sixes
THREE_KIND, FOUR_KIND, FULL_HOUSE, SMALL_STRAIGHT, LARGE_STRAIGHT, YAHTZEE, CHANCE = range(6, 13)
JOKER_FIXED = {FULL_HOUSE: 25, SMALL_STRAIGHT: 30, LARGE_STRAIGHT: 40}
UPPER_BONUS, UPPER_TARGET, YAHTZEE_BONUS = 35, 63, 100
JOKERS = ("forced", "free")
FULL = (1 << 13) - 1
NU = UPPER_TARGET + 1  # upper subtotals 0..63 (63 = bonus reached)
RULES_VERSION = "r1"  # bump when the rules or the table layout change

# --------------------------------------------------------------------------
# Dice multisets: keeps of 0..5 dice ordered by size; rolls are the last 252.


def _multisets() -> list[tuple[int, ...]]:
    out: list[tuple[int, ...]] = []
    for size in range(6):
        for combo in combinations_with_replacement(range(1, 7), size):
            out.append(tuple(combo.count(f) for f in range(1, 7)))
    return out


KEEPS: tuple[tuple[int, ...], ...] = tuple(_multisets())  # count vectors, 462
KEEP_INDEX = {k: i for i, k in enumerate(KEEPS)}
N_KEEPS = len(KEEPS)
ROLL0 = N_KEEPS - 252  # index of the first five-dice multiset
N_ROLLS = 252
LEVELS = [(sum(math.comb(s + 5, 5) for s in range(n)), sum(math.comb(s + 5, 5) for s in range(n + 1))) for n in range(6)]

COUNTS = np.array(KEEPS[ROLL0:], dtype=np.int64)  # (252, 6) face counts of each roll


def _child_table() -> I64:
    """child[k, f]: the keep k with one more die showing f+1 (keeps of ≤ 4 dice)."""
    child = np.zeros((ROLL0, 6), dtype=np.int64)
    for i in range(ROLL0):
        for f in range(6):
            c = list(KEEPS[i])
            c[f] += 1
            child[i, f] = KEEP_INDEX[tuple(c)]
    return child


def _parent_table() -> I64:
    """parent[k, p]: k with one die of its p-th distinct face removed (padded)."""
    parent = np.zeros((N_KEEPS, 5), dtype=np.int64)
    for i in range(1, N_KEEPS):
        ps = []
        for f in range(6):
            if KEEPS[i][f]:
                c = list(KEEPS[i])
                c[f] -= 1
                ps.append(KEEP_INDEX[tuple(c)])
        parent[i] = (ps + [ps[0]] * 5)[:5]
    return parent


CHILD = _child_table()
PARENT = _parent_table()


def _roll_probabilities() -> F64:
    p = np.array(
        [math.factorial(5) / math.prod(math.factorial(c) for c in k) for k in KEEPS[ROLL0:]]
    )
    return np.asarray(p / 6**5, dtype=np.float64)


P_ROLL = _roll_probabilities()


def roll_index(dice: Iterable[int]) -> int:
    """The index (0..251) of five dice among the rolls."""
    d = list(dice)
    return KEEP_INDEX[tuple(d.count(f) for f in range(1, 7))] - ROLL0


def keep_dice(k: int) -> list[int]:
    """The dice of keep ``k`` in ascending order."""
    return [f + 1 for f in range(6) for _ in range(KEEPS[k][f])]


# --------------------------------------------------------------------------
# Scoring tables (normal rule, no joker): SCORE[box, roll]


def _score_table() -> I64:
    c = COUNTS
    faces = np.arange(1, 7)
    total = c @ faces
    mx = c.max(axis=1)
    present = c > 0
    score = np.zeros((13, N_ROLLS), dtype=np.int64)
    for f in range(6):
        score[f] = c[:, f] * (f + 1)
    score[THREE_KIND] = np.where(mx >= 3, total, 0)
    score[FOUR_KIND] = np.where(mx >= 4, total, 0)
    srt = np.sort(c, axis=1)
    score[FULL_HOUSE] = np.where((srt[:, -1] == 3) & (srt[:, -2] == 2), 25, 0)
    runs4 = [present[:, a : a + 4].all(axis=1) for a in range(3)]
    score[SMALL_STRAIGHT] = np.where(runs4[0] | runs4[1] | runs4[2], 30, 0)
    runs5 = [present[:, a : a + 5].all(axis=1) for a in range(2)]
    score[LARGE_STRAIGHT] = np.where(runs5[0] | runs5[1], 40, 0)
    score[YAHTZEE] = np.where(mx == 5, 50, 0)
    score[CHANCE] = total
    return score


SCORE = _score_table()
YAHTZEE_ROLLS = np.array([roll_index([f] * 5) for f in range(1, 7)], dtype=np.int64)
IS_YAHTZEE = np.zeros(N_ROLLS, dtype=bool)
IS_YAHTZEE[YAHTZEE_ROLLS] = True


def reachable_upper(upper_mask: int) -> list[int]:
    """Upper subtotals (capped at 63) reachable with the given upper boxes filled."""
    sums = {0}
    for f in range(6):
        if upper_mask >> f & 1:
            sums = {min(UPPER_TARGET, s + c * (f + 1)) for s in sums for c in range(6)}
    return sorted(sums)


# --------------------------------------------------------------------------
# One turn, vectorized over states (rows)


def _final_values(table: F64, mask: I64, u: I64, b: I64, joker: str) -> F64:
    """(rows, 252): the best of scoring each final roll now + the future value."""
    ef = table.reshape(-1)
    rows = mask.shape[0]
    best = np.full((rows, N_ROLLS), -np.inf)
    for j in range(13):
        is_open = (mask >> j & 1) == 0
        if not is_open.any():
            continue
        pen = np.where(is_open, 0.0, -np.inf)
        nm = (mask | (1 << j)) * (NU * 2)
        if j < UPPER:
            sc = np.arange(6) * (j + 1)  # by count of the face
            nu = np.minimum(UPPER_TARGET, u[:, None] + sc[None, :])
            crossed = (u[:, None] < UPPER_TARGET) & (nu >= UPPER_TARGET)
            w = sc[None, :] + UPPER_BONUS * crossed + ef[nm[:, None] + nu * 2 + b[:, None]]
            w += pen[:, None]
            cand = np.take(w, COUNTS[:, j], axis=1)
        elif j == YAHTZEE:
            e0 = ef[nm + u * 2 + b] + pen
            e1 = ef[nm + u * 2 + 1] + pen
            cand = np.where(IS_YAHTZEE[None, :], e1[:, None], e0[:, None]) + SCORE[j][None, :]
        else:
            e = ef[nm + u * 2 + b] + pen
            cand = e[:, None] + SCORE[j][None, :]
        np.maximum(best, cand, out=best)
    ys = np.nonzero(mask >> YAHTZEE & 1)[0]
    if ys.size:
        jv = _joker_values(ef, mask[ys], u[ys], b[ys], joker)
        best[ys[:, None], YAHTZEE_ROLLS[None, :]] = jv
    return best


def _joker_values(ef: F64, mask: I64, u: I64, b: I64, joker: str) -> F64:
    """(rows, 6): five of a kind of each face when the yahtzee box is filled."""
    rows = mask.shape[0]
    out = np.full((rows, 6), -np.inf)
    open_ = [(mask >> j & 1) == 0 for j in range(13)]
    lower_open = np.zeros(rows, dtype=bool)
    for j in range(UPPER, 13):
        lower_open |= open_[j]
    for f in range(6):
        total = 5 * (f + 1)
        upper_f_filled = ~open_[f]
        best = np.full(rows, -np.inf)
        for j in range(13):
            nm = (mask | (1 << j)) * (NU * 2)
            if j < UPPER:
                sc = total if j == f else 0
                nu = np.minimum(UPPER_TARGET, u + sc)
                gain = sc + UPPER_BONUS * ((u < UPPER_TARGET) & (nu >= UPPER_TARGET))
                val = gain + ef[nm + nu * 2 + b]
                if joker == "forced":
                    legal = open_[f] if j == f else (upper_f_filled & ~lower_open & open_[j])
                else:
                    legal = open_[j]
            else:
                if j in JOKER_FIXED:
                    fixed = np.full(rows, float(JOKER_FIXED[j]))
                    sc_l = fixed if joker == "forced" else np.where(upper_f_filled, fixed, 0.0)
                else:
                    sc_l = np.full(rows, float(total))
                val = sc_l + ef[nm + u * 2 + b]
                legal = open_[j] & upper_f_filled if joker == "forced" else open_[j]
            best = np.where(legal, np.maximum(best, val), best)
        out[:, f] = best + YAHTZEE_BONUS * b
    return out


def _expect(v5: F64) -> F64:
    """(rows, 462): for each keep, the expected value of ``v5`` after rolling the rest."""
    rows = v5.shape[0]
    g = np.empty((rows, N_KEEPS))
    g[:, ROLL0:] = v5
    for size in range(4, -1, -1):
        lo, hi = LEVELS[size]
        ch = CHILD[lo:hi]
        acc = np.take(g, ch[:, 0], axis=1)
        for f in range(1, 6):
            acc += np.take(g, ch[:, f], axis=1)
        g[:, lo:hi] = acc * (1.0 / 6.0)
    return g


def _best_keep(k: F64) -> F64:
    """(rows, 252): for each roll, the best value of ``k`` over its sub-multisets (in place)."""
    for size in range(1, 6):
        lo, hi = LEVELS[size]
        level = k[:, lo:hi]
        par = PARENT[lo:hi]
        for p in range(5):
            np.maximum(level, np.take(k, par[:, p], axis=1), out=level)
    return k[:, ROLL0:]


def _turn_values(table: F64, mask: I64, u: I64, b: I64, joker: str) -> F64:
    """Expected points to come at the start of a turn, for each row state."""
    v = _final_values(table, mask, u, b, joker)
    for _ in range(2):
        v = _best_keep(_expect(v))
    return np.asarray(v @ P_ROLL, dtype=np.float64)


# --------------------------------------------------------------------------
# Building the table


def _states(closed: int) -> list[tuple[int, int, int]]:
    """Reachable (mask, u, b) states of the game whose ``closed`` boxes are pre-filled with 0."""
    out = []
    for mask in range(FULL + 1):
        if mask & closed != closed:
            continue
        played = mask & ~closed
        for uu in reachable_upper(played & 0b111111):
            for bb in (0, 1) if played >> YAHTZEE & 1 else (0,):
                out.append((mask, uu, bb))
    return out


def build_table(
    joker: str = "forced", boxes: Sequence[int] = tuple(range(13)), chunk: int = 2048
) -> F64:
    """The expected points to come for every state, an array ``[mask, upper, bonus]``.

    ``boxes`` restricts play to those boxes: the others are pre-filled with 0
    (a reduced game for tests; the joker rules then see a pre-filled yahtzee
    box as holding 0). Unreachable entries are 0.
    """
    if joker not in JOKERS:
        raise ValueError(f"joker must be one of {JOKERS}")
    table = np.zeros((FULL + 1, NU, 2))
    closed = FULL & ~sum(1 << j for j in boxes)
    by_layer: dict[int, list[tuple[int, int, int]]] = {}
    for s in _states(closed):
        if s[0] != FULL:
            by_layer.setdefault(bin(s[0]).count("1"), []).append(s)
    flat = table.reshape(-1)
    for layer in sorted(by_layer, reverse=True):
        arr = np.array(by_layer[layer], dtype=np.int64)
        for lo in range(0, len(arr), chunk):
            part = arr[lo : lo + chunk]
            mask, u, b = part[:, 0], part[:, 1], part[:, 2]
            flat[mask * (NU * 2) + u * 2 + b] = _turn_values(table, mask, u, b, joker)
    return table
