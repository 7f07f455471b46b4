"""An independent referee (issue 33): every rule below is re-read from
docs/tournaments.md alone and computed here by its own code — none of
bot/tournament/*'s helpers is used for an expected value — and whole events
of every format, played with seeded random results (draws, drops, odd and
even counts, exactly two players), are compared with it round by round.

The oracle, as the doc words it:

* points: a win 1, a draw ½, a loss 0; at tables 4 for first and 1 for last
  in equal steps, tied places sharing the points of the places they cover;
  a bye a win (1, or 4 at tables);
* standings: points, then the format's tie-breaks — Swiss Buchholz (the
  opponents' points; a bye adds nothing) then Sonneborn–Berger (each
  opponent's points times what you scored against them); round robin
  Sonneborn–Berger then Wins (the matches won); tables the game's own
  results added up; knockout none, points being the matches won (a bye
  too) — equal on all of them share a place, "1, 1, 3"; games played do
  not count byes;
* the number of rounds, with and without the organiser's number;
* two-player Swiss: round 1 top half against bottom half with the first
  move alternating down the boards; the bye to the lowest-ranked player
  without one unless another's bye allows fewer rematches, nobody a second
  bye first; every round the least costly pairing by (pairs who met
  before, how often they met, the points apart squared) — brute force over
  every pairing (≤ 10 players), so "no pairing with fewer rematches
  exists"; the first move to whoever moved first less often, then to
  whoever did not move first last time;
* round robin: everyone meets everyone once, one bye each with an odd
  count, the first move in half one's games, a schedule that does not
  change when a player leaves (their opponents get byes) nor with the seed
  order;
* knockout: the bracket filled to a power of two with byes for the top
  seeds, round 1 the standard bracket, the winners of neighbouring matches
  meeting, the better seed first, a draw to the higher game score then the
  better seed, a winner who left giving the opponent a bye;
* tables: as few tables as the size allows, sizes within one, never below
  the game's least (then fewer, larger tables); round 1 dealt by seed like
  cards, back and forth; knockout at tables: each table's winner through.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter, defaultdict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

import pytest

from bot.tournament.pairing import Match, finished, pair_round, rounds_for, standings

# --------------------------------------------------------------------------
# The oracle: the doc's rules, computed here


def o_place_points(seats: int, places: Sequence[int]) -> list[Fraction]:
    """Place points at a table of ``seats`` (docs: "Place points"): 1st 4,
    last 1, equal steps between; players tied for a place share the points
    of the places they cover. ``places`` in competition ranking (1, 1, 3)."""
    if seats == 1:
        return [Fraction(4)]
    step = Fraction(3, seats - 1)
    value = [Fraction(4) - step * i for i in range(seats)]  # place i+1
    out = []
    for p in places:
        tied = sum(1 for q in places if q == p)
        out.append(sum(value[p - 1 : p - 1 + tied], Fraction(0)) / tied)
    return out


def o_two_player_points(outcome: str) -> tuple[Fraction, Fraction]:
    return {
        "first": (Fraction(1), Fraction(0)),
        "second": (Fraction(0), Fraction(1)),
        "draw": (Fraction(1, 2), Fraction(1, 2)),
        "void": (Fraction(0), Fraction(0)),  # an organiser's double forfeit / abandoned
    }[outcome]


def o_rounds(fmt: str, n: int, size: int, asked: int | None, min_seats: int = 2) -> int:
    """The number of rounds (docs: "Formats")."""
    if n < 2:
        return 0
    pair = size == 2
    if fmt == "knockout":
        if pair:
            return (n - 1).bit_length()  # log2 of the bracket
        count, rounds = n, 0
        while True:  # each table's winner through, a final of one table
            tables = len(o_table_sizes(count, size, min_seats))
            if tables == 0:
                return rounds
            rounds += 1
            if tables == 1:
                return rounds
            count = max(tables, min_seats)
    if fmt == "swiss":
        if pair:
            most = n - 1 if n % 2 == 0 else n
            default = math.ceil(math.log2(n))
        else:
            most, default = 15, 3
    else:  # round robin
        most = (n - 1 if n % 2 == 0 else n) if pair else math.ceil((n - 1) / (size - 1))
        default = most
    if asked is None or asked <= 0:
        return default
    return max(1, min(asked, most))


def o_table_sizes(count: int, size: int, least: int) -> list[int]:
    """As few tables as ``size`` allows, within one of each other, none below
    ``least``; if impossible, fewer and larger; none under ``least`` players."""
    least = max(1, least)
    if count < least:
        return []
    best: list[int] = []
    for tables in range(1, count + 1):
        small, extra = divmod(count, tables)
        sizes = [small + 1] * extra + [small] * (tables - extra)
        if small < least:
            break
        best = sizes
        if max(sizes) <= size:
            return sorted(sizes, reverse=True)
    return sorted(best, reverse=True)


def o_snake(players: Sequence[int], sizes: Sequence[int]) -> list[set[int]]:
    """Seeds dealt like cards, back and forth, a full table skipped."""
    tables: list[list[int]] = [[] for _ in sizes]
    order = list(range(len(sizes)))
    it = iter(players)
    forward = True
    left = len(players)
    while left:
        for t in order if forward else reversed(order):
            if len(tables[t]) < sizes[t] and left:
                tables[t].append(next(it))
                left -= 1
        forward = not forward
    return [set(t) for t in tables]


def o_bracket(size: int) -> list[int]:
    """The standard bracket's seed order: 1 v last, 1 and 2 in opposite
    halves (8: 1 8 4 5 2 7 3 6)."""
    order = [1]
    while len(order) < size:
        n = 2 * len(order)
        order = [x for s in order for x in (s, n + 1 - s)]
    return order


@dataclass
class Played:
    """One match as the oracle keeps it (points exact)."""

    round: int
    seats: tuple[int, ...]
    points: tuple[Fraction, ...]
    scores: tuple[int, ...]

    @property
    def bye(self) -> bool:
        return len(self.seats) == 1

    def as_match(self) -> Match:
        return Match(self.round, self.seats, tuple(float(p) for p in self.points),
                     tuple(float(s) for s in self.scores))  # fmt: skip


def o_knockout_winner(m: Played, seed: dict[int, int]) -> int:
    """The winner; a draw to the higher game score, then the better seed."""
    return max(m.seats, key=lambda p: (m.points[m.seats.index(p)], m.scores[m.seats.index(p)],
                                       -seed[p]))  # fmt: skip


def o_standings(
    fmt: str, players: Sequence[int], history: Sequence[Played], pair: bool
) -> dict[int, tuple[int, Fraction, tuple[Fraction, ...], int]]:
    """player → (place, points, tie-breaks, games played) by the doc."""
    seed = {p: i for i, p in enumerate(players)}
    pts: dict[int, Fraction] = defaultdict(Fraction)
    if fmt == "knockout":
        for m in history:
            pts[o_knockout_winner(m, seed)] += 1
    else:
        for m in history:
            for p, x in zip(m.seats, m.points, strict=True):
                pts[p] += x
    games = Counter(p for m in history if not m.bye for p in m.seats)
    buch: dict[int, Fraction] = defaultdict(Fraction)
    sb: dict[int, Fraction] = defaultdict(Fraction)
    wins: dict[int, Fraction] = defaultdict(Fraction)
    score: dict[int, Fraction] = defaultdict(Fraction)
    for m in history:
        for p, s in zip(m.seats, m.scores, strict=True):
            score[p] += s
        if len(m.seats) != 2:
            continue
        for me, opp in ((0, 1), (1, 0)):
            a, b = m.seats[me], m.seats[opp]
            buch[a] += pts[b]
            sb[a] += m.points[me] * pts[b]
            wins[a] += m.points[me] > m.points[opp]
    if fmt == "knockout":
        names: list[dict[int, Fraction]] = []
    elif not pair:
        names = [score]
    elif fmt == "round-robin":
        names = [sb, wins]
    else:
        names = [buch, sb]
    key = {p: (pts[p], tuple(n[p] for n in names)) for p in players}
    out = {}
    for p in players:
        better = sum(1 for q in players if key[q] > key[p])
        out[p] = (better + 1, key[p][0], key[p][1], games[p])
    return out


# --------------------------------------------------------------------------
# Two-player Swiss by the doc


def pairings(people: Sequence[int]) -> Iterator[list[tuple[int, int]]]:
    """Every perfect pairing of ``people`` (an even number)."""
    if not people:
        yield []
        return
    a, rest = people[0], people[1:]
    for i, b in enumerate(rest):
        for tail in pairings(rest[:i] + rest[i + 1 :]):
            yield [(a, b), *tail]


def o_swiss_cost(
    pairs: Sequence[tuple[int, int]], met: Counter[frozenset[int]], pts: dict[int, Fraction]
) -> tuple[int, int, Fraction]:
    """The doc's costs 1-3: pairs who met before, how often, points apart squared."""
    again = sum(1 for a, b in pairs if met[frozenset((a, b))])
    often = sum(met[frozenset((a, b))] for a, b in pairs)
    apart = sum(((pts[a] - pts[b]) ** 2 for a, b in pairs), Fraction(0))
    return again, often, apart


def o_due_seats(history: Sequence[Played]) -> dict[int, int]:
    """Who must have a given seat next (docs: "First move"): the second seat
    (1) after moving first in both of one's last two games, or in two games
    more than second; the first seat (0) the other way round."""
    seats: dict[int, list[int]] = defaultdict(list)
    for m in sorted(history, key=lambda m: m.round):
        if len(m.seats) == 2:
            seats[m.seats[0]].append(0)
            seats[m.seats[1]].append(1)
    due = {}
    for p, s in seats.items():
        balance = s.count(0) - s.count(1)
        if balance >= 2 or s[-2:] == [0, 0]:
            due[p] = 1
        elif balance <= -2 or s[-2:] == [1, 1]:
            due[p] = 0
    return due


@dataclass
class Event:
    fmt: str
    players: list[int]  # seed order
    size: int = 2
    least: int = 2
    history: list[Played] = field(default_factory=list)

    def points(self) -> dict[int, Fraction]:
        out: dict[int, Fraction] = defaultdict(Fraction)
        for m in self.history:
            for p, x in zip(m.seats, m.points, strict=True):
                out[p] += x
        return out

    def met(self) -> Counter[frozenset[int]]:
        out: Counter[frozenset[int]] = Counter()
        for m in self.history:
            for a, b in itertools.combinations(m.seats, 2):
                out[frozenset((a, b))] += 1
        return out


def check_swiss_round(
    ev: Event, round_no: int, active: list[int], tables: list[tuple[int, ...]]
) -> None:
    """A two-player Swiss round against the doc's rules."""
    seed = {p: i for i, p in enumerate(ev.players)}
    pts = ev.points()
    met = ev.met()
    ranked = sorted(active, key=lambda p: (-pts[p], seed[p]))
    byes = [t[0] for t in tables if len(t) == 1]
    boards = [t for t in tables if len(t) == 2]
    assert sorted(p for t in tables for p in t) == sorted(active), "everyone once"
    assert len(byes) == len(active) % 2, "a bye only with an odd count"
    had = Counter(m.seats[0] for m in ev.history if m.bye)
    if byes:
        fewest = min(had[p] for p in active)
        eligible = [p for p in ranked if had[p] == fewest]
        assert had[byes[0]] == fewest, "nobody a second bye before everyone had one"
        if len(active) <= 11:
            forced = {
                c: min(o_swiss_cost(q, met, pts)[0]
                       for q in pairings([p for p in active if p != c]))
                for c in eligible
            }  # fmt: skip
            least = min(forced.values())
            want = [c for c in eligible if forced[c] == least][-1]  # the lowest-ranked
            assert byes[0] == want, (round_no, byes, want, forced)
    others = [p for p in active if p not in byes]
    got = [(a, b) for a, b in boards]
    if len(others) <= 10:
        best = min(o_swiss_cost(q, met, pts) for q in pairings(others))
        assert o_swiss_cost(got, met, pts) == best, (round_no, got, best)
        # cost 4: a pair both due the same seat next, fewest among the equals
        due = o_due_seats(ev.history)
        clash = [
            sum(1 for a, b in q if due.get(a) is not None and due.get(a) == due.get(b))
            for q in pairings(others)
            if o_swiss_cost(q, met, pts) == best
        ]
        mine = sum(1 for a, b in got if due.get(a) is not None and due.get(a) == due.get(b))
        assert mine == min(clash), (round_no, got, due)
    if round_no == 1:
        top = [p for p in ranked if p not in byes]
        half = len(top) // 2
        want_boards = []
        for i in range(half):
            a, b = top[i], top[i + half]
            want_boards.append((a, b) if i % 2 == 0 else (b, a))
        assert sorted(boards) == sorted(want_boards), (boards, want_boards)
    # the first move: to whoever moved first less often (than second: a
    # player with more games is not held to have moved first "more often"
    # for it), then to whoever did not move first last time
    firsts: Counter[int] = Counter()
    last: dict[int, bool] = {}
    for m in sorted(ev.history, key=lambda m: m.round):
        if len(m.seats) == 2:
            firsts[m.seats[0]] += 1
            firsts[m.seats[1]] -= 1
            last[m.seats[0]], last[m.seats[1]] = True, False
    for a, b in boards:
        if firsts[a] != firsts[b]:
            assert firsts[a] < firsts[b], ("moved first more often", round_no, (a, b), firsts)
        elif last.get(a) is True and last.get(b) is False:
            raise AssertionError(("moved first last time", round_no, (a, b)))


# --------------------------------------------------------------------------
# Playing an event with the real pairing and the oracle's results


def outcome(
    rng: random.Random, table: tuple[int, ...], size: int, fmt: str, round_no: int
) -> Played:
    if len(table) == 1:
        return Played(round_no, table, (Fraction(4) if size > 2 else Fraction(1),), (0,))
    if len(table) == 2 and size == 2:
        kind = rng.choice(["first", "second", "draw", "first", "second", "void"])
        if fmt == "knockout" and kind == "void":
            kind = "draw"
        scores = (rng.randint(0, 3), rng.randint(0, 3))
        return Played(round_no, table, o_two_player_points(kind), scores)
    raw = [rng.randint(1, len(table)) for _ in table]
    places = [1 + sum(1 for q in raw if q < p) for p in raw]  # competition ranking
    scores = tuple(rng.randint(-20, 20) for _ in table)
    return Played(round_no, table, tuple(o_place_points(len(table), places)), scores)


def play(
    fmt: str,
    count: int,
    *,
    size: int = 2,
    least: int = 2,
    asked: int | None = None,
    seed: int = 0,
    drops: Sequence[tuple[int, int]] = (),
) -> tuple[Event, list[list[tuple[int, ...]]], list[int]]:
    """A whole event: the real pair_round each round, checked, then results.
    ``drops``: (after round, player index). Returns the event, its rounds'
    tables and the players still in at the end."""
    rng = random.Random(f"{fmt}:{count}:{size}:{seed}")
    players = [1000 + 17 * i for i in range(count)]
    rng.shuffle(players)  # seed order is not id order
    ev = Event(fmt, players, size, least)
    total = rounds_for(fmt, count, size, asked, min_seats=least)
    assert total == o_rounds(fmt, count, size, asked, least), (fmt, count, size, asked)
    active = list(players)
    rounds: list[list[tuple[int, ...]]] = []
    round_no = 0
    while True:
        for after, index in drops:
            p = players[index % count]
            if after == round_no and p in active and len(active) > 2:
                active.remove(p)
        done = finished(fmt, round_no, total, active, [m.as_match() for m in ev.history],
                        min_seats=least)  # fmt: skip
        assert done == o_finished(ev, round_no, total, active), (fmt, round_no, active)
        if done:
            return ev, rounds, active
        round_no += 1
        tables = pair_round(fmt, round_no, active, [m.as_match() for m in ev.history],
                            table_size=size, min_seats=least, seed=seed)  # fmt: skip
        check_round(ev, round_no, active, tables, rounds)
        rounds.append(tables)
        ev.history += [outcome(rng, t, size, fmt, round_no) for t in tables]
        assert round_no <= 40


def o_finished(ev: Event, round_no: int, total: int, active: list[int]) -> bool:
    if len(active) < max(2, ev.least):
        return True
    if ev.fmt != "knockout":
        return round_no >= total
    if round_no == 0:
        return False
    seed = {p: i for i, p in enumerate(ev.players)}
    winners = {o_knockout_winner(m, seed) for m in ev.history if m.round == round_no}
    return len(winners & set(active)) <= 1


def check_round(
    ev: Event, round_no: int, active: list[int], tables: list[tuple[int, ...]],
    before: list[list[tuple[int, ...]]],
) -> None:  # fmt: skip
    seated = [p for t in tables for p in t]
    assert len(seated) == len(set(seated)) and set(seated) <= set(active), tables
    if ev.size == 2:
        assert all(len(t) in (1, 2) for t in tables), tables
        if ev.fmt == "swiss":
            check_swiss_round(ev, round_no, active, tables)
        elif ev.fmt == "knockout":
            check_knockout_round(ev, round_no, active, tables)
        return
    if ev.fmt == "knockout" and round_no > 1:
        check_knockout_tables_round(ev, round_no, active, tables)
        return
    assert sorted(seated) == sorted(active), "everyone at a table"
    assert sorted((len(t) for t in tables), reverse=True) == o_table_sizes(
        len(active), ev.size, ev.least
    ), (len(active), ev.size, ev.least, tables)
    if round_no == 1:
        ranked = [p for p in ev.players if p in active]
        sizes = [len(t) for t in tables]
        assert [set(t) for t in tables] == o_snake(ranked, sizes), tables
    elif ev.fmt == "swiss":
        # ranked by points, then game score, then seed: the leader heads the first table
        pts = ev.points()
        score: dict[int, int] = defaultdict(int)
        for m in ev.history:
            for p, x in zip(m.seats, m.scores, strict=True):
                score[p] += x
        seed = {p: i for i, p in enumerate(ev.players)}
        leader = min(active, key=lambda p: (-pts[p], -score[p], seed[p]))
        assert leader in tables[0], (round_no, leader, tables)


def check_knockout_round(
    ev: Event, round_no: int, active: list[int], tables: list[tuple[int, ...]]
) -> None:
    seed = {p: i for i, p in enumerate(ev.players)}
    if round_no == 1:
        n = len(active)
        size = 1 << (n - 1).bit_length()
        order = o_bracket(size)
        want: list[tuple[int, ...]] = []
        ranked = [p for p in ev.players if p in active]
        for i in range(0, size, 2):
            a, b = order[i], order[i + 1]
            here = tuple(ranked[s - 1] for s in sorted((a, b)) if s <= n)
            want.append(here)
        assert tables == want, (tables, want)
        return
    # the winners of neighbouring matches of the last round, better seed first
    last = [m for m in ev.history if m.round == round_no - 1]
    want = []
    for i in range(0, len(last) - 1, 2):
        two = [o_knockout_winner(m, seed) for m in last[i : i + 2]]
        here = tuple(sorted((p for p in two if p in active), key=seed.__getitem__))
        if here:
            want.append(here)
    assert [t for t in tables] == want, (round_no, tables, want)


def check_knockout_tables_round(
    ev: Event, round_no: int, active: list[int], tables: list[tuple[int, ...]]
) -> None:
    seed = {p: i for i, p in enumerate(ev.players)}
    last = [m for m in ev.history if m.round == round_no - 1]
    winners = {o_knockout_winner(m, seed) for m in last} & set(active)
    seated = {p for t in tables for p in t}
    assert winners <= seated, (round_no, winners, tables)
    if len(winners) >= ev.least:
        assert seated == winners, "only the winners go on"
    else:  # a final short of players: the best runners-up fill it
        assert len(tables) == 1 and len(seated) == ev.least


# --------------------------------------------------------------------------
# The tests


def compare_standings(ev: Event, listed: Sequence[int]) -> None:
    got = standings(ev.fmt, listed, [m.as_match() for m in ev.history], table_size=ev.size)
    want = o_standings(ev.fmt, listed, ev.history, ev.size == 2)
    assert [s.player for s in got] == sorted(listed, key=lambda p: (want[p][0], listed.index(p))), (
        "standings order"
    )
    for s in got:
        place, pts, breaks, games = want[s.player]
        assert s.place == place, (s, want[s.player])
        assert math.isclose(s.points, float(pts), abs_tol=1e-9), (s, pts)
        assert len(s.tiebreaks) == len(breaks), s
        for a, b in zip(s.tiebreaks, breaks, strict=True):
            assert math.isclose(a, float(b), abs_tol=1e-9), (s, breaks)
        assert s.games == games, (s, games)


EVENTS = [
    # (format, players, table size, least seats, rounds asked)
    *[("swiss", n, 2, 2, None) for n in (2, 3, 4, 5, 7, 8, 9, 10, 11)],
    *[("swiss", n, 2, 2, r) for n, r in ((4, 9), (5, 9), (6, 5), (8, 7), (7, 7), (3, 1))],
    *[("round-robin", n, 2, 2, None) for n in (2, 3, 4, 5, 6, 7, 8)],
    ("round-robin", 6, 2, 2, 2),
    *[("knockout", n, 2, 2, None) for n in (2, 3, 5, 6, 8, 9, 13)],
    *[("swiss", n, k, m, r) for n, k, m, r in ((9, 3, 3, None), (10, 4, 3, 4), (5, 4, 3, None),
                                               (3, 3, 3, 2), (16, 4, 2, 4), (7, 5, 2, 15))],
    *[("round-robin", n, k, m, None) for n, k, m in ((9, 3, 3), (10, 4, 2), (3, 3, 3), (8, 4, 3))],
    *[("knockout", n, k, m, None) for n, k, m in ((9, 3, 3), (12, 4, 2), (7, 3, 3))],
]  # fmt: skip


@pytest.mark.parametrize(("fmt", "count", "size", "least", "asked"), EVENTS)
@pytest.mark.parametrize("seed", range(4))
def test_a_whole_event_agrees_with_the_referee(
    fmt: str, count: int, size: int, least: int, asked: int | None, seed: int
) -> None:
    """Every round of a seeded random event against the doc's rules, and the
    standings after every round (places, points, tie-breaks, games)."""
    ev, rounds, _ = play(fmt, count, size=size, least=least, asked=asked, seed=seed)
    assert len(rounds) <= o_rounds(fmt, count, size, asked, least)
    if fmt != "knockout":
        assert len(rounds) == o_rounds(fmt, count, size, asked, least)
    for r in range(1, len(rounds) + 1):
        part = Event(fmt, ev.players, size, least, [m for m in ev.history if m.round <= r])
        compare_standings(part, ev.players)


@pytest.mark.parametrize(("fmt", "count"), [("swiss", 7), ("swiss", 8), ("swiss", 6),
                                             ("round-robin", 7), ("round-robin", 6),
                                             ("knockout", 8), ("knockout", 6)])  # fmt: skip
@pytest.mark.parametrize("seed", range(4))
def test_an_event_with_players_leaving_agrees_with_the_referee(
    fmt: str, count: int, seed: int
) -> None:
    """Players drop after round 1 and 2: the pairing keeps the doc's rules
    with the players still in, the standings list everyone who played."""
    drops = [(1, seed), (2, seed + 3)]
    ev, _rounds, _active = play(fmt, count, asked=count, seed=seed, drops=drops)
    compare_standings(ev, ev.players)


def test_round_robin_meets_everyone_once_with_balanced_first_moves() -> None:
    for count in range(2, 11):
        ev, rounds, _ = play("round-robin", count, seed=count)
        pairs = [frozenset(t) for r in rounds for t in r if len(t) == 2]
        assert len(pairs) == len(set(pairs)) == count * (count - 1) // 2
        byes = Counter(t[0] for r in rounds for t in r if len(t) == 1)
        assert byes == (Counter(ev.players) if count % 2 else Counter()), byes
        assert all(sum(len(t) == 1 for t in r) == count % 2 for r in rounds)
        firsts = Counter(t[0] for r in rounds for t in r if len(t) == 2)
        for p in ev.players:
            games = count - 1
            # half their games; one more or one less with an even count
            assert abs(2 * firsts[p] - games) <= (0 if count % 2 else 1), (count, firsts)


def test_round_robin_schedule_ignores_seed_order_and_leavers() -> None:
    """From the round-1 players sorted by id: the same schedule whatever the
    seed order; a player who leaves gives their due opponents byes."""
    for count in (5, 6, 7, 8):
        ev, rounds, _ = play("round-robin", count, seed=1)
        shuffled = list(ev.players)
        random.Random(count).shuffle(shuffled)
        for r, tables in enumerate(rounds, 1):
            hist = [m.as_match() for m in ev.history if m.round < r]
            again = pair_round("round-robin", r, shuffled, hist, table_size=2, min_seats=2)
            assert sorted(again) == sorted(tables), (count, r)
        leaver = ev.players[2]
        for r, tables in enumerate(rounds, 1):
            if r < 2:
                continue
            hist = [m.as_match() for m in ev.history if m.round < r]
            still = [p for p in ev.players if p != leaver]
            got = pair_round("round-robin", r, still, hist, table_size=2, min_seats=2)
            want = []
            for t in tables:
                if leaver in t:
                    rest = tuple(p for p in t if p != leaver)
                    if rest:
                        want.append(rest)
                else:
                    want.append(t)
            assert sorted(got) == sorted(want), (count, r, got, want)


def test_the_docs_examples() -> None:
    """The worked examples of docs/tournaments.md, by their numbers."""
    eight = list(range(1, 9))
    # Swiss, the better seed winning every game
    hist: list[Match] = []
    seen = []
    for r in (1, 2, 3):
        tables = pair_round("swiss", r, eight, hist, table_size=2, min_seats=2)
        seen.append(tables)
        for a, b in tables:
            win = (1.0, 0.0) if a < b else (0.0, 1.0)
            hist.append(Match(r, (a, b), win, (0.0, 0.0)))
    assert seen[0] == [(1, 5), (6, 2), (3, 7), (8, 4)]
    assert seen[1] == [(3, 1), (2, 4), (5, 7), (8, 6)]
    assert seen[2] == [(1, 2), (5, 3), (4, 6), (7, 8)]
    # knockout of 6: 1 (bye), 4 v 5, 2 (bye), 3 v 6
    six = list(range(1, 7))
    assert pair_round("knockout", 1, six, [], table_size=2, min_seats=2) == [
        (1,),
        (4, 5),
        (2,),
        (3, 6),
    ]
    # tables: 9 in 3s dealt 1 6 7 / 2 5 8 / 3 4 9; 10 in 4s: 4, 3, 3; 5 in 4s, least 3: one of 5
    nine = list(range(1, 10))
    r1 = pair_round("swiss", 1, nine, [], table_size=3, min_seats=3)
    assert [set(t) for t in r1] == [{1, 6, 7}, {2, 5, 8}, {3, 4, 9}]
    assert o_table_sizes(10, 4, 2) == [4, 3, 3] and o_table_sizes(5, 4, 3) == [5]
    # rounds: 8 players 3, 20 players 5, 6-player knockout 3
    assert o_rounds("swiss", 8, 2, None) == 3 and o_rounds("swiss", 20, 2, None) == 5
    assert o_rounds("knockout", 6, 2, None) == 3
    # place points: the doc's table
    assert o_place_points(5, [1, 2, 3, 4, 5]) == [
        4,
        Fraction(13, 4),
        Fraction(5, 2),
        Fraction(7, 4),
        1,
    ]
    assert o_place_points(4, [1, 1, 3, 4]) == [Fraction(7, 2), Fraction(7, 2), 2, 1]


def test_place_points_are_the_docs() -> None:
    """result_points against the doc's place points, every tie pattern of
    2-6 seats (two-player: 1 / ½ / 0)."""
    from bot.tournament.pairing import result_points

    for seats in range(3, 7):
        patterns = {
            tuple(1 + sum(1 for q in raw if q < p) for p in raw)
            for raw in itertools.product(range(1, seats + 1), repeat=seats)
        }
        for places in sorted(patterns):
            got = result_points(seats, places)
            want = o_place_points(seats, places)
            assert all(math.isclose(a, float(b)) for a, b in zip(got, want, strict=True)), (
                places,
                got,
                want,
            )
    assert result_points(2, [1, 2]) == (1.0, 0.0) and result_points(2, [1, 1]) == (0.5, 0.5)
