"""Computer players: seats in the lobby, their moves, the Yahtzee solver.

- **Seats.** The host adds a computer player from the lobby at a strength
  (``easy`` / ``normal`` / ``strong``, the levels of ``games/<game>/ai.py``).
  Its seat is ``{"id": -n, "name": "CPUn", "display": "CPUn (strong)",
  "bot": True, "level": "strong"}``: a negative id no Discord user has, an
  engine name without spaces (records and pictures show ``CPU1``; the
  display label is in the table's language, without emoji).
- **Moves.** After every committed move the table service calls
  :meth:`ComputerPlayers.kick`. If the game waits for a computer player, a
  task waits a short, natural delay and then plays through the same path as
  a press: under the table lock it loads the row, checks who may move, asks
  the AI with **only** ``engine.view(state, cpu)`` and
  ``engine.legal_moves(state, cpu)``, applies the move, commits and presents
  it (:meth:`bot.clock.Sweeper.commit`, the commit without an interaction).
  Several computer moves in a row chain in the same task. Bluff: right after
  a computer's ``roll`` the bot looks under the cup for it
  (:func:`games.bluff.peek`). Sixty-Six: a computer not to move may declare
  66 (its only legal move then), when its own view shows 66 points.
- **Restart.** On start-up every live table is kicked once, so a computer
  that was to move when the bot stopped moves now.
- **Yahtzee.** The solver table is loaded (or built and cached) once per
  process in a background thread at start-up; a computer's decision or a
  hint waits for it off the event loop.
"""

from __future__ import annotations

import asyncio
import hashlib
import importlib
import logging
import random
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import discord
from discord.ext import commands

from bot.i18n import t
from bot.store import TableRow
from bot.ui.games.base import Button, Control
from games import registry

if TYPE_CHECKING:
    from bot.app import ChabudaiBot
    from bot.tables import TableService

log = logging.getLogger(__name__)

LEVELS = ("easy", "normal", "strong")
DELAY = (1.0, 2.0)  # seconds before a computer's move (uniform); tests set 0
MAX_CHAIN = 400  # computer moves one kick may play in a row
ADD = "cpu:"  # lobby actions cpu:easy, cpu:normal, cpu:strong, cpu:remove
REMOVE = "cpu:remove"


# ------------------------------------------------------------------ seats


def is_cpu(seat: dict[str, Any] | None) -> bool:
    return bool(seat and seat.get("bot"))


def humans(seats: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The seats of people (not computer players)."""
    return [s for s in seats if not s.get("bot")]


def new_seat(row: TableRow, level: str, lang: str) -> dict[str, Any]:
    """A computer player's seat: ``CPU1``, ``CPU2`` … (first free number)."""
    names = {s["name"] for s in row.seats}
    ids = {s["id"] for s in row.seats}
    n = 1
    while f"CPU{n}" in names or -n in ids:
        n += 1
    return {
        "id": -n,
        "name": f"CPU{n}",
        "display": t("cpu.display", lang, name=f"CPU{n}", level=t(f"cpu.level.{level}", lang)),
        "bot": True,
        "level": level,
    }


def lobby_controls(row: TableRow, lang: str) -> list[Control]:
    """The lobby's second row: add a computer player at a strength, remove one."""
    out: list[Control] = [
        Button(f"{ADD}{level}", t(f"lobby.btn.cpu_{level}", lang), "secondary", row=1)
        for level in LEVELS
    ]
    if any(is_cpu(s) for s in row.seats):
        out.append(Button(REMOVE, t("lobby.btn.cpu_remove", lang), "secondary", row=1))
    return out


async def lobby_action(
    service: TableService, interaction: discord.Interaction[Any], row: TableRow, action: str
) -> bool:
    """Add or remove a computer player (host only). ``True`` = the row changed
    and is to be saved; ``False`` = refused (already answered)."""
    from bot.tables import _is_manager

    if interaction.user.id != row.host_id and not _is_manager(interaction):
        await service.reply(interaction, "lobby.host_only")
        return False
    eng = registry.engine(row.game)
    if action == REMOVE:
        bots = [s for s in row.seats if is_cpu(s)]
        if not bots:
            await service.reply(interaction, "cpu.none")
            return False
        row.seats.remove(bots[-1])
        return True
    level = action[len(ADD) :]
    if level not in LEVELS:
        await service.reply(interaction, "error.unknown_action")
        return False
    if len(row.seats) >= eng.MAX_PLAYERS:
        await service.reply(interaction, "lobby.full", max=eng.MAX_PLAYERS)
        return False
    row.seats.append(new_seat(row, level, row.ui.get("lang", "en")))
    start_warm_up(row.game, row.options)
    return True


# ------------------------------------------------------------------ the AI


def ai_module(game: str) -> Any:
    """``games.<game>.ai`` (LEVELS, choose, hint)."""
    return importlib.import_module(f"games.{game}.ai")


_SOLVER_LOCK = threading.Lock()
_SOLVER_READY: dict[str, threading.Event] = {}


def _load_solver(joker: str) -> None:
    from games.yahtzee import ai as yai
    from games.yahtzee import solver as ysolver

    try:
        solver, built = ysolver.load_or_build(joker)
        yai.install_solver(solver)
        log.info("yahtzee solver (%s) %s", joker, "built and cached" if built else "loaded")
    except Exception:
        log.exception("the Yahtzee solver (%s) could not be loaded", joker)
    finally:
        _SOLVER_READY[joker].set()


def start_solver(joker: str = "forced") -> threading.Event:
    """Start loading the Yahtzee solver of ``joker`` (once per process, in a
    background thread); the event is set when it is installed."""
    with _SOLVER_LOCK:
        ready = _SOLVER_READY.get(joker)
        if ready is None:
            ready = _SOLVER_READY[joker] = threading.Event()
            threading.Thread(
                target=_load_solver, args=(joker,), name=f"yahtzee-{joker}", daemon=True
            ).start()
    return ready


def load_solver(joker: str = "forced") -> None:
    """Load the Yahtzee solver of ``joker`` now (blocking; tests, threads)."""
    start_solver(joker).wait()


async def solver_ready(joker: str) -> None:
    """Wait, off the event loop, until the solver of ``joker`` is installed."""
    ready = start_solver(joker)
    if not ready.is_set():
        await asyncio.to_thread(ready.wait)


_WARM_LOCK = threading.Lock()
_WARMING: dict[str, threading.Event] = {}


def start_warm_up(game: str, options: dict[str, Any]) -> threading.Event | None:
    """Start building what a game's AI needs for these options, once per
    process and options, in a background thread (a computer joining a lobby
    starts it, so its first move does not wait for the build)."""
    if game == "yahtzee":
        return start_solver(str(options.get("joker", "forced")))
    if game != "sixdice":
        return None
    key = f"{game}:{sorted(options.items())}"
    with _WARM_LOCK:
        ready = _WARMING.get(key)
        if ready is None:
            ready = _WARMING[key] = threading.Event()

            def build(done: threading.Event = ready) -> None:
                from games.sixdice import ai as sai

                try:
                    sai.warm_up(options)
                except Exception:
                    log.exception("the Six Dice tables could not be built")
                finally:
                    done.set()

            threading.Thread(target=build, name="sixdice-tables", daemon=True).start()
    return ready


async def prepare(game: str, options: dict[str, Any]) -> None:
    """What a game's AI needs before deciding (the Yahtzee solver, the Six
    Dice tables), waited for off the event loop."""
    ready = start_warm_up(game, options)
    if ready is not None and not ready.is_set():
        await asyncio.to_thread(ready.wait)


def rng_for(row: TableRow, name: str) -> random.Random:
    """The computer's random source: deterministic per table, move and player,
    independent of the dice (a hash of the seed, never the seed itself)."""
    digest = hashlib.sha256(f"cpu:{row.seed}:{row.version}:{name}".encode()).digest()
    return random.Random(digest)


def own_points(view: dict[str, Any], me: str) -> int:
    """Sixty-Six: the player's own points as their view shows them."""
    points = view.get("points")
    if isinstance(points, int):
        return points
    from games.sixtysix import ai as sai

    return int(sai.knowledge(view, me).points[0])


def next_cpu(row: TableRow, eng: Any, state: Any) -> tuple[dict[str, Any], list[str]] | None:
    """The computer player who moves now and its legal moves, if any."""
    seats = {s["name"]: s for s in row.seats}
    for name in eng.to_move(state):
        seat = seats.get(name)
        if is_cpu(seat):
            legal = eng.legal_moves(state, name)
            if legal:
                assert seat is not None
                return seat, legal
    if row.game == "sixtysix":  # a declaration out of turn
        from games.sixtysix.solver import GOAL

        movers = set(eng.to_move(state))
        for seat in row.seats:
            if is_cpu(seat) and seat["name"] not in movers:
                legal = eng.legal_moves(state, seat["name"])
                if legal == ["declare"]:
                    view = eng.view(state, seat["name"])
                    if own_points(view, seat["name"]) >= GOAL:
                        return seat, legal
    return None


# --------------------------------------------------------------- the runner


class ComputerPlayers(commands.Cog):
    """Plays the computer players' moves of this bot process."""

    def __init__(self, bot: ChabudaiBot) -> None:
        self.bot = bot
        self.service = bot.tables
        self._tasks: dict[int, asyncio.Task[None]] = {}
        from bot.clock import Sweeper

        self._commit = Sweeper(bot).commit  # the commit path without an interaction

    def delay(self) -> float:
        """The pause before a computer's move (``bot.cpu_delay``: a number or
        a (low, high) range; default :data:`DELAY`)."""
        chosen: Any = getattr(self.bot, "cpu_delay", DELAY)
        if isinstance(chosen, (int, float)):
            return float(chosen)
        low, high = chosen
        return random.uniform(float(low), float(high))

    async def cog_load(self) -> None:
        self.service.cpu_kick = self.kick  # type: ignore[attr-defined]
        start_solver("forced")  # Yahtzee: load the table once, off the loop
        # a computer that was to move when the bot stopped moves now
        for row in await self.service.store.live_tables():
            if row.phase == "playing" and any(is_cpu(s) for s in row.seats):
                self.kick(row.id)

    async def cog_unload(self) -> None:
        self.service.cpu_kick = None  # type: ignore[attr-defined]
        for task in list(self._tasks.values()):
            task.cancel()

    def kick(self, table_id: int) -> None:
        """A move was committed at ``table_id``: let its computers move."""
        task = self._tasks.get(table_id)
        if task is not None and not task.done():
            return  # the running task looks again after its current step
        self._tasks[table_id] = asyncio.get_running_loop().create_task(
            self._run(table_id), name=f"cpu-{table_id}"
        )

    async def settle(self) -> None:
        """Wait until no computer is thinking (tests)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks.values()), return_exceptions=True)

    async def _run(self, table_id: int) -> None:
        me = asyncio.current_task()
        try:
            for _ in range(MAX_CHAIN):
                pause = self.delay()
                if pause > 0:
                    if not await self.step(table_id, dry=True):
                        return  # no computer to move: no pause
                    await asyncio.sleep(pause)
                if not await self.step(table_id):
                    return
        except Exception:
            log.exception("table %d: a computer player failed to move", table_id)
        finally:
            if self._tasks.get(table_id) is me:
                self._tasks.pop(table_id, None)

    async def step(self, table_id: int, *, dry: bool = False) -> bool:
        """One computer move at ``table_id``; ``False`` = none is to move.
        ``dry``: only look whether one is to move."""
        service = self.service
        async with service.lock(table_id):
            row = await service.store.get_table(table_id)
            found = None
            if row is not None and row.phase == "playing" and row.state is not None:
                eng: Any = registry.engine(row.game)
                state = eng.from_json(row.state)
                if not eng.is_finished(state):
                    found = next_cpu(row, eng, state)
            if found is None:
                # decided under the lock: a later commit's kick starts a new task
                if self._tasks.get(table_id) is asyncio.current_task():
                    self._tasks.pop(table_id, None)
                return False
            if dry:
                return True
            assert row is not None
            seat, legal = found
            name = seat["name"]
            view = eng.view(state, name)  # all the computer ever sees
            await prepare(row.game, row.options)
            move = await choose(
                row.game, view, name, legal, seat.get("level", "normal"), rng_for(row, name)
            )
            if move not in legal:
                log.error("table %d: the %s AI chose an illegal move", table_id, row.game)
                move = legal[0]
            events = eng.apply(state, name, move)
            if row.game == "bluff" and move == "roll":
                from games import bluff

                events += bluff.peek(state, name)  # the computer looks under the cup
            await self._commit(row, state, events)
            return True


async def choose(
    game: str, view: dict[str, Any], name: str, legal: list[str], level: str, rng: random.Random
) -> str:
    """The AI's move, computed in a thread (a strong decision can take a second)."""
    module = ai_module(game)
    level = level if level in module.LEVELS else "normal"
    chooser: Callable[..., str] = module.choose
    return await asyncio.to_thread(chooser, view, name, list(legal), level, rng)
