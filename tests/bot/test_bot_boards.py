"""Leaderboards and statistics after several games, per server and globally."""

from __future__ import annotations

import pytest
from simtable import readings, says

from bot.i18n import t
from games.core import SeededSource

DICE = SeededSource("bot-board-tests").roll(2000)


async def test_leaderboards_and_stats(game_night):
    async with game_night(dice=DICE, aux=[6, 2] * 10, vary=41) as night:
        two = night.server("two")  # alice plays on both servers
        for server, players, games in ((night, ["alice", "bob"], 3), (two, ["alice", "carol"], 2)):
            for _ in range(games):
                table = await server.table("nine", players=[server.member(p) for p in players])
                await table.play_to_the_end()
                assert table.shows("result.title", game="Nine")
        alice, bob, carol = night.alice, night.bob, two.carol
        results = await night.store.results(game="nine")
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
                for u in (alice, bob, carol):
                    if str(u.id) in r["settlement"] and u.name == winner:
                        wins[str(u.id)] = wins.get(str(u.id), 0) + 1
            return points, wins, games

        names = {str(u.id): u.name for u in (alice, bob, carol)}
        for scope, server, user in (
            ("server", night, night.alice),
            ("global", night, night.alice),
            ("server", two, two.carol),
        ):
            points, wins, games = expected(server.guild.id if scope == "server" else None)
            res = await server.command(
                user, "leaderboard", game="nine", scope="all", where=scope, by="points"
            )
            board = readings(res.response.content, "board.line")
            want = sorted(points, key=lambda u: (-points[u], -wins.get(u, 0), int(u)))
            assert [b["name"] for b in board] == [names[u] for u in want]
            assert [int(b["value"]) for b in board] == [points[u] for u in want]
            assert [b["games"] for b in board] == [t("unit.game", count=games[u]) for u in want]
            assert [b["wins"] for b in board] == [t("unit.win", count=wins.get(u, 0)) for u in want]

            res = await server.command(
                user, "leaderboard", game="nine", scope="all", where=scope, by="wins"
            )
            board = readings(res.response.content, "board.line")
            assert sorted(int(b["value"]) for b in board) == sorted(wins.get(u, 0) for u in games)

            res = await server.command(
                user, "leaderboard", game="nine", scope="all", where=scope, by="rating"
            )
            board = readings(res.response.content, "board.line")
            assert {b["name"] for b in board} == {names[u] for u in games}
            ratings = [float(b["value"]) for b in board]
            assert ratings == sorted(ratings, reverse=True)

        res = await night.command(night.bob, "leaderboard", game="yahtzee")
        assert says(res.response.content, "board.empty")

        points, wins, games = expected(None)
        uid = str(alice.id)
        res = await night.command(night.bob, "stats", user=night.alice)
        assert res.response.ephemeral
        lines = res.response.content.splitlines()
        line = next(ln for ln in lines if says(ln, "stats.line", game="Nine"))
        rate = round(100 * wins.get(uid, 0) / games[uid])
        won = wins.get(uid, 0)
        assert says(
            line,
            "stats.line",
            games=t("unit.game", count=games[uid]),
            wins=t("unit.win", count=won),
            rate=rate,
            points=t("stats.points", count=abs(points[uid]), signed=f"{points[uid]:+}"),
        )
        assert says(line, "stats.rating")
        # the card says the same in its alt text
        [card] = res.response.attachments
        assert says(card.description, "pic.stats.alt_totals", games=games[uid], wins=won, rate=rate)
        assert says(card.description, "pic.stats.alt_favourite", game="Nine")
        # the trend: her all-time rating after each of her rated games
        mu, sigma = (await night.store.ratings("nine", [alice.id]))[alice.id]
        trend = await night.store.rating_trend(alice.id, "nine")
        assert len(trend) == games[uid] and trend[-1] == pytest.approx(mu - 3 * sigma)
        shown = f"{mu - 3 * sigma:.1f}"
        assert says(card.description, "pic.stats.alt_rating", rating=shown, n=games[uid])
        res = await two.command(two.carol, "stats", where="server")
        p2, w2, g2 = expected(two.guild.id)
        assert says(
            res.response.content, "stats.line", games=t("unit.game", count=g2[str(carol.id)])
        )
        res = await night.command(night.bob, "stats", game="yahtzee")
        assert says(res.response.content, "stats.empty")
