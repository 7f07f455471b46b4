"""Two-player Swiss: the bye, then a minimum-cost perfect matching of the
others (Edmonds' blossom algorithm, networkx), each board's first move to
whoever had it less often (docs/tournaments.md)."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Iterable

from bot.tournament.rules import Match, Table, _met, _totals


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
    # imported here, on a tournament's first Swiss round: networkx weighs
    # ~13 MB of RSS once imported, for this one call (docs/operations.md, "Memory")
    import networkx as nx

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
