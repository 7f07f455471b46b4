"""Lobbies and seats: opening a table in a channel (``/play``, ``/play
vs:computer``, a rematch, a table already seated) and what a lobby's buttons
do (Join, Leave, Add/Remove computer, Start, Cancel).

:class:`Lobby` changes tables only through the table service's public
methods — its lock, :meth:`~bot.tables.service.TableService.load` and the one write
path :meth:`~bot.tables.service.TableService.commit` — as anything built on tables
(tournaments) does.
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any, cast

import discord

from bot import turns
from bot.events import CANCELLED, OPENED, snapshot
from bot.i18n import linked, option_error, rule_error, t
from bot.model import (
    CPU_ADD,
    CPU_REMOVE,
    LEVELS,
    cpu_seat,
    human_seat,
    humans,
    is_cpu,
    is_manager,
    message_link,
    parse_options_text,
)
from bot.tables.rows import TableRow
from bot.tables.service import TableService
from games import core, registry
from games.core import RuleError, Source

SERVER_TABLES = 200  # tables (lobbies and games) a server may have open at once
MEMBER_LOBBIES = 3  # lobbies waiting for players one member may host in a server


@dataclass
class Again:
    """A lobby that seats a finished game's players again (a rematch): its
    house options as the game had them, who sits at once (the presser, the
    computers), who is invited to press Join (``{"id", "display"}``), the
    host, and everyone's id in the old seat order."""

    result_id: int
    options: dict[str, Any]
    seats: list[dict[str, Any]]
    host_id: int
    invited: list[dict[str, Any]] = field(default_factory=list)
    order: list[int] = field(default_factory=list)


def invited(row: TableRow) -> list[dict[str, Any]]:
    """The people a rematch lobby still waits for (they press Join)."""
    return list(row.ui.get("rematch", {}).get("invited", []))


def answer_invite(row: TableRow, user_id: int) -> bool:
    """``user_id`` joined or declined: no longer invited. Whether they were."""
    again = row.ui.get("rematch")
    if not again or not any(p["id"] == user_id for p in again["invited"]):
        return False
    again["invited"] = [p for p in again["invited"] if p["id"] != user_id]
    order = again.get("order", [])  # seats as they were in the game played
    row.seats.sort(key=lambda s: order.index(s["id"]) if s["id"] in order else len(order))
    return True


def begin(row: TableRow, state: Any) -> None:
    """The lobby ``row`` becomes the game dealt as ``state``."""
    eng = registry.engine(row.game)
    row.phase = "playing"
    row.state = eng.to_json(state)
    start = {"kind": "start", "player": state.history.dealer, "data": {}}
    row.ui.setdefault("log", []).append(start)


def first_move_deal(
    engine: Any,
    seats: list[dict[str, Any]],
    options: dict[str, Any],
    first: int | None,
    source: Callable[[], Source],
) -> Any:
    """A new game of ``seats`` in which the seat with id ``first`` is to
    move first (``None``: the game chooses its dealer). The engines take a
    dealer, not a first mover: each dealer is tried from ``first``'s seat on
    in seat order, the deal from a fresh ``source()`` each time (the same
    seed, so the same deck or dice), and the first deal that has ``first``
    to move is kept. ``ValueError`` if ``first`` has no seat or no dealer
    gives them the first move."""
    names = [s["name"] for s in seats]
    if first is None:
        return engine.new_game(names, options, None, source())
    at = next((i for i, s in enumerate(seats) if s["id"] == first), None)
    if at is None:
        raise ValueError(f"the first mover {first} has no seat")
    for dealer in names[at:] + names[:at]:
        state = engine.new_game(names, options, dealer, source())
        if engine.to_move(state)[:1] == [names[at]]:
            return state
    raise ValueError(f"no dealer gives {names[at]!r} the first move")


class Lobby:
    """Opening tables and seating players, on one table service."""

    def __init__(self, service: TableService) -> None:
        self.service = service

    # ------------------------------------------------------------------ /play

    async def open_lobby(
        self,
        interaction: discord.Interaction[Any],
        game: str,
        options_text: str | None,
        *,
        again: Again | None = None,
    ) -> None:
        """``/play``: a new lobby in the interaction's channel, its host the
        user; ``again``: a rematch of a finished game (its options, seats,
        invitations and host instead)."""
        service = self.service
        spec = registry.spec(game)
        try:
            if again is not None:
                options = core.parse_options(spec.options, again.options)
            else:
                raw = await service.server_options(interaction.guild_id, game)
                raw.update(parse_options_text(options_text))
                options = core.parse_options(spec.options, raw)
        except RuleError as err:
            name = t(f"game.{game}", interaction.locale)
            reason = option_error(err, spec.options, name, interaction.locale)
            await service.reply(interaction, "error.bad_options", reason=reason)
            return
        channel_id = interaction.channel_id
        assert channel_id is not None
        existing = await service.store.tables.table_in_channel(channel_id)
        if existing is not None and await service.drop_unopened(existing):
            existing = None
        if existing is not None:
            await self.already_here(interaction, existing)
            return
        if not await self.within_limits(interaction, again):
            return
        lang = await service.public_lang(interaction)
        user = interaction.user
        row = await service.store.tables.create_table(
            guild_id=interaction.guild_id,
            channel_id=channel_id,
            game=game,
            host_id=again.host_id if again else user.id,
            seats=again.seats if again else [human_seat(user, set(), interaction.locale)],
            options=options,
            now=service.clock(),
        )
        if row is None:  # another /play was faster
            existing = await service.store.tables.table_in_channel(channel_id)
            if existing is not None:
                await self.already_here(interaction, existing)
            return
        before = snapshot(row)
        row.seed = service.seed_factory()
        row.ui = {"lang": lang, "log": []}
        if again is not None:
            row.ui["rematch"] = {"of": again.result_id, "invited": again.invited,
                                 "order": again.order}  # fmt: skip
        opened = await service.commit(
            before, row, origin="command", kind=OPENED, interaction=interaction
        )
        if opened is None:  # the database failed after the row was made: not half a lobby
            with contextlib.suppress(sqlite3.Error):
                await service.store.tables.delete_table(row)  # still version 0: never opened

    async def within_limits(
        self, interaction: discord.Interaction[Any], again: Again | None
    ) -> bool:
        """Whether a new table may open here (docs/bot.md "Limits"): a server
        has at most :data:`SERVER_TABLES` tables open, a member hosts at most
        :data:`MEMBER_LOBBIES` lobbies waiting for players in it; if not, the
        user is told, ephemerally, and nothing is opened. (A tournament's
        matches are opened by :meth:`open_seated`, never refused: the
        tournament bounds them.)"""
        guild_id = interaction.guild_id
        if guild_id is None:
            return True
        host = again.host_id if again is not None else interaction.user.id
        tables, lobbies = await self.service.store.tables.open_counts(guild_id, host)
        if tables >= SERVER_TABLES:
            await self.service.reply(interaction, "error.server_tables_limit", count=tables)
            return False
        if lobbies >= MEMBER_LOBBIES:
            await self.service.reply(interaction, "error.member_lobbies_limit", count=lobbies)
            return False
        return True

    async def already_here(self, interaction: discord.Interaction[Any], row: TableRow) -> None:
        """Tell the user the channel has a table (with a link to it)."""
        game = t(f"game.{row.game}", interaction.locale)
        url = message_link(row.guild_id, row.channel_id, row.message_id)
        link = linked("link.table", interaction.locale, url, game=game)
        await self.service.reply(interaction, "error.table_exists", game=game, link=link)

    async def play_computer(
        self, interaction: discord.Interaction[Any], game: str, options_text: str | None, level: str
    ) -> None:
        """``/play vs:computer``: a table with the user and computer players
        at ``level`` (as many as the game needs, at least one), started at
        once — the lobby is posted, then dealt, as if the host had pressed
        Add computer and Start."""
        service = self.service
        spec = registry.spec(game)
        if spec.ai is None or level not in LEVELS:
            await service.reply(interaction, "error.unknown_action")
            return
        channel_id = interaction.channel_id
        assert channel_id is not None
        await self.open_lobby(interaction, game, options_text)
        row = await service.store.tables.table_in_channel(channel_id)
        if row is None or row.phase != "lobby" or row.host_id != interaction.user.id:
            return  # refused (bad options, a table already here): answered
        async with service.lock(row.id):
            loaded = await service.load(row.id)
            if loaded is None:
                return
            before, row = loaded
            if row.phase != "lobby" or len(row.seats) != 1:
                return  # someone joined or started it in between: theirs now
            while len(row.seats) < max(2, spec.min_players):
                row.seats.append(cpu_seat(row, level, row.ui.get("lang", "en")))
            if not await self.start(interaction, row):
                return
            actor = row.seats[0]["name"]
            await service.commit(
                before, row, origin="command", interaction=interaction, actor=actor
            )

    # ------------------------------------------------------- a seated table

    async def open_seated(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        game: str,
        host_id: int,
        seats: list[dict[str, Any]],
        options: dict[str, Any],
        lang: str,
        clock_seconds: int | None = None,
        ui: dict[str, Any] | None = None,
        first: int | None = None,
    ) -> TableRow | None:
        """A table opened, seated and started in one go, with no interaction
        (a tournament's match): the returned row is the started game.

        ``seats`` in playing order: people's seats as
        :func:`bot.model.human_seat` makes them (``id``, ``name`` — unique
        engine names —, ``display``, ``lang``) and computer players, given
        as ``{"bot": True, "level": "easy" | "normal" | "strong"}`` (their
        id, name and label are made here, as Add computer makes them).
        ``options``: house options already parsed (``core.parse_options``).
        ``lang``: the language of the table's public messages.
        ``clock_seconds``: this table's own turn clock, over the server's
        (``/config clock``) — kept in ``ui`` under
        :data:`bot.turns.TABLE_CLOCK` and used by every turn it arms.
        ``ui``: more keys of the table's UI state (e.g. ``{"tournament":
        {"id": 3, "match": 17}}``; a table with ``"tournament"`` offers no
        Rematch under its result).
        ``first``: the id of the seat who makes the game's first move (a
        tournament's pairing balances it): the game is dealt with the dealer
        that gives them the first move — in most games that seat itself, in
        Sixty-Six (the non-dealer leads) the other one. ``None``: the game
        chooses its dealer as at any table (drawn, or by its dealer rolls).

        The table is stored opened (a lobby, its message posted in the
        channel — a thread is a channel — by the screen follower) and then
        started through the one write path, as ``/play vs:computer`` does:
        the first player is pinged, the turn clock armed, computers move.
        ``None``: the channel already has a table (nothing changed), or the
        message could not be posted or the database failed (the table is
        removed again). Seats the game cannot take (too few, too many,
        names or ids twice, a level it has no computer for) raise
        ``ValueError``; options the game refuses for these seats raise
        :class:`games.core.RuleError` — before anything is stored.
        """
        service = self.service
        spec = registry.spec(game)
        if not spec.min_players <= len(seats) <= spec.max_players:
            raise ValueError(
                f"{game}: {len(seats)} seats, not {spec.min_players}-{spec.max_players}"
            )
        placed: list[dict[str, Any]] = []
        holder = cast(TableRow, SimpleNamespace(seats=placed))  # what cpu_seat reads
        for seat in seats:
            if is_cpu(seat) and "name" not in seat:
                level = str(seat.get("level", "normal"))
                if level not in LEVELS or spec.ai is None:
                    raise ValueError(f"no computer player at {level!r} for {game}")
                placed.append(cpu_seat(holder, level, lang))
            else:
                placed.append(dict(seat))
        names = {s["name"] for s in placed}
        if len(names) != len(placed) or len({s["id"] for s in placed}) != len(placed):
            raise ValueError("a seat's name or id twice")
        if clock_seconds is not None and clock_seconds <= 0:
            raise ValueError(f"a turn clock of {clock_seconds} s")
        seed = service.seed_factory()
        # dealt first: options refused for these seats change nothing
        state = first_move_deal(spec.engine, placed, options, first,
                                lambda: service.source_factory(seed))  # fmt: skip
        existing = await service.store.tables.table_in_channel(channel_id)
        if existing is not None and not await service.drop_unopened(existing):
            return None
        row = await service.store.tables.create_table(
            guild_id=guild_id,
            channel_id=channel_id,
            game=game,
            host_id=host_id,
            seats=placed,
            options=options,
            now=service.clock(),
        )
        if row is None:  # another table was faster
            return None
        async with service.lock(row.id):
            before = snapshot(row)
            row.seed = seed
            row.ui = {**(ui or {}), "lang": lang, "log": []}
            if clock_seconds is not None:
                row.ui[turns.TABLE_CLOCK] = int(clock_seconds)
            opened = await service.commit(before, row, origin="command", kind=OPENED)
            if opened is None:  # the database failed: not half a table
                with contextlib.suppress(sqlite3.Error):
                    await service.store.tables.delete_table(row)
                return None
            loaded = await service.load(row.id)
            if loaded is None:  # the message could not be posted: removed again
                return None
            before, row = loaded
            begin(row, state)
            started = await service.commit(before, row, origin="command")
            return started.after if started is not None else None

    # ------------------------------------------------------- lobby buttons

    async def action(
        self, interaction: discord.Interaction[Any], before: TableRow, row: TableRow, action: str
    ) -> None:
        """A press on a lobby's message (under the table's lock, the row
        loaded and its version checked)."""
        service = self.service
        user = interaction.user
        spec = registry.spec(row.game)
        seated = row.seat_of(user.id)
        if action == "join":
            if seated:
                await service.reply(interaction, "lobby.already_in")
                return
            if len(row.seats) >= spec.max_players:
                await service.reply(interaction, "lobby.full", max=spec.max_players)
                return
            waiting = invited(row)
            if not any(p["id"] == user.id for p in waiting):
                if len(row.seats) + len(waiting) >= spec.max_players:  # held for a rematch
                    await service.reply(interaction, "error.seats_held")
                    return
            row.seats.append(human_seat(user, {s["name"] for s in row.seats}, interaction.locale))
            answer_invite(row, user.id)
        elif action == "leave":
            if not seated:
                if answer_invite(row, user.id):  # an invitation declined
                    await service.commit(before, row, origin="press", interaction=interaction)
                    return
                await service.reply(interaction, "error.not_in_game")
                return
            await self.leave(interaction, before, row, seated)
            return
        elif action.startswith(CPU_ADD):  # add or remove a computer player
            if not await self.cpu_seat(interaction, row, action):
                return
        elif action in ("start", "cancel"):
            if user.id != row.host_id and not is_manager(interaction):
                await service.reply(interaction, "lobby.host_only")
                return
            if action == "cancel":
                await service.commit(
                    before, row, origin="press", kind=CANCELLED, interaction=interaction, by=user.id
                )
                return
            if not await self.start(interaction, row):
                return
        else:
            await service.reply(interaction, "error.unknown_action")
            return
        # who pressed Start: the first player, when someone else, is pinged
        actor = seated["name"] if seated else None
        await service.commit(
            before, row, origin="press", state=None, interaction=interaction, actor=actor
        )

    async def leave(
        self,
        interaction: discord.Interaction[Any],
        before: TableRow,
        row: TableRow,
        seat: dict[str, Any],
    ) -> None:
        """``seat``'s person leaves the lobby (Leave, ``/game leave``): the
        last person closes it; a host who leaves hands it on."""
        service = self.service
        user_id = interaction.user.id
        origin = "press" if interaction.type is discord.InteractionType.component else "command"
        row.seats.remove(seat)
        if not humans(row.seats):
            await service.commit(
                before, row, origin=origin, kind=CANCELLED, interaction=interaction, by=user_id
            )
            return
        if row.host_id == user_id:
            row.host_id = humans(row.seats)[0]["id"]
        await service.commit(before, row, origin=origin, interaction=interaction)

    async def cpu_seat(
        self, interaction: discord.Interaction[Any], row: TableRow, action: str
    ) -> bool:
        """Add or remove a computer player (host only). ``True`` = the row
        changed and is to be saved; ``False`` = refused (already answered)."""
        service = self.service
        spec = registry.spec(row.game)
        if interaction.user.id != row.host_id and not is_manager(interaction):
            await service.reply(interaction, "lobby.host_only")
            return False
        if action == CPU_REMOVE:
            bots = [s for s in row.seats if is_cpu(s)]
            if not bots:
                await service.reply(interaction, "cpu.none")
                return False
            row.seats.remove(bots[-1])
            return True
        level = action[len(CPU_ADD) :]
        if level not in LEVELS or spec.ai is None:
            await service.reply(interaction, "error.unknown_action")
            return False
        if len(row.seats) >= spec.max_players:
            await service.reply(interaction, "lobby.full", max=spec.max_players)
            return False
        row.seats.append(cpu_seat(row, level, row.ui.get("lang", "en")))
        return True

    async def start(self, interaction: discord.Interaction[Any], row: TableRow) -> bool:
        """Deal the game of a lobby (Start, ``/play vs:``): ``True`` = the
        row now holds the first state; ``False`` = refused (answered)."""
        spec = registry.spec(row.game)
        if len(row.seats) < spec.min_players:
            await self.service.reply(interaction, "lobby.too_few", min=spec.min_players)
            return False
        try:
            assert row.seed is not None
            source = self.service.source_factory(row.seed)
            names = [s["name"] for s in row.seats]
            state = spec.engine.new_game(names, row.options, None, source)
        except RuleError as err:
            await self.service.say(interaction, rule_error(err, interaction.locale))
            return False
        begin(row, state)
        return True
