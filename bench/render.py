"""Render benchmark: median render+encode time and PNG size of each game's
table picture (a typical mid-game view from tests/render/views.py), the
/stats card and the /leaderboard picture (tests/render/stats_views.py; the
budget for those too: ≤ 15 ms, ≤ 150 KB).

``--cold`` empties the cache of rasterised text before every run: the
time of a card or board whose names were never drawn before.

"median ms" is wall time (the budget: ≤ 15 ms); "cpu ms" is this process's
CPU time, which stays honest when other jobs share the two cores, and "min
cpu" its least (what the picture costs when nothing else runs); "encode ms"
the CPU time spent encoding the PNG (8-bit palette: mapping a full-colour
picture onto it, or for a table picture drawn on its kind's palette only
writing the file). Every run draws the
picture afresh: the cache of unchanged pictures
(:func:`bot.pictures.table_picture`) is emptied before each.

``--against DIR`` draws the same pictures (the views of this checkout) with
another checkout's code as well (``git worktree add DIR <commit>``), in
processes that alternate (A B A B …: both see the same load on a shared
machine), ``--rounds`` of each, and prints each picture's median CPU time on
both sides and their ratio (this / other).

    .venv/bin/python bench/render.py [--runs N] [--against DIR [--rounds 3]]
"""

from __future__ import annotations

import argparse
import importlib
import json
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def inputs() -> dict[str, list[Any]]:
    """What each picture is drawn from (JSON: a child process on other code
    reads the same)."""
    sys.path.insert(0, str(ROOT))
    from tests.render.stats_views import board, card
    from tests.render.views import NAMES8, bench_views, play

    views = bench_views()
    e, s = play("yahtzee", NAMES8[:4], 60, 3)
    views["yahtzee(4p)"] = e.view(s, None)
    e, s = play("nine", NAMES8, 30, 3)
    views["nine(8p)"] = e.view(s, None)
    drawn: dict[str, list[Any]] = {game: ["table", view, "en"] for game, view in views.items()}
    drawn["stats card"] = ["stats", card(), "en"]
    drawn["stats card ja"] = ["stats", card(), "ja"]
    drawn["leaderboard"] = ["board", board(), "en"]
    drawn["leaderboard ja"] = ["board", board(), "ja"]
    return json.loads(json.dumps(drawn, default=str))


def measure(drawn: dict[str, list[Any]], runs: int, cold: bool) -> dict[str, dict[str, float]]:
    """Each picture drawn ``runs`` times (after one to warm the caches)."""
    from bot import pictures
    from bot.render import _base

    encoded: list[float] = []  # CPU seconds of each PNG encode, this draw
    inside: list[bool] = []  # within a timed call (encode calls png)

    def timing(encode: Any) -> Any:
        def timed(img: Any, *args: Any, **kwargs: Any) -> bytes:
            if inside:
                return encode(img, *args, **kwargs)
            inside.append(True)
            c0 = time.thread_time()
            try:
                return encode(img, *args, **kwargs)
            finally:
                encoded.append(time.thread_time() - c0)
                inside.pop()

        return timed

    # a picture drawn on its palette is written as it is (png), else mapped first (encode):
    # timed where they are looked up — by the renderers (_base) and by drawn() (_canvas)
    for name in ("_base", "_canvas"):
        try:
            module: Any = importlib.import_module(f"bot.render.{name}")
        except ImportError:  # no _canvas on older code
            continue
        module.encode = timing(module.encode)
        if hasattr(module, "png"):
            module.png = timing(module.png)
    fresh = getattr(pictures, "forget_pictures", lambda: None)  # no cache on older code
    draws = {
        "table": lambda v, lang: pictures.table_picture(v, lang=lang),
        "stats": lambda v, lang: pictures.stats_picture(v, lang=lang),
        "board": lambda v, lang: pictures.board_picture(v, lang=lang),
    }
    out: dict[str, dict[str, float]] = {}
    for name, (kind, view, lang) in drawn.items():
        draw = draws[kind]
        draw(view, lang)  # warm the sprite caches
        times, cpu, enc = [], [], []
        pic = None
        for _ in range(runs):
            if cold:
                _base._text_mask.cache_clear()
            fresh()
            encoded.clear()
            t0, c0 = time.perf_counter(), time.process_time()
            pic = draw(view, lang)
            times.append((time.perf_counter() - t0) * 1000)
            cpu.append((time.process_time() - c0) * 1000)
            enc.append(sum(encoded) * 1000)
        assert pic is not None
        times.sort()
        out[name] = {
            "median": statistics.median(times),
            "p90": times[int(len(times) * 0.9) - 1],
            "cpu": statistics.median(cpu),
            "min_cpu": min(cpu),
            "encode": statistics.median(enc),
            "kb": len(pic.png) / 1024,
        }
    return out


def table(results: dict[str, dict[str, float]]) -> None:
    print(
        f"{'picture':<14} {'median ms':>9} {'p90 ms':>7} {'cpu ms':>7} {'min cpu':>7}"
        f" {'encode ms':>9} {'KB':>6}"
    )
    for name, r in results.items():
        print(
            f"{name:<14} {r['median']:9.2f} {r['p90']:7.2f} {r['cpu']:7.2f} {r['min_cpu']:7.2f}"
            f" {r['encode']:9.2f} {r['kb']:6.1f}"
        )


def against(args: argparse.Namespace) -> None:
    """Alternate child processes on the other checkout's code and this one's."""
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(inputs(), f)
        path = f.name
    sides = {"other": str(Path(args.against).resolve()), "this": str(ROOT)}
    got: dict[str, list[dict[str, dict[str, float]]]] = defaultdict(list)
    for n in range(args.rounds):
        for side, code in sides.items():
            cmd = [sys.executable, __file__, "--code", code, "--inputs", path,
                   "--runs", str(args.runs), "--json"]  # fmt: skip
            if args.cold:
                cmd.append("--cold")
            done = subprocess.run(cmd, capture_output=True, text=True, check=True)
            got[side].append(json.loads(done.stdout))
            print(f"round {n + 1}: {side} done", file=sys.stderr, flush=True)
    Path(path).unlink()
    print(f"CPU ms per picture, medians of {args.rounds} alternating rounds of {args.runs} draws;"
          f" this checkout / {args.against}")  # fmt: skip
    print(f"{'picture':<14} {'other':>7} {'this':>7} {'ratio':>6} {'min other':>9} {'min this':>8}"
          f" {'enc other':>9} {'enc this':>8} {'KB':>6}")  # fmt: skip
    for name in got["this"][0]:

        def med(side: str, key: str, name: str = name) -> float:
            return statistics.median(r[name][key] for r in got[side])

        old, new = med("other", "cpu"), med("this", "cpu")
        print(
            f"{name:<14} {old:7.2f} {new:7.2f} {new / old:5.2f}× {med('other', 'min_cpu'):9.2f}"
            f" {med('this', 'min_cpu'):8.2f} {med('other', 'encode'):9.2f}"
            f" {med('this', 'encode'):8.2f} {med('this', 'kb'):6.1f}"
        )


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=60)
    ap.add_argument("--cold", action="store_true", help="no cached text between runs")
    ap.add_argument("--against", default="", help="another checkout, drawn alternately")
    ap.add_argument("--rounds", type=int, default=3, help="alternating rounds of --against")
    ap.add_argument("--code", default="", help=argparse.SUPPRESS)  # a child: the code's checkout
    ap.add_argument("--inputs", default="", help=argparse.SUPPRESS)  # a child: what to draw
    ap.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.against:
        against(args)
        return
    if args.inputs:
        drawn = json.loads(Path(args.inputs).read_text())
    else:
        drawn = inputs()
    sys.path.insert(0, args.code or str(ROOT))
    for mod in [m for m in sys.modules if m.split(".")[0] in ("bot", "games", "tests")]:
        del sys.modules[mod]  # this checkout's, imported for the views
    results = measure(drawn, args.runs, args.cold)
    if args.json:
        print(json.dumps(results))
    else:
        table(results)


if __name__ == "__main__":
    main()
