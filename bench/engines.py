"""Random play-out throughput of every engine (DESIGN.md budget: ≥ 20,000 moves/s).

    python bench/engines.py [--runs 5] [--seconds 1.0]

For each game: plays random games (random legal move of a player the game
waits for) with default options and a seeded source for about ``--seconds``
per run, and prints the median moves/s over ``--runs`` runs, with the min and
max. A move is one ``legal_moves`` + ``apply`` pair.
"""

from __future__ import annotations

import argparse
import importlib
import random
import statistics
import time

from games import registry
from games.core import SeededSource

PLAYERS = {"sixdice": 4, "bluff": 4, "nine": 4, "yahtzee": 4, "sixtysix": 2}


def one_run(name: str, seconds: float, seed: int) -> tuple[float, int]:
    eng = importlib.import_module(f"games.{name}")
    rng = random.Random(seed)
    players = [f"p{i}" for i in range(PLAYERS[name])]
    moves = games = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        state = eng.new_game(players, {}, None, SeededSource(f"bench-{seed}-{games}"))
        guard = 0
        while not eng.is_finished(state) and guard < 100_000:
            waiting = eng.to_move(state)
            player = waiting[0] if waiting else players[0]
            legal = eng.legal_moves(state, player)
            eng.apply(state, player, rng.choice(legal))
            moves += 1
            guard += 1
        games += 1
    return moves / (time.perf_counter() - start), games


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--seconds", type=float, default=1.0)
    ap.add_argument("games", nargs="*", default=list(registry.names()))
    args = ap.parse_args()
    print(f"{'game':10} {'median moves/s':>15} {'min':>10} {'max':>10} {'games/run':>10}")
    for name in args.games:
        try:
            importlib.import_module(f"games.{name}")
        except ModuleNotFoundError:
            print(f"{name:10} (not implemented)")
            continue
        rates, counts = zip(
            *(one_run(name, args.seconds, s) for s in range(args.runs)), strict=True
        )
        ok = "ok" if statistics.median(rates) >= 20_000 else "BELOW BUDGET"
        print(
            f"{name:10} {statistics.median(rates):15,.0f} {min(rates):10,.0f} "
            f"{max(rates):10,.0f} {statistics.median(counts):10.0f}  {ok}"
        )


if __name__ == "__main__":
    main()
