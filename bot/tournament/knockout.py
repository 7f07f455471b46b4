"""Knockout: the standard bracket (seed 1 against the last, byes for the
top seeds), the bracket as played, and each round's tables — two-player
matches or tables whose winners go through (docs/tournaments.md)."""

from __future__ import annotations

from collections.abc import Sequence

from bot.tournament.rules import Match, Table, _by_round, knockout_winner, table_sizes
from bot.tournament.tables import _snake


def bracket_order(size: int) -> list[int]:
    """Seed numbers in bracket order for a bracket of ``size`` (a power of
    two): neighbours meet in round 1, and seeds 1 and 2 only in the final.

    >>> bracket_order(8)
    [1, 8, 4, 5, 2, 7, 3, 6]
    """
    order = [1]
    while len(order) < size:
        mirror = len(order) * 2 + 1
        order = [x for s in order for x in (s, mirror - s)]
    return order


def bracket(history: Sequence[Match]) -> list[list[int | None]]:
    """A two-player knockout's bracket as played: for each round from 1, the
    players in their bracket slots (neighbours 2k and 2k+1 meet), None for
    an empty slot (a bye's phantom, or a winner who dropped). The list after
    the last round played holds its winners — a single champion once the
    final is played. Round 1's slots come from round 1's order in
    ``history``; later rounds are found by who is in them."""
    rounds = _by_round(history)
    if 1 not in rounds:
        return []
    slots: list[int | None] = []
    for match in rounds[1]:
        slots.extend(match.seats if len(match.seats) == 2 else (match.seats[0], None))
    out = [slots]
    number = 1
    while number in rounds and len(slots) > 1:
        matches = rounds[number]
        after: list[int | None] = []
        for j in range(0, len(slots), 2):
            pair = {p for p in slots[j : j + 2] if p is not None}
            found = next((m for m in matches if pair & set(m.seats)), None)
            after.append(knockout_winner(found) if found else None)
        out.append(after)
        slots = after
        number += 1
    return out


def _knockout_pairs(round_no: int, players: list[int], past: list[Match]) -> list[Table]:
    seed = {p: i for i, p in enumerate(players)}
    if round_no == 1 or not past:
        size = 1 << max(0, (len(players) - 1).bit_length())
        out: list[Table] = []
        order = bracket_order(size)
        for k in range(0, size, 2):
            a, b = order[k], order[k + 1]
            out.append((players[a - 1], players[b - 1]) if b <= len(players) else (players[a - 1],))
        return out
    played = bracket(past)
    if len(played) < round_no:
        return []  # a round is missing from the history
    slots = played[round_no - 1]
    active = set(players)
    if sum(p is not None and p in active for p in slots) <= 1:
        return []  # decided: one player left (or none)
    out = []
    for j in range(0, len(slots), 2):
        here = [p for p in slots[j : j + 2] if p is not None and p in active]
        here.sort(key=lambda p: seed[p])
        if here:
            out.append(tuple(here))
    return out


def _knockout_tables(
    round_no: int, players: list[int], past: list[Match], table_size: int, min_seats: int
) -> list[Table]:
    seed = {p: i for i, p in enumerate(players)}
    if round_no > 1:
        last = [m for m in past if m.round == round_no - 1]
        if not last:
            return []
        winners = {knockout_winner(m) for m in last}
        if len(winners) <= 1:
            return []  # decided
        going = sorted((p for p in winners if p in seed), key=seed.__getitem__)
        if len(going) <= 1:
            return []  # decided: the only winner still in is the champion
        if len(going) < min_seats:
            # a final short of seats: the best runners-up fill it (those
            # out latest, then by their points and score in that match)
            out_in: dict[int, tuple[int, float, float]] = {}
            for match in sorted(past, key=lambda m: m.round):
                for p, pts, score in zip(match.seats, match.points, match.scores, strict=True):
                    out_in[p] = (match.round, pts, score)
            rest = [p for p in players if p not in winners]
            rest.sort(key=lambda p: (*(-x for x in out_in.get(p, (0, 0.0, 0.0))), seed[p]))
            going += rest[: min_seats - len(going)]
            going.sort(key=seed.__getitem__)
        ranked = going
    else:
        ranked = list(players)
    sizes = table_sizes(len(ranked), table_size, min_seats)
    return [tuple(sorted(t, key=seed.__getitem__)) for t in _snake(ranked, sizes)]
