"""Fixed game states for the render tests and bench/render.py: views built
by playing seeded random moves (pure: the same views every run)."""

from __future__ import annotations

import random
from typing import Any

from games import core, registry

from .stats_views import stats_cases
from .tournament_views import tournament_cases

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
    # people by their display names (engine names have underscores; emoji
    # the font lacks are dropped), a ドボン stamp that names whose it is
    e, s = sixdice_dobon(["alice", "Bob_Smith"])
    cases["sixdice_dobon_ja"] = ("table", named(e.view(s, None), DISPLAY), None, None)
    e, s = sixtysix_marriage()
    cases["sixtysix_marriage_ja"] = ("table", named(e.view(s, None), DISPLAY), None, None)
    e, s = finished("sixtysix", ["alice", "Bob_Smith"], 4)
    cases["sixtysix_result"] = ("result", named(e.view(s, None), DISPLAY), e.outcome(s), None)
    e, s = finished("bluff", ["alice", "Bob_Smith", "carol"], 4)
    cases["bluff_result_en"] = ("result", named(e.view(s, None), DISPLAY), e.outcome(s), None)
    # every result picture in both languages: units, notes and legend
    cases["nine_result_en"] = cases["nine_result"]
    e, s = finished("nine", three, 15)  # 上がり holding a token: ×4
    cases["nine_agari_result"] = ("result", e.view(s, None), e.outcome(s), None)
    cases["nine_agari_result_en"] = cases["nine_agari_result"]
    cases["sixdice_result_en"] = cases["sixdice_result"]
    cases["sixtysix_result_en"] = cases["sixtysix_result"]
    view, outcome = sixtysix_deals()
    cases["sixtysix_deals_result"] = ("result", view, outcome, None)
    cases["sixtysix_deals_result_en"] = cases["sixtysix_deals_result"]
    cases["bluff_result"] = cases["bluff_result_en"]
    e, s = finished("yahtzee", three, 15)  # two winners tie
    cases["yahtzee_result"] = ("result", e.view(s, None), e.outcome(s), None)
    cases["yahtzee_result_en"] = cases["yahtzee_result"]
    cases.update(left_cases())  # seats out of the game, a computer in a removed seat
    cases.update(stats_cases())  # the /stats card and /leaderboard (stats_views.py)
    cases.update(tournament_cases())  # standings and bracket (tournament_views.py)
    return cases


def left_cases() -> dict[str, tuple[str, dict[str, Any], None, None]]:
    """Tables where a seat left (``/game leave``: "(left)") or was removed
    (``/game kick``: "(removed)"), drawn greyed, and a computer that took a
    removed person's seat drawn by that person's name, as the bot passes
    them (``seat_marks``, ``display_names``)."""
    three = ["alice", "ぼぶ太郎", "carol"]
    out: dict[str, tuple[str, dict[str, Any], None, None]] = {}
    e, s = play("yahtzee", three, 40, 1)
    e.forfeit(s, "carol")  # her empty boxes score 0: the column is greyed, not read as zeros
    view = dict(e.view(s, None), seat_marks={"carol": "left"})
    out["yahtzee_left"] = ("table", view, None, None)
    e, s = play("sixdice", three, 6, 3)
    e.forfeit(s, "ぼぶ太郎")
    names = {"alice": "Alice", "ぼぶ太郎": "ぼぶ太郎", "carol": "carol（CPU）"}
    view = dict(e.view(s, None), seat_marks={"ぼぶ太郎": "removed"}, display_names=names)
    out["sixdice_left_ja"] = ("table", view, None, None)
    e, s = play("bluff", three, 6, 2)
    e.forfeit(s, "carol")
    out["bluff_left"] = ("table", dict(e.view(s, None), seat_marks={"carol": "left"}), None, None)
    e, s = play("nine", three, 9, 1)
    e.forfeit(s, "carol")
    view = dict(e.view(s, None), seat_marks={"carol": "left"})
    out["nine_left_ja"] = ("table", view, None, None)
    return out


# Display names of the engine names above, as the bot passes them
DISPLAY = {"Bob_Smith": "🎲 Bob Smith 🎲", "alice": "Alice"}


def sixtysix_deals() -> tuple[dict[str, Any], dict[str, Any]]:
    """A finished Sixty-Six game whose deals were won every way the result
    explains: declared 66 with the opponent under 33 (schneider), a deal
    that scored nothing, a closed deal won with the carry-over, the other's
    declaration falling short, and a declaration with the opponent
    trickless (schwarz)."""
    a, bob = "alice", "Bob_Smith"
    deals = [
        {"winner": a, "game_points": 2, "card_points": {a: 70, bob: 25}, "reason": "declared", "declarer": a},
        {"winner": None, "game_points": 0, "card_points": {a: 60, bob: 60}, "reason": "no_score", "declarer": None},
        {"winner": bob, "game_points": 2, "card_points": {a: 40, bob: 68}, "reason": "closed", "declarer": bob},
        {"winner": a, "game_points": 2, "card_points": {a: 48, bob: 52}, "reason": "declared", "declarer": bob},
        {"winner": a, "game_points": 3, "card_points": {a: 80, bob: 0}, "reason": "declared", "declarer": a},
    ]  # fmt: skip
    points = {a: 7, bob: 2}
    view = {
        "game": "sixtysix",
        "players": [a, bob],
        "finished": True,
        "options": {"target": 7, "strict": False, "show_points": True},
        "game_points": points,
        "winner": a,
        "deals": deals,
    }
    outcome = {"finished": True, "game_points": points, "winner": a, "deals": deals}
    return named(view, DISPLAY), outcome


def named(view: dict[str, Any], names: dict[str, str]) -> dict[str, Any]:
    """``view`` with the display names the bot passes (bot.pictures.named)."""
    from bot.pictures import named as with_names

    return with_names(view, names)


def sixdice_dobon(players: list[str]) -> tuple[Any, Any]:
    """Six Dice: the first player scores, sets a 1 aside, then rolls ドボン."""
    e = registry.engine("sixdice")
    dice = [1, 1, 1, 5, 5, 5] + [2, 3, 4, 6, 2, 3] * 6
    s = e.new_game(players, {}, players[0], core.ScriptedSource(dice=dice))
    e.apply(s, players[0], "roll")
    e.apply(s, players[0], "take 1")
    e.apply(s, players[0], "roll")
    assert e.view(s, None)["last_roll"]["result"] == "dobon"
    return e, s


def sixtysix_marriage() -> tuple[Any, Any]:
    """Sixty-Six with a marriage shown and the trump card under the talon."""
    e = registry.engine("sixtysix")
    s = e.new_game(["alice", "Bob_Smith"], {}, "alice", core.SeededSource("m1"))
    r = random.Random(1)
    for _ in range(12):
        p = e.to_move(s)[0]
        moves = e.legal_moves(s, p)
        best = [m for m in moves if m.startswith(("exchange", "marry"))]
        plain = [m for m in moves if m.startswith(("play", "draw"))]
        e.apply(s, p, r.choice(best or plain or moves))
    v = e.view(s, None)
    assert v["marriages"] and v["trump_card"]
    return e, s


def bench_views() -> dict[str, dict[str, Any]]:
    """One typical mid-game table view per game (3 players where allowed)."""
    return {
        name[: name.index("_")]: case[1]
        for name, case in golden_cases().items()
        if name in ("nine_mid", "sixdice_roll", "yahtzee_mid", "bluff_hidden", "sixtysix_table")
    }
