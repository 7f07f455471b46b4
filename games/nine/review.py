"""Nine's post-game review (:mod:`games.review`, docs/review.md).

Worth of a flip: the expected face-up sum left at the end under optimal play
after it (:mod:`games.nine.solver`, with tokens as docs/rules/nine.md plays them;
lower is better), the measure the strong player plays for; the chance of
上がり of each flip is given as detail. Luck of a roll: the value of the
position it leaves (the best flip's expected sum left; a token handed back
or ドボン when there is no flip) among the 36 rolls.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games import nine
from games.core import Event, Record
from games.nine import ai
from games.review import Assessment, GameReviewer, Grades, Luck, mid_percentile

# docs/review.md, "Bands and classes". Nine offers 2-4 decisions a player a
# game (too few to grade one game: games.review.MIN_DECISIONS), and its levels
# pair up: strong and normal lose ~0 (normal's p90 0.15 a decision), easy
# plays at random (median 2.57, random 2.40-2.75), from
#     python bench/review.py --only nine --games 200 --dump FILE
# So only two anchors: normal's p90 at 80 (good), random's median at 22.5;
# the inaccuracy starts at 0.2 (good ends at 0.245).
GRADES = {"sum": Grades(((0.15, 80.0), (2.5, 22.5)), (0.2, 1.5, 3.0))}


class NineReviewer(GameReviewer):
    unit = "sum"
    higher = False

    def assess(self, state: Any, player: str, legal: list[str], move: str) -> Assessment | None:
        view = nine.view(state, player)
        choices = [c for c in ai.flip_choices(view, player) if c.move in legal]
        if len(choices) < 2 or move not in {c.move for c in choices}:
            return None
        return Assessment(
            {c.move: c.remaining for c in choices},
            move,
            {"agari": {c.move: c.agari for c in choices}},
        )

    def moment(
        self, view: dict[str, Any], player: str, before: Sequence[str]
    ) -> tuple[str, dict[str, Any]]:
        """ "Round 3": a flip follows the player's own roll; every player
        rolls once a round."""
        rolls = sum(1 for text in before if text == f"{player} roll")
        return "round", {"round": max(1, rolls)}

    def before(self, state: Any, player: str, move: str) -> Any:
        if move != "roll":
            return None
        view = nine.view(state, player)
        return list(view["up"][player]), int(view["tokens"][player])

    def luck(
        self, memo: Any, state: Any, player: str, move: str, events: Sequence[Event]
    ) -> list[tuple[str, Luck]]:
        if memo is None:
            return []
        roll = next((e for e in events if e.kind == "roll"), None)
        if roll is None:
            return []
        up, tokens = memo
        outcomes = [(p, -_roll_value(up, tokens, dice)) for dice, p in _ordered_rolls()]
        actual = -_roll_value(up, tokens, tuple(roll.data["dice"]))
        return [(player, mid_percentile(outcomes, actual))]


def _ordered_rolls() -> list[tuple[tuple[int, int], float]]:
    """The 21 rolls (a ≤ b) with their chances."""
    out = []
    for a in range(1, 7):
        for b in range(a, 7):
            out.append(((a, b), (1 if a == b else 2) / 36))
    return out


def _roll_value(up: list[int], tokens: int, dice: tuple[int, ...]) -> float:
    """The expected sum left after these dice (the best flip, else the token
    handed back, else ドボン)."""
    tables = ai.tables()
    choices = tables.choices(up, tokens, dice)
    if choices:
        return min(c.remaining for c in choices)
    gained = tokens + (1 if dice[0] == dice[1] else 0)
    if gained > 0:
        return tables.expected_remaining(up, gained - 1)
    return float(sum(up))


def reviewer(record: Record) -> GameReviewer:
    return NineReviewer()
