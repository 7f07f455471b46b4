"""A tournament's match on Discord: a thread under the tournament channel
and a seated, started table in it, its players pinged there; and a
player's game of the round forfeited (they dropped out or were kicked).

A thread made for a match is stored before its table is opened, so a
repair uses it again rather than making another."""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot.followers.tournament.board import MENTIONS
from bot.followers.tournament.part import Part, Shared
from bot.i18n import t
from bot.model import human_seat, is_cpu
from bot.tournament.rows import MatchRow, TournamentRow
from bot.tournament.service import two_player
from games import core, registry

log = logging.getLogger("bot.followers.tournament")  # the follower's one logger


class Matches(Part):
    """Opens a process's tournament matches: their threads and tables."""

    def __init__(self, shared: Shared) -> None:
        super().__init__(shared)
        self.opening: set[int] = set()  # matches this process is opening now

    async def open_match(self, row: TournamentRow, match: MatchRow, names: dict[int, str]) -> None:
        """A thread under the tournament channel and a seated, started table
        in it; the players are pinged there. Idempotent across processes:
        the thread is stored before the table is opened, the table's
        channel takes one table, and the match is marked open once."""
        if match.id in self.opening:
            return
        self.opening.add(match.id)
        try:
            await self._open_match(row, match, names)
        finally:
            self.opening.discard(match.id)

    async def _open_match(self, row: TournamentRow, match: MatchRow, names: dict[int, str]) -> None:
        lang = row.lang
        thread_id = match.thread_id
        made = False  # the thread is this call's: the introduction comes first in it
        if thread_id is None:
            thread_id = await self.make_thread(row, match, names)
            if thread_id is None:
                return
            await self.store.tournaments.set_match_thread(match.id, thread_id)
            stored = await self.store.tournaments.get_match(match.id)
            made = stored is not None and stored.thread_id == thread_id
            if stored is None or stored.thread_id != thread_id:  # another made one first
                await self.delete_channel(thread_id)
                if stored is None or stored.thread_id is None:
                    return  # re-paired meanwhile
                thread_id = stored.thread_id
            if stored.state != "paired":
                return  # opened meanwhile
        existing = await self.store.tables.table_in_channel(thread_id)
        if existing is not None:
            if existing.ui.get("tournament", {}).get("match") == match.id:
                await self.store.tournaments.open_match(match.id, thread_id=thread_id, table_id=existing.id)
            return
        if made:  # before the table and the ping of whoever moves first
            await self.introduce(row, match, thread_id)
        seats = self.seats_of(row, match, names)
        table = await self.client.lobby.open_seated(
            guild_id=row.guild_id, channel_id=thread_id, game=row.game, host_id=row.host_id,
            seats=seats, options=dict(row.options), lang=lang, clock_seconds=row.clock_seconds,
            ui={"tournament": {"id": row.id, "match": match.id, "round": match.round}},
            first=match.seats[0],  # the pairing's first seat moves first
        )  # fmt: skip
        if table is None:
            log.warning("tournament %d: match %d could not be opened", row.id, match.id)
            return
        if not await self.store.tournaments.open_match(match.id, thread_id=thread_id, table_id=table.id):
            return
        if not made:  # a thread made before (a crash between the two): introduced once, now
            await self.introduce(row, match, thread_id)

    async def introduce(self, row: TournamentRow, match: MatchRow, thread_id: int) -> None:
        """The match's introduction in its thread, pinging its players."""
        lang = row.lang
        people = t("list.sep", lang).join(f"<@{u}>" for u in match.seats)
        text = t("tournament.match.ping", lang, players=people, round=match.round,
                 number=match.number, game=t(f"game.{row.game}", lang))  # fmt: skip
        if two_player(row):  # a rematch is said as such (none while a pairing avoids it)
            met = sorted({m.round for m in await self.store.tournaments.matches(row.id)
                          if m.round < match.round and set(m.seats) == set(match.seats)})  # fmt: skip
            if met:
                rounds = t("list.sep", lang).join(str(r) for r in met)
                text += "\n" + t("tournament.match.rematch", lang, rounds=rounds)
        channel = self.client.get_partial_messageable(thread_id, guild_id=row.guild_id)
        try:
            await channel.send(text, allowed_mentions=MENTIONS)
        except discord.HTTPException as err:
            log.warning("tournament %d: could not ping match %d (%s/%s)", row.id, match.id,
                        err.status, err.code)  # fmt: skip

    def seats_of(
        self, row: TournamentRow, match: MatchRow, names: dict[int, str]
    ) -> list[dict[str, Any]]:
        """The match's seats: its people (in the pairing's order: the first
        moves first, colours balanced by the pairing) and, with cpu_fill,
        computers in the empty seats up to the table's size."""
        taken: set[str] = set()
        seats: list[dict[str, Any]] = []
        for user_id in match.seats:
            person = _Person(user_id, names.get(user_id, str(user_id)))
            seat = human_seat(person, taken, row.lang)
            taken.add(seat["name"])
            seats.append(seat)
        low, high = registry.spec(row.game).min_players, registry.spec(row.game).max_players
        want = max(low, min(high, row.table_size)) if row.cpu_fill else low
        while len(seats) < want:
            seats.append({"bot": True, "level": "normal"})
        return seats

    async def make_thread(self, row: TournamentRow, match: MatchRow, names: dict[int, str]) -> int | None:
        name = t("tournament.thread", row.lang, id=row.id, round=match.round, number=match.number)
        try:
            thread = await self.client.http.start_thread_without_message(
                row.channel_id, name=name[:100], auto_archive_duration=1440, type=11
            )
        except discord.HTTPException as err:
            log.warning("tournament %d: no thread for match %d (%s/%s)", row.id, match.id,
                        err.status, err.code)  # fmt: skip
            return None
        return int(thread["id"])

    async def delete_channel(self, channel_id: int) -> None:
        try:
            await self.client.http.delete_channel(channel_id)
        except discord.HTTPException:
            log.warning("a spare thread %d could not be deleted", channel_id)

    async def forfeit(self, row: TournamentRow, user_id: int) -> bool:
        """``user_id``'s game of the current round is forfeited (they
        dropped out or were kicked). Whether they had one to forfeit (not
        after a bye, or once their match of the round has ended)."""
        forfeited = False
        for match in await self.store.tournaments.matches(row.id, round=row.round):
            if user_id not in match.seats or match.state in ("finished", "bye"):
                continue
            if match.table_id is None:
                continue
            async with self.tables.lock(match.table_id):
                loaded = await self.tables.load(match.table_id)
                if loaded is None:
                    continue
                before, table = loaded
                seat = table.seat_of(user_id)
                if seat is None or table.state is None or is_cpu(seat):
                    continue
                eng = registry.engine(table.game)
                state = eng.from_json(table.state)
                try:
                    events = eng.forfeit(state, seat["name"])
                except core.RuleError:
                    continue
                await self.tables.commit(before, table, origin="command", state=state, events=events)
                forfeited = True
        return forfeited


class _Person:
    """A player as :func:`bot.model.human_seat` reads one."""

    def __init__(self, user_id: int, name: str) -> None:
        self.id = user_id
        self.display_name = name
