"""The standings after any history — points, then the tie-breaks of
:func:`bot.tournament.rules.tiebreak_names`, exact ties sharing a place —
and whether the event is over (docs/tournaments.md)."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence

from bot.tournament.rules import (
    FORMATS,
    Match,
    Standing,
    _check,
    _totals,
    knockout_winner,
    tiebreak_names,
    two_player,
)


def standings(
    format: str, players: Sequence[int], history: Sequence[Match], *, table_size: int
) -> list[Standing]:
    """The standings of ``players`` (seed order; dropped players included if
    they are to be listed) after ``history``: by points, then the
    tie-breaks of :func:`tiebreak_names`, exact ties sharing a place (listed
    in seed order).

    Points are the sum of the matches' points; in a knockout, the number of
    matches won (byes included), so players out in the same round share a
    place: the champion 1st, the finalist 2nd, the semi-finalists 3rd.
    """
    _check(format, table_size)
    names = tiebreak_names(format, two_player(table_size))
    points, scores = _totals(history)
    games: Counter[int] = Counter(p for m in history if not m.is_bye for p in m.seats)
    if format == "knockout":
        points = defaultdict(float)
        for match in history:
            points[knockout_winner(match)] += 1.0
    sb: dict[int, float] = defaultdict(float)
    buchholz: dict[int, float] = defaultdict(float)
    wins: dict[int, float] = defaultdict(float)
    for match in history:
        if len(match.seats) != 2:
            continue
        (a, b), (pa, pb) = match.seats, match.points
        buchholz[a] += points[b]
        buchholz[b] += points[a]
        sb[a] += pa * points[b]
        sb[b] += pb * points[a]
        wins[a] += pa > pb
        wins[b] += pb > pa
    values = {"buchholz": buchholz, "sonneborn_berger": sb, "wins": wins, "score_sum": scores}
    seed = {p: i for i, p in enumerate(players)}

    def line(p: int) -> tuple[float, tuple[float, ...]]:
        return round(points[p], 6), tuple(round(values[n][p], 6) for n in names)

    order = sorted(players, key=lambda p: ([-x for x in (line(p)[0], *line(p)[1])], seed[p]))
    out: list[Standing] = []
    for i, p in enumerate(order):
        total, breaks = line(p)
        place = out[-1].place if out and line(order[i - 1]) == (total, breaks) else i + 1
        out.append(Standing(p, place, total, breaks, games[p]))
    return out


def finished(
    format: str,
    round_no: int,
    rounds: int,
    players: Sequence[int],
    history: Sequence[Match],
    *,
    min_seats: int = 2,
) -> bool:
    """Whether the event is over once round ``round_no`` has ended (0: before
    the first round): its last round played, too few active ``players`` left
    to seat a table (fewer than two, or than ``min_seats`` — the game's
    minimum — at tables), or — a knockout — a single winner left standing.
    While it says False, :func:`pair_round` has a table for the next round.
    """
    if format not in FORMATS:
        raise ValueError(f"format {format!r}")
    active = set(players)
    if len(active) < max(2, min_seats):
        return True
    if format != "knockout":
        return round_no >= rounds
    if round_no < 1:
        return False
    last = [m for m in history if m.round == round_no]
    if not last:
        return True
    winners = {knockout_winner(m) for m in last}
    return len(winners) <= 1 or len(winners & active) <= 1
