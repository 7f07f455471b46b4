"""Yahtzee: the exact optimal solitaire strategy (docs/rules/yahtzee.md), by dynamic programming.

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

import hashlib
import math
import os
import pathlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations_with_replacement

import numpy as np
from numpy.typing import NDArray

from games.yahtzee import scoring

F64 = NDArray[np.float64]
I64 = NDArray[np.int64]

BOXES = scoring.BOXES  # ones … sixes, three_kind … chance: box j is bit j of a mask
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
LEVELS = [
    (sum(math.comb(s + 5, 5) for s in range(n)), sum(math.comb(s + 5, 5) for s in range(n + 1)))
    for n in range(6)
]

KEEP_COUNTS = np.array(KEEPS, dtype=np.int64)  # (462, 6)
COUNTS = KEEP_COUNTS[ROLL0:]  # (252, 6) face counts of each roll


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


KEEP_DICE = tuple(tuple(keep_dice(i)) for i in range(N_KEEPS))


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
SCORE_F = SCORE.astype(np.float64)
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
    """(252, rows): the best of scoring each final roll now + the future value.

    Arrays are laid out rolls/keeps × states so that gathering rolls or keeps
    copies contiguous rows.
    """
    ef = table.reshape(-1)
    rows = mask.shape[0]
    best = np.full((N_ROLLS, rows), -np.inf)
    cand = np.empty((N_ROLLS, rows))
    for j in range(13):
        is_open = (mask >> j & 1) == 0
        if not is_open.any():
            continue
        pen = np.where(is_open, 0.0, -np.inf)
        nm = (mask | (1 << j)) * (NU * 2)
        if j < UPPER:
            sc = np.arange(6)[:, None] * (j + 1)  # by count of the face
            nu = np.minimum(UPPER_TARGET, u[None, :] + sc)
            crossed = (u[None, :] < UPPER_TARGET) & (nu >= UPPER_TARGET)
            w = sc + UPPER_BONUS * crossed + ef[nm[None, :] + nu * 2 + b[None, :]] + pen[None, :]
            np.take(w, COUNTS[:, j], axis=0, out=cand)
        elif j == YAHTZEE:
            e0 = ef[nm + u * 2 + b] + pen
            e1 = ef[nm + u * 2 + 1] + pen
            np.add(SCORE_F[j][:, None], e0[None, :], out=cand)
            cand[YAHTZEE_ROLLS] = SCORE_F[j][YAHTZEE_ROLLS][:, None] + e1[None, :]
        else:
            e = ef[nm + u * 2 + b] + pen
            np.add(SCORE_F[j][:, None], e[None, :], out=cand)
        np.maximum(best, cand, out=best)
    ys = np.nonzero(mask >> YAHTZEE & 1)[0]
    if ys.size:
        jv = _joker_values(ef, mask[ys], u[ys], b[ys], joker)
        best[YAHTZEE_ROLLS[:, None], ys[None, :]] = jv
    return best


def _joker_values(ef: F64, mask: I64, u: I64, b: I64, joker: str) -> F64:
    """(6, rows): five of a kind of each face when the yahtzee box is filled."""
    rows = mask.shape[0]
    out = np.full((6, rows), -np.inf)
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
                    # matching upper box first; other upper boxes only when no lower box is open
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
        out[f] = best + YAHTZEE_BONUS * b
    return out


def _expect(v5: F64) -> F64:
    """(462, rows): for each keep, the expected value of ``v5`` after rolling the rest."""
    g = np.empty((N_KEEPS, v5.shape[1]))
    g[ROLL0:] = v5
    for size in range(4, -1, -1):
        lo, hi = LEVELS[size]
        ch = CHILD[lo:hi]
        acc = np.take(g, ch[:, 0], axis=0)
        for f in range(1, 6):
            acc += np.take(g, ch[:, f], axis=0)
        g[lo:hi] = acc * (1.0 / 6.0)
    return g


def _best_keep(k: F64) -> F64:
    """(252, rows): for each roll, the best value of ``k`` over its sub-multisets (in place)."""
    for size in range(1, 6):
        lo, hi = LEVELS[size]
        level = k[lo:hi]
        par = PARENT[lo:hi]
        for p in range(5):
            np.maximum(level, np.take(k, par[:, p], axis=0), out=level)
    return k[ROLL0:]


def _turn_values(table: F64, mask: I64, u: I64, b: I64, joker: str) -> F64:
    """Expected points to come at the start of a turn, for each row state."""
    v = _final_values(table, mask, u, b, joker)
    for _ in range(2):
        v = _best_keep(_expect(v))
    return np.asarray(P_ROLL @ v, dtype=np.float64)


# --------------------------------------------------------------------------
# Building the table


def _states(max_open: int) -> list[tuple[int, int, int]]:
    """Reachable (mask, u, b) states with at most ``max_open`` boxes empty."""
    out = []
    for mask in range(FULL + 1):
        if 13 - bin(mask).count("1") > max_open:
            continue
        for uu in reachable_upper(mask & 0b111111):
            for bb in (0, 1) if mask >> YAHTZEE & 1 else (0,):
                out.append((mask, uu, bb))
    return out


def build_table(joker: str = "forced", max_open: int = 13, chunk: int = 256) -> F64:
    """The expected points to come for every state, an array ``[mask, upper, bonus]``.

    ``max_open < 13`` computes only the states with at most that many empty
    boxes (exact values of the full game: the end of the game does not
    depend on its beginning) — a quick partial table for tests. Unreachable
    and uncomputed entries are 0. ``chunk`` states are solved at once (small
    enough for the CPU cache).
    """
    if joker not in JOKERS:
        raise ValueError(f"joker must be one of {JOKERS}")
    table = np.zeros((FULL + 1, NU, 2))
    by_layer: dict[int, list[tuple[int, int, int]]] = {}
    for s in _states(max_open):
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


# --------------------------------------------------------------------------
# Decisions (the strong bot and the coach)


@dataclass(frozen=True)
class Choice:
    """One candidate move and the expected final total of its column if it is
    taken and optimal play follows."""

    move: str
    expected: float


@dataclass(frozen=True)
class Advice:
    """The candidates of one decision, best first (``best`` is ``choices[0]``)."""

    choices: tuple[Choice, ...]

    @property
    def best(self) -> Choice:
        return self.choices[0]


def column_state(column: Mapping[str, int | None]) -> tuple[int, int, int]:
    """(used-box mask, upper subtotal capped at 63, yahtzee box holds 50) of a score column."""
    mask = sum(1 << j for j, box in enumerate(BOXES) if column.get(box) is not None)
    upper = min(UPPER_TARGET, sum(column.get(box) or 0 for box in BOXES[:UPPER]))
    return mask, upper, int(column.get("yahtzee") == 50)


def _banked(column: Mapping[str, int | None]) -> int:
    """Points already on the column: boxes + upper bonus + Yahtzee bonuses (the engine's sum)."""
    return scoring.column_total(column)


class Solver:
    """Optimal decisions for one score column from a table of :func:`build_table`.

    >>> solver = Solver(build_table("forced", max_open=1), "forced")
    >>> col = {box: 0 for box in BOXES} | {"chance": None, "yahtzee_bonus": 0}
    >>> advice = solver.advise(col, [6, 6, 5, 1, 1], rerolls_left=2)
    >>> advice.best.move
    'keep 5 6 6'
    """

    def __init__(self, table: F64, joker: str = "forced") -> None:
        if joker not in JOKERS:
            raise ValueError(f"joker must be one of {JOKERS}")
        self.table = table
        self.joker = joker
        # the keep values of the last few states (a turn asks up to three times)
        self._memo: dict[tuple[int, int, int], tuple[F64, F64]] = {}

    def _keep_arrays(self, mask: int, upper: int, bonus: int) -> tuple[F64, F64]:
        """(462, 1) keep values with 1 and with 2 rerolls left, for one state."""
        key = (mask, upper, bonus)
        hit = self._memo.get(key)
        if hit is None:
            m, u, b = (np.array([x], dtype=np.int64) for x in key)
            k1 = _expect(_final_values(self.table, m, u, b, self.joker))
            k2 = _expect(_best_keep(k1.copy()))
            if len(self._memo) >= 16:
                self._memo.clear()
            hit = self._memo[key] = (k1, k2)
        return hit

    def expected_to_go(self, column: Mapping[str, int | None]) -> float:
        """Expected points still to come for this column, at the start of a turn."""
        mask, upper, bonus = column_state(column)
        return float(self.table[mask, upper, bonus])

    def expected_total(self, column: Mapping[str, int | None]) -> float:
        """Expected final total of the column under optimal play (start of a turn)."""
        return _banked(column) + self.expected_to_go(column)

    def box_values(self, column: Mapping[str, int | None], dice: Sequence[int]) -> dict[str, float]:
        """Each legal box for these final dice → expected points to come (this box
        included) if the dice are scored there; legality and scores are the
        engine's (:mod:`games.yahtzee.scoring`)."""
        mask, upper, bonus = column_state(column)
        extra = scoring.yahtzee_bonus(list(dice), column)
        out: dict[str, float] = {}
        for box in scoring.legal_boxes(list(dice), column, self.joker):
            j = BOXES.index(box)
            score = scoring.box_score(box, list(dice), column, self.joker)
            nu, nb, gain = upper, bonus, score + extra
            if j < UPPER:
                nu = min(UPPER_TARGET, upper + score)
                gain += UPPER_BONUS if upper < UPPER_TARGET <= nu else 0
            elif j == YAHTZEE:
                nb = int(score == 50)
            out[box] = gain + float(self.table[mask | 1 << j, nu, nb])
        return out

    def keep_values(
        self, column: Mapping[str, int | None], dice: Sequence[int], rerolls_left: int
    ) -> dict[tuple[int, ...], float]:
        """Each keep (a proper sub-multiset of ``dice``, ascending) → expected
        points to come if the other dice are rerolled, with ``rerolls_left``
        (1 or 2) rerolls left before this one."""
        if rerolls_left not in (1, 2):
            raise ValueError("rerolls_left must be 1 or 2")
        k = self._keep_arrays(*column_state(column))[rerolls_left - 1]
        counts = np.array([list(dice).count(f) for f in range(1, 7)])
        fits = np.nonzero((KEEP_COUNTS[:ROLL0] <= counts).all(axis=1))[0]
        vals = k[fits, 0]
        out = {KEEP_DICE[i]: float(v) for i, v in zip(fits.tolist(), vals.tolist(), strict=True)}
        return out

    def advise(
        self, column: Mapping[str, int | None], dice: Sequence[int], rerolls_left: int
    ) -> Advice:
        """Every move after a roll with its expected final total, best first.

        With rerolls left the candidates are the keeps (``keep`` alone rerolls
        all; keeping all five is never better than the best keep, so it is
        left out) and the boxes; with none, the boxes.
        """
        banked = _banked(column)
        choices = [
            Choice(f"score {box}", banked + v) for box, v in self.box_values(column, dice).items()
        ]
        if rerolls_left:
            for keep, v in self.keep_values(column, dice, rerolls_left).items():
                choices.append(Choice(" ".join(["keep", *map(str, keep)]), banked + v))
        choices.sort(key=lambda c: -c.expected)
        return Advice(tuple(choices))


def triple_advice(
    solvers: Sequence[Solver],
    columns: Sequence[Mapping[str, int | None]],
    dice: Sequence[int],
    rerolls_left: int,
    factors: Sequence[int] = (1, 2, 3),
) -> Advice:
    """Heuristic advice for option ``triple`` (no exact solver: the state is three columns).

    Each move is valued by the single-column table of the column it serves:
    a box of column c by ``factor_c × (its value − the column's expectation)``,
    a keep by the best such gain over the columns that still have room. The
    ``expected`` field is the sum of the columns' expected totals (× factor)
    plus that gain: an estimate, not an exact expectation. ``solvers`` has
    one entry per column (usually the same solver three times).
    """
    bases = [s.expected_to_go(c) for s, c in zip(solvers, columns, strict=True)]
    start = sum(f * s.expected_total(c) for f, s, c in zip(factors, solvers, columns, strict=True))
    best_keep: dict[tuple[int, ...], float] = {}
    choices: list[Choice] = []
    for i, (s, c) in enumerate(zip(solvers, columns, strict=True)):
        if all(c.get(box) is not None for box in BOXES):
            continue
        for box, v in s.box_values(c, dice).items():
            choices.append(
                Choice(f"score {box} x{factors[i]}", start + factors[i] * (v - bases[i]))
            )
        if rerolls_left:
            for keep, v in s.keep_values(c, dice, rerolls_left).items():
                gain = factors[i] * (v - bases[i])
                best_keep[keep] = max(best_keep.get(keep, -np.inf), gain)
    for keep, gain in best_keep.items():
        choices.append(Choice(" ".join(["keep", *map(str, keep)]), start + gain))
    choices.sort(key=lambda c: -c.expected)
    return Advice(tuple(choices))


# --------------------------------------------------------------------------
# The disk cache: the one I/O edge of this module (the bot and bench/ai.py)


def rules_hash(joker: str) -> str:
    """A short hash of everything the table depends on (in the cache file name)."""
    text = repr(
        (
            RULES_VERSION,
            joker,
            UPPER_BONUS,
            UPPER_TARGET,
            YAHTZEE_BONUS,
            JOKER_FIXED,
            SCORE.tolist(),
        )
    )
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def cache_path(joker: str, cache_dir: str | os.PathLike[str] | None = None) -> pathlib.Path:
    """Where the table of ``joker`` is cached: ``cache_dir``, else ``$CHABUDAI_CACHE``,
    else ``~/.cache/chabudai``; the name carries the rules version and hash."""
    root = (
        cache_dir or os.environ.get("CHABUDAI_CACHE") or pathlib.Path.home() / ".cache" / "chabudai"
    )
    return pathlib.Path(root) / f"yahtzee-{joker}-{RULES_VERSION}-{rules_hash(joker)}.npy"


def load_or_build(
    joker: str = "forced", cache_dir: str | os.PathLike[str] | None = None
) -> tuple[Solver, bool]:
    """The solver for ``joker``, from the cache file if present, else built
    (≈ 15 s) and saved. Returns ``(solver, built)``."""
    path = cache_path(joker, cache_dir)
    try:
        table = np.load(path)
        if table.shape == (FULL + 1, NU, 2) and table.dtype == np.float64:
            return Solver(table, joker), False
    except (OSError, ValueError, EOFError):
        pass
    table = build_table(joker)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(f".{os.getpid()}.tmp")
    with open(tmp, "wb") as fh:
        np.save(fh, table)
    os.replace(tmp, path)
    return Solver(table, joker), True
