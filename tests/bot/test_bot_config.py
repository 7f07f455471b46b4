"""/config through Discord: Manage Server only, clear errors for invalid
values, settings stored and used after a restart."""

from __future__ import annotations

import discord
import pytest
import simcord
from simcord import SetupError
from simtable import buttons, open_table

from games import registry


def setup_guild(env):
    guild = env.create_guild()
    channel = guild.create_text_channel("games")
    admins = guild.create_role("admins", permissions=discord.Permissions(manage_guild=True))
    admin = guild.add_member(env.create_user("admin"), roles=[admins])
    player = guild.add_member(env.create_user("player"))
    return guild, channel, admin, player


def action_id(message, action):
    return next(cid for cid in buttons(message).values() if cid.endswith(":" + action))


async def config(user, channel, sub, **options):
    res = await user.slash(channel, f"config {sub}", **options)
    assert res.response is not None and res.response.ephemeral
    return res.response.content


async def test_config_is_for_manage_server_only(harness):
    async with simcord.run(harness.bot()) as env:
        guild, channel, admin, player = setup_guild(env)
        # Discord hides the command from members without Manage Server …
        with pytest.raises(SetupError):
            await player.slash(channel, "config show")
        # … and if a server lets them see it anyway, the bot still refuses
        commands = await harness.bots[-1].tree.fetch_commands()
        command = next(c for c in commands if c.name == "config")
        guild.set_command_permissions(command, {player: True})
        text = await config(player, channel, "clock", game="nine", seconds=60)
        assert "Manage Server" in text
        store = harness.bots[-1].tables.store
        assert await store.guild_setting(guild.id, "clock.nine") is None
        assert "Server settings" in await config(admin, channel, "show")


async def test_invalid_values_get_a_clear_error(harness):
    async with simcord.run(harness.bot()) as env:
        guild, channel, admin, _player = setup_guild(env)
        store = harness.bots[-1].tables.store
        text = await config(admin, channel, "clock", game="nine", seconds=5)
        assert "between 30 and 3600 seconds" in text
        text = await config(admin, channel, "options", game="sixdice", options="colour=red")
        assert "there is no house option “colour”" in text
        text = await config(admin, channel, "options", game="sixdice", options="target=lots")
        assert "option “target” cannot be “lots”" in text
        text = await config(admin, channel, "options", game="sixdice", options="target=")
        assert "cannot read “target=”" in text
        for key in ("clock.nine", "options.sixdice"):
            assert await store.guild_setting(guild.id, key) is None


async def test_settings_are_stored_used_and_survive_a_restart(harness):
    async with simcord.run(harness.bot()) as env:
        guild, channel, admin, player = setup_guild(env)
        assert "60 seconds" in await config(admin, channel, "clock", game="nine", seconds=60)
        text = await config(admin, channel, "options", game="sixdice", options="target=5000 strict")
        assert "no house option “strict”" in text  # a Sixty-Six option, not Six Dice
        text = await config(admin, channel, "options", game="sixdice", options="target=5000")
        assert "target=5000" in text
        assert "日本語" in await config(admin, channel, "language", value="ja")
        assert "yes" in await config(admin, channel, "bots_rated", value=True)
        await env.restart_bot(harness.bot())
        shown = await config(admin, channel, "show")
        assert "Language of table messages: 日本語" in shown
        assert "Nine: 60 s per move" in shown
        assert "Six Dice: 90 s per move; house options: target=5000" in shown
        assert "Sixty-Six: 120 s per move; house options: the rules' defaults" in shown
        assert "count for ratings: yes" in shown
        # a new table uses them: Japanese, target 5000, and the clock
        harness.aux = [1, 5]
        harness.dice = [2, 3, 4, 6, 6, 2] * 10
        msg = (await admin.slash(channel, "play", game="sixdice")).response
        assert "卓が開きました" in msg.content  # the lobby, in the server language
        await player.click(msg, custom_id=action_id(msg, "join"))
        await admin.click(msg, custom_id=action_id(msg, "start"))
        assert "（目標 5000）" in msg.content
        row = (await harness.bots[-1].tables.store.live_tables())[0]
        assert row.options["target"] == 5000
        assert row.deadline - row.updated_at == pytest.approx(registry.spec("sixdice").turn_seconds)
        # back to the defaults
        assert "defaults" in await config(
            admin, channel, "options", game="sixdice", options="default"
        )
        shown = await config(admin, channel, "show")
        assert "Six Dice: 90 s per move; house options: the rules' defaults" in shown
        await config(admin, channel, "language", value="auto")
        assert "automatic (now English)" in await config(admin, channel, "show")


async def test_turn_clock_setting_sets_the_deadline(harness):
    async with simcord.run(harness.bot()) as env:
        guild, channel, admin, player = setup_guild(env)
        await config(admin, channel, "clock", game="nine", seconds=45)
        harness.aux = [6, 2]
        harness.dice = [4, 5] * 20
        await open_table(env, channel, admin, [player], "nine")
        row = (await harness.bots[-1].tables.store.live_tables())[0]
        assert row.deadline - row.updated_at == pytest.approx(45)
