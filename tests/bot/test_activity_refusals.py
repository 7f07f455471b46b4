"""Forged and replayed Activity moves are refused as forged custom ids are
(docs/activity.md "Security model"): a wrong table, another channel's
table, a stale version (a replayed frame), not your turn, not your seat,
an unknown move, a malformed frame — each answered with the translated
error, and nothing changed."""

from __future__ import annotations

from activitykit import activity_of

from bot.activity import Places
from bot.i18n import catalogue


async def _unchanged(table, version: int, moves: list[str]) -> None:
    row = await table.row()
    assert row is not None and row.version == version
    assert list(row.state["history"]["moves"]) == moves


async def test_forged_and_replayed_moves_are_refused(game_night):
    async with game_night(seeded=True, locales={"bob": "ja"}) as night:
        table = await night.table("sixdice", players=2)
        elsewhere = await night.table("sixdice", players=[night.carol, night.dave])
        async with activity_of(night) as act:
            mover = table.mover
            waiting = night.bob if mover == night.alice else night.alice
            m = await act.open(mover, table.channel)
            w = await act.open(waiting, table.channel)
            eve = await act.open(night.eve, table.channel)  # proven, but no seat
            frame = await m.table()
            version, moves = frame["version"], await table.moves()
            other = await (await act.open(night.carol, elsewhere.channel)).table()

            async def refused(sock, key: str, frame_: dict, move: str, **changes) -> None:
                await sock.move(frame_, move, **changes)
                error = await sock.next("error")
                lang = "ja" if sock.user == night.bob else "en"
                assert error["key"] == key, error
                assert error["text"] == catalogue(lang)[key], error
                await _unchanged(table, version, moves)

            await refused(
                m, "error.no_table", frame, "m:roll", table=other["table"]
            )  # another channel's
            await refused(m, "error.no_table", frame, "m:roll", table=10**30)
            await refused(m, "error.no_table", frame, "m:roll", table=2**63)
            await refused(m, "error.stale", frame, "m:roll", version=version - 1)
            await refused(m, "error.stale", frame, "m:roll", version=version + 1)
            await refused(w, "error.not_your_turn", frame, "m:roll")
            await refused(eve, "error.not_in_game", frame, "m:roll")
            await refused(m, "error.unknown_action", frame, "k:9")
            await refused(m, "error.unknown_action", frame, "show")
            await m.move(frame, "m:stop")  # a move the rules refuse now: the rule's own words
            error = await m.next("error")
            assert error["key"] != "error.unknown_action" and error["text"]
            await _unchanged(table, version, moves)
            for bad in ({"op": "move", "table": "1", "version": 0, "move": "m:roll"},
                        {"op": "move", "table": True, "version": 0, "move": "m:roll"},
                        {"op": "move", "table": frame["table"], "version": version, "move": ""},
                        {"op": "move", "table": frame["table"], "version": version,
                         "move": "m:" + "x" * 200},
                        {"op": "fly"}, ["hello"]):  # fmt: skip
                await m.send(bad)
                error = await m.next("error")
                assert error["key"] == "activity.error.bad_frame", (bad, error)
            await m.ws.send_str("{not json")
            assert (await m.next("error"))["key"] == "activity.error.bad_frame"
            await _unchanged(table, version, moves)

            # the real move goes through; replaying its frame afterwards is stale
            await m.move(frame, "m:roll")
            after = await m.latest(version + 1)
            assert after["version"] > version
            await m.move(frame, "m:roll")
            assert (await m.next("error"))["key"] == "error.stale"
            assert len(await table.moves()) == len(moves) + 1


async def test_a_hello_without_a_channel_is_told(game_night):
    async with game_night(seeded=True) as night:
        await night.table("nine", players=2)
        async with activity_of(night) as act:
            ws = await act.client.ws_connect("/activity/api/ws")
            await ws.send_json({"op": "hello", "token": None, "channel": "general", "since": None})
            welcome = await ws.receive_json(timeout=5)
            assert welcome["op"] == "welcome" and welcome["user"] is None
            error = await ws.receive_json(timeout=5)
            assert error == {
                "op": "error",
                "key": "activity.error.no_channel",
                "text": catalogue("en")["activity.error.no_channel"],
            }
            await ws.close()


async def test_the_token_endpoint_refuses_a_forged_code(game_night):
    async with game_night(seeded=True) as night:
        night.member("alice")
        async with activity_of(night) as act:
            good = act.identity.mint(night.alice.id)
            user_id, _, mac = good.partition(".")
            for code in (f"{night.bob.id}.{mac}", f"{user_id}.{'0' * len(mac)}", "x", ""):
                res = await act.client.post("/activity/api/token", json={"code": code})
                assert res.status in (400, 401), code
            res = await act.client.post("/activity/api/token", data="nonsense")
            assert res.status == 400
            res = await act.client.get("/activity/api/config")
            assert await res.json() == {"client_id": "sandbox"}


async def test_the_channel_is_discords_word_where_it_can_say(game_night):
    """With Discord's identity the hub asks Discord where an Activity
    instance runs: a socket claiming another channel, or a user not in the
    instance, is refused (and sees nothing); the instance's own users in
    its channel are served. Discord is faked here (SimCord has no Activity
    instances): what it answers is the bot's ``activity_instance``."""
    async with game_night(seeded=True) as night:
        table = await night.table("nine", players=2)
        elsewhere = await night.table("nine", players=[night.carol, night.dave])
        async with activity_of(night) as act:
            asked: list[str] = []
            now = [0.0]
            users = {night.alice.id}

            async def instance(instance_id: str):
                asked.append(instance_id)
                if instance_id != "i-1":
                    return None
                return {"instance_id": "i-1", "location": {"channel_id": str(table.channel.id)},
                        "users": [str(u) for u in sorted(users)]}  # fmt: skip

            act.hub.places = Places(instance, clock=lambda: now[0])

            async def hello(user, channel, instance_id):
                ws = await act.client.ws_connect("/activity/api/ws")
                token = None if user is None else await act.token(user)
                await ws.send_json({"op": "hello", "token": token, "channel": str(channel.id),
                                    "instance": instance_id, "since": None})  # fmt: skip
                frames = [await ws.receive_json(timeout=5), await ws.receive_json(timeout=5)]
                await ws.close()
                return frames[1]

            assert (await hello(night.alice, table.channel, "i-1"))["op"] == "table"
            refused = await hello(night.alice, elsewhere.channel, "i-1")  # another channel
            assert refused["key"] == "activity.error.not_here"
            assert refused["text"] == catalogue("en")["activity.error.not_here"]
            assert (await hello(night.bob, table.channel, "i-1"))[
                "key"
            ] == "activity.error.not_here"
            assert (await hello(night.alice, table.channel, "i-2"))[
                "key"
            ] == "activity.error.not_here"
            assert (await hello(night.alice, table.channel, None))[
                "key"
            ] == "activity.error.not_here"
            assert (await hello(None, table.channel, "i-1"))["op"] == "table"  # public, its channel
            assert (await hello(None, elsewhere.channel, "i-1"))["key"] == "activity.error.not_here"
            assert act.hub.sockets(elsewhere.channel.id) == []
            # bob joins the instance: asked again (he was not among the kept users)
            users.add(night.bob.id)
            assert (await hello(night.bob, table.channel, "i-1"))["op"] == "table"
            n = len(asked)
            assert (await hello(night.alice, table.channel, "i-1"))["op"] == "table"
            assert len(asked) == n  # kept a while
            now[0] += 61
            assert (await hello(night.alice, table.channel, "i-1"))["op"] == "table"
            assert len(asked) == n + 1
