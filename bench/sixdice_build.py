"""The strong Six Dice player's table build (``games.sixdice.ai.warm_up``) at
given house options: CPU seconds, wall seconds and the process's peak memory,
each case in a fresh process (one BLAS thread, as the AI workers run it).

    python bench/sixdice_build.py                       # the default and the limits
    python bench/sixdice_build.py "target=10000 start=2000 straight=50"

The figures quoted in docs/rules/sixdice.md ("House option limits"). Then
the same tables through the disk cache (games.sixdice.tablecache, in an
empty temporary folder): the first process builds and saves them, a second
one only loads them — what a bot's first game after a restart waits.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CASES = [
    "",  # the defaults: target 10000, start 1000, straight 3000
    "target=10000 start=2000 straight=50",  # the most the limits allow
    "target=1000",
]

CHILD = """
import json, resource, sys, time
from games import sixdice
from games.core import parse_options
from games.sixdice import ai
raw = dict(w.split("=", 1) for w in sys.argv[1].split())
options = parse_options(sixdice.OPTIONS, raw)
cpu, wall = time.process_time(), time.perf_counter()
ai.warm_up(options)
cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps({"cpu": cpu, "wall": wall, "peak_mb": peak}))
"""

CACHED = """
import json, sys, time
from games import sixdice
from games.core import parse_options
from games.sixdice import tablecache
raw = dict(w.split("=", 1) for w in sys.argv[1].split())
options = parse_options(sixdice.OPTIONS, raw)
wall = time.perf_counter()
built = tablecache.load_or_build(options, sys.argv[2])
print(json.dumps({"wall": time.perf_counter() - wall, "built": built}))
"""


def run(case: str, child: str = CHILD, *extra: str) -> dict[str, float]:
    env = {**os.environ, "OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1",
           "MKL_NUM_THREADS": "1", "PYTHONPATH": str(ROOT)}  # fmt: skip
    out = subprocess.run(
        [sys.executable, "-c", child, case, *extra], env=env, capture_output=True, text=True, check=True
    )
    figures: dict[str, float] = json.loads(out.stdout.strip().splitlines()[-1])
    return figures


def main() -> None:
    for case in sys.argv[1:] or CASES:
        f = run(case)
        print(
            f"{case or '(defaults)':40s} warm_up {f['cpu']:5.1f} s CPU, {f['wall']:5.1f} s wall,"
            f" peak {f['peak_mb']:4.0f} MB"
        )
    with tempfile.TemporaryDirectory() as folder:
        for case in sys.argv[1:] or CASES[:1]:
            first, second = run(case, CACHED, folder), run(case, CACHED, folder)
            assert first["built"] and not second["built"]
            print(
                f"{case or '(defaults)':40s} disk cache: first process {first['wall']:5.1f} s"
                f" (build + save), next process {second['wall']:5.2f} s (load)"
            )


if __name__ == "__main__":
    main()
