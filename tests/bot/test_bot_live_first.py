"""Fair under load (issue 35): a live game's computer is served before the
reviews queued when a game night ends, every review still comes, a second
press says where one's review stands, and the limits on reviews refuse in
words and change nothing (docs/cpu.md "Live play first", docs/review.md
"Limits").

The reviews here take seconds of a worker (``ai_jobs.slow_review``: the
real review after a sleep in the worker, as a long Sixty-Six match's
does). SimCord settles every press until the bot has nothing left to do;
a review waits on a worker process, outside the bot, so the test declares
that wait to SimCord (``external_wait``), as a wait on Discord would be: a
Review press then returns with "thinking…" while its review is queued, and
the follow-up comes when the worker is done."""

from __future__ import annotations

import asyncio
import functools

import ai_jobs
import pytest
from simtable import privately, refused, says

from bot import ai
from bot.commands import review as review_command
from bot.i18n import t

SLOW = 3.0  # seconds of a worker a review takes here


def slow_reviews(monkeypatch, night, seconds=SLOW):
    """Every review takes ``seconds`` of its worker; the wait for it is an
    external one to SimCord."""
    monkeypatch.setattr(
        review_command, "review_json", functools.partial(ai_jobs.slow_review, seconds)
    )
    real = ai.Queued.result

    async def result(self):
        return await night.env.external_wait(real(self), reason="a review in an AI worker")

    monkeypatch.setattr(ai.Queued, "result", result)


async def finished_games(night, count):
    """``count`` finished two-player Nine games; their result messages' tables."""
    tables = []
    for _ in range(count):
        table = await night.table("nine", players=2)
        await table.play_to_the_end()
        assert t("result.btn.review") in table.buttons
        tables.append(table)
    return tables


def delivered(res):
    """The review came (in the presser's language) in place of "thinking…"."""
    text = res.response.content if res.response is not None else ""
    return any(says(text, "review.title", lang) for lang in ("en", "ja"))


async def until_delivered(night, presses, seconds=60.0):
    """Let the workers finish: every review's follow-up has come."""
    for _ in range(int(seconds / 0.05)):
        if all(delivered(res) for res in presses):
            return
        await asyncio.sleep(0.05)
        await night.settle()
    raise AssertionError([r.response.content for r in presses])


def cpu_moves(table_row):
    return sum(1 for m in table_row.state["history"]["moves"] if m.startswith("CPU1 "))


async def a_computer_answers(night, table):
    """alice plays until the computer has answered her: the press that
    passes the turn returns once the computer's move is committed."""
    before = cpu_moves(await table.row())
    for _ in range(10):
        await table.play(by=night.alice)
        if cpu_moves(await table.row()) > before:
            return
    raise AssertionError(table.content)


@pytest.mark.parametrize("review_workers", ["1", "0"], ids=["review-worker", "shared-workers"])
async def test_a_computer_moves_before_the_queued_reviews_and_every_review_comes(
    game_night, monkeypatch, review_workers
) -> None:
    """Four reviews pressed at the end of a game night (3 s of a worker
    each), then a move at a table against a computer. With the review
    worker (the default) the computer answers before any review is done;
    with the reviews on the live workers (``CHABUDAI_AI_REVIEW_WORKERS=0``)
    it waits for the two already running at most, never for the two queued
    after them. Today's arrival order served it after all four."""
    monkeypatch.setenv("CHABUDAI_AI_REVIEW_WORKERS", review_workers)
    async with game_night(seeded=True) as night:
        games = await finished_games(night, 4)
        table = await night.table("nine", players=[night.alice], cpus=["strong"])
        slow_reviews(monkeypatch, night)
        presses = []
        for game, who in zip(games, ("alice", "bob", "carol", "dave"), strict=True):
            res = await game.press(t("result.btn.review"), by=night.member(who))
            assert res.ephemeral and not delivered(res)  # "thinking…", the review queued
            presses.append(res)
        await a_computer_answers(night, table)
        waited_for = [delivered(res) for res in presses]
        if review_workers == "1":
            assert waited_for == [False] * 4
        else:  # two were running on the live workers already; the queued two wait
            assert waited_for[2:] == [False, False]
        await until_delivered(night, presses)
        assert night.bot.get_cog("Reviews").computed == 4


async def test_a_second_press_says_where_the_review_stands(game_night, monkeypatch) -> None:
    """While reviews wait for the review worker, a second press by someone
    waiting for one says its place in line ("3rd", 「3番目」) or that it is
    being prepared, and queues nothing more; the review still comes once."""
    monkeypatch.setenv("CHABUDAI_AI_REVIEW_WORKERS", "1")
    async with game_night(seeded=True, locales={"dave": "ja"}) as night:
        games = await finished_games(night, 4)
        slow_reviews(monkeypatch, night, 2.0)
        cog = night.bot.get_cog("Reviews")
        presses = []
        for game, who in zip(games, ("alice", "bob", "carol", "dave"), strict=True):
            presses.append(await game.press(t("result.btn.review"), by=night.member(who)))
        again = await games[3].press(t("result.btn.review"), by=night.dave)
        assert privately(again, "review.queue.place", "ja", nth="3番目")
        again = await games[1].press(t("result.btn.review"), by=night.bob)
        assert privately(again, "review.queue.place", nth="1st")
        again = await games[0].press(t("result.btn.review"), by=night.alice)
        assert privately(again, "review.queue.now")
        assert len(cog.queued) == 4  # nothing more queued
        await until_delivered(night, presses)
        assert cog.computed == 4 and not cog.queued and not cog.waiting


async def test_the_limits_on_reviews_refuse_and_change_nothing(game_night, monkeypatch) -> None:
    """A member waits for two reviews at most, a server for ten (here: three)
    being prepared; past them a new review is refused in words, nothing is
    queued, and a review already stored is still served."""
    monkeypatch.setenv("CHABUDAI_AI_REVIEW_WORKERS", "1")
    monkeypatch.setattr(review_command, "SERVER_REVIEWS", 3)
    async with game_night(seeded=True, locales={"carol": "ja"}) as night:
        games = await finished_games(night, 5)
        # the fifth game's review is computed and stored before the rush
        stored = await games[4].press(t("result.btn.review"), by=night.eve)
        assert delivered(stored)
        slow_reviews(monkeypatch, night, 2.0)
        cog = night.bot.get_cog("Reviews")
        presses = [
            await games[0].press(t("result.btn.review"), by=night.alice),
            await games[1].press(t("result.btn.review"), by=night.alice),
        ]
        third = await games[2].press(t("result.btn.review"), by=night.alice)
        assert refused(third, "error.review_member_limit", count=2)
        assert not third.deferred and len(cog.queued) == 2
        presses.append(await games[2].press(t("result.btn.review"), by=night.bob))
        # three being prepared in this server: carol's new one is refused…
        fourth = await games[3].press(t("result.btn.review"), by=night.carol)
        assert refused(fourth, "error.review_server_limit", "ja", count=3)
        assert not fourth.deferred and len(cog.queued) == 3
        # …but alice joining bob's, and anyone reading a stored one, are not
        presses.append(await games[2].press(t("result.btn.review"), by=night.carol))
        again = await games[4].press(t("result.btn.review"), by=night.alice)
        assert delivered(again)
        await until_delivered(night, presses)
        assert cog.computed == 4  # the stored one, then three; never the refused


def test_a_place_in_line_reads_as_an_ordinal() -> None:
    assert [review_command.ordinal(n, "en") for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 103, 111)] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "103rd", "111th"
    ]  # fmt: skip
    assert review_command.ordinal(3, "ja") == "3番目"


async def test_a_second_hint_on_the_same_turn_is_answered_from_memory(game_night) -> None:
    """A hint is computed once per position and asker: asking again on the
    same turn reads the same answer without a worker's time; the next turn
    is a new position."""
    async with game_night(seeded=True) as night:
        table = await night.table("nine", players=[night.alice], cpus=["easy"])
        coach = night.bot.get_cog("Coach")
        await night.settle()
        assert table.turn is night.alice, table.content
        first = await table.command(night.alice, "hint")
        again = await table.command(night.alice, "hint")
        assert says(first.response.content, "hint.title", game=t("game.nine"))
        assert again.response.content == first.response.content
        assert coach.computed == 1
        await a_computer_answers(night, table)
        assert table.turn is night.alice, table.content
        await table.command(night.alice, "hint")
        assert coach.computed == 2
