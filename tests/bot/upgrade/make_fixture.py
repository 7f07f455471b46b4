"""Writes the upgrade fixture: a database left by a running bot, and the
messages its players still see.

    PYTHONPATH=<checkout> python tests/bot/upgrade/make_fixture.py OUTDIR

Whatever code ``PYTHONPATH`` imports (``bot``, ``games``) writes the fixture,
so run it against the checkout whose database an upgrade must keep working
(the committed files were written by the commit named in ``fixture.json``).
Through SimCord, with a fixed clock and fixed seeds (``SeededSource``, the
production dice source, so the stored states are what a live bot stores):

- one table of each game in its own channel, started by alice with bob, a few
  moves played so each game is in progress; Bluff and Sixty-Six mid-game
  with DMs sent (Bluff: both players have looked under the cup; Sixty-Six:
  each hand in its DM, the player to move holding a "play a card" select);
  Yahtzee with a die held (UI state);
- one more table still in its lobby (alice alone);
- before those, one Bluff game played to its end (a result, its players'
  rows and ratings in the database).

Writes ``OUTDIR/chabudai.sqlite3`` (vacuumed, rollback journal) and
``OUTDIR/fixture.json``: the guild, channels and users with their ids; for
every table its game, options, seed, seats, version, number of moves, who is
to move, the game record so far (moves, dice, decks), every bot message of its channel (the
table message, turn pings) and the players' DMs as a client shows them
(``message_payload``: content and components; attachments are listed, their
bytes are not kept), and the next press a player would make: an OLD posted
control, by its custom id, that plays a move.
"""

from __future__ import annotations

import argparse
import asyncio
import copy
import json
import re
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import simcord
from simcord.backend import serializers
from simcord.results import ResponseMessage

import bot
from bot.app import create_bot
from bot.storage import Store
from games import core
from games.core import SeededSource

CLOCK = 1_700_000_000.0
EPHEMERAL = 1 << 6
TURN = re.compile(r"Turn: <@(\d+)>")

# game, /play options of the tables left in progress
PLAN: list[tuple[str, str | None]] = [
    ("nine", None),
    ("sixdice", "target=2000 start=300"),
    ("yahtzee", None),
    ("bluff", "losses=1"),
    ("sixtysix", "target=2"),
]
LOBBY = ("nine", None)
FINISHED = ("bluff", "losses=1")


def seed_of(channel_name: str) -> str:
    return f"upgrade-fixture-{channel_name}"


# ------------------------------------------------------------------ helpers


def walk(components: list[dict[str, Any]]) -> Any:
    for c in components or []:
        yield c
        yield from walk(c.get("components") or [])


def controls(message: Any) -> list[dict[str, Any]]:
    return [c for c in walk(message.components) if c.get("type") in (2, 3)]


def action(c: dict[str, Any]) -> str:
    return str(c["custom_id"].split(":", 3)[3])


def choose(
    message: Any, prefer: tuple[str, ...] = (), *, last_option: bool = False
) -> tuple[str, str, str | None]:
    """A preferred button if shown, else the first select (its first or last
    option), else the first button."""
    ctl = controls(message)
    for word in prefer:
        for c in ctl:
            if c["type"] == 2 and action(c) == word:
                return ("click", c["custom_id"], None)
    for c in ctl:
        if c["type"] == 3:
            return ("select", c["custom_id"], c["options"][-1 if last_option else 0]["value"])
    c = next(c for c in ctl if c["type"] == 2)
    return ("click", c["custom_id"], None)


async def press(user: Any, message: Any, choice: tuple[str, str, str | None]) -> Any:
    kind, cid, value = choice
    if kind == "click":
        res = await user.click(message, custom_id=cid)
    else:
        res = await user.select(message, [value], custom_id=cid)
    if res.response is not None and res.response.ephemeral:
        raise RuntimeError(f"refused: {res.response.content}")
    return res


def mover(message: Any, users: list[Any]) -> Any:
    match = TURN.search(message.content)
    assert match, message.content
    return next(u for u in users if u.id == int(match.group(1)))


def payload(env: simcord.Env, stored: Any) -> dict[str, Any]:
    return copy.deepcopy(dict(serializers.message_payload(env.backend, stored)))


def bot_messages(env: simcord.Env, channel_id: int) -> list[Any]:
    """The bot's messages in a channel that everyone there sees, oldest first."""
    me = env.backend.bot_user.id
    out = []
    for stored in sorted(env.backend.messages.get(channel_id, {}).values(), key=lambda m: m.id):
        if stored.author_id == me and not stored.flags & EPHEMERAL:
            out.append(stored)
    return out


def latest_dm(env: simcord.Env, user: Any) -> ResponseMessage:
    channel_id = env.backend.dm_channels[user.id]
    return ResponseMessage(env, bot_messages(env, channel_id)[-1])


# ------------------------------------------------------------------- tables


async def open_table(channel: Any, host: Any, others: list[Any], game: str, options: str | None):
    kwargs = {"game": game}
    if options:
        kwargs["options"] = options
    res = await host.slash(channel, "play", **kwargs)
    msg = res.response
    assert msg is not None and not msg.ephemeral, res
    for user in others:
        await press(user, msg, ("click", _cid(msg, "join"), None))
    if others:
        await press(host, msg, ("click", _cid(msg, "start"), None))
    return msg


def _cid(message: Any, word: str) -> str:
    return next(c["custom_id"] for c in controls(message) if action(c) == word)


async def advance(game: str, env: simcord.Env, msg: Any, members: list[Any], handles: list[Any]):
    """Play a few moves; returns the next press (where, who, what), an old
    control that plays a move."""
    if game == "nine":
        for _ in range(3):
            await press(mover(msg, members), msg, choose(msg))
        return "table", mover(msg, members), choose(msg)
    if game == "sixdice":
        for _ in range(3):
            await press(mover(msg, members), msg, choose(msg, ("m:roll",)))
        return "table", mover(msg, members), choose(msg, ("m:roll",))
    if game == "yahtzee":
        for _ in range(2):  # alice: roll, score at once
            await press(mover(msg, members), msg, choose(msg, ("m:roll",)))
        who = mover(msg, members)
        await press(who, msg, choose(msg, ("m:roll",)))  # bob rolls
        await press(who, msg, choose(msg, ("k:0",)))  # and holds his first die
        held = next(c for c in controls(msg) if action(c).startswith("m:keep"))
        return "table", who, ("click", held["custom_id"], None)
    if game == "bluff":
        first = mover(msg, members)
        await press(first, msg, choose(msg, ("m:roll",)))  # looks: a DM
        await press(first, msg, choose(msg, last_option=True))  # the weakest value
        second = mover(msg, members)
        await press(second, msg, choose(msg, ("m:roll",)))  # looks: a DM
        return "table", second, choose(msg, last_option=True)  # announce
    if game == "sixtysix":
        played = 0
        while True:
            who = mover(msg, members)
            handle = handles[members.index(who)]
            dm = latest_dm(env, handle)
            has_select = any(c["type"] == 3 for c in controls(dm))
            if played >= 3 and has_select:
                return "dm", handle, choose(dm)
            await press(handle, dm, choose(dm, ("m:pass", "m:draw")))
            played += 1
    raise ValueError(game)


async def make(out: Path) -> dict[str, Any]:
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "chabudai.sqlite3"
        naming = {"channel": ""}  # the seed of a table: from its channel's name
        app = create_bot(
            Store(db),
            clock=lambda: CLOCK,
            seed_factory=lambda: seed_of(naming["channel"]),
            source_factory=SeededSource,
        )
        doc: dict[str, Any] = {"format": 1, "clock": CLOCK, "tables": []}
        try:
            async with simcord.run(app) as env:
                guild = env.create_guild("Upgrade Guild")
                handles = [env.create_user(n) for n in ("alice", "bob")]
                members = [guild.add_member(h) for h in handles]
                # a finished game first: a result, its players and ratings
                naming["channel"] = "finished"
                channel = guild.create_text_channel(naming["channel"])
                msg = await open_table(channel, members[0], members[1:], *FINISHED)
                for _ in range(100):
                    if not controls(msg):
                        break
                    await press(mover(msg, members), msg, choose(msg))
                assert not controls(msg), "the finished game did not end"
                doc["finished"] = {
                    "game": FINISHED[0],
                    "channel": {"id": channel.id, "name": channel.name},
                    "results": await app.tables.store.results.all(),
                }
                opened = []
                for game, options in PLAN:
                    naming["channel"] = game
                    channel = guild.create_text_channel(game)
                    msg = await open_table(channel, members[0], members[1:], game, options)
                    where, who, choice = await advance(game, env, msg, members, handles)
                    opened.append((game, options, channel, msg, where, who, choice))
                naming["channel"] = "lobby"
                channel = guild.create_text_channel("lobby")
                lobby = await open_table(channel, members[0], [], LOBBY[0], LOBBY[1])
                join = ("click", _cid(lobby, "join"), None)
                opened.append((LOBBY[0], LOBBY[1], channel, lobby, "table", None, join))
                await env.settle()
                store = app.tables.store
                for game, options, channel, msg, where, who, choice in opened:
                    row = await store.tables.table_in_channel(channel.id)
                    assert row is not None and row.message_id == msg.id
                    entry: dict[str, Any] = {
                        "table_id": row.id,
                        "game": game,
                        "options": options,
                        "phase": row.phase,
                        "seed": row.seed,
                        "version": row.version,
                        "channel": {"id": channel.id, "name": channel.name},
                        "message_id": msg.id,
                        "seats": [{"id": s["id"], "name": s["name"]} for s in row.seats],
                        "messages": [payload(env, m) for m in bot_messages(env, channel.id)],
                    }
                    if row.state is not None:
                        eng = core.engine(game)
                        state = eng.from_json(row.state)
                        record = core.record_of(game, state)
                        by_name = {s["name"]: s["id"] for s in row.seats}
                        entry["moves"] = len(state.history.moves)
                        entry["to_move"] = [by_name[n] for n in eng.to_move(state)]
                        entry["source"] = {"factory": "SeededSource", "seed": row.seed}
                        entry["record"] = record.to_json()  # the moves and dice so far
                        entry["dms"] = {k: v["m"] for k, v in (row.ui.get("dm") or {}).items()}
                    else:
                        entry["source"] = {"factory": "SeededSource", "seed": row.seed}
                    kind, cid, value = choice
                    entry["press"] = {
                        "where": where,
                        "user": who.id if who is not None else None,
                        "kind": kind,
                        "custom_id": cid,
                        "value": value,
                    }
                    doc["tables"].append(entry)
                doc["guild"] = {"id": guild.id, "name": guild.name}
                doc["users"] = []
                for handle in handles:
                    dm_channel = env.backend.dm_channels.get(handle.id)
                    dms = bot_messages(env, dm_channel) if dm_channel is not None else []
                    doc["users"].append(
                        {
                            "id": handle.id,
                            "name": handle.name,
                            "dm_channel_id": dm_channel,
                            "dms": [payload(env, m) for m in dms],
                        }
                    )
        finally:
            await app.tables.store.close()  # the last connection: the WAL is checkpointed
        # a compact copy: small pages, vacuumed, rollback journal
        target = out / "chabudai.sqlite3"
        target.unlink(missing_ok=True)
        con = sqlite3.connect(db)
        con.execute("VACUUM INTO ?", (str(target),))
        con.close()
    con = sqlite3.connect(target)
    con.execute("PRAGMA journal_mode=DELETE")
    con.execute("PRAGMA page_size=1024")
    con.execute("VACUUM")
    doc["schema_version"] = con.execute("SELECT MAX(version) FROM schema_version").fetchone()[0]
    con.close()
    doc["made_by"] = {"script": "tests/bot/upgrade/make_fixture.py", "commit": _commit()}
    (out / "fixture.json").write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n")
    return doc


def _commit() -> str | None:
    """The commit of the checkout whose ``bot`` package wrote the fixture."""
    root = Path(bot.__file__).resolve().parents[1]
    try:
        head = subprocess.run(
            ["git", "-C", str(root), "rev-parse", "HEAD"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "-C", str(root), "status", "--porcelain", "--", "bot", "games"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return None
    return head + ("+local changes" if dirty else "")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("outdir", type=Path)
    args = parser.parse_args()
    doc = asyncio.run(make(args.outdir))
    print(f"bot code: {bot.__file__} ({doc['made_by']['commit']})")
    for t in doc["tables"]:
        print(
            f"table {t['table_id']} {t['game']:8} {t['phase']:7} v{t['version']}"
            f" moves={t.get('moves', 0)} press={t['press']['custom_id']}"
            f" {t['press']['value'] or ''}"
        )
    size = (args.outdir / "chabudai.sqlite3").stat().st_size
    print(f"wrote {args.outdir}/chabudai.sqlite3 ({size // 1024} KB) and fixture.json")
    return 0


if __name__ == "__main__":
    sys.exit(main())
