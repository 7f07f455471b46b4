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
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
import simcord
from simlocale import EnvClock
from simtable import Harness, controls, first_choice, press

from bot.i18n import catalogue
from bot.store import TableRow
from games.core import SeededSource

NAMES = ("alice", "bob", "carol", "dave", "erin", "frank")
NIGHT_DICE = SeededSource("game-night").roll(3000)


@pytest.fixture
async def harness(tmp_path: Path) -> AsyncIterator[Harness]:
    h = Harness(tmp_path / "chabudai.sqlite3")
    yield h
    await h.close()


@pytest.fixture(autouse=True)
def no_bot_errors_logged(caplog: pytest.LogCaptureFixture):
    """A drawing or presenting failure is logged, not raised: fail on it here."""
    yield
    errors = [r for r in caplog.records if r.levelname in ("ERROR", "CRITICAL")]
    assert not errors, [r.getMessage() for r in errors]


def pattern(key: str, lang: str = "en", **args: Any) -> re.Pattern[str]:
    """The catalogue text of ``key`` as a pattern: the placeholders given in
    ``args`` filled in, the others matching anything on one line."""
    template = catalogue(lang)[key]
    out, pos = [], 0
    for m in re.finditer(r"\{(\w+)(?::[^}]*)?\}", template):
        out.append(re.escape(template[pos : m.start()]))
        name = m.group(1)
        out.append(re.escape(str(args[name])) if name in args else r"[^\n]*?")
        pos = m.end()
    out.append(re.escape(template[pos:]))
    return re.compile("".join(out))


def says(text: str | None, key: str, lang: str = "en", **args: Any) -> bool:
    """Whether ``text`` holds the catalogue sentence ``key`` (with ``args``)."""
    return bool(text) and pattern(key, lang, **args).search(text or "") is not None


class Table:
    """A table message as its players see it."""

    def __init__(self, night: Night, message: Any, game: str) -> None:
        self.night = night
        self.message = message
        self.game = game

    @property
    def content(self) -> str:
        return str(self.message.content)

    def shows(self, key: str, lang: str = "en", **args: Any) -> bool:
        """Whether the table message holds the catalogue sentence ``key``."""
        return says(self.content, key, lang, **args)

    @property
    def buttons(self) -> list[str]:
        return [c["label"] for c in controls(self.message) if c["type"] == 2]

    @property
    def over(self) -> bool:
        """No controls left: the game is over (or gone)."""
        return not controls(self.message)

    @property
    def mover(self) -> Any:
        """The player the table names as the one to move."""
        for user in self.night.players:
            if f"<@{user.id}>" in self.content.split("\n")[1]:
                return user
        raise AssertionError(f"no player to move on the table: {self.content}")

    async def press(self, label: str, *, by: Any = None) -> Any:
        """Press the button ``label`` (by the player to move, unless ``by``)."""
        user = by or self.mover
        return await user.click(self.message, label=label)

    async def play(self, *, by: Any = None) -> Any:
        """Make the first offered move (a select's first option, else the
        first button) as the player to move."""
        user = by or self.mover
        return await press(user, self.message, first_choice(self.message))

    async def row(self) -> TableRow | None:
        """The table as stored now (``None`` once it is gone)."""
        rows = await self.night.store.live_tables()
        return next((r for r in rows if r.channel_id == self.message.channel_id), None)

    async def results(self) -> list[dict[str, Any]]:
        return await self.night.store.results(game=self.game)


class Night:
    """A guild, its players, and the bot serving them."""

    def __init__(self, harness: Harness, env: simcord.Env, clock: EnvClock) -> None:
        self.harness = harness
        self.env = env
        self.clock = clock
        self.guild = env.create_guild()
        self.players: list[Any] = []
        self._channels = 0

    def __getattr__(self, name: str) -> Any:
        if name in NAMES:
            while len(self.players) <= NAMES.index(name):
                self.players.append(
                    self.guild.add_member(self.env.create_user(NAMES[len(self.players)]))
                )
            return self.players[NAMES.index(name)]
        raise AttributeError(name)

    @property
    def bot(self) -> Any:
        return self.harness.bots[-1]

    @property
    def store(self) -> Any:
        return self.bot.tables.store

    async def table(
        self,
        game: str,
        *,
        players: int = 2,
        options: str | None = None,
        cpus: tuple[str, ...] | list[str] = (),
        start: bool = True,
    ) -> Table:
        """``/play`` in a new channel by the first player, the others join,
        computers are added at the given levels, and the host starts."""
        self._channels += 1
        channel = self.guild.create_text_channel(f"{game}-{self._channels}")
        people = [getattr(self, n) for n in NAMES[:players]]
        kwargs = {"game": game} | ({"options": options} if options else {})
        res = await people[0].slash(channel, "play", **kwargs)
        assert res.response is not None and not res.response.ephemeral, res
        table = Table(self, res.response, game)
        for user in people[1:]:
            await table.press("Join", by=user)
        for level in cpus:
            await table.press(f"Add computer ({level})", by=people[0])
        if start:
            await table.press("Start", by=people[0])
        return table

    async def restart(self) -> None:
        """Stop the bot and start a new one on the same database."""
        bot = self.harness.bot()
        bot.cpu_delay = 0.0
        await self.env.restart_bot(bot)

    async def wait(self, seconds: float) -> None:
        """Let ``seconds`` of SimCord time pass (turn clocks run)."""
        await self.env.advance_time(seconds)


@pytest.fixture
def game_night(harness: Harness) -> Callable[[], AbstractAsyncContextManager[Night]]:
    """``async with game_night() as night:`` — a game night: seeded dice,
    computers without a pause, a turn clock on SimCord's time. (A context
    manager in the test, not a fixture's yield: SimCord's run must start and
    end in the test's own context.)"""

    @asynccontextmanager
    async def start() -> AsyncIterator[Night]:
        clock = EnvClock()
        harness.clock = clock
        harness.dice = list(NIGHT_DICE)
        bot = harness.bot()
        bot.cpu_delay = 0.0
        async with simcord.run(bot) as env:
            clock.env = env
            yield Night(harness, env, clock)

    return start
