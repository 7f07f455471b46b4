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


@dataclass(frozen=True)
class Who:
    """Who asks a lobby for something, without a Discord interaction (the
    Activity, ``docs/activity.md``): the server and channel, the user's id
    and display name (``id`` and ``display_name``, as :func:`bot.model.human_seat`
    reads a member), their locale, and whether they may manage the server."""

    guild_id: int | None
    channel_id: int
    id: int
    display_name: str
    locale: Any
    manager: bool = False

    @classmethod
    def of(cls, interaction: discord.Interaction[Any]) -> Who:
        user = interaction.user
        return cls(interaction.guild_id, interaction.channel_id or 0, user.id, user.display_name,
                   interaction.locale, is_manager(interaction))  # fmt: skip


@dataclass(frozen=True)
class Refusal:
    """Why a lobby's request changed nothing: a catalogue key and its
    arguments (worded in the asker's locale), or words already made (a
    rule's error)."""

    key: str
    args: dict[str, Any] = field(default_factory=dict)
    text: str | None = None


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
        lang = await self.service.public_lang(interaction)
        refused = await self.open_for(
            Who.of(interaction), game, options_text, lang, again=again, interaction=interaction
        )
        if refused is not None:
            await self.tell(interaction, refused)

    async def open_for(
        self,
        who: Who,
        game: str,
        options_text: str | None,
        lang: str,
        *,
        again: Again | None = None,
        interaction: discord.Interaction[Any] | None = None,
    ) -> Refusal | None:
        """A new lobby in ``who``'s channel, hosted by them (``/play``, the
        Activity's ``open``), its public messages in ``lang``: the server's
        default house options over ``options_text``, the limits, and the
        lobby stored and committed (the screen follower posts its message).
        What refused it (nothing opened), else ``None``. ``interaction``:
        the commit answers it (``/play``)."""
        service = self.service
        spec = registry.spec(game)
        try:
            if again is not None:
                options = core.parse_options(spec.options, again.options)
            else:
                raw = await service.server_options(who.guild_id, game)
                raw.update(parse_options_text(options_text))
                options = core.parse_options(spec.options, raw)
        except RuleError as err:
            name = t(f"game.{game}", who.locale)
            reason = option_error(err, spec.options, name, who.locale)
            return Refusal("error.bad_options", {"reason": reason})
        channel_id = who.channel_id
        existing = await service.store.tables.table_in_channel(channel_id)
        if existing is not None and await service.drop_unopened(existing):
            existing = None
        if existing is not None:
            return self.here_already(who.locale, existing)
        host = again.host_id if again is not None else who.id
        refused = await self.limits(who.guild_id, host)
        if refused is not None:
            return refused
        row = await service.store.tables.create_table(
            guild_id=who.guild_id,
            channel_id=channel_id,
            game=game,
            host_id=host,
            seats=again.seats if again else [human_seat(who, set(), who.locale)],
            options=options,
            now=service.clock(),
        )
        if row is None:  # another /play was faster
            existing = await service.store.tables.table_in_channel(channel_id)
            return None if existing is None else self.here_already(who.locale, existing)
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
            return None if interaction is not None else Refusal("error.db_unavailable")
        return None

    async def tell(self, interaction: discord.Interaction[Any], refused: Refusal) -> None:
        """Tell the user (ephemerally) why nothing changed."""
        if refused.text is not None:
            await self.service.say(interaction, refused.text)
        else:
            await self.service.reply(interaction, refused.key, **refused.args)

    async def within_limits(
        self, interaction: discord.Interaction[Any], again: Again | None
    ) -> bool:
        """Whether a new table may open here (:meth:`limits`); if not, the
        user is told, ephemerally."""
        host = again.host_id if again is not None else interaction.user.id
        refused = await self.limits(interaction.guild_id, host)
        if refused is not None:
            await self.tell(interaction, refused)
        return refused is None

    async def limits(self, guild_id: int | None, host: int) -> Refusal | None:
        """Whether a new table may open here (docs/bot.md "Limits"): a server
        has at most :data:`SERVER_TABLES` tables open, a member hosts at most
        :data:`MEMBER_LOBBIES` lobbies waiting for players in it; if not,
        what refuses it (nothing is opened). (A tournament's matches are
        opened by :meth:`open_seated`, never refused: the tournament bounds
        them.)"""
        if guild_id is None:
            return None
        tables, lobbies = await self.service.store.tables.open_counts(guild_id, host)
        if tables >= SERVER_TABLES:
            return Refusal("error.server_tables_limit", {"count": tables})
        if lobbies >= MEMBER_LOBBIES:
            return Refusal("error.member_lobbies_limit", {"count": lobbies})
        return None

    async def already_here(self, interaction: discord.Interaction[Any], row: TableRow) -> None:
        """Tell the user the channel has a table (with a link to it)."""
        await self.tell(interaction, self.here_already(interaction.locale, row))

    @staticmethod
    def here_already(locale: Any, row: TableRow) -> Refusal:
        """The channel has a table: the refusal, with a link to it."""
        game = t(f"game.{row.game}", locale)
        url = message_link(row.guild_id, row.channel_id, row.message_id)
        link = linked("link.table", locale, url, game=game)
        return Refusal("error.table_exists", {"game": game, "link": link})

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
        refused = await self.act(Who.of(interaction), before, row, action, interaction)
        if refused is not None:
            await self.tell(interaction, refused)

    async def act(
        self,
        who: Who,
        before: TableRow,
        row: TableRow,
        action: str,
        interaction: discord.Interaction[Any] | None = None,
    ) -> Refusal | None:
        """``who``'s ``action`` on a lobby (a button's: ``join``, ``leave``,
        ``cpu:<level>``, ``cpu:remove``, ``start``, ``cancel``), under the
        table's lock, the row loaded and its version checked; the change
        committed. What refused it (nothing changed), else ``None``.
        ``interaction``: the press the commit answers (the Activity: none;
        a stale commit is then its refusal)."""
        service = self.service
        spec = registry.spec(row.game)
        seated = row.seat_of(who.id)
        if action == "join":
            if seated:
                return Refusal("lobby.already_in")
            if len(row.seats) >= spec.max_players:
                return Refusal("lobby.full", {"max": spec.max_players})
            waiting = invited(row)
            if not any(p["id"] == who.id for p in waiting):
                if len(row.seats) + len(waiting) >= spec.max_players:  # held for a rematch
                    return Refusal("error.seats_held")
            row.seats.append(human_seat(who, {s["name"] for s in row.seats}, who.locale))
            answer_invite(row, who.id)
        elif action == "leave":
            if not seated:
                if answer_invite(row, who.id):  # an invitation declined
                    change = await service.commit(before, row, origin="press",
                                                  interaction=interaction)  # fmt: skip
                    return _stale(change, interaction)
                return Refusal("error.not_in_game")
            return await self.left(who.id, before, row, seated, "press", interaction)
        elif action.startswith(CPU_ADD):  # add or remove a computer player
            refused = self.seat_cpu(who, row, action)
            if refused is not None:
                return refused
        elif action in ("start", "cancel"):
            if who.id != row.host_id and not who.manager:
                return Refusal("lobby.host_only")
            if action == "cancel":
                change = await service.commit(
                    before, row, origin="press", kind=CANCELLED, interaction=interaction, by=who.id
                )
                return _stale(change, interaction)
            refused = self.deal(who.locale, row)
            if refused is not None:
                return refused
        else:
            return Refusal("error.unknown_action")
        # who pressed Start: the first player, when someone else, is pinged
        actor = seated["name"] if seated else None
        change = await service.commit(
            before, row, origin="press", state=None, interaction=interaction, actor=actor
        )
        return _stale(change, interaction)

    async def leave(
        self,
        interaction: discord.Interaction[Any],
        before: TableRow,
        row: TableRow,
        seat: dict[str, Any],
    ) -> None:
        """``seat``'s person leaves the lobby (Leave, ``/game leave``)."""
        origin = "press" if interaction.type is discord.InteractionType.component else "command"
        await self.left(interaction.user.id, before, row, seat, origin, interaction)

    async def left(
        self,
        user_id: int,
        before: TableRow,
        row: TableRow,
        seat: dict[str, Any],
        origin: str,
        interaction: discord.Interaction[Any] | None,
    ) -> Refusal | None:
        """``seat``'s person leaves the lobby: the last person closes it; a
        host who leaves hands it on."""
        service = self.service
        row.seats.remove(seat)
        if not humans(row.seats):
            change = await service.commit(
                before, row, origin=origin, kind=CANCELLED, interaction=interaction, by=user_id
            )
            return _stale(change, interaction)
        if row.host_id == user_id:
            row.host_id = humans(row.seats)[0]["id"]
        change = await service.commit(before, row, origin=origin, interaction=interaction)
        return _stale(change, interaction)

    def seat_cpu(self, who: Who, row: TableRow, action: str) -> Refusal | None:
        """Add or remove a computer player (host only): the row changed (to
        be saved), or what refused it."""
        spec = registry.spec(row.game)
        if who.id != row.host_id and not who.manager:
            return Refusal("lobby.host_only")
        if action == CPU_REMOVE:
            bots = [s for s in row.seats if is_cpu(s)]
            if not bots:
                return Refusal("cpu.none")
            row.seats.remove(bots[-1])
            return None
        level = action[len(CPU_ADD) :]
        if level not in LEVELS or spec.ai is None:
            return Refusal("error.unknown_action")
        if len(row.seats) >= spec.max_players:
            return Refusal("lobby.full", {"max": spec.max_players})
        row.seats.append(cpu_seat(row, level, row.ui.get("lang", "en")))
        return None

    async def start(self, interaction: discord.Interaction[Any], row: TableRow) -> bool:
        """Deal the game of a lobby (``/play vs:``): ``True`` = the row now
        holds the first state; ``False`` = refused (answered)."""
        refused = self.deal(interaction.locale, row)
        if refused is not None:
            await self.tell(interaction, refused)
        return refused is None

    def deal(self, locale: Any, row: TableRow) -> Refusal | None:
        """Deal the game of a lobby (Start): the row now holds the first
        state, or what refused it (words in ``locale``)."""
        spec = registry.spec(row.game)
        if len(row.seats) < spec.min_players:
            return Refusal("lobby.too_few", {"min": spec.min_players})
        try:
            assert row.seed is not None
            source = self.service.source_factory(row.seed)
            names = [s["name"] for s in row.seats]
            state = spec.engine.new_game(names, row.options, None, source)
        except RuleError as err:
            return Refusal(err.key, text=rule_error(err, locale))
        begin(row, state)
        return None


def _stale(change: Any, interaction: discord.Interaction[Any] | None) -> Refusal | None:
    """A commit that stored nothing (the row moved on, the database
    failed): the press was answered by the commit; an asker without one
    (the Activity) is refused."""
    if change is None and interaction is None:
        return Refusal("error.stale")
    return None
