"""Two-player round robin: the circle method (Berger tables) over the
round-1 players, a fixed schedule whoever drops (docs/tournaments.md)."""

from __future__ import annotations

from bot.tournament.rules import Match, Table


def _schedule_players(players: list[int], past: list[Match]) -> list[int]:
    first = [m for m in past if m.round == 1]
    if first:
        return sorted({p for m in first for p in m.seats})
    return sorted(players)


def _circle(round_no: int, players: list[int], past: list[Match]) -> list[Table]:
    """Round ``round_no`` of the circle method (Berger tables): the last
    player stays put, the others turn one place a round; with an odd count a
    phantom makes it even and whoever meets the phantom has the bye."""
    everyone: list[int | None] = list(_schedule_players(players, past))
    if len(everyone) % 2:
        everyone.append(None)
    n = len(everyone)
    if n < 2:
        return []
    active = set(players)
    r = (round_no - 1) % (n - 1)
    fixed = everyone[-1]
    wheel = everyone[:-1]
    turned = wheel[r:] + wheel[:r]
    pairs: list[tuple[int | None, int | None]] = [
        (fixed, turned[0]) if r % 2 else (turned[0], fixed)
    ]
    for i in range(1, n // 2):
        a, b = turned[i], turned[-i]
        pairs.append((a, b) if i % 2 else (b, a))
    tables: list[Table] = []
    byes: list[Table] = []
    for a, b in pairs:
        here = [p for p in (a, b) if p is not None and p in active]
        if len(here) == 2:
            tables.append((here[0], here[1]))
        elif here:
            byes.append((here[0],))
    return tables + byes
