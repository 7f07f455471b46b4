"""Offline tools: ``python -m games replay FILE`` and ``python -m games verify SEED HASH``.

``replay`` prints the outcome of a game record as one JSON object; a record
that breaks a rule exits 2 with ``move N 'PLAYER MOVE': rule…`` on standard
error; any other broken record exits 2 with ``bad record: …``.

``verify`` checks that a published hash belongs to a revealed seed and prints
the first dice (and, with ``--decks``, the Sixty-Six decks) the seed produces.
The hash may be the whole SHA-256 (64 hex digits) or the beginning of it that
the table showed (at least 8 digits, the bot's 🎲 Fair dice line): a player
checks with exactly what they were shown. ``"prefix": true`` says a
beginning was compared.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from games import registry
from games.core import MoveBreak, RecordError, SeededSource, seed_hash
from games.registry import engine, replay


def _replay(path: str) -> int:
    try:
        with open(path, encoding="utf-8") as fh:
            doc = json.load(fh)
    except OSError as err:
        print(f"bad record: cannot read {path}: {err.strerror}", file=sys.stderr)
        return 2
    except (json.JSONDecodeError, UnicodeDecodeError) as err:
        print(f"bad record: not valid JSON ({err})", file=sys.stderr)
        return 2
    try:
        record = registry.read_record(doc)
        state = replay(record)
    except MoveBreak as brk:
        print(f"move {brk.number} {brk.move!r}: {brk.error}", file=sys.stderr)
        return 2
    except RecordError as err:
        print(f"bad record: {err}", file=sys.stderr)
        return 2
    out: dict[str, Any] = engine(record.game).outcome(state)
    print(json.dumps(out, ensure_ascii=False))
    return 0


SHORTEST = 8  # hex digits: the shortest beginning of a hash that is checked


def _verify(seed: str, published: str, count: int, decks: int) -> int:
    actual = seed_hash(seed)
    shown = published.strip().lower()
    if not (SHORTEST <= len(shown) <= len(actual)) or any(
        c not in "0123456789abcdef" for c in shown
    ):
        print(
            f"bad hash: give the {len(actual)} hex digits of the SHA-256, or the first "
            f"{SHORTEST} or more as the table showed them (got {published!r})",
            file=sys.stderr,
        )
        return 2
    ok = actual.startswith(shown)
    src = SeededSource(seed)
    doc: dict[str, Any] = {
        "match": ok,
        "prefix": len(shown) < len(actual),
        "sha256": actual,
        "dice": src.roll(count),
    }
    if decks:
        doc["decks"] = [src.deck() for _ in range(decks)]
    print(json.dumps(doc, ensure_ascii=False))
    return 0 if ok else 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m games", description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="cmd", required=True)
    p_replay = sub.add_parser("replay", help="replay a game record and print its outcome")
    p_replay.add_argument("file")
    p_verify = sub.add_parser("verify", help="check a revealed seed against its published hash")
    p_verify.add_argument("seed")
    p_verify.add_argument(
        "hash", help=f"the published hash: all 64 hex digits, or its first {SHORTEST} or more"
    )
    p_verify.add_argument("--count", type=int, default=60, help="dice to print (default 60)")
    p_verify.add_argument("--decks", type=int, default=0, help="Sixty-Six decks to print")
    args = parser.parse_args(argv)
    if args.cmd == "replay":
        return _replay(args.file)
    return _verify(args.seed, args.hash, args.count, args.decks)


if __name__ == "__main__":
    sys.exit(main())
