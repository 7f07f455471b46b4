"""Computer players' strength and speed (issue 8), one section per game.

    python bench/ai.py [yahtzee] [nine] [--games 10000] [--triple-games 1000]
                       [--nine-games 100000]
                       [--joker forced|free|both] [--rebuild] [--cache-dir DIR]

Yahtzee: loads the optimal-strategy table of each joker rule from the disk
cache (building and saving it first if absent, or always with ``--rebuild``;
the build time is printed), checks the start-of-game expectation against the
published optimum to 4 decimals (254.5877 forced, 254.5896 free), then plays
``--games`` solitaire games through the engine (``games.yahtzee`` with a
``SeededSource`` per game, so the rules are the engine's) with the solver's
best move at every decision, and prints the mean score ± 95 % CI (with
≥ 10,000 games it must lie within 1.5 of the optimum) and the
decision time (median, p99; wall clock and the thread's CPU time, which a
busy machine does not inflate; "cold" = the first decision of a turn, which
solves the turn; later decisions reuse it). Then ``--triple-games`` games
with option ``triple`` by the heuristic :func:`games.yahtzee.solver.triple_advice`.

Nine: solves both objectives with and without tokens, prints the values
(without tokens they must be 5.349 % and 11.964), shows that the token cap
does not change them, times a decision, and plays ``--nine-games``
solitaire games through the engine for each objective (mean ± 95 % CI).
"""

from __future__ import annotations

import argparse
import math
import statistics
import time
from collections.abc import Callable, Sequence

import numpy as np

from games import nine as nine_engine
from games import yahtzee as yahtzee_engine
from games.core import SeededSource
from games.nine import solver as nine
from games.yahtzee import scoring
from games.yahtzee import solver as ys

PUBLISHED = {"forced": 254.5877, "free": 254.5896}
SHUT_NO_TOKENS, LEFT_NO_TOKENS = 5.349, 11.964


def mean_ci(xs: Sequence[float]) -> tuple[float, float]:
    """Mean and the half-width of its 95 % confidence interval (normal approximation)."""
    m = statistics.fmean(xs)
    return m, 1.96 * statistics.stdev(xs) / math.sqrt(len(xs))


def ms_stats(ts: Sequence[float]) -> str:
    arr = np.array(ts) * 1e3
    return f"median {np.median(arr):.3f} ms, p99 {np.percentile(arr, 99):.3f} ms (n={len(arr)})"


# --------------------------------------------------------------------------
# Yahtzee


def yahtzee_game(
    solver: ys.Solver,
    joker: str,
    seed: str,
    times: list[float],
    cold: list[float],
    cpu: list[float],
    cold_cpu: list[float],
) -> int:
    state = yahtzee_engine.new_game(["bot"], {"joker": joker}, "bot", SeededSource(seed))
    while not yahtzee_engine.is_finished(state):
        if state.rolls == 0:
            yahtzee_engine.apply(state, "bot", "roll")
            first = True
        column = state.sheets["bot"][0]
        t, c = time.perf_counter(), time.thread_time()
        advice = solver.advise(column, state.dice, 3 - state.rolls)
        dt, dc = time.perf_counter() - t, time.thread_time() - c
        times.append(dt)
        cpu.append(dc)
        if first:
            cold.append(dt)
            cold_cpu.append(dc)
            first = False
        yahtzee_engine.apply(state, "bot", advice.best.move)
    return int(yahtzee_engine.total(state, "bot"))


def bench_yahtzee(args: argparse.Namespace) -> bool:
    ok = True
    jokers = ys.JOKERS if args.joker == "both" else (args.joker,)
    for joker in jokers:
        print(f"== Yahtzee, joker={joker}")
        path = ys.cache_path(joker, args.cache_dir)
        if args.rebuild and path.exists():
            path.unlink()
        t = time.perf_counter()
        solver, built = ys.load_or_build(joker, args.cache_dir)
        dt = time.perf_counter() - t
        verb = "built and saved" if built else "loaded"
        print(f"table {verb} in {dt:.2f} s  ({path})")
        start = solver.expected_total(scoring.empty_column())
        match = round(start, 4) == PUBLISHED[joker]
        ok &= match
        print(
            f"start-of-game expectation {start:.6f}  (published {PUBLISHED[joker]}: "
            f"{'OK' if match else 'MISMATCH'})"
        )
        if args.games:
            times: list[float] = []
            cold: list[float] = []
            scores: list[int] = []
            cpu: list[float] = []
            cold_cpu: list[float] = []
            t = time.perf_counter()
            for i in range(args.games):
                scores.append(
                    yahtzee_game(solver, joker, f"ai-bench-{joker}-{i}", times, cold, cpu, cold_cpu)
                )
            wall = time.perf_counter() - t
            m, h = mean_ci(scores)
            inside = abs(m - start) <= 1.5
            if args.games >= 10_000:  # the criterion is for 10,000 games
                ok &= inside
            print(
                f"{args.games} games: mean {m:.2f} ± {h:.2f} (95 % CI), sd {statistics.stdev(scores):.1f}; "
                f"|mean − optimum| = {abs(m - start):.2f} {'≤' if inside else '>'} 1.5  ({wall:.0f} s)"
            )
            print(f"decision time, all:  {ms_stats(times)}")
            print(f"decision time, cold: {ms_stats(cold)}")
            print(f"decision CPU time (thread), all:  {ms_stats(cpu)}")
            print(f"decision CPU time (thread), cold: {ms_stats(cold_cpu)}")
        if args.triple_games:
            times = []
            t = time.perf_counter()
            totals = [
                triple_game(solver, joker, f"ai-bench-triple-{joker}-{i}", times)
                for i in range(args.triple_games)
            ]
            m, h = mean_ci(totals)
            print(
                f"triple (heuristic), {args.triple_games} games: mean {m:.1f} ± {h:.1f} "
                f"(6 × one-column optimum = {6 * start:.1f})  ({time.perf_counter() - t:.0f} s)"
            )
            print(f"decision time, triple: {ms_stats(times)}")
    return ok


def triple_game(solver: ys.Solver, joker: str, seed: str, times: list[float]) -> int:
    state = yahtzee_engine.new_game(
        ["bot"], {"joker": joker, "triple": True}, "bot", SeededSource(seed)
    )
    while not yahtzee_engine.is_finished(state):
        if state.rolls == 0:
            yahtzee_engine.apply(state, "bot", "roll")
        t = time.perf_counter()
        advice = ys.triple_advice([solver] * 3, state.sheets["bot"], state.dice, 3 - state.rolls)
        times.append(time.perf_counter() - t)
        yahtzee_engine.apply(state, "bot", advice.best.move)
    return int(yahtzee_engine.total(state, "bot"))


# --------------------------------------------------------------------------
# Nine


def nine_game(
    tables: nine.NineTables,
    seed: str,
    pick: Callable[[list[nine.FlipChoice]], nine.FlipChoice],
    times: list[float],
) -> tuple[bool, int]:
    state = nine_engine.new_game(["bot"], {}, "bot", SeededSource(seed))
    while not nine_engine.is_finished(state):
        view = nine_engine.view(state, "bot")
        if view["phase"] == "roll":
            nine_engine.apply(state, "bot", "roll")
            continue
        dice = view["last_roll"]["dice"]
        held = view["tokens"]["bot"] - (1 if dice[0] == dice[1] else 0)
        t = time.perf_counter()
        choice = pick(tables.choices(view["up"]["bot"], held, dice))
        times.append(time.perf_counter() - t)
        nine_engine.apply(state, "bot", choice.move)
    out = nine_engine.outcome(state)
    return state.status["bot"] == "agari", int(out["remaining"]["bot"])


def bench_nine(args: argparse.Namespace) -> bool:
    ok = True
    full = range(1, 10)
    print("== Nine")
    results = {}
    for tokens, cap in ((False, nine.DEFAULT_CAP), (True, nine.DEFAULT_CAP), (True, 20)):
        t = time.perf_counter()
        tables = nine.solve(tokens=tokens, cap=cap)
        dt = time.perf_counter() - t
        p, e = tables.chance_agari(full, 0), tables.expected_remaining(full, 0)
        results[(tokens, cap)] = (tables, p, e)
        print(
            f"tokens={'on ' if tokens else 'off'} cap={cap:2}: chance of 上がり {100 * p:.3f} %, "
            f"expected left {e:.3f}  (solved in {dt * 1e3:.0f} ms)"
        )
    _, p0, e0 = results[(False, nine.DEFAULT_CAP)]
    match = round(100 * p0, 3) == SHUT_NO_TOKENS and round(e0, 3) == LEFT_NO_TOKENS
    ok &= match
    print(
        f"without tokens vs known optimum {SHUT_NO_TOKENS} % / {LEFT_NO_TOKENS}: {'OK' if match else 'MISMATCH'}"
    )
    tables, p, e = results[(True, nine.DEFAULT_CAP)]
    _, pw, ew = results[(True, 20)]
    same = p == pw and e == ew
    ok &= same
    print(
        f"cap {nine.DEFAULT_CAP} vs cap 20: {'identical' if same else 'DIFFERENT'} (|Δ| = {abs(p - pw):.1e}, {abs(e - ew):.1e})"
    )
    for label, pick, target in (
        ("for 上がり", lambda cs: cs[0], p),
        ("for least left", lambda cs: min(cs, key=lambda c: c.remaining), e),
    ):
        times: list[float] = []
        shut, left = [], []
        t = time.perf_counter()
        for i in range(args.nine_games):
            a, r = nine_game(tables, f"ai-bench-nine-{i}", pick, times)
            shut.append(float(a))
            left.append(float(r))
        wall = time.perf_counter() - t
        ms, hs = mean_ci(shut)
        ml, hl = mean_ci(left)
        if label == "for 上がり":
            inside = abs(ms - p) <= hs
            print(
                f"{args.nine_games} games playing {label}: 上がり {100 * ms:.2f} ± {100 * hs:.2f} % (optimum {100 * p:.3f} %: {'inside' if inside else 'OUTSIDE'} CI), left {ml:.3f} ± {hl:.3f}  ({wall:.0f} s)"
            )
        else:
            inside = abs(ml - e) <= hl
            print(
                f"{args.nine_games} games playing {label}: left {ml:.3f} ± {hl:.3f} (optimum {e:.3f}: {'inside' if inside else 'OUTSIDE'} CI), 上がり {100 * ms:.2f} ± {100 * hs:.2f} %  ({wall:.0f} s)"
            )
        del target
        print(f"decision time: {ms_stats(times)}")
    return ok


SECTIONS: dict[str, Callable[[argparse.Namespace], bool]] = {
    "yahtzee": bench_yahtzee,
    "nine": bench_nine,
}


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("sections", nargs="*", help=f"any of {', '.join(SECTIONS)} (default: all)")
    ap.add_argument("--games", type=int, default=10_000, help="Yahtzee games per joker rule")
    ap.add_argument(
        "--triple-games", type=int, default=1000, help="Yahtzee triple games (heuristic)"
    )
    ap.add_argument("--nine-games", type=int, default=100_000, help="Nine games per objective")
    ap.add_argument("--joker", choices=["forced", "free", "both"], default="both")
    ap.add_argument("--rebuild", action="store_true", help="rebuild the Yahtzee tables (timed)")
    ap.add_argument(
        "--cache-dir", default=None, help="default $CHABUDAI_CACHE or ~/.cache/chabudai"
    )
    args = ap.parse_args()
    unknown = set(args.sections) - set(SECTIONS)
    if unknown:
        ap.error(
            f"unknown section(s) {', '.join(sorted(unknown))}; choose from {', '.join(SECTIONS)}"
        )
    ok = True
    for name in args.sections or list(SECTIONS):
        ok &= SECTIONS[name](args)
    print("ALL CHECKS OK" if ok else "SOME CHECK FAILED")
    raise SystemExit(0 if ok else 1)


if __name__ == "__main__":
    main()
