"""Yahtzee (ヤッツィー) scoring: the 13 boxes, the upper bonus and the joker.

Pure functions over plain data, shared by the engine, the optimal-play solver
(``games/yahtzee/solver.py``) and the bot's box menu.

- ``dice``: any sequence of five faces 1–6 (order does not matter).
- ``column``: one score column, a mapping ``box -> score`` with ``None`` for
  an empty box (extra keys such as ``"yahtzee_bonus"`` are ignored here).
  With option ``triple`` a sheet has three columns and every rule below is
  judged in the column the player picks.
- ``joker_mode``: ``"forced"`` (default; the seed's and Hasbro's forced order)
  or ``"free"`` (the optimal-play studies' convention). docs/rules/yahtzee.md.

>>> box_score("full_house", [2, 2, 3, 3, 3], empty_column())
25
>>> col = empty_column(); col["yahtzee"] = 50
>>> legal_boxes([4, 4, 4, 4, 4], col)        # forced: the matching upper box only
['fours']
>>> col["fours"] = 12
>>> box_score("large_straight", [4, 4, 4, 4, 4], col), yahtzee_bonus([4, 4, 4, 4, 4], col)
(40, 100)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from itertools import combinations_with_replacement

BOXES: tuple[str, ...] = (
    "ones",
    "twos",
    "threes",
    "fours",
    "fives",
    "sixes",
    "three_kind",
    "four_kind",
    "full_house",
    "small_straight",
    "large_straight",
    "yahtzee",
    "chance",
)
UPPER: tuple[str, ...] = BOXES[:6]
LOWER: tuple[str, ...] = BOXES[6:]
BOX_INDEX: dict[str, int] = {box: i for i, box in enumerate(BOXES)}
FACE_OF: dict[str, int] = {box: i + 1 for i, box in enumerate(UPPER)}
UPPER_OF_FACE: dict[int, str] = {i + 1: box for i, box in enumerate(UPPER)}

UPPER_BONUS = 35
UPPER_BONUS_AT = 63
YAHTZEE_SCORE = 50
YAHTZEE_BONUS = 100
# Joker scores of the fixed-score boxes; the other lower boxes score the sum.
JOKER_FIXED: dict[str, int] = {"full_house": 25, "small_straight": 30, "large_straight": 40}
# Under joker=free a fixed joker score needs the matching upper box filled.
JOKER_MODES: tuple[str, ...] = ("forced", "free")

Column = Mapping[str, "int | None"]


def _normal(dice: tuple[int, ...]) -> tuple[int, ...]:
    """The 13 box scores of sorted dice by the normal (non-joker) rules."""
    counts = [dice.count(f) for f in range(1, 7)]
    total = sum(dice)
    most = max(counts)
    faces = set(dice)
    small = any(run <= faces for run in ({1, 2, 3, 4}, {2, 3, 4, 5}, {3, 4, 5, 6}))
    large = faces in ({1, 2, 3, 4, 5}, {2, 3, 4, 5, 6})
    return (
        *(counts[f - 1] * f for f in range(1, 7)),
        total if most >= 3 else 0,
        total if most >= 4 else 0,
        25 if sorted(counts)[-2:] == [2, 3] else 0,  # five of a kind is not a full house
        30 if small else 0,
        40 if large else 0,
        YAHTZEE_SCORE if most == 5 else 0,
        total,
    )


# Every roll of five dice as a sorted tuple (252 of them) → its 13 normal scores.
_TABLE: dict[tuple[int, ...], tuple[int, ...]] = {
    key: _normal(key) for key in combinations_with_replacement(range(1, 7), 5)
}
ROLLS: tuple[tuple[int, ...], ...] = tuple(_TABLE)


def normal_scores(dice: Iterable[int]) -> dict[str, int]:
    """Each box's score by the normal rules (no joker).

    >>> normal_scores([1, 2, 3, 4, 6])["small_straight"]
    30
    """
    return dict(zip(BOXES, _TABLE[tuple(sorted(dice))], strict=True))


def is_yahtzee(dice: Sequence[int]) -> bool:
    """Five of a kind."""
    return len(dice) == 5 and dice.count(dice[0]) == 5


def joker_active(dice: Sequence[int], column: Column) -> bool:
    """Five of a kind while this column's yahtzee box is already filled (50 or 0)."""
    return column.get("yahtzee") is not None and is_yahtzee(dice)


def box_score(box: str, dice: Sequence[int], column: Column, joker_mode: str = "forced") -> int:
    """What ``box`` of ``column`` would score with ``dice`` (the +100 bonus excluded).

    Whether the box is legal is :func:`legal_boxes`' job; this is only its score.

    >>> col = {b: None for b in BOXES} | {"yahtzee": 0}
    >>> box_score("full_house", [6, 6, 6, 6, 6], col)          # forced joker
    25
    >>> box_score("full_house", [6, 6, 6, 6, 6], col, "free")  # free: sixes still empty
    0
    """
    normal = _TABLE[tuple(sorted(dice))][BOX_INDEX[box]]
    if box in JOKER_FIXED and joker_active(dice, column):
        if joker_mode == "forced" or column.get(UPPER_OF_FACE[dice[0]]) is not None:
            return JOKER_FIXED[box]
    return normal


def yahtzee_bonus(dice: Sequence[int], column: Column) -> int:
    """The +100 an extra Yahtzee earns in ``column``: only when its yahtzee box holds 50.

    It is earned whichever box the roll is then scored in, even as 0 in an upper box.
    """
    return YAHTZEE_BONUS if column.get("yahtzee") == YAHTZEE_SCORE and is_yahtzee(dice) else 0


def empty_boxes(column: Column) -> list[str]:
    """The empty boxes of a column, in sheet order."""
    return [b for b in BOXES if column.get(b) is None]


def legal_boxes(dice: Sequence[int], column: Column, joker_mode: str = "forced") -> list[str]:
    """The boxes of ``column`` that ``dice`` may be scored in, in sheet order.

    Forced joker (an extra Yahtzee, ``joker_mode="forced"``): the matching
    upper box if empty is the only legal box; else any empty lower box; else
    any empty upper box (for 0). Otherwise (and always under ``free``) any
    empty box.

    >>> col = {b: None for b in BOXES} | {"yahtzee": 50, "threes": 9}
    >>> legal_boxes([3, 3, 3, 3, 3], col)
    ['three_kind', 'four_kind', 'full_house', 'small_straight', 'large_straight', 'chance']
    """
    empty = empty_boxes(column)
    if joker_mode == "forced" and joker_active(dice, column):
        upper = UPPER_OF_FACE[dice[0]]
        if column.get(upper) is None:
            return [upper]
        lower = [b for b in empty if b in LOWER]
        return lower or empty
    return empty


def scores_for(dice: Sequence[int], column: Column, joker_mode: str = "forced") -> dict[str, int]:
    """Each legal box of ``column`` → what it would score now (bonus excluded)."""
    return {
        b: box_score(b, dice, column, joker_mode) for b in legal_boxes(dice, column, joker_mode)
    }


def empty_column() -> dict[str, int | None]:
    """A fresh score column: every box empty, no Yahtzee bonus yet."""
    col: dict[str, int | None] = {b: None for b in BOXES}
    col["yahtzee_bonus"] = 0
    return col


def upper_subtotal(column: Column) -> int:
    """Sum of the filled upper boxes (progress toward the 63 of the bonus)."""
    return sum(column.get(b) or 0 for b in UPPER)


def upper_bonus(column: Column) -> int:
    """35 when the upper boxes total at least 63, else 0."""
    return UPPER_BONUS if upper_subtotal(column) >= UPPER_BONUS_AT else 0


def lower_subtotal(column: Column) -> int:
    """Sum of the filled lower boxes (Yahtzee bonuses not included)."""
    return sum(column.get(b) or 0 for b in LOWER)


def column_total(column: Column) -> int:
    """A column's total, unmultiplied: upper + bonus + lower + Yahtzee bonuses."""
    return (
        upper_subtotal(column)
        + upper_bonus(column)
        + lower_subtotal(column)
        + int(column.get("yahtzee_bonus") or 0)
    )


def is_full(column: Column) -> bool:
    """Every box of the column is filled."""
    return all(column.get(b) is not None for b in BOXES)
