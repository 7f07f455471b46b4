"""Regenerate the seeded Six Dice records here: ``python tests/records/sixdice/make_records.py``.

Each record is a complete game played by a simple fixed policy (take the
best-scoring selection that keeps the most dice… see ``choose``) from a
SeededSource; ``NAME.expected.json`` is the outcome the engine gave when the
record was made (a regression check). ``round_played_out.json`` is written by
hand and its expected outcome worked out by hand.
"""

from __future__ import annotations

import json
import pathlib
from typing import Any

import games.sixdice as sd
from games.core import SeededSource, record_of

HERE = pathlib.Path(__file__).resolve().parent


def choose(state: sd.State, player: str) -> str:
    moves = sd.legal_moves(state, player)
    if moves[0].startswith("take"):
        opts = state.options
        best = max(moves, key=lambda m: (sd.score_dice(map(int, m.split()[1:]), opts) or 0)
                   - 60 * len(m.split()))
        return best
    if "stop" in moves and (state.turn_total >= 350 or state.dice_left <= 2):
        return "stop"
    return "roll"


def make(name: str, players: list[str], options: dict[str, Any], seed: str,
         want_gift: bool = False, want_mishap: bool = False) -> None:
    for attempt in range(2000):
        s = f"{seed}-{attempt}"
        state = sd.new_game(players, options, None, SeededSource(s))
        while not sd.is_finished(state):
            p = sd.to_move(state)[0]
            sd.apply(state, p, choose(state, p))
        if (not want_gift or any(state.gifts.values())) and (
            not want_mishap or state.source.mishaps_log
        ):
            break
    rec = record_of("sixdice", state).to_json()
    (HERE / f"{name}.json").write_text(json.dumps(rec, ensure_ascii=False) + "\n", encoding="utf-8")
    out = sd.outcome(state)
    (HERE / f"{name}.expected.json").write_text(json.dumps(out, ensure_ascii=False, indent=1) + "\n",
                                                encoding="utf-8")
    print(name, s, len(rec["moves"]), "moves", out["settlement"])


if __name__ == "__main__":
    make("two_players_default", ["ayumi", "ken"], {}, "two")
    make("four_players_additive_mishaps", ["ann", "bo", "chie", "dai"],
         {"kinds": "additive", "four_and_pair_is_nikoniko": True, "bowl_mishaps": True,
          "target": 4000, "straight": 2500}, "four", want_mishap=True)
    make("gift_three_players", ["ume", "sakura", "momo"], {"target": 3000, "start": 500},
         "gift", want_gift=True)
    make("solo", ["hitori"], {"target": 3000}, "solo")
