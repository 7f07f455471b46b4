"""Sixty-Six's post-game review (:mod:`games.review`, docs/review.md).

Worth of a move: its mean game points of the deal (+3 … −3, from the
player's side) over deals sampled consistently with what the player knew at
that moment — the strong player's perfect-information Monte Carlo
(:mod:`games.sixtysix.ai`: :func:`~games.sixtysix.ai.knowledge`,
:func:`~games.sixtysix.ai.sample`, the solver), computed from the player's
own view (``engine.view(state, player)``) only: never the opponent's hand or
the talon order. Every candidate is scored on the same samples; the random
source is seeded from the player's name and the number of moves played so far
(public), so a review is the same every time and the same for two deals
that differ only in what the player could not see.

Not reviewed: the moves every level makes without thinking (declaring at
66, passing, exchanging the trump 9), declarations out of turn, and a
single legal move. ``play`` of a card whose marriage could have been shown
is valued as the marriage (the search treats both as the card).
Sixty-Six has no dice: no luck line.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence
from typing import Any

from games import sixtysix
from games.core import Record
from games.review import Assessment, GameReviewer, Grades
from games.sixtysix import ai

# The review's search: the strong player's method with fewer samples, two
# plies beyond the candidate while the talon is open and 30,000 solver nodes
# a decision, so that a whole match (100-150 decisions) takes ~2.5 s of CPU
# (docs/review.md, bench/review.py).
LEVEL = ai.Level(16, 6, 12, 2, True, 0.0, 30_000, 3)


# docs/review.md, "Bands and classes". The accuracy's anchors: (average loss
# per decision, accuracy) — each level's measured median loss mapped into the
# middle of its band (normal 80: good, easy 57.5: fair, random 22.5: needs
# work; strong 95 where its median is not 0), from
#     python bench/review.py --only sixtysix --sixtysix-games 200 --workers 1 --dump FILE
# (200 matches a level, 79 min) medians (game points a decision): strong
# 0.0366, normal 0.0634, easy 0.234, random 0.673. The classes: the least loss
# of an inaccuracy (at most where good ends: 0.112), a mistake and a blunder.
GRADES = {
    "game_points": Grades(
        ((0.037, 95.0), (0.063, 80.0), (0.23, 57.5), (0.67, 22.5)), (0.1, 0.5, 1.0)
    )
}


class SixtySixReviewer(GameReviewer):
    unit = "game_points"
    higher = True

    def assess(self, state: Any, player: str, legal: list[str], move: str) -> Assessment | None:
        if player not in sixtysix.to_move(state):
            return None
        view = sixtysix.view(state, player)
        if ai._forced(view, player, legal) is not None:
            return None
        cands = list(dict.fromkeys(ai._card_moves(legal).values()))
        if view.get("phase") == "draw" and "draw" in legal:
            cands.append("draw")
        if "close" in legal:
            cands.append("close")
        if move not in cands:
            if not move.startswith(("play ", "marry ")):
                return None
            cands.append(move)
        if len(cands) < 2:
            return None
        seed = hashlib.sha256(f"review:{player}:{len(state.history.moves)}".encode()).digest()
        return Assessment(_evaluate(view, player, cands, random.Random(seed)), move)

    def moment(
        self, view: dict[str, Any], player: str, before: Sequence[str]
    ) -> tuple[str, dict[str, Any]]:
        """ "Deal 2, trick 5": the table's deal and the trick being played."""
        tricks = view.get("tricks") or {}
        return "trick", {
            "deal": int(view.get("deal") or 1),
            "trick": sum(int(n) for n in tricks.values()) + 1,
        }


def _evaluate(
    view: dict[str, Any], me: str, cands: list[str], rng: random.Random
) -> dict[str, float]:
    """Mean game points of every candidate over the same sampled deals
    (:func:`games.sixtysix.ai.evaluate`'s loop, for a given candidate list)."""
    k = ai.knowledge(view, me)
    lv = LEVEL
    if k.closed or k.talon_size == 0:
        n = 1 if k.talon_size == 0 and "played" in view else lv.closed_samples
    elif k.talon_size <= 4:
        n = lv.late_samples
    else:
        n = lv.samples
    total = dict.fromkeys(cands, 0.0)
    nodes = [0]
    done = 0
    while done < n and (done < lv.min_samples or nodes[0] < lv.budget):
        pos = ai.sample(k, rng, nodes)
        for m in cands:
            total[m] += ai._score(pos, m, lv.plies)
        done += 1
    return {m: total[m] / done for m in cands}


def reviewer(record: Record) -> GameReviewer:
    return SixtySixReviewer()
