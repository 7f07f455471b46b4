"""Exact Yahtzee probabilities with fractions (the seed's facts, docs/rules/yahtzee.md).

- five of a kind on the first roll: 6 / 7776 (≈ 0.077 %)
- chasing Yahtzee alone with two rerolls, keeping the largest group each
  time: 2783176 / 60466176 ≈ 4.603 %

>>> five_of_a_kind_first_roll()
Fraction(1, 1296)
>>> p = yahtzee_chase(rerolls=2)
>>> p, f"{float(p):.3%}"
(Fraction(347897, 7558272), '4.603%')
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from fractions import Fraction
from functools import cache
from itertools import product

FACES = range(1, 7)


@cache
def outcomes(n: int) -> tuple[tuple[tuple[int, ...], Fraction], ...]:
    """Every sorted result of rolling ``n`` dice with its exact probability.

    >>> len(outcomes(5)), sum(p for _, p in outcomes(5))
    (252, Fraction(1, 1))
    """
    counts = Counter(tuple(sorted(r)) for r in product(FACES, repeat=n))
    total = 6**n
    return tuple((key, Fraction(c, total)) for key, c in sorted(counts.items()))


def largest_group(dice: Sequence[int]) -> int:
    """How many dice show the most common face (0 for no dice)."""
    return max(Counter(dice).values(), default=0)


def five_of_a_kind_first_roll() -> Fraction:
    """P(five of a kind in one roll of five dice) = 6 / 7776."""
    return sum((p for dice, p in outcomes(5) if largest_group(dice) == 5), Fraction(0))


@cache
def _chase_step(group: int) -> tuple[Fraction, ...]:
    """From ``group`` dice kept of one face, reroll the other ``5 - group``:
    the distribution of the largest group afterwards (index 0–5)."""
    dist = [Fraction(0)] * 6
    kept = (1,) * group  # which face is kept does not matter: take 1s
    for rolled, p in outcomes(5 - group):
        dist[largest_group(kept + rolled)] += p
    return tuple(dist)


def yahtzee_chase(rerolls: int = 2) -> Fraction:
    """P(five of a kind) when chasing Yahtzee alone: roll five dice, then up
    to ``rerolls`` times keep the largest group (one group when two tie, any
    die when all differ) and reroll the rest.

    Only the size of the largest group matters, so this is a Markov chain
    on 1–5, started from the first roll.
    """
    dist = [Fraction(0)] * 6
    for dice, p in outcomes(5):
        dist[largest_group(dice)] += p
    for _ in range(rerolls):
        nxt = [Fraction(0)] * 6
        for group, p in enumerate(dist):
            if p:
                for after, q in enumerate(_chase_step(group)):
                    nxt[after] += p * q
        dist = nxt
    return dist[5]
