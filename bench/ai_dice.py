"""Strength and speed of the dice games' computer players (docs/ai_dice.md).

    python bench/ai_dice.py [--games N] [--only sixdice,bluff,nine,yahtzee]

Prints, with 95 % confidence intervals (Wilson):

- Six Dice: the strong player's win rate over ``--sixdice-games`` (2,000)
  two-player games to 10,000 against the baseline "set aside everything that
  scores, stop at 300 once started" (before starting it keeps rolling until
  the start threshold is reached), seats alternated; also normal and easy;
- Bluff: the share of games lost by one strong player in 3-player matches
  against two naive baselines (always roll; announce the roll if it beats
  the last announcement, else the weakest legal value; reveal when a fresh
  roll beats the announcement with chance < 50 %), seats rotated; fair share
  1/3;
- Nine: 2-player games, strong-for-上がり vs strong-for-remaining, seats
  alternated (which objective wins more), and strong vs easy;
- Yahtzee: the strong player's mean score in solo games (needs the solver
  table: built once and cached on disk by ``games.yahtzee.solver``);
- decision times (median / p99) of every level of every game.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from games import bluff, nine, sixdice, yahtzee
from games.bluff import ai as bluff_ai
from games.core import SeededSource
from games.nine import ai as nine_ai
from games.sixdice import ai as sixdice_ai
from games.yahtzee import ai as yahtzee_ai

Player = Callable[[dict[str, Any], str, list[str], random.Random], str]
TIMES: dict[str, list[float]] = {}


def wilson(k: int, n: int) -> tuple[float, float, float]:
    """Rate and its 95 % Wilson interval."""
    if n == 0:
        return 0.0, 0.0, 1.0
    z = 1.96
    p = k / n
    d = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return p, mid - half, mid + half


def fmt(k: int, n: int) -> str:
    p, lo, hi = wilson(k, n)
    return f"{100 * p:.1f} % [{100 * lo:.1f}, {100 * hi:.1f}] ({k}/{n})"


def timed(name: str, fn: Callable[..., str]) -> Callable[..., str]:
    def run(*args: Any) -> str:
        t = time.perf_counter()
        out = fn(*args)
        TIMES.setdefault(name, []).append(time.perf_counter() - t)
        return out

    return run


def ai_player(module: Any, level: str, game: str) -> Player:
    fn = timed(f"{game} {level}", module.choose)
    return lambda view, me, legal, rng: fn(view, me, legal, level, rng)


# --------------------------------------------------------------------------
# Six Dice


def sixdice_baseline(view: dict[str, Any], me: str, legal: list[str], rng: random.Random) -> str:
    """Everything that scores; stop at a turn total ≥ 300 once allowed."""
    if legal[0].startswith("take"):
        return sixdice_ai._greedy_take(legal, view["options"])
    if "stop" in legal and view["turn_total"] >= 300:
        return "stop"
    return "roll"


def play_sixdice(
    players: dict[str, Player], seats: list[str], seed: str, rng: random.Random
) -> str:
    state = sixdice.new_game(seats, {}, seats[0], SeededSource(seed))
    moves = 0
    while not sixdice.is_finished(state):
        p = sixdice.to_move(state)[0]
        legal = sixdice.legal_moves(state, p)
        sixdice.apply(state, p, players[p](sixdice.view(state, p), p, legal, rng))
        moves += 1
        if moves > 20000:
            sixdice.end_game(state)
    return str(sixdice.outcome(state)["winner"])


def bench_sixdice(games: int) -> None:
    rng = random.Random(1)
    for level in ("strong", "normal", "easy"):
        wins = 0
        for g in range(games):
            players = {"ai": ai_player(sixdice_ai, level, "sixdice"), "base": sixdice_baseline}
            seats = ["ai", "base"] if g % 2 == 0 else ["base", "ai"]
            wins += play_sixdice(players, seats, f"sd-{level}-{g}", rng) == "ai"
        print(
            f"sixdice  {level:6} vs baseline (2 players, seats alternated): win {fmt(wins, games)}"
        )


# --------------------------------------------------------------------------
# Bluff


def bluff_baseline(view: dict[str, Any], me: str, legal: list[str], rng: random.Random) -> str:
    """Always roll; announce the roll if it beats the last announcement,
    else the weakest legal value; reveal when P(fresh roll ≥ it) < 50 %."""
    if len(legal) == 1:
        return legal[0]
    last = view["last_announcement"]
    if view["phase"] == "announce":
        mine = bluff.value_of(view["cup_seen"])
        if last is None or bluff.stronger(mine, last["value"]):
            return f"announce {mine}"
        return legal[0]
    if bluff_ai.chance_at_least(last["value"]) < 0.5:
        return "reveal"
    return "roll"


def play_bluff(
    players: dict[str, Player], seats: list[str], seed: str, rng: random.Random
) -> dict[str, int]:
    state = bluff.new_game(seats, {}, seats[0], SeededSource(seed))
    while not bluff.is_finished(state):
        p = bluff.to_move(state)[0]
        legal = bluff.legal_moves(state, p)
        move = players[p](bluff.view(state, p), p, legal, rng)
        bluff.apply(state, p, move)
        if move == "roll":
            bluff.peek(state, p)  # the bot looks for a computer player right after it rolls
    return {p: sum(1 for g in state.games if g["loser"] == p) for p in seats}


def bench_bluff(matches: int) -> None:
    rng = random.Random(2)
    for level in ("strong", "normal", "easy"):
        lost = total = 0
        for m in range(matches):
            players = {
                "ai": ai_player(bluff_ai, level, "bluff"),
                "b1": bluff_baseline,
                "b2": bluff_baseline,
            }
            seats = ["ai", "b1", "b2"]
            k = m % 3
            seats = seats[k:] + seats[:k]
            losses = play_bluff(players, seats, f"bl-{level}-{m}", rng)
            lost += losses["ai"]
            total += sum(losses.values())
        print(
            f"bluff    {level:6} vs 2 baselines (3 players): games lost {fmt(lost, total)}"
            " (fair share 33.3 %)"
        )


# --------------------------------------------------------------------------
# Nine


def play_nine(players: dict[str, Player], seats: list[str], seed: str, rng: random.Random) -> str:
    state = nine.new_game(seats, {}, seats[0], SeededSource(seed))
    while not nine.is_finished(state):
        p = nine.to_move(state)[0]
        legal = nine.legal_moves(state, p)
        nine.apply(state, p, players[p](nine.view(state, p), p, legal, rng))
    return str(nine.outcome(state)["winner"])


def bench_nine(games: int) -> None:
    rng = random.Random(3)

    def objective(goal: str) -> Player:
        fn = timed(f"nine strong({goal})", nine_ai.choose_for)
        return lambda view, me, legal, r: fn(view, me, legal, goal)

    wins = 0
    for g in range(games):
        players = {"agari": objective("agari"), "remaining": objective("remaining")}
        seats = ["agari", "remaining"] if g % 2 == 0 else ["remaining", "agari"]
        wins += play_nine(players, seats, f"nine-obj-{g}", rng) == "agari"
    print(
        f"nine     for 上がり vs for remaining (2 players): 上がり-player wins {fmt(wins, games)}"
    )
    for level in ("normal", "easy"):
        wins = 0
        for g in range(games):
            players = {
                "strong": ai_player(nine_ai, "strong", "nine"),
                "other": ai_player(nine_ai, level, "nine"),
            }
            seats = ["strong", "other"] if g % 2 == 0 else ["other", "strong"]
            wins += play_nine(players, seats, f"nine-{level}-{g}", rng) == "strong"
        print(f"nine     strong vs {level:6} (2 players): strong wins {fmt(wins, games)}")


# --------------------------------------------------------------------------
# Yahtzee


def bench_yahtzee(games: int) -> None:
    from games.yahtzee import solver as ysolver

    t = time.perf_counter()
    solver, built = ysolver.load_or_build("forced")
    yahtzee_ai.install_solver(solver)
    print(
        f"yahtzee  solver table {'built' if built else 'loaded'} in {time.perf_counter() - t:.1f} s"
    )
    rng = random.Random(4)
    for level in ("strong", "normal", "easy"):
        scores = []
        play = ai_player(yahtzee_ai, level, "yahtzee")
        n = games if level != "easy" else games
        for g in range(n):
            state = yahtzee.new_game(["ai"], {}, "ai", SeededSource(f"y-{level}-{g}"))
            while not yahtzee.is_finished(state):
                legal = yahtzee.legal_moves(state, "ai")
                yahtzee.apply(state, "ai", play(yahtzee.view(state, "ai"), "ai", legal, rng))
            scores.append(yahtzee.view(state, "ai")["totals"]["ai"])
        mean = statistics.fmean(scores)
        half = 1.96 * statistics.stdev(scores) / math.sqrt(len(scores))
        print(
            f"yahtzee  {level:6} solo: mean score {mean:.2f} ± {half:.2f} (95 %, {len(scores)} games)"
        )


def print_times() -> None:
    print("decision times (ms): median / p99 / max, calls")
    for name, ts in sorted(TIMES.items()):
        ts = sorted(ts)
        p99 = ts[min(len(ts) - 1, int(0.99 * len(ts)))]
        print(
            f"  {name:24} {1000 * statistics.median(ts):7.3f} / {1000 * p99:7.3f} /"
            f" {1000 * ts[-1]:7.1f}  ({len(ts)})"
        )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sixdice-games", type=int, default=2000)
    ap.add_argument("--bluff-matches", type=int, default=1000)
    ap.add_argument("--nine-games", type=int, default=4000)
    ap.add_argument("--yahtzee-games", type=int, default=300)
    ap.add_argument("--only", default="sixdice,bluff,nine,yahtzee")
    args = ap.parse_args()
    only = args.only.split(",")
    if "sixdice" in only:
        bench_sixdice(args.sixdice_games)
    if "bluff" in only:
        bench_bluff(args.bluff_matches)
    if "nine" in only:
        bench_nine(args.nine_games)
    if "yahtzee" in only:
        bench_yahtzee(args.yahtzee_games)
    print_times()


if __name__ == "__main__":
    main()
