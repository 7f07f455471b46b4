"""The display rating's scale on simulated games (docs/ratings.md).

A population of players with a hidden skill (normal, SD 1) plays random
tables of 2–4 (half of them two-player); a player's performance in a game
is skill × ``--skill`` plus Gumbel noise (the dice: Plackett–Luce's own
model), so ``--skill`` 0.575 makes a player one SD better win a two-player
game 64 % of the time. The tables are rated with :func:`bot.ratings.rate`
and the bench prints:

- how σ and a game's move of the display rating shrink with the games played
  (what ``PROVISIONAL_GAMES`` is chosen from);
- the spread of the display ratings of the players with at least
  ``PROVISIONAL_GAMES`` games (percentiles, SD): what ``K`` is chosen from;
- the win chance OpenSkill predicts for two settled players 200 display
  points apart, against Elo's 76 % for the same gap.

    .venv/bin/python bench/ratings.py [--players 100] [--games 3000] [--seeds 5]
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot import ratings  # noqa: E402


def simulate(
    seed: int, players: int, games: int, skill_weight: float
) -> tuple[
    dict[int, tuple[float, float]], dict[int, int], dict[int, list[float]], dict[int, list[float]]
]:
    rnd = random.Random(seed)
    skill = [rnd.gauss(0, 1) for _ in range(players)]
    current: dict[int, tuple[float, float]] = {}
    played = dict.fromkeys(range(players), 0)
    sigma_at: dict[int, list[float]] = {}
    move_at: dict[int, list[float]] = {}
    for _ in range(games):
        table = rnd.sample(range(players), rnd.choice((2, 2, 3, 4)))
        perf = {p: skill[p] * skill_weight - math.log(-math.log(rnd.random())) for p in table}
        order = sorted(table, key=lambda p: -perf[p])
        before = {
            p: ratings.display(ratings.ordinal(*current.get(p, (25.0, 25 / 3)))) for p in table
        }
        current.update(ratings.rate({p: order.index(p) + 1 for p in table}, current))
        for p in table:
            played[p] += 1
            sigma_at.setdefault(played[p], []).append(current[p][1])
            move_at.setdefault(played[p], []).append(
                abs(ratings.display(ratings.ordinal(*current[p])) - before[p])
            )
    return current, played, sigma_at, move_at


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--players", type=int, default=100)
    ap.add_argument("--games", type=int, default=3000)
    ap.add_argument("--seeds", type=int, default=5)
    ap.add_argument("--skill", type=float, default=0.575)
    args = ap.parse_args()
    settled: list[int] = []
    sigma_at: dict[int, list[float]] = {}
    move_at: dict[int, list[float]] = {}
    per_player: list[int] = []
    for seed in range(args.seeds):
        current, played, sig, mov = simulate(seed, args.players, args.games, args.skill)
        for n, values in sig.items():
            sigma_at.setdefault(n, []).extend(values)
        for n, values in mov.items():
            move_at.setdefault(n, []).extend(values)
        per_player.extend(played.values())
        settled += [
            ratings.display(ratings.ordinal(*current[p]))
            for p in current
            if played[p] >= ratings.PROVISIONAL_GAMES
        ]
    print(
        f"{args.seeds} runs × {args.players} players × {args.games} games"
        f" (skill weight {args.skill}): {statistics.mean(per_player):.0f} games a player"
    )
    print("games played  mean σ  median move of the display rating")
    for n in (1, 2, 3, 5, 10, 15, 20, 30, 50, 80):
        if n in sigma_at:
            print(
                f"{n:12d}  {statistics.mean(sigma_at[n]):6.2f}  {statistics.median(move_at[n]):5.0f}"
            )
    settled.sort()

    def q(f: float) -> int:
        return settled[int(f * (len(settled) - 1))]

    print(
        f"settled players (≥ {ratings.PROVISIONAL_GAMES} games): n={len(settled)}"
        f" min {settled[0]} p5 {q(0.05)} p25 {q(0.25)} median {q(0.5)} p75 {q(0.75)}"
        f" p95 {q(0.95)} max {settled[-1]} SD {statistics.pstdev(settled):.0f}"
    )
    model = ratings._MODEL
    for sigma in (2.0, 3.0, 5.0):
        gap = 200 / ratings.K  # ordinal points
        a = model.rating(mu=25 + gap, sigma=sigma)
        b = model.rating(mu=25, sigma=sigma)
        p = model.predict_win([[a], [b]])[0]
        print(f"200 display points apart, both σ={sigma}: OpenSkill {p:.1%} (Elo 76.0%)")


if __name__ == "__main__":
    main()
