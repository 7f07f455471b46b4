"""Yahtzee with option ``triple`` on Discord (SimCord): one select per column,
so every legal box of the 39 can be chosen (a select holds 25 options at
most), a full column's select disappears, and a game plays to its end
through the selects."""

from __future__ import annotations

import simcord
from simtable import controls, mover_of, open_table, press

from games import core, registry
from games.core import SeededSource
from games.yahtzee.engine import BOXES

DICE = SeededSource("bot-yahtzee-ui-tests").roll(3000)
ENG = registry.engine("yahtzee")


async def _state(harness):
    rows = await harness.bots[-1].tables.store.live_tables()
    assert len(rows) == 1
    return ENG.from_json(rows[0].state)


def _selects(message):
    return [c for c in controls(message) if c["type"] == 3]


def _rows(message):
    return [c for c in message.components if c.get("type") == 1]


def _check_selects(message, state, player):
    """Every legal box is offered, each in its column's select, in the sheet's
    order, labelled with the points it would score; a column without a legal
    box has no select."""
    legal = [m for m in ENG.legal_moves(state, player) if m.startswith("score ")]
    potential = {p["move"]: p for p in ENG.potential_scores(state, player)}
    selects = _selects(message)
    offered = [o["value"] for s in selects for o in s["options"]]
    assert sorted(offered) == sorted(legal)
    assert len(offered) == len(set(offered))
    columns = sorted({int(m.rsplit("x", 1)[1]) for m in legal})
    assert [s["placeholder"] for s in selects] == [f"Score in column ×{c}…" for c in columns]
    for select, column in zip(selects, columns, strict=True):
        assert select["custom_id"].endswith(f":m.x{column}")
        values = [o["value"] for o in select["options"]]
        assert all(v.endswith(f" x{column}") for v in values)
        boxes = [v.split()[1] for v in values]
        assert boxes == sorted(boxes, key=BOXES.index)
        for option in select["options"]:
            assert option["label"].endswith(f" — {potential[option['value']]['points']}")
    assert len(_rows(message)) <= 5
    return columns


async def test_triple_offers_every_legal_box_of_every_column(harness):
    harness.dice = DICE
    harness.aux = [2]
    async with simcord.run(harness.bot()) as env:
        guild = env.create_guild()
        channel = guild.create_text_channel("yahtzee")
        users = [guild.add_member(env.create_user(n)) for n in ("alice", "bob")]
        msg = await open_table(env, channel, users[0], users[1:], "yahtzee", "triple=on")
        mover = mover_of(msg, users)
        await mover.click(msg, label="Roll")
        state = await _state(harness)
        assert len([m for m in ENG.legal_moves(state, mover.name) if m[:5] == "score"]) == 39
        # five keep toggles, Reroll, and three selects of 13: the five rows
        assert _check_selects(msg, state, mover.name) == [1, 2, 3]
        assert [len(s["options"]) for s in _selects(msg)] == [13, 13, 13]
        assert len(_rows(msg)) == 5
        assert any(c["type"] == 2 and c["label"].startswith("Reroll") for c in controls(msg))
        # the last box of column ×3 is reachable (the old single select cut it)
        last = _selects(msg)[2]
        res = await mover.select(msg, ["score chance x3"], custom_id=last["custom_id"])
        assert res.response is None or not res.response.ephemeral
        after = await _state(harness)
        assert after.history.moves[-1] == f"{mover.name} score chance x3"
        assert after.sheets[mover.name][2]["chance"] == sum(state.dice)
        assert f"{mover.name} scored {3 * sum(state.dice)} in chance." in msg.content


async def test_triple_played_to_the_end_through_the_selects(harness):
    harness.dice = DICE
    harness.aux = [2]
    async with simcord.run(harness.bot()) as env:
        guild = env.create_guild()
        channel = guild.create_text_channel("yahtzee")
        users = [guild.add_member(env.create_user(n)) for n in ("alice", "bob")]
        msg = await open_table(env, channel, users[0], users[1:], "yahtzee", "triple=on")
        seen_columns: set[tuple[int, ...]] = set()
        turn = 0
        while controls(msg):
            mover = mover_of(msg, users)
            state = await _state(harness)
            if ENG.legal_moves(state, mover.name) == ["roll"]:
                res = await mover.click(msg, label="Roll")
            else:
                columns = _check_selects(msg, state, mover.name)
                seen_columns.add(tuple(columns))
                # take turns between the columns' selects; fill one box each turn
                select = _selects(msg)[turn % len(columns)]
                choice = select["options"][turn % len(select["options"])]["value"]
                res = await press(mover, msg, ("select", select["custom_id"], choice))
                turn += 1
            assert res.response is None or not res.response.ephemeral
            assert turn <= 2 * 39
        assert turn == 2 * 39
        assert "the game is over" in msg.content
        # a full column's select was hidden on the way
        assert any(len(c) < 3 for c in seen_columns)
        results = await harness.bots[-1].tables.store.results()
    assert len(results) == 1
    record = core.Record.from_json(results[0]["record"])
    final = registry.replay(record)
    assert all(
        all(col[b] is not None for b in BOXES) for p in record.players for col in final.sheets[p]
    )
    assert results[0]["outcome"] == ENG.outcome(final)
