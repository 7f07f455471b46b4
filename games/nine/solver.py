"""Nine (ナイン), docs/rules/nine.md: exact optimal play for one player, by dynamic programming.

A player's state is (face-up cards: 9 bits) × (tokens held). Two objectives:

- ``agari``: the highest chance of 上がり (all nine cards down);
- ``remaining``: the lowest expected face-up sum at the end (上がり = 0,
  ドボン = the face-up sum, 1 ドボン = 1).

Token rules: a doubles roll gives a token before the flip is looked for; a
roll with no legal flip hands a token back automatically (so a doubles roll
with no flip changes nothing: the state loops on itself, which the
recursion solves as ``V = A / (1 − p_loop)``); with only the 1 face up the
player is out at once (1 ドボン). With ``tokens=False`` doubles give nothing
(the plain "flip one or two cards" shut-the-box game): 5.349 % and 11.964.

Tokens are unbounded in the rules but not in play: a token needs a flip on
doubles and every flip turns down at least one card, so a player with k cards
face up holds at most 9 − k tokens. Values are computed for ``t ≤ cap``
(a token gained at the cap is clamped); every reachable state has t ≤ 8, so
any ``cap ≥ 8`` gives the exact values (a test compares cap 9 and cap 20).
Everything here is plain Python and takes a few tens of milliseconds.

>>> tables = solve(tokens=False)
>>> round(100 * tables.chance_agari(range(1, 10), 0), 3), round(tables.expected_remaining(range(1, 10), 0), 3)
(5.349, 11.964)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

FULL = (1 << 9) - 1  # bit c-1 set = card c face up
ONE = 1  # the mask where only the 1 is face up (1 ドボン)
DEFAULT_CAP = 9

# The 21 distinct rolls of two dice: (total, doubles, probability).
ROLLS: tuple[tuple[int, bool, float], ...] = tuple(
    (a + b, a == b, (1 if a == b else 2) / 36) for a in range(1, 7) for b in range(a, 7)
)


def card_sum(mask: int) -> int:
    """The sum of the face-up cards of ``mask``."""
    return sum(c for c in range(1, 10) if mask >> (c - 1) & 1)


def flips(mask: int, total: int) -> list[tuple[int, ...]]:
    """The legal flips for a dice total: one card equal to it, or two summing to it.

    >>> flips(FULL, 4)
    [(4,), (1, 3)]
    """
    out: list[tuple[int, ...]] = []
    if 1 <= total <= 9 and mask >> (total - 1) & 1:
        out.append((total,))
    for a in range(1, 10):
        b = total - a
        if a < b <= 9 and mask >> (a - 1) & 1 and mask >> (b - 1) & 1:
            out.append((a, b))
    return out


def _bits(cards: Iterable[int]) -> int:
    return sum(1 << (c - 1) for c in set(cards))


@dataclass(frozen=True)
class FlipChoice:
    """One legal flip for a roll, with what follows from it under optimal play:
    ``agari`` the chance of 上がり (playing for 上がり), ``remaining`` the
    expected face-up sum at the end (playing for the lowest sum)."""

    move: str
    cards: tuple[int, ...]
    agari: float
    remaining: float


@dataclass(frozen=True)
class NineTables:
    """The solved values: ``agari[mask][t]`` and ``remaining[mask][t]`` at the
    start of a turn with the cards of ``mask`` face up and ``t`` tokens."""

    tokens: bool
    cap: int
    agari: tuple[tuple[float, ...], ...]
    remaining: tuple[tuple[float, ...], ...]

    def _after(self, mask: int, t: int) -> tuple[float, float]:
        """(chance of 上がり, expected remaining) right after a flip leaves ``mask``."""
        if mask == 0:
            return 1.0, 0.0  # 上がり
        if mask == ONE:
            return 0.0, 1.0  # 1 ドボン
        t = min(t, self.cap)
        return self.agari[mask][t], self.remaining[mask][t]

    def chance_agari(self, face_up: Iterable[int], tokens: int) -> float:
        """The best chance of 上がり from the start of a turn."""
        return self._after(_bits(face_up), tokens)[0]

    def expected_remaining(self, face_up: Iterable[int], tokens: int) -> float:
        """The lowest expected final face-up sum from the start of a turn."""
        return self._after(_bits(face_up), tokens)[1]

    def choices(self, face_up: Iterable[int], tokens: int, dice: Sequence[int]) -> list[FlipChoice]:
        """Every legal flip for this roll (``tokens`` held before it), best
        chance of 上がり first; ``[]`` when there is no legal flip.

        >>> t = solve()
        >>> [c.move for c in t.choices(range(1, 10), 0, (1, 3))]
        ['flip 4', 'flip 1 3']
        """
        mask = _bits(face_up)
        a, b = dice
        gained = tokens + (1 if self.tokens and a == b else 0)
        out = []
        for cards in flips(mask, a + b):
            p, e = self._after(mask & ~_bits(cards), gained)
            out.append(FlipChoice("flip " + " ".join(map(str, cards)), cards, p, e))
        out.sort(key=lambda c: (-c.agari, c.remaining))
        return out


def solve(tokens: bool = True, cap: int = DEFAULT_CAP) -> NineTables:
    """Solve both objectives for every state (masks by increasing size, tokens
    ascending: a flip leads to fewer cards, a spent token to fewer tokens)."""
    n_t = cap + 1
    agari = [[0.0] * n_t for _ in range(FULL + 1)]
    remaining = [[0.0] * n_t for _ in range(FULL + 1)]

    def after(mask: int, t: int) -> tuple[float, float]:
        if mask == 0:
            return 1.0, 0.0
        if mask == ONE:
            return 0.0, 1.0
        t = min(t, cap)
        return agari[mask][t], remaining[mask][t]

    for mask in sorted(range(1, FULL + 1), key=lambda m: bin(m).count("1")):
        if mask == ONE:
            continue
        left = float(card_sum(mask))
        for t in range(n_t):
            pa = pe = loop = 0.0
            for total, doubles, p in ROLLS:
                t1 = t + 1 if tokens and doubles else t
                options = flips(mask, total)
                if options:
                    outs = [after(mask & ~_bits(c), t1) for c in options]
                    pa += p * max(o[0] for o in outs)
                    pe += p * min(o[1] for o in outs)
                elif t1 > 0 and t1 - 1 == t:
                    loop += p  # doubles, no flip: +1 then −1, the same state
                elif t1 > 0:
                    pa += p * agari[mask][t1 - 1]
                    pe += p * remaining[mask][t1 - 1]
                else:
                    pe += p * left  # ドボン
            agari[mask][t] = pa / (1.0 - loop)
            remaining[mask][t] = pe / (1.0 - loop)
    return NineTables(tokens, cap, tuple(map(tuple, agari)), tuple(map(tuple, remaining)))
