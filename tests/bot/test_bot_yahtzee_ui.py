"""Yahtzee with option ``triple`` on Discord (SimCord): one select per column,
so every legal box of the 39 can be chosen (a select holds 25 options at
most), a full column's select disappears, and a game plays to its end
through the selects."""

from __future__ import annotations

from simtable import exactly, taken

from games import core, registry
from games.core import SeededSource
from games.yahtzee.engine import BOXES

DICE = SeededSource("bot-yahtzee-ui-tests").roll(3000)
ENG = registry.engine("yahtzee")


async def state_of(table):
    return ENG.from_json((await table.row()).state)


def check_selects(table, state, player):
    """Every legal box is offered, each in its column's select, in the sheet's
    order, labelled with the points it would score; a column without a legal
    box has no select."""
    legal = [m for m in ENG.legal_moves(state, player) if m.startswith("score ")]
    potential = {p["move"]: p for p in ENG.potential_scores(state, player)}
    offered = table.choices
    assert sorted(offered) == sorted(legal)
    assert len(offered) == len(set(offered))
    columns = sorted({int(m.rsplit("x", 1)[1]) for m in legal})
    assert len(table.selects) == len(columns)
    for select, column in zip(table.selects, columns, strict=True):
        assert exactly(select["placeholder"], "yahtzee.select.column", column=column)
        assert select["custom_id"].endswith(f":m.x{column}")
        values = [o["value"] for o in select["options"]]
        assert all(v.endswith(f" x{column}") for v in values)
        boxes = [v.split()[1] for v in values]
        assert boxes == sorted(boxes, key=BOXES.index)
        for option in select["options"]:
            points = potential[option["value"]]["points"]
            assert exactly(option["label"], "yahtzee.option.box", points=points)
    assert len(table.rows) <= 5
    return columns


async def test_triple_offers_every_legal_box_of_every_column(game_night):
    async with game_night(dice=DICE, aux=[2]) as night:
        table = await night.table("yahtzee", options="triple=on")
        mover = table.mover
        await table.press("Roll", by=mover)
        state = await state_of(table)
        assert len([m for m in ENG.legal_moves(state, mover.name) if m[:5] == "score"]) == 39
        # five keep toggles, Reroll, and three selects of 13: the five rows
        assert check_selects(table, state, mover.name) == [1, 2, 3]
        assert [len(s["options"]) for s in table.selects] == [13, 13, 13]
        assert len(table.rows) == 5
        assert any(exactly(label, "yahtzee.btn.reroll") for label in table.buttons)
        # the last box of column ×3 is reachable (the old single select cut it)
        assert "score chance x3" in [o["value"] for o in table.selects[2]["options"]]
        assert taken(await table.choose("score chance x3", by=mover))
        after = await state_of(table)
        assert after.history.moves[-1] == f"{mover.name} score chance x3"
        assert after.sheets[mover.name][2]["chance"] == sum(state.dice)
        points = 3 * sum(state.dice)
        assert table.shows("ev.yahtzee.score", player=mover.name, points=points, box="Chance ×3")


async def test_triple_played_to_the_end_through_the_selects(game_night):
    async with game_night(dice=DICE, aux=[2]) as night:
        table = await night.table("yahtzee", options="triple=on")
        seen_columns: set[tuple[int, ...]] = set()
        turn = 0
        while not table.over:
            mover = table.mover
            state = await state_of(table)
            if ENG.legal_moves(state, mover.name) == ["roll"]:
                res = await table.press("Roll", by=mover)
            else:
                columns = check_selects(table, state, mover.name)
                seen_columns.add(tuple(columns))
                # take turns between the columns' selects; fill one box each turn
                select = table.selects[turn % len(columns)]
                choice = select["options"][turn % len(select["options"])]["value"]
                res = await table.choose(choice, by=mover)
                turn += 1
            assert taken(res)
            assert turn <= 2 * 39
        assert turn == 2 * 39
        assert table.shows("result.title", game="Yahtzee")
        # a full column's select was hidden on the way
        assert any(len(c) < 3 for c in seen_columns)
        results = await night.store.results.all()
    assert len(results) == 1
    record = core.Record.from_json(results[0]["record"])
    final = registry.replay(record)
    assert all(
        all(col[b] is not None for b in BOXES) for p in record.players for col in final.sheets[p]
    )
    assert results[0]["outcome"] == ENG.outcome(final)
