"""Bluff dice's post-game review (:mod:`games.review`, docs/review.md).

Worth of a move: the chance that it loses the life (lower is better), from
the strong player's probability model (:mod:`games.bluff.ai`):

- facing an announcement: ``reveal`` loses when the announcement is true
  (:func:`games.bluff.ai.chance_true`), ``roll`` by the model's estimate
  of the next player's answer (:func:`games.bluff.ai.losses`). A pass
  (announcing without rolling) that was made is valued the same way, but a
  pass is never the suggested move: the strong player passes only when its
  dice surely carry the value, as the bench found that passing more often
  loses more games than the model predicts (docs/ai_dice.md);
- after rolling: each announcement by the chance the next player reveals it
  (:func:`games.bluff.ai.reveal_chance`) and whether it is true.

What the player knew: their own look under the cup. A roller may always look
(the bot shows a person their dice), so the review assumes every roller
looked; a passed cup is judged as the model judges it, never with the dice.

Luck of a roll: the strength of the dice rolled among the 21 values.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games import bluff
from games.bluff import ai
from games.bluff.engine import STRENGTH, stronger, value_of
from games.core import Event, Record
from games.review import Assessment, GameReviewer, Grades, Luck, mid_percentile

# docs/review.md, "Bands and classes". The accuracy's anchors: (average loss
# per decision, accuracy) — each level's measured median loss mapped into the
# middle of its band (normal 80: good, easy 57.5: fair, random 22.5: needs
# work; strong 95 where its median is not 0), from
#     python bench/review.py --only bluff --games 200 --dump FILE
# medians (chance to lose a life, a decision; 2 and 3 seats): strong 0 and 0,
# normal 0.048 and 0.046, easy 0.104 and 0.106, random 0.37 and 0.32. The
# classes: the least loss of an inaccuracy (at most where good ends: 0.067),
# a mistake and a blunder.
GRADES = {"lose_chance": Grades(((0.047, 80.0), (0.105, 57.5), (0.34, 22.5)), (0.05, 0.15, 0.30))}


class BluffReviewer(GameReviewer):
    unit = "lose_chance"
    higher = False

    def assess(self, state: Any, player: str, legal: list[str], move: str) -> Assessment | None:
        view = bluff.view(state, player)
        values: dict[str, float] = {}
        if view["phase"] == "announce":
            seen = view.get("cup_seen")
            if not seen:
                return None
            mine = value_of(seen)
            for m in legal:
                v = m.split()[1]
                values[m] = ai._announce_loss(v, 0.0 if stronger(v, mine) else 1.0)
        elif view["phase"] == "choose":
            est = ai.losses(view)
            for m in ("reveal", "roll"):
                if m in est and m in legal:
                    values[m] = est[m]
            if move.startswith("announce "):
                # a pass, by the model's estimate; never suggested (see above)
                v = move.split()[1]
                values[move] = ai._announce_loss(v, ai.chance_true(view, v))
        if move not in values:
            return None
        return Assessment(values, move)

    def moment(
        self, view: dict[str, Any], player: str, before: Sequence[str]
    ) -> tuple[str, dict[str, Any]]:
        """ "Game 3": a game ends when someone loses a life (the table's
        game number)."""
        return "round", {"round": int(view.get("game_number") or 1)}

    def luck(
        self, memo: Any, state: Any, player: str, move: str, events: Sequence[Event]
    ) -> list[tuple[str, Luck]]:
        if move != "roll" or state.cup is None:
            return []
        outcomes = [(p, float(STRENGTH[v])) for v, p in ai.CHANCE.items()]
        return [(player, mid_percentile(outcomes, float(STRENGTH[value_of(state.cup)])))]

    def after(self, state: Any, player: str, move: str) -> None:
        if move == "roll" and not state.over:
            bluff.peek(state, player)  # the roller looks (see the module docstring)


def reviewer(record: Record) -> GameReviewer:
    return BluffReviewer()
