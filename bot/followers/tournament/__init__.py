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
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
from typing import TYPE_CHECKING, Any

import discord
from discord.ext import commands, tasks

from bot.events import ABANDONED, FINISHED, TableCommitted
from bot.followers.clock import Backoff
from bot.followers.standings import Standings, pts
from bot.followers.tournament.board import CUSTOM, MENTIONS, Board, TournamentButton, when
from bot.followers.tournament.matches import Matches
from bot.i18n import t
from bot.presses import MAX_ID
from bot.store import MatchRow, TournamentRow
from bot.tables import TableService
from bot.tournament.service import Outcome, TournamentService
from bot.ui.present import ENDED, NO_CONTEST, REPAIRED

if TYPE_CHECKING:
    from bot.host import Host

__all__ = ["CUSTOM", "MENTIONS", "Desk", "TournamentButton", "TournamentSweep", "when"]

log = logging.getLogger(__name__)

SWEEP_EVERY = 5.0  # seconds between looks for start times and stranded matches
REPAIR_EVERY = 30.0  # seconds between looks for stranded matches
PODIUM = ("🥇", "🥈", "🥉")


def pressed_here(interaction: discord.Interaction[Any], row: TournamentRow) -> bool:
    """A sign-up press belongs to its event: in the event's server and
    channel, on its sign-up message (when that is known), as a table's
    press belongs to its table (:meth:`bot.presses.Presses._pressed_here`)."""
    if interaction.guild_id != row.guild_id or interaction.channel_id != row.channel_id:
        return False
    message = interaction.message
    return row.message_id is None or message is None or message.id == row.message_id


class Desk:
    """Runs the tournaments of one bot process."""

    def __init__(self, client: Host, tables: TableService) -> None:
        self.client = client
        self.tables = tables
        self.store = tables.store
        self.service = TournamentService(tables.store, tables.clock)
        self.standings = Standings(self.store, self.service)  # their words and pictures
        self._locks: dict[int, asyncio.Lock] = {}
        self.board = Board(client, self.store, self.standings)  # the event's messages
        self.matches = Matches(client, tables)  # a match's thread and table
        self.repaired_at: float | None = None
        # the database cannot be written (or read): the sweeps wait, the
        # operator is told once (the turn-clock sweeper's back-off)
        self.backoff = Backoff("tournaments (start times, check-ins, repairs)",
                               "the tournaments go on", log)  # fmt: skip

    def lock(self, tournament_id: int) -> asyncio.Lock:
        return self._locks.setdefault(tournament_id, asyncio.Lock())

    # ------------------------------------------------------------ messages

    async def signup_message(self, row: TournamentRow) -> tuple[str, discord.ui.View | None]:
        return await self.board.signup_message(row)

    async def refresh_signup(self, row: TournamentRow) -> None:
        await self.board.refresh_signup(row)

    async def refresh_standings(self, row: TournamentRow) -> bool:
        return await self.board.refresh_standings(row)

    async def say(self, row: TournamentRow, text: str, files: list[discord.File] | None = None) -> None:
        await self.board.say(row, text, files)

    # ------------------------------------------------------------ presses

    async def press(self, interaction: discord.Interaction[Any], tournament_id: int, action: str) -> None:
        row = await self.store.get_tournament(tournament_id) if tournament_id <= MAX_ID else None
        if row is None or not pressed_here(interaction, row):
            # a crafted custom id (another channel's event, an id past 64
            # bits): refused as a press on another channel's table is
            await self.reply(interaction, "tournament.error.stale_button")
            return
        user = interaction.user
        async with self.lock(row.id):
            row = await self.store.get_tournament(tournament_id)
            assert row is not None
            if action == "join":
                outcome = await self.service.join(row, user.id, user.display_name)
            elif action == "leave":
                outcome = await self.service.leave(row, user.id)
            elif action == "checkin":
                outcome = await self.service.check_in(row, user.id)
            elif action == "start":
                if not await self.may_run(interaction, row):
                    await self.reply(interaction, "tournament.error.host_only")
                    return
                # opening a round takes longer than Discord waits for an answer
                await interaction.response.defer(ephemeral=True, thinking=True)
                outcome = await self.begin(row, force=True)
            else:
                outcome = Outcome("error.unknown_action")
            if outcome.changed and action != "start":
                content, view = await self.board.signup_message(row)
                try:
                    await interaction.response.edit_message(
                        content=content, view=view, allowed_mentions=MENTIONS
                    )
                except discord.HTTPException:
                    await self.board.refresh_signup(row)
                else:
                    await interaction.followup.send(
                        t(outcome.key, interaction.locale, **(outcome.args or {})), ephemeral=True
                    )
                    return
        await self.reply(interaction, outcome.key, **(outcome.args or {}))

    async def reply(self, interaction: discord.Interaction[Any], key: str, **args: Any) -> None:
        text = t(key, interaction.locale, **args)
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)

    async def may_run(self, interaction: discord.Interaction[Any], row: TournamentRow | None) -> bool:
        """The host of ``row``, Manage Server, or the role the server names
        (``/config tournament_role``)."""
        if row is not None and interaction.user.id == row.host_id:
            return True
        perms = getattr(interaction, "permissions", None)
        if perms is not None and perms.manage_guild:
            return True
        if interaction.guild_id is None:
            return False
        role = await self.store.guild_setting(interaction.guild_id, "tournament_role")
        roles = getattr(interaction.user, "roles", [])
        return role is not None and any(r.id == int(role) for r in roles)

    # ------------------------------------------------------------ the start

    async def begin(self, row: TournamentRow, *, force: bool = False) -> Outcome:
        """The check-in window opens (an event with one, still taking
        sign-ups: its length before the start time, or from the host's
        Start); else round 1 is paired and opened — at the start time, or
        at once when the host presses Start (``force``)."""
        if row.state == "signup" and row.checkin_seconds:
            if await self.service.open_checkin(row):
                await self.board.refresh_signup(row)
                minutes = max(1, round(((row.starts_at or 0) - self.tables.clock()) / 60))
                until = when(row.starts_at or 0, row.lang, relative=False)
                await self.board.say(row, t("tournament.checkin_call", row.lang, id=row.id,
                                      minutes=minutes, count=minutes, when=until))  # fmt: skip
                return Outcome("tournament.ok.checkin", changed=True, args={"when": until})
            return Outcome("tournament.error.started")
        await self.drop_departed(row)  # who left the server since joining: not in round 1
        outcome = await self.service.start(row)
        if outcome.dropped:  # they are told, before the pairings (or the call-off)
            players = t("list.sep", row.lang).join(f"<@{u}>" for u in outcome.dropped)
            await self.board.say(row, t("tournament.checkin_dropped", row.lang, players=players,
                                  id=row.id))  # fmt: skip
        if outcome.changed:
            log.info("tournament %d: started (%s, %d rounds)", row.id, row.format, row.rounds)
            await self.board.refresh_signup(row)
            args = outcome.args or {}
            if args.get("asked") and args["asked"] != args["rounds"]:
                # the organiser's rounds, cut to the most without a rematch
                await self.board.say(row, t("tournament.rounds_clamped", row.lang, id=row.id, **args))
            await self.open_round(row)
        elif outcome.key == "tournament.error.too_few" and not force:
            # nobody to play with at the start time: the event is called off
            if await self.store.update_tournament(row, state="ended", finished_at=self.tables.clock()):
                await self.board.refresh_signup(row)
                await self.board.say(row, t("tournament.called_off", row.lang, id=row.id, **(outcome.args or {})))
        return outcome

    # ------------------------------------------------------------ rounds

    async def open_round(self, row: TournamentRow) -> None:
        """Open every paired match of the current round and say who plays
        whom (the byes too)."""
        matches = await self.store.matches(row.id, round=row.round)
        names = await self.standings.names(row)
        lang = row.lang
        lines = [t("tournament.round.title", lang, round=row.round, rounds=row.rounds,
                   count=sum(len(m.seats) > 1 for m in matches))]  # fmt: skip
        for m in matches:
            if m.state == "bye":
                lines.append(t("tournament.round.bye", lang, player=f"<@{m.seats[0]}>",
                               points=pts(m.points.get(m.seats[0], 1.0), lang)))  # fmt: skip
        await self.board.say(row, "\n".join(lines))
        for m in matches:
            if m.state == "paired":
                await self.matches.open_match(row, m, names)
        await self.board.refresh_standings(row)

    # ------------------------------------------------------------ results

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

    async def match_ended(
        self,
        tournament_id: int,
        match_id: int,
        result_id: int | None,
        *,
        voided_by: int | None = None,
    ) -> None:
        """Record a match's end, once, and go on. ``voided_by``: the
        organiser who ended it with ``/game end`` — nobody scores at it (a
        double forfeit), whatever the game left on the table."""
        row = await self.store.get_tournament(tournament_id)
        match = await self.store.get_match(match_id)
        if row is None or match is None or match.tournament_id != row.id:
            return  # re-paired meanwhile: that table is no match any more
        result = await self.store.get_result(result_id) if result_id is not None else None
        if not await self.service.record(row, match, result, void=voided_by is not None):
            return  # recorded already (another process, a repair)
        log.info("tournament %d: match %d (round %d) recorded", row.id, match.id, match.round)
        if voided_by is not None and match.thread_id is not None:
            channel = self.client.get_partial_messageable(match.thread_id, guild_id=row.guild_id)
            text = t("tournament.match.void", row.lang, user=f"<@{voided_by}>", id=row.id)
            try:
                await channel.send(text, allowed_mentions=discord.AllowedMentions.none())
            except discord.HTTPException as err:
                log.warning("tournament %d: could not say match %d was ended (%s/%s)",
                            row.id, match.id, err.status, err.code)  # fmt: skip
        elif match.thread_id is not None:
            # the players at the result learn what happens next, and where
            last = bool(row.rounds) and match.round >= row.rounds
            text = t("tournament.match.recorded_last" if last else "tournament.match.recorded", row.lang,
                     channel=f"<#{row.channel_id}>", round=match.round, next=match.round + 1)  # fmt: skip
            thread = self.client.get_partial_messageable(match.thread_id, guild_id=row.guild_id)
            try:
                await thread.send(text, allowed_mentions=discord.AllowedMentions.none())
            except discord.HTTPException as err:
                log.warning("tournament %d: could not say match %d was recorded (%s/%s)",
                            row.id, match.id, err.status, err.code)  # fmt: skip
        await self.go_on(row.id)

    async def go_on(self, tournament_id: int) -> None:
        """After a match: the standings redrawn; the next round, or the end."""
        async with self.lock(tournament_id):
            row = await self.store.get_tournament(tournament_id)
            if row is None or row.state != "running":
                return
            if await self.service.round_complete(row):
                await self.drop_departed(row)  # before the next round is paired
            advanced = await self.service.advance(row)
            if advanced == "paired":
                log.info("tournament %d: round %d paired", row.id, row.round)
                await self.board.refresh_signup(row)
                await self.open_round(row)
            elif advanced == "finished":
                await self.finish(row)
            else:
                await self.board.refresh_standings(row)

    async def drop_departed(self, row: TournamentRow) -> list[int]:
        """The players still in who left the server (Discord says the member
        is unknown) are out of the pairing from the next round on (status
        ``left``; the standings say so). A player Discord cannot tell about
        now (a 5xx) stays in. Who left."""
        gone = []
        for entrant in await self.service.active(row):
            try:
                await self.client.http.get_member(row.guild_id, entrant.user_id)
            except discord.NotFound:
                if await self.service.depart(row, entrant.user_id):
                    log.info("tournament %d: player %d left the server: not paired again",
                             row.id, entrant.user_id)  # fmt: skip
                    gone.append(entrant.user_id)
            except discord.HTTPException as err:
                log.warning("tournament %d: could not tell whether player %d is still here"
                            " (%s/%s)", row.id, entrant.user_id, err.status, err.code)  # fmt: skip
        return gone

    async def finish(self, row: TournamentRow) -> None:
        """The final standings and the podium (posted once: the event was
        finished by one versioned write)."""
        log.info("tournament %d: finished after %d rounds", row.id, row.round)
        await self.board.refresh_signup(row)
        await self.board.refresh_standings(row)
        content, files = await self.standings.message(row, final=True)
        table = await self.service.standings(row)
        # a shared place shares its medal (1, 1, 3: two golds and a bronze)
        places = [f"{PODIUM[s.place - 1]} <@{s.player}>" for s in table if s.place <= len(PODIUM)]
        podium = t("tournament.podium", row.lang, game=t(f"game.{row.game}", row.lang),
                   places=" ".join(places))  # fmt: skip
        await self.board.say(row, podium + "\n" + content, files)

    async def repair_round(self, row: TournamentRow, by: int | None = None) -> Outcome:
        """The host's re-pair of the current round: one claim under the
        locks of the round's tables — no move can come in between the look
        for moves and the closing — the tables of the old pairings closed
        (no result, saying why), the new ones opened. ``by``: the organiser.

        The tables' locks are taken first (in table order), then the
        tournament's, as a match's end takes them (its table's lock, then
        the tournament's, to record it): never the other way round."""
        current = await self.store.matches(row.id, round=row.round)
        locked = sorted({m.table_id for m in current if m.table_id is not None})

        async def started(match: MatchRow) -> bool:
            if match.table_id is None:
                return False
            if match.table_id not in locked:  # opened since: not under our locks, so not ours
                return True
            return any(line["origin"] == "press" for line in await self.store.ledger(match.table_id))

        async with contextlib.AsyncExitStack() as held:
            for table_id in locked:
                await held.enter_async_context(self.tables.lock(table_id))
            await held.enter_async_context(self.lock(row.id))
            fresh = await self.store.get_tournament(row.id)
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
            await self.open_round(fresh)
        return outcome

    # ------------------------------------------------------------ people

    async def forfeit(self, row: TournamentRow, user_id: int) -> None:
        await self.matches.forfeit(row, user_id)

    # ------------------------------------------------------------ the sweep

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
        for row in await self.store.live_tournaments():
            try:
                opens = (row.starts_at or 0) - row.checkin_seconds
                if row.state == "signup" and row.starts_at is not None and opens <= now:
                    async with self.lock(row.id):
                        fresh = await self.store.get_tournament(row.id)
                        if fresh is not None and fresh.state == "signup":
                            await self.begin(fresh)
                            wrote = True
                elif row.state == "checkin" and (row.starts_at or 0) <= now:
                    async with self.lock(row.id):
                        fresh = await self.store.get_tournament(row.id)
                        if fresh is not None and fresh.state == "checkin":
                            await self.begin(fresh)
                            wrote = True
            except sqlite3.Error:
                raise
            except Exception:
                log.exception("tournament %d: the start failed", row.id)
        if self.repaired_at is not None and now - self.repaired_at < REPAIR_EVERY:
            return wrote
        self.repaired_at = now
        return await self.repair() or wrote

    async def repair(self) -> bool:
        """Start the events whose start was claimed but not paired, open
        the matches paired but not opened, record those whose table ended
        unrecorded; whether anything was written."""
        wrote = False
        for live in await self.store.live_tournaments():
            if live.state != "running" or live.round != 0:
                continue
            # its start was claimed, round 1 never paired (a process died
            # between the two): start it again (round 1 is still a claim)
            try:
                async with self.lock(live.id):
                    again = await self.store.get_tournament(live.id)
                    if again is not None and again.state == "running" and again.round == 0:
                        log.info("tournament %d: started but not paired: starting it", live.id)
                        await self.begin(again)
                        wrote = True
            except sqlite3.Error:
                raise
            except Exception:
                log.exception("tournament %d: the start failed", live.id)
        for tournament_id in await self.store.standings_behind():
            # a standings edit that failed (the final one: nothing comes after it)
            try:
                async with self.lock(tournament_id):
                    self.board.behind.add(tournament_id)
                    row = await self.store.get_tournament(tournament_id)
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
        for match in await self.store.stranded_matches():
            if match.id in self.matches.opening:
                continue
            try:
                async with self.lock(match.tournament_id):
                    row = await self.store.get_tournament(match.tournament_id)
                    fresh = await self.store.get_match(match.id)
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
                    if await self.store.get_table(fresh.table_id) is not None:
                        continue
                    # its table ended with nobody recording it (a crash)
                    result_id = await self.store.result_of_table(fresh.table_id)
                    result = None if result_id is None else await self.store.get_result(result_id)
                    recorded = await self.service.record(row, fresh, result)
                    wrote = True
                if recorded:
                    await self.go_on(match.tournament_id)
            except sqlite3.Error:
                raise
            except Exception:
                log.exception("tournament %d: match %d could not be repaired",
                              match.tournament_id, match.id)  # fmt: skip
        return wrote


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
