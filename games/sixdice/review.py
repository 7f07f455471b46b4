"""Six Dice's post-game review (:mod:`games.review`, docs/review.md).

Worth of a move (which dice to set aside, roll on or stop) is what the
strong player maximizes (:func:`games.sixdice.ai.evaluate` at level
``strong``):

- two players: the chance to win — the race table's win chance, and in the
  last round the chance to finish the turn above the leader (unit
  ``win_chance``);
- more players: the expected points this turn brings under the exact
  expected-points turn policy (:func:`games.sixdice.policy.points_table`:
  start rule, ドボン, ブタ and 振りきり included; unit ``points``). Decisions
  where the strong player plays for a total instead (the last round, or a
  leader about to finish) are not reviewed: points are not the aim there.

Luck of a roll: the value of the position the dice leave (the best take, or
ドボン / ブタ) among every outcome of that many dice (the policy's exact
outcome classes). Bowl mishaps are left out.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games import sixdice
from games.core import Event, Record
from games.review import (
    Assessment,
    GameReviewer,
    Grades,
    Luck,
    mid_percentile,
    own_rolls_this_turn,
)
from games.sixdice import ai, policy
from games.sixdice.scoring import scoring_selections

# docs/review.md, "Bands and classes". The accuracy's anchors: (average loss
# per decision, accuracy) — each level's measured median loss mapped into the
# middle of its band (normal 80: good, easy 57.5: fair, random 22.5: needs
# work; strong 95 where its median is not 0), from
#     python bench/review.py --only sixdice --games 200 --dump FILE
# medians a decision: two players (win chance) strong 0, normal 0.00144, easy
# 0.0056, random 0.0247; three (points) strong 0, normal 1.94, easy 25.5,
# random 144. The classes: the least loss of an inaccuracy (at most where good
# ends: 0.0026 and 6.1), a mistake and a blunder.
GRADES = {
    "win_chance": Grades(((0.0014, 80.0), (0.0056, 57.5), (0.025, 22.5)), (0.0025, 0.03, 0.10)),
    "points": Grades(((1.9, 80.0), (26.0, 57.5), (140.0, 22.5)), (6.0, 75.0, 200.0)),
}


class SixDiceReviewer(GameReviewer):
    higher = True

    def __init__(self, race: bool) -> None:
        self.race = race
        self.unit = "win_chance" if race else "points"

    def assess(self, state: Any, player: str, legal: list[str], move: str) -> Assessment | None:
        view = sixdice.view(state, player)
        if not self.race and ai._mode(view, player, "strong")[0] != "points":
            return None
        values = ai.evaluate(view, player, legal, "strong")
        if self.race:  # chances; "not allowed" (a stop that cannot win) is a sure loss
            values = {m: min(1.0, max(0.0, v)) for m, v in values.items()}
        if move not in values:
            return None
        return Assessment(values, move)

    def moment(
        self, view: dict[str, Any], player: str, before: Sequence[str]
    ) -> tuple[str, dict[str, Any]]:
        """ "Round 4, roll 3 of the turn": the round and the player's rolls
        so far this turn."""
        return "roll", {
            "round": int(view.get("round") or 1),
            "roll": max(1, own_rolls_this_turn(player, before)),
        }

    def before(self, state: Any, player: str, move: str) -> Any:
        if move != "roll":
            return None
        view = sixdice.view(state, player)
        opts = view["options"]
        key = policy.rules_key(opts)
        pt = policy.points_table(key, int(opts["start"]), int(opts["target"]), 0.0)
        started = bool(view["started"][player])
        score = int(view["scores"][player])
        n = 6 if view["hot_dice"] else int(view["dice_left"])
        return pt, key, opts, n, int(view["turn_total"]), score, started

    def luck(
        self, memo: Any, state: Any, player: str, move: str, events: Sequence[Event]
    ) -> list[tuple[str, Luck]]:
        if memo is None or any(e.kind == "mishap" for e in events):
            return []
        roll = next((e for e in events if e.kind == "roll"), None)
        if roll is None:
            return []
        pt, key, opts, n, total, score, started = memo
        if len(roll.data["dice"]) != n:
            return []
        table = pt.table
        c = pt.context(score, started)
        b = policy.bucket(total)
        top = table.v.shape[1] - 1
        fail = (-float(score) if started else -1000.0) if n == 6 else 0.0

        def value(prof: Sequence[tuple[int, int]]) -> float:
            return float(max(table.w(left, min(top, b + shift), c) for left, shift in prof))

        rc = policy.roll_classes(key)
        outcomes = [(p, value(prof)) for p, prof in rc.classes[n]]
        outcomes.append((rc.fail[n], fail))
        best: dict[int, int] = {}
        for sel, points in scoring_selections(roll.data["dice"], opts):
            left = n - len(sel)
            best[left] = max(best.get(left, 0), points)
        if best:
            actual = value([(left, max(1, policy.bucket(p))) for left, p in best.items()])
        else:
            actual = fail
        return [(player, mid_percentile(outcomes, actual))]


def reviewer(record: Record) -> GameReviewer:
    return SixDiceReviewer(len(record.players) == 2)
