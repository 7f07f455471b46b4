"""Nothing public reveals a secret: seeded Bluff and Sixty-Six games played
through Discord, with everything a spectator can see captured after every
press (message text, custom ids, select options, attachment bytes and alt
text) and the bot's log records.

- Twin runs: the same game played twice by a policy that sees only public
  things, with different secrets (other dice under the cup here; another
  talon order in test_bot_sixtysix.py). Until the secret can become public
  (a reveal; a card played after a draw) every spectator snapshot — picture
  bytes included — must be identical.
- Sixty-Six (test_bot_sixtysix.py): no public text, id, option or alt text
  ever names a card that sits in a hand unplayed (nor the talon).
"""

from __future__ import annotations

import logging
import random
from typing import Any

from bot import ai
from games import bluff


async def spectator_run(game_night, dice: list[int], seed: int) -> list[Any]:
    """One match by a policy that sees only public things; what a spectator
    sees after every press up to the first reveal."""
    rng = random.Random(seed)
    async with game_night(dice=dice, aux=[1 + seed % 3]) as night:
        table = await night.table("bluff", players=3, options="losses=1")
        shots = [table.spectators_see()]
        for _ in range(40):
            if table.over:
                break
            user = table.mover
            moves = [c for c in table.controls if c["type"] == 2]
            moves = [c for c in moves if not c["custom_id"].endswith(":show")]
            if table.selects and (not moves or rng.random() < 0.6):
                options = table.selects[0]["options"]
                await table.choose(options[-1 if rng.random() < 0.7 else 0]["value"], by=user)
            else:
                await table.act(rng.choice(moves)["custom_id"].split(":", 3)[3], by=user)
            if table.shows("ev.bluff.reveal"):
                break
            shots.append(table.spectators_see())
    return shots


def bot_log(caplog) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name.startswith("bot")]


async def test_bluff_public_messages_do_not_depend_on_the_dice(game_night, caplog):
    for game in ("yahtzee", "sixdice"):  # not in the middle of a run's log: a bot warms them at start
        ai.warm_up_now(game, {})
    caplog.set_level(logging.DEBUG, logger="bot")
    for seed in range(6):
        rng = random.Random(100 + seed)
        a = [rng.randint(1, 6) for _ in range(200)]
        b = [(x % 6) + 1 for x in a]  # every die different
        caplog.clear()
        shots_a = await spectator_run(game_night, a, seed)
        logs_a = bot_log(caplog)
        caplog.clear()
        shots_b = await spectator_run(game_night, b, seed)
        logs_b = bot_log(caplog)
        assert len(shots_a) >= 2
        assert shots_a == shots_b[: len(shots_a)] or shots_b == shots_a[: len(shots_b)]
        n = min(len(logs_a), len(logs_b))
        assert logs_a[:n] == logs_b[:n]
    assert bluff.RANKING[0] == "21"
