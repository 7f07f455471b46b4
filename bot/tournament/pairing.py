"""Who plays whom: pairings, standings and tie-breaks of a tournament, as
pure functions of the players and the matches played so far.

Nothing here reads a clock, a database or Discord: the same players and the
same history give the same round, so a restarted bot, a second process or a
test pairs exactly as the first did (docs/tournaments.md).

Words used throughout:

* ``players`` — player ids, in *seed order* (the best rating first). For
  :func:`pair_round` only the *active* ones (a dropped or kicked player is
  left out); for :func:`standings` everyone to be listed.
* ``history`` — every :class:`Match` played so far, each round's matches in
  the order :func:`pair_round` returned them (store a table index; a
  knockout's bracket is read from round 1's order).
* a *table* is a tuple of player ids in seat order; a 1-tuple is a bye.
* ``table_size`` 2 is a two-player event (one opponent, a first move to
  balance, 1 / ½ / 0 points); 3 or more is an event of tables with place
  points (:func:`place_points`).
"""

from __future__ import annotations

import math
import random
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

import networkx as nx

FORMATS = ("swiss", "round-robin", "knockout")

# The most rounds an event of tables may ask for (two-player Swiss stops
# earlier: after n-1 rounds every pairing would repeat).
MAX_ROUNDS = 15

# Place points at a table of three or more: first place earns FIRST, last
# place LAST, the places between them in equal steps (4-3-2-1 at four seats).
FIRST, LAST = 4.0, 1.0

# Two-player points for a win, a draw and a loss.
WIN, DRAW, LOSS = 1.0, 0.5, 0.0

# How far down the standings a Swiss round of tables may reach to seat
# players who have not met, in tables' worth: a table of four takes its
# seats from the next eight by standing.
REACH = 2

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


# --------------------------------------------------------------------------
# Small facts


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


# --------------------------------------------------------------------------
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


# --------------------------------------------------------------------------
# Pairing


def pair_round(
    format: str,
    round_no: int,
    players: Sequence[int],
    history: Sequence[Match],
    *,
    table_size: int,
    min_seats: int,
    seed: int = 0,
) -> list[Table]:
    """The tables of round ``round_no``: each a tuple of player ids in seat
    order (two-player: the first seat moves first); a 1-tuple is a bye.

    ``players`` are the active players in seed order; ``history`` the
    matches so far (those of round ``round_no`` and later are ignored, so
    re-pairing a round gives the same tables). Returns ``[]`` when no table
    can be seated: fewer than two players (fewer than ``min_seats`` at
    tables), or a knockout already decided.

    Two-player Swiss — a minimum-cost perfect matching (Edmonds' blossom
    algorithm): the fewest rematches any pairing of the round has (none
    while one avoids them), then score groups, top half against bottom
    half; the bye first to the lowest-ranked player without one (higher up
    only if that has fewer rematches; nobody a second bye before everyone
    had one); the first move to whoever had it less often (then to whoever
    did not have it last). See :func:`_swiss_matching`.

    Round robin — the circle method over the round-1 players sorted by id
    (a fixed schedule: a restart, a re-pair or a dropped player never
    changes who meets whom). A dropped player's games become byes for the
    opponents they were due to meet. At tables: round 1 by seed snake (as
    below), then each round seats together the players who have met least
    (``seed`` orders equal choices).

    Knockout — round 1 in the standard bracket (seed 1 against the last,
    seeds 1 and 2 in opposite halves), the bracket filled to a power of two
    with byes for the top seeds; later rounds pair the winners of
    neighbouring matches (:func:`knockout_winner`); a winner who dropped
    gives the opponent a bye. Seats in seed order. The bracket is read from
    round 1's matches in ``history`` in their order, so round 1 must be there
    whole (byes included). At tables: each table's winner goes through and
    the winners are seated again by seed; a final short of ``min_seats`` is
    filled with the best of those out (latest out first).

    Tables (3+ seats) — :func:`table_sizes` tables; round 1 by seed snake
    (1, 2, 3 / 3, 2, 1 … across the tables), later rounds by standing: the
    best-placed player left heads each table, each further seat goes to
    whoever of the next :data:`REACH` tables' worth by standing has met that
    table least. Seat order gives the first seat to whoever sat early least
    often.
    """
    _check(format, table_size)
    if round_no < 1:
        raise ValueError(f"round {round_no}: rounds count from 1")
    if len(set(players)) != len(players):
        raise ValueError("a player is listed twice")
    past = [m for m in history if m.round < round_no]
    active = list(players)
    min_seats = max(2, min_seats)
    if two_player(table_size):
        if len(active) < 2:
            return []
        if format == "swiss":
            return _swiss_pairs(round_no, active, past)
        if format == "round-robin":
            return _circle(round_no, active, past)
        return _knockout_pairs(round_no, active, past)
    if len(active) < min_seats:
        return []
    if format == "knockout":
        return _knockout_tables(round_no, active, past, table_size, min_seats)
    if format == "round-robin":
        return _mixing_tables(round_no, active, past, table_size, min_seats, seed)
    return _standing_tables(round_no, active, past, table_size, min_seats)


# Two-player Swiss ----------------------------------------------------------


def _swiss_pairs(round_no: int, players: list[int], past: list[Match]) -> list[Table]:
    """Two-player Swiss: the bye first (:func:`_swiss_bye`), then a
    minimum-cost perfect matching of the others (:func:`_swiss_matching`),
    the boards in order of their better-ranked player, each board's first
    move by :func:`_first_move`."""
    points, _ = _totals(past)
    seed = {p: i for i, p in enumerate(players)}
    ranked = sorted(players, key=lambda p: (-points[p], seed[p]))
    met = _met(past)
    colours = _colours(past)
    byes = Counter(m.seats[0] for m in past if m.is_bye)
    dues = {p: _due(colours.get(p, [])) for p in ranked}

    bye_to: int | None = None
    others = ranked
    if len(ranked) % 2:
        bye_to = _swiss_bye(ranked, met, byes)
        others = [p for p in ranked if p != bye_to]
    pairs = _swiss_matching(others, points, met, dues)

    rank = {p: i for i, p in enumerate(ranked)}
    pairs.sort(key=lambda pair: min(rank[pair[0]], rank[pair[1]]))
    tables: list[Table] = [
        _first_move(a, b, board, rank, colours) for board, (a, b) in enumerate(pairs)
    ]
    if bye_to is not None:
        tables.append((bye_to,))
    return tables


# A stand-in for the bye in the matching: no player id is negative.
_BYE = -1

Cost = tuple[int, ...]


def _min_cost_matching(nodes: list[int], cost: Callable[[int, int], Cost]) -> list[tuple[int, int]]:
    """A perfect matching of ``nodes`` (an even number) of the least total
    cost, costs compared as tuples — lexicographically: any amount of a later
    part weighs less than one unit of an earlier one.

    Edmonds' blossom algorithm (networkx's ``max_weight_matching``, exact on
    integer weights and O(n³)) on a complete graph: each tuple is folded into
    one integer, each part scaled above the largest total the later parts can
    reach in a matching, and the weight is a bound minus that cost, so the
    heaviest of the perfect matchings is the cheapest. Pairs come out as
    ``(a, b)`` with ``a`` earlier in ``nodes``."""
    if not nodes:
        return []
    edges = [(a, b, cost(a, b)) for i, a in enumerate(nodes) for b in nodes[i + 1 :]]
    parts = len(edges[0][2])
    pairs = len(nodes) // 2
    scale = [1] * parts
    for k in range(parts - 2, -1, -1):
        most = max(c[k + 1] for _a, _b, c in edges)
        scale[k] = scale[k + 1] * (most * pairs + 1)
    folded = [(a, b, sum(x * w for x, w in zip(c, scale, strict=True))) for a, b, c in edges]
    bound = max(f for _a, _b, f in folded) + 1
    graph = nx.Graph()
    graph.add_nodes_from(nodes)
    graph.add_weighted_edges_from((a, b, bound - f) for a, b, f in folded)
    found = nx.max_weight_matching(graph, maxcardinality=True)
    if 2 * len(found) != len(nodes):  # a complete graph always has one
        raise AssertionError(f"no perfect matching of {len(nodes)} players")
    order = {p: i for i, p in enumerate(nodes)}
    out = [(a, b) if order[a] < order[b] else (b, a) for a, b in found]
    return sorted(out, key=lambda pair: order[pair[0]])


def _swiss_bye(ranked: list[int], met: Counter[frozenset[int]], byes: Counter[int]) -> int:
    """Who sits out a round of an odd count: the matching of ``ranked`` and
    a stand-in for the bye whose cost is, in order: the byes its player had
    before (nobody a second before everyone had one), the number of pairs
    who met before (fewest rematches), and the player's rank from the bottom
    (the lowest-ranked first). How often a repeated pair met is left to the
    pairing of the others (:func:`_swiss_matching`): it never moves the bye."""
    last = len(ranked) - 1
    rank = {p: i for i, p in enumerate(ranked)}

    def cost(a: int, b: int) -> Cost:
        if b == _BYE:
            return (byes[a], 0, last - rank[a])
        return (0, int(met[frozenset((a, b))] > 0), 0)

    for a, b in _min_cost_matching([*ranked, _BYE], cost):
        if b == _BYE:
            return a
    raise AssertionError("the stand-in for the bye is matched")  # pragma: no cover


def _swiss_matching(
    ranked: list[int],
    points: dict[int, float],
    met: Counter[frozenset[int]],
    dues: dict[int, int | None],
) -> list[tuple[int, int]]:
    """The pairs of a round (``ranked``: an even number, best first): the
    perfect matching of the least cost, a pair's cost being, in order —

    1. a rematch (1 if the two met before): the fewest rematches any pairing
       has, by construction;
    2. how often they met (a third meeting is avoided before a second);
    3. the square of their points' difference in half points (players on
       equal points meet; a group's odd one out meets the nearest group);
    4. a clash of first moves (both must have the same seat next, :func:`_due`);
    5. the distance from the docs' pairing within score groups: in a group
       of g, the player i places down meets the one g // 2 further down (top
       half against bottom half, 1 v 5 in a group of 8); a player meeting
       another group costs its distance from its group's end that faces the
       other (the last floats down to meet the first of the group below);
    6. and so that one pairing is the cheapest, a tie-break by rank: the
       better-ranked player's opponent the better-ranked one (compared from
       the top of the standings down).
    """
    n = len(ranked)
    rank = {p: i for i, p in enumerate(ranked)}
    group: dict[int, list[int]] = defaultdict(list)
    for p in ranked:
        group[round(points[p] * 2)].append(p)
    where = {p: (key, i) for key, members in group.items() for i, p in enumerate(members)}
    base = n + 1

    def cost(a: int, b: int) -> Cost:
        times = met[frozenset((a, b))]
        (ka, ia), (kb, ib) = where[a], where[b]
        if ka == kb:
            size = len(group[ka])
            place = abs(abs(ib - ia) - size // 2)
        else:
            high, low = (a, b) if ka > kb else (b, a)
            place = (len(group[where[high][0]]) - 1 - where[high][1]) + where[low][1]
        clash = int(dues[a] is not None and dues[a] == dues[b])
        top, other = sorted((rank[a], rank[b]))
        tiebreak = other * base ** (n - 1 - top)
        return (int(times > 0), times, (ka - kb) ** 2, clash, place, tiebreak)

    return _min_cost_matching(ranked, cost)


def _colours(past: Iterable[Match]) -> dict[int, list[int]]:
    """Each player's seats in their two-player games, oldest first
    (0: moved first)."""
    out: dict[int, list[int]] = defaultdict(list)
    for match in sorted(past, key=lambda m: m.round):
        if len(match.seats) == 2:
            out[match.seats[0]].append(0)
            out[match.seats[1]].append(1)
    return out


def _due(seats: list[int]) -> int | None:
    """The seat a player must have next, if any (as chess's absolute colour
    preference): the other one after two more games in one seat than the
    other, or after the same seat twice running."""
    balance = seats.count(0) - seats.count(1)
    if balance >= 2 or seats[-2:] == [0, 0]:
        return 1
    if balance <= -2 or seats[-2:] == [1, 1]:
        return 0
    return None


def _first_move(
    a: int, b: int, board: int, rank: dict[int, int], colours: dict[int, list[int]]
) -> Table:
    """Seat ``a`` and ``b``: the first move to whoever moved first less often,
    then to whoever did not move first last time; when both wish the same,
    the better-ranked player has their wish; with no games behind them, the
    better-ranked player moves first on the first, third … board."""

    def key(p: int) -> tuple[int, int]:
        seats = colours.get(p, [])
        firsts = seats.count(0) - seats.count(1)
        last = (1 if seats[-1] == 0 else -1) if seats else 0
        return firsts, last

    if key(a) != key(b):
        return (a, b) if key(a) < key(b) else (b, a)
    better, worse = (a, b) if rank[a] < rank[b] else (b, a)
    last = key(better)[1]
    if last:
        return (worse, better) if last > 0 else (better, worse)
    return (better, worse) if board % 2 == 0 else (worse, better)


# Round robin ---------------------------------------------------------------


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


# Knockout ------------------------------------------------------------------


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


# Tables --------------------------------------------------------------------


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


# --------------------------------------------------------------------------
# Standings and the end


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
