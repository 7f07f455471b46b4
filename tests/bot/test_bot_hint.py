"""/hint through Discord (SimCord): on the asker's turn, ephemeral, in their
language, the strong move and its numbers for each game; refused politely
off turn and for someone without a seat; the finished game's record names
who used hints and still replays with ``python -m games replay``."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from typing import Any

import discord
import pytest
import simcord
from simlocale import locales
from simtable import first_choice, press
from test_bot_cpu import SETTLE, lobby, make_bot, mover, play_human, seeded  # noqa: F401
from test_bot_leaks import accepted

from bot import ai
from games import registry

# the game's own words in each hint, and whether it has a percentage
EXPECTED = {
    "sixdice": ("Chance of ドボン with", True),
    "nine": ("chance of 上がり", True),
    "yahtzee": ("Expected final score", False),
    "bluff": ("", True),
    "sixtysix": ("Estimated chance to win the deal", False),
}
FIRST_PRESS = {"sixdice": "m:roll", "yahtzee": "m:roll", "nine": "m:roll", "bluff": "m:roll"}


@pytest.mark.parametrize("game", list(EXPECTED))
async def test_hint_on_your_turn_with_numbers(seeded, game):  # noqa: F811
    if game == "yahtzee":
        ai.warm_up_now("yahtzee", {})
    async with simcord.run(make_bot(seeded), settle_timeout=SETTLE) as env:
        guild = env.create_guild()
        channel = guild.create_text_channel(game)
        handle = env.create_user("alice")
        alice = guild.add_member(handle)
        bob = guild.add_member(env.create_user("bob"))
        msg = await lobby(env, channel, alice, game, ["easy"])
        res = await alice.slash(channel, "hint")  # the lobby: no turn yet
        assert res.response.ephemeral and "not your turn" in res.response.content
        await alice.click(msg, label="Start")
        await env.settle()
        assert mover(msg.content) == f"<@{alice.id}>", msg.content
        if game in FIRST_PRESS:  # a decision with choices: after the roll
            accepted(await press(alice, msg, first_choice(msg, (FIRST_PRESS[game],))))
        store = seeded.bots[-1].tables.store
        (row,) = await store.live_tables()
        eng: Any = registry.engine(game)
        legal = eng.legal_moves(eng.from_json(row.state), "alice")
        res = await alice.slash(channel, "hint")
        text = res.response.content
        assert res.response.ephemeral, text
        move = re.search(r"\*\*(.+?)\*\*", text.splitlines()[0]).group(1)
        assert move in legal, (move, legal)
        words, percent = EXPECTED[game]
        assert words in text, text
        assert re.search(r"\d+\.\d", text), text  # numbers
        if percent:
            assert "%" in text, text
        if game == "sixdice":  # one computer opponent: chances to win and expected points
            assert "to win" in text and "points expected" in text, text
        if game == "yahtzee":  # the keep (or box) and the expected final score of each
            assert len(re.findall(r"`(keep|score)[^`]*` → \d+\.\d\d", text)) >= 2, text
        # not a player / not to move
        res = await bob.slash(channel, "hint")
        assert res.response.ephemeral and "not in this game" in res.response.content
        # the use is remembered with the table
        (row,) = await store.live_tables()
        assert row.ui.get("hints") == ["alice"]


async def test_hint_in_japanese_and_marked_in_the_record(seeded, tmp_path):  # noqa: F811
    with locales({}) as by_user:
        async with simcord.run(make_bot(seeded), settle_timeout=SETTLE) as env:
            guild = env.create_guild()
            channel = guild.create_text_channel("nine")
            handle = env.create_user("alice")
            alice = guild.add_member(handle)
            by_user[alice.id] = "ja"
            msg = await lobby(env, channel, alice, "nine", ["strong"])
            await alice.click(msg, label="Start")
            await env.settle()
            res = await alice.slash(channel, "hint")
            assert res.response.ephemeral
            assert "上がりになる確率" in res.response.content, res.response.content
            await play_human(env, msg, alice, handle, "nine")
            assert "Hints were used by: <@" in msg.content
            results = await seeded.bots[-1].tables.store.results()
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


async def test_no_hints_no_mark(seeded):  # noqa: F811
    async with simcord.run(make_bot(seeded), settle_timeout=SETTLE) as env:
        guild = env.create_guild()
        channel = guild.create_text_channel("nine")
        handle = env.create_user("alice")
        alice = guild.add_member(handle)
        msg = await lobby(env, channel, alice, "nine", ["easy"])
        await alice.click(msg, label="Start")
        await play_human(env, msg, alice, handle, "nine")
        assert "Hints were used" not in msg.content
        results = await seeded.bots[-1].tables.store.results()
    assert "hints" not in results[0]["record"]


async def test_hint_answers_thinking_while_the_tables_are_built(seeded, monkeypatch):  # noqa: F811
    """Two humans, no computer: the first /hint of the process builds the Six
    Dice race table (seconds), so the coach answers "thinking…" at once
    (Discord's 3 s) and sends the hint as the follow-up."""
    import time

    from bot import ai
    from games.sixdice import ai as sixdice_ai

    real = sixdice_ai.warm_up

    def slow(options=None):
        time.sleep(0.5)  # longer than the check right after the build starts
        real(options)

    monkeypatch.setattr(sixdice_ai, "warm_up", slow)
    monkeypatch.setattr(ai, "_READY", {})
    defers = []
    real_defer = discord.InteractionResponse.defer

    async def defer(self, **kwargs):
        defers.append(kwargs)
        return await real_defer(self, **kwargs)

    monkeypatch.setattr(discord.InteractionResponse, "defer", defer)
    async with simcord.run(make_bot(seeded), settle_timeout=SETTLE) as env:
        guild = env.create_guild()
        channel = guild.create_text_channel("sixdice")
        alice = guild.add_member(env.create_user("alice"))
        bob = guild.add_member(env.create_user("bob"))
        msg = await lobby(env, channel, alice, "sixdice", [], "target=2000 start=300")
        accepted(await bob.click(msg, label="Join"))
        await alice.click(msg, label="Start")
        await env.settle()
        first = alice if mover(msg.content) == f"<@{alice.id}>" else bob
        res = await first.slash(channel, "hint")
        assert defers == [{"ephemeral": True, "thinking": True}]  # "thinking…" first
        text = res.response.content  # the follow-up replaces the thinking message
        assert res.ephemeral and "Chance of ドボン with 6 dice" in text and "to win" in text, text
        # the tables are built now: the next /hint answers directly
        res = await first.slash(channel, "hint")
        assert len(defers) == 1 and res.response.ephemeral
