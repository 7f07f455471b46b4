"""/config through Discord: Manage Server only, clear errors for invalid
values, settings stored and used after a restart."""

from __future__ import annotations

import pytest
from simcord import SetupError
from simtable import says, taken

from bot.i18n import t
from bot.turns import first_turn_seconds
from games import registry


async def test_config_is_for_manage_server_only(game_night):
    async with game_night(managers=["alice"]) as night:
        admin, player = night.alice, night.bob
        # Discord hides the command from members without Manage Server …
        with pytest.raises(SetupError):
            await night.command(player, "config show")
        # … and if a server lets them see it anyway, the bot still refuses
        command = next(c for c in await night.bot.tree.fetch_commands() if c.name == "config")
        night.guild.set_command_permissions(command, {player: True})
        text = await night.ask(player, "config clock", game="nine", seconds=60)
        assert says(text, "config.no_permission")
        assert await night.store.settings.guild_setting(night.guild.id, "clock.nine") is None
        assert says(await night.ask(admin, "config show"), "config.show.title")


async def test_invalid_values_get_a_clear_error(game_night):
    async with game_night(managers=["alice"]) as night:
        admin = night.alice
        text = await night.ask(admin, "config clock", game="nine", seconds=5)
        assert says(text, "config.bad_clock", value=5, min=30, max=3600)
        text = await night.ask(admin, "config options", game="sixdice", options="colour=red")
        assert says(text, "config.bad_options")
        assert says(text, "rule.option.unknown", option="colour")
        text = await night.ask(admin, "config options", game="sixdice", options="target=lots")
        assert says(text, "rule.option.bad_value", option="target", value="lots")
        text = await night.ask(admin, "config options", game="sixdice", options="target=")
        assert says(text, "rule.option.syntax", word="target=")
        for key in ("clock.nine", "options.sixdice"):
            assert await night.store.settings.guild_setting(night.guild.id, key) is None


async def test_settings_are_stored_used_and_survive_a_restart(game_night):
    async with game_night(managers=["alice"], dice=[2, 3, 4, 6, 6, 2] * 10, aux=[1, 5]) as night:
        admin = night.alice
        text = await night.ask(admin, "config clock", game="nine", seconds=60)
        assert says(text, "config.saved.clock", game="Nine", seconds=60)
        strict = "target=5000 strict"  # strict: a Sixty-Six option
        text = await night.ask(admin, "config options", game="sixdice", options=strict)
        assert says(text, "rule.option.unknown", option="strict")
        text = await night.ask(admin, "config options", game="sixdice", options="target=5000")
        assert says(text, "config.saved.options", game="Six Dice") and "target=5000" in text
        text = await night.ask(admin, "config language", value="ja")
        assert says(text, "config.saved.lang", lang=t("lang.ja"))
        text = await night.ask(admin, "config bots_rated", value=True)
        assert says(text, "config.saved.bots_rated", value=t("config.on"))
        await night.restart()
        shown = await night.ask(admin, "config show")
        assert says(shown, "config.show.lang", lang=t("lang.ja"))
        assert says(shown, "config.show.game", game="Nine", seconds=60)
        assert says(shown, "config.show.game", game="Six Dice", seconds=90, options="target=5000")
        defaults = t("config.defaults")
        assert says(shown, "config.show.game", game="Sixty-Six", seconds=120, options=defaults)
        assert says(shown, "config.show.bots_rated", value=t("config.on"))
        # a new table uses them: Japanese, target 5000, and the clock
        table = await night.table("sixdice", start=False)
        assert table.shows("lobby.title", "ja")  # the lobby, in the server language
        await table.press("Start", by=admin)
        assert table.shows("sixdice.status", "ja", target=5000)
        row = await table.row()
        assert row.options["target"] == 5000
        first = first_turn_seconds(registry.spec("sixdice").turn_seconds)  # the first turn's
        assert row.deadline - row.updated_at == pytest.approx(first)
        # back to the defaults
        text = await night.ask(admin, "config options", game="sixdice", options="default")
        assert says(text, "config.saved.options_reset", game="Six Dice")
        shown = await night.ask(admin, "config show")
        assert says(shown, "config.show.game", game="Six Dice", seconds=90, options=defaults)
        await night.ask(admin, "config language", value="auto")
        shown = await night.ask(admin, "config show")
        auto = t("config.lang_auto", lang=t("lang.en"))
        assert says(shown, "config.show.lang_auto", lang=auto)


async def test_turn_clock_setting_sets_the_deadline(game_night):
    async with game_night(managers=["alice"], dice=[4, 5] * 20, aux=[6, 2]) as night:
        await night.ask(night.alice, "config clock", game="nine", seconds=45)
        table = await night.table("nine")
        row = await table.row()
        assert row.deadline - row.updated_at == pytest.approx(first_turn_seconds(45))
        assert taken(await table.press("Roll", by=night.alice))  # her first move made
        row = await table.row()
        assert row.deadline - row.updated_at == pytest.approx(45)
