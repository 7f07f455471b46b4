"""The operators' endpoint (bot/ops.py): /healthz and /metrics on CHABUDAI_HTTP."""

from __future__ import annotations

import asyncio
import time
from types import SimpleNamespace
from typing import Any

import aiohttp
import pytest
from prometheus_client.parser import text_string_to_metric_families
from simtable import on_both_databases, taken

from bot.events import Bus
from bot.ops import ENV, parse_address
from games.core import SeededSource

DICE = SeededSource("bot-ops-tests").roll(200)


def samples(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of an exposition: (name, sorted labels) → value."""
    return {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
    }


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
