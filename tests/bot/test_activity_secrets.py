"""Secrets in the Activity (docs/activity.md "Security model"): a player's
own Bluff dice and Sixty-Six hand are in the frames of their own sockets,
and in no other socket's — every frame each socket was sent is read."""

from __future__ import annotations

from typing import Any

from activitykit import Sock, activity_of, strings
from simtable import accepted, says


def _by_version(sock: Sock) -> dict[int, dict[str, Any]]:
    return {f["version"]: f for f in sock.frames if f["op"] == "table"}


async def test_sixtysix_hands_only_on_their_own_sockets(game_night):
    async with game_night(seeded=True) as night:
        table = await night.table("sixtysix", players=2)
        alice, bob = night.alice, night.bob
        async with activity_of(night) as act:
            socks = {
                "alice": await act.open(alice, table.channel),
                "bob": await act.open(bob, table.channel),
                "eve": await act.open(None, table.channel),
            }
            also_alice = await act.open(alice, table.channel)  # a second window of hers
            seat = {p["display"]: p["name"] for p in (await socks["eve"].table())["players"]}
            hands: dict[int, dict[str, set[str]]] = {}  # version → seat → hand as stored
            # version → every card the stored state shows outside the hands and
            # the talon (the trump card, tricks, marriages shown): public
            shown: dict[int, set[str]] = {}
            for _ in range(14):  # both players play from the Activity (a deal and more)
                row = await table.row()
                assert row is not None and row.state is not None
                players = row.state["history"]["players"]
                hands[row.version] = {
                    p: set(h) for p, h in zip(players, row.state["hands"], strict=True)
                }
                outside = {
                    k: v for k, v in row.state.items() if k not in ("hands", "talon", "source")
                }
                shown[row.version] = set(strings(outside))
                movers = []
                for n in ("alice", "bob"):
                    latest = await socks[n].latest(row.version)
                    if latest["moves"] and seat[n] in latest["turn"]:
                        movers.append(n)
                if not movers:
                    await night.settle()
                    continue
                who = movers[0]
                frame = await socks[who].latest(row.version)
                plays = [m for m in frame["moves"] if m["move"].startswith("m:play ")]
                move = (plays or frame["moves"])[0]
                await socks[who].move(frame, move["move"])
                await socks["eve"].latest(row.version + 1)
            row = await table.row()
            assert row is not None
            await socks["eve"].latest(row.version)
            checked = 0
            for name, sock in [*socks.items(), ("alice", also_alice)]:
                mine = seat.get(name)
                for version, frame in _by_version(sock).items():
                    if version not in hands:
                        continue
                    words = set(strings(frame))
                    for owner, hand in hands[version].items():
                        secret = hand - shown[version]  # a marriage shows a card from the hand
                        if owner == mine:
                            assert secret <= words, (name, version)  # their own hand is there
                        else:
                            assert not secret & words, (name, version, secret & words)
                            checked += 1
            assert checked >= 30


async def test_bluff_dice_only_on_the_lookers_sockets(game_night):
    async with game_night(seeded=True) as night:
        table = await night.table("bluff", players=2)
        async with activity_of(night) as act:
            mover = table.mover
            other = night.bob if mover == night.alice else night.alice
            m = await act.open(mover, table.channel)
            o = await act.open(other, table.channel)
            e = await act.open(None, table.channel)
            frame = await m.table()
            assert "m:roll" in [x["move"] for x in frame["moves"]]
            await m.move(frame, "m:roll")  # rolls and looks under the cup
            looked = await m.latest(frame["version"] + 1)
            row = await table.row()
            assert row is not None and row.state is not None
            cup = row.state["cup"]
            assert sorted(looked["view"]["cup_seen"]) == sorted(cup)  # the looker sees them
            value = "".join(str(d) for d in sorted(cup, reverse=True))
            assert any(says(line, "bluff.private.dice", value=value) for line in looked["private"])
            # the next player announces from chat, then looks too: their own dice only
            announce = [x for x in looked["moves"] if x["move"].startswith("m:announce")][-1]
            await m.move(looked, announce["move"])
            await o.latest(looked["version"] + 1)
            await act.settle()  # the table message follows the Activity's move
            accepted(await table.press("Roll", by=other))
            row = await table.row()
            assert row is not None and row.state is not None
            theirs = row.state["cup"]
            mine = await o.latest(row.version)
            assert sorted(mine["view"]["cup_seen"]) == sorted(theirs)
            for sock, allowed in ((m, [cup]), (o, [theirs]), (e, [])):
                await sock.latest(row.version)
                for f in sock.frames:
                    if f["op"] != "table":
                        continue
                    seen = f["view"].get("cup_seen")
                    if seen is not None:
                        assert any(sorted(seen) == sorted(c) for c in allowed), (f["you"], seen)
                    if sock is e:
                        assert f["private"] == [] and f["you"] is None
            # the spectator never saw any dice under a cup; the roller's dice
            # never reached the other's socket
            assert all(f.get("view", {}).get("cup_seen") is None for f in e.frames)
            assert not any(
                says(line, "bluff.private.dice", value=value)
                for f in o.frames if f["op"] == "table" for line in f["private"]
            )  # fmt: skip
