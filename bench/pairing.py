"""Two-player Swiss pairing's cost (bot/tournament/pairing.py).

    python bench/pairing.py [--players 64] [--rounds 9] [--events 5] [--seed 1]

Plays ``--events`` Swiss events of ``--players`` players over ``--rounds``
rounds (the number of rounds clamped as the bot clamps it,
:func:`pairing.rounds_for`), each game's result drawn from a seeded random
source (a win for either seat or a draw), and times every call of
:func:`pairing.pair_round` (wall clock and the process's CPU time). Prints
the median and the worst time a round, per round number and over all, and
the rematches: pairs of a round who had met before.

Then the rematches of small events played to players - 1 rounds (or
players, odd): ``--small-events`` events each of 7 and of 8 players over 7
rounds. Each round has the fewest rematches any of its pairings has (the
tests check it by brute force), but that is round by round: earlier rounds
paired by points can leave a late round where every pairing repeats a pair.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections import defaultdict

from bot.tournament import pairing
from bot.tournament.pairing import Match


def play(players: int, rounds: int, seed: int) -> tuple[list[tuple[int, float, float]], int]:
    """One event: (round, wall s, CPU s) per pairing, and its rematches."""
    rng = random.Random(seed)
    ids = list(range(1000, 1000 + players))
    total = pairing.rounds_for("swiss", players, 2, rounds)
    history: list[Match] = []
    met: set[frozenset[int]] = set()
    times: list[tuple[int, float, float]] = []
    rematches = 0
    for round_no in range(1, total + 1):
        wall, cpu = time.perf_counter(), time.process_time()
        tables = pairing.pair_round("swiss", round_no, ids, history, table_size=2, min_seats=2)
        times.append((round_no, time.perf_counter() - wall, time.process_time() - cpu))
        assert sorted(p for t in tables for p in t) == ids
        for table in tables:
            if len(table) == 1:
                history.append(pairing.bye(round_no, table[0], 2))
                continue
            rematches += frozenset(table) in met
            met.add(frozenset(table))
            points = rng.choice([(1.0, 0.0), (0.0, 1.0), (0.5, 0.5)])
            history.append(Match(round_no, table, points, (0.0, 0.0)))
    return times, rematches


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=64)
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--events", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--small-events", type=int, default=300)
    args = parser.parse_args()
    total = pairing.rounds_for("swiss", args.players, 2, args.rounds)
    print(f"Swiss, {args.players} players, {total} rounds (asked {args.rounds}), "
          f"{args.events} events from seed {args.seed}")  # fmt: skip
    by_round: dict[int, list[float]] = defaultdict(list)
    walls: list[float] = []
    cpus: list[float] = []
    rematches = 0
    for event in range(args.events):
        times, repeats = play(args.players, args.rounds, args.seed + event)
        rematches += repeats
        for round_no, wall, cpu in times:
            by_round[round_no].append(wall)
            walls.append(wall)
            cpus.append(cpu)
    for round_no, values in sorted(by_round.items()):
        print(f"  round {round_no:2d}: median {statistics.median(values) * 1000:7.1f} ms, "
              f"max {max(values) * 1000:7.1f} ms")  # fmt: skip
    print(f"all rounds: median {statistics.median(walls) * 1000:.1f} ms, "
          f"max {max(walls) * 1000:.1f} ms wall; median {statistics.median(cpus) * 1000:.1f} ms, "
          f"max {max(cpus) * 1000:.1f} ms CPU")  # fmt: skip
    print(f"rematches: {rematches} in {args.events} events")
    for players in (7, 8):
        counts = [play(players, 7, args.seed + e)[1] for e in range(args.small_events)]
        print(f"{players} players, 7 rounds, {args.small_events} events: {sum(counts)} rematches, "
              f"in {sum(c > 0 for c in counts)} events")  # fmt: skip


if __name__ == "__main__":
    main()
