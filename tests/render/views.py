"""Fixed game states for the render tests and bench/render.py: views built
by playing seeded random moves (pure: the same views every run)."""

from __future__ import annotations

import random
from typing import Any

from games import core, registry

NAMES8 = [
    "alice",
    "ぼぶ太郎",
    "Christopher-Alexander-Longname",
    "d😀👍🏽",
    "eve",
    "フランク・ミュラー",
    "gus",
    "花子",
]


def play(
    game: str,
    players: list[str],
    steps: int,
    seed: int,
    options: dict[str, Any] | None = None,
    prefer: tuple[str, ...] = (),
) -> tuple[Any, Any]:
    """A state after ``steps`` random legal moves (moves starting with one of
    ``prefer`` are chosen when available); returns (engine, state)."""
    e = registry.engine(game)
    s = e.new_game(players, options or {}, players[0], core.SeededSource(f"render-{seed}"))
    r = random.Random(seed)
    for _ in range(steps):
        if e.is_finished(s):
            break
        p = e.to_move(s)[0]
        moves = e.legal_moves(s, p)
        good = [m for m in moves if m.startswith(prefer)] if prefer else []
        e.apply(s, p, r.choice(good or moves))
    return e, s


def sixdice_history(
    seed: int, players: list[str], target: int = 3000
) -> tuple[Any, Any, list[dict[str, int]]]:
    """A finished Six Dice game and its per-turn score snapshots."""
    e = registry.engine("sixdice")
    s = e.new_game(players, {"target": target}, players[0], core.SeededSource(f"render-{seed}"))
    r = random.Random(seed)
    hist: list[dict[str, int]] = []
    while not e.is_finished(s):
        p = e.to_move(s)[0]
        ms = e.legal_moves(s, p)
        m = "stop" if "stop" in ms and r.random() < 0.5 else r.choice(ms)
        ev = e.apply(s, p, m)
        if any(x.kind in ("stop", "buta", "dobon") for x in ev):
            hist.append(dict(e.view(s, None)["scores"]))
    return e, s, hist


def finished(
    game: str, players: list[str], seed: int, options: dict[str, Any] | None = None
) -> tuple[Any, Any]:
    return play(game, players, 100000, seed, options)


def golden_cases() -> dict[
    str, tuple[str, dict[str, Any], dict[str, Any] | None, list[dict[str, int]] | None]
]:
    """name → (kind: table | hand | result, view, outcome, history)."""
    cases: dict[
        str, tuple[str, dict[str, Any], dict[str, Any] | None, list[dict[str, int]] | None]
    ] = {}
    two = ["alice", "ぼぶ"]
    three = ["alice", "ぼぶ太郎", "carol"]
    e, s = play("nine", three, 9, 1)
    cases["nine_mid"] = ("table", e.view(s, None), None, None)
    e, s = finished("nine", three, 2)
    cases["nine_over"] = ("table", e.view(s, None), None, None)
    cases["nine_result"] = ("result", e.view(s, None), e.outcome(s), None)
    e, s = play("sixdice", two, 1, 3)
    cases["sixdice_roll"] = ("table", e.view(s, None), None, None)
    e, s = play("sixdice", two, 4, 0)
    cases["sixdice_aside"] = ("table", e.view(s, None), None, None)
    e, s, hist = sixdice_history(5, three)
    cases["sixdice_result"] = ("result", e.view(s, None), e.outcome(s), hist)
    e, s = play("yahtzee", three, 40, 1)
    cases["yahtzee_mid"] = ("table", e.view(s, None), None, None)
    e, s = play("bluff", three, 6, 2)
    cases["bluff_hidden"] = ("table", e.view(s, None), None, None)
    e, s = play("bluff", three, 11, 2)
    cases["bluff_reveal"] = ("table", e.view(s, None), None, None)
    e, s = play("sixtysix", two, 5, 5, prefer=("play", "draw", "marry"))
    cases["sixtysix_table"] = ("table", e.view(s, None), None, None)
    cases["sixtysix_hand"] = ("hand", e.view(s, "alice"), None, None)
    return cases


def bench_views() -> dict[str, dict[str, Any]]:
    """One typical mid-game table view per game (3 players where allowed)."""
    return {
        name[: name.index("_")]: case[1]
        for name, case in golden_cases().items()
        if name in ("nine_mid", "sixdice_roll", "yahtzee_mid", "bluff_hidden", "sixtysix_table")
    }
