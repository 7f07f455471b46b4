"""Computer players: their moves, after every commit that leaves one to move.

- **Seats.** The host adds a computer player from the lobby at a strength
  (``easy`` / ``normal`` / ``strong``, the levels of the game's AI; the seat
  is made by :func:`bot.model.cpu_seat`). Adding one starts building the
  AI's tables (:func:`bot.ai.start_warm_up`).
- **Moves.** After every commit this follower looks, in the committed state,
  whether a computer is to move. If so, a task waits a short, natural delay
  and then plays through the same path as a press: under the table lock it
  loads the row, asks the AI with **only** ``engine.view(state, cpu)`` and
  ``engine.legal_moves(state, cpu)``, applies the move (and what follows it
  in the game's spec: Bluff looks under the cup after a roll) and commits it
  with :meth:`bot.tables.service.TableService.commit`. Several computer moves in a
  row chain in the same task. A computer not to move may still act when its
  game's spec says so (Sixty-Six: declare 66 out of turn).
- **Restart.** On start-up every live table with a computer is kicked once.
"""

from __future__ import annotations

import asyncio
import logging
import random
from typing import TYPE_CHECKING

from discord.ext import commands

from bot import ai
from bot.events import TableCommitted
from bot.model import is_cpu
from bot.turns import next_cpu
from games import registry

if TYPE_CHECKING:
    from bot.host import Host

log = logging.getLogger(__name__)

DELAY = (1.0, 2.0)  # seconds before a computer's move (uniform); tests set 0
MAX_CHAIN = 400  # computer moves one kick may play in a row


class ComputerPlayers(commands.Cog):
    """Plays the computer players' moves of this bot process."""

    def __init__(self, bot: Host) -> None:
        self.bot = bot
        self.service = bot.tables
        self._tasks: dict[int, asyncio.Task[None]] = {}

    def delay(self) -> float:
        """The pause before a computer's move (``bot.cpu_delay``: a number or
        a (low, high) range; default :data:`DELAY`)."""
        chosen: float | tuple[float, float] = self.bot.cpu_delay
        if isinstance(chosen, (int, float)):
            return float(chosen)
        low, high = chosen
        return random.uniform(float(low), float(high))

    async def cog_load(self) -> None:
        for game in registry.names():
            if registry.spec(game).warm_at_start:
                ai.start_warm_up(game, {})  # e.g. the Yahtzee solver, off the loop
        # a computer that was to move when the bot stopped moves now
        for row in await self.service.store.tables.live_tables():
            if row.phase == "playing" and any(is_cpu(s) for s in row.seats):
                self.kick(row.id)

    async def cog_unload(self) -> None:
        for task in list(self._tasks.values()):
            task.cancel()

    async def on_commit(self, change: TableCommitted) -> None:
        row = change.after
        if row.phase == "lobby":
            added = {s["name"] for s in row.seats if is_cpu(s)} - {
                s["name"] for s in change.before.seats if is_cpu(s)
            }
            if added:
                ai.start_warm_up(row.game, row.options)
            return
        if change.live and change.state is not None and next_cpu(row, change.state) is not None:
            self.kick(row.id)

    def kick(self, table_id: int) -> None:
        """Let the computers of ``table_id`` move (a task per table)."""
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
                    await asyncio.sleep(pause)
                if not await self.step(table_id):
                    return
        except Exception:
            log.exception("table %d: a computer player failed to move", table_id)
        finally:
            if self._tasks.get(table_id) is me:
                self._tasks.pop(table_id, None)

    async def step(self, table_id: int) -> bool:
        """One computer move at ``table_id``; ``True`` = it moved and another
        computer is to move now (``False``: none moved, or a person is next)."""
        service = self.service
        async with service.lock(table_id):
            loaded = await service.load(table_id)
            found = None
            if loaded is not None:
                before, row = loaded
                if row.phase == "playing" and row.state is not None:
                    spec = registry.spec(row.game)
                    state = spec.engine.from_json(row.state)
                    found = next_cpu(row, state)
            if found is None:
                # decided under the lock: a later commit's kick starts a new task
                if self._tasks.get(table_id) is asyncio.current_task():
                    self._tasks.pop(table_id, None)
                return False
            seat, legal = found
            name = seat["name"]
            eng = spec.engine
            view = eng.view(state, name)  # all the computer ever sees
            level = seat.get("level", "normal")
            rng = ai.rng_for(row, name)
            try:
                if level != "easy" and not ai.is_ready(row.game, row.options):
                    # its tables are being built: a simple move now, no wait
                    move = await ai.choose_while_building(row.game, view, name, legal, rng)
                else:
                    move = await ai.choose(row.game, view, name, legal, level, rng)
            except ai.AIUnavailable:  # logged: the turn clock's default move instead
                move = spec.timeout_move(state, name, legal, [])[0]
            if move not in legal:
                log.error("table %d: the %s AI chose an illegal move", table_id, row.game)
                move = legal[0]
            events = eng.apply(state, name, move)
            if spec.after_cpu_move is not None:
                events += spec.after_cpu_move(state, name, move)
            change = await service.commit(
                before, row, origin="cpu", state=state, events=events, actor=name
            )
            return bool(
                change is not None
                and change.live
                and next_cpu(change.after, change.state) is not None
            )
