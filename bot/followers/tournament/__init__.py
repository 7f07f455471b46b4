"""Tournaments on Discord: the sign-up message, a thread and a seated table
per match, the standings message, and the commits of the matches' tables.

The :class:`Desk` is a follower of the table service's commits: when a
table whose ``ui`` has ``"tournament"`` is removed — finished, or abandoned
(the turn clock ends a game nobody plays; a no-show forfeits through the
clock first) — the match's points are recorded once, the standings message
is redrawn in place, and when the round is complete the next round is
paired (exactly once across processes: :mod:`bot.tournament.service`) and
opened, or the event finishes with its final standings and a podium.

Pairings are stored before anything is opened; a match found ``paired``
with no table (a crash between the two, or another process still opening
it) is opened by the repair at start-up and by the sweep
(:meth:`Desk.sweep`, every :data:`SWEEP_EVERY` seconds), which also starts
events whose start time came and closes check-in windows. A thread made
for a match is stored before its table is opened, so a repair uses it
again rather than making another.

The desk owns its parts, one job each:

- :mod:`~bot.followers.tournament.board`: what an event shows in its
  channel — the sign-up message and its buttons, the standings message,
  the announcements;
- :mod:`~bot.followers.tournament.matches`: a match's thread and seated
  table, its players pinged; a player's game forfeited;
- :mod:`~bot.followers.tournament.rounds`: the start (check-in, round 1),
  each round opened, a match's end recorded, the next round or the end;
- :mod:`~bot.followers.tournament.signup`: the sign-up buttons' presses,
  and who may run an event;
- :mod:`~bot.followers.tournament.repair`: the organiser's re-pair, and the
  repairs after a crash;
- :mod:`~bot.followers.tournament.sweep`: the sweep (start times, check-in
  windows, the repairs), backing off while the database cannot be written.

The standings' words and pictures are :mod:`bot.followers.standings`.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

from discord.ext import commands, tasks

from bot.events import ABANDONED, FINISHED, TableCommitted
from bot.followers.standings import Standings
from bot.followers.tournament.board import CUSTOM, MENTIONS, Board, TournamentButton, when
from bot.followers.tournament.matches import Matches
from bot.followers.tournament.part import Part, Shared
from bot.followers.tournament.repair import Repairs
from bot.followers.tournament.rounds import PODIUM, Rounds
from bot.followers.tournament.signup import SignUps, pressed_here
from bot.followers.tournament.sweep import REPAIR_EVERY, SWEEP_EVERY, Sweep
from bot.tables.service import TableService
from bot.tournament.service import TournamentService
from bot.ui.present import ENDED, NO_CONTEST

if TYPE_CHECKING:
    from bot.host import Host

__all__ = [
    "CUSTOM", "MENTIONS", "PODIUM", "REPAIR_EVERY", "SWEEP_EVERY",
    "Desk", "TournamentButton", "TournamentSweep", "pressed_here", "when",
]  # fmt: skip

log = logging.getLogger(__name__)


class Desk(Part):
    """Runs the tournaments of one bot process: owns its parts (they share
    one lock a tournament: :meth:`Part.lock`), follows the commits of its
    matches' tables, and is what the commands and the sign-up buttons call."""

    def __init__(self, client: Host, tables: TableService) -> None:
        service = TournamentService(tables.store, tables.clock)
        shared = Shared(client, tables, service, Standings(tables.store, service))
        super().__init__(shared)
        self.board = Board(shared)
        self.matches = Matches(shared)
        self.rounds = Rounds(shared, self.board, self.matches)
        self.signups = SignUps(shared, self.board, self.rounds)
        self.repairs = Repairs(shared, self.board, self.matches, self.rounds)
        self.sweeper = Sweep(shared, self.rounds, self.repairs)
        # what the commands, the sign-up buttons, the sweep's cog and
        # on_commit below call, by the names the desk's methods had
        self.signup_message = self.board.signup_message
        self.refresh_signup = self.board.refresh_signup
        self.refresh_standings = self.board.refresh_standings
        self.say = self.board.say
        self.press = self.signups.press
        self.reply = self.signups.reply
        self.may_run = self.signups.may_run
        self.begin = self.rounds.begin
        self.match_ended = self.rounds.match_ended
        self.forfeit = self.matches.forfeit
        self.repair_round = self.repairs.repair_round
        self.repair = self.repairs.repair
        self.sweep = self.sweeper.sweep

    async def on_commit(self, change: TableCommitted) -> None:
        """A tournament table ended: record its match, then go on."""
        if change.kind not in (FINISHED, ABANDONED):
            return
        mark = change.after.ui.get("tournament") or change.before.ui.get("tournament")
        if not mark:
            return
        # an organiser's /game end (bot.presses.Presses.end): a double forfeit
        by = change.by if change.after.ui.get(ENDED) == NO_CONTEST else None
        await self.match_ended(int(mark["id"]), int(mark["match"]), change.result_id,
                               voided_by=by)  # fmt: skip


class TournamentSweep(commands.Cog):
    """Runs the desk's sweep while the bot is up (its first run at start-up
    is the repair)."""

    def __init__(self, desk: Desk) -> None:
        self.desk = desk

    async def cog_load(self) -> None:
        self.sweep_loop.start()

    async def cog_unload(self) -> None:
        # a sweep cancelled mid-way lets go of what it claimed in its
        # ``finally``: wait for that (at most 5 s) before the store closes
        # behind it (it logged "store is not open" at ERROR at a stop)
        self.sweep_loop.cancel()
        task = self.sweep_loop.get_task()
        if task is not None and task is not asyncio.current_task():
            await asyncio.wait({task}, timeout=5)

    @tasks.loop(seconds=SWEEP_EVERY)
    async def sweep_loop(self) -> None:
        try:
            await self.desk.sweep()
        except Exception:
            log.exception("the tournaments' sweep failed")
