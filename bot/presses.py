"""What a press or a ``/game`` command means: a button or select on a table
message (or a private message), ``/game status``, ``/game leave`` and
``/game end``.

A press carries the table id and the row version its message was drawn
from. :class:`Presses` takes the table's lock, loads the row, checks that
the press belongs to the table (its channel, or a seated player's DM) and
that the user may act (seated? their turn?), applies the move through the
game's engine and commits it with the table service's one write path
(:meth:`bot.tables.service.TableService.commit`); a lobby's buttons are the lobby's
(:class:`bot.lobby.Lobby`).
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import discord
from cachetools import LRUCache

from bot import caches
from bot.game_commands import GameCommands
from bot.games import plugin
from bot.games.base import CONFIRMED, DISMISS, Confirm
from bot.i18n import lang_of, rule_error
from bot.lobby import Lobby, Who
from bot.tables.rows import TableRow
from bot.tables.service import TableService
from bot.ui import secrets as hidden
from games import registry
from games.core import Event, RuleError

log = logging.getLogger(__name__)

MAX_ID = 2**63 - 1  # SQLite's largest integer
MEMBER_TTL = 300.0  # seconds a server membership, once checked, is trusted
MEMBERS_KEPT = 4096  # memberships kept checked (~0.2 KB each); the oldest asked again


class Presses:
    """The presses and ``/game`` commands of one bot process."""

    def __init__(self, service: TableService, lobby: Lobby) -> None:
        self.service = service
        self.lobby = lobby
        self.game = GameCommands(service, lobby)  # /game status, leave, end
        # (server, user) → known until
        self._members: LRUCache[tuple[int, int], float] = LRUCache(maxsize=MEMBERS_KEPT)
        caches.budget("presses.members", MEMBERS_KEPT, "entries", lambda: (len(self._members), 0))
        # wraps every press (the operations endpoint times and counts them)
        self.around_press: Callable[[Awaitable[None]], Awaitable[None]] | None = None

    # ------------------------------------------------------------------ press

    async def press(
        self,
        interaction: discord.Interaction[Any],
        table_id: int,
        version: int,
        action: str,
        values: list[str],
    ) -> None:
        """A button or select on a table message (or a private message)."""
        work = self._answered(self._press(interaction, table_id, version, action, values))
        if self.around_press is None:
            await work
        else:
            await self.around_press(work)
        await self.service.tell_owed(interaction)

    async def _answered(self, press: Awaitable[None]) -> None:
        """A press whose own answer Discord refused (too late: 10062; a 5xx;
        a 429) — a refusal, "Show my hand", a question: nothing to repair
        (a committed move's followers answer for themselves)."""
        try:
            await press
        except discord.HTTPException as err:
            log.warning("an answer to a press failed (%s/%s)", err.status, err.code)

    async def _press(
        self,
        interaction: discord.Interaction[Any],
        table_id: int,
        version: int,
        action: str,
        values: list[str],
    ) -> None:
        service = self.service
        if table_id > MAX_ID:  # a crafted custom id: no table has such an id
            await service.reply(interaction, "error.no_table")
            return
        async with service.lock(table_id):
            loaded = await service.load(table_id)
            if loaded is None:
                if not await self._result_behind(interaction, table_id):
                    await service.reply(interaction, "error.no_table")
                return
            before, row = loaded
            if not self._pressed_here(interaction, row):
                await service.reply(interaction, "error.no_table")
                return
            if interaction.guild_id is None and not await self._still_member(interaction, row):
                await service.reply(interaction, "error.not_in_game")
                return
            message = interaction.message
            if row.message_id is None and message is not None and on_message(interaction, row):
                # the lobby was posted but its id never stored: adopt it
                row.message_id = message.id
                await service.store.tables.set_message(row.id, message.id)
            if row.version != version:
                await self._stale(interaction, before, row, action)
                return
            if row.phase == "lobby":
                await self.lobby.action(interaction, before, row, action)
            else:
                await self._game_action(interaction, before, row, action, values)

    async def _result_behind(self, interaction: discord.Interaction[Any], table_id: int) -> bool:
        """A press on a finished game's table message that still shows the
        game (its end was never shown): it is redrawn with the result, as
        the answer. Whether it was."""
        service = self.service
        if interaction.guild_id is None or interaction.message is None:
            return False
        for result_id, screen in (await service.store.results.unshown_results(service.clock())).items():
            row = screen.get("row") or {}
            if row.get("id") == table_id and service.result_behind(result_id):
                if (row.get("channel_id"), row.get("message_id")) == (
                    interaction.channel_id,
                    interaction.message.id,
                ):
                    await service.repair_result(result_id, screen, origin="press",
                                                interaction=interaction)  # fmt: skip
                    return True
        return False

    def _pressed_here(self, interaction: discord.Interaction[Any], row: TableRow) -> bool:
        """A press belongs to its table: on the table's channel, or (private
        controls) in a DM of a seated player. A crafted payload naming
        another channel's or server's table is refused."""
        if interaction.guild_id is None:
            return row.phase == "playing" and row.seat_of(interaction.user.id) is not None
        return interaction.channel_id == row.channel_id and interaction.guild_id == row.guild_id

    async def _still_member(self, interaction: discord.Interaction[Any], row: TableRow) -> bool:
        """A press from a DM: is the player still a member of the table's
        server? (Asked of Discord, remembered for a few minutes.)"""
        clock = self.service.clock
        key = (row.guild_id or 0, interaction.user.id)
        if self._members.get(key, 0.0) > clock():
            return True
        guild = interaction.client.get_guild(row.guild_id) if row.guild_id else None
        try:
            if guild is not None:
                await guild.fetch_member(interaction.user.id)
            else:
                await interaction.client.http.get_member(row.guild_id or 0, interaction.user.id)
        except discord.NotFound:
            self._members.pop(key, None)
            return False
        except discord.HTTPException:
            return True  # Discord could not say: do not lock a player out
        self._members[key] = clock() + MEMBER_TTL
        return True

    async def _stale(
        self, interaction: discord.Interaction[Any], before: TableRow, row: TableRow, action: str
    ) -> None:
        """A press from an older version of a message. If the table message
        itself is behind the database, it is redrawn at once (the presser is
        told); otherwise the press was a double click or an old window."""
        service = self.service
        if service.behind(row) and on_message(interaction, row):
            await service.repair(before, row, origin="press", interaction=interaction)
            return
        spec = registry.spec(row.game)
        if row.phase == "lobby" and action == "join" and len(row.seats) >= spec.max_players:
            # the last seat went
            await service.reply(interaction, "lobby.full", max=spec.max_players)
            return
        await service.reply(interaction, "error.stale")

    async def _game_action(
        self,
        interaction: discord.Interaction[Any],
        before: TableRow,
        row: TableRow,
        action: str,
        values: list[str],
    ) -> None:
        service = self.service
        if action == "show":  # "Show my hand/dice": private content, ephemerally
            await hidden.show(interaction, row, service.ephemerals)
            return
        if action == DISMISS:  # "no" to a question (Cancel): nothing changes
            await hidden.dismiss(interaction)
            return
        lang = lang_of(interaction.locale)
        decided = decide(row, interaction.user.id, action, values, lang)
        if decided.refusal is not None:
            await service.reply(interaction, decided.refusal)
            return
        if decided.error is not None:
            await service.say(interaction, rule_error(decided.error, interaction.locale))
            return
        if decided.question is not None:  # asked of the player alone; nothing changes yet
            await hidden.ask(interaction, row, *decided.question)
            return
        if decided.ui is not None:
            row.ui = decided.ui
            await service.commit(before, row, origin="press", interaction=interaction, rearm=False)
            return
        if decided.confirmed:  # the question keeps its words, loses its buttons
            try:
                await hidden.answered(interaction)
            except discord.HTTPException as err:  # the move stands all the same
                log.warning("table %d: the question's answer failed (%s/%s)", row.id,
                            err.status, err.code)  # fmt: skip
        await service.commit(
            before, row, origin="press", state=decided.state, events=decided.events,
            interaction=interaction, actor=decided.actor,
        )  # fmt: skip

    async def remote(
        self,
        user_id: int,
        channel_id: int,
        table_id: int,
        version: int,
        action: str,
        lang: str,
        *,
        who: Who | None = None,
    ) -> Decided:
        """A move from away from Discord's components (the Activity,
        ``docs/activity.md``): the checks of a press on the table message —
        the table is this channel's, the version the one shown, the user
        seated and to move, the action known to the game — through
        :func:`decide`, and the change committed through the one write path
        (origin ``press``: it is a player's press). What it came to: a
        refusal (nothing changed), a question, or a committed change
        (``committed``). A lobby's action (Join, Start…) is the lobby's
        (:meth:`bot.lobby.Lobby.act`), for ``who`` (``None``: refused)."""
        work = self._remote(user_id, channel_id, table_id, version, action, lang, who)
        if self.around_press is None:
            return await work
        out: list[Decided] = []

        async def timed() -> None:
            out.append(await work)

        await self.around_press(timed())
        return out[0]

    async def _remote(
        self,
        user_id: int,
        channel_id: int,
        table_id: int,
        version: int,
        action: str,
        lang: str,
        who: Who | None,
    ) -> Decided:
        service = self.service
        if not 0 < table_id <= MAX_ID:
            return Decided(refusal="error.no_table")
        async with service.lock(table_id):
            loaded = await service.load(table_id)
            if loaded is None:
                return Decided(refusal="error.no_table")
            before, row = loaded
            if row.channel_id != channel_id:
                return Decided(refusal="error.no_table")
            if row.version != version:
                return Decided(refusal="error.stale")
            if row.phase == "lobby" and who is not None and who.id == user_id:
                refused = await self.lobby.act(who, before, row, action)
                if refused is not None:
                    return Decided(refusal=refused.key, args=refused.args, said=refused.text)
                return Decided(committed=True)
            if row.phase != "playing" or action == "show":
                return Decided(refusal="error.unknown_action")
            if action == DISMISS:
                return Decided()
            decided = decide(row, user_id, action, [], lang)
            if decided.refusal or decided.error or decided.question:
                return decided
            if decided.ui is not None:
                row.ui = decided.ui
                change = await service.commit(before, row, origin="press", rearm=False)
            else:
                change = await service.commit(
                    before, row, origin="press", state=decided.state, events=decided.events,
                    actor=decided.actor,
                )  # fmt: skip
            if change is None:  # the row moved on meanwhile (another process)
                return Decided(refusal="error.stale")
            return dataclasses.replace(decided, committed=True)

    # --------------------------------------------------------- /game commands

    async def status(self, interaction: discord.Interaction[Any]) -> None:
        await self.game.status(interaction)

    async def leave(self, interaction: discord.Interaction[Any]) -> None:
        await self.game.leave(interaction)

    async def end(self, interaction: discord.Interaction[Any]) -> None:
        await self.game.end(interaction)



def on_message(interaction: discord.Interaction[Any], row: TableRow) -> bool:
    """Whether the press came from the table message (not a DM)."""
    message = interaction.message
    return (
        interaction.type is discord.InteractionType.component
        and message is not None
        and interaction.guild_id is not None
        and interaction.channel_id == row.channel_id
        and (row.message_id is None or message.id == row.message_id)
    )


@dataclass(frozen=True)
class Decided:
    """What a player's action on a running table comes to (:func:`decide`):
    one of a refusal (a catalogue key), a rule's error, a question to ask
    first, a new UI state (no move), or a move applied to ``state``."""

    refusal: str | None = None
    error: RuleError | None = None
    question: Confirm | None = None
    ui: dict[str, Any] | None = None
    state: Any = None
    events: list[Event] = field(default_factory=list)
    actor: str | None = None  # the engine name of whoever moved
    confirmed: bool = False  # the "yes" to a question
    committed: bool = False  # (remote moves) the change was stored
    args: dict[str, Any] = field(default_factory=dict)  # the refusal's words' arguments
    said: str | None = None  # the refusal already in words (a lobby's rule error)


def decide(row: TableRow, user_id: int, action: str, values: list[str], lang: str) -> Decided:
    """A press's ``action`` (and a select's ``values``) by ``user_id`` on a
    running table: seated? to move? the game's action, move, UI change or
    question? The move is applied to a state loaded from ``row`` (the row
    is not changed); nothing is stored. Whoever asks — a button press, the
    Activity — commits what it comes to."""
    seat = row.seat_of(user_id)
    if seat is None:
        return Decided(refusal="error.not_in_game")
    assert row.state is not None
    eng = registry.engine(row.game)
    state = eng.from_json(row.state)
    name = seat["name"]
    legal = eng.legal_moves(state, name)
    if not legal:
        return Decided(refusal="error.not_your_turn")
    the = plugin(row.game)
    mapped = the.action_move(action)  # a game's own action that plays a move
    confirmed = action.startswith(CONFIRMED)  # "yes" to the game's question
    if mapped is not None:
        move = mapped
    elif confirmed:
        move = action[len(CONFIRMED) :]
    elif action.startswith("m:"):
        move = action[2:]
    elif (action == "m" or action.startswith("m.")) and values:  # a select
        move = values[0]
    else:
        new_ui = the.ui_action(action, eng.view(state, name), name, row.ui)
        if new_ui is None:
            return Decided(refusal="error.unknown_action")
        return Decided(ui=new_ui, actor=name)
    question = None if confirmed else the.confirm(state, name, move, lang)
    if question is not None:
        return Decided(question=question, actor=name)
    try:
        events = eng.apply(state, name, move)
        # what follows a move in the same commit (Bluff: a Roll looks under the cup)
        events += the.after_apply(state, name, move, action)
    except RuleError as err:
        return Decided(error=err, actor=name)
    return Decided(state=state, events=events, actor=name, confirmed=confirmed)
