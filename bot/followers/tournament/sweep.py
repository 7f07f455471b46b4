"""The tournaments' sweep (every :data:`SWEEP_EVERY` seconds, run by
:class:`bot.followers.tournament.TournamentSweep`): events whose start time
came are started, check-in windows closed, and every :data:`REPAIR_EVERY`
seconds the repairs run (:meth:`bot.followers.tournament.repair.Repairs.repair`).
While the database cannot be written or read, the sweeps back off."""

from __future__ import annotations

import logging
import sqlite3

from bot.followers.clock import Backoff
from bot.followers.tournament.part import Part, Shared
from bot.followers.tournament.repair import Repairs
from bot.followers.tournament.rounds import Rounds

log = logging.getLogger("bot.followers.tournament")  # the follower's one logger

SWEEP_EVERY = 5.0  # seconds between looks for start times and stranded matches
REPAIR_EVERY = 30.0  # seconds between looks for stranded matches


class Sweep(Part):
    """A process's tournaments' sweep."""

    def __init__(self, shared: Shared, rounds: Rounds, repairs: Repairs) -> None:
        super().__init__(shared)
        self.rounds = rounds
        self.repairs = repairs
        self.repaired_at: float | None = None
        # the database cannot be written (or read): the sweeps wait, the
        # operator is told once (the turn-clock sweeper's back-off)
        self.backoff = Backoff("tournaments (start times, check-ins, repairs)",
                               "the tournaments go on", log)  # fmt: skip

    async def sweep(self) -> None:
        """Start events whose time came, close check-in windows, and open
        the matches a crash left paired (or record those whose table ended
        unrecorded): at start-up, then every :data:`REPAIR_EVERY` seconds.
        While the database cannot be written or read, the sweeps back off
        (:class:`bot.followers.clock.Backoff`: one ERROR, a reminder every
        few minutes, not a warning every sweep); once it can, they go on."""
        now = self.tables.clock()
        if self.backoff.waiting(now):
            return
        try:
            wrote = await self._sweep(now)
        except sqlite3.Error as err:
            self.backoff.failed(now, err)
            return
        if wrote:  # a sweep that only read says nothing of writes
            self.backoff.worked(now)

    async def _sweep(self, now: float) -> bool:
        """One sweep; whether it wrote (a sweep that found nothing to do
        only read: the database may still be unwritable)."""
        wrote = False
        for row in await self.store.tournaments.live_tournaments():
            try:
                opens = (row.starts_at or 0) - row.checkin_seconds
                if row.state == "signup" and row.starts_at is not None and opens <= now:
                    async with self.lock(row.id):
                        fresh = await self.store.tournaments.get_tournament(row.id)
                        if fresh is not None and fresh.state == "signup":
                            await self.rounds.begin(fresh)
                            wrote = True
                elif row.state == "checkin" and (row.starts_at or 0) <= now:
                    async with self.lock(row.id):
                        fresh = await self.store.tournaments.get_tournament(row.id)
                        if fresh is not None and fresh.state == "checkin":
                            await self.rounds.begin(fresh)
                            wrote = True
            except sqlite3.Error:
                raise
            except Exception:
                log.exception("tournament %d: the start failed", row.id)
        if self.repaired_at is not None and now - self.repaired_at < REPAIR_EVERY:
            return wrote
        self.repaired_at = now
        return await self.repairs.repair() or wrote
