"""A tournament's rounds: the start (the check-in window, or round 1 paired
and opened), each round opened and announced, a match's end recorded once,
and then the next round — paired exactly once across processes
(:mod:`bot.tournament.service`) — or the end, its final standings and a
podium. A player who left the server is not paired again."""

from __future__ import annotations

import logging

import discord

from bot.followers.standings import pts
from bot.followers.tournament.board import Board, when
from bot.followers.tournament.matches import Matches
from bot.followers.tournament.part import Part, Shared
from bot.i18n import t
from bot.tournament.rows import TournamentRow
from bot.tournament.service import Outcome

log = logging.getLogger("bot.followers.tournament")  # the follower's one logger

PODIUM = ("🥇", "🥈", "🥉")


class Rounds(Part):
    """Starts a process's tournaments and takes them from round to round."""

    def __init__(self, shared: Shared, board: Board, matches: Matches) -> None:
        super().__init__(shared)
        self.board = board
        self.matches = matches

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
            if await self.store.tournaments.update_tournament(row, state="ended", finished_at=self.tables.clock()):
                await self.board.refresh_signup(row)
                await self.board.say(row, t("tournament.called_off", row.lang, id=row.id, **(outcome.args or {})))
        return outcome

    # ------------------------------------------------------------ rounds

    async def open_round(self, row: TournamentRow) -> None:
        """Open every paired match of the current round and say who plays
        whom (the byes too)."""
        matches = await self.store.tournaments.matches(row.id, round=row.round)
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
        row = await self.store.tournaments.get_tournament(tournament_id)
        match = await self.store.tournaments.get_match(match_id)
        if row is None or match is None or match.tournament_id != row.id:
            return  # re-paired meanwhile: that table is no match any more
        result = await self.store.results.get_result(result_id) if result_id is not None else None
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
            row = await self.store.tournaments.get_tournament(tournament_id)
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
        game = t(f"game.{row.game}", row.lang)
        if not await self.service.decided(row):  # every match abandoned: nobody won
            podium = t("tournament.podium_none", row.lang, game=game)
        else:
            # a shared place shares its medal (1, 1, 3: two golds and a bronze)
            places = [f"{PODIUM[s.place - 1]} <@{s.player}>" for s in table if s.place <= len(PODIUM)]
            podium = t("tournament.podium", row.lang, game=game, places=" ".join(places))
        await self.board.say(row, podium + "\n" + content, files)
