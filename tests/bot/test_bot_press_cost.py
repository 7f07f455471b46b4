"""What a press costs the event loop: each change of a table loads its
state once (issue 25). A press loads the stored state to apply the move;
what follows the commit — the table message, the players' DMs, the turn
ping, the computers — reads the state the commit already has, not the
stored JSON again (each load of a Sixty-Six state is ~25-45 µs here, and
~2.3 changes follow a press in bench/scale.py)."""

from __future__ import annotations

from collections import Counter

import pytest
from simtable import taken

from games import registry
from games.core import SeededSource

DICE = SeededSource("bot-press-cost-tests").roll(3000)


@pytest.fixture
def loads(monkeypatch):
    """Counts each engine's ``from_json`` (by game) while the test runs."""
    counted: Counter[str] = Counter()
    for name in registry.builtin_names():
        eng = registry.engine(name)
        original = eng.from_json

        def counting(doc, original=original, name=name):
            counted[name] += 1
            return original(doc)

        monkeypatch.setattr(eng, "from_json", counting)
    return counted


async def test_a_press_loads_the_tables_state_once(game_night, loads):
    async with game_night(dice=DICE, aux=[2]) as night:
        table = await night.table("yahtzee")
        movers = set()
        for _ in range(8):  # rolls (the same player goes on) and scores (the turn passes)
            movers.add(table.mover)
            loads.clear()
            assert taken(await table.play(by=table.mover))
            # the press's own load; the table message, the ping and the
            # rest read the committed state
            assert loads == {"yahtzee": 1}
        assert len(movers) == 2


def test_the_bot_process_tunes_its_garbage_collector():
    """``python -m bot`` keeps what is loaded at start out of later
    collections and collects the youngest objects every 20,000 new ones
    (Python's 700 cost ~1.2 ms of CPU a press in bench/scale.py, ~0.6 so)."""
    import gc

    from bot.__main__ import GC_YOUNG, tune_gc

    before = gc.get_threshold()
    try:
        tune_gc()
        assert gc.get_threshold()[0] == GC_YOUNG == 20_000
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)


async def test_the_snapshot_of_a_loaded_table_stays_as_loaded(game_night):
    """The "before" of a change keeps the row as it was loaded while the
    change adds to the log, replaces UI keys and edits nested ones; it
    shares the log's events (never edited in place) — a copy of a
    12-event log cost ~80 µs, twice or more a press."""
    from bot.events import snapshot

    async with game_night(dice=DICE, aux=[2]) as night:
        table = await night.table("yahtzee")
        for _ in range(3):
            assert taken(await table.play(by=table.mover))
        row = await table.row()
        log = list(row.ui["log"])
        assert log
        before = snapshot(row)
        row.ui.setdefault("log", []).append({"kind": "x"})
        row.ui["lang"] = "ja"
        row.ui.setdefault("turn_began", {})["player"] = "someone else"
        row.seats[0]["display"] = "changed"
        assert before.ui["log"] == log and before.ui["lang"] == "en"
        assert before.ui.get("turn_began", {}).get("player") != "someone else"
        assert before.seats[0]["display"] != "changed"
        assert before.ui["log"][0] is row.ui["log"][0]  # shared, not copied
