"""Opening the Activity and turning it on (docs/activity.md "Enable it",
"Config"): ``CHABUDAI_ACTIVITY`` read and refused, the routes beside
``/healthz``, the table message's "Open the Activity" button answered with
Discord's launch-activity response, the Entry Point command synced with
the others; none of it when the Activity is off."""

from __future__ import annotations

import functools

import aiohttp
import discord
import pytest
import simtable
from simtable import says

from bot.activity import DiscordIdentity, entry_point
from bot.app import create_bot
from bot.deploy import ACTIVITY_ENV, CLIENT_ID_ENV, CLIENT_SECRET_ENV, ENV, configured_activity
from bot.i18n import catalogue
from bot.storage import Store

CLIENT = ("1234567890", "the-client-secret")


def test_off_unless_asked(monkeypatch) -> None:
    monkeypatch.delenv(ACTIVITY_ENV, raising=False)
    assert configured_activity() is None
    monkeypatch.setenv(ACTIVITY_ENV, "0")
    assert configured_activity() is None


@pytest.mark.parametrize(
    ("env", "why"),
    [
        ({ACTIVITY_ENV: "maybe"}, "must be 1 or 0"),
        ({ACTIVITY_ENV: "1"}, f"needs {CLIENT_ID_ENV} and {CLIENT_SECRET_ENV}"),
        ({ACTIVITY_ENV: "1", CLIENT_ID_ENV: "12"}, f"needs {CLIENT_SECRET_ENV}"),
        ({ACTIVITY_ENV: "1", CLIENT_ID_ENV: "app", CLIENT_SECRET_ENV: "s"}, "digits"),
        ({ACTIVITY_ENV: "1", CLIENT_ID_ENV: "12", CLIENT_SECRET_ENV: "s"}, f"needs {ENV}"),
    ],
)
def test_refused_saying_what_is_missing(monkeypatch, env, why) -> None:
    for name in (ACTIVITY_ENV, CLIENT_ID_ENV, CLIENT_SECRET_ENV, ENV, "CHABUDAI_METRICS_PORT"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    with pytest.raises(ValueError, match=why):
        configured_activity()


def test_the_bot_refuses_to_start_without_the_secret(monkeypatch, tmp_path, capsys) -> None:
    from bot.__main__ import main

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DISCORD_TOKEN", "not-a-real-token")
    monkeypatch.setenv("CHABUDAI_DB", str(tmp_path / "db.sqlite3"))
    monkeypatch.setenv(ENV, "127.0.0.1:0")
    monkeypatch.setenv(ACTIVITY_ENV, "1")
    monkeypatch.setenv(CLIENT_ID_ENV, "1234")
    monkeypatch.delenv(CLIENT_SECRET_ENV, raising=False)
    assert main([]) == 2
    assert CLIENT_SECRET_ENV in capsys.readouterr().err
    assert not (tmp_path / "db.sqlite3").exists()


def test_the_bot_starts_with_it_when_asked(monkeypatch, tmp_path) -> None:
    from bot.__main__ import main

    monkeypatch.chdir(tmp_path)
    for name, value in (("DISCORD_TOKEN", "a-token"), ("CHABUDAI_DB", str(tmp_path / "d.sqlite3")),
                        (ENV, "127.0.0.1:0"), (ACTIVITY_ENV, "1"), (CLIENT_ID_ENV, CLIENT[0]),
                        (CLIENT_SECRET_ENV, CLIENT[1])):  # fmt: skip
        monkeypatch.setenv(name, value)
    built: list[dict] = []

    class Ran:
        def run(self, token: str, **kwargs) -> None:
            pass

    def fake_create_bot(store, **options):
        built.append(options)
        return Ran()

    monkeypatch.setattr("bot.app.create_bot", fake_create_bot)
    assert main([]) == 0
    assert built == [{"shards": None, "activity": CLIENT}]


def test_create_bot_serves_it_only_when_asked(tmp_path) -> None:
    assert create_bot(Store(tmp_path / "a.sqlite3")).activity_hub is None
    bot = create_bot(Store(tmp_path / "b.sqlite3"), activity=CLIENT)
    assert bot.activity_hub is not None and bot.screen.launch
    assert isinstance(bot.activity_hub.identity, DiscordIdentity)
    assert bot.activity_hub.client_id == CLIENT[0]
    assert bot.activity_hub.places is not None  # the channel is Discord's word
    assert bot.tables.bus.followers[0] == "activity"  # before the table message's edit


async def test_the_launch_button_and_the_entry_point(game_night, monkeypatch) -> None:
    monkeypatch.setenv(ENV, "127.0.0.1:0")
    # SimCord 3.2.1 implements no Entry Point command (its ``handler`` field:
    # 501): the night syncs nothing at start, and the sync is read below
    bot_of = functools.partial(create_bot, activity=CLIENT, sync_commands="never")
    monkeypatch.setattr(simtable, "create_bot", bot_of)
    launched: list[int] = []
    original = discord.InteractionResponse.launch_activity

    async def spy(self):  # the response discord.py sends (SimCord has no type 12)
        launched.append(self._parent.user.id)
        return await original(self)

    monkeypatch.setattr(discord.InteractionResponse, "launch_activity", spy)
    async with game_night(seeded=True, locales={"bob": "ja"}) as night:
        bot = night.bot
        # the Entry Point command goes with the others (Discord refuses a
        # bulk update without it once the app has an Activity)
        sent: list[list[dict]] = []

        async def bulk(application_id, *, payload):
            sent.append(payload)
            return [dict(c, id=str(900 + n), application_id=str(application_id), version="1")
                    for n, c in enumerate(payload)]  # fmt: skip

        await bot.tree.sync()  # SimCord's own commands (without the Entry Point)
        monkeypatch.setattr(bot.http, "bulk_upsert_global_commands", bulk)
        assert await bot.sync_tree(force=True)
        (payload,) = sent
        assert payload[-1] == entry_point() and payload[-1]["type"] == 4
        assert payload[-1]["handler"] == 2  # Discord launches the Activity itself
        assert sum(1 for c in payload if c["name"] == "launch") == 1
        assert [c["name"] for c in payload[:-1]] == [c.name for c in bot.tree.get_commands()]

        table = await night.table("nine", players=2)
        label = catalogue("en")["activity.launch"]
        assert label in table.buttons
        res = await table.press(label, by=night.bob)
        assert launched == [night.bob.id]
        # SimCord answers the launch response with 400 (it knows no type 12):
        # the presser is told, in their language, and nothing changed
        assert res.response is not None and res.response.ephemeral
        assert says(res.response.content, "activity.launch_failed", "ja")
        # the Activity's routes beside /healthz on the operators' server
        host, port = bot.ops.address
        async with aiohttp.ClientSession() as session:
            async with session.get(f"http://{host}:{port}/activity/api/config") as got:
                assert await got.json() == {"client_id": CLIENT[0]}
            async with session.get(f"http://{host}:{port}/healthz") as got:
                assert got.status == 200
        await bot.ops.stop()


async def test_no_button_when_the_activity_is_off(game_night) -> None:
    async with game_night(seeded=True) as night:
        table = await night.table("nine", players=2)
        assert catalogue("en")["activity.launch"] not in table.buttons
        assert all(not cid.startswith("ca:") for cid in table.custom_ids)
        assert all(c["name"] != "launch" for c in await night.bot.commands_payload())
