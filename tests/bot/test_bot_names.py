"""Names and notation as people read them (issue 18, "Names and notation"):
Yahtzee's log names the box in the table's language, never its engine key."""

from __future__ import annotations

import pytest
from simtable import taken

from games.yahtzee.scoring import BOXES


@pytest.mark.parametrize(
    ("lang", "box"), [("en", "Three of a kind"), ("ja", "スリーカード")]
)
async def test_yahtzee_log_names_the_box(game_night, lang, box):
    async with game_night(dice=[3, 3, 3, 4, 5], aux=[1]) as night:  # alice first
        table = await night.table("yahtzee", lang=lang)
        alice = night.alice
        await table.press("Roll", by=alice)
        assert taken(await table.choose("score three_kind", by=alice))
        assert table.shows("ev.yahtzee.score", lang, player="alice", points=18, box=box)
        assert not any(key in table.content for key in BOXES), table.content
