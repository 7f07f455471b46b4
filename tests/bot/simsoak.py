"""The chaos soak (issue 24): whole games of every kind played through
SimCord while faults are injected at random from a seeded generator, and
the invariants checked from outside (what Discord shows, what was logged)
and from the database after each game and at the end.

Shared by ``python bench/soak.py --games N --seed S`` and the short version
in the default test run (tests/bot/test_soak.py).

Games are played in *sessions* of :data:`SESSION` games: one SimCord world,
one SQLite database and one bot (restarted by the faults) per session, the
same six people playing game after game (so ratings accumulate). Game ``i``
of seed ``S`` always draws its setup and faults from ``Random(f"{S}:{i}")``,
so a session replays the same way: a violation names the command that plays
its session again (``--seed S --start FIRST --games N``).

The faults (:data:`KINDS`):

- ``answer_10062`` / ``answer_500`` / ``answer_429``: the answer to the next
  press fails (too late, a 5xx, rate limited);
- ``edit``: the next edit of a message by id fails (500);
- ``behind``: the answer and the edit both fail (the table falls behind);
- ``send``: the next message the bot sends fails (a DM, a ping, a repost);
- ``delete``: the table message is deleted;
- ``lost_channel``: the bot loses the table's channel (403 on every send and
  edit there): nobody presses any more, the turn clock runs;
- ``readonly``: the database is read-only (``PRAGMA query_only``) for a
  press, a command (/play elsewhere or /game status) and a few seconds;
- ``restart``: the bot is restarted in-process on the same database;
- ``clock_jump``: the bot's clock jumps forward (NTP, a suspended VM);
- ``idle``: nobody presses for a turn clock (the clock plays a default move);
- ``stale``: a press from an older copy of the table message (a double
  click, a window left open): answered, and nothing changed if it is old;
- on PostgreSQL (``--pg``, :data:`PG_WEIGHTS`; ``readonly`` is SQLite's):
  ``pg_fast`` / ``pg_immediate``: the server restarted (``pg_ctl restart -m
  fast|immediate``) between two presses; ``pg_down``: the server stopped for
  a press, a command and a few seconds (the press is answered "cannot save
  right now", nothing changes), then started; ``pg_terminate``: every
  backend of the database ended (``pg_terminate_backend``) between two
  presses. After each, the bot must be back to work (a read, its sweeps)
  within :data:`BACK_WITHIN` real seconds of the server's return;
- ``kill9``: every 50th game (``i % 50 == 49``) is played by a child process
  killed with SIGKILL after a random press, then finished by a new bot on the
  same database in a world built with the same ids (bench/soak.py).

One game in ten is left live after a random step (the players walk away):
its turn clocks run on through the session's next games.

The invariants (:func:`check_game`, :func:`check_session`): see
docs/stranded.md, "The chaos soak".
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import logging
import os
import random
import re
import sqlite3
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import simcord
from discord import app_commands
from simcord.results import ResponseMessage
from simlocale import EnvClock
from simlocale import locales as locales_of_users
from simtable import Harness, named_cards, press_from_snapshot, refusal, walk

from bot import ratings
from bot.followers.clock import REPAIR_EVERY, SWEEP_EVERY
from bot.i18n import catalogue
from bot.tables.service import ledger_moves
from games import registry
from games import sixtysix as sixtysix_engine
from games.core import SeededSource

SESSION = 10  # games per SimCord world and database
KILL_EVERY = 50  # game i with i % KILL_EVERY == KILL_EVERY - 1: a real kill -9
PEOPLE = ("alice", "bob", "carol", "dave", "erin", "frank")
GAMES = ("nine", "sixdice", "yahtzee", "bluff", "sixtysix")
# short games: house options (as /play takes them) and the actions a player prefers
OPTIONS = {
    "nine": None,
    "sixdice": "target=3000 start=500",
    "yahtzee": None,
    "bluff": "losses=2",
    "sixtysix": "target=2",
}
PREFER = {"sixdice": ("m:stop",), "sixtysix": ("m:draw",)}
# a person rarely presses these (Sixty-Six's Declare 66 below 66 ends the deal)
SELDOM = ("m:declare",)
# the steps over which a game's faults are spread (about its length in steps)
HORIZON = {"nine": 30, "sixdice": 40, "yahtzee": 90, "bluff": 10, "sixtysix": 25}
AVOID = ("show", "leave", "forfeit", "m:forfeit", "hint", "rules", "end")
PRESSES = 500  # a game not over after this many steps is left live (and checked so)
SETTLE = 120.0
ANSWER = "/interactions/*/*/callback"
EDIT = "/channels/*/messages/*"
SEND = "/channels/*/messages"

# fault kind → weight in the draw
WEIGHTS = {
    "answer_10062": 2.0,
    "answer_500": 1.5,
    "answer_429": 1.0,
    "edit": 2.0,
    "behind": 2.0,
    "send": 2.0,
    "delete": 1.0,
    "lost_channel": 0.5,
    "readonly": 1.0,
    "restart": 1.5,
    "clock_jump": 1.0,
    "idle": 1.0,
    "stale": 1.5,
}
# on PostgreSQL (Mix.pg): the server's faults (``readonly`` is not drawn)
PG_WEIGHTS = {"pg_fast": 1.0, "pg_immediate": 1.0, "pg_down": 1.5, "pg_terminate": 1.0}
KINDS = (*WEIGHTS, *PG_WEIGHTS, "kill9")
# the bot back to work so long (real seconds) after the server returned
BACK_WITHIN = 5.0
# the server of a --pg soak (tests/bot/pgcluster.py's Cluster), set by bench/soak.py
SERVER: Any = None
# set (by bench/soak.py --procs) when several processes share the server
PROCS_ENV = "CHABUDAI_SOAK_PROCS"
# seconds from each server's return until the bot was back to work (measured)
RECOVERIES: list[float] = []


@contextlib.asynccontextmanager
async def server_turn(exclusive: bool = False) -> Any:
    """--procs: the soak's processes share one server. A driver's step (its
    presses and reads) holds this lock shared; a server fault holds it
    alone, so the other processes' drivers wait while the server is away
    (their bots' connections die all the same, and must come back), and a
    driver never fails on its own reads. A no-op without a server."""
    path = None if SERVER is None or SERVER.dir is None else SERVER.dir / "soak.lock"
    if path is not None and os.environ.get(PROCS_ENV) is None:
        path = None  # one process: nobody to wait for
    if path is None:
        yield
        return
    import fcntl

    with open(path, "a+") as fh:
        # waited for in a thread: the loop runs on meanwhile (a connection
        # the server dropped is seen closed, as in a process never stalled)
        await asyncio.to_thread(fcntl.flock, fh, fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH)
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)

# An ERROR line the soak accepts: one that names a reason a person can act
# on (its cause and what to do); any other ERROR under these faults is a bug.
ACTIONABLE: tuple[re.Pattern[str], ...] = (
    # the sweeper on a read-only or full database (once, then a reminder)
    re.compile(r"^the database cannot be written \(.+\): .*make the database writable"),
    re.compile(r"^the database still cannot be written after \d+ s \(.+\)"),
    # the sweeper while the database server is away (PostgreSQL restarting)
    re.compile(r"^the database server cannot be reached \(.+\): .*check that the database server"),
)
NONE_MENTION = re.compile(r"<(?:@[!&]?|#)None>")


# ------------------------------------------------------------ the plan


@dataclass
class Plan:
    """One game's setup and faults, drawn from ``Random(f"{seed}:{index}")``."""

    seed: int
    index: int
    game: str
    people: int
    cpus: list[str]
    lang: str  # the server's language for this game's table
    locales: dict[str, str]  # person → Discord locale
    faults: list[tuple[int, str]]  # (step, kind), steps ascending
    kill_after: int | None = None  # kill -9 after this many presses (a child process)
    mix: Mix | None = None  # how the faults were drawn
    stop_after: int | None = None  # the players walk away after this many steps: left live

    @property
    def reproduce(self) -> str:
        start = self.index - self.index % SESSION
        out = f"python bench/soak.py --seed {self.seed} --start {start} --games {self.index - start + 1}"
        return out + (self.mix.options() if self.mix is not None else "")


@dataclass(frozen=True)
class Mix:
    """Which faults are drawn: of ``kinds`` (None: all), none of the
    (game, kind) pairs in ``skip``; how many a game gets: one of ``counts``."""

    kinds: tuple[str, ...] | None = None
    skip: tuple[tuple[str, str], ...] = ()
    counts: tuple[int, ...] = (0, 1, 1, 2, 2, 3, 4)
    pg: bool = False  # on PostgreSQL: the server's faults drawn too

    def allows(self, game: str, kind: str) -> bool:
        return (self.kinds is None or kind in self.kinds) and (game, kind) not in self.skip

    def options(self) -> str:
        """The options of bench/soak.py that draw this mix."""
        out = ""
        if self.kinds is not None:
            out += " --kinds " + ",".join(self.kinds)
        if self.skip:
            out += " --skip " + ",".join(f"{g}:{k}" for g, k in self.skip)
        if self.counts != Mix.counts:
            out += " --counts " + ",".join(map(str, self.counts))
        if self.pg:
            out += " --pg"
        return out


def plan(seed: int, index: int, mix: Mix = Mix()) -> Plan:  # noqa: B008  (frozen)
    """The setup and faults of game ``index``, drawn with ``mix``."""
    rng = random.Random(f"{seed}:{index}")
    killed = index % KILL_EVERY == KILL_EVERY - 1
    game = GAMES[(index // KILL_EVERY if killed else index) % len(GAMES)]
    killed = killed and mix.allows(game, "kill9")
    if game == "sixtysix":
        people = rng.choice([1, 2])
        cpus = ["easy"] * (2 - people)
    elif game == "bluff":
        people = rng.choice([1, 2, 3])
        cpus = [
            rng.choice(["easy", "normal"])
            for _ in range(rng.choice([0, 1, 2]) if people > 1 else rng.choice([1, 2]))
        ]
    else:
        people = rng.choice([1, 2, 2, 3])
        cpus = [
            rng.choice(["easy", "normal"]) for _ in range(rng.choice([0, 1]) if people > 1 else 1)
        ]
    lang = rng.choice(["en", "en", "ja"])
    locales = {name: rng.choice(["en-US", "en-US", "ja"]) for name in PEOPLE}
    weights = {k: w for k, w in WEIGHTS.items() if mix.allows(game, k)}
    if mix.pg:  # (SQLite's soak draws as before)
        weights.pop("readonly", None)
        weights |= {k: w for k, w in PG_WEIGHTS.items() if mix.allows(game, k)}
    faults: list[tuple[int, str]] = []
    if weights:
        for _ in range(rng.choice(mix.counts)):
            kind = rng.choices(list(weights), weights=list(weights.values()))[0]
            faults.append((rng.randrange(0, HORIZON[game]), kind))
    faults.sort()
    kill_after = rng.randrange(1, 8) if killed else None
    # one game in ten is left live (its own generator: the draws above stay)
    away = random.Random(f"{seed}:{index}:away")
    stop_after = away.randrange(1, HORIZON[game]) if away.random() < 0.1 and not killed else None
    return Plan(seed, index, game, people, cpus, lang, locales, faults, kill_after, mix, stop_after)


# ------------------------------------------------------------ the record


@dataclass
class Violation:
    seed: int
    index: int
    game: str
    what: str
    reproduce: str

    def __str__(self) -> str:
        return f"game {self.index} ({self.game}, seed {self.seed}): {self.what}  [{self.reproduce}]"


@dataclass
class Tally:
    games: int = 0
    finished: int = 0
    unrated: int = 0
    live: int = 0
    presses: int = 0
    faults: Counter[str] = field(default_factory=Counter)
    violations: list[Violation] = field(default_factory=list)
    seconds: float = 0.0

    def add(self, other: Tally) -> None:
        self.games += other.games
        self.finished += other.finished
        self.unrated += other.unrated
        self.live += other.live
        self.presses += other.presses
        self.faults.update(other.faults)
        self.violations.extend(other.violations)

    def report(self) -> str:
        rate = self.games / self.seconds if self.seconds else 0.0
        lines = [
            f"{self.games} games in {self.seconds:.1f} s: {rate:.2f} games/s, {self.presses} presses"
            f" ({self.finished} finished, {self.unrated} ended unrated, {self.live} left live)",
            "faults injected: "
            + (", ".join(f"{k} {n}" for k, n in sorted(self.faults.items())) or "none"),
            f"violations: {len(self.violations)}",
        ]
        lines += [f"  {v}" for v in self.violations]
        return "\n".join(lines)


class Captured(logging.Handler):
    """Every log record of the session (the bot's INFO and up, everyone's WARNING)."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@contextlib.contextmanager
def capture_logs() -> Any:
    handler = Captured()
    root = logging.getLogger()
    bot_log = logging.getLogger("bot")
    saved = bot_log.level
    bot_log.setLevel(logging.INFO)
    root.addHandler(handler)
    try:
        yield handler
    finally:
        root.removeHandler(handler)
        bot_log.setLevel(saved)


# ------------------------------------------------------------ the world


class Session:
    """One SimCord world, one database, one bot (restarted by faults)."""

    def __init__(
        self, env: simcord.Env, harness: Harness, clock: EnvClock, by_user: dict[int, str]
    ) -> None:
        self.env = env
        self.harness = harness
        self.clock = clock
        self.by_user = by_user
        self.guild = env.create_guild("soak")
        self.members = {name: self.guild.add_member(env.create_user(name)) for name in PEOPLE}
        for member in self.members.values():
            getattr(member, "user", member).dm_channel  # noqa: B018  (made now: the same ids)
        self.fixed: Any = None  # a kill -9 game's channel (built with the world)
        self.seed_make: Any = None
        self.errors_seen = 0
        self.closed: set[str] = set()
        self.seeds: dict[int, list[str]] = {}  # game index → the seeds its tables drew
        self.game_index = 0
        self.channels = 0

    @property
    def bot(self) -> Any:
        return self.harness.bots[-1]

    @property
    def store(self) -> Any:
        return self.bot.tables.store

    def close_dms(self, name: str) -> None:
        user = getattr(self.members[name], "user", self.members[name])
        self.env.inject_error("POST", f"/channels/{user.dm_channel.id}/messages", status=403,
                              code=50007, message="Cannot send messages to this user", times=None)  # fmt: skip
        self.closed.add(name)

    async def restart(self) -> None:
        # PostgreSQL: SimCord's restart leaves the old bot's store open (a
        # real process's sessions die with it); its kept table locks are let
        # go when the new one asks — heard only once its notices are back
        # after a server fault (a live process hears again within a second)
        db = self.store.db
        started = time.monotonic()
        while not getattr(db, "listening", True) and time.monotonic() - started < BACK_WITHIN:
            await self.env.advance_time(0.25)
        bot = self.harness.bot()
        bot.cpu_delay = 0.0
        await self.env.restart_bot(bot)


def seed_factory(session: Session, seed: int) -> Any:
    """Each table's seed: unique, known to the checker (no seed before the end in public)."""
    n = 0

    def make() -> str:
        nonlocal n
        n += 1
        tail = random.Random(f"{seed}:{session.game_index}:{n}").getrandbits(32)
        value = f"soak{seed}x{session.game_index}x{n}x{tail:08x}"
        session.seeds.setdefault(session.game_index, []).append(value)
        return value

    return make


@contextlib.asynccontextmanager
async def world(db: Path, seed: int, *, at: float | None = None, shift: int = 0) -> Any:
    """A session's world: SimCord, a bot on ``db``, six people. ``at``: the
    world (the server, the people, their DM channels and one channel,
    ``session.fixed``) is built at that SimCord second before the bot starts,
    so every process that builds it gets the same ids (as
    bench/scale_worker.py does); ``shift``: message ids from a later clock
    (a restarted process)."""
    from bot.app import create_bot
    from bot.storage import open_store

    harness = Harness(db)
    clock = EnvClock()
    holder: list[Session] = []

    def seeds() -> str:
        return str(holder[0].seed_make())

    def make_bot() -> Any:
        bot = create_bot(
            open_store(db), clock=clock, seed_factory=seeds, source_factory=SeededSource
        )
        bot.cpu_delay = 0.0
        harness.bots.append(bot)
        return bot

    harness.bot = make_bot  # type: ignore[method-assign]
    bot = harness.bot()
    with locales_of_users({}) as by_user:
        runner = simcord.run(bot, settle_timeout=SETTLE)
        env = runner._env
        if at is not None and env.backend.clock.elapsed < at:
            env.backend.clock.elapsed = at
        session = Session(env, harness, clock, by_user)
        if at is not None:
            session.fixed = session.guild.create_text_channel("kill")
        if shift:
            import scale_worker  # bench/ (on the path when bench/soak.py runs)

            scale_worker.shift_snowflakes(env, shift)
        session.seed_make = seed_factory(session, seed)
        holder.append(session)
        turn: Any = server_turn()  # (the bot's start and stop: never while the server is away)
        await turn.__aenter__()
        try:
            async with runner as env:
                await turn.__aexit__(None, None, None)
                turn = None
                clock.env = env
                yield session
                turn = server_turn()
                await turn.__aenter__()
        finally:
            await harness.close()
            if turn is not None:
                await turn.__aexit__(None, None, None)


# ------------------------------------------------------------ one game


def table_id_of(cid: str) -> int | None:
    parts = cid.split(":")
    if len(parts) >= 3 and parts[0] in ("cb", "cs") and parts[1].isdigit():
        return int(parts[1])
    return None


def newest_with_controls(
    env: simcord.Env, channel_id: int, table_id: int, user_id: int | None = None
) -> Any:
    """The newest message in ``channel_id`` with controls of the table
    (visible to ``user_id``: an ephemeral hand)."""
    best = None
    for stored in env.backend.messages.get(channel_id, {}).values():
        if not stored.visible_to(user_id):
            continue
        ids = [str(c.get("custom_id", "")) for c in walk(stored.components or [])]
        if any(table_id_of(i) == table_id for i in ids):
            if best is None or stored.id > best.id:
                best = stored
    return best


def choices_of(
    stored: Any, prefer: tuple[str, ...], rng: random.Random
) -> list[tuple[str, str, str | None]]:
    """The moves a player may make on ``stored`` (buttons and select options),
    the preferred ones first; ``AVOID``-ed actions never."""
    out = []
    for c in walk(stored.components or []):
        cid = str(c.get("custom_id", ""))
        if table_id_of(cid) is None or c.get("disabled"):
            continue
        action = cid.split(":", 3)[3] if cid.count(":") >= 3 else ""
        if action in AVOID or action.startswith(("cpu:", "kick")):
            continue
        if c.get("type") == 2:
            out.append(("click", cid, None, action))
        elif c.get("type") == 3:
            for o in c.get("options") or []:
                out.append(("select", cid, o["value"], action))
    preferred = [x for x in out if x[3] in prefer]
    if preferred and rng.random() < 0.8:
        return [x[:3] for x in preferred]
    rng.shuffle(out)
    if rng.random() < 0.9:  # seldom pressed: last
        out.sort(key=lambda x: x[3] in SELDOM)
    return [x[:3] for x in out]


@dataclass
class GameRun:
    plan: Plan
    channel: Any
    table_id: int | None = None
    expect_unrated: bool = False
    unanswered_ok: int = 0  # presses whose answer was failed on purpose
    presses: int = 0
    faults: Counter[str] = field(default_factory=Counter)
    problems: list[str] = field(default_factory=list)
    seen: dict[tuple[int, int], str] = field(default_factory=dict)
    private_lines: set[str] = field(default_factory=set)
    turned_up: set[str] = field(default_factory=set)  # Sixty-Six trump cards shown face up

    def problem(self, what: str) -> None:
        if what not in self.problems:
            self.problems.append(what)


class Player:
    """Plays one game of a plan in a session, injecting its faults."""

    def __init__(self, session: Session, run: GameRun) -> None:
        self.s = session
        self.run = run
        self.rng = random.Random(f"{run.plan.seed}:{run.plan.index}:moves")
        self.side = random.Random(f"{run.plan.seed}:{run.plan.index}:side")  # not the moves'
        self.injected: list[dict[str, Any]] = []
        self.answer_fails = False  # an answer fault waits for the next press
        self.old: tuple[dict[str, Any], Any] | None = None  # an older copy of the table

    # ---------------------------------------------------------------- faults

    def inject(self, method: str, path: str, *, status: int = 500, code: int = 0) -> None:
        self.s.env.inject_error(method, path, status=status, code=code, times=1)
        self.injected.append(self.s.env.backend.faults[-1])

    def clear(self) -> None:
        """Faults injected for one step and not used by it are withdrawn."""
        for fault in self.injected:
            with contextlib.suppress(ValueError):
                self.s.env.backend.faults.remove(fault)
        self.injected = []

    async def fault(self, kind: str) -> bool:
        """Inject ``kind``; returns whether the next press's answer is meant to fail."""
        env, run = self.s.env, self.run
        run.faults[kind] += 1
        if kind == "answer_10062":
            self.inject("POST", ANSWER, status=404, code=10062)
            return True
        if kind == "answer_500":
            self.inject("POST", ANSWER, status=500)
            return True
        if kind == "answer_429":
            self.inject("POST", ANSWER, status=429)
            return True
        if kind == "edit":
            self.inject("PATCH", EDIT)
        elif kind == "behind":
            self.inject("POST", ANSWER)
            self.inject("PATCH", EDIT)
            return True
        elif kind == "send":
            self.inject("POST", SEND)
        elif kind == "delete":
            row = await self.s.store.tables.table_in_channel(run.channel.id)
            if row is not None and row.message_id is not None:
                with contextlib.suppress(Exception):
                    env.backend.delete_message(run.channel.id, row.message_id)
        elif kind == "lost_channel":
            for method in ("PATCH", "POST"):
                env.inject_error(method, f"/channels/{run.channel.id}/messages*", status=403,
                                 code=50001, message="Missing Access", times=None)  # fmt: skip
            run.expect_unrated = True
        elif kind == "readonly":
            await self.s.store.db.connection.execute("PRAGMA query_only = 1")
            spare = None
            try:
                await self.step(answer_fails=self.answer_fails, readonly=True)
                self.answer_fails = False
                # a command meanwhile: /play elsewhere, or /game status here
                who = self.s.members[self.side.choice(PEOPLE)]
                if self.side.random() < 0.5:
                    spare = self.s.guild.create_text_channel(f"spare-{run.plan.index}")
                    res = await who.slash(spare, "play", game=run.plan.game)
                else:
                    res = await who.slash(run.channel, "game status")
                if not res.acknowledged:
                    run.problem("a command on a read-only database got no answer")
                await env.advance_time(self.rng.uniform(2.0, 6.0))
            finally:
                await self.s.store.db.connection.execute("PRAGMA query_only = 0")
            if spare is not None:
                left = await self.s.store.tables.table_in_channel(spare.id)
                if left is not None and left.version > 0:
                    run.problem("a /play on a read-only database left a lobby")
        elif kind in PG_WEIGHTS:
            async with server_turn(exclusive=True):
                await self.server_fault(kind)
        elif kind == "restart":
            await self.s.restart()
        elif kind == "clock_jump":
            self.s.clock.skew += self.rng.choice([15.0, 45.0, 100.0, 400.0])
            await env.advance_time(SWEEP_EVERY * 2)
        elif kind == "stale":
            await self.stale()
        elif kind == "idle":
            row = await self.s.store.tables.table_in_channel(run.channel.id)
            seconds = registry.spec(run.plan.game).turn_seconds
            await env.advance_time(seconds + 5 if row is not None else 5)
        return False

    async def server_fault(self, kind: str) -> None:
        """The PostgreSQL server restarted, stopped for a press, or every
        backend of the database ended; then the bot must be back to work
        within :data:`BACK_WITHIN` seconds of the server's return."""
        env, run = self.s.env, self.run
        if SERVER is None:
            return
        if kind == "pg_terminate":
            import asyncpg

            admin = await asyncpg.connect(SERVER.url)
            try:
                await admin.execute(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                    " WHERE datname = current_database() AND pid <> pg_backend_pid()"
                )
            finally:
                await admin.close()
        elif kind in ("pg_fast", "pg_immediate"):
            SERVER.restart(kind.removeprefix("pg_"))
        else:  # pg_down: a press and a command while the server is away
            row = await self.row()
            target = None if row is None else newest_with_controls(env, run.channel.id, row.id)
            SERVER.halt(self.side.choice(["fast", "immediate"]))
            try:
                if row is not None and target is not None and row.phase == "playing":
                    options = choices_of(target, PREFER.get(row.game, ()), self.rng)
                    mover = [s for s in row.seats if not s.get("bot")]
                    if options and mover:
                        kind_, cid, value = options[0]
                        member = self.member(self.side.choice(mover)["id"])
                        message = ResponseMessage(env, target)
                        if kind_ == "click":
                            res = await member.click(message, custom_id=cid)
                        else:
                            res = await member.select(message, [value], custom_id=cid)
                        run.presses += 1
                        if not res.acknowledged:
                            run.problem("a press while the database server was away got no answer")
                        elif (
                            res.response is not None
                            and res.response.ephemeral
                            and not self.says(res, "error.db_unavailable")
                            and refusal(res.response.content) is None
                            # (a "sure?" prompt, from the row kept with the
                            # lock: it saves nothing until confirmed)
                            and not any(":y:" in str(c.get("custom_id", ""))
                                        for c in walk(res.response.components or []))
                        ):
                            run.problem("a press while the database server was away was not told"
                                        " 'cannot save right now' but"
                                        f" {str(res.response.content)[:80]!r}")  # fmt: skip
                who = self.s.members[self.side.choice(PEOPLE)]
                res = await who.slash(run.channel, "game status")
                if not res.acknowledged:
                    run.problem("a command while the database server was away got no answer")
                await env.advance_time(self.rng.uniform(2.0, 8.0))
            finally:
                SERVER.resume()
            if row is not None:
                after = await self.row()
                if after is not None and after.id == row.id and after.version != row.version:
                    # (a computer's or the clock's move after the return is not the press)
                    lines = await self.s.store.tables.ledger(row.id)
                    made = [x for x in lines if x["version"] > row.version and x["origin"] == "press"]
                    if made:
                        run.problem("a press while the database server was away was saved")
        await self.back_to_work()

    async def back_to_work(self) -> None:
        """Real seconds until the bot reads its table, its sweeps go through
        and its notices come again (SimCord's time moving meanwhile); a violation past
        :data:`BACK_WITHIN`."""
        started = time.monotonic()
        sweeper = self.s.bot.sweeper
        while True:
            try:
                await self.s.store.tables.table_in_channel(self.run.channel.id)
                # its sweeps go through, and it hears the others again (LISTEN:
                # another process's "ask" for a table this one keeps locked)
                ok = sweeper.backoff.since is None and getattr(self.s.store.db, "listening", True)
            except sqlite3.Error:
                ok = False
            if ok:
                break
            if time.monotonic() - started > BACK_WITHIN:
                self.run.problem(f"the bot was not back to work {BACK_WITHIN:g} s after the"
                                 " database server returned")  # fmt: skip
                return
            await self.s.env.advance_time(0.25)
        RECOVERIES.append(time.monotonic() - started)

    async def stale(self) -> None:
        """A press from an older copy of the table message (a double click,
        a window left open): answered, and nothing played twice."""
        env, run = self.s.env, self.run
        if self.old is None:
            return
        payload, member = self.old
        ids = [str(c["custom_id"]) for c in walk(payload.get("components") or [])
               if c.get("type") == 2 and table_id_of(str(c.get("custom_id", ""))) is not None
               and str(c["custom_id"]).split(":", 3)[-1] not in AVOID]  # fmt: skip
        if not ids:
            return
        before = await self.row()
        cid = self.side.choice(ids)
        res = await press_from_snapshot(member, env, payload, cid)
        run.presses += 1
        await self.answered(res, self.answer_fails)
        self.answer_fails = False
        after = await self.row()
        old = before is not None and int(cid.split(":")[2]) < before.version
        if old and after is not None and after.version != before.version:
            run.problem("a press from an older copy of the table changed it")
        await self.check_public()

    def keep_old(self, stored: Any, member: Any) -> None:
        """The table message as a client shows it now, to press later (``stale``)."""
        from simcord.backend import serializers

        payload = dict(serializers.message_payload(self.s.env.backend, stored))
        self.old = (json.loads(json.dumps(payload, default=str)), member)

    # ---------------------------------------------------------------- moves

    async def row(self) -> Any:
        return await self.s.store.tables.table_in_channel(self.run.channel.id)

    def member(self, user_id: int) -> Any:
        return next(m for m in self.s.members.values() if m.id == user_id)

    async def answered(self, res: Any, answer_fails: bool) -> None:
        if not res.acknowledged:
            if answer_fails:
                self.run.unanswered_ok += 1
            else:
                self.run.problem(f"an interaction got no answer (step {self.run.presses})")

    async def step(self, *, answer_fails: bool, readonly: bool = False) -> bool:
        """One move by a person whose turn it is (or a computer's, waited
        for). Returns False when the game is over (no table in the channel)."""
        env, run = self.s.env, self.run
        row = await self.row()
        if row is None or row.id != run.table_id:
            return False
        if row.phase != "playing" or row.state is None:
            await env.advance_time(5)
            return True
        eng = registry.engine(row.game)
        state = eng.from_json(row.state)
        movers = [s for s in row.seats if s["name"] in eng.to_move(state)]
        people = [s for s in movers if not s.get("bot")]
        if not people:  # a computer's turn: it moves at once (or at the next sweep)
            await env.settle()
            after = await self.row()
            if after is not None and after.version == row.version:
                await env.advance_time(SWEEP_EVERY * 2)
            return True
        seat = self.rng.choice(people)
        member = self.member(seat["id"])
        user = getattr(member, "user", member)
        prefer = PREFER.get(row.game, ())
        if row.game == "sixtysix":
            target = newest_with_controls(env, user.dm_channel.id, row.id)
            if target is None or self.rng.random() < 0.1:
                table = newest_with_controls(env, run.channel.id, row.id)
                if table is None:
                    return await self.no_table()
                show = next((c["custom_id"] for c in walk(table.components or [])
                             if str(c.get("custom_id", "")).endswith(":show")), None)  # fmt: skip
                if show is None:
                    return await self.no_table()
                res = await member.click(ResponseMessage(env, table), custom_id=show)
                run.presses += 1
                await self.answered(res, answer_fails)
                await self.check_public()
                if res.response is None or not res.response.ephemeral:
                    return True
                answer_fails = False
                target = env.backend.get_message(res.response.channel_id, res.response.id)
            presser = user if target.channel_id == user.dm_channel.id else member
        else:
            target = newest_with_controls(env, run.channel.id, row.id)
            if target is None:
                return await self.no_table()
            presser = member
            if self.side.random() < 0.3:
                self.keep_old(target, member)
        options = choices_of(target, prefer, self.rng)
        if not options:
            await env.advance_time(5)
            return True
        kind, cid, value = options[0]
        message = ResponseMessage(env, target)
        if kind == "click":
            res = await presser.click(message, custom_id=cid)
        else:
            res = await presser.select(message, [value], custom_id=cid)
        run.presses += 1
        await self.answered(res, answer_fails)
        if readonly and res.acknowledged and not self.says(res, "error.db_unavailable"):
            if (await self.row()) is not None and (await self.row()).version != row.version:
                run.problem("a press was saved while the database was read-only")
        if res.response is not None and res.response.ephemeral:
            sure = [c for c in walk(res.response.components or [])
                    if ":y:" in str(c.get("custom_id", ""))]  # fmt: skip
            if sure:
                res2 = await presser.click(res.response, custom_id=sure[0]["custom_id"])
                run.presses += 1
                await self.answered(res2, False)
        await self.check_public()
        return True

    def says(self, res: Any, key: str) -> bool:
        texts = [res.response.content if res.response is not None else ""]
        texts += [f.content for f in res.followups]
        return any(catalogue(lang)[key] == (t or "") for t in texts for lang in ("en", "ja"))

    async def no_table(self) -> bool:
        """No table message with controls in the channel (deleted, not yet
        reposted): the turn clock or the repair sweep brings it back."""
        await self.s.env.advance_time(REPAIR_EVERY + 1)
        return True

    # ---------------------------------------------------------------- checks

    async def check_public(self) -> None:
        """What changed on Discord since the last look: no "None" mention
        anywhere, no seed of a live game, no hidden card or private dice line
        in a public message, its controls, options or alt text."""
        env, run = self.s.env, self.run
        await self.note_state()
        seeds = self.s.seeds.get(run.plan.index, [])
        hidden: set[str] = set()
        allowed: set[str] = set()
        live = False
        rowstate = getattr(self, "_state", None)
        if rowstate is not None:
            live = True
            if run.plan.game == "sixtysix":
                st = sixtysix_engine.from_json(rowstate)
                hidden = set(st.hands[0]) | set(st.hands[1]) | set(st.talon[:-1])
                if st.closed and st.talon:
                    hidden.add(st.talon[-1])
                allowed = {
                    m.split()[-1]
                    for m in st.history.moves
                    if len(m.split()) > 2 and m.split()[1] in ("play", "marry")
                }
                allowed |= run.turned_up
        channels = [run.channel.id] + [
            getattr(m, "user", m).dm_channel.id for m in self.s.members.values()
        ]
        for channel_id in channels:
            for stored in list(env.backend.messages.get(channel_id, {}).values()):
                words = [stored.content or ""]
                for c in walk(stored.components or []):
                    words.append(str(c.get("custom_id", "")))
                    words.append(str(c.get("label", "")))
                    words.extend(
                        f"{o.get('value')} {o.get('label')}" for o in c.get("options") or []
                    )
                words.extend(str(a.get("description") or "") for a in stored.attachments or [])
                for e in getattr(stored, "embeds", None) or []:
                    words.append(json.dumps(e, ensure_ascii=False))
                text = "\n".join(words)
                key = (channel_id, stored.id)
                if run.seen.get(key) == text:
                    continue
                run.seen[key] = text
                if NONE_MENTION.search(text):
                    run.problem(
                        f"a message names None as a mention: {NONE_MENTION.search(text).group(0)!r} in {stored.content[:80]!r}"
                    )
                public = channel_id == run.channel.id and stored.visible_to(None)
                if not public:
                    for line in (stored.content or "").splitlines():
                        if pattern_private(line):
                            run.private_lines.add(line.strip())
                    continue
                if live:
                    for seed in seeds:
                        if seed in text:
                            where = next((x for x in words if seed in x), "")
                            run.problem(
                                f"the seed of a live game is in a public message: {where[:120]!r}"
                            )
                if hidden:
                    lines = (stored.content or "").splitlines()
                    told = named_cards("\n".join(x for x in lines if x.startswith("• ")))
                    seen = named_cards("\n".join(x for x in lines if not x.startswith("• ")))
                    seen |= named_cards("\n".join(words[1:]))
                    leaked = ((told & hidden) - allowed) | ((seen & hidden) - run.turned_up)
                    if leaked:
                        where = next((x for x in words if named_cards(x) & leaked), "")
                        run.problem(
                            f"a public message names hidden cards {sorted(leaked)}: {where[:100]!r}"
                        )
                for line in run.private_lines:
                    if line and line in text:
                        run.problem(
                            "a private line (dice under the cup, a hand) is in a public message"
                        )

    async def note_state(self) -> None:
        row = await self.row()
        live = row is not None and row.id == self.run.table_id
        self._state = row.state if live else None
        if live and row.game == "sixtysix":
            # each deal's turned-up trump card is public (also once exchanged)
            for event in row.ui.get("log") or []:
                if event.get("kind") == "deal" and (event.get("data") or {}).get("trump_card"):
                    self.run.turned_up.add(event["data"]["trump_card"])
            if row.state is not None:
                self.run.turned_up |= trump_cards(sixtysix_engine.from_json(row.state))


def trump_cards(st: Any) -> set[str]:
    """The turned-up trump card of the deal (face up: public knowledge)."""
    out = set()
    if st.talon and not st.closed:
        out.add(st.talon[-1])
    return out


_PRIVATE: list[re.Pattern[str]] = []


def pattern_private(line: str) -> bool:
    """Whether ``line`` is a private line naming a secret (the dice under the
    cup, a Sixty-Six hand)."""
    if not _PRIVATE:
        from simtable import pattern

        for lang in ("en", "ja"):
            for key in ("bluff.private.dice", "sixtysix.private.hand"):
                _PRIVATE.append(pattern(key, lang))
    return any(p.fullmatch(line.strip()) for p in _PRIVATE)


async def open_game(session: Session, run: GameRun) -> bool:
    """/play by the first person, the others join, computers, start."""
    p, env = run.plan, session.env
    await session.store.settings.set_guild_setting(session.guild.id, "lang", p.lang)
    for name, locale in p.locales.items():
        session.by_user[session.members[name].id] = locale
    rng = random.Random(f"{p.seed}:{p.index}:seats")
    names = rng.sample(PEOPLE, p.people)
    people = [session.members[n] for n in names]
    kwargs = {"game": p.game} | ({"options": OPTIONS[p.game]} if OPTIONS[p.game] else {})
    res = await people[0].slash(run.channel, "play", **kwargs)
    if not res.acknowledged or res.response is None or res.response.ephemeral:
        run.problem(
            f"/play was not answered with a lobby: {getattr(res.response, 'content', None)!r}"
        )
        return False
    row = await session.store.tables.table_in_channel(run.channel.id)
    if row is None:
        run.problem("/play made no table")
        return False
    run.table_id = row.id
    lobby = res.response

    async def act(user: Any, action: str) -> Any:
        stored = newest_with_controls(env, run.channel.id, row.id)
        cid = next(str(c["custom_id"]) for c in walk(stored.components or [])
                   if str(c.get("custom_id", "")).split(":", 3)[-1] == action)  # fmt: skip
        r = await user.click(ResponseMessage(env, stored), custom_id=cid)
        if not r.acknowledged:
            run.problem(f"the lobby's {action} got no answer")
        return r

    del lobby
    for user in people[1:]:
        await act(user, "join")
    for level in p.cpus:
        await act(people[0], f"cpu:{level}")
    await act(people[0], "start")
    row = await session.store.tables.table_in_channel(run.channel.id)
    if row is None or row.phase != "playing":
        run.problem("the game did not start")
        return False
    return True


async def play_game(session: Session, p: Plan, *, on_press: Any = None, channel: Any = None,
                    table_id: int | None = None, run: GameRun | None = None) -> GameRun:  # fmt: skip
    """Open (or, ``table_id``, take over) and play the game of plan ``p``
    with its faults (in ``run``, else a new record); ``on_press(n)`` after
    every press (the child of a kill -9 game reports them)."""
    session.game_index = p.index
    if channel is None:
        session.channels += 1
        channel = session.guild.create_text_channel(f"{p.game}-{p.index}")
    if run is None:
        run = GameRun(p, channel)
    run.table_id = table_id if table_id is not None else run.table_id
    player = Player(session, run)
    async with server_turn():
        if table_id is None and not await open_game(session, run):
            return run
    faults = list(p.faults)
    for step in range(PRESSES):
        async with server_turn():
            await player.note_state()
        answer_fails = False
        while faults and faults[0][0] <= step:
            _, kind = faults.pop(0)
            if kind == "lost_channel" and run.expect_unrated:
                continue
            if kind in PG_WEIGHTS:
                answer_fails = await player.fault(kind) or answer_fails
            else:
                async with server_turn():
                    answer_fails = await player.fault(kind) or answer_fails
            player.answer_fails = answer_fails
        if run.expect_unrated:  # nobody sees the channel: the clock decides
            player.clear()
            async with server_turn():
                if await player.row() is None:
                    break
                await session.env.advance_time(registry.spec(p.game).turn_seconds + 5)
            continue
        before = run.presses
        try:
            async with server_turn():
                going = await player.step(answer_fails=answer_fails)
        except Exception as err:  # noqa: BLE001  (the driver's own failure: reported, not raised)
            run.problem(
                f"the soak's driver failed at step {step}: {type(err).__name__}: {str(err)[:120]}"
            )
            going = False
        player.clear()
        if on_press is not None and run.presses > before:
            on_press(run.presses)
        if not going:
            break
        if p.stop_after is not None and step + 1 >= p.stop_after and not run.expect_unrated:
            break  # left live: its turn clocks run on during the session's next games
    session.env.backend.faults[:] = [f for f in session.env.backend.faults
                                     if f["path"] != f"/channels/{channel.id}/messages*"]  # fmt: skip
    return run


# ------------------------------------------------------------ the checks


def replay_outcome(record: dict[str, Any]) -> tuple[int, Any]:
    """``python -m games replay`` on ``record``: its exit code and outcome."""
    from games.__main__ import main as games_main

    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as fh:
        json.dump(record, fh)
    out, err = io.StringIO(), io.StringIO()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = games_main(["replay", fh.name])
    finally:
        Path(fh.name).unlink(missing_ok=True)
    return code, (json.loads(out.getvalue()) if code == 0 else err.getvalue().strip())


async def check_game(session: Session, run: GameRun, logs: list[logging.LogRecord]) -> str:
    """The invariants of one game (problems go to ``run.problems``); returns
    how it ended: ``finished``, ``unrated`` or ``live``."""
    store, env, p = session.store, session.env, run.plan
    if run.table_id is None:
        return "none"
    await session.bot.tables.flush()
    row = await store.tables.get_table(run.table_id)
    ledger = await store.tables.ledger(run.table_id)
    versions = [line["version"] for line in ledger]
    doubled = [v for v, n in Counter(versions).items() if n > 1]
    if doubled:
        run.problem(f"ledger versions doubled: {doubled[:5]}")
    if versions and sorted(set(versions)) != list(range(1, max(versions) + 1)):
        missing = sorted(set(range(1, max(versions) + 1)) - set(versions))
        run.problem(f"the moves ledger has gaps: versions {missing[:5]} missing of {max(versions)}")
    results = [r for r in await store.results.all() if (await store.results.get_result(r["id"]))["table_id"] == run.table_id] \
        if row is None else []  # fmt: skip
    ended = "live"
    if row is None and not run.expect_unrated:
        # over: after one repair sweep no public message offers its controls
        session.bot.sweeper.repaired_at = None  # as at start-up: every table behind
        await session.bot.sweeper.repair(session.clock())
        await env.settle()
        for stored in list(env.backend.messages.get(run.channel.id, {}).values()):
            ids = [str(c.get("custom_id", "")) for c in walk(stored.components or [])]
            if stored.visible_to(None) and any(table_id_of(i) == run.table_id for i in ids):
                run.problem("the game is over but its table message still offers its controls")
                break
    if row is None:
        if results:
            ended = "finished"
            result = await store.results.get_result(results[-1]["id"])
            if ledger_moves(ledger) != result["record"]["moves"]:
                run.problem(
                    "the ledger's moves differ from the result's record (a move doubled or lost)"
                )
            code, outcome = replay_outcome(result["record"])
            if code != 0:
                run.problem(f"the record does not replay: {outcome}")
            elif outcome != result["outcome"]:
                run.problem("the record replays to another outcome than the stored one")
            if len(results) > 1:
                run.problem(f"{len(results)} results for one table")
            if run.expect_unrated:
                pass  # the game may have ended before the channel was lost
        else:
            ended = "unrated"
            last = ledger[-1]["move"] if ledger else None
            if last not in ("abandoned", "cancelled", "expired"):
                run.problem(
                    f"the table is gone without a result or a reason (last ledger line {last!r})"
                )
            elif not run.expect_unrated and not told_why(env, run.channel.id):
                run.problem("the game ended unrated and its channel was not told why")
    else:
        # live: one repair sweep, then the table message shows the stored version
        if row.state is not None and ledger_moves(ledger) != row.state["history"]["moves"]:
            run.problem("the ledger's moves differ from the table's history")
        sweeper = session.bot.sweeper
        sweeper.repaired_at = None  # as at start-up: every table behind
        await sweeper.repair(session.clock())
        await env.settle()
        await session.bot.tables.flush()
        row = await store.tables.get_table(run.table_id)
        if row is not None:
            if row.shown != row.version:
                run.problem(
                    f"live and behind after a repair sweep (v{row.shown} shown, v{row.version} stored)"
                )
            stored = None
            if row.message_id is not None:
                stored = env.backend.messages.get(run.channel.id, {}).get(row.message_id)
            if stored is None:
                if not run.expect_unrated:
                    run.problem("live without a table message after a repair sweep")
            else:
                shown = {cid.split(":")[2] for c in walk(stored.components or [])
                         if table_id_of(cid := str(c.get("custom_id", ""))) == row.id}  # fmt: skip
                if shown and shown != {str(row.version)}:
                    run.problem(
                        f"the table message's controls carry versions {sorted(shown)}, the database {row.version}"
                    )
        else:
            ended = "finished"
    # the log: no traceback, no ERROR without an actionable reason, no secret
    seeds = session.seeds.get(p.index, [])
    for record in logs:
        msg = record.getMessage()
        if record.exc_info or msg.startswith(
            ("Ignoring exception", "Task exception was never retrieved")
        ):
            where = f"{record.name}: {msg[:100]}"
            if record.exc_info and record.exc_info[1] is not None:
                where += f" ({type(record.exc_info[1]).__name__}: {str(record.exc_info[1])[:80]})"
            run.problem(f"an unhandled exception in the log: {where}")
        elif record.levelno >= logging.ERROR and not any(a.search(msg) for a in ACTIONABLE):
            run.problem(
                f"an ERROR line without a reason a person can act on: {record.name}: {msg[:120]}"
            )
        if any(seed in msg for seed in seeds):
            run.problem(f"a seed in the log: {record.name}: {msg[:60]}")
        for line in run.private_lines:
            if line in msg:
                run.problem("a private line in the log")
        if NONE_MENTION.search(msg):
            run.problem(f"a None mention in the log: {msg[:80]}")
    errors = env.errors
    for err in errors[session.errors_seen :]:
        if isinstance(err, app_commands.AppCommandError):
            continue  # given to the command tree's handler, which answers and logs (checked above)
        run.problem(f"an unhandled exception in a handler: {type(err).__name__}: {str(err)[:100]}")
    session.errors_seen = len(errors)
    return ended


def told_why(env: simcord.Env, channel_id: int) -> bool:
    """Whether a public message in the channel says why a game ended unrated."""
    from simtable import says

    keys = ("result.abandoned", "result.abandoned_idle")
    for stored in env.backend.messages.get(channel_id, {}).values():
        if stored.visible_to(None):
            if any(says(stored.content, k, lang) for k in keys for lang in ("en", "ja")):
                return True
    return False


async def check_session(session: Session) -> list[str]:
    """At a session's end: every table's ledger has no gap and no double, and
    the ratings equal a replay of the rated results in order."""
    store = session.store
    replayed: dict[tuple[str, int], tuple[float, float]] = {}
    for r in await store.results.all():
        result = await store.results.get_result(r["id"])
        ranks = {pl["user_id"]: pl["rank"] for pl in result["players"] if pl["rated"]}
        if len(ranks) < 2:
            continue
        current = {u: replayed[result["game"], u] for u in ranks if (result["game"], u) in replayed}
        for u, mr in ratings.rate(ranks, current).items():
            replayed[result["game"], u] = mr
    problems = []
    # every table of the session (the ones left live moved on since): a ledger without gaps
    by_table: dict[int, list[int]] = {}
    for line in await store.tables.ledger():
        by_table.setdefault(line["table_id"], []).append(line["version"])
    for table_id, versions in sorted(by_table.items()):
        if sorted(versions) != list(range(1, max(versions) + 1)):
            problems.append(
                f"table {table_id}'s ledger is not versions 1…{max(versions)} once each"
            )
    async with store.db.reading() as c:  # (either database)
        rows = await c.fetch("SELECT game, user_id, mu, sigma FROM ratings")
    stored = {(g, u): (mu, sigma) for g, u, mu, sigma in rows}
    for key in set(stored) | set(replayed):
        a, b = stored.get(key), replayed.get(key)
        if a is None or b is None or abs(a[0] - b[0]) > 1e-6 or abs(a[1] - b[1]) > 1e-6:
            problems.append(
                f"the rating of user {key[1]} at {key[0]} is {a}, a replay of the results gives {b}"
            )
    return problems


# ------------------------------------------------------------ sessions


async def play_session(db: Path, seed: int, indices: list[int], *, mix: Mix = Mix(),  # noqa: B008
                       tally: Tally, on_game: Any = None) -> None:  # fmt: skip
    """Play the games ``indices`` (in-process, no kill -9) in one world."""
    with capture_logs() as logs:
        async with world(db, seed) as session:
            rng = random.Random(f"{seed}:session:{indices[0]}")
            for name in rng.sample(PEOPLE, rng.choice([0, 1, 2])):
                session.close_dms(name)
            for i in indices:
                p = plan(seed, i, mix)
                p.kill_after = None
                first = len(logs.records)
                run = await play_game(session, p)
                async with server_turn():
                    ended = await check_game(session, run, logs.records[first:])
                    if i == indices[-1]:  # the session's end: its ratings (the last game's record)
                        for what in await check_session(session):
                            run.problem(f"at the session's end, {what}")
                record(tally, run, ended)
                if on_game is not None:
                    on_game(run, ended)


def record(tally: Tally, run: GameRun, ended: str) -> None:
    tally.games += 1
    tally.presses += run.presses
    tally.faults.update(run.faults)
    if ended == "finished":
        tally.finished += 1
    elif ended == "unrated":
        tally.unrated += 1
    else:
        tally.live += 1
    for what in run.problems:
        tally.violations.append(
            Violation(run.plan.seed, run.plan.index, run.plan.game, what, run.plan.reproduce)
        )


async def new_database(workdir: Path, n: int) -> Any:
    """Session ``n``'s database: a SQLite file in ``workdir``, or on the
    --pg soak's server a database of its own (the URL; not a schema: the
    table locks are the database's, and table 1 of two sessions would share one)."""
    if SERVER is None:
        return workdir / f"soak-{n}.sqlite3"
    import asyncpg
    from pgcluster import with_database

    name = f"soak_{workdir.name.replace('-', '_')}_{n}".lower()
    admin = await asyncpg.connect(SERVER.url)
    try:
        await admin.execute(f'CREATE DATABASE "{name}"')
    finally:
        await admin.close()
    return with_database(SERVER.url, name)


async def soak(seed: int, start: int, games: int, *, mix: Mix = Mix(),  # noqa: B008
               workdir: Path, on_game: Any = None, kill: Any = None) -> Tally:  # fmt: skip
    """Games ``start`` … ``start + games - 1`` of ``seed``; ``kill(plan, db)``
    plays a kill -9 game (bench/soak.py; without it those games are played
    in-process without the kill)."""
    tally = Tally()
    t0 = time.perf_counter()
    batch: list[int] = []
    n = 0

    async def flush() -> None:
        nonlocal n
        if batch:
            n += 1
            async with server_turn():
                db = await new_database(workdir, n)
            await play_session(db, seed, list(batch), mix=mix,
                               tally=tally, on_game=on_game)  # fmt: skip
            batch.clear()

    for i in range(start, start + games):
        p = plan(seed, i, mix)
        if p.kill_after is not None and kill is not None:
            await flush()
            n += 1
            async with server_turn():
                db = await new_database(workdir, n)
            await kill(p, db, tally)
            continue
        batch.append(i)
        if (i + 1) % SESSION == 0:
            await flush()
    await flush()
    tally.seconds = time.perf_counter() - t0
    return tally
