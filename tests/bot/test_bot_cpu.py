"""Computer players through Discord (SimCord): a lone human plays each of the
five games to the end against computer players added in the lobby; the
computers move through the table path (delay 0 here) and only ever receive
their own view; a restart while a computer is to move resumes it; games with
computers are stored unrated, with ``has_bots``."""

from __future__ import annotations

import json
from typing import Any

import pytest
from conftest import Table
from simtable import accepted, refused

from bot import ai
from bot.i18n import t
from games import core, registry


@pytest.fixture
def views(monkeypatch, harness):
    """Every computer decision, checked against the stored table when it is
    made: the AI gets exactly ``engine.view(state, cpu)`` and
    ``engine.legal_moves(state, cpu)``, never the state; in Sixty-Six no card
    of the other player's hand is in what it gets."""
    calls: list[dict[str, Any]] = []
    real = ai.choose

    async def spy(game, view, name, legal, level, rng):
        (row,) = await harness.bots[-1].tables.store.tables.live_tables()
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


async def from_the_hand(table, user) -> Any:
    """The human's Sixty-Six move from their DM: declare at 66, pass,
    exchange, draw, a marriage, else the first card."""
    hand = table.night.hand(user)
    points = hand.reading("sixtysix.private.points")
    if "m:declare" in hand.actions and points and int(points["n"]) >= 66:
        return await hand.act("m:declare")
    for word in ("m:pass", "m:exchange", "m:draw"):
        if word in hand.actions:
            return await hand.act(word)
    values = [o["value"] for o in hand.selects[0]["options"]]
    return await hand.choose(next((v for v in values if v.startswith("marry")), values[0]))


async def from_the_table(table, user) -> Any:
    prefer = {"sixdice": ("m:stop",), "bluff": ("m:reveal", "m:roll")}.get(table.game, ())
    return accepted(await table.play(by=user, prefer=prefer))


GAMES = [
    ("sixdice", "target=2000 start=300", ["strong", "easy"]),
    ("nine", None, ["strong", "normal"]),
    ("yahtzee", None, ["strong"]),
    ("bluff", None, ["strong", "easy"]),
    ("sixtysix", "target=2", ["normal"]),
]


@pytest.mark.parametrize(("game", "options", "levels"), GAMES, ids=[g[0] for g in GAMES])
async def test_a_human_plays_computers_to_the_end(game_night, views, game, options, levels):
    if game == "yahtzee":
        ai.warm_up_now("yahtzee", {})  # in this process, before the bot runs
    async with game_night(seeded=True) as night:
        table = await night.table(game, players=1, cpus=levels, options=options, start=False)
        for i, level in enumerate(levels, start=1):
            assert table.shows("cpu.display", name=f"CPU{i}", level=level)
        await table.press("Start", by=night.alice)
        policy = from_the_hand if game == "sixtysix" else from_the_table
        presses = await table.play_to_the_end(policy=policy)
        assert presses > 0
        assert table.shows("result.title", game=t(f"game.{game}"))
        results = await night.store.results.all()
        players = await result_players(night.store)
        assert await night.store.tables.live_tables() == []
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
    assert players == [(night.alice.id, 0)]  # computers have no result row; unrated
    assert eng.outcome(registry.replay(record)) == row["outcome"]


async def result_players(store) -> list[tuple[int, int]]:
    async with store.db.connection.execute("SELECT user_id, rated FROM result_players") as cur:
        return [tuple(r) for r in await cur.fetchall()]


async def test_restart_while_a_computer_is_to_move(game_night):
    async with game_night(seeded=True) as night:
        table = await night.table("nine", players=1, cpus=["strong"], start=False)
        stalled = night.bot
        stalled.tables.bus.unsubscribe(stalled.computers.on_commit)  # its computers stall
        await table.press("Start", by=night.alice)
        for _ in range(6):  # alice plays until the computer is to move
            if table.turn == "CPU1":
                break
            accepted(await table.play(by=night.alice))
        assert table.turn == "CPU1", table.content
        await night.settle()
        assert table.turn == "CPU1"  # nobody moved for it
        before = await table.row()
        await night.restart()
        await night.settle()
        row = await night.store.tables.get_table(before.id)
        assert row is None or row.version > before.version
        assert table.turn != "CPU1", table.content  # it moved after the restart


async def test_lobby_add_and_remove_computers_host_only(game_night):
    async with game_night(seeded=True) as night:
        table = await night.table("bluff", players=1, start=False)
        alice, bob = night.alice, night.bob
        # a lone player cannot start Bluff …
        assert refused(await table.press("Start", by=alice), "lobby.too_few", min=2)
        assert "Remove computer" not in table.buttons
        # … only the host adds computer players
        assert refused(await table.press("Add computer (easy)", by=bob), "lobby.host_only")
        for level in ("easy", "strong", "normal"):
            accepted(await table.press(f"Add computer ({level})", by=alice))
        assert table.shows("cpu.display", name="CPU1", level="easy")
        assert table.shows("cpu.display", name="CPU3", level="normal")
        accepted(await table.press("Remove computer", by=alice))
        assert "CPU3" not in table.content
        assert table.shows("cpu.display", name="CPU2", level="strong")
        res = await table.press("Remove computer", by=bob)
        assert res.response.ephemeral
        # the host leaving with only computers left closes the table
        accepted(await table.press("Leave", by=alice))
        assert table.shows("lobby.cancelled", game="Bluff dice")
        assert await night.store.tables.live_tables() == []


async def test_computers_rated_when_the_server_says_so(game_night):
    async with game_night(seeded=True, settings={"bots_rated": True}) as night:
        table = await night.table("nine", players=1, cpus=["easy"])
        await table.play_to_the_end()
        results = await night.store.results.all()
        players = await result_players(night.store)
    assert results[0]["has_bots"] and players == [(night.alice.id, 1)]


async def test_the_computer_moves_after_a_natural_delay(game_night):
    """With a 0.25 s delay, the computer's two moves (roll, flip) after the
    human's turn take at least 0.5 s (SimCord's clock)."""
    async with game_night(seeded=True, cpu_delay=0.25) as night:
        table = await night.table("nine", players=1, cpus=["easy"])
        waited = []
        for _ in range(8):  # alice: roll (no computer moves), flip (it moves twice)
            if table.over:
                break
            before = night.now()
            accepted(await table.play(by=night.alice))
            await night.settle()
            waited.append((night.now() - before).total_seconds())
        # no pause when no computer moves; 2 × 0.25 s when it rolls and flips
        assert all(w < 0.1 or 0.5 <= w < 0.75 for w in waited), waited
        assert any(w >= 0.5 for w in waited) and any(w < 0.1 for w in waited), waited


@pytest.mark.parametrize(("game", "options"), [("nine", None), ("sixtysix", "target=2")])
async def test_play_vs_computer_starts_at_once(game_night, game, options):
    """``/play vs:computer``: one command, no lobby to fill — the table is
    dealt with a computer seated and plays to the end."""
    async with game_night(seeded=True) as night:
        channel = night.guild.create_text_channel(f"{game}-alone")
        kwargs = {"game": game, "vs": "cpu_easy"} | ({"options": options} if options else {})
        res = await night.alice.slash(channel, "play", **kwargs)
        assert res.response is not None and not res.response.ephemeral, res
        await night.settle()
        (row,) = await night.store.tables.live_tables()
        assert row.phase == "playing"
        assert [s.get("level") for s in row.seats if s.get("bot")] == ["easy"]
        table = Table(night, res.response, game, channel)
        policy = from_the_hand if game == "sixtysix" else from_the_table
        assert await table.play_to_the_end(policy=policy) > 0
        assert table.shows("result.title", game=t(f"game.{game}"))


async def test_play_vs_computer_with_a_table_here_changes_nothing(game_night):
    async with game_night(seeded=True) as night:
        table = await night.table("nine", players=2)
        before = await table.row()
        res = await night.carol.slash(table.channel, "play", game="nine", vs="cpu_strong")
        assert res.response is not None and res.response.ephemeral
        after = await table.row()
        assert (after.version, after.seats) == (before.version, before.seats)


async def test_a_computer_moves_while_its_tables_are_built(game_night, monkeypatch):
    """The first Six Dice game against a strong computer since the bot
    started, its tables not on disk yet: the computer moves at once with a
    simple policy instead of holding the table up for the build (issue 25)."""
    import threading

    from games.sixdice import tablecache

    release = threading.Event()
    monkeypatch.setenv("CHABUDAI_AI_WORKERS", "0")  # the build runs in a thread here
    monkeypatch.setattr(ai, "_READY", {})
    monkeypatch.setattr(ai, "_WHERE", {})
    monkeypatch.setattr(tablecache, "load_or_build", lambda options, folder=None: release.wait(60))
    try:
        async with game_night(seeded=True) as night:
            table = await night.table("sixdice", players=1, cpus=["strong"], options="target=2000 start=300")
            started = night.now()
            for _ in range(40):
                await night.settle()
                row = await table.row()
                state = registry.engine("sixdice").from_json(row.state)
                if any(m.startswith("CPU1 ") for m in state.history.moves):
                    break
                if table.turn != "CPU1":
                    await table.play(by=night.alice, prefer=("m:stop",))
            assert any(m.startswith("CPU1 ") for m in state.history.moves), table.content
            assert not ai.is_ready("sixdice", row.options)  # still building
            assert (night.now() - started).total_seconds() < 2
    finally:
        release.set()
