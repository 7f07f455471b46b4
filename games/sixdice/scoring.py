"""Six Dice scoring (docs/rules/sixdice.md): the combinations and their best partition.

Pure helpers shared by the engine, the AI and the renderers:

- :func:`score_dice` — the points of a selection of dice from one roll, by its
  best partition into scoring combinations, or ``None`` if some die cannot
  belong to one;
- :func:`scoring_selections` — every distinct scoring sub-multiset of a roll
  with its points (what a player may ``take``).

Combinations (the seed's lost table, restored in docs/rules/sixdice.md):

- single 1 = 100, single 5 = 50;
- three of a kind: face × 100, three 1s = 1000 (a 1 is "10");
- four / five / six of a kind: ×2 / ×4 / ×8 the three-of-a-kind value
  (``kinds="doubling"``) or ×2 / ×3 / ×4 (``kinds="additive"``);
- ニコニコ (three pairs of three different faces, 6 dice) = 2000; with
  ``four_and_pair_is_nikoniko`` also four of one face and two of another;
- straight 1-2-3-4-5-6 (6 dice) = ``straight`` (default 3000).

>>> score_dice([5, 5, 5, 5], {})
1000
>>> score_dice([1, 5, 2], {}) is None
True
>>> score_dice([2, 2, 3, 3, 4, 4], {})
2000
>>> [sel for sel, _ in scoring_selections([1, 2, 3, 4, 5, 6], {})]
[(1,), (5,), (1, 5), (1, 2, 3, 4, 5, 6)]
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import lru_cache
from typing import Any

KINDS = ("doubling", "additive")

# Multiplier of the three-of-a-kind value for n equal faces (n = 3…6).
KIND_FACTORS: dict[str, tuple[int, ...]] = {
    "doubling": (0, 0, 0, 1, 2, 4, 8),
    "additive": (0, 0, 0, 1, 2, 3, 4),
}
SINGLE_POINTS = (0, 100, 0, 0, 0, 50, 0)  # by face; only 1 and 5 score alone
NIKONIKO_POINTS = 2000
DEFAULT_STRAIGHT = 3000
# the cached scores and selections: ≤ 923 dice multisets per scoring rules,
# so about the last eight sets of rules (least recently used out)
CACHED = 8192


def triple_value(face: int) -> int:
    """Three of a kind: three 1s are 1000, otherwise face × 100.

    >>> triple_value(1), triple_value(4)
    (1000, 400)
    """
    return 1000 if face == 1 else face * 100


def rules_key(options: Mapping[str, Any]) -> tuple[str, bool, int]:
    """The scoring options the AI's tables depend on (games.sixdice.policy)."""
    return (
        str(options.get("kinds", "doubling")),
        bool(options.get("four_and_pair_is_nikoniko", False)),
        int(options.get("straight", DEFAULT_STRAIGHT)),
    )


def _counts(values: Iterable[int]) -> tuple[int, ...]:
    counts = [0] * 7
    for v in values:
        if not (isinstance(v, int) and 1 <= v <= 6):
            raise ValueError(f"not a die face: {v!r}")
        counts[v] += 1
    return tuple(counts)


def _best_face(face: int, count: int, factors: tuple[int, ...]) -> int | None:
    """Best score of ``count`` dice all showing ``face``: split into singles
    (1 and 5 only) and groups of three or more; ``None`` if impossible."""
    if count == 0:
        return 0
    best: int | None = None
    single = SINGLE_POINTS[face]
    if single:
        rest = _best_face(face, count - 1, factors)
        if rest is not None:
            best = single + rest
    for size in range(3, count + 1):
        rest = _best_face(face, count - size, factors)
        if rest is not None:
            value = triple_value(face) * factors[size] + rest
            if best is None or value > best:
                best = value
    return best


@lru_cache(maxsize=CACHED)
def _score_counts(counts: tuple[int, ...], key: tuple[str, bool, int]) -> int | None:
    kinds, four_and_pair, straight = key
    factors = KIND_FACTORS[kinds]
    total: int | None = 0
    for face in range(1, 7):
        part = _best_face(face, counts[face], factors)
        if part is None:
            total = None
            break
        assert total is not None
        total += part
    if sum(counts) == 6:
        # the six-dice combinations use every die, so they are one partition
        shape = sorted(c for c in counts[1:] if c)
        special: int | None = None
        if shape == [1, 1, 1, 1, 1, 1]:
            special = straight
        elif shape == [2, 2, 2] or (four_and_pair and shape == [2, 4]):
            special = NIKONIKO_POINTS
        if special is not None and (total is None or special > total):
            total = special
    return total


def score_dice(values: Iterable[int], options: Mapping[str, Any]) -> int | None:
    """Points of dice taken together from one roll, by their best partition.

    ``None`` when some die belongs to no scoring combination (or nothing is
    selected). ``options`` are the game's options (``kinds``,
    ``four_and_pair_is_nikoniko``, ``straight``; missing ones take their
    defaults).

    >>> score_dice([5, 5, 5, 5], {"kinds": "additive"}), score_dice([1, 1, 1, 1, 1], {})
    (1000, 4000)
    >>> score_dice([1, 1, 1, 1, 5, 5], {}), score_dice([1, 1, 1, 1, 5, 5], {"four_and_pair_is_nikoniko": True})
    (2100, 2100)
    >>> score_dice([2, 2, 2, 2, 6, 6], {"four_and_pair_is_nikoniko": True})
    2000
    """
    counts = _counts(values)
    if sum(counts) == 0:
        return None
    return _score_counts(counts, rules_key(options))


@lru_cache(maxsize=CACHED)
def _selections(
    roll: tuple[int, ...], key: tuple[str, bool, int]
) -> tuple[tuple[tuple[int, ...], int], ...]:
    counts = _counts(roll)
    found: list[tuple[tuple[int, ...], int]] = []
    sub = [0] * 7

    def walk(face: int) -> None:
        if face == 7:
            if sum(sub):
                points = _score_counts(tuple(sub), key)
                if points is not None:
                    dice = tuple(f for f in range(1, 7) for _ in range(sub[f]))
                    found.append((dice, points))
            return
        for n in range(counts[face] + 1):
            sub[face] = n
            walk(face + 1)
        sub[face] = 0

    walk(1)
    found.sort(key=lambda item: (len(item[0]), item[0]))
    return tuple(found)


def scoring_selections(
    roll: Iterable[int], options: Mapping[str, Any]
) -> list[tuple[tuple[int, ...], int]]:
    """Every distinct scoring sub-multiset of ``roll`` with its points.

    Selections are value tuples in ascending order, listed by size then
    values; an empty list means the roll scores nothing (ドボン / ブタ).

    >>> scoring_selections([5, 5, 3], {})
    [((5,), 50), ((5, 5), 100)]
    >>> scoring_selections([2, 3, 4], {})
    []
    """
    return list(_selections(tuple(sorted(roll)), rules_key(options)))


def roll_scores(roll: Iterable[int], options: Mapping[str, Any]) -> bool:
    """Whether some die of ``roll`` scores (not ドボン / ブタ).

    >>> roll_scores([2, 3, 4, 6, 6, 2], {}), roll_scores([2, 2, 3, 3, 4, 4], {})
    (False, True)
    """
    return bool(_selections(tuple(sorted(roll)), rules_key(options)))
