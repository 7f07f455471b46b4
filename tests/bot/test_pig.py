"""The boundary is real: Pig, a sixth game that lives only under tests/
(tests/pig: engine, AI, spec, bot plugin, catalogue entries), is registered
and played to the end through Discord — with a restart mid-game, a turn-clock
timeout and a computer seat — while no file of bot/ names it."""

from __future__ import annotations

from pathlib import Path

import pig
import pytest

from bot.i18n import t
from bot.turns import first_turn_seconds
from games import registry
from games.core import Record

BOT = Path(__file__).resolve().parents[2] / "bot"


@pytest.fixture(autouse=True)
def pig_registered():
    pig.install()
    yield
    pig.uninstall()


async def turn_total(table) -> int:
    row = await table.row()
    return int(row.state["turn_total"])


async def play_to_the_end(table, *, restart_at: int | None = None, hold_at: int = 8) -> int:
    """Roll until the turn holds ``hold_at`` points, then hold; returns the presses."""
    for step in range(2000):
        if table.over:
            return step
        if step == restart_at:
            await table.night.restart()
        label = "Hold" if "Hold" in table.buttons and await turn_total(table) >= hold_at else "Roll"
        res = await table.press(label)
        assert res.response is None or not res.response.ephemeral, res.response.content
    raise AssertionError("Pig did not end")


def says(text: str, key: str) -> bool:
    return t(key, "en") in text


def the_record_replays(result: dict) -> None:
    record = Record.from_json(result["record"])
    assert registry.spec(record.game).engine.outcome(registry.replay(record)) == result["outcome"]


async def test_no_file_of_bot_names_pig():
    named = [p for p in BOT.rglob("*.py") if "pig" in p.read_text(encoding="utf-8").lower()]
    assert not named


async def test_pig_is_offered_by_play_and_shows_its_own_words(game_night):
    async with game_night() as night:
        table = await night.table("pig", players=2, start=False)
        assert table.shows("lobby.title", game="Pig")
        await table.press("Start", by=night.alice)
        assert table.shows("table.turn", player=night.alice.mention)
        assert table.buttons == ["Roll"]
        await table.press("Roll")
        assert table.shows("pig.status")
        assert table.shows("ev.pig.roll") or table.shows("ev.pig.pig_out")


async def test_pig_played_to_the_end_with_a_restart(game_night):
    async with game_night() as night:
        table = await night.table("pig", players=3, options="target=30")
        presses = await play_to_the_end(table, restart_at=9)
        assert presses > 9
        assert table.shows("result.title", game="Pig")
        (result,) = await table.results()
        assert result["record"]["players"] == ["alice", "bob", "carol"]
        assert result["outcome"]["finished"] and max(result["outcome"]["scores"].values()) >= 30
        assert sorted(result["settlement"].values()) == [-1, -1, 2]
        the_record_replays(result)


async def test_a_wrong_press_is_refused_and_changes_nothing(game_night):
    async with game_night() as night:
        table = await night.table("pig", players=2)
        before = await table.row()
        res = await table.press("Roll", by=night.bob)  # not bob's turn
        assert res.response.ephemeral and says(res.response.content, "error.not_your_turn")
        assert (await table.row()).version == before.version


async def test_pig_turn_clock_plays_the_default_move(game_night):
    async with game_night() as night:
        table = await night.table("pig", players=2)
        first = table.mover
        seconds = first_turn_seconds(registry.spec("pig").turn_seconds)  # their first turn
        await night.wait(seconds - 5)
        assert (await table.row()).state["history"]["moves"] == []
        await night.wait(10)
        row = await table.row()
        assert row.state["history"]["moves"] == [f"{first.name} roll"]  # the default: roll once
        assert table.shows("ev.timeout", player=first.name, count=1, max=3)


async def test_pig_against_a_computer_to_the_end(game_night):
    async with game_night() as night:
        table = await night.table("pig", players=1, cpus=["strong"], options="target=25")
        presses = await play_to_the_end(table)
        assert presses > 0
        (result,) = await table.results()
        assert result["has_bots"]
        record = result["record"]
        assert record["players"] == ["alice", "CPU1"]
        assert any(m.startswith("CPU1 ") for m in record["moves"])  # the computer played
        the_record_replays(result)
