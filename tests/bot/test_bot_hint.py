"""/hint through Discord (SimCord): on the asker's turn, ephemeral, in their
language, the strong move and its numbers for each game; refused politely
off turn and for someone without a seat; the finished game's record names
who used hints and still replays with ``python -m games replay``."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
from typing import Any

import discord
import pytest
from simtable import accepted, reading, readings, refused, says

from bot import ai
from bot.games import plugin
from bot.i18n import t
from games import registry
from games.sixdice import ai as sixdice_ai

# the game's own sentence in each hint (Bluff: the title alone), and whether
# it has a percentage
EXPECTED = {
    "sixdice": ("hint.sixdice.dobon", True),
    "nine": ("hint.nine.flip", True),
    "yahtzee": ("hint.yahtzee.expected", False),
    "bluff": ("hint.title", True),
    "sixtysix": ("hint.sixtysix.win", False),
}
FIRST_PRESS = {"sixdice": "m:roll", "yahtzee": "m:roll", "nine": "m:roll", "bluff": "m:roll"}


@pytest.mark.parametrize("game", list(EXPECTED))
async def test_hint_on_your_turn_with_numbers(game_night, game):
    if game == "yahtzee":
        ai.warm_up_now("yahtzee", {})
    async with game_night(seeded=True) as night:
        table = await night.table(game, players=1, cpus=["easy"], start=False)
        alice, bob = night.alice, night.bob
        res = await table.command(alice, "hint")  # the lobby: no turn yet
        assert refused(res, "error.not_your_turn")
        await table.press("Start", by=alice)
        await night.settle()
        assert table.turn is alice, table.content
        if game in FIRST_PRESS:  # a decision with choices: after the roll
            accepted(await table.play(by=alice, prefer=(FIRST_PRESS[game],)))
        (row,) = await night.store.tables.live_tables()
        eng: Any = registry.engine(game)
        legal = eng.legal_moves(eng.from_json(row.state), "alice")
        res = await table.command(alice, "hint")
        text = res.response.content
        assert res.response.ephemeral, text
        title = reading(text.splitlines()[0], "hint.title", game=t(f"game.{game}"))
        view = eng.view(eng.from_json(row.state), "alice")
        labels = [plugin(game).move_text(m, view, "en") for m in legal]
        assert title is not None and title["move"] in labels, (text, labels)
        key, percent = EXPECTED[game]
        assert says(text, key), text
        assert re.search(r"\d+\.\d", text), text  # numbers
        if percent:
            assert "%" in text, text
        if game == "sixdice":  # one computer opponent: chances to win and expected points
            assert says(text, "hint.sixdice.choice_race"), text
        if game == "yahtzee":  # the keep (or box) and the expected final score of each
            choices = [
                c
                for c in readings(text, "hint.yahtzee.choice")
                if re.fullmatch(r"(Keep|Reroll all).*|.+ — \d+", c["move"])
                and re.match(r"\d+\.\d\d", c["expected"])
            ]
            assert len(choices) >= 2, text
        # not a player / not to move
        assert refused(await table.command(bob, "hint"), "error.not_in_game")
        # the use is remembered with the table
        (row,) = await night.store.tables.live_tables()
        assert row.ui.get("hints") == ["alice"]


async def test_hint_in_japanese_and_marked_in_the_record(game_night, tmp_path):
    async with game_night(seeded=True, locales={"alice": "ja"}) as night:
        table = await night.table("nine", players=1, cpus=["strong"])
        await night.settle()
        text = await table.ask(night.alice, "hint")
        assert says(text, "hint.nine.before", "ja"), text
        await table.play_to_the_end()
        assert table.shows("result.hints", players=night.alice.mention)
        results = await night.store.results.all()
    record = results[0]["record"]
    assert record["hints"] == ["alice"]
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    out = subprocess.run(
        [sys.executable, "-m", "games", "replay", str(path)],
        capture_output=True,
        text=True,
        check=True,
    )
    assert json.loads(out.stdout) == results[0]["outcome"]


async def test_no_hints_no_mark(game_night):
    async with game_night(seeded=True) as night:
        table = await night.table("nine", players=1, cpus=["easy"])
        await table.play_to_the_end()
        assert not table.shows("result.hints")
        results = await night.store.results.all()
    assert "hints" not in results[0]["record"]


@pytest.fixture
def defers(monkeypatch) -> list[dict[str, Any]]:
    """The Six Dice race tables take a while to build, and nothing is built
    yet in this process; every defer of an interaction is recorded."""
    real = sixdice_ai.warm_up

    def slow(options=None):
        time.sleep(0.5)  # longer than the check right after the build starts
        real(options)

    monkeypatch.setattr(sixdice_ai, "warm_up", slow)
    monkeypatch.setattr(ai, "_READY", {})
    calls: list[dict[str, Any]] = []
    real_defer = discord.InteractionResponse.defer

    async def defer(self, **kwargs):
        calls.append(kwargs)
        return await real_defer(self, **kwargs)

    monkeypatch.setattr(discord.InteractionResponse, "defer", defer)
    return calls


async def test_hint_answers_thinking_while_the_tables_are_built(game_night, defers):
    """Two humans, no computer: the first /hint of the process builds the Six
    Dice race table (seconds), so the coach answers "thinking…" at once
    (Discord's 3 s) and sends the hint as the follow-up."""
    async with game_night(seeded=True) as night:
        table = await night.table("sixdice", players=2, options="target=2000 start=300")
        await night.settle()
        first = table.mover
        res = await table.command(first, "hint")
        assert defers == [{"ephemeral": True, "thinking": True}]  # "thinking…" first
        text = res.response.content  # the follow-up replaces the thinking message
        assert res.ephemeral and says(text, "hint.sixdice.dobon", dice=6), text
        assert says(text, "hint.sixdice.choice_race"), text  # the chance to win
        # the tables are built now: the next /hint answers directly
        res = await table.command(first, "hint")
        assert len(defers) == 1 and res.response.ephemeral
