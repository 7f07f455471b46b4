"""The records of an event and the rules every format shares: a
:class:`Match` played and a line of the :class:`Standing`; the points of a
place, a result and a bye; the tie-breaks' names; the sizes of a round's
tables and the number of rounds; and the history read back into totals and
meetings (docs/tournaments.md). Pure: no clock, no database, no Discord.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

FORMATS = ("swiss", "round-robin", "knockout")

# The most rounds an event of tables may ask for (two-player Swiss stops
# earlier: after n-1 rounds every pairing would repeat).
MAX_ROUNDS = 15

# Place points at a table of three or more: first place earns FIRST, last
# place LAST, the places between them in equal steps (4-3-2-1 at four seats).
FIRST, LAST = 4.0, 1.0

# Two-player points for a win, a draw and a loss.
WIN, DRAW, LOSS = 1.0, 0.5, 0.0

Table = tuple[int, ...]


@dataclass(frozen=True)
class Match:
    """One table of one round, once it has ended (or a bye).

    ``seats`` are player ids in seat order (two-player: the first seat moves
    first); a single seat is a bye. ``points`` are the tournament points
    each seat earned (:func:`result_points`), ``scores`` the game's own
    score per seat — the tie-break of tables; 0s for a bye or a forfeit.
    A bye scores a win: 1 point in a two-player event, the points of first
    place (:data:`FIRST`) at a table (:func:`bye`).
    """

    round: int
    seats: tuple[int, ...]
    points: tuple[float, ...]
    scores: tuple[float, ...]

    def __post_init__(self) -> None:
        if self.round < 1:
            raise ValueError(f"round {self.round}: rounds count from 1")
        if not self.seats or len(set(self.seats)) != len(self.seats):
            raise ValueError(f"seats {self.seats}: one or more different players")
        if not len(self.points) == len(self.scores) == len(self.seats):
            raise ValueError("one point and one score a seat")

    @property
    def is_bye(self) -> bool:
        return len(self.seats) == 1


@dataclass(frozen=True)
class Standing:
    """One line of the standings: ``place`` is shared by exact ties (same
    points and tie-breaks); ``tiebreaks`` in the order of
    :func:`tiebreak_names`; ``games`` counts the matches played (a bye is
    no game: it earns a win's points, nobody was played)."""

    player: int
    place: int
    points: float
    tiebreaks: tuple[float, ...]
    games: int


def two_player(table_size: int) -> bool:
    """An event of two-player matches (Swiss colours, 1 / ½ / 0 points)."""
    return table_size == 2


def _check(format: str, table_size: int) -> None:
    if format not in FORMATS:
        raise ValueError(f"format {format!r}: one of {FORMATS}")  # a developer's error, not read by players
    if table_size < 2:
        raise ValueError(f"table_size {table_size}: at least 2")


def place_points(seats: int, places: Sequence[int]) -> tuple[float, ...]:
    """Place points at a table of ``seats`` players, given each seat's place
    (1-based; tied seats share a place number, as ``(1, 1, 3, 4)``).

    First place earns 4 and last place 1, the places between in equal steps:
    4-3-2-1 at four seats, 4-2.5-1 at three, 4-3.25-2.5-1.75-1 at five, 4-1 at
    two. So a win is worth the same at every table of a round, whatever its
    size. Tied places share the points of the places they cover:

    >>> place_points(4, (1, 2, 3, 4))
    (4.0, 3.0, 2.0, 1.0)
    >>> place_points(3, (1, 2, 3))
    (4.0, 2.5, 1.0)
    >>> place_points(4, (1, 1, 3, 4))
    (3.5, 3.5, 2.0, 1.0)
    >>> place_points(1, (1,))
    (4.0,)
    """
    if len(places) != seats or any(not 1 <= p <= seats for p in places):
        raise ValueError(f"places {tuple(places)} at a table of {seats}")
    if seats == 1:
        return (FIRST,)
    step = (FIRST - LAST) / (seats - 1)
    ladder = [FIRST - step * i for i in range(seats)]
    tied = Counter(places)
    return tuple(round(sum(ladder[p - 1 : p - 1 + tied[p]]) / tied[p], 6) for p in places)


def result_points(table_size: int, places: Sequence[int]) -> tuple[float, ...]:
    """The tournament points of a finished match from its places: 1 / ½ / 0
    in a two-player event (both placed 1st: a draw), else
    :func:`place_points` of the table.

    >>> result_points(2, (2, 1))
    (0.0, 1.0)
    >>> result_points(2, (1, 1))
    (0.5, 0.5)
    >>> result_points(4, (2, 1, 3))
    (2.5, 4.0, 1.0)
    """
    if two_player(table_size) and len(places) == 2:
        if places[0] == places[1]:
            return (DRAW, DRAW)
        return tuple(WIN if p == 1 else LOSS for p in places)
    return place_points(len(places), places)


def bye_points(table_size: int) -> float:
    """What a bye earns: a win (1 point; at tables, first place's 4)."""
    return WIN if two_player(table_size) else FIRST


def bye(round_no: int, player: int, table_size: int) -> Match:
    """The match record of a bye."""
    return Match(round_no, (player,), (bye_points(table_size),), (0.0,))


def tiebreak_names(format: str, two_player: bool) -> tuple[str, ...]:
    """The tie-breaks of the standings, in order (docs/tournaments.md):

    * Swiss, two-player: ``buchholz`` (the sum of the opponents' points),
      then ``sonneborn_berger`` (the opponents' points weighted by what the
      player scored against each);
    * round robin, two-player: ``sonneborn_berger``, then ``wins`` (everyone
      met everyone, so Buchholz would tell no one apart);
    * tables: ``score_sum``, the game's own scores added up;
    * knockout: none — players out in the same round share a place.
    """
    if format not in FORMATS:
        raise ValueError(f"format {format!r}")
    if format == "knockout":
        return ()
    if not two_player:
        return ("score_sum",)
    if format == "round-robin":
        return ("sonneborn_berger", "wins")
    return ("buchholz", "sonneborn_berger")


def table_sizes(count: int, table_size: int, min_seats: int) -> list[int]:
    """The sizes of the tables ``count`` players sit at: as few tables as
    ``table_size`` allows, sizes differing by at most one (larger first),
    never below ``min_seats`` — when the count cannot be split so, fewer
    and larger tables (5 players, tables of 4, at least 3: one table of 5).
    Fewer than ``min_seats`` players: no table at all.

    >>> table_sizes(9, 3, 2)
    [3, 3, 3]
    >>> table_sizes(10, 4, 2)
    [4, 3, 3]
    >>> table_sizes(5, 4, 3)
    [5]
    >>> table_sizes(2, 4, 3)
    []
    """
    min_seats = max(1, min_seats)
    table_size = max(table_size, min_seats)
    if count < min_seats or count <= 0:
        return []
    tables = math.ceil(count / table_size)
    while tables > 1 and count // tables < min_seats:
        tables -= 1
    small, extra = divmod(count, tables)
    return [small + 1] * extra + [small] * (tables - extra)


def rounds_for(
    format: str, players: int, table_size: int, rounds: int | None, *, min_seats: int = 2
) -> int:
    """How many rounds an event of ``players`` plays.

    Defaults: Swiss ⌈log2 n⌉ rounds two-player (3 for tables); round robin
    n-1 rounds (n even) or n (n odd: everyone sits out once), at tables
    ⌈(n-1)/(table_size-1)⌉ — enough for everyone to meet everyone if the
    tables mixed perfectly; knockout as many rounds as the bracket has.
    A given ``rounds`` is clamped: at least 1; two-player Swiss at most the
    round robin's count (beyond it a pairing must repeat), round robin at
    most its whole schedule, tables at most :data:`MAX_ROUNDS`; a knockout
    always plays its whole bracket.

    >>> rounds_for("swiss", 8, 2, None), rounds_for("round-robin", 7, 2, None)
    (3, 7)
    >>> rounds_for("knockout", 6, 2, 10), rounds_for("swiss", 4, 2, 9)
    (3, 3)
    """
    _check(format, table_size)
    if players < 2:
        return 0
    pair = two_player(table_size)
    if format == "knockout":
        if pair:
            return math.ceil(math.log2(players))
        count, out = players, 0
        while True:
            tables = len(table_sizes(count, table_size, min_seats))
            if tables == 0:
                return out
            out += 1
            if tables == 1:
                return out
            count = max(tables, min_seats)
    full = players - 1 if players % 2 == 0 else players
    if format == "round-robin":
        most = full if pair else MAX_ROUNDS
        default = full if pair else math.ceil((players - 1) / (table_size - 1))
    else:
        most = full if pair else MAX_ROUNDS
        default = max(1, math.ceil(math.log2(players))) if pair else 3
    wanted = default if rounds is None else rounds
    return max(1, min(wanted, most))


def players_for(rounds: int) -> int:
    """The fewest players a two-player Swiss of ``rounds`` rounds needs to
    play them all without a rematch (:func:`rounds_for` cuts to players - 1,
    or players if odd): ``rounds`` if odd, else one more.

    >>> players_for(9), players_for(4), rounds_for("swiss", 5, 2, 4), rounds_for("swiss", 4, 2, 4)
    (9, 5, 4, 3)
    """
    return max(2, rounds + (rounds % 2 == 0))


# Reading the history


def _by_round(history: Iterable[Match]) -> dict[int, list[Match]]:
    out: dict[int, list[Match]] = defaultdict(list)
    for match in history:
        out[match.round].append(match)
    return out


def _totals(history: Iterable[Match]) -> tuple[dict[int, float], dict[int, float]]:
    points: dict[int, float] = defaultdict(float)
    scores: dict[int, float] = defaultdict(float)
    for match in history:
        for player, p, s in zip(match.seats, match.points, match.scores, strict=True):
            points[player] += p
            scores[player] += s
    return points, scores


def _met(history: Iterable[Match]) -> Counter[frozenset[int]]:
    """How often each pair of players sat at one table."""
    out: Counter[frozenset[int]] = Counter()
    for match in history:
        seats = match.seats
        for i, a in enumerate(seats):
            for b in seats[i + 1 :]:
                out[frozenset((a, b))] += 1
    return out


def knockout_winner(match: Match) -> int:
    """Who goes through from a knockout match: the most points; on equal
    points (a draw) the higher game score; on equal scores too the earlier
    seat — in a knockout the seats are in seed order, so the better seed.
    A bye's player goes through.
    """
    best = max(
        range(len(match.seats)),
        key=lambda i: (match.points[i], match.scores[i], -i),
    )
    return match.seats[best]
