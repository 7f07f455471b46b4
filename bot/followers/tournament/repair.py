"""Tournaments put right: the organiser's re-pair of the current round
(``/tournament repair``), and the sweep's repairs of what a crash left
half done — an event started but not paired, a standings message behind,
a match paired with no table (pairings are stored before anything is
opened), a table that ended with nobody recording its match."""

from __future__ import annotations

import contextlib
import logging
import sqlite3

from bot.events import ABANDONED
from bot.followers.tournament.board import Board
from bot.followers.tournament.matches import Matches
from bot.followers.tournament.part import Part, Shared
from bot.followers.tournament.rounds import Rounds
from bot.i18n import t
from bot.tournament.rows import MatchRow, TournamentRow
from bot.tournament.service import Outcome
from bot.ui.present import ENDED, REPAIRED

log = logging.getLogger("bot.followers.tournament")  # the follower's one logger


class Repairs(Part):
    """Re-pairs a round on the organiser's word; repairs after a crash."""

    def __init__(self, shared: Shared, board: Board, matches: Matches, rounds: Rounds) -> None:
        super().__init__(shared)
        self.board = board
        self.matches = matches
        self.rounds = rounds

    async def repair_round(self, row: TournamentRow, by: int | None = None) -> Outcome:
        """The host's re-pair of the current round: one claim under the
        locks of the round's tables — no move can come in between the look
        for moves and the closing — the tables of the old pairings closed
        (no result, saying why), the new ones opened. ``by``: the organiser.

        The tables' locks are taken first (in table order), then the
        tournament's, as a match's end takes them (its table's lock, then
        the tournament's, to record it): never the other way round."""
        current = await self.store.tournaments.matches(row.id, round=row.round)
        locked = sorted({m.table_id for m in current if m.table_id is not None})

        async def started(match: MatchRow) -> bool:
            if match.table_id is None:
                return False
            if match.table_id not in locked:  # opened since: not under our locks, so not ours
                return True
            return any(line["origin"] == "press" for line in await self.store.tables.ledger(match.table_id))

        async with contextlib.AsyncExitStack() as held:
            for table_id in locked:
                await held.enter_async_context(self.tables.lock(table_id))
            await held.enter_async_context(self.lock(row.id))
            fresh = await self.store.tournaments.get_tournament(row.id)
            if fresh is None:
                return Outcome("tournament.error.not_running")
            outcome = await self.service.repair(fresh, started)
            if not outcome.changed:
                return outcome
            old: list[MatchRow] = (outcome.args or {}).pop("old", [])
            for match in old:
                if match.table_id is None:
                    continue
                loaded = await self.tables.load(match.table_id)
                if loaded is None:
                    continue
                before, table = loaded
                table.ui[ENDED] = REPAIRED  # its message says why it closed
                await self.tables.commit(before, table, origin="command", kind=ABANDONED, by=by)
            log.info("tournament %d: round %d paired again", fresh.id, fresh.round)
            await self.board.say(fresh, t("tournament.repaired", fresh.lang, round=fresh.round))
            await self.rounds.open_round(fresh)
        return outcome

    async def repair(self) -> bool:
        """Start the events whose start was claimed but not paired, open
        the matches paired but not opened, record those whose table ended
        unrecorded; whether anything was written."""
        wrote = False
        for live in await self.store.tournaments.live_tournaments():
            if live.state != "running" or live.round != 0:
                continue
            # its start was claimed, round 1 never paired (a process died
            # between the two): start it again (round 1 is still a claim)
            try:
                async with self.lock(live.id):
                    again = await self.store.tournaments.get_tournament(live.id)
                    if again is not None and again.state == "running" and again.round == 0:
                        log.info("tournament %d: started but not paired: starting it", live.id)
                        await self.rounds.begin(again)
                        wrote = True
            except sqlite3.Error:
                raise
            except Exception:
                log.exception("tournament %d: the start failed", live.id)
        for tournament_id in await self.store.tournaments.standings_behind():
            # a standings edit that failed (the final one: nothing comes after it)
            try:
                async with self.lock(tournament_id):
                    self.board.behind.add(tournament_id)
                    row = await self.store.tournaments.get_tournament(tournament_id)
                    if row is None or row.standings_message_id is None:
                        await self.board.note_behind(tournament_id, False)
                    else:
                        log.info("tournament %d: its standings were behind: shown again", row.id)
                        await self.board.refresh_standings(row)
                wrote = True
            except sqlite3.Error:
                raise
            except Exception:
                log.exception("tournament %d: its standings could not be repaired", tournament_id)
        for match in await self.store.tournaments.stranded_matches():
            if match.id in self.matches.opening:
                continue
            try:
                async with self.lock(match.tournament_id):
                    row = await self.store.tournaments.get_tournament(match.tournament_id)
                    fresh = await self.store.tournaments.get_match(match.id)
                    if row is None or fresh is None or row.round != fresh.round:
                        continue
                    if fresh.state == "paired":
                        log.info("tournament %d: match %d was paired, not opened: opening it",
                                 row.id, match.id)  # fmt: skip
                        await self.matches.open_match(row, fresh, await self.standings.names(row))
                        wrote = True
                        continue
                    if fresh.state != "open" or fresh.table_id is None:
                        continue
                    if await self.store.tables.get_table(fresh.table_id) is not None:
                        continue
                    # its table ended with nobody recording it (a crash)
                    result_id = await self.store.results.result_of_table(
                        fresh.table_id, guild_id=row.guild_id, game=row.game, since=row.created_at
                    )
                    result = None if result_id is None else await self.store.results.get_result(result_id)
                    recorded = await self.service.record(row, fresh, result)
                    wrote = True
                if recorded:
                    await self.rounds.go_on(match.tournament_id)
            except sqlite3.Error:
                raise
            except Exception:
                log.exception("tournament %d: match %d could not be repaired",
                              match.tournament_id, match.id)  # fmt: skip
        return wrote
