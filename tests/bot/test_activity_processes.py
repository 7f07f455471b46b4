"""Several processes on one PostgreSQL (docs/activity.md "Protocol"): an
Activity served by one bot sees the moves another bot commits — announced
with NOTIFY, loaded and pushed by the bot that holds the sockets — to the
game's result."""

from __future__ import annotations

from activitykit import Act, activity_of
from aiohttp.test_utils import TestClient, TestServer
from simtable import accepted, on_postgres

from bot.activity import SandboxIdentity, activity_app
from bot.app import create_bot
from bot.storage import open_store


@on_postgres
async def test_an_activity_on_one_process_sees_another_process_commit(game_night):
    async with game_night(seeded=True) as night:
        table = await night.table("nine", players=2)
        # a second bot process on the same database: no Discord of its own,
        # only its Activity (its own table service, store and notices)
        other = create_bot(open_store(night.database), clock=night.harness.clock)
        await other.tables.store.open()
        try:
            # both processes serve the Activity (CHABUDAI_ACTIVITY is the operator's, for all)
            async with activity_of(night) as here:
                await _watch(night, table, other, here)
        finally:
            await other.tables.store.close()


async def _watch(night, table, other, here) -> None:
    assert here.hub.listening and here.hub.announce  # this process announces its commits
    members = {m.id: (m.name, "en-US") for m in night.members.values()}
    identity = SandboxIdentity(members)
    async with TestClient(TestServer(activity_app(other, identity))) as client:
        act = Act(night, client, identity)
        a = await act.open(night.alice, table.channel)
        e = await act.open(None, table.channel)
        first = await a.table()
        assert act.hub.listening
        # committed by the night's bot (the chat), shown by the other
        accepted(await table.press("Roll", by=table.mover))
        rolled = await e.latest(first["version"] + 1)
        assert rolled["view"]["last_roll"] is not None
        # to the end: every commit reaches the other process's sockets
        await table.play_to_the_end()
        end = await e.next("table")
        while end["phase"] == "playing":
            end = await e.next("table")
        assert end["phase"] == "finished" and end["result"], end
        results = await night.store.results.all(game="nine")
        assert len(results) == 1
        result = await night.store.results.get_result(results[0]["id"])
        winners = [p for p in result["players"] if p["won"]]
        assert any(w["name"] in end["result"][0] for w in winners), end["result"]
        for sock in act.socks:
            await sock.close()
