"""Rounds of tables (three or more seats): dealt by seed snake, seated by
standing (Swiss of tables) or so that those who met least sit together
(round robin of tables), and each table's seat order (docs/tournaments.md)."""

from __future__ import annotations

import random
from collections import defaultdict

from bot.tournament.rules import Match, Table, _met, _totals, table_sizes

# How far down the standings a Swiss round of tables may reach to seat
# players who have not met, in tables' worth: a table of four takes its
# seats from the next eight by standing.
REACH = 2


def _snake(ranked: list[int], sizes: list[int]) -> list[list[int]]:
    """Deal ``ranked`` to tables of ``sizes`` in snake order: 1, 2, 3 then
    3, 2, 1 …, skipping full tables."""
    tables: list[list[int]] = [[] for _ in sizes]
    order = list(range(len(sizes)))
    i = 0
    forward = True
    for player in ranked:
        while True:
            lane = order if forward else order[::-1]
            t = lane[i]
            i += 1
            if i == len(lane):
                i, forward = 0, not forward
            if len(tables[t]) < sizes[t]:
                tables[t].append(player)
                break
    return tables


def _seat_order(table: list[int], rank: dict[int, int], past: list[Match]) -> Table:
    """Seats for a table: whoever sat early least often sits first (a seat's
    earliness: 1 for the first seat down to 0 for the last)."""
    early: dict[int, float] = defaultdict(float)
    members = set(table)
    for match in past:
        n = len(match.seats)
        if n < 2:
            continue
        for i, p in enumerate(match.seats):
            if p in members:
                early[p] += 1 - i / (n - 1)
    return tuple(sorted(table, key=lambda p: (early[p], rank[p])))


def _standing_tables(
    round_no: int, players: list[int], past: list[Match], table_size: int, min_seats: int
) -> list[Table]:
    seed = {p: i for i, p in enumerate(players)}
    sizes = table_sizes(len(players), table_size, min_seats)
    if not past:
        tables = _snake(players, sizes)
        return [tuple(t) for t in tables]
    points, scores = _totals(past)
    ranked = sorted(players, key=lambda p: (-points[p], -scores[p], seed[p]))
    rank = {p: i for i, p in enumerate(ranked)}
    met = _met(past)
    left = list(ranked)
    out: list[Table] = []
    for size in sizes:
        # the best-placed player left heads the table; each further seat goes
        # to whoever of the next few by standing has met this table least
        table = [left.pop(0)]
        while len(table) < size:
            window = left[: REACH * size]
            pick = min(
                window,
                key=lambda p: (sum(met[frozenset((p, q))] for q in table), rank[p]),
            )
            table.append(pick)
            left.remove(pick)
        out.append(_seat_order(table, rank, past))
    return out


def _mixing_tables(
    round_no: int,
    players: list[int],
    past: list[Match],
    table_size: int,
    min_seats: int,
    seed: int,
) -> list[Table]:
    """Tables of players who have met least: greedy, the player with the
    most meetings so far first, then whoever has met that table least
    (``seed`` orders equal choices). Round 1 (nobody has met): the seed
    snake, as a Swiss of tables deals it."""
    sizes = table_sizes(len(players), table_size, min_seats)
    if not past:
        return [tuple(t) for t in _snake(players, sizes)]
    met = _met(past)
    order = sorted(players)
    random.Random(f"{seed}:{round_no}").shuffle(order)
    tiebreak = {p: i for i, p in enumerate(order)}
    meetings = {p: sum(met[frozenset((p, q))] for q in players if q != p) for p in players}
    left = set(players)
    rank = {p: i for i, p in enumerate(players)}
    out: list[Table] = []
    for size in sizes:
        first = min(left, key=lambda p: (-meetings[p], tiebreak[p]))
        table = [first]
        left.discard(first)
        while len(table) < size:
            nxt = min(
                left,
                key=lambda p: (sum(met[frozenset((p, q))] for q in table), tiebreak[p]),
            )
            table.append(nxt)
            left.discard(nxt)
        out.append(_seat_order(table, rank, past))
    return out
