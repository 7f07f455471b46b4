"""Leaderboards and statistics after several games, per server and globally."""

from __future__ import annotations

import re

import simcord
from simtable import open_table, play_out

from games.core import SeededSource

DICE = SeededSource("bot-board-tests").roll(2000)


async def _play_nine(env, harness, guild, channel, users):
    msg = await open_table(env, channel, users[0], users[1:], "nine")
    await play_out(env, harness, msg, users)
    assert "the game is over" in msg.content


def _board(text):
    """``[(name, value, games, wins)]`` from a leaderboard message."""
    return [
        (m[1], m[2], int(m[3]), int(m[4]))
        for m in re.finditer(r"^\d+\. (\S+) — (\S+) \((\d+) games, (\d+) wins\)$", text, re.M)
    ]


async def test_leaderboards_and_stats(harness):
    harness.dice = DICE
    harness.aux = [6, 2] * 10
    harness.vary = 41
    async with simcord.run(harness.bot()) as env:
        one = env.create_guild("one")
        two = env.create_guild("two")
        a_user, b_user, c_user = (env.create_user(n) for n in ("alice", "bob", "carol"))
        alice1, bob1 = one.add_member(a_user), one.add_member(b_user)
        alice2, carol2 = two.add_member(a_user), two.add_member(c_user)
        ch1 = one.create_text_channel("t")
        ch2 = two.create_text_channel("t")
        for _ in range(3):
            await _play_nine(env, harness, one, ch1, [alice1, bob1])
        for _ in range(2):
            await _play_nine(env, harness, two, ch2, [alice2, carol2])
        store = harness.bots[-1].tables.store
        results = await store.results(game="nine")
        assert len(results) == 5

        def expected(guild_id):
            points, wins, games = {}, {}, {}
            for r in results:
                if guild_id is not None and r["guild_id"] != guild_id:
                    continue
                winner = r["outcome"]["winner"]
                for uid, value in r["settlement"].items():
                    points[uid] = points.get(uid, 0) + value
                    games[uid] = games.get(uid, 0) + 1
                for u in (a_user, b_user, c_user):
                    if str(u.id) in r["settlement"] and u.name == winner:
                        wins[str(u.id)] = wins.get(str(u.id), 0) + 1
            return points, wins, games

        names = {str(u.id): u.name for u in (a_user, b_user, c_user)}
        for scope, guild, channel, user in (
            ("server", one, ch1, alice1),
            ("global", one, ch1, alice1),
            ("server", two, ch2, carol2),
        ):
            points, wins, games = expected(guild.id if scope == "server" else None)
            res = await user.slash(channel, "leaderboard", game="nine", scope=scope, by="points")
            board = _board(res.response.content)
            want = sorted(points, key=lambda u: (-points[u], -wins.get(u, 0), int(u)))
            assert [b[0] for b in board] == [names[u] for u in want]
            assert [int(b[1]) for b in board] == [points[u] for u in want]
            assert [b[2] for b in board] == [games[u] for u in want]
            assert [b[3] for b in board] == [wins.get(u, 0) for u in want]

            res = await user.slash(channel, "leaderboard", game="nine", scope=scope, by="wins")
            board = _board(res.response.content)
            assert sorted(int(b[1]) for b in board) == sorted(wins.get(u, 0) for u in games)

            res = await user.slash(channel, "leaderboard", game="nine", scope=scope, by="rating")
            board = _board(res.response.content)
            assert {b[0] for b in board} == {names[u] for u in games}
            ratings = [float(b[1]) for b in board]
            assert ratings == sorted(ratings, reverse=True)

        res = await bob1.slash(ch1, "leaderboard", game="yahtzee")
        assert "No finished games yet." in res.response.content

        points, wins, games = expected(None)
        uid = str(a_user.id)
        res = await bob1.slash(ch1, "stats", user=alice1)
        assert res.response.ephemeral
        line = next(ln for ln in res.response.content.splitlines() if ln.startswith("Nine:"))
        rate = round(100 * wins.get(uid, 0) / games[uid])
        assert (
            f"{games[uid]} games, {wins.get(uid, 0)} wins ({rate}%), {points[uid]:+} points" in line
        )
        assert "rating" in line
        res = await carol2.slash(ch2, "stats", scope="server")
        p2, w2, g2 = expected(two.id)
        assert f"{g2[str(c_user.id)]} games" in res.response.content
        res = await bob1.slash(ch1, "stats", game="yahtzee")
        assert "has not finished a game" in res.response.content
