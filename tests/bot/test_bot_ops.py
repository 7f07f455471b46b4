"""The operators' endpoint (bot/ops.py): /healthz and /metrics on CHABUDAI_HTTP."""

from __future__ import annotations

import asyncio
import io
import logging
import os
import socket
import time
from types import SimpleNamespace
from typing import Any

import aiohttp
import pytest
from prometheus_client.parser import text_string_to_metric_families
from simtable import on_both_databases, taken

import bot.__main__ as cli
from bot.__main__ import setup_logging
from bot.deploy import ENV, PORT_ENV, SHARDS_ENV, Shards, configured_address, parse_address
from bot.events import Bus
from bot.ops import PROCESS
from bot.turns import first_turn_seconds
from games import registry
from games.core import SeededSource

DICE = SeededSource("bot-ops-tests").roll(200)


def samples(text: str, shards: str = "all") -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of an exposition: (name, sorted labels) → value; every
    one must name this process and ``shards`` (labels left out here)."""
    out = {}
    for family in text_string_to_metric_families(text):
        for s in family.samples:
            labels = dict(s.labels)
            assert (labels.pop("process", None), labels.pop("shards", None)) == (PROCESS, shards), s
            out[(s.name, tuple(sorted(labels.items())))] = s.value
    return out


async def get(address: tuple[str, int], path: str) -> tuple[int, str, str]:
    async with aiohttp.ClientSession() as session:
        async with session.get(f"http://{address[0]}:{address[1]}{path}") as res:
            return res.status, res.headers.get("Content-Type", ""), await res.text()


@on_both_databases
async def test_healthz_and_metrics_count_what_was_played(game_night, monkeypatch):
    monkeypatch.setenv(ENV, "127.0.0.1:0")  # a free port
    monkeypatch.setattr("bot.ops.TICK", 0.005)  # sample the loop's lag often
    async with game_night(dice=DICE, aux=[6, 2]) as night:
        ops = night.bot.ops
        try:
            assert ops.address is not None
            assert await get(ops.address, "/healthz") == (200, "text/plain; charset=utf-8", "ok")

            table = await night.table("nine")  # /play, bob joins, alice starts
            not_yours = await table.press("Roll", by=night.bob)  # refused: no change
            assert not_yours.response.ephemeral
            assert taken(await table.press("Roll", by=night.alice))

            await asyncio.to_thread(time.sleep, 0.05)  # real time, for a few lag samples
            status, kind, text = await get(ops.address, "/metrics")
            assert status == 200 and kind.startswith("text/plain")
            got = samples(text)
            commits = {
                labels: value
                for (name, labels), value in got.items()
                if name == "chabudai_commits_total"
            }
            assert commits == {
                (("kind", "opened"), ("origin", "command")): 1.0,  # /play
                (("kind", "saved"), ("origin", "press")): 3.0,  # join, start, roll
            }
            assert got[("chabudai_presses_total", (("outcome", "committed"),))] == 3.0
            assert got[("chabudai_presses_total", (("outcome", "unchanged"),))] == 1.0
            assert got[("chabudai_press_seconds_count", ())] == 4.0
            assert got[("chabudai_tables", (("phase", "playing"),))] == 1.0
            assert got[("chabudai_tables", (("phase", "lobby"),))] == 0.0
            assert got[("chabudai_up", ())] == 1.0
            assert ("chabudai_follower_failures_total", ()) not in got  # none yet
            assert ("chabudai_repairs_total", ()) in got
            assert got[("chabudai_event_loop_lag_seconds_count", ())] >= 1
            assert ("process_resident_memory_bytes", ()) in got

            status, _, _ = await get(ops.address, "/nothing")
            assert status == 404

            await night.store.close()  # the database stops answering
            assert await get(ops.address, "/healthz") == (
                503,
                "text/plain; charset=utf-8",
                "database closed",
            )
        finally:
            await ops.stop()
        assert ops.address is None


async def test_off_unless_asked_for(game_night, monkeypatch):
    monkeypatch.delenv(ENV, raising=False)
    async with game_night(dice=DICE, aux=[6, 2]) as night:
        assert night.bot.ops.address is None
        assert "ops" == night.bot.tables.bus.followers[-1]  # subscribed last


def test_addresses() -> None:
    assert parse_address(":8080") == ("0.0.0.0", 8080)
    assert parse_address("127.0.0.1:9") == ("127.0.0.1", 9)
    assert parse_address("[::1]:80") == ("::1", 80)
    for bad in ("8080", "host:", "host:http", ":70000"):
        with pytest.raises(ValueError):
            parse_address(bad)


async def test_the_bus_reports_a_failed_follower(caplog) -> None:
    failed: list[str] = []
    bus = Bus(on_failure=failed.append)

    async def broken(change: Any) -> None:
        raise RuntimeError("boom")

    seen: list[Any] = []

    async def after(change: Any) -> None:
        seen.append(change)

    bus.subscribe(broken, name="broken")
    bus.subscribe(after, name="after")
    change: Any = SimpleNamespace(after=SimpleNamespace(id=7))
    await bus.publish(change)
    assert failed == ["broken"] and seen == [change]
    assert "the follower broken failed" in caplog.text
    caplog.clear()  # the failure was meant: keep the no-errors check quiet


@pytest.fixture
def root_logger():
    """The tests below set up the root logger as ``python -m bot`` does:
    put pytest's handlers back afterwards."""
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    yield root
    root.handlers[:] = handlers
    root.setLevel(level)


def test_log_lines_name_the_process_and_its_shards(root_logger) -> None:
    out = io.StringIO()
    setup_logging("sekrit-token", "0-3/8", stream=out)
    logging.getLogger("chabudai.test").info("logged in with %s", "sekrit-token")
    logging.getLogger("discord.shard").warning("shard 2 reconnecting")
    lines = out.getvalue().splitlines()
    assert len(lines) == 2
    assert lines[0].endswith(
        f" INFO pid={os.getpid()} shards=0-3/8 chabudai.test: logged in with [redacted]"
    )
    assert f" WARNING pid={os.getpid()} shards=0-3/8 discord.shard: " in lines[1]


def test_the_bot_logs_and_runs_with_the_shards_it_was_given(
    root_logger, monkeypatch, tmp_path, capsys
) -> None:
    monkeypatch.chdir(tmp_path)  # no .env of the developer's
    monkeypatch.setenv("DISCORD_TOKEN", "a-token")
    monkeypatch.setenv("CHABUDAI_DB", str(tmp_path / "db.sqlite3"))
    monkeypatch.setenv(SHARDS_ENV, "2-3/4")
    built: list[Any] = []

    class Ran:
        def run(self, token: str, **kwargs: Any) -> None:
            logging.getLogger("chabudai").info("running")

    def fake_create_bot(store: Any, **options: Any) -> Ran:
        built.append(options)
        return Ran()

    monkeypatch.setattr("bot.app.create_bot", fake_create_bot)
    assert cli.main([]) == 0
    assert built == [{"shards": Shards((2, 3), 4)}]
    err = capsys.readouterr().err
    assert f"pid={os.getpid()} shards=2-3/4 chabudai: shards: 2-3/4 (2 of 4)" in err
    assert f"pid={os.getpid()} shards=2-3/4 chabudai: running" in err

    monkeypatch.delenv(SHARDS_ENV)  # unset: every shard, as before
    built.clear()
    assert cli.main([]) == 0
    assert built == [{"shards": None}]
    assert f"pid={os.getpid()} shards=all chabudai: running" in capsys.readouterr().err


def test_the_port_setting_is_read_from_either_name(monkeypatch) -> None:
    monkeypatch.delenv(ENV, raising=False)
    monkeypatch.delenv(PORT_ENV, raising=False)
    assert configured_address() is None
    monkeypatch.setenv(PORT_ENV, "9100")
    assert configured_address() == ("0.0.0.0", 9100)
    monkeypatch.setenv(ENV, "127.0.0.1:8080")  # the host:port one wins
    assert configured_address() == ("127.0.0.1", 8080)
    monkeypatch.delenv(ENV)
    monkeypatch.setenv(PORT_ENV, "http")
    with pytest.raises(ValueError, match=PORT_ENV):
        configured_address()


async def test_the_healthcheck_command_asks_healthz(game_night, monkeypatch, capsys) -> None:
    monkeypatch.delenv(ENV, raising=False)
    monkeypatch.setenv(PORT_ENV, str(free_port()))  # the name the issue gives it
    async with game_night(dice=DICE, aux=[6, 2]) as night:
        ops = night.bot.ops
        try:
            assert ops.address is not None and ops.address[0] == "0.0.0.0"
            assert await asyncio.to_thread(cli.main, ["healthcheck"]) == 0
            assert "ok" in capsys.readouterr().out
            await night.store.close()  # unhealthy: 503 and why
            assert await asyncio.to_thread(cli.main, ["healthcheck"]) == 1
            assert "unhealthy (503): database closed" in capsys.readouterr().err
        finally:
            await ops.stop()
    assert await asyncio.to_thread(cli.main, ["healthcheck"]) == 1  # nobody listening
    assert "no answer from http://127.0.0.1:" in capsys.readouterr().err
    monkeypatch.delenv(PORT_ENV)
    assert cli.main(["healthcheck"]) == 1  # off: nothing to ask
    assert "/healthz is off" in capsys.readouterr().err


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def test_clock_fire_lag_is_measured(game_night) -> None:
    async with game_night(dice=DICE, aux=[6, 2]) as night:
        table = await night.table("nine")
        mover = table.mover
        seconds = first_turn_seconds(registry.spec("nine").turn_seconds)  # the first turn
        registry_ = night.bot.ops.registry
        assert registry_.get_sample_value("chabudai_clock_fire_lag_seconds_count") == 0
        await night.wait(seconds + 5)  # SimCord's clock: the sweeper fires the deadline
        assert table.shows("ev.timeout", player=mover.name, count=1, max=3)
        assert registry_.get_sample_value("chabudai_clock_fire_lag_seconds_count") == 1
        lag = registry_.get_sample_value("chabudai_clock_fire_lag_seconds_sum")
        assert 0 <= lag <= 1.5, lag  # the sweeper ticks every second


@on_both_databases
async def test_the_database_pool_is_measured_on_postgresql(game_night, backend, monkeypatch):
    monkeypatch.setenv(ENV, "127.0.0.1:0")
    async with game_night(dice=DICE, aux=[6, 2]) as night:
        ops = night.bot.ops
        try:
            _, _, text = await get(ops.address, "/metrics")
        finally:
            await ops.stop()
    pool = {
        labels[0][1]: value
        for (name, labels), value in samples(text).items()
        if name == "chabudai_db_pool_connections"
    }
    if backend == "sqlite":
        assert pool == {}  # one file, no pool
    else:
        assert set(pool) == {"in_use", "idle", "max"}
        assert pool["max"] >= 1 and 0 <= pool["in_use"] <= pool["max"]
        assert pool["in_use"] + pool["idle"] >= 1  # the pool keeps one at least
