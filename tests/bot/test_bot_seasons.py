"""Seasons: a server's leaderboards and ratings by month (the default), by
quarter, or not at all (``/config season``). A season rolls over with the
calendar (SimCord's clock starts on 2026-01-01 UTC; the night's clock
skew moves the bot's a month on): the old season's board is frozen, the new one starts empty
and its ratings fresh, and the all-time board goes on accumulating."""

from __future__ import annotations

from simtable import on_both_databases, reading, readings, refused, says

from bot import ratings
from bot.i18n import t
from games.core import SeededSource

DICE = SeededSource("bot-season-tests").roll(2000)
DAY = 86400.0


async def board(night, user, **options):
    res = await night.command(user, "leaderboard", game="nine", **options)
    assert res.response is not None and not res.response.ephemeral, res
    return res.response


def lines(message) -> list[dict[str, str]]:
    return readings(message.content, "board.line")


@on_both_databases
async def test_a_season_rolls_over(game_night) -> None:
    async with game_night(dice=DICE, aux=[6, 2] * 10, vary=41) as night:
        alice, bob, carol = night.alice, night.bob, night.carol
        for _ in range(2):
            table = await night.table("nine", players=[alice, bob])
            await table.play_to_the_end()
        january = await board(night, carol)  # this season by default
        when = reading(january.content, "board.period.season")
        assert when == {"season": "2026-01", "start": "2026-01-01", "end": "2026-01-31"}
        jan_lines = lines(january)
        assert {x["name"] for x in jan_lines} == {"alice", "bob"}
        all_before = lines(await board(night, carol, scope="all"))
        # the picture says what the words say (alt text for screen readers)
        [picture] = january.attachments
        for x in jan_lines:
            assert says(picture.description, "pic.board.alt_row", rank=x["rank"], name=x["name"])

        # February: a new season. The bot's clock jumps a month (the night's
        # clock skew: SimCord would tick every 5 s timer of the bot for a
        # month of virtual time), then SimCord's time goes on a minute
        night.clock.skew += 31 * DAY
        await night.wait(60)
        february = await board(night, carol)
        assert reading(february.content, "board.period.season") == {
            "season": "2026-02",
            "start": "2026-02-01",
            "end": "2026-02-28",
        }
        assert says(february.content, "board.empty_season", start="2026-02-01", game="Nine")
        assert lines(await board(night, carol, scope="2026-01")) == jan_lines  # frozen
        assert lines(await board(night, carol, scope="all")) == all_before

        table = await night.table("nine", players=[alice, carol])
        await table.play_to_the_end()
        [last] = [r for r in await night.store.results.all() if str(carol.id) in r["settlement"]]
        winner = last["outcome"]["winner"]
        feb = {x["name"]: x for x in lines(await board(night, bob))}
        assert set(feb) == {"alice", "carol"} and all(x["games"] for x in feb.values())
        # fresh ratings: alice's season rating is a first game's, not her all-time one
        ranks = {alice.id: 1 if winner == "alice" else 2, carol.id: 1 if winner == "carol" else 2}
        fresh = ratings.rate(ranks, {})
        assert feb["alice"]["value"] == ratings.shown(ratings.ordinal(*fresh[alice.id]), 1)
        assert lines(await board(night, carol, scope="2026-01")) == jan_lines  # still frozen
        all_after = {x["name"]: x for x in lines(await board(night, carol, scope="all"))}
        mu, sigma = (await night.store.boards.ratings("nine", [alice.id]))[alice.id]
        assert all_after["alice"]["value"] == ratings.shown(ratings.ordinal(mu, sigma), 3)
        assert all_after["alice"]["value"] != feb["alice"]["value"]
        before = {x["name"]: x for x in all_before}
        assert all_after["bob"] == before["bob"]  # bob did not play: unchanged
        assert say_games(all_after["alice"]) == say_games(before["alice"]) + 1

        # the past season is offered by name as you type; this season once,
        # as "this season" with its name and dates
        offered = await carol.autocomplete(night.channel, "leaderboard", "scope", "2026")
        values = [c["value"] for c in offered]
        assert values == ["season", "2026-01"], offered
        assert [c["name"] for c in offered if "2026-02" in c["name"]] == [
            t("choice.season_now", season="2026-02", start="2026-02-01", end="2026-02-28")
        ]
        offered = await carol.autocomplete(night.channel, "stats", "scope", "")
        assert [c["value"] for c in offered] == ["season", "all", "2026-01"], offered


def say_games(line: dict[str, str]) -> int:
    return int("".join(ch for ch in line["games"] if ch.isdigit()))


async def test_seasons_off_and_quarterly(game_night) -> None:
    async with game_night(dice=DICE, aux=[6, 2] * 10, vary=41, managers=["alice"]) as night:
        text = await night.ask(night.alice, "config season", value="off")
        # no seasons to talk about (today: "Seasons …: off. Games … count for
        # the season they end in")
        assert says(text, "config.saved.season_off") and "season" not in text.lower()
        night.speaks(night.alice, "ja")
        text = await night.ask(night.alice, "config season", value="off")
        assert says(text, "config.saved.season_off", "ja") and "シーズン" not in text
        night.speaks(night.alice, "en-US")
        table = await night.table("nine", players=2)
        await table.play_to_the_end()
        [result] = await night.store.results.all()
        assert (await night.store.results.get_result(result["id"]))["season"] is None
        message = await board(night, night.carol)
        assert says(message.content, "board.period.off")
        assert {x["name"] for x in lines(message)} == {"alice", "bob"}  # all time
        # no season to offer: all time only
        offered = await night.carol.autocomplete(night.channel, "leaderboard", "scope", "")
        assert [c["value"] for c in offered] == ["all"], offered
        await night.ask(night.alice, "config season", value="quarterly")
        table = await night.table("nine", players=2)
        await table.play_to_the_end()
        newest = max(await night.store.results.all(), key=lambda r: r["id"])
        assert (await night.store.results.get_result(newest["id"]))["season"] == "2026-Q1"
        when = reading((await board(night, night.carol)).content, "board.period.season")
        assert when == {"season": "2026-Q1", "start": "2026-01-01", "end": "2026-03-31"}
        assert says(await night.ask(night.alice, "config show"), "config.show.season")


async def test_a_bad_period_is_refused(game_night) -> None:
    async with game_night(dice=DICE, aux=[6, 2] * 10, vary=41) as night:
        res = await night.command(night.bob, "leaderboard", game="nine", scope="lately")
        assert refused(res, "error.bad_scope", value="lately")
        res = await night.command(
            night.bob, "leaderboard", game="nine", scope="2026-01", where="global"
        )
        assert refused(res, "error.season_here")
