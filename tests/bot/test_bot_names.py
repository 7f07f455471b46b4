"""Names and notation as people read them (issue 18, "Names and notation"):
Yahtzee's log names the box in the table's language, never its engine key;
/hint names every move as its button or menu does, in both languages."""

from __future__ import annotations

import re
from typing import Any

import pytest
from simtable import accepted, reading, taken

from bot import ai
from bot.games import plugin
from bot.i18n import t
from games import registry
from games.yahtzee.scoring import BOXES

FIRST_PRESS = {"sixdice": "m:roll", "yahtzee": "m:roll", "nine": "m:roll", "bluff": "m:roll"}


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


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("game", ["nine", "sixdice", "yahtzee", "bluff", "sixtysix"])
async def test_hint_names_moves_as_the_controls_do(game_night, game, lang):
    if game == "yahtzee":
        ai.warm_up_now("yahtzee", {})
    async with game_night(seeded=True, locales={"alice": lang}) as night:
        table = await night.table(game, players=1, cpus=["easy"], start=False)
        alice = night.alice
        await table.press("Start", by=alice)
        await night.settle()
        assert table.turn is alice, table.content
        if game in FIRST_PRESS:
            accepted(await table.play(by=alice, prefer=(FIRST_PRESS[game],)))
        (row,) = await night.store.tables.live_tables()
        eng: Any = registry.engine(game)
        state = eng.from_json(row.state)
        legal = eng.legal_moves(state, "alice")
        res = await table.command(alice, "hint")
        text = res.response.content
        lines = text.splitlines()
        title = reading(lines[0], "hint.title", lang, game=t(f"game.{game}", lang))
        assert title is not None, text
        view = eng.view(state, "alice")
        labels = [plugin(game).move_text(m, view, lang) for m in legal]
        assert title["move"] in labels, (text, labels)
        assert len(lines) > 1, text
        for line in lines:
            assert "`" not in line, line
            assert "_" not in line, line
            for move in legal:  # the engine's notation of any legal move
                assert f"**{move}**" not in line, line
                assert not line.startswith(move + " "), line
                if " " in move:
                    assert not re.search(rf"(?<!\w){re.escape(move)}(?!\w)", line), line


async def test_display_names_in_the_log_and_status(game_night):
    async with game_night(seeded=True) as night:
        bob = night.member("Bob Smith")
        table = await night.table("nine", players=[night.alice, bob])
        mover = table.mover
        await table.press("Roll", by=mover)
        assert "Bob Smith" in table.content or mover is night.alice, table.content
        assert "Bob_Smith" not in table.content, table.content
        (row,) = await night.store.tables.live_tables()
        assert "Bob_Smith" in [s["name"] for s in row.seats]  # the record keeps it
        text = await table.ask(bob, "game status")
        assert "Bob_Smith" not in text and "Bob Smith" in text, text
        if table.mover is bob:
            assert "Turn: Bob Smith" in text, text
