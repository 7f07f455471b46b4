"""The ``/game`` commands on a channel's table: ``/game status`` (who
plays, whose turn), ``/game leave`` (a forfeit) and ``/game end`` (the host
or Manage Server ends it; a tournament's match only by its organisers; the
others agree to end it). :class:`bot.presses.Presses` hands them here.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.events import ABANDONED, CANCELLED
from bot.i18n import lang_of, linked, rule_error, t
from bot.lobby import Lobby
from bot.model import humans, is_manager, message_link
from bot.tables.rows import TableRow
from bot.tables.service import TableService
from bot.tournament.rows import TournamentRow
from bot.ui import present
from games import core, registry
from games.core import RuleError


class GameCommands:
    """``/game status``, ``leave`` and ``end`` of one bot process."""

    def __init__(self, service: TableService, lobby: Lobby) -> None:
        self.service = service
        self.lobby = lobby

    async def _channel_table(self, interaction: discord.Interaction[Any]) -> TableRow | None:
        assert interaction.channel_id is not None
        row = await self.service.store.tables.table_in_channel(interaction.channel_id)
        if row is None:
            await self.service.reply(interaction, "error.no_table_here")
        return row

    async def status(self, interaction: discord.Interaction[Any]) -> None:
        """``/game status``: the channel's table, privately."""
        row = await self._channel_table(interaction)
        if row is None:
            return
        loc = interaction.locale
        sep = t("list.sep", loc)
        players = sep.join(s["display"] for s in row.seats)
        game = t(f"game.{row.game}", loc)
        url = message_link(row.guild_id, row.channel_id, row.message_id)
        link = linked("link.table", loc, url, game=game)
        # the fair-dice line as the table shows it (the same short hash)
        seed = ["\n" + present.seed_line(row, lang_of(loc))] if row.seed else []
        if row.phase == "lobby":
            text = t("status.lobby", loc, game=game, players=players, link=link)
            await self.service.say(interaction, "".join([text, *seed]))
            return
        assert row.state is not None
        eng = registry.engine(row.game)
        shown = {s["name"]: s.get("display") or s["name"] for s in row.seats}
        movers = sep.join(shown.get(m, m) for m in eng.to_move(eng.from_json(row.state)))
        text = t("status.playing", loc, game=game, players=players, turn=movers, link=link)
        # the whole history the table keeps (the table message shows the last few)
        history = present.log_lines(row, lang_of(loc), limit=None)
        if history:
            seed += ["\n" + t("status.history", loc), *("\n" + line for line in history)]
        await self.service.say(interaction, "".join([text, *seed]))

    async def _locked_channel_table(
        self, interaction: discord.Interaction[Any], row: TableRow
    ) -> tuple[TableRow, TableRow] | None:
        loaded = await self.service.load(row.id)
        if loaded is None:
            await self.service.reply(interaction, "error.no_table_here")
        return loaded

    async def leave(self, interaction: discord.Interaction[Any]) -> None:
        """``/game leave``: a lobby's seat is freed; a game's seat forfeits."""
        service = self.service
        row = await self._channel_table(interaction)
        if row is None:
            return
        async with service.lock(row.id):
            loaded = await self._locked_channel_table(interaction, row)
            if loaded is None:
                return
            before, row = loaded
            seat = row.seat_of(interaction.user.id)
            if seat is None:
                await service.reply(interaction, "error.not_in_game")
                return
            if row.phase == "lobby":
                await self.lobby.leave(interaction, before, row, seat)
                return
            assert row.state is not None
            eng = registry.engine(row.game)
            state = eng.from_json(row.state)
            try:
                events = eng.forfeit(state, seat["name"])
            except RuleError as err:
                await service.say(interaction, rule_error(err, interaction.locale))
                return
            if row.host_id == seat["id"]:
                # who left is no longer the host: the next seated person is
                # (or, with none, the server's managers alone)
                others = [s for s in humans(row.seats) if s["id"] != seat["id"]]
                row.host_id = others[0]["id"] if others else 0
            await service.commit(
                before, row, origin="command", state=state, events=events, interaction=interaction
            )

    async def end(self, interaction: discord.Interaction[Any]) -> None:
        """``/game end``. A lobby: the host (or Manage Server) closes it. A
        running game ends with a result only when every person still playing
        agrees — each runs ``/game end`` within :data:`present.END_WINDOW`
        — and the last agreement ends it, settled and rated as usual; the
        host (or Manage Server) alone ends it at once as **no contest**: the
        standings as they stood are shown, nobody wins, nothing is settled
        and no rating changes. A player who is neither only agrees. A
        tournament's match is its organisers' to end, and then nobody scores
        at it (:meth:`_match_end_refusal`)."""
        service = self.service
        row = await self._channel_table(interaction)
        if row is None:
            return
        user_id = interaction.user.id
        may_end = user_id == row.host_id or is_manager(interaction)
        match = row.ui.get(present.TOURNAMENT) if row.phase != "lobby" else None
        event = await service.store.tournaments.get_tournament(int(match["id"])) if match else None
        if event is None or event.state != "running":
            match = None  # the event is over: its games go on as normal games
        if match and event is not None:  # its organisers end it, as a double forfeit
            refusal = await self._match_end_refusal(interaction, row, event)
            if refusal is not None:
                await service.reply(interaction, refusal, id=event.id)
                return
        elif not may_end and (row.phase == "lobby" or row.seat_of(user_id) is None):
            await service.reply(interaction, "error.end_not_allowed")
            return
        async with service.lock(row.id):
            loaded = await self._locked_channel_table(interaction, row)
            if loaded is None:
                return
            before, row = loaded
            if match and row.phase != "lobby":
                row.ui[present.ENDED] = present.NO_CONTEST  # no agreement: nobody scores
            elif row.phase != "lobby":
                assert row.state is not None
                agreed = await self._agree_to_end(interaction, before, row, may_end=may_end)
                if agreed is None:
                    return  # an agreement noted (or refused); the game goes on
                if not agreed:
                    row.ui[present.ENDED] = present.NO_CONTEST
            if row.phase == "lobby":
                await service.commit(
                    before,
                    row,
                    origin="command",
                    kind=CANCELLED,
                    interaction=interaction,
                    by=user_id,
                )
                return
            assert row.state is not None
            eng = registry.engine(row.game)
            state = eng.from_json(row.state)
            early = core.ends_early(eng)  # a settlement "as it stands" (Six Dice)
            if early is not None:
                events = early.end_game(state)
                await service.commit(
                    before, row, origin="command", state=state, events=events,
                    interaction=interaction, by=user_id,
                )  # fmt: skip
                return
            # No settlement "as it stands" in this game's rules: the game is
            # abandoned without a result; the seed is revealed all the same.
            await service.commit(
                before, row, origin="command", kind=ABANDONED, interaction=interaction, by=user_id
            )

    async def _match_end_refusal(
        self, interaction: discord.Interaction[Any], row: TableRow, event: TournamentRow
    ) -> str | None:
        """``/game end`` in a tournament's match (docs/tournaments.md): only
        an organiser — the event's host, Manage Server or the server's
        tournament role — who does not play at it may end it, and it counts
        as a double forfeit; players cannot agree to end it (``/tournament
        drop`` leaves). Once the event is over (``/tournament end``) its
        games are normal games. The catalogue key of the refusal, or
        ``None``: end it."""
        user = interaction.user
        organiser = user.id == event.host_id or is_manager(interaction)
        if not organiser and row.guild_id is not None:
            role = await self.service.store.settings.guild_setting(row.guild_id, "tournament_role")
            organiser = role is not None and any(
                r.id == int(role) for r in getattr(user, "roles", [])
            )
        if not organiser:
            return "tournament.error.end_match"
        assert row.state is not None
        eng = registry.engine(row.game)
        playing = present.must_agree(row, eng.view(eng.from_json(row.state), None))
        if any(s["id"] == user.id for s in playing):
            return "tournament.error.end_own_match"
        return None

    async def _agree_to_end(
        self,
        interaction: discord.Interaction[Any],
        before: TableRow,
        row: TableRow,
        *,
        may_end: bool,
    ) -> bool | None:
        """``/game end`` of a running game: the caller's agreement. ``True``:
        everyone still playing agrees (end it with a result); ``False``: the
        host or a manager ends it without everyone (no contest); ``None``:
        the agreement was noted and the game goes on (the caller is told)."""
        service = self.service
        assert row.state is not None
        eng = registry.engine(row.game)
        view = eng.view(eng.from_json(row.state), None)
        people = present.must_agree(row, view)
        now = service.clock()
        votes = present.standing_votes(row, now)
        user_id = interaction.user.id
        if any(s["id"] == user_id for s in people):
            votes[str(user_id)] = now
        elif not may_end:  # seated, but no longer playing (they left)
            await service.reply(interaction, "error.end_not_allowed")
            return None
        if all(str(s["id"]) in votes for s in people):
            row.ui[present.ENDED] = present.AGREED
            return True
        if may_end:
            return False
        row.ui[present.END_VOTES] = votes  # on the table while they stand
        agreed = sum(1 for s in people if str(s["id"]) in votes)
        await service.reply(interaction, "end.agreed", n=agreed, m=len(people))
        await service.commit(before, row, origin="command", interaction=interaction, rearm=False)
        return None
