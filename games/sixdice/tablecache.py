"""The strong Six Dice player's tables on disk: the one I/O edge of the
Six Dice AI (the bot's AI workers and the benches call it).

Building the tables of one set of house options takes ~10 s of CPU
(``bench/sixdice_build.py``); loading them takes well under a second. A
file per options set (scoring rules, start, target), named by a hash of
those options and of the solver's source (:func:`source_hash`), so a change
of the solver or the scoring never reads an old table; written atomically
(a temporary file, then ``os.replace``), so processes sharing the folder
never see half a file; at most :data:`FILES` files are kept (the least
recently used are removed). The folder is ``$CHABUDAI_CACHE``, else
``~/.cache/chabudai`` — the same as the Yahtzee solver's.
"""

from __future__ import annotations

import hashlib
import os
import pathlib
from collections.abc import Mapping
from typing import Any

import numpy as np

from games import core
from games.sixdice import ai, policy

FILES = 8  # option sets kept on disk (≈ 30 MB each at the default options)
_HERE = pathlib.Path(__file__).resolve().parent


def source_hash() -> str:
    """A hash of the code the tables are computed by (the policy, the
    scoring, the AI's finishing bonus)."""
    digest = hashlib.sha256()
    for name in ("policy.py", "scoring.py"):
        digest.update((_HERE / name).read_bytes())
    digest.update(repr(ai.FINISH_BONUS).encode())
    return digest.hexdigest()[:12]


def _parts(options: Mapping[str, Any] | None) -> tuple[tuple[str, bool, int], int, int]:
    from games.sixdice.engine import OPTIONS

    opts = core.parse_options(OPTIONS, options)
    return policy.rules_key(opts), int(opts["start"]), int(opts["target"])


def cache_dir(folder: str | os.PathLike[str] | None = None) -> pathlib.Path:
    root = folder or os.environ.get("CHABUDAI_CACHE") or pathlib.Path.home() / ".cache" / "chabudai"
    return pathlib.Path(root)


def cache_path(
    options: Mapping[str, Any] | None, folder: str | os.PathLike[str] | None = None
) -> pathlib.Path:
    """The file of these options' tables."""
    key, start, target = _parts(options)
    name = hashlib.sha256(repr((key, start, target)).encode()).hexdigest()[:12]
    return cache_dir(folder) / f"sixdice-{name}-{source_hash()}.npz"


def load_or_build(
    options: Mapping[str, Any] | None = None, folder: str | os.PathLike[str] | None = None
) -> bool:
    """Make the strong player's tables of ``options`` ready in this process:
    from the disk cache if there, else built and saved. ``True`` = built."""
    key, start, target = _parts(options)
    bonus = ai.FINISH_BONUS
    path = cache_path(options, folder)
    try:
        with np.load(path) as f:
            race = policy.Race(
                key, start, target, int(f["ns"]),
                (f["me0"], f["me1"]), (f["op0"], f["op1"]), (f["fin0"], f["fin1"]),
            )  # fmt: skip
            tables = {
                ("win", key): policy.Table(f["win_v"], f["win_stop"]),
                ("points", key, start, target, bonus): policy.PointsTable(
                    policy.Table(f["pts_v"], f["pts_stop"]), start
                ),
                ("race", key, start, target): race,
            }
        policy.give(tables)
        ai.warm_up(options)  # takes the tables handed in
        os.utime(path)  # recently used: pruned last
        return False
    except (OSError, ValueError, KeyError, EOFError):
        pass  # none yet, or unreadable: build it
    ai.warm_up(options)
    race = policy.race_table(key, start, target)
    win = policy.win_table(key)
    pts = policy.points_table(key, start, target, bonus).table
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    with open(tmp, "wb") as fh:
        np.savez(
            fh, ns=np.int64(race.ns),
            me0=race.me[0], me1=race.me[1], op0=race.op[0], op1=race.op[1],
            fin0=race.fin[0], fin1=race.fin[1],
            win_v=win.v, win_stop=win.stop, pts_v=pts.v, pts_stop=pts.stop,
        )  # fmt: skip
    os.replace(tmp, path)
    _prune(path.parent)
    return True


def _prune(folder: pathlib.Path) -> None:
    """Keep the :data:`FILES` most recently used tables."""
    files = sorted(folder.glob("sixdice-*.npz"), key=lambda p: p.stat().st_mtime, reverse=True)
    for old in files[FILES:]:
        try:
            old.unlink()
        except OSError:
            pass  # another process removed it first
