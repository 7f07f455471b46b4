"""Slash commands synced to Discord only when the command tree changed (a
hash of its translated payloads, kept in the store's meta table per
application) or on ``python -m bot sync`` — not at every start."""

from __future__ import annotations

from typing import Any

import discord
import pytest
from simtable import on_both_databases

import bot.__main__ as cli
from bot.app import COMMANDS_KEY, create_bot
from bot.commands.rules import Rules
from bot.deploy import ENV
from bot.i18n import catalogue
from bot.storage import open_store
from games.core import SeededSource

DICE = SeededSource("bot-sync-tests").roll(200)


def syncs(night: Any) -> list[Any]:
    """The bot's PUTs of the global command list so far."""
    app = night.bot.application_id
    path = f"/applications/{app}/commands"
    return [r for r in night.env.http_requests if r.method == "PUT" and r.path == path]


async def start(night: Any, **options: Any) -> Any:
    """Stop the bot and start one built with ``options`` on the same database."""
    bot = create_bot(open_store(night.database), **options)
    night.harness.bots.append(bot)
    await night.env.restart_bot(bot)
    return bot


@on_both_databases
async def test_synced_when_the_tree_changed_not_at_every_start(game_night, monkeypatch):
    async with game_night(dice=DICE, aux=[6, 2]) as night:
        assert night.bot.synced is True and len(syncs(night)) == 1  # a new database
        digest = await night.bot.commands_hash()
        key = COMMANDS_KEY.format(application=night.bot.application_id)
        assert await night.store.db.get_meta(key) == digest

        await night.restart()  # the same commands
        assert night.bot.synced is False and len(syncs(night)) == 1
        assert await night.bot.commands_hash() == digest
        table = await night.table("nine")  # /play still answers: Discord kept them
        assert table.shows("table.turn", player=table.mover.mention)

        # a command's Japanese description edited: the payload Discord gets changes
        monkeypatch.setitem(catalogue("ja"), "cmd.play.desc", "卓を立てる（改訂）")
        await night.restart()
        assert night.bot.synced is True and len(syncs(night)) == 2
        sent = syncs(night)[-1].json
        play = next(c for c in sent if c["name"] == "play")
        assert play["description_localizations"]["ja"] == "卓を立てる（改訂）"
        assert await night.store.db.get_meta(key) == await night.bot.commands_hash() != digest

        await night.restart()  # and once synced, not again
        assert night.bot.synced is False and len(syncs(night)) == 2


async def test_a_new_command_syncs(game_night, monkeypatch):
    class RulesAndMore(Rules):  # a version of the bot with one more command
        @discord.app_commands.command(name="extra", description="one more")
        async def extra(self, interaction: discord.Interaction) -> None:
            await interaction.response.send_message("extra")

    async with game_night(dice=DICE, aux=[6, 2]) as night:
        assert len(syncs(night)) == 1
        monkeypatch.setattr("bot.app.Rules", RulesAndMore)
        await night.restart()
        assert night.bot.synced is True and len(syncs(night)) == 2
        assert "extra" in [c["name"] for c in syncs(night)[-1].json]


async def test_the_sync_command_syncs_and_plays_nothing(game_night, monkeypatch):
    monkeypatch.setenv(ENV, "127.0.0.1:0")
    async with game_night(dice=DICE, aux=[6, 2]) as night:
        await night.bot.ops.stop()
        assert len(syncs(night)) == 1
        # python -m bot sync: synced although nothing changed, and no game work
        bot = await start(night, sync_commands="only")
        assert bot.synced is True and len(syncs(night)) == 2
        assert bot.get_cog("Clocks") is None and bot.get_cog("ComputerPlayers") is None
        assert bot.ops.address is None  # no /healthz from a sync
        # the hash it stored is the full bot's: the next start does not sync
        await night.restart()
        assert night.bot.synced is False and len(syncs(night)) == 2
        assert night.bot.get_cog("Clocks") is not None
        await night.bot.ops.stop()

        # "always" (the sandbox: its simulated Discord starts empty) syncs every start
        await start(night, sync_commands="always")
        await start(night, sync_commands="always")
        assert len(syncs(night)) == 4
        # "never" (False) never does
        bot = await start(night, sync_commands=False)
        assert bot.synced is None and len(syncs(night)) == 4
        await bot.ops.stop()


def test_sync_needs_a_token(monkeypatch, tmp_path, capsys) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    assert cli.main(["sync"]) == 2
    assert "DISCORD_TOKEN is not set" in capsys.readouterr().err


def test_sync_logs_in_a_bot_that_only_syncs(monkeypatch, tmp_path, capsys) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DISCORD_TOKEN", "a-token")
    db = tmp_path / "db.sqlite3"
    seen: list[Any] = []

    async def fake_run_sync(bot: Any, token: str) -> None:
        seen.append((bot.sync_commands, token, str(bot.tables.store.db.path)))

    monkeypatch.setattr(cli, "run_sync", fake_run_sync)
    assert cli.main(["sync", "--db", str(db)]) == 0
    assert seen == [("only", "a-token", str(db))]
    assert "synced" in capsys.readouterr().out

    async def refused(bot: Any, token: str) -> None:
        raise discord.LoginFailure("Improper token has been passed.")

    monkeypatch.setattr(cli, "run_sync", refused)
    assert cli.main(["sync", "--db", str(db)]) == 1
    err = capsys.readouterr().err
    assert "refused the token" in err and "a-token" not in err


@on_both_databases
async def test_meta_values(new_database) -> None:
    store = open_store(await new_database())
    await store.open()
    try:
        assert await store.db.get_meta("commands.1") is None
        await store.db.set_meta("commands.1", "abc")
        await store.db.set_meta("commands.2", "xyz")
        await store.db.set_meta("commands.1", "def")  # the last write wins
        assert await store.db.get_meta("commands.1") == "def"
        assert await store.db.get_meta("commands.2") == "xyz"
    finally:
        await store.close()


@pytest.fixture(autouse=True)
def _restore_logging():
    """``python -m bot sync`` sets up the root logger: put pytest's back."""
    import logging

    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    yield
    root.handlers[:] = handlers
    root.setLevel(level)
