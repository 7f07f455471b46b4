"""``python -m tests.transcripts.regen``: play every scene in English and in
Japanese and write their transcripts to ``tests/transcripts/golden/<lang>/``
(then read the diff: ``git diff tests/transcripts/golden``).

``python -m tests.transcripts.regen nine errors`` plays only those scenes;
``--check`` writes nothing and exits 1 when a transcript differs from its
file; ``-j N`` plays N scenes at a time (default 2, one per core here).
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import multiprocessing
import sys
import time
import traceback
from concurrent.futures import ProcessPoolExecutor

from .run import GOLDEN, LANGS, play
from .scenes import SCENES


def transcript(job: tuple[str, str]) -> tuple[str, str, str | None, float]:
    """The scene's transcript, or ``None`` (its failure printed)."""
    # errors only: the warnings of a scene's end (an AI warm-up stopped with
    # its bot) are no news; an error fails the scene anyway
    logging.basicConfig(level=logging.ERROR, format="%(levelname)s %(name)s: %(message)s")
    scene, lang = job
    began = time.perf_counter()
    try:
        text: str | None = asyncio.run(play(scene, lang))
    except Exception:  # the other scenes are still written
        print(f"{lang}/{scene}: the script failed\n{traceback.format_exc()}", file=sys.stderr)
        text = None
    return scene, lang, text, time.perf_counter() - began


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.transcripts.regen")
    parser.add_argument("scenes", nargs="*", metavar="SCENE",
                        help=f"scenes to play (default: all of {', '.join(SCENES)})")
    parser.add_argument("--lang", choices=LANGS, action="append", help="en or ja (default both)")
    parser.add_argument("--check", action="store_true", help="compare, write nothing")
    parser.add_argument("-j", "--jobs", type=int, default=2, help="scenes at a time")
    args = parser.parse_args(argv)
    unknown = [s for s in args.scenes if s not in SCENES]
    if unknown:
        parser.error(f"no scene {', '.join(unknown)} (scenes: {', '.join(SCENES)})")
    jobs = [(s, lang) for lang in args.lang or LANGS for s in args.scenes or SCENES]
    began = time.perf_counter()
    differ = []
    if args.jobs > 1:
        context = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(args.jobs, mp_context=context) as pool:
            done = list(pool.map(transcript, jobs))
    else:
        done = [transcript(job) for job in jobs]
    failed = []
    for scene, lang, text, seconds in done:
        if text is None:
            failed.append(f"{lang}/{scene}")
            continue
        path = GOLDEN / lang / f"{scene}.txt"
        old = path.read_text(encoding="utf-8") if path.exists() else None
        state = "same" if old == text else ("new" if old is None else "changed")
        if state != "same":
            differ.append(str(path))
            if not args.check:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(text, encoding="utf-8")
        lines = text.count("\n")
        print(f"{lang}/{scene}.txt  {lines} lines  {seconds:.1f} s  {state}")
    print(f"{len(done)} transcripts in {time.perf_counter() - began:.1f} s")
    if failed:
        print("failed (files kept as they were): " + ", ".join(failed), file=sys.stderr)
    if args.check and differ:
        print("differ: " + ", ".join(differ), file=sys.stderr)
    return 1 if failed or (args.check and differ) else 0


if __name__ == "__main__":
    sys.exit(main())
