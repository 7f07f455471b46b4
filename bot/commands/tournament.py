"""``/tournament``: game-night events whose matches are real tables (issue 26,
docs/tournaments.md).

``create`` (Manage Server, or the role ``/config tournament_role`` names)
posts the sign-up message in the channel; ``drop`` leaves an event (the game
being played is forfeited); ``kick``, ``repair`` (pair the round again before
any of its games has a move) and ``end`` are the host's (or a manager's);
``standings`` and ``history`` anyone's. The work is the tournament desk's
(:mod:`bot.followers.tournament`); every answer is in the user's language,
and a bad value is refused with what is allowed, changing nothing.
"""

from __future__ import annotations

import datetime as dt
import logging
import re
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import turns
from bot.commands.choices import offer_games
from bot.followers.standings import pts
from bot.followers.tournament import MENTIONS, Desk
from bot.i18n import option_error, t
from bot.model import parse_options_text
from bot.tournament.rows import TournamentRow
from bot.tournament.service import DEFAULT_TABLE, FORMATS, LIVE, MIN_PLAYERS
from bot.ui import present
from games import core, registry
from games.core import RuleError

if TYPE_CHECKING:
    from bot.host import Host

log = logging.getLogger(__name__)

MAX_ROUNDS = 20
MAX_CHECKIN = 120  # minutes
MAX_AHEAD = 14 * 86400  # a start at most two weeks ahead
SERVER_TOURNAMENTS = 5  # live tournaments (sign-up, check-in, running) a server may have
_IN = re.compile(r"\+?(\d{1,4})\s*(m|min|h)?", re.IGNORECASE)
_AT = re.compile(r"(\d{1,2}):(\d{2})")


def parse_start(text: str, now: float) -> float | None:
    """When an event starts: ``20:30`` (UTC, the next time it comes),
    ``30m`` / ``+2h`` / ``45`` (minutes from now), or a unix time; ``None``:
    not a time."""
    text = text.strip()
    if text.isdigit() and len(text) >= 9:
        when = float(text)
        return when if now < when <= now + MAX_AHEAD else None
    m = _AT.fullmatch(text)
    if m:
        hour, minute = int(m.group(1)), int(m.group(2))
        if hour > 23 or minute > 59:
            return None
        today = dt.datetime.fromtimestamp(now, dt.UTC)
        at = today.replace(hour=hour, minute=minute, second=0, microsecond=0)
        if at.timestamp() <= now:
            at += dt.timedelta(days=1)
        return at.timestamp()
    m = _IN.fullmatch(text)
    if m:
        amount = int(m.group(1)) * (3600 if (m.group(2) or "").lower() == "h" else 60)
        return now + amount if 0 < amount <= MAX_AHEAD else None
    return None


def state_of(row: TournamentRow) -> str:
    """The event's state as a listing names it: one ended before its first
    round (called off at its start time, or ended by its host) is not
    "ended early"."""
    return "unstarted" if row.state == "ended" and not row.round else row.state


class Tournaments(commands.Cog):
    """Tournaments: sign-ups, rounds of real tables, standings."""

    def __init__(self, bot: Host) -> None:
        self.bot = bot
        self.desk: Desk = bot.tournaments  # type: ignore[attr-defined]
        offer_games(self)

    group = app_commands.Group(
        name="tournament", description="Tournaments whose matches are played here", guild_only=True
    )

    # ------------------------------------------------------------ helpers

    async def _say(self, interaction: discord.Interaction[Any], key: str, **args: Any) -> None:
        await self.desk.reply(interaction, key, **args)

    async def _organised(self, interaction: discord.Interaction[Any]) -> TournamentRow | None:
        """The live tournament here, for an organiser's command; ``None``
        (answered) when there is none or the user is not an organiser."""
        row = await self._here(interaction)
        if row is None:
            await self._say(interaction, "tournament.error.none_here")
            return None
        if not await self.desk.may_run(interaction, row):
            await self._say(interaction, "tournament.error.host_only")
            return None
        return row

    async def _here(self, interaction: discord.Interaction[Any]) -> TournamentRow | None:
        """The live tournament of this channel (or of the channel a match's
        thread is under); the newest if there are several."""
        assert interaction.guild_id is not None
        channel = interaction.channel
        ids = {interaction.channel_id}
        parent = getattr(channel, "parent_id", None)
        if parent is not None:
            ids.add(parent)
        store = self.desk.store
        for row in await store.tournaments.guild_tournaments(interaction.guild_id, limit=50):
            if row.channel_id in ids and row.state in LIVE:
                return row
        # a match's thread the client did not say the parent of: its table says
        table = await store.tables.table_in_channel(interaction.channel_id or 0)
        mark = table.ui.get("tournament") if table is not None else None
        if mark:
            row = await store.tournaments.get_tournament(int(mark["id"]))
            if row is not None and row.guild_id == interaction.guild_id and row.state in LIVE:
                return row
        return None

    # ------------------------------------------------------------ create

    @group.command(name="create", description="Open the sign-up of a tournament in this channel")
    @app_commands.describe(
        game="The game played at every match",
        format="swiss, round-robin or knockout",
        rounds="How many rounds (Swiss; 0 or left out: as many as the players need)",
        table_size="Players per table in games of 3 or more (default 4)",
        options='House options of every match, e.g. "target=5000"',
        starts_at='When it starts: "20:30" (UTC), "30m", "2h"; left out: the host presses Start',
        cpu_fill="Fill the empty seats of a table with computer players",
        clock="The turn clock of the matches, in seconds (30-3600)",
        checkin="A check-in window before the start, in minutes (0: none)",
    )
    @app_commands.choices(format=[app_commands.Choice(name=f, value=f) for f in FORMATS])
    async def create(
        self,
        interaction: discord.Interaction[Any],
        game: str,
        format: str,
        rounds: int | None = None,
        table_size: int | None = None,
        options: str | None = None,
        starts_at: str | None = None,
        cpu_fill: bool = False,
        clock: int | None = None,
        checkin: int = 0,
    ) -> None:
        loc = interaction.locale
        if interaction.guild_id is None or interaction.channel_id is None:
            await self._say(interaction, "tournament.error.no_permission")
            return
        if not await self.desk.may_run(interaction, None):
            await self._say(interaction, "tournament.error.no_permission")
            return
        if isinstance(interaction.channel, discord.Thread):
            await self._say(interaction, "tournament.error.in_thread")
            return
        # one live event a channel: drop, kick, repair, end and standings act
        # on "this channel's" event (a second one took a drop meant for the first)
        busy = await self._here(interaction)
        if busy is not None:
            await self._say(interaction, "tournament.error.channel_busy", id=busy.id)
            return
        if await self.desk.store.tournaments.live_count(interaction.guild_id) >= SERVER_TOURNAMENTS:
            await self._say(interaction, "tournament.error.too_many", max=SERVER_TOURNAMENTS)
            return
        if game not in registry.names():
            await self._say(interaction, "tournament.error.bad_game")
            return
        if format not in FORMATS:
            values = t("list.sep", loc).join(f"`{f}`" for f in FORMATS)
            await self._say(interaction, "tournament.error.bad_format", values=values)
            return
        spec = registry.spec(game)
        # a table of a tournament seats two at least (Nine, Six Dice and
        # Yahtzee can be played alone: not as a match)
        low, high = max(MIN_PLAYERS, spec.min_players), spec.max_players
        if table_size is None:
            size = 2 if low <= 2 and (high == 2 or format == "knockout") else max(low, min(high, DEFAULT_TABLE))
        else:
            size = table_size
        if not low <= size <= high:
            await self._say(interaction, "tournament.error.bad_table_size", min=low, max=high,
                            value=size)  # fmt: skip
            return
        if format == "knockout" and size != 2:
            await self._say(interaction, "tournament.error.knockout_two")
            return
        if rounds is not None and not 0 <= rounds <= MAX_ROUNDS:
            await self._say(interaction, "tournament.error.bad_rounds", max=MAX_ROUNDS, value=rounds)
            return
        if format == "swiss" and not rounds:
            rounds = 0  # as many as the players need (at the start)
        elif format != "swiss":
            rounds = 0  # the format decides (round robin: n-1, knockout: log2 n)
        if clock is not None and not turns.MIN_TURN <= clock <= turns.MAX_TURN:
            await self._say(interaction, "tournament.error.bad_clock", min=turns.MIN_TURN,
                            max=turns.MAX_TURN, value=clock)  # fmt: skip
            return
        if not 0 <= checkin <= MAX_CHECKIN:
            await self._say(interaction, "tournament.error.bad_checkin", max=MAX_CHECKIN,
                            value=checkin)  # fmt: skip
            return
        tables = self.bot.tables
        try:
            raw = await tables.server_options(interaction.guild_id, game)
            raw.update(parse_options_text(options))
            parsed = core.parse_options(spec.options, raw)
        except RuleError as err:
            reason = option_error(err, spec.options, t(f"game.{game}", loc), loc)
            await self._say(interaction, "error.bad_options", reason=reason)
            return
        now = tables.clock()
        start = None
        if starts_at:
            start = parse_start(starts_at, now)
            if start is None:
                await self._say(interaction, "tournament.error.bad_start", value=starts_at[:20])
                return
        lang = await tables.public_lang(interaction)
        row = await self.desk.service.create(
            guild_id=interaction.guild_id, channel_id=interaction.channel_id, game=game,
            format=format, rounds=rounds, table_size=size, options=parsed, clock_seconds=clock,
            starts_at=start, checkin_seconds=checkin * 60, cpu_fill=cpu_fill,
            host_id=interaction.user.id, lang=lang,
        )  # fmt: skip
        log.info("tournament %d: %s %s created in guild %d", row.id, game, format, row.guild_id)
        content, view = await self.desk.signup_message(row)
        kwargs: dict[str, Any] = {"content": content, "allowed_mentions": MENTIONS}
        if view is not None:
            kwargs["view"] = view
        await interaction.response.send_message(**kwargs)
        try:
            sent = await interaction.original_response()
        except discord.HTTPException:
            return
        await self.desk.store.tournaments.set_tournament_message(row.id, message_id=sent.id)

    # ------------------------------------------------------------ players

    @group.command(name="drop", description="Leave the tournament here (your game now is forfeited)")
    async def drop(self, interaction: discord.Interaction[Any]) -> None:
        row = await self._here(interaction)
        if row is None:
            await self._say(interaction, "tournament.error.none_here")
            return
        await self._remove(interaction, row, interaction.user.id, "dropped")

    @group.command(name="kick", description="Remove a player from the tournament here (organisers)")
    @app_commands.describe(user="The player to remove")
    async def kick(self, interaction: discord.Interaction[Any], user: discord.Member) -> None:
        row = await self._organised(interaction)
        if row is not None:
            await self._remove(interaction, row, user.id, "kicked")

    async def _remove(
        self, interaction: discord.Interaction[Any], row: TournamentRow, user_id: int, status: str
    ) -> None:
        desk = self.desk
        async with desk.lock(row.id):
            fresh = await desk.store.tournaments.get_tournament(row.id)
            if fresh is None or fresh.state not in LIVE:
                await self._say(interaction, "tournament.error.none_here")
                return
            if not await desk.service.remove(fresh, user_id, status):
                if user_id == interaction.user.id:  # spoken to: "you", not "@Frank"
                    await self._say(interaction, "tournament.error.not_in")
                else:
                    await self._say(interaction, "tournament.error.not_in_user",
                                    user=present.mention(user_id))  # fmt: skip
                return
            await interaction.response.defer(ephemeral=True, thinking=True)
            await desk.refresh_signup(fresh)
        forfeited = False
        if fresh.state == "running":  # the table's end records the match (a loss)
            forfeited = await desk.forfeit(fresh, user_id)
        # spoken to the one who asked: "you" when it is about themselves
        key = "tournament.ok.dropped" if status == "dropped" else "tournament.ok.kicked"
        if status != "dropped" and user_id == interaction.user.id:
            key = "tournament.ok.kicked_self"
        if fresh.state != "running":  # before the start: no game to forfeit
            key += "_signup"
        elif not forfeited:  # a bye, or their match of the round over: none now
            key += "_between"
        await self._say(interaction, key, user=present.mention(user_id), id=row.id)

    # ------------------------------------------------------------ the host

    @group.command(name="repair", description="Pair the current round again before it is played (organisers)")
    async def repair(self, interaction: discord.Interaction[Any]) -> None:
        desk = self.desk
        row = await self._organised(interaction)
        if row is None:
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        outcome = await desk.repair_round(row, by=interaction.user.id)  # takes the locks
        await self._say(interaction, outcome.key, **{k: v for k, v in (outcome.args or {}).items()
                                                     if k != "old"})  # fmt: skip

    @group.command(name="end", description="End the tournament here (organisers): no more rounds")
    async def end(self, interaction: discord.Interaction[Any]) -> None:
        desk = self.desk
        row = await self._organised(interaction)
        if row is None:
            return
        async with desk.lock(row.id):
            fresh = await desk.store.tournaments.get_tournament(row.id)
            if fresh is None or not await desk.service.end(fresh):
                await self._say(interaction, "tournament.error.none_here")
                return
            await interaction.response.defer(ephemeral=True, thinking=True)
            await desk.refresh_signup(fresh)
            if fresh.round:
                await desk.refresh_standings(fresh)
            await desk.say(fresh, t("tournament.ended_by", fresh.lang, user=f"<@{interaction.user.id}>",
                                    game=t(f"game.{fresh.game}", fresh.lang)))  # fmt: skip
        await self._say(interaction, "tournament.ok.ended", id=row.id)

    # ------------------------------------------------------------ records

    @group.command(name="standings", description="The standings of a tournament")
    @app_commands.describe(id="The tournament's number (this channel's if left out)")
    async def standings(self, interaction: discord.Interaction[Any], id: int | None = None) -> None:
        desk = self.desk
        assert interaction.guild_id is not None
        row: TournamentRow | None
        if id is None:
            row = await self._here(interaction)
            if row is None:
                found = await desk.store.tournaments.guild_tournaments(interaction.guild_id, limit=1)
                row = found[0] if found else None
        else:
            row = await desk.store.tournaments.get_tournament(id) if 0 < id < 2**62 else None
            if row is not None and row.guild_id != interaction.guild_id:
                row = None
        if row is None:
            await self._say(interaction, "tournament.error.not_found")
            return
        if row.round == 0:
            await self._say(interaction, "tournament.error.not_started", id=row.id)
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        final = row.state == "finished"
        content, files = await desk.standings.message(row, final=final, lang=str(interaction.locale))
        await interaction.followup.send(content, files=files, ephemeral=True)

    @group.command(name="history", description="This server's tournaments")
    async def history(self, interaction: discord.Interaction[Any]) -> None:
        desk = self.desk
        assert interaction.guild_id is not None
        loc = interaction.locale
        rows = await desk.store.tournaments.guild_tournaments(interaction.guild_id, limit=10)
        if not rows:
            await self._say(interaction, "tournament.history.none")
            return
        lines = [t("tournament.history.title", loc)]
        for row in rows:
            winner = ""
            if row.state == "finished" and not await desk.service.decided(row):
                winner = t("tournament.history.no_winner", loc)
            elif row.state == "finished":
                table = await desk.service.standings(row)
                if table:  # everyone who shares 1st
                    firsts = [f"<@{s.player}>" for s in table if s.place == 1]
                    winner = t("tournament.history.winner", loc, count=len(firsts),
                               user=t("list.sep", loc).join(firsts),
                               points=pts(table[0].points, loc))  # fmt: skip
            lines.append(t(
                "tournament.history.line", loc, id=row.id, game=t(f"game.{row.game}", loc),
                format=t(f"tournament.format.{row.format}", loc),
                state=t(f"tournament.state.{state_of(row)}", loc), when=f"<t:{int(row.created_at)}:d>",
                winner=winner,
            ).rstrip())  # fmt: skip
        await interaction.response.send_message("\n".join(lines)[:2000], ephemeral=True,
                                                allowed_mentions=discord.AllowedMentions.none())  # fmt: skip


async def setup(bot: Any) -> None:
    await bot.add_cog(Tournaments(bot))
