"""Computer players through Discord (SimCord): a lone human plays each of the
five games to the end against computer players added in the lobby; the
computers move through the table path (delay 0 here) and only ever receive
their own view; a restart while a computer is to move resumes it; games with
computers are stored unrated, with ``has_bots``."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
import simcord
from simtable import buttons, controls, first_choice, press
from test_bot_leaks import accepted, dm_messages

from bot import ai
from games import core, registry
from games.core import SeededSource

SETTLE = 60.0  # seconds SimCord may wait for a chain of computer moves


def make_bot(harness: Any, delay: float = 0.0) -> Any:
    bot = harness.bot()
    bot.cpu_delay = delay
    return bot


@pytest.fixture
def seeded(harness):
    """Real seeded dice and cards (the harness's scripted list would run out)."""
    harness.source = SeededSource
    return harness


@pytest.fixture
def views(monkeypatch, seeded):
    """Every computer decision, checked against the stored table when it is
    made: the AI gets exactly ``engine.view(state, cpu)`` and
    ``engine.legal_moves(state, cpu)``, never the state; in Sixty-Six no card
    of the other player's hand is in what it gets."""
    calls: list[dict[str, Any]] = []
    real = ai.choose

    async def spy(game, view, name, legal, level, rng):
        (row,) = await seeded.bots[-1].tables.store.live_tables()
        eng: Any = registry.engine(game)
        state = eng.from_json(row.state)
        assert view == eng.view(state, name)
        assert list(legal) == eng.legal_moves(state, name)
        if game == "sixtysix":
            other = 1 - state.history.players.index(name)
            told = json.dumps(view)
            hidden = [c for c in state.hands[other] if not _shown(view, c)]
            assert not [c for c in hidden if f'"{c}"' in told], (hidden, view)
        calls.append({"game": game, "name": name, "legal": list(legal), "level": level})
        return await real(game, view, name, legal, level, rng)

    monkeypatch.setattr(ai, "choose", spy)
    return calls


def _shown(view: dict[str, Any], card: str) -> bool:
    """A card of the opponent's hand that is public all the same: the partner
    of a marriage they showed, or the trump card taken by an exchange."""
    told = json.dumps({k: v for k, v in view.items() if k not in ("hand", "legal")})
    return (
        f'"{card}"' in json.dumps(view.get("marriages", []))
        or card == view.get("trump_card")
        or ("exchange" in told and card[-1] == view.get("trump"))
    )


async def lobby(env, channel, host, game, levels, options=None):
    kwargs = {"game": game}
    if options:
        kwargs["options"] = options
    res = await host.slash(channel, "play", **kwargs)
    msg = res.response
    for level in levels:
        accepted(await host.click(msg, label=f"Add computer ({level})"))
    return msg


def mover(content: str) -> str | None:
    """``<@id>`` of a human to move, ``CPUn`` of a computer, ``None`` = over."""
    m = re.search(r"Turn: (<@\d+>|CPU\d+)", content)
    return m.group(1) if m else None


def sixtysix_choice(env, handle) -> tuple[Any, tuple[str, str, str | None]]:
    """The human's Sixty-Six move from their DM: declare at 66, pass,
    exchange, draw, a marriage, else the first card."""
    private = dm_messages(env, handle)[-1]
    stored = env.backend.get_message(private.channel.id, private.id)
    ctl = [c for c in _walk(stored.components) if c.get("type") in (2, 3)]
    btn = {c["custom_id"].split(":", 3)[3]: c["custom_id"] for c in ctl if c["type"] == 2}
    points = re.search(r"Your points this deal: (\d+)", private.content)
    if "m:declare" in btn and points and int(points.group(1)) >= 66:
        return private, ("click", btn["m:declare"], None)
    for word in ("m:pass", "m:exchange", "m:draw"):
        if word in btn:
            return private, ("click", btn[word], None)
    for c in ctl:
        if c["type"] == 3:
            values = [o["value"] for o in c["options"]]
            pick = next((v for v in values if v.startswith("marry")), values[0])
            return private, ("select", c["custom_id"], pick)
    raise AssertionError(f"no move offered: {btn}")


def _walk(components):
    for c in components or []:
        yield c
        yield from _walk(c.get("components"))


async def play_human(env, msg, human, handle, game, *, limit=400) -> int:
    """Play the human's turns until the game is over; the computers answer
    within each press. Returns the number of human presses."""
    tag = f"<@{human.id}>"
    for step in range(limit):
        if not controls(msg):
            return step
        who = mover(msg.content)
        if who != tag:
            await env.settle()
            who = mover(msg.content)
            if not controls(msg):
                return step
        assert who == tag, f"a computer did not move: {msg.content}"
        if game == "sixtysix":
            private, choice = sixtysix_choice(env, handle)
            accepted(await press(handle, private, choice))
        else:
            prefer = {"sixdice": ("m:stop",), "bluff": ("m:reveal", "m:roll")}.get(game, ())
            accepted(await press(human, msg, first_choice(msg, prefer)))
    raise AssertionError("the game did not end")


GAMES = [
    ("sixdice", "target=2000 start=300", ["strong", "easy"]),
    ("nine", None, ["strong", "normal"]),
    ("yahtzee", None, ["strong"]),
    ("bluff", None, ["strong", "easy"]),
    ("sixtysix", "target=2", ["normal"]),
]


@pytest.mark.parametrize(("game", "options", "levels"), GAMES, ids=[g[0] for g in GAMES])
async def test_a_human_plays_computers_to_the_end(seeded, views, game, options, levels):
    if game == "yahtzee":
        ai.warm_up_now("yahtzee", {})  # in this process, before the bot runs
    async with simcord.run(make_bot(seeded), settle_timeout=SETTLE) as env:
        guild = env.create_guild()
        channel = guild.create_text_channel(game)
        handle = env.create_user("alice")
        alice = guild.add_member(handle)
        msg = await lobby(env, channel, alice, game, levels, options)
        for i, level in enumerate(levels, start=1):
            assert f"CPU{i} ({level})" in msg.content
        await alice.click(msg, label="Start")
        presses = await play_human(env, msg, alice, handle, game)
        assert presses > 0
        assert "the game is over" in msg.content
        store = seeded.bots[-1].tables.store
        results = await store.results()
        players = await result_players(store)
        assert await store.live_tables() == []
    # the computers moved, and only ever from their own view and legal moves
    assert views, "no computer decision was made"
    eng: Any = registry.engine(game)
    record = core.Record.from_json(results[0]["record"])
    names = set(record.players)
    assert names == {"alice"} | {f"CPU{i}" for i in range(1, len(levels) + 1)}
    for call in views:
        assert call["name"] in names and call["name"].startswith("CPU")
        assert call["level"] in levels
    row = results[0]
    assert row["has_bots"]
    assert players == [(alice.id, 0)]  # computers have no result row; unrated
    assert eng.outcome(registry.replay(record)) == row["outcome"]


async def result_players(store) -> list[tuple[int, int]]:
    async with store.db.execute("SELECT user_id, rated FROM result_players") as cur:
        return [tuple(r) for r in await cur.fetchall()]


async def test_restart_while_a_computer_is_to_move(seeded):
    async with simcord.run(make_bot(seeded), settle_timeout=SETTLE) as env:
        guild = env.create_guild()
        channel = guild.create_text_channel("nine")
        alice = guild.add_member(env.create_user("alice"))
        msg = await lobby(env, channel, alice, "nine", ["strong"])
        stalled = seeded.bots[-1]
        stalled.tables.bus.unsubscribe(stalled.computers.on_commit)  # its computers stall
        await alice.click(msg, label="Start")
        for _ in range(6):  # alice plays until the computer is to move
            if mover(msg.content) == "CPU1":
                break
            accepted(await press(alice, msg, first_choice(msg)))
        assert mover(msg.content) == "CPU1", msg.content
        await env.settle()
        assert mover(msg.content) == "CPU1"  # nobody moved for it
        before = (await seeded.bots[-1].tables.store.get_table(1)).version
        await env.restart_bot(make_bot(seeded))
        await env.settle()
        row = await seeded.bots[-1].tables.store.get_table(1)
        assert row is None or row.version > before
        assert mover(msg.content) != "CPU1", msg.content  # it moved after the restart


async def test_lobby_add_and_remove_computers_host_only(seeded):
    async with simcord.run(make_bot(seeded), settle_timeout=SETTLE) as env:
        guild = env.create_guild()
        channel = guild.create_text_channel("bluff")
        alice = guild.add_member(env.create_user("alice"))
        bob = guild.add_member(env.create_user("bob"))
        res = await alice.slash(channel, "play", game="bluff")
        msg = res.response
        # a lone player cannot start Bluff …
        res = await alice.click(msg, label="Start")
        assert res.response.ephemeral and "At least 2" in res.response.content
        assert "Remove computer" not in buttons(msg)
        # … only the host adds computer players
        res = await bob.click(msg, label="Add computer (easy)")
        assert res.response.ephemeral and "Only the host" in res.response.content
        for level in ("easy", "strong", "normal"):
            accepted(await alice.click(msg, label=f"Add computer ({level})"))
        assert "CPU1 (easy)" in msg.content and "CPU3 (normal)" in msg.content
        accepted(await alice.click(msg, label="Remove computer"))
        assert "CPU3" not in msg.content and "CPU2 (strong)" in msg.content
        res = await bob.click(msg, label="Remove computer")
        assert res.response.ephemeral
        # the host leaving with only computers left closes the table
        accepted(await alice.click(msg, label="Leave"))
        assert "was closed" in msg.content
        assert await seeded.bots[-1].tables.store.live_tables() == []


async def test_computers_rated_when_the_server_says_so(seeded):
    async with simcord.run(make_bot(seeded), settle_timeout=SETTLE) as env:
        guild = env.create_guild()
        channel = guild.create_text_channel("nine")
        alice = guild.add_member(env.create_user("alice"))
        store = seeded.bots[-1].tables.store
        await store.set_guild_setting(guild.id, "bots_rated", True)
        msg = await lobby(env, channel, alice, "nine", ["easy"])
        await alice.click(msg, label="Start")
        await play_human(env, msg, alice, None, "nine")
        results = await store.results()
        players = await result_players(store)
    assert results[0]["has_bots"] and players == [(alice.id, 1)]


async def test_the_computer_moves_after_a_natural_delay(seeded):
    """With a 0.25 s delay, the computer's two moves (roll, flip) after the
    human's turn take at least 0.5 s (SimCord's clock)."""
    async with simcord.run(make_bot(seeded, delay=0.25), settle_timeout=SETTLE) as env:
        guild = env.create_guild()
        channel = guild.create_text_channel("nine")
        alice = guild.add_member(env.create_user("alice"))
        msg = await lobby(env, channel, alice, "nine", ["easy"])
        await alice.click(msg, label="Start")
        waited = []
        for _ in range(8):  # alice: roll (no computer moves), flip (it moves twice)
            if not controls(msg):
                break
            before = env.now()
            accepted(await press(alice, msg, first_choice(msg)))
            await env.settle()
            waited.append((env.now() - before).total_seconds())
        # no pause when no computer moves; 2 × 0.25 s when it rolls and flips
        assert all(w < 0.1 or 0.5 <= w < 0.75 for w in waited), waited
        assert any(w >= 0.5 for w in waited) and any(w < 0.1 for w in waited), waited
