"""An upgrade keeps a live database working: the database an earlier main
wrote, with games in progress and their buttons posted in Discord, is opened
by today's bot (the store migrates it at open), and the OLD posted controls
still play.

The fixture (``tests/bot/upgrade/``, written by ``make_fixture.py`` with the
code of the commit it names) holds a finished Bluff game, one table of each
game in progress (Bluff and Sixty-Six with DMs sent), a table still in its
lobby, and every bot message of those channels and DMs as a client showed it.

SimCord cannot pin the ids of users, channels or messages, so the test
rebuilds that Discord in a fresh environment: the guild, the users, the
channels, and the bot's old messages re-created from their payloads (content
and components, custom ids untouched; the pictures are not kept). Then, with
plain sqlite3 and before any bot opens the file, every old snowflake in the
database (guild, channels, users, messages, DM channels; in columns and
inside JSON) is rewritten to its new id, and the current bot starts on it.

For each game the player to move presses an OLD control by its stored custom
id (a table button or select; Sixty-Six: the select in the player's DM): the
press is accepted, the row's version goes up and its history has one more
move (on the table the other player's press on it is refused first). Each
game is then played to its end with simple presses: a result is stored and
its record continues the old one and replays. The lobby: a new user joins by
the old Join button and the host starts.
"""

from __future__ import annotations

import json
import re
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import discord
import simcord
from simcord.results import ResponseMessage
from simtable import Clock, controls, first_choice, mover_of, press, table_controls

from bot.app import create_bot
from bot.storage import Store
from games import core
from games.core import Record

if hasattr(core, "replay"):  # the code that wrote the fixture
    replay = core.replay
else:  # since the core redesign the game registry replays records
    from games.registry import replay

FIXTURE = Path(__file__).parent / "upgrade"
SNOWFLAKE = re.compile(r"(?<![0-9])[0-9]{15,20}(?![0-9])")

POLICIES = {
    "sixdice": lambda m: first_choice(m, prefer=("m:stop",)),
    # a declaration as soon as one is allowed: right or wrong, the deal is
    # scored at once (passing to the end can give deals without a score)
    "sixtysix": lambda m: first_choice(m, prefer=("m:declare", "m:draw")),
}


def remap_text(text: str, ids: dict[int, int]) -> str:
    return SNOWFLAKE.sub(lambda m: str(ids.get(int(m.group(0)), m.group(0))), text)


def remap_database(path: Path, ids: dict[int, int]) -> int:
    """Rewrite every old Discord id in every cell (integers, and text such as
    JSON) of every table; returns the number of cells changed."""
    changed = 0
    con = sqlite3.connect(path)
    try:
        names = [
            r[0]
            for r in con.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
            )
        ]
        for name in names:
            cols = [r[1] for r in con.execute(f'PRAGMA table_info("{name}")')]
            for rowid, *values in con.execute(f'SELECT rowid, * FROM "{name}"').fetchall():
                new = []
                for value in values:
                    if isinstance(value, int) and value in ids:
                        value = ids[value]
                    elif isinstance(value, str):
                        value = remap_text(value, ids)
                    new.append(value)
                diff = [(c, v) for c, v, old in zip(cols, new, values, strict=True) if v != old]
                if diff:
                    changed += len(diff)
                    sets = ", ".join(f'"{c}" = ?' for c, _ in diff)
                    con.execute(
                        f'UPDATE "{name}" SET {sets} WHERE rowid = ?',
                        (*(v for _, v in diff), rowid),
                    )
        con.commit()
    finally:
        con.close()
    return changed


def recreate(env: simcord.Env, channel_id: int, payload: dict[str, Any], ids: dict[int, int]):
    """The bot's old message, posted again: its content (mentions and links
    remapped), embeds and components as they were (custom ids included)."""
    assert int(payload["author"]["id"]) != 0 and payload["author"].get("bot")
    stored = env.backend.create_message(
        channel_id,
        env.backend.bot_user.id,
        remap_text(payload["content"], ids),
        embeds=payload.get("embeds") or [],
        components=payload.get("components") or [],
        flags=payload.get("flags") or 0,
    )
    ids[int(payload["id"])] = stored.id
    return ResponseMessage(env, stored)


def find(message: Any, cid: str) -> dict[str, Any]:
    return next(c for c in controls(message) if c["custom_id"] == cid)


def moves_of(row: Any) -> list[str]:
    return list(row.state["history"]["moves"])


def refused(res: Any) -> bool:
    return res.response is not None and res.response.ephemeral


def accepted(res: Any) -> Any:
    assert not refused(res), res.response.content
    return res


def dm_with_controls(env: simcord.Env, user: Any) -> ResponseMessage:
    """The user's DM from the bot that has controls (Sixty-Six: one per
    player, edited in place; Bluff's DMs have none)."""
    channel_id = env.backend.dm_channels[user.id]
    found = [
        m
        for m in env.backend.messages[channel_id].values()
        if m.author_id == env.backend.bot_user.id and controls(m)
    ]
    assert len(found) == 1, [m.content for m in found]
    return ResponseMessage(env, found[0])


async def play_to_the_end(
    env: simcord.Env, game: str, table: Any, members: list[Any], handles: list[Any]
) -> int:
    """Simple presses until the table has no controls left; Sixty-Six is
    played in the DMs. Every press must be accepted."""
    policy = POLICIES.get(game, first_choice)
    for step in range(800):
        if not table_controls(table):
            return step
        who = mover_of(table, members)
        if game == "sixtysix":
            handle = handles[members.index(who)]
            dm = dm_with_controls(env, handle)
            res = await press(handle, dm, policy(dm))
            sure = [c["custom_id"] for c in controls(res.response or dm) if ":y:" in c["custom_id"]]
            if refused(res) and sure:  # Declare 66 below 66 asks first: declare anyway
                res = await handle.click(res.response, custom_id=sure[0])
                # played: the question only loses its buttons (no refusal follows)
                assert not controls(res.response) and not res.followups, res
                continue
            accepted(res)
        else:
            accepted(await press(who, table, policy(table)))
    raise AssertionError(f"{game}: the game did not end")


class OldDiscord:
    """The fixture's Discord rebuilt in ``env``; ``ids`` maps each old
    snowflake to its new one."""

    def __init__(self, env: simcord.Env, fx: dict[str, Any]) -> None:
        self.ids: dict[int, int] = {}
        self.guild = env.create_guild(fx["guild"]["name"])
        self.ids[fx["guild"]["id"]] = self.guild.id
        self.handles: dict[int, Any] = {}  # old user id -> UserHandle
        self.members: dict[int, Any] = {}  # old user id -> MemberActor
        for u in fx["users"]:
            self.handles[u["id"]] = env.create_user(u["name"])
            self.members[u["id"]] = self.guild.add_member(self.handles[u["id"]])
            self.ids[u["id"]] = self.handles[u["id"]].id
        channel = self.guild.create_text_channel(fx["finished"]["channel"]["name"])
        self.ids[fx["finished"]["channel"]["id"]] = channel.id
        self.tables: dict[int, ResponseMessage] = {}  # table id -> its message
        for t in fx["tables"]:
            channel = self.guild.create_text_channel(t["channel"]["name"])
            self.ids[t["channel"]["id"]] = channel.id
            for payload in t["messages"]:  # the table message, then its turn ping
                msg = recreate(env, channel.id, payload, self.ids)
                if int(payload["id"]) == t["message_id"]:
                    self.tables[t["table_id"]] = msg
            assert t["table_id"] in self.tables
        self.dms: dict[int, ResponseMessage] = {}  # old message id -> the DM
        for u in fx["users"]:
            if u["dm_channel_id"] is not None:
                dm_channel = self.handles[u["id"]].dm_channel
                self.ids[u["dm_channel_id"]] = dm_channel.id
                for payload in u["dms"]:
                    self.dms[int(payload["id"])] = recreate(env, dm_channel.id, payload, self.ids)


async def test_a_database_of_today_keeps_working_after_the_upgrade(tmp_path: Path) -> None:
    fx = json.loads((FIXTURE / "fixture.json").read_text())
    db = tmp_path / "chabudai.sqlite3"
    shutil.copyfile(FIXTURE / "chabudai.sqlite3", db)
    con = sqlite3.connect(db)
    old_schema = con.execute("SELECT MAX(version) FROM schema_version").fetchone()[0]
    con.close()
    assert old_schema == fx["schema_version"]
    clock = Clock()
    assert clock.now == fx["clock"]  # no turn clock runs out
    # today's bot: it opens (and migrates) the file when it connects
    bot_store = Store(db)
    app = create_bot(bot_store, clock=clock, seed_factory=lambda: "upgrade-test-seed")
    store = Store(db)  # the test's own look at the database
    try:
        # Discord as it was, before the bot connects (a plain client holds the gateway)
        async with simcord.run(discord.Client(intents=discord.Intents(guilds=True))) as env:
            old = OldDiscord(env, fx)
            assert remap_database(db, old.ids) > 0
            await env.restart_bot(app)  # the upgrade
            await store.open()
            await _old_results_still_there(fx, old, store)
            playing = [t for t in fx["tables"] if t["phase"] == "playing"]
            for t in playing:
                await _old_control_plays(t, old, store)
            lobby = next(t for t in fx["tables"] if t["phase"] == "lobby")
            carol = await _old_lobby_starts(env, lobby, old, store)
            for t in [*playing, lobby]:
                await _to_the_end(env, t, old, store, carol if t is lobby else None)
            await _results_continue_the_old_records(fx, old, store)
    finally:
        await store.close()
        await bot_store.close()


async def _old_results_still_there(fx: dict[str, Any], old: OldDiscord, store: Store) -> None:
    results = await store.results.all()
    assert [r["game"] for r in results] == [fx["finished"]["game"]]
    assert results[0]["guild_id"] == old.guild.id
    assert set(results[0]["settlement"]) == {str(old.ids[u["id"]]) for u in fx["users"]}
    replay(Record.from_json(results[0]["record"]))


async def _old_control_plays(t: dict[str, Any], old: OldDiscord, store: Store) -> None:
    """The player to move presses the old control by its stored custom id:
    accepted, and exactly that move is stored under a newer version. On the
    table, the other player's press on it is refused first."""
    p = t["press"]
    game = t["game"]
    table = old.tables[t["table_id"]]
    before = await store.tables.get_table(t["table_id"])
    assert before is not None and before.version == t["version"], game
    assert moves_of(before) == t["record"]["moves"] and len(moves_of(before)) == t["moves"]
    assert p["user"] == t["to_move"][0]
    message = old.dms[t["dms"][str(p["user"])]] if p["where"] == "dm" else table
    kind = "click" if find(message, p["custom_id"])["type"] == 2 else "select"
    choice = (kind, p["custom_id"], p["value"])
    if p["where"] == "table":
        other = next(m for uid, m in old.members.items() if uid != p["user"])
        assert refused(await press(other, table, choice)), f"{game}: not their turn, yet accepted"
        assert (await store.tables.get_table(t["table_id"])).version == t["version"]
    actor = old.handles[p["user"]] if p["where"] == "dm" else old.members[p["user"]]
    shown = table.content
    accepted(await press(actor, message, choice))
    assert table.content != shown, f"{game}: the table message was not edited"
    after = await store.tables.get_table(t["table_id"])
    assert after is not None, game
    assert after.version > before.version, game
    assert moves_of(after)[:-1] == moves_of(before), game
    name = next(s["name"] for s in t["seats"] if s["id"] == p["user"])
    move = p["value"] if kind == "select" else p["custom_id"].split(":", 3)[3].removeprefix("m:")
    assert moves_of(after)[-1] == f"{name} {move}", game  # the move pressed


async def _old_lobby_starts(
    env: simcord.Env, lobby: dict[str, Any], old: OldDiscord, store: Store
) -> Any:
    """A new user joins by the old Join button; the host starts."""
    carol = old.guild.add_member(env.create_user("carol"))
    table = old.tables[lobby["table_id"]]
    accepted(await carol.click(table, custom_id=lobby["press"]["custom_id"]))
    row = await store.tables.get_table(lobby["table_id"])
    host = lobby["seats"][0]["id"]
    assert row is not None and [s["id"] for s in row.seats] == [old.ids[host], carol.id]
    accepted(await old.members[host].click(table, label="Start"))
    row = await store.tables.get_table(lobby["table_id"])
    assert row is not None and row.phase == "playing" and row.seed == lobby["seed"]
    return carol


async def _to_the_end(
    env: simcord.Env, t: dict[str, Any], old: OldDiscord, store: Store, carol: Any
) -> None:
    members = list(old.members.values())
    handles = list(old.handles.values())
    if carol is not None:
        members.append(carol)
        handles.append(carol)  # the lobby game (Nine) has no DMs
    table = old.tables[t["table_id"]]
    assert await play_to_the_end(env, t["game"], table, members, handles) > 0
    assert await store.tables.get_table(t["table_id"]) is None, t["game"]
    # the old turn ping (its id was stored with the table) is gone with the game
    for payload in t["messages"]:
        if int(payload["id"]) != t["message_id"]:
            assert old.ids[int(payload["id"])] not in env.backend.messages[table.channel_id]


async def _results_continue_the_old_records(
    fx: dict[str, Any], old: OldDiscord, store: Store
) -> None:
    """A result per game; each record replays and goes on from the old one
    (same players and dealer; the old moves, dice and decks come first)."""
    results = (await store.results.all())[1:]
    assert len(results) == len(fx["tables"])
    for t, r in zip(fx["tables"], results, strict=True):  # finished in this order
        assert r["game"] == t["game"]
        record = Record.from_json(r["record"])
        replay(record)  # a rule break would raise
        players = {str(old.ids[s["id"]]) for s in t["seats"]}
        if t["phase"] == "lobby":
            assert record.players == [t["seats"][0]["name"], "carol"]
            assert len(r["settlement"]) == 2 and players <= set(r["settlement"])
            continue
        was = t["record"]
        assert record.players == was["players"] and record.dealer == was["dealer"]
        assert record.options == was["options"]
        assert record.moves[: len(was["moves"])] == was["moves"]
        assert record.dice[: len(was["dice"])] == was["dice"]
        assert record.decks[: len(was["decks"])] == was["decks"]
        assert set(r["settlement"]) == players
