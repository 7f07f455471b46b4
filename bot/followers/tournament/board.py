"""What a tournament shows in its channel: the sign-up message (its words
and its buttons, edited in place as players join, check in, and the event
starts and ends), the standings message (posted once, then edited; an edit
that fails is noted for the sweep), and what the desk says there."""

from __future__ import annotations

import logging
from typing import Any, Protocol

import discord

from bot.followers.tournament.part import Part, Shared
from bot.i18n import t
from bot.tournament import pairing
from bot.tournament.rows import TournamentRow
from bot.tournament.service import ACTIVE, two_player
from games import core, registry

# the tournament follower's one logger, whichever of its parts writes
# (operators, and the tests of the sweep's back-off, read it by this name)
log = logging.getLogger("bot.followers.tournament")

CUSTOM = "ct:{tournament}:{action}"  # the sign-up message's buttons
MENTIONS = discord.AllowedMentions(users=True, roles=False, everyone=False)


def when(at: float, lang: str, *, relative: bool = True) -> str:
    """A moment as Discord timestamps, shown in each reader's own time zone
    and language: the date and time (``<t:…:f>``), and how far off it is
    (``<t:…:R>``)."""
    stamp = int(at)
    if not relative:
        return f"<t:{stamp}:f>"
    return t("tournament.when", lang, at=f"<t:{stamp}:f>", relative=f"<t:{stamp}:R>")


class Presser(Protocol):
    """What a sign-up button calls: the bot's desk
    (:meth:`bot.followers.tournament.Desk.press`)."""

    async def press(self, interaction: discord.Interaction[Any], tournament_id: int, action: str) -> None: ...


class TournamentButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"ct:(?P<tournament>[0-9]+):(?P<action>[a-z_]+)",
):
    """Join / Leave / Check in / Start on a sign-up message: only the
    tournament's id and the action (no secret)."""

    def __init__(self, tournament_id: int, action: str, button: discord.ui.Button[Any]) -> None:
        super().__init__(button)
        self.tournament_id = tournament_id
        self.action = action

    @classmethod
    def build(cls, tournament_id: int, action: str, label: str, style: str) -> TournamentButton:
        styles = {
            "success": discord.ButtonStyle.success,
            "secondary": discord.ButtonStyle.secondary,
            "primary": discord.ButtonStyle.primary,
        }
        button: discord.ui.Button[Any] = discord.ui.Button(
            label=label[:80],
            style=styles[style],
            custom_id=CUSTOM.format(tournament=tournament_id, action=action),
        )
        return cls(tournament_id, action, button)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: Any, /
    ) -> TournamentButton:
        assert isinstance(item, discord.ui.Button)
        return cls(int(match["tournament"]), match["action"], item)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        desk: Presser | None = getattr(interaction.client, "tournaments", None)
        if desk is None:
            return
        try:
            await desk.press(interaction, self.tournament_id, self.action)
        except Exception as err:
            await interaction.client.on_press_failed(
                interaction, f"tournament {self.tournament_id} button {self.action}", err
            )


class Board(Part):
    """A process's tournaments' messages in their channels."""

    def __init__(self, shared: Shared) -> None:
        super().__init__(shared)
        self.behind: set[int] = set()  # standings messages noted behind

    async def signup_message(self, row: TournamentRow) -> tuple[str, discord.ui.View | None]:
        """The sign-up message: what the event is and who is in; the buttons
        while it takes players."""
        lang = row.lang
        entrants = [e for e in await self.store.tournaments.entrants(row.id) if e.status in ACTIVE]
        game = t(f"game.{row.game}", lang)
        lines = [
            t("tournament.title", lang, game=game, format=t(f"tournament.format.{row.format}", lang)),
            t("tournament.host", lang, host=f"<@{row.host_id}>"),
        ]
        if row.rounds:
            lines.append(t("tournament.rounds", lang, count=row.rounds))
            if two_player(row) and row.format == "swiss" and row.state in ("signup", "checkin"):
                # more rounds than the players allow are cut at the start
                need = pairing.players_for(row.rounds)
                if need > 2:
                    lines.append(t("tournament.rounds_cap", lang, need=need))
        else:
            lines.append(t("tournament.rounds_auto", lang))
        if not two_player(row):
            lines.append(t("tournament.tables_of", lang, count=row.table_size))
        eng = registry.engine(row.game)
        changed = {
            k: v for k, v in row.options.items() if v != core.parse_options(eng.OPTIONS, {}).get(k)
        }
        if changed:
            text = " ".join(f"{k}={_opt(v)}" for k, v in changed.items())
            lines.append(t("tournament.options", lang, options=text))
        if row.clock_seconds:
            lines.append(t("tournament.clock", lang, seconds=row.clock_seconds))
        if row.cpu_fill:
            lines.append(t("tournament.cpu_fill", lang))
        if row.state == "signup":
            if row.starts_at is not None:
                lines.append(t("tournament.starts_at", lang, when=when(row.starts_at, lang)))
            else:
                lines.append(t("tournament.starts_by_host", lang, host=f"<@{row.host_id}>"))
            if row.checkin_seconds:
                lines.append(t("tournament.checkin_rule", lang, count=row.checkin_seconds // 60))
        elif row.state == "checkin":
            lines.append(t("tournament.checkin_open", lang, when=when(row.starts_at or 0, lang)))
        elif row.state == "running":
            lines.append(t("tournament.running", lang, round=row.round, rounds=row.rounds))
        elif row.state == "ended":  # the host's /tournament end, or called off at the start
            if row.round:
                lines.append(t("tournament.ended", lang, round=row.round))
            else:
                lines.append(t("tournament.ended_unstarted", lang))
        else:
            lines.append(t(f"tournament.{row.state}", lang))
        if entrants:
            names = t("list.sep", lang).join(
                f"<@{e.user_id}>" + (" ✅" if e.status == "checked_in" else "") for e in entrants
            )
            lines.append(t("tournament.players", lang, count=len(entrants), players=names))
        elif row.state in ("signup", "checkin"):
            lines.append(t("tournament.players_none", lang))
        else:  # started, and every player has left since
            lines.append(t("tournament.players_gone", lang))
        lines.append(t("tournament.id", lang, id=row.id))
        view = None
        if row.state in ("signup", "checkin"):
            view = discord.ui.View(timeout=None)
            view.add_item(TournamentButton.build(row.id, "join", t("tournament.btn.join", lang), "success"))
            view.add_item(TournamentButton.build(row.id, "leave", t("tournament.btn.leave", lang), "secondary"))
            if row.state == "checkin":
                view.add_item(TournamentButton.build(row.id, "checkin", t("tournament.btn.checkin", lang), "success"))
            view.add_item(TournamentButton.build(row.id, "start", t("tournament.btn.start", lang), "primary"))
        return "\n".join(lines)[:2000], view

    async def refresh_signup(self, row: TournamentRow) -> None:
        """The sign-up message, edited in place."""
        if row.message_id is None:
            return
        content, view = await self.signup_message(row)
        channel = self.client.get_partial_messageable(row.channel_id, guild_id=row.guild_id)
        try:
            await channel.get_partial_message(row.message_id).edit(
                content=content, view=view, allowed_mentions=MENTIONS
            )
        except discord.HTTPException as err:
            log.warning("tournament %d: the sign-up message could not be edited (%s/%s)",
                        row.id, err.status, err.code)  # fmt: skip

    async def refresh_standings(self, row: TournamentRow) -> bool:
        """The standings message, edited in place (posted the first time);
        whether it shows them. An edit that fails leaves a note
        (:meth:`bot.tournament.repo.TournamentsRepo.note_standings_behind`): the sweep edits it
        again — after the final round nothing else would."""
        content, files = await self.standings.message(row)
        channel = self.client.get_partial_messageable(row.channel_id, guild_id=row.guild_id)
        try:
            if row.standings_message_id is None:
                sent = await channel.send(content=content, files=files, allowed_mentions=MENTIONS)
                row.standings_message_id = sent.id
                await self.store.tournaments.set_tournament_message(row.id, standings=sent.id)
            else:
                await channel.get_partial_message(row.standings_message_id).edit(
                    content=content, attachments=files, allowed_mentions=MENTIONS
                )
        except discord.HTTPException as err:
            log.warning("tournament %d: the standings could not be shown (%s/%s)",
                        row.id, err.status, err.code)  # fmt: skip
            gone = isinstance(err, (discord.NotFound, discord.Forbidden))
            if not gone and row.standings_message_id is not None:  # a 5xx, a 429: again later
                await self.note_behind(row.id, True)
            return False
        if row.id in self.behind:
            await self.note_behind(row.id, False)
        return True

    async def note_behind(self, tournament_id: int, behind: bool) -> None:
        await self.store.tournaments.note_standings_behind(tournament_id, behind)
        if behind:
            self.behind.add(tournament_id)
        else:
            self.behind.discard(tournament_id)

    async def say(self, row: TournamentRow, text: str, files: list[discord.File] | None = None) -> None:
        channel = self.client.get_partial_messageable(row.channel_id, guild_id=row.guild_id)
        try:
            await channel.send(content=text, files=files or [], allowed_mentions=MENTIONS)
        except discord.HTTPException as err:
            log.warning("tournament %d: could not post in its channel (%s/%s)",
                        row.id, err.status, err.code)  # fmt: skip


def _opt(value: Any) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)
