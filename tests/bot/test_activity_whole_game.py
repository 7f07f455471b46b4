"""A whole Sixty-Six played from the Activity (docs/activity.md): a move
worth a second thought asked first (and "no" changes nothing), every move
through the sockets, the chat table following, and the result — its lines
and the links to the result message — on every socket at the end."""

from __future__ import annotations

from activitykit import activity_of
from simtable import says

from bot.model import message_link


async def test_a_whole_sixtysix_from_the_activity(game_night):
    async with game_night(seeded=True) as night:
        table = await night.table("sixtysix", players=2)
        async with activity_of(night) as act:
            socks = {
                night.alice.id: await act.open(night.alice, table.channel),
                night.bob.id: await act.open(night.bob, table.channel),
            }
            eve = await act.open(None, table.channel)
            first = await eve.table()
            seat = {p["name"]: int(p["id"]) for p in first["players"]}

            # Declare 66 before any trick: the question first, for the asker alone
            mover = socks[seat[first["turn"][0]]]
            frame = await mover.latest(first["version"])
            declare = next(m for m in frame["moves"] if m["move"] == "m:declare")
            await mover.move(frame, declare["move"])
            ask = await mover.next("ask")
            assert [m["move"] for m in ask["moves"]] == ["y:declare", "dismiss"]
            assert ask["text"] and ask["version"] == frame["version"]
            await mover.move(frame, "dismiss")  # "no": nothing changes
            assert await eve.quiet() == []
            row = await table.row()
            assert row is not None and row.version == frame["version"]

            end = None
            for _ in range(400):
                frame = await eve.latest()
                if frame["phase"] != "playing":
                    end = frame
                    break
                if not frame["turn"]:
                    await act.settle()
                    continue
                sock = socks[seat[frame["turn"][0]]]
                mine = await sock.latest(frame["version"])
                moves = [m["move"] for m in mine["moves"]]
                enough = (mine["view"].get("points") or 0) >= 66
                move = "m:declare" if enough and "m:declare" in moves else None
                move = move or next((m for m in moves if m.startswith("m:play")), None)
                move = move or next(m for m in moves if m not in ("m:declare", "m:close"))
                await sock.move(mine, move)
                await eve.latest(frame["version"] + 1)
                await act.settle()
            assert end is not None and end["phase"] == "finished"
            assert end["result"] and end["finished"]
            results = await night.store.results.all(game="sixtysix")
            assert len(results) == 1
            result = await night.store.results.get_result(results[0]["id"])
            winner = next(p for p in result["players"] if p["won"])
            assert says(end["result"][0], "activity.place_won", rank="1", player=winner["name"])
            url = message_link(night.guild.id, table.channel.id, table.message.id)
            assert end["links"] == {"review": url, "replay": url}
            for sock in socks.values():
                last = await sock.latest(end["version"])
                assert last["phase"] == "finished" and last["moves"] == []
            # the chat table shows the same result
            assert table.shows("result.title", game="Sixty-Six")
