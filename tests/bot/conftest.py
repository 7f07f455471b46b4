"""The SimCord fixture layer of the bot tests.

``harness``: a bot factory sharing one database file and one dice script
(restarts make a new bot on the same file). ``game_night``: a whole game night
— a SimCord guild with players, a turn clock that follows SimCord's time —
and its tables as page objects, so a test reads as its story::

    async def test_pig_to_the_end(game_night):
        async with game_night() as night:
            table = await night.table("pig", players=2)
            await table.press("Roll")            # the player to move presses
            await table.press("Hold", by=night.alice)
            assert table.shows("table.turn", player=night.bob.mention)

A night takes its dice script and server as keywords: ``game_night(dice=[4, 5]
+ DICE, aux=[6, 2])`` (scripted dice, the first player's draw), ``decks=``
(Sixty-Six), ``seeded=True`` (real seeded dice and cards), ``vary=41`` (each
game starts further on in the script), ``cpu_delay=``, ``locales={"alice":
"ja"}`` (each user's Discord locale), ``managers=["alice"]`` (Manage Server),
``settings={"lang": "ja"}`` (server settings as stored by /config),
``closed_dms=["bob"]`` (users who take no DMs from the bot).
A second night in one test gets a database of its own (twin runs).

The database is SQLite unless a test asks for more: ``@on_both_databases``
(from :mod:`simtable`) runs it on SQLite and on PostgreSQL (a throwaway
server started once per test process, a database per process, a schema per
test; the PostgreSQL runs are marked ``postgres``).

Messages are checked against the catalogues, never against English copied
into a test: ``table.shows("error.stale")``, ``says(text, "lobby.host_only")``
(see :mod:`simtable`).
"""

from __future__ import annotations

import asyncio
import copy
import os
import re
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path
from typing import Any

import asyncpg
import discord
import pytest
import simcord
from pgcluster import SERVER_ENV, Cluster, why_not, with_database, with_schema
from simcord.results import ResponseMessage
from simlocale import EnvClock
from simlocale import locales as locales_of_users
from simtable import (
    Harness,
    accepted,
    controls,
    first_choice,
    pattern,
    press,
    press_from_snapshot,
    reading,
    says,
    snapshot,
    spectator_snapshot,
    taken,
    walk,
)

from bot.i18n import LANGS, catalogue
from bot.model import message_link
from bot.tables.rows import TableRow
from games.core import SeededSource

__all__ = ["pattern", "says"]  # the catalogue helpers live in simtable

NAMES = ("alice", "bob", "carol", "dave", "erin", "frank", "eve")  # eve: the one who watches
NIGHT_DICE = SeededSource("game-night").roll(3000)
SETTLE = 60.0  # seconds SimCord may wait for a chain of computer moves
CPU = re.compile(r"CPU\d+")


async def _admin(url: str, sql: str) -> None:
    conn = await asyncpg.connect(url)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """A database of this test process's own (each xdist worker has one) on
    a throwaway PostgreSQL server started once per process, or on the
    server ``CHABUDAI_TEST_POSTGRES`` names. Skips only where there is no
    PostgreSQL at all."""
    reason = why_not()
    if reason is not None:
        pytest.skip(reason)
    cluster = None
    server = os.environ.get(SERVER_ENV, "")
    if not server:
        cluster = Cluster()
        server = cluster.start()
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    name = f"chabudai_test_{worker}_{os.getpid()}"
    try:
        asyncio.run(_admin(server, f'CREATE DATABASE "{name}"'))
        yield with_database(server, name)
    finally:
        try:
            if cluster is None:
                asyncio.run(_admin(server, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        finally:
            if cluster is not None:
                cluster.stop()


@pytest.fixture
def backend(request: pytest.FixtureRequest) -> str:
    """The database the test's bots use: ``sqlite`` unless parametrized
    (``@on_both_databases``)."""
    return str(getattr(request, "param", "sqlite"))


@pytest.fixture
def new_database(
    backend: str, request: pytest.FixtureRequest, tmp_path: Path
) -> Callable[[], Awaitable[Path | str]]:
    """``await new_database()``: an empty database of the test's backend, a
    new one each call (a SQLite file, or a PostgreSQL schema's URL)."""
    base = request.getfixturevalue("postgres_url") if backend == "postgres" else ""
    made = 0

    async def make() -> Path | str:
        nonlocal made
        made += 1
        if backend == "sqlite":
            name = "chabudai.sqlite3" if made == 1 else f"night-{made}.sqlite3"
            return tmp_path / name
        schema = f"t_{uuid.uuid4().hex[:16]}"
        await _admin(base, f"CREATE SCHEMA {schema}")
        return with_schema(base, schema)

    return make


@pytest.fixture
async def harness(new_database: Callable[[], Awaitable[Path | str]]) -> AsyncIterator[Harness]:
    h = Harness(await new_database())
    yield h
    await h.close()


@pytest.fixture(autouse=True)
def no_bot_errors_logged(caplog: pytest.LogCaptureFixture):
    """A drawing or presenting failure is logged, not raised: fail on it here."""
    yield
    errors = [r for r in caplog.records if r.levelname in ("ERROR", "CRITICAL")]
    assert not errors, [r.getMessage() for r in errors]


class Screen:
    """A message with controls as a user sees it: a table, a player's DM, an
    answer only the presser sees."""

    def __init__(self, night: Night, message: Any, *, owner: Any = None) -> None:
        self.night = night
        self.message = message
        self.owner = owner  # who presses when nobody is named

    @property
    def content(self) -> str:
        return str(self.message.content)

    def shows(self, key: str, lang: str = "en", /, **args: Any) -> bool:
        """Whether the message holds the catalogue sentence ``key``."""
        return says(self.content, key, lang, **args)

    def reading(self, key: str, lang: str = "en", /, **args: Any) -> dict[str, str] | None:
        """The placeholders of the sentence ``key`` as the message shows it
        (``None``: it does not show it)."""
        return reading(self.content, key, lang, **args)

    @property
    def attachments(self) -> list[Any]:
        return list(self.message.attachments)

    @property
    def controls(self) -> list[dict[str, Any]]:
        return controls(self.message)

    @property
    def buttons(self) -> list[str]:
        return [c["label"] for c in self.controls if c["type"] == 2]

    @property
    def selects(self) -> list[dict[str, Any]]:
        return [c for c in self.controls if c["type"] == 3]

    @property
    def choices(self) -> list[str]:
        """The values of every select's options, in order."""
        return [o["value"] for s in self.selects for o in s["options"]]

    @property
    def choice_labels(self) -> list[str]:
        return [o["label"] for s in self.selects for o in s["options"]]

    @property
    def custom_ids(self) -> list[str]:
        return [c["custom_id"] for c in self.controls]

    def id_of(self, label: str) -> str:
        """The custom id of the button ``label``."""
        return next(c["custom_id"] for c in self.controls if c.get("label") == label)

    @property
    def button_actions(self) -> list[str]:
        """What each button does (``"m:draw"``, ``"join"``)."""
        return [c["custom_id"].split(":", 3)[3] for c in self.controls if c["type"] == 2]

    @property
    def actions(self) -> list[str]:
        """What each control does (the action part of its custom id)."""
        return [cid.split(":", 3)[3] for cid in self.custom_ids]

    @property
    def rows(self) -> list[dict[str, Any]]:
        return [c for c in self.message.components if c.get("type") == 1]

    def _presser(self, by: Any) -> Any:
        """Who presses: ``by``, else the message's owner."""
        user = by or self.owner
        assert user is not None, "who presses?"
        return user

    def _label(self, label: str) -> str:
        """``label`` as this message shows it: an English label of the
        catalogue is found in the message's language."""
        shown = self.buttons
        if label in shown:
            return label
        for key, text in catalogue("en").items():
            if text == label:
                for lang in LANGS:
                    if catalogue(lang).get(key) in shown:
                        return catalogue(lang)[key]
        return label  # SimCord reports that nobody could press it

    async def press(self, label: str, *, by: Any = None) -> Any:
        """Press the button ``label``."""
        return await self._presser(by).click(self.message, label=self._label(label))

    async def act(self, action: str, *, by: Any = None) -> Any:
        """Press the control that does ``action`` (``"k:0"``, ``"m:keep 1 2"``)."""
        cid = next(c for c in self.custom_ids if c.split(":", 3)[3] == action)
        return await self._presser(by).click(self.message, custom_id=cid)

    async def choose(self, value: str, *, by: Any = None) -> Any:
        """Pick ``value`` in the select that offers it."""
        select = next(s for s in self.selects if value in [o["value"] for o in s["options"]])
        return await self._presser(by).select(self.message, [value], custom_id=select["custom_id"])

    async def play(self, *, by: Any = None, prefer: tuple[str, ...] = ()) -> Any:
        """Make the first offered move (a preferred action, else a select's
        first option, else the first button)."""
        return await press(self._presser(by), self.message, first_choice(self.message, prefer))


class Table(Screen):
    """A table message as its players see it."""

    def __init__(self, night: Night, message: Any, game: str, channel: Any) -> None:
        super().__init__(night, message)
        self.game = game
        self.channel = channel

    def _presser(self, by: Any) -> Any:
        """Who presses: ``by``, else the player to move."""
        return by or self.mover

    @property
    def over(self) -> bool:
        """No table controls left: the game is over (or gone); a result
        message keeps only its own buttons (``cr:``)."""
        return not any(c["custom_id"].startswith(("cb:", "cs:")) for c in self.controls)

    @property
    def turn(self) -> Any:
        """Who the table names as the one to move: a player, a computer's
        name (``"CPU1"``), or ``None``."""
        for lang in LANGS:
            for line in self.content.splitlines():
                m = pattern("table.turn", lang).fullmatch(line)
                if m is None:
                    continue
                who = m.group("player")
                for user in self.night.players:
                    if user.mention in who:
                        return user
                cpu = CPU.search(who)
                return cpu.group(0) if cpu else who
        return None

    @property
    def mover(self) -> Any:
        """The player the table names as the one to move."""
        who = self.turn
        assert who is not None and not isinstance(who, str), (
            f"no player to move on the table: {self.content}"
        )
        return who

    @property
    def link(self) -> str:
        return message_link(self.night.guild.id, self.channel.id, self.message.id)

    @property
    def stored(self) -> Any:
        """The message as Discord stores it (its attachments' alt text)."""
        return self.night.env.backend.get_message(self.message.channel_id, self.message.id)

    async def row(self) -> TableRow | None:
        """The table as stored now (``None`` once it is gone), with the
        bookkeeping the bot noted since its last write (what is on screen,
        the turn ping's id) flushed first, as its next sweep would."""
        await self.night.bot.tables.flush()
        rows = await self.night.store.tables.live_tables()
        return next((r for r in rows if r.channel_id == self.message.channel_id), None)

    async def moves(self) -> list[str]:
        """The moves of the game so far, as stored."""
        row = await self.row()
        assert row is not None, "the table is gone"
        return list(row.state["history"]["moves"])

    async def results(self) -> list[dict[str, Any]]:
        return await self.night.store.results.all(game=self.game)

    def history(self) -> list[Any]:
        """Every message of the table's channel, oldest first."""
        return self.channel.history()

    def posts(self, key: str, lang: str = "en", /, **args: Any) -> list[Any]:
        """The messages of the table's channel that say ``key``."""
        return [m for m in self.history() if says(m.content, key, lang, **args)]

    async def command(self, user: Any, name: str, /, **options: Any) -> Any:
        """``user`` runs the slash command ``name`` in the table's channel."""
        return await user.slash(self.channel, name, **options)

    async def ask(self, user: Any, name: str, /, **options: Any) -> str:
        """A slash command answered for ``user`` alone; the answer's text."""
        res = await self.command(user, name, **options)
        assert res.response is not None and res.response.ephemeral, res
        return str(res.response.content)

    def snapshot(self) -> OldCopy:
        """The table as a client shows it now, to press later."""
        return OldCopy(self)

    def spectators_see(self) -> list[tuple[Any, ...]]:
        """Every message of the channel as anyone without a seat sees it."""
        return spectator_snapshot(self.night.env, self.channel.id)

    def public_words(self) -> list[str]:
        """Every public word of the channel now: text, ids, options, alt text."""
        words = []
        for content, ids, options, files in self.spectators_see():
            words.append(content)
            words.extend(ids)
            words.extend(f"{v} {lab}" for v, lab in options)
            words.extend(str(d) for d, _png in files)
        return words

    async def play_to_the_end(
        self,
        *,
        prefer: tuple[str, ...] = (),
        policy: Callable[[Table, Any], Any] | None = None,
        restart_at: int | None = None,
        limit: int = 600,
    ) -> int:
        """The players to move make the first offered move (or ``policy``'s)
        until no controls are left, computers answering; the bot restarts
        after ``restart_at`` presses. Every press must be taken. Returns the
        number of presses."""
        for step in range(limit):
            if self.over:
                return step
            if step == restart_at:
                await self.night.restart()
            who = self.turn
            if who is None or isinstance(who, str):
                await self.night.settle()
                if self.over:
                    return step
                who = self.turn
            assert who is not None and not isinstance(who, str), (
                f"a computer did not move: {self.content}"
            )
            if policy is not None:
                res = await policy(self, who)
            else:
                res = await self.play(by=who, prefer=prefer)
            if not taken(res) and res.response is not None:
                # a question before the move (Declare 66 below 66): "yes"
                sure = [c for c in controls(res.response) if ":y:" in c["custom_id"]]
                if sure:
                    res = await who.click(res.response, custom_id=sure[0]["custom_id"])
                    assert not controls(res.response) and not res.followups, res
                    continue
            assert taken(res), res.response.content
        raise AssertionError("the game did not end")


class OldCopy:
    """A client still showing an older copy of the table: the second click
    of a double click, or a stale window."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.payload = snapshot(table.night.env, table.message)

    async def press(
        self, label: str | None = None, *, by: Any, custom_id: str | None = None
    ) -> Any:
        """Press ``label`` as this copy shows it — or a control with
        ``custom_id`` (one this copy never showed: the first button carries it)."""
        payload = self.payload
        buttons = [c for c in walk(payload["components"]) if c.get("type") == 2]
        if custom_id is None:
            custom_id = next(c["custom_id"] for c in buttons if c.get("label") == label)
        elif custom_id not in [c.get("custom_id") for c in buttons]:
            payload = snapshot_with(payload, custom_id)
        return await press_from_snapshot(by, self.table.night.env, payload, custom_id)


def snapshot_with(payload: dict[str, Any], custom_id: str) -> dict[str, Any]:
    """A copy of ``payload`` whose first button carries ``custom_id``."""
    forged = copy.deepcopy(payload)
    forged["components"][0]["components"][0]["custom_id"] = custom_id
    return forged


class Night:
    """A guild, its players, and the bot serving them."""

    def __init__(
        self,
        harness: Harness,
        env: simcord.Env,
        clock: EnvClock,
        *,
        by_user: dict[int, str],
        guild: Any = None,
        users: dict[str, Any] | None = None,
        managers: tuple[str, ...] | list[str] = (),
        user_locales: dict[str, str] | None = None,
        closed_dms: tuple[str, ...] | list[str] = (),
        cpu_delay: float = 0.0,
    ) -> None:
        self.harness = harness
        self.env = env
        self.clock = clock
        self.guild = guild if guild is not None else env.create_guild()
        self.users: dict[str, Any] = users if users is not None else {}  # across servers
        self.by_user = by_user
        self.members: dict[str, Any] = {}
        self.managers = set(managers)
        self.user_locales = dict(user_locales or {})
        self.closed_dms = set(closed_dms)
        self.cpu_delay = cpu_delay
        self._role: Any = None
        self._channel: Any = None
        self._channels = 0

    def __getattr__(self, name: str) -> Any:
        if name in NAMES:
            return self.member(name)
        raise AttributeError(name)

    def member(self, name: str) -> Any:
        """The guild member ``name`` (a new Discord user the first time)."""
        if name not in self.members:
            if name not in self.users:
                self.users[name] = self.env.create_user(name)
            user = self.users[name]
            roles = []
            if name in self.managers:
                if self._role is None:
                    manage = discord.Permissions(manage_guild=True)
                    self._role = self.guild.create_role("managers", permissions=manage)
                roles.append(self._role)
            self.members[name] = self.guild.add_member(user, roles=roles)
            if name in self.user_locales:
                self.by_user[user.id] = self.user_locales[name]
            if name in self.closed_dms:
                self.close_dms(user)
        return self.members[name]

    @property
    def players(self) -> list[Any]:
        return list(self.members.values())

    @property
    def bot(self) -> Any:
        return self.harness.bots[-1]

    @property
    def store(self) -> Any:
        return self.bot.tables.store

    @property
    def database(self) -> Path | str:
        """The file the bot keeps its tables and results in (a URL on PostgreSQL)."""
        return self.harness.path

    @property
    def channel(self) -> Any:
        """The server's channel for commands away from any table."""
        if self._channel is None:
            self._channel = self.guild.create_text_channel("games")
        return self._channel

    def speaks(self, user: Any, locale: str) -> None:
        """``user``'s Discord client is set to ``locale`` from now on."""
        self.by_user[user.id] = locale

    def server(self, name: str = "another server", *, locale: str | None = None) -> Night:
        """Another guild served by the same bot; the same people may join it."""
        kwargs = {"preferred_locale": locale} if locale else {}
        guild = self.env.create_guild(name, **kwargs)
        return Night(
            self.harness,
            self.env,
            self.clock,
            by_user=self.by_user,
            guild=guild,
            users=self.users,
            user_locales=self.user_locales,
            cpu_delay=self.cpu_delay,
        )

    async def settings(self, **settings: Any) -> None:
        """Server settings, as /config stores them (``lang="ja"``, ``**{"clock.nine": 45}``)."""
        for key, value in settings.items():
            await self.store.settings.set_guild_setting(self.guild.id, key, value)

    async def table(
        self,
        game: str,
        *,
        players: int | list[Any] = 2,
        options: str | None = None,
        cpus: tuple[str, ...] | list[str] = (),
        start: bool = True,
        lang: str | None = None,
    ) -> Table:
        """``/play`` in a new channel by the first player, the others join,
        computers are added at the given levels, and the host starts.
        ``players``: how many of alice, bob, … or the members themselves;
        ``lang``: the server's language for table messages."""
        if lang is not None:
            await self.settings(lang=lang)
        self._channels += 1
        channel = self.guild.create_text_channel(f"{game}-{self._channels}")
        people = [self.member(n) for n in NAMES[:players]] if isinstance(players, int) else players
        kwargs = {"game": game} | ({"options": options} if options else {})
        res = await people[0].slash(channel, "play", **kwargs)
        assert res.response is not None and not res.response.ephemeral, res
        table = Table(self, res.response, game, channel)
        for user in people[1:]:
            assert taken(await table.act("join", by=user))
        for level in cpus:
            accepted(await table.act(f"cpu:{level}", by=people[0]))
        if start:
            res = await table.act("start", by=people[0])
            assert taken(res) and "start" not in table.actions, table.content
        return table

    async def command(self, user: Any, name: str, /, **options: Any) -> Any:
        """``user`` runs the slash command ``name`` in the server's channel
        away from any table."""
        return await user.slash(self.channel, name, **options)

    async def ask(self, user: Any, name: str, /, **options: Any) -> str:
        """A slash command answered for ``user`` alone; the answer's text."""
        res = await self.command(user, name, **options)
        assert res.response is not None and res.response.ephemeral, res
        return str(res.response.content)

    def dms(self, user: Any) -> list[Any]:
        """The bot's messages in ``user``'s DMs, oldest first."""
        handle = getattr(user, "user", user)
        return [m for m in handle.dm_channel.history() if m.author.id != handle.id]

    def hand(self, user: Any) -> Screen:
        """The bot's latest DM to ``user`` (their dice or cards), pressed by them."""
        handle = getattr(user, "user", user)
        last = self.dms(handle)[-1]
        stored = self.env.backend.get_message(last.channel.id, last.id)
        return Screen(self, ResponseMessage(self.env, stored), owner=handle)

    def reply(self, res: Any, user: Any) -> Screen:
        """The answer only ``user`` sees (their hand when DMs are closed), to press."""
        assert res.response is not None and res.response.ephemeral, res
        return Screen(self, res.response, owner=user)

    def close_dms(self, user: Any) -> None:
        """``user`` accepts no DMs from the bot (Discord answers 403)."""
        handle = getattr(user, "user", user)
        self.env.inject_error(
            "POST",
            f"/channels/{handle.dm_channel.id}/messages",
            status=403,
            code=50007,
            message="Cannot send messages to this user",
            times=None,
        )

    def gone(self, message: Any) -> bool:
        """Whether ``message`` was deleted."""
        channel_id = getattr(message, "channel_id", None) or message.channel.id
        return self.env.backend.messages.get(channel_id, {}).get(message.id) is None

    async def restart(self) -> None:
        """Stop the bot and start a new one on the same database."""
        bot = self.harness.bot()
        bot.cpu_delay = self.cpu_delay
        await self.env.restart_bot(bot)

    async def wait(self, seconds: float) -> None:
        """Let ``seconds`` of SimCord time pass (turn clocks run)."""
        await self.env.advance_time(seconds)

    def now(self) -> Any:
        """SimCord's time."""
        return self.env.now()

    async def settle(self) -> None:
        """Let the bot finish what it is doing (computers move)."""
        await self.env.settle()


@pytest.fixture
async def game_night(
    harness: Harness, new_database: Callable[[], Awaitable[Path | str]]
) -> AsyncIterator[Callable[..., AbstractAsyncContextManager[Night]]]:
    """``async with game_night(**script) as night:`` — a game night: the dice
    script, computers without a pause, a turn clock on SimCord's time, each
    user's locale. (A context manager in the test, not a fixture's yield:
    SimCord's run must start and end in the test's own context.)"""
    nights: list[Harness] = []

    @asynccontextmanager
    async def start(
        *,
        dice: list[int] | None = None,
        aux: list[int] | None = None,
        decks: list[list[str]] | None = None,
        seeded: bool = False,
        vary: int = 0,
        cpu_delay: float = 0.0,
        locales: dict[str, str] | None = None,
        managers: tuple[str, ...] | list[str] = (),
        settings: dict[str, Any] | None = None,
        closed_dms: tuple[str, ...] | list[str] = (),
    ) -> AsyncIterator[Night]:
        h = harness if not nights else Harness(await new_database())
        nights.append(h)
        clock = EnvClock()
        h.clock = clock
        h.dice = list(NIGHT_DICE if dice is None else dice)
        if aux is not None:
            h.aux = list(aux)
        if decks is not None:
            h.decks = [list(d) for d in decks]
        h.seeded = seeded
        h.vary = vary
        bot = h.bot()
        bot.cpu_delay = cpu_delay
        with locales_of_users({}) as by_user:
            async with simcord.run(bot, settle_timeout=SETTLE) as env:
                clock.env = env
                night = Night(
                    h,
                    env,
                    clock,
                    by_user=by_user,
                    managers=managers,
                    user_locales=locales,
                    closed_dms=closed_dms,
                    cpu_delay=cpu_delay,
                )
                await night.settings(**(settings or {}))
                yield night

    yield start
    for h in nights[1:]:
        await h.close()
