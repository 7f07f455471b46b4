"""Strength and speed of the dice games' computer players (docs/ai_dice.md).

    python bench/ai_dice.py [--only sixdice,bluff,nine,yahtzee] [--sixdice-games N]
                            [--sixdice-levels strong,normal,easy,exploiter]

Prints, with 95 % confidence intervals (Wilson):

- Six Dice: the strong player's win rate over ``--sixdice-games`` (2,000)
  two-player games to 10,000 against the baseline "set aside everything that
  scores, stop at 300 once started" (before starting it keeps rolling until
  the start threshold is reached), seats alternated; also normal and easy
  (``--sixdice-levels``; ``exploiter`` adds the bench-only best response to
  the baseline: the strong player with the race table solved against the
  baseline's own turns, which shows what knowing the opponent is worth);
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
import itertools
import math
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from games import bluff, nine, sixdice, yahtzee
from games.bluff import ai as bluff_ai
from games.core import SeededSource
from games.nine import ai as nine_ai
from games.sixdice import ai as sixdice_ai
from games.sixdice import policy
from games.sixdice.scoring import scoring_selections
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


class BaselineModel:
    """The baseline's turns exactly, as an opponent model for
    :func:`games.sixdice.policy.solve_race` — for the *exploiter* only, a
    bench-only player that knows its opponent is the baseline. It shows how
    much any player could get from this baseline; it is not a shipped level."""

    def __init__(self, start: int, target: int) -> None:
        self.start, self.target = start, target
        self.reach = policy.win_table(policy.rules_key({})).v[6, 0, :]
        self.classes: dict[int, tuple[float, dict[tuple[int, int], float]]] = {}
        for n in range(1, 7):
            fail, d = 0.0, {}
            for roll in itertools.combinations_with_replacement(range(1, 7), n):
                counts = [roll.count(f) for f in range(1, 7)]
                prob = math.factorial(n) / math.prod(math.factorial(c) for c in counts) / 6**n
                sels = scoring_selections(roll, {})
                if not sels:
                    fail += prob
                    continue
                sel, pts = max(sels, key=lambda sp: (len(sp[0]), sp[1]))
                k = (n - len(sel), pts // policy.STEP)
                d[k] = d.get(k, 0.0) + prob
            self.classes[n] = (fail, d)
        self.dists: dict[int, tuple[np.ndarray, float, float]] = {}
        self.matrices: dict[int, tuple[np.ndarray, list[np.ndarray]]] = {}

    def dist(self, score: int, started: bool) -> tuple[np.ndarray, float, float]:
        """(P(stop with total bucket t), P(ドボン), P(ブタ)) of one baseline turn."""
        thr = max(300, 0 if started else self.start - score)
        if thr not in self.dists:
            span = 1400
            mass = np.zeros((7, span + 200))
            mass[6, 0] = 1.0
            final = np.zeros(span + 200)
            dobon = buta = 0.0
            for b in range(span):
                for n in (6, 5, 4, 3, 2, 1):
                    m = mass[n, b]
                    if m == 0.0:
                        continue
                    fail, d = self.classes[n]
                    if n == 6:
                        buta += m * fail
                    else:
                        dobon += m * fail
                    for (left, pts), p in d.items():
                        if left == 0:
                            mass[6, b + pts] += m * p
                        elif (b + pts) * policy.STEP >= thr:
                            final[b + pts] += m * p
                        else:
                            mass[left, b + pts] += m * p
            self.dists[thr] = (final, dobon, buta)
        return self.dists[thr]

    def _matrices(self, scores: np.ndarray) -> tuple[np.ndarray, list[np.ndarray]]:
        nst = len(scores)
        if nst not in self.matrices:
            ns = int((scores >= 0).sum()) - 1  # the started states 0…target − 50
            trans = np.zeros((nst, nst))
            term = [np.zeros((nst, nst)), np.zeros((nst, nst))]
            for j in range(nst):
                started = j < ns
                s = int(scores[j])
                final, dobon, buta = self.dist(s, started)
                trans[j, j] += dobon
                trans[j, ns if started else min(j + 1, nst - 1)] += buta
                for b in np.nonzero(final)[0]:
                    end = s + int(b) * policy.STEP
                    if end < self.target:
                        trans[j, end // policy.STEP] += final[b]
                        continue
                    # the baseline, first to move, reached the target: the mover
                    # (second seat) has one last turn that must beat it
                    need = end - scores + policy.STEP
                    need = np.where(
                        np.arange(nst) < ns, need, np.maximum(need, self.start - scores)
                    )
                    idx = np.clip(need // policy.STEP, 0, policy.NB - 1)
                    term[1][:, j] += final[b] * self.reach[idx]
            self.matrices[nst] = (trans, term)
        return self.matrices[nst]

    def turn(self, scores: np.ndarray, me: np.ndarray, f: int) -> np.ndarray:
        trans, term = self._matrices(scores)
        return np.asarray(me @ trans.T + term[f])

    def finish(self, mine: int, scores: np.ndarray) -> np.ndarray:
        ns = int((scores >= 0).sum()) - 1
        out = np.empty(len(scores))
        for j, s in enumerate(scores):
            final, _, _ = self.dist(int(s), j < ns)
            ends = int(s) + np.arange(len(final)) * policy.STEP
            out[j] = 1.0 - float(final[ends > mine].sum())
        return out


def exploiter(start: int = 1000, target: int = 10000) -> Player:
    """The strong player with the race table solved against the baseline model."""
    race = policy.solve_race(policy.rules_key({}), start, target, BaselineModel(start, target))
    i0 = race.state(0, False)
    predicted = (race.me[0][i0, i0] + race.op[1][i0, i0]) / 2
    print(f"sixdice  exploiter: its own model predicts {100 * predicted:.1f} % (seats alternated)")
    fn = timed("sixdice exploiter", sixdice_ai.choose)

    def play(view: dict[str, Any], me: str, legal: list[str], rng: random.Random) -> str:
        return fn(view, me, legal, "strong", rng, race)

    return play


def sixdice_tables() -> None:
    """Build times of the strong player's tables (default rules, once per
    process) and what the race model's turns bring."""
    key = policy.rules_key({})
    for name, build in (
        ("win table", lambda: policy.win_table(key)),
        ("goal turns", lambda: policy.goal_turns(key)),
        ("race table", lambda: policy.race_table(key, 1000, 10000)),
    ):
        t0 = time.perf_counter()
        build()
        print(f"sixdice  build {name}: {time.perf_counter() - t0:.2f} s")
    gt = policy.goal_turns(key)
    totals = np.arange(gt.final.shape[1]) * policy.STEP
    for x in (300, 1000):
        k = policy.GOALS.index(x // policy.STEP)
        mean = float((gt.final[k] * totals).sum() / gt.final[k].sum())
        print(f"sixdice  'reach {x}' stops at {mean:.0f} on average")


def bench_sixdice(games: int, levels: list[str]) -> None:
    sixdice_tables()
    rng = random.Random(1)
    for level in levels:
        wins = 0
        player = exploiter() if level == "exploiter" else ai_player(sixdice_ai, level, "sixdice")
        for g in range(games):
            players = {"ai": player, "base": sixdice_baseline}
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
    ap.add_argument("--sixdice-levels", default="strong,normal,easy")
    args = ap.parse_args()
    only = args.only.split(",")
    if "sixdice" in only:
        bench_sixdice(args.sixdice_games, args.sixdice_levels.split(","))
    if "bluff" in only:
        bench_bluff(args.bluff_matches)
    if "nine" in only:
        bench_nine(args.nine_games)
    if "yahtzee" in only:
        bench_yahtzee(args.yahtzee_games)
    print_times()


if __name__ == "__main__":
    main()
