"""Leaderboards and statistics after several games, per server and globally:
one rating number everywhere (board, /stats, the card), never negative,
provisional ("1540?") until enough rated games; an empty board says why;
by wins draws one Wins column; the Japanese title is drawn whole."""

from __future__ import annotations

import io
import re

import pytest
from PIL import Image
from simtable import reading, readings, says

from bot import ratings
from bot.i18n import t
from bot.render import _base as b
from bot.render.stats import board_picture, title_lines
from games.core import SeededSource

DICE = SeededSource("bot-board-tests").roll(2000)
RATING = re.compile(r"\d+\??")  # a shown rating: digits, "?" while provisional


def number(value: str) -> int:
    found = re.search(r"[+-]?\d+", value)
    assert found, value
    return int(found.group())


def picture_of(night, message) -> Image.Image:
    [attachment] = message.attachments
    return Image.open(io.BytesIO(night.env.backend.cdn.get(attachment.url))).convert("RGB")


async def test_leaderboards_and_stats(game_night):
    async with game_night(dice=DICE, aux=[6, 2] * 10, vary=41) as night:
        two = night.server("two")  # alice plays on both servers
        for server, players, games in ((night, ["alice", "bob"], 3), (two, ["alice", "carol"], 2)):
            for _ in range(games):
                table = await server.table("nine", players=[server.member(p) for p in players])
                await table.play_to_the_end()
                assert table.shows("result.title", game="Nine")
        alice, bob, carol = night.alice, night.bob, two.carol
        results = await night.store.results.all(game="nine")
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
        stored = await night.store.boards.ratings("nine", [alice.id, bob.id, carol.id])
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
            # the points' number (in the game's unit: "+23 chips")
            assert [number(b["value"]) for b in board] == [points[u] for u in want]
            assert [b["games"] for b in board] == [t("unit.game", count=games[u]) for u in want]
            assert [b["wins"] for b in board] == [t("unit.win", count=wins.get(u, 0)) for u in want]

            # by wins: the wins said once a line (not "— 2 (3 games, 2 wins)")
            res = await server.command(
                user, "leaderboard", game="nine", scope="all", where=scope, by="wins"
            )
            assert not readings(res.response.content, "board.line")
            board = readings(res.response.content, "board.line_wins")
            assert sorted(b["wins"] for b in board) == sorted(
                t("unit.win", count=wins.get(u, 0)) for u in games
            )

            res = await server.command(
                user, "leaderboard", game="nine", scope="all", where=scope, by="rating"
            )
            board = readings(res.response.content, "board.line")
            assert {b["name"] for b in board} == {names[u] for u in games}
            # the display rating: 1500 + 30 × (mu − 3σ), "?" under ten rated games
            by_name = {names[str(uid)]: rating for uid, rating in stored.items()}
            for line in board:
                mu, sigma = by_name[line["name"]]
                assert RATING.fullmatch(line["value"]), line
                assert line["value"] == f"{ratings.display(mu - 3 * sigma)}?"
            shown = [int(b["value"].rstrip("?")) for b in board]
            assert shown == sorted(shown, reverse=True)
            assert says(res.response.content, "board.provisional", n=ratings.PROVISIONAL_GAMES)

        res = await night.command(night.bob, "leaderboard", game="yahtzee")
        assert says(res.response.content, "board.empty_season", game="Yahtzee")

        points, wins, games = expected(None)
        uid = str(alice.id)
        res = await night.command(night.bob, "stats", user=night.alice)
        assert res.response.ephemeral
        lines = res.response.content.splitlines()
        line = next(ln for ln in lines if says(ln, "stats.line", game="Nine"))
        rate = round(100 * wins.get(uid, 0) / games[uid])
        won = wins.get(uid, 0)
        said = reading(
            line,
            "stats.line",
            games=t("unit.game", count=games[uid]),
            wins=t("unit.win", count=won),
            rate=rate,
        )
        assert said is not None and number(said["points"]) == points[uid], line
        # the same number as the all-time board, on /stats and on the card
        mu, sigma = stored[alice.id]
        shown = f"{ratings.display(mu - 3 * sigma)}?"
        board = await night.command(night.bob, "leaderboard", game="nine", scope="all")
        on_board = {x["name"]: x["value"] for x in readings(board.response.content, "board.line")}
        assert on_board["alice"] == shown
        assert says(line, "stats.rating", rating=shown), line
        # the card says the same in its alt text
        [card] = res.response.attachments
        assert says(card.description, "pic.stats.alt_totals", games=games[uid], wins=won, rate=rate)
        assert says(card.description, "pic.stats.alt_favourite", game="Nine")
        # the trend: her all-time rating after each of her rated games
        trend = await night.store.boards.rating_trend(alice.id, "nine")
        assert len(trend) == games[uid] and trend[-1] == pytest.approx(mu - 3 * sigma)
        assert says(card.description, "pic.stats.alt_rating", rating=shown, n=games[uid])
        res = await two.command(two.carol, "stats", where="server")
        p2, w2, g2 = expected(two.guild.id)
        assert says(
            res.response.content, "stats.line", games=t("unit.game", count=g2[str(carol.id)])
        )
        res = await night.command(night.bob, "stats", game="yahtzee")
        assert says(res.response.content, "stats.empty_self")  # bob asks of himself


async def test_no_negative_rating_anywhere(game_night):
    """The loser of a first game has a negative ordinal (today "carol — -2.6",
    「山田 花子 — -0.0」): people read 1500-based numbers, the same on the
    board, /stats and the card, in both languages."""
    async with game_night(dice=DICE, aux=[6, 2] * 10, vary=41, locales={"carol": "ja"}) as night:
        table = await night.table("nine", players=[night.alice, night.carol])
        await table.play_to_the_end()
        stored = await night.store.boards.ratings("nine", [night.alice.id, night.carol.id])
        loser = min(stored, key=lambda uid: ratings.ordinal(*stored[uid]))
        assert ratings.ordinal(*stored[loser]) < 0  # the case that read "-2.6"
        want = {uid: ratings.shown(ratings.ordinal(*r), 1) for uid, r in stored.items()}
        for lang in ("en", "ja"):
            await night.settings(lang=lang)
            res = await night.command(night.bob, "leaderboard", game="nine")
            text = res.response.content
            board = readings(text, "board.line", lang)
            assert len(board) == 2, text
            assert "-" not in "".join(x["value"] for x in board)
            assert not re.search(r"— *-|-0\.0", text), text
            assert {x["value"] for x in board} == set(want.values())
            [picture] = res.response.attachments
            assert not re.search(r"[：:] *-\d", picture.description), picture.description
        for user, lang in ((night.alice, "en"), (night.carol, "ja")):
            res = await night.command(user, "stats")
            text = res.response.content
            assert says(text, "stats.rating", lang, rating=want[user.id]), text
            assert says(text, "board.provisional", lang, n=ratings.PROVISIONAL_GAMES)
            [card] = res.response.attachments
            # one rated game: the rating alone (no "first of the last 1 rated games")
            assert says(card.description, "pic.stats.alt_rating_new", lang, rating=want[user.id])
            assert not re.search(r"-\d", card.description), card.description


def test_the_display_scale():
    """1500 for a newcomer, 30 points per point of ordinal, never negative
    nor "-0"; "?" until PROVISIONAL_GAMES rated games."""
    assert ratings.display(0.0) == 1500 and ratings.display(-0.01) == 1500
    assert ratings.display(-2.6) == 1422 and ratings.display(10.0) == 1800
    for tenths in range(-1000, 600):
        assert not ratings.shown(tenths / 10, 3).startswith("-")
    assert ratings.shown(5.0, ratings.PROVISIONAL_GAMES - 1) == "1650?"
    assert ratings.shown(5.0, ratings.PROVISIONAL_GAMES) == "1650"


async def test_provisional_until_enough_games(game_night, monkeypatch):
    monkeypatch.setattr(ratings, "PROVISIONAL_GAMES", 2)
    async with game_night(dice=DICE, aux=[6, 2] * 10, vary=41) as night:
        for players in ([night.alice, night.bob], [night.alice, night.carol]):
            table = await night.table("nine", players=players)
            await table.play_to_the_end()
        res = await night.command(night.bob, "leaderboard", game="nine")
        board = {x["name"]: x["value"] for x in readings(res.response.content, "board.line")}
        assert not board["alice"].endswith("?")  # two rated games: settled
        assert board["bob"].endswith("?") and board["carol"].endswith("?")
        assert says(res.response.content, "board.provisional", n=2)
        res = await night.command(night.alice, "stats")
        assert says(res.response.content, "stats.rating", rating=board["alice"])
        assert not says(res.response.content, "board.provisional", n=2)


async def test_an_empty_board_says_why(game_night):
    """Only computers: the rating board says they are not ranked here and
    shows the records by wins instead of "No finished games yet"; a fresh
    season says when it started; all servers point at the setting."""
    async with game_night(dice=DICE, aux=[6, 2] * 10, vary=41, locales={"bob": "ja"}) as night:
        res = await night.command(night.alice, "leaderboard", game="nine")
        assert says(res.response.content, "board.empty_season", start="2026-01-01", game="Nine")
        res = await night.command(night.alice, "leaderboard", game="nine", scope="all")
        assert says(res.response.content, "board.empty", game="Nine")

        table = await night.table("nine", players=[night.alice], cpus=["easy"])
        await table.play_to_the_end()
        [result] = await night.store.results.all()
        won = int(result["outcome"]["winner"] == "alice")
        res = await night.command(night.alice, "leaderboard", game="nine")
        text = res.response.content
        assert says(text, "board.unrated_bots"), text
        assert not says(text, "board.empty", game="Nine")
        [line] = readings(text, "board.line_wins")
        assert line["name"] == "alice" and line["wins"] == t("unit.win", count=won)
        assert line["games"] == t("unit.game", count=1)
        [picture] = res.response.attachments
        assert says(picture.description, "pic.board.alt_row_wins", name="alice", wins=won)
        res = await night.command(night.alice, "leaderboard", game="nine", where="global")
        assert says(res.response.content, "board.unrated_bots_global")
        await night.settings(lang="ja")
        res = await night.command(night.bob, "leaderboard", game="nine")
        assert says(res.response.content, "board.unrated_bots", "ja"), res.response.content

        await night.settings(bots_rated=True)  # rated here, but one person is no rating
        res = await night.command(night.alice, "leaderboard", game="nine")
        assert says(res.response.content, "board.unrated", "ja"), res.response.content


async def test_by_wins_draws_one_wins_column(game_night):
    async with game_night(dice=DICE, aux=[6, 2] * 10, vary=41) as night:
        for _ in range(2):
            table = await night.table("nine", players=[night.alice, night.bob])
            await table.play_to_the_end()
        res = await night.command(night.alice, "leaderboard", game="nine", by="wins")
        img = picture_of(night, res.response)
        px = img.load()

        def gold(x0: int, x1: int) -> int:  # the value colour (bold, highlighted)
            return sum(
                1
                for x in range(x0, x1)
                for y in range(100, img.height - 10)
                if sum(abs(a - c) for a, c in zip(px[x, y], b.HILITE, strict=True)) < 60
            )

        assert gold(360, 450) == 0  # no value column: the wins are drawn once
        assert gold(560, 630) > 0  # in the Wins column
        [picture] = res.response.attachments
        assert says(picture.description, "pic.board.alt_row_wins", name="alice")


def test_japanese_titles_are_drawn_whole():
    """Every board title (each game, where and by, both languages) fits the
    picture whole: today the Japanese ones end "…レーティン…"."""
    from bot.i18n import t as tt

    for lang in ("en", "ja"):
        for game in ("nine", "yahtzee", "sixtysix", "sixdice", "bluff"):
            for where in ("server", "global"):
                for by in ("rating", "wins", "points", "best"):
                    title = tt(
                        "board.title",
                        lang,
                        game=tt(f"game.{game}", lang),
                        scope=tt(f"board.scope.{where}", lang),
                        by=tt(f"board.by.{by}", lang),
                    ).replace("**", "")
                    lines, size = title_lines(title)
                    assert "…" not in "".join(lines)
                    assert "".join(lines).replace(" ", "") == title.replace(" ", "")
                    for line in lines:  # drawn at x=20, inside the picture's margin
                        assert 20 + b.text_width(line, size) <= b.WIDTH - 20, (line, size)
                    assert size >= b.BODY
    img, alt = board_picture(
        {
            "title": "シックスティー・シックスランキング（このサーバー、レーティング順）",
            "subtitle": "全期間",
            "by": "rating",
            "value_label": "レーティング",
            "rows": [{"rank": 1, "name": "花子", "value": "1530?", "games": 1, "wins": 1}],
            "provisional": True,
        },
        "ja",
    )
    assert img.width == b.WIDTH and "レーティング順" in alt
