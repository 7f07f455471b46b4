"""Six Dice — computer players and the coach (docs/ai_dice.md).

The uniform AI API of every game (``games/<game>/ai.py``):

- :data:`LEVELS` — ``("easy", "normal", "strong")``;
- :func:`choose` — a move from ``legal``, computed only from the player's
  view (``engine.view(state, me)``), deterministic given ``rng``;
- :func:`hint` — the strong move and its reason in numbers (JSON-able).

Levels:

- ``strong``, two players: plays for the chance to win the game. Between
  turns :func:`games.sixdice.policy.race_table` gives the win chance for
  every pair of scores and seat (both players modelled as choosing a turn
  goal and playing the exact "reach it" policy, each for its own win);
  within the turn the exact turn solver uses those chances as the value of
  stopping, ドボン and ブタ (:func:`games.sixdice.policy.race_turn`). The
  last round uses the end-game policy below.
- ``strong``, other tables: the exact expected-points turn policy of
  :mod:`games.sixdice.policy` (which dice to set aside, when to stop; start
  rule, ブタ and 振りきり included), and in the end game (the round is being
  played out after someone reached the target) the exact policy that
  maximizes the chance to finish the turn above the leader. Near the finish
  (before the last round) it also plays for the win: if its score plus the
  turn total would reach the target but stay below what a trailing opponent
  is expected to need, nothing changes; if an opponent is already within
  one turn of the target and it trails by far, it keeps rolling for a total
  that overtakes the leader (win-table policy).
- ``normal``: the same expected-points policy without the end-game
  adjustment, and one move in five made by the ``easy`` rule.
- ``easy``: sets aside every scoring die (the most points), stops as soon as
  the turn total reaches a threshold drawn between 250 and 600 (after the
  start rule allows it).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from games import core
from games.sixdice import policy
from games.sixdice.scoring import score_dice

LEVELS = ("easy", "normal", "strong")
CHASE_MARGIN = 1500  # an opponent this close to the target: the finish is near
FINISH_BONUS = 0.0  # extra worth of reaching the target, in points (measured: 800 ≈ 0, 3000 worse)


def _take_dice(move: str) -> list[int]:
    return [int(w) for w in move.split()[1:]]


def _greedy_take(legal: list[str], options: Mapping[str, Any]) -> str:
    """The take with the most dice, then the most points (everything that scores)."""
    return max(legal, key=lambda m: (len(_take_dice(m)), score_dice(_take_dice(m), options) or 0))


def _easy(view: Mapping[str, Any], legal: list[str], rng: random.Random) -> str:
    if legal[0].startswith("take"):
        return _greedy_take(legal, view["options"])
    if "stop" in legal and view["turn_total"] >= rng.randrange(250, 601, 50):
        return "stop"
    return "roll"


def _mode(view: Mapping[str, Any], me: str, level: str) -> tuple[str, int]:
    """("points", 0) or ("win", need): the objective of this turn. ``need`` is
    the turn total that wins (or is required to keep up)."""
    if level != "strong":
        return "points", 0
    score = int(view["scores"][me])
    started = bool(view["started"][me])
    start_need = 0 if started else int(view["options"]["start"]) - score
    others = [p for p in view["order"] if p != me and p not in view["forfeited"]]
    if not others:
        return "points", 0
    order = list(view["order"])
    leader = max(others, key=lambda p: (view["scores"][p], -order.index(p)))
    lead = int(view["scores"][leader])
    beat = lead - score + (0 if order.index(me) < order.index(leader) else 1)
    target = int(view["options"]["target"])
    if view["ending"]:
        # the last round: only finishing above the leader counts
        return "win", max(beat, start_need, 0)
    if lead >= target - CHASE_MARGIN and beat > CHASE_MARGIN * 2:
        # the leader will very likely finish soon and we are far behind:
        # points alone will not do, play for a total that overtakes the leader
        return "win", max(beat, start_need, 0)
    return "points", 0


def _race(
    view: Mapping[str, Any], me: str, level: str, table: policy.Race | None = None
) -> tuple[policy.Race, int, int, int] | None:
    """The two-player race context (table, my state, the opponent's, my seat),
    or ``None`` (not strong, not two players, or the last round). ``table``
    replaces the default race table (one solved against a known opponent)."""
    order = list(view["order"])
    if level != "strong" or view["ending"] or len(order) != 2 or view["forfeited"]:
        return None
    opts = view["options"]
    race = table or policy.race_table(
        policy.rules_key(opts), int(opts["start"]), int(opts["target"])
    )
    other = order[1 - order.index(me)]
    i = race.state(int(view["scores"][me]), bool(view["started"][me]))
    j = race.state(int(view["scores"][other]), bool(view["started"][other]))
    return race, i, j, order.index(me)


def _context(
    view: Mapping[str, Any], me: str, level: str, table: policy.Race | None = None
) -> tuple[policy.Table, int]:
    key = policy.rules_key(view["options"])
    race = _race(view, me, level, table)
    if race is not None:
        return policy.race_turn(*race), 0
    mode, need = _mode(view, me, level)
    if mode == "win":
        return policy.win_table(key), min(-(-need // policy.STEP), policy.NB - 1)
    bonus = FINISH_BONUS if level == "strong" else 0.0
    pt = policy.points_table(
        key, int(view["options"]["start"]), int(view["options"]["target"]), bonus
    )
    return pt.table, pt.context(int(view["scores"][me]), bool(view["started"][me]))


def warm_up(options: Mapping[str, Any] | None = None) -> None:
    """Build the strong player's tables for a game's options now (they are
    cached per process; the first build takes a few seconds), so that a
    computer's first move is as quick as the rest."""
    from games.sixdice.engine import OPTIONS

    opts = core.parse_options(OPTIONS, options)
    key = policy.rules_key(opts)
    start, target = int(opts["start"]), int(opts["target"])
    policy.race_table(key, start, target)
    policy.win_table(key)
    policy.points_table(key, start, target, FINISH_BONUS)


def evaluate(
    view: Mapping[str, Any],
    me: str,
    legal: list[str],
    level: str = "strong",
    race: policy.Race | None = None,
) -> dict[str, float]:
    """Every legal move → its value under the strong policy (expected points
    gained this turn, or the chance to reach the needed total in the end game)."""
    table, c = _context(view, me, level, race)
    total = int(view["turn_total"])
    out: dict[str, float] = {}
    if legal and legal[0].startswith("take"):
        n = len(view["roll"])
        for move in legal:
            dice = _take_dice(move)
            points = score_dice(dice, view["options"]) or 0
            out[move] = table.w(n - len(dice), policy.bucket(total + points), c)
        return out
    b = policy.bucket(total)
    n = 6 if view["hot_dice"] else int(view["dice_left"])
    for move in legal:
        if move == "stop":
            out[move] = float(table.stop[b, c])
        else:
            out[move] = float(table.v[n, b, c])
    return out


def choose(
    view: dict[str, Any],
    me: str,
    legal: list[str],
    level: str,
    rng: random.Random,
    race: policy.Race | None = None,
) -> str:
    """A move from ``legal`` for ``me`` at ``level``, from the view only
    (``race``: a race table solved against a known opponent, for the bench)."""
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}")
    if len(legal) == 1:
        return legal[0]
    if level == "easy" or (level == "normal" and rng.random() < 0.2):
        return _easy(view, legal, rng)
    values = evaluate(view, me, legal, level, race)
    return max(legal, key=lambda m: (values[m], m == "stop"))


def hint(view: dict[str, Any], me: str, legal: list[str]) -> dict[str, Any]:
    """The strong move with its reason: the chance of ドボン (ブタ for six
    dice) with the dice about to be rolled, and the value of each move."""
    key = policy.rules_key(view["options"])
    values = evaluate(view, me, legal, "strong") if legal else {}
    move = max(legal, key=lambda m: (values[m], m == "stop")) if legal else ""
    mode, need = _mode(view, me, "strong")
    if _race(view, me, "strong") is not None:
        mode = "race"  # values are chances to win the game
    n = int(view["dice_left"])  # the dice the next roll throws (6 at the start and after 振りきり)
    numbers: dict[str, Any] = {
        "dice": n,
        "dobon_chance": round(policy.fail_chance(n, key), 4),
        "turn_total": int(view["turn_total"]),
        "goal": mode,
        "values": {m: round(v, 1 if mode == "points" else 4) for m, v in values.items()},
    }
    if mode == "win":
        numbers["need"] = need
    if "stop" in values:
        numbers["stop_value"] = round(values["stop"], 1 if mode == "points" else 4)
        numbers["roll_value"] = round(values["roll"], 1 if mode == "points" else 4)
    if mode == "race" and legal:
        # the values are chances to win the game; the expected points of each
        # choice (the points policy) are shown next to them
        points = evaluate(view, me, legal, "normal")
        numbers["points"] = {m: round(v, 1) for m, v in points.items()}
    return {"move": move, "reason": "hint.sixdice", "numbers": numbers}
