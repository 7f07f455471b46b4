"""Building the bot: ``create_bot(store, …)`` for ``python -m bot``, the
tests and the sandbox alike. Wiring only: the table service, the lobby and
the presses on it, the followers of its commits (in their order), the
commands and the components."""

from __future__ import annotations

import hashlib
import json
import logging
import sqlite3
import time
from collections.abc import Callable
from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.activity import Activity, DiscordIdentity, Identity, Places, entry_point
from bot.commands.boards import Boards
from bot.commands.config import Config
from bot.commands.help import Help
from bot.commands.hint import Coach
from bot.commands.history import History
from bot.commands.rematch import Rematch
from bot.commands.review import Reviews
from bot.commands.rules import Rules
from bot.commands.tables import Tables
from bot.commands.tournament import Tournaments
from bot.deploy import Shards
from bot.followers.clock import Clocks, Sweeper
from bot.followers.cpu import DELAY, ComputerPlayers
from bot.followers.ping import Pings
from bot.followers.private import Private
from bot.followers.screen import Screen
from bot.followers.tournament import Desk, TournamentButton, TournamentSweep
from bot.host import ResultHandler
from bot.i18n import remember_commands, t
from bot.i18n.translator import Translator
from bot.lobby import Lobby
from bot.ops import Operations
from bot.presses import Presses
from bot.storage import Store
from bot.tables.service import TableService
from bot.ui.components import DYNAMIC_ITEMS, LaunchButton
from games.core import SeededSource, Source

log = logging.getLogger(__name__)

# when the slash commands are synced to Discord at start: when the command
# tree changed (its hash, stored per application, differs: the default),
# always (the sandbox: its simulated Discord starts empty), never, or "only":
# ``python -m bot sync`` — sync whatever the hash says, and run no game work
# (no turn clocks, no computer players, no /healthz)
SyncMode = Literal["changed", "always", "never", "only"]
COMMANDS_KEY = "commands.{application}"  # the store's meta key of the tree's hash


class ChabudaiBot(commands.Bot):
    """The bot: a store, the table service (``tables``), the lobby
    (``lobby``) and the presses (``presses``) on it, its followers, the
    commands and the components (a :class:`bot.host.Host`)."""

    def __init__(
        self, tables: TableService, *, sync_commands: SyncMode | bool = "changed", **options: Any
    ) -> None:
        intents = discord.Intents.none()
        intents.guilds = True
        # No message cache: tables are edited by id and the database holds the
        # truth, so cached messages would only cost memory per live table.
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            max_messages=None,
            **options,  # shard_ids and shard_count for a ShardedChabudaiBot
        )
        self.tables = tables
        self.lobby = Lobby(tables)
        self.presses = Presses(tables, self.lobby)
        if isinstance(sync_commands, bool):
            sync_commands = "changed" if sync_commands else "never"
        self.sync_commands: SyncMode = sync_commands
        self.synced: bool | None = None  # whether this start synced the commands
        # the result message's buttons: action → handler (bot.ui.controls.RESULT_ACTIONS)
        self.result_actions: dict[str, ResultHandler] = {}
        # the pause before a computer's move: seconds, or a (low, high) range
        self.cpu_delay: float | tuple[float, float] = DELAY
        store = tables.store
        self.screen = Screen(self, tables)
        self.private = Private(self, store, tables.ephemerals)
        self.pings = Pings(self, tables)
        self.sweeper = Sweeper(self, tables, self.screen)
        self.computers = ComputerPlayers(self)
        self.sweeper.overdue = self.computers.kick  # a computer's turn left unplayed
        self.tournaments = Desk(self, tables)  # tournaments: their matches are tables
        self.ops = Operations(self)  # /healthz and /metrics (CHABUDAI_HTTP)
        self.presses.around_press = self.ops.around_press  # presses timed and counted
        # the order of what follows a commit: the presser's answer and the
        # DMs first, then "Done", pings, the clock and the computers
        bus = tables.bus
        bus.subscribe(self.screen.on_commit, name="screen")
        bus.subscribe(self.private.on_commit, name="private")
        bus.subscribe(self.screen.acknowledge, name="acknowledge")
        bus.subscribe(self.pings.on_commit, name="ping")
        bus.subscribe(self.sweeper.on_commit, name="clock")
        bus.subscribe(self.computers.on_commit, name="cpu")
        bus.subscribe(self.tournaments.on_commit, name="tournament")  # a match ended
        bus.subscribe(self.ops.on_commit, name="ops")  # last: counts what was committed
        bus.on_failure = self.ops.follower_failed
        self.activity_hub: Activity | None = None  # CHABUDAI_ACTIVITY (enable_activity)
        # one error handler for every slash command: an answer on any error
        self.tree.on_error = self.on_command_failed  # type: ignore[method-assign]

    def enable_activity(self, identity: Identity, *, client_id: str) -> Activity:
        """Serve the Activity (``docs/activity.md``) beside ``/healthz``: its
        hub follows every commit (first), the table message gets its "Open
        the Activity" button, and its routes go on the operators' server."""
        hub = Activity(self, identity, client_id=client_id)
        if isinstance(identity, DiscordIdentity):  # the channel is Discord's word
            hub.places = Places(self.activity_instance)
        hub.attach()
        self.activity_hub = hub
        self.screen.launch = True
        self.ops.also_serve(hub.routes)
        return hub

    async def activity_instance(self, instance: str) -> dict[str, Any] | None:
        """An Activity instance of this app as Discord describes it (its
        location and users), with the bot's token."""
        route = discord.http.Route(
            "GET", "/applications/{application_id}/activity-instances/{instance_id}",
            application_id=self.application_id, instance_id=instance,
        )  # fmt: skip
        try:
            found = await self.http.request(route)
        except discord.NotFound:
            return None
        return found if isinstance(found, dict) else None

    async def setup_hook(self) -> None:
        store = self.tables.store
        if not store.is_open:
            await store.open()
        self.add_dynamic_items(*DYNAMIC_ITEMS, TournamentButton, LaunchButton)
        await self.add_cog(Tables(self))
        await self.add_cog(Boards(self))  # /leaderboard, /stats
        await self.add_cog(Rules(self))
        await self.add_cog(Config(self))
        if self.sync_commands != "only":  # python -m bot sync plays no game
            await self.add_cog(Clocks(self, self.sweeper))  # the turn-clock sweeper
            await self.add_cog(self.computers)  # computer players' moves
        await self.add_cog(Coach(self))  # /hint
        await self.add_cog(History(self))  # result buttons, /history
        await self.add_cog(Reviews(self))  # the Review button, /review
        await self.add_cog(Rematch(self))  # the result's Rematch button
        await self.add_cog(Tournaments(self))  # /tournament
        if self.sync_commands != "only":
            await self.add_cog(TournamentSweep(self.tournaments))  # start times, repairs
        await self.add_cog(Help(self))  # /help
        await self.tree.set_translator(Translator())
        if self.sync_commands != "never":
            self.synced = await self.sync_tree(force=self.sync_commands in ("always", "only"))
        if self.sync_commands == "only":
            return
        live = await store.tables.live_tables()
        log.info("ready to serve %d live table(s)", len(live))
        if self.activity_hub is not None:
            await self.activity_hub.start()  # other processes' commits (PostgreSQL)
        await self.ops.start()

    async def commands_payload(self) -> list[dict[str, Any]]:
        """The global commands as Discord receives them: every command's
        translated payload, in order, and the Activity's Entry Point
        command where the bot serves the Activity (Discord refuses a bulk
        update that leaves it out once the app has an Activity)."""
        tree = self.tree
        translator = tree.translator
        payload = [
            await c.get_translated_payload(tree, translator) if translator else c.to_dict(tree)
            for c in tree.get_commands()
        ]
        if self.activity_hub is not None:
            payload.append(entry_point())
        return payload

    async def commands_hash(self) -> str:
        """A hash of the global command tree as Discord would receive it
        (:meth:`commands_payload`)."""
        payload = await self.commands_payload()
        text = json.dumps(payload, sort_keys=True, separators=(",", ":"), default=str)
        return hashlib.sha256(text.encode()).hexdigest()

    async def sync_tree(self, *, force: bool = False) -> bool:
        """Sync the slash commands to Discord if the tree changed since the
        last sync of this application (the hash in the store's meta table)
        or ``force``; whether it synced. Several processes starting at once
        may each sync: the same commands, harmless."""
        digest = await self.commands_hash()
        key = COMMANDS_KEY.format(application=self.application_id)
        store = self.tables.store
        if not force and await store.db.get_meta(key) == digest:
            log.info("slash commands unchanged (%s): not synced", digest[:12])
            try:  # their ids, for clickable mentions in replies (bot.i18n.command)
                remember_commands(await self.tree.fetch_commands())
            except discord.HTTPException:
                log.info("slash commands' ids not fetched: replies name them as text")
            return False
        if self.activity_hub is None:
            synced = await self.tree.sync()
        else:  # discord.py 2.7 has no Entry Point commands: the same bulk update, with it
            assert self.application_id is not None
            data = await self.http.bulk_upsert_global_commands(
                self.application_id, payload=await self.commands_payload()
            )
            synced = [app_commands.AppCommand(data=d, state=self._connection) for d in data]
        remember_commands(synced)
        await store.db.set_meta(key, digest)
        log.info("slash commands synced: %d (%s)", len(synced), digest[:12])
        return True

    def presses_for(self, interaction: discord.Interaction[Any]) -> Presses:
        """What answers a press: this process's presses (on its table
        service). One per process: each process gets the interactions of its
        own shards from Discord (and DMs on shard 0) and shares the database
        with the others. The test of several processes in one simulated
        Discord routes them itself."""
        return self.presses

    async def on_result_action(
        self, interaction: discord.Interaction[Any], result_id: int, action: str, arg: str
    ) -> None:
        """A press of a button under a result message (``cr:`` custom id)."""
        handler = self.result_actions.get(action)
        if handler is None:  # a button of a feature this version does not have
            await self.tables.reply(interaction, "error.unknown_action")
            return
        await handler(interaction, result_id, arg)

    async def on_app_command_completion(
        self, interaction: discord.Interaction[Any], command: Any
    ) -> None:
        """After a slash command: what its user is owed (a table they could
        not be told about in a DM)."""
        await self.tables.tell_owed(interaction)

    async def on_command_failed(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        """Every slash command answers something clear, whatever went wrong
        (the command tree's ``on_error``): a database that cannot be written
        or read — "cannot save games right now; nothing was changed" (the
        writes are single statements or transactions: nothing is
        half-written) — or anything else, logged with its traceback."""
        original = error.original if isinstance(error, app_commands.CommandInvokeError) else error
        command = interaction.command
        name = "/" + (command.qualified_name if command is not None else "?")
        if isinstance(error, app_commands.CommandNotFound):  # a command this version lacks
            log.warning("/%s: no such command here (the commands are not synced yet?)",
                        error.name)  # fmt: skip
            await self._answer_failure(interaction, name, "error.command_failed")
            return
        await self.on_failure(interaction, name, original)

    async def on_press_failed(
        self, interaction: discord.Interaction[Any], what: str, error: BaseException
    ) -> None:
        """A button or a select whose handler raised (``bot.ui.components``
        runs every press through this): the presser is answered as a slash
        command is, never "This interaction failed"."""
        await self.on_failure(interaction, what, error)

    async def on_failure(
        self, interaction: discord.Interaction[Any], what: str, original: BaseException
    ) -> None:
        """Log what failed and answer the user in their language."""
        name = what
        if isinstance(original, sqlite3.Error):
            log.warning("%s: the database could not be used (%s)", name, original)
            key = "error.db_unavailable"
        elif isinstance(original, discord.HTTPException):  # Discord refused a call (10062, 5xx)
            log.warning("%s: Discord refused a request (%s/%s)", name, original.status,
                        original.code)  # fmt: skip
            key = "error.command_failed"
        else:
            log.error("%s failed", name, exc_info=original)
            key = "error.command_failed"
        await self._answer_failure(interaction, name, key)

    async def _answer_failure(self, interaction: discord.Interaction[Any], name: str, key: str) -> None:
        text = t(key, interaction.locale)
        try:
            if interaction.response.is_done():
                await interaction.followup.send(text, ephemeral=True)
            else:
                await interaction.response.send_message(text, ephemeral=True)
        except discord.HTTPException as err:
            log.warning("%s: the error could not be answered (%s/%s)", name, err.status, err.code)

    async def close(self) -> None:
        try:
            await super().close()
        finally:
            await self.ops.stop()
            if self.activity_hub is not None:
                await self.activity_hub.close()
            if self.tables.store.is_open:
                await self.tables.flush()  # what is on screen, for the next start
            await self.tables.store.close()


class ShardedChabudaiBot(ChabudaiBot, commands.AutoShardedBot):
    """The bot holding some of the shards (``CHABUDAI_SHARDS``): one gateway
    connection per shard, each server's events on its shard."""


def create_bot(
    store: Store,
    *,
    clock: Callable[[], float] = time.time,
    seed_factory: Callable[[], str] | None = None,
    source_factory: Callable[[str], Source] = SeededSource,
    sync_commands: SyncMode | bool = "changed",
    shards: Shards | None = None,
    activity: tuple[str, str] | None = None,
) -> ChabudaiBot:
    """A ready-to-start bot around ``store`` (opened and migrated in ``setup_hook``).

    ``clock`` (unix seconds), ``seed_factory`` (a fresh secret seed per game)
    and ``source_factory`` (seed → dice source) are injected so tests and the
    sandbox can script time and dice. ``shards``: the shards this process
    holds (an auto-sharded bot); ``None``, one process for every server.
    ``sync_commands``: see :data:`SyncMode`. ``activity``: the
    application's OAuth2 client id and secret, to serve the Activity
    (``CHABUDAI_ACTIVITY``).
    """
    service = TableService(
        store, clock=clock, seed_factory=seed_factory, source_factory=source_factory
    )
    bot: ChabudaiBot
    if shards is None:
        bot = ChabudaiBot(service, sync_commands=sync_commands)
    else:
        bot = ShardedChabudaiBot(
            service,
            sync_commands=sync_commands,
            shard_ids=list(shards.ids),
            shard_count=shards.count,
        )
    if activity is not None:
        client_id, secret = activity
        bot.enable_activity(DiscordIdentity(client_id, secret), client_id=client_id)
    return bot
