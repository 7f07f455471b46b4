"""The one path of every press and command: load → check → apply → commit → present.

A press carries the table id and the row version its message was drawn from.
Under a per-table lock (one process) and the row version (any number of
processes), the service loads the table, checks that the user may act
(seated? their turn?), applies the move through the game's engine, commits
the new state **before** answering, and then edits the table message in
place. A stale version (an old message, a double click) is refused politely
and changes nothing.
"""

from __future__ import annotations

import asyncio
import logging
import re
import time
from collections.abc import Callable, Coroutine
from typing import Any

import discord

from bot import clock, cpu, ping, private, ratings
from bot.i18n import lang_of, rule_error, t
from bot.store import PlayerResult, Result, Store, TableRow
from bot.ui import present
from bot.ui.games import ui_for
from games import core, registry
from games.core import RuleError, SeededSource, Source

log = logging.getLogger(__name__)

LOG_KEEP = 12  # public events kept with the table for the "last moves" lines


def parse_options_text(text: str | None) -> dict[str, str]:
    """``"target=5000 start=500 kinds=additive"`` → a dict of raw values.

    A bare name means ``on``.

    >>> parse_options_text("target=5000  six_kind_gift")
    {'target': '5000', 'six_kind_gift': 'on'}
    """
    out: dict[str, str] = {}
    for word in (text or "").replace(",", " ").split():
        name, sep, value = word.partition("=")
        if not name or (sep and not value):
            raise RuleError("option.syntax", f"cannot read option {word!r}", word=word)
        out[name.strip().lower()] = value.strip() if sep else "on"
    return out


def engine_name(display: str, taken: set[str]) -> str:
    """A player name for the engine and the record: the display name without
    white space, unique at the table.

    >>> engine_name("Mary Ann", {"Mary_Ann"})
    'Mary_Ann_2'
    """
    base = re.sub(r"\s+", "_", display.strip())[:32] or "player"
    name, n = base, 2
    while name in taken:
        name = f"{base}_{n}"
        n += 1
    return name


def message_link(guild_id: int | None, channel_id: int, message_id: int | None) -> str:
    where = str(guild_id) if guild_id is not None else "@me"
    return f"https://discord.com/channels/{where}/{channel_id}/{message_id or ''}".rstrip("/")


class TableService:
    """Tables of one bot process. Time and randomness are injected."""

    def __init__(
        self,
        store: Store,
        *,
        clock: Callable[[], float] = time.time,
        seed_factory: Callable[[], str] | None = None,
        source_factory: Callable[[str], Source] = SeededSource,
    ) -> None:
        import secrets

        self.store = store
        self.clock = clock
        self.seed_factory = seed_factory or (lambda: secrets.token_hex(16))
        self.source_factory = source_factory
        self._locks: dict[int, asyncio.Lock] = {}

    def lock(self, table_id: int) -> asyncio.Lock:
        lock = self._locks.get(table_id)
        if lock is None:
            lock = self._locks[table_id] = asyncio.Lock()
        return lock

    # ---------------------------------------------------------------- replies

    async def reply(self, interaction: discord.Interaction[Any], key: str, **args: Any) -> None:
        """An ephemeral answer in the user's language."""
        await self.say(interaction, t(key, interaction.locale, **args))

    async def say(self, interaction: discord.Interaction[Any], text: str) -> None:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)

    async def server_options(self, guild_id: int | None, game: str) -> dict[str, Any]:
        """The server's default house options of ``game`` (``/config options``)."""
        if guild_id is None:
            return {}
        stored = await self.store.guild_setting(guild_id, f"options.{game}")
        return dict(stored) if isinstance(stored, dict) else {}

    async def public_lang(self, interaction: discord.Interaction[Any]) -> str:
        """The language of public messages: the server's setting (``/config``,
        later), else the server's locale, else English."""
        if interaction.guild_id is not None:
            chosen = await self.store.guild_setting(interaction.guild_id, "lang")
            if chosen:
                return str(chosen)
        guild = interaction.guild
        return lang_of(guild.preferred_locale if guild is not None else interaction.guild_locale)

    # ------------------------------------------------------------------ /play

    async def open_lobby(
        self, interaction: discord.Interaction[Any], game: str, options_text: str | None
    ) -> None:
        eng = registry.engine(game)
        try:
            raw = await self.server_options(interaction.guild_id, game)
            raw.update(parse_options_text(options_text))
            options = core.parse_options(eng.OPTIONS, raw)
        except RuleError as err:
            await self.say(
                interaction,
                t(
                    "error.bad_options",
                    interaction.locale,
                    reason=rule_error(err, interaction.locale),
                ),
            )
            return
        channel_id = interaction.channel_id
        assert channel_id is not None
        existing = await self.store.table_in_channel(channel_id)
        if existing is not None:
            await self._already_here(interaction, existing)
            return
        lang = await self.public_lang(interaction)
        user = interaction.user
        seat = {
            "id": user.id,
            "name": engine_name(user.display_name, set()),
            "display": user.display_name,
            "lang": lang_of(interaction.locale),  # for this player's DMs
        }
        row = await self.store.create_table(
            guild_id=interaction.guild_id,
            channel_id=channel_id,
            game=game,
            host_id=user.id,
            seats=[seat],
            options=options,
            now=self.clock(),
        )
        if row is None:  # another /play was faster
            existing = await self.store.table_in_channel(channel_id)
            if existing is not None:
                await self._already_here(interaction, existing)
            return
        row.seed = self.seed_factory()
        row.ui = {"lang": lang, "log": []}
        await clock.arm(self, row)
        await self.store.save_table(row, now=self.clock())
        msg = present.lobby_message(row, lang)
        await interaction.response.send_message(**msg.send_kwargs())
        original = await interaction.original_response()
        await self.store.set_message(row.id, original.id)
        log.info("table %d: lobby for %s in channel %d", row.id, game, channel_id)

    async def _already_here(self, interaction: discord.Interaction[Any], row: TableRow) -> None:
        link = message_link(row.guild_id, row.channel_id, row.message_id)
        await self.reply(
            interaction,
            "error.table_exists",
            game=t(f"game.{row.game}", interaction.locale),
            link=link,
        )

    # ------------------------------------------------------------------ press

    async def press(
        self,
        interaction: discord.Interaction[Any],
        table_id: int,
        version: int,
        action: str,
        values: list[str],
    ) -> None:
        """A button or select on a table message."""
        async with self.lock(table_id):
            row = await self.store.get_table(table_id)
            if row is None:
                await self.reply(interaction, "error.no_table")
                return
            if row.version != version:
                await self.reply(interaction, "error.stale")
                return
            if row.phase == "lobby":
                await self._lobby_action(interaction, row, action)
            else:
                await self._game_action(interaction, row, action, values)

    async def _lobby_action(
        self, interaction: discord.Interaction[Any], row: TableRow, action: str
    ) -> None:
        user = interaction.user
        lang = row.ui.get("lang", "en")
        eng = registry.engine(row.game)
        seated = row.seat_of(user.id)
        if action == "join":
            if seated:
                await self.reply(interaction, "lobby.already_in")
                return
            if len(row.seats) >= eng.MAX_PLAYERS:
                await self.reply(interaction, "lobby.full", max=eng.MAX_PLAYERS)
                return
            taken = {s["name"] for s in row.seats}
            row.seats.append(
                {
                    "id": user.id,
                    "name": engine_name(user.display_name, taken),
                    "display": user.display_name,
                    "lang": lang_of(interaction.locale),  # for this player's DMs
                }
            )
        elif action == "leave":
            if not seated:
                await self.reply(interaction, "error.not_in_game")
                return
            row.seats.remove(seated)
            if not cpu.humans(row.seats):
                await self._cancel(interaction, row, by=user.id)
                return
            if row.host_id == user.id:
                row.host_id = cpu.humans(row.seats)[0]["id"]
        elif action.startswith(cpu.ADD):  # add or remove a computer player
            if not await cpu.lobby_action(self, interaction, row, action):
                return
        elif action in ("start", "cancel"):
            if user.id != row.host_id and not _is_manager(interaction):
                await self.reply(interaction, "lobby.host_only")
                return
            if action == "cancel":
                await self._cancel(interaction, row, by=user.id)
                return
            if len(row.seats) < eng.MIN_PLAYERS:
                await self.reply(interaction, "lobby.too_few", min=eng.MIN_PLAYERS)
                return
            try:
                assert row.seed is not None
                source = self.source_factory(row.seed)
                state = eng.new_game([s["name"] for s in row.seats], row.options, None, source)
            except RuleError as err:
                await self.say(interaction, rule_error(err, interaction.locale))
                return
            row.phase = "playing"
            row.state = eng.to_json(state)
            row.ui.setdefault("log", []).append(
                {"kind": "start", "player": state.history.dealer, "data": {}}
            )
        else:
            await self.reply(interaction, "error.unknown_action")
            return
        await clock.arm(self, row)
        if not await self.store.save_table(row, now=self.clock()):
            await self.reply(interaction, "error.stale")
            return
        if row.phase == "lobby":
            msg = present.lobby_message(row, lang)
        else:
            msg = await present.table_message(row, lang)
            log.info("table %d: %s started with %d players", row.id, row.game, len(row.seats))
        await interaction.response.edit_message(**msg.edit_kwargs())
        if row.phase == "playing":
            await private.start(self, interaction, row)
            # the first player, when not the one who pressed Start, is pinged
            starter = seated["name"] if seated else None
            await ping.turn_changed(interaction.client, self.store, row, starter)
            self.kick_cpu(row.id)

    async def _cancel(
        self, interaction: discord.Interaction[Any], row: TableRow, *, by: int
    ) -> None:
        if not await self.store.delete_table(row):
            await self.reply(interaction, "error.stale")
            return
        msg = present.cancelled_message(row, row.ui.get("lang", "en"), by=by)
        await self._show(interaction, row, msg)

    async def _game_action(
        self, interaction: discord.Interaction[Any], row: TableRow, action: str, values: list[str]
    ) -> None:
        if action == "show":  # "Show my hand/dice": private content, ephemerally
            await private.show(interaction, row)
            return
        seat = row.seat_of(interaction.user.id)
        if seat is None:
            await self.reply(interaction, "error.not_in_game")
            return
        assert row.state is not None
        eng = registry.engine(row.game)
        state = eng.from_json(row.state)
        name = seat["name"]
        legal = eng.legal_moves(state, name)
        if not legal:
            await self.reply(interaction, "error.not_your_turn")
            return
        ui = ui_for(row.game)
        # a game's own action that plays a move (Bluff "roll without looking")
        mapped = getattr(ui, "action_move", lambda _action: None)(action)
        if mapped is not None:
            move = mapped
        elif action.startswith("m:"):
            move = action[2:]
        elif (action == "m" or action.startswith("m.")) and values:  # a select
            move = values[0]
        else:
            new_ui = ui.ui_action(action, eng.view(state, name), name, row.ui)
            if new_ui is None:
                await self.reply(interaction, "error.unknown_action")
                return
            row.ui = new_ui
            if not await self.store.save_table(row, now=self.clock()):
                await self.reply(interaction, "error.stale")
                return
            msg = await present.table_message(row, row.ui.get("lang", "en"))
            await interaction.response.edit_message(**msg.edit_kwargs())
            return
        try:
            events = eng.apply(state, name, move)
            # what follows a move in the same commit (Bluff: a Roll looks under the cup)
            follow = getattr(ui, "after_apply", None)
            if follow is not None:
                events += follow(state, name, move, action)
        except RuleError as err:
            await self.say(interaction, rule_error(err, interaction.locale))
            return
        await self.commit(interaction, row, state, events)

    # ---------------------------------------------------------- commit, show

    async def commit(
        self,
        interaction: discord.Interaction[Any],
        row: TableRow,
        state: Any,
        events: list[core.Event],
        *,
        ended_by: int | None = None,
    ) -> bool:
        """Store the new state (or the result) and then show it."""
        eng = registry.engine(row.game)
        before = ping.mover(row)  # who was to move (row.state is still the old state)
        seat = row.seat_of(interaction.user.id)
        build = await self.store_move(
            row, state, events, actor=seat["name"] if seat else None, ended_by=ended_by
        )
        if build is None:
            await self.reply(interaction, "error.stale")
            return False
        msg = await self.draw(row, build)
        await self._show(
            interaction, row, msg, then=private.update(self, interaction, row, state, events)
        )
        # answered and committed: now the turn ping (Discord notifies no edit)
        await ping.turn_changed(
            interaction.client, self.store, row, before, live=not eng.is_finished(state)
        )
        self.kick_cpu(row.id)
        return True

    async def store_move(
        self,
        row: TableRow,
        state: Any,
        events: list[core.Event],
        *,
        actor: str | None = None,
        ended_by: int | None = None,
    ) -> Coroutine[Any, Any, present.TableMessage] | None:
        """Commit a move: the new state and its log (or the finished game's
        result) and the next deadline, under the row version, before anyone
        is answered. Returns the message to draw, or ``None`` when the row
        was stale (nothing was written). Presses, turn clocks and computer
        players all commit through here."""
        eng = registry.engine(row.game)
        ui = ui_for(row.game)
        lang = row.ui.get("lang", "en")
        row.state = eng.to_json(state)
        ui.after_move(events, row.ui)
        row.ui.setdefault("log", []).extend(e.to_json() for e in events if e.public)
        row.ui["log"] = row.ui["log"][-LOG_KEEP:]
        if eng.is_finished(state):
            standings = ui.standings(eng.outcome(state), list(state.history.players), row.ui)
            result = await self._result(row, state, standings)
            if await self.store.finish_table(row, result) is None:
                return None
            self._locks.pop(row.id, None)  # the table is gone; a late press finds no row
            log.info("table %d: %s finished", row.id, row.game)
            return present.result_message(row, lang, standings, ended_by=ended_by)
        await clock.arm(self, row, state, actor=actor)
        if not await self.store.save_table(row, now=self.clock()):
            return None
        return present.table_message(row, lang)

    async def draw(
        self, row: TableRow, build: Coroutine[Any, Any, present.TableMessage]
    ) -> present.TableMessage:
        """The committed table's message; a drawing bug must not strand the
        table, so it falls back to the words-only table."""
        try:
            return await build
        except Exception:
            log.exception("table %d: presenting failed; showing the plain table", row.id)
            return await present.plain_message(row, row.ui.get("lang", "en"))

    def kick_cpu(self, table_id: int) -> None:
        """Let the computer players of ``table_id`` move (bot.cpu), if any."""
        kick = getattr(self, "cpu_kick", None)  # set by the ComputerPlayers cog
        if kick is not None:
            kick(table_id)

    async def _show(
        self,
        interaction: discord.Interaction[Any],
        row: TableRow,
        msg: present.TableMessage,
        *,
        then: Coroutine[Any, Any, None] | None = None,
    ) -> None:
        """Edit the table message: as the answer to a press on it, else by id;
        then run ``then`` (the players' private messages) before any plain
        "Done" answer, so a press in a DM is answered with the new DM."""
        on_table = (
            interaction.type is discord.InteractionType.component
            and interaction.message is not None
            and interaction.message.id == row.message_id
        )
        if on_table and not interaction.response.is_done():
            await interaction.response.edit_message(**msg.edit_kwargs())
            if then is not None:
                await then
            return
        if row.message_id is not None:
            channel = interaction.client.get_partial_messageable(
                row.channel_id, guild_id=row.guild_id
            )
            try:
                await channel.get_partial_message(row.message_id).edit(**msg.edit_kwargs())
            except discord.HTTPException:
                log.warning("table %d: could not edit the table message", row.id)
        if then is not None:
            await then
        if not interaction.response.is_done():
            await self.reply(interaction, "ok.done")

    async def _result(self, row: TableRow, state: Any, standings: list[Any]) -> Result:
        eng = registry.engine(row.game)
        by_name = {s["name"]: s for s in row.seats}
        has_bots = any(s.get("bot") for s in row.seats)
        players = [
            PlayerResult(by_name[s.player]["id"], s.player, s.rank, s.won, s.points, s.best)
            for s in standings
            if s.player in by_name and not by_name[s.player].get("bot")
        ]
        new_ratings: dict[int, tuple[float, float]] = {}
        rated = not has_bots
        if has_bots and row.guild_id is not None:
            rated = bool(await self.store.guild_setting(row.guild_id, "bots_rated"))
        if rated and len(players) >= 2:
            current = await self.store.ratings(row.game, [p.user_id for p in players])
            new_ratings = ratings.rate({p.user_id: p.rank for p in players}, current)
        return Result(
            table_id=row.id,
            guild_id=row.guild_id,
            channel_id=row.channel_id,
            game=row.game,
            record=cpu_record(row, state),
            outcome=eng.outcome(state),
            players=players,
            seed=row.seed,
            has_bots=has_bots,
            finished_at=self.clock(),
            ratings=new_ratings,
            rated=rated,
        )

    # --------------------------------------------------------- /game commands

    async def _channel_table(self, interaction: discord.Interaction[Any]) -> TableRow | None:
        assert interaction.channel_id is not None
        row = await self.store.table_in_channel(interaction.channel_id)
        if row is None:
            await self.reply(interaction, "error.no_table_here")
        return row

    async def status(self, interaction: discord.Interaction[Any]) -> None:
        row = await self._channel_table(interaction)
        if row is None:
            return
        loc = interaction.locale
        players = ", ".join(s["display"] for s in row.seats)
        link = message_link(row.guild_id, row.channel_id, row.message_id)
        if row.phase == "lobby":
            await self.reply(
                interaction,
                "status.lobby",
                game=t(f"game.{row.game}", loc),
                players=players,
                link=link,
            )
            return
        assert row.state is not None
        eng = registry.engine(row.game)
        state = eng.from_json(row.state)
        movers = ", ".join(eng.to_move(state))
        await self.reply(
            interaction,
            "status.playing",
            game=t(f"game.{row.game}", loc),
            players=players,
            turn=movers,
            link=link,
        )

    async def leave(self, interaction: discord.Interaction[Any]) -> None:
        row = await self._channel_table(interaction)
        if row is None:
            return
        async with self.lock(row.id):
            fresh = await self.store.get_table(row.id)
            if fresh is None:
                await self.reply(interaction, "error.no_table_here")
                return
            row = fresh
            seat = row.seat_of(interaction.user.id)
            if seat is None:
                await self.reply(interaction, "error.not_in_game")
                return
            if row.phase == "lobby":
                row.seats.remove(seat)
                if not cpu.humans(row.seats):
                    await self._cancel(interaction, row, by=interaction.user.id)
                    return
                if row.host_id == interaction.user.id:
                    row.host_id = cpu.humans(row.seats)[0]["id"]
                await clock.arm(self, row)
                if await self.store.save_table(row, now=self.clock()):
                    await self._show(
                        interaction, row, present.lobby_message(row, row.ui.get("lang", "en"))
                    )
                return
            assert row.state is not None
            eng = registry.engine(row.game)
            state = eng.from_json(row.state)
            try:
                events = eng.forfeit(state, seat["name"])  # type: ignore[attr-defined]
            except RuleError as err:
                await self.say(interaction, rule_error(err, interaction.locale))
                return
            await self.commit(interaction, row, state, events)

    async def end(self, interaction: discord.Interaction[Any]) -> None:
        row = await self._channel_table(interaction)
        if row is None:
            return
        if interaction.user.id != row.host_id and not _is_manager(interaction):
            await self.reply(interaction, "error.end_not_allowed")
            return
        async with self.lock(row.id):
            fresh = await self.store.get_table(row.id)
            if fresh is None:
                await self.reply(interaction, "error.no_table_here")
                return
            row = fresh
            if row.phase == "lobby":
                await self._cancel(interaction, row, by=interaction.user.id)
                return
            assert row.state is not None
            eng: Any = registry.engine(row.game)
            state = eng.from_json(row.state)
            end_game = getattr(eng, "end_game", None)
            if end_game is not None:
                events = end_game(state)
                await self.commit(interaction, row, state, events, ended_by=interaction.user.id)
                return
            # No settlement "as it stands" in this game's rules: the game is
            # abandoned without a result; the seed is revealed all the same.
            if not await self.store.delete_table(row):
                await self.reply(interaction, "error.stale")
                return
            lang = row.ui.get("lang", "en")
            text = t(
                "result.abandoned",
                lang,
                game=t(f"game.{row.game}", lang),
                user=f"<@{interaction.user.id}>",
            )
            if row.seed:
                text += "\n" + t("result.seed", lang, seed=row.seed, hash=core.seed_hash(row.seed))
            # the table as it stood (the public picture), without controls
            files = await present.picture_files(eng.view(state, None), lang)
            await self._show(interaction, row, present.TableMessage(text, files))
            await ping.clear(interaction.client, row)


def cpu_record(row: TableRow, state: Any) -> dict[str, Any]:
    """The game record; ``hints`` lists the players who asked /hint (a key
    the replay ignores)."""
    record = core.record_of(row.game, state).to_json()
    if row.ui.get("hints"):
        record["hints"] = sorted(row.ui["hints"])
    return record


def _is_manager(interaction: discord.Interaction[Any]) -> bool:
    perms = getattr(interaction, "permissions", None)
    return bool(perms and perms.manage_guild)
