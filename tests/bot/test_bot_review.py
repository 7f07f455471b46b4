"""The post-game review through Discord (SimCord): the Review button under
every finished game's result and ``/review``; "thinking…" first, the review
as the follow-up; cached per result; after a restart too (issue 17)."""

from __future__ import annotations

import pytest
from simtable import on_both_databases, readings, refused, says

from bot.i18n import t
from games.registry import read_record
from games.review import VERSION, review

GAMES = ("sixdice", "bluff", "nine", "yahtzee", "sixtysix")
# options and preferred moves that end a game in a few hundred presses
SETUP = {
    "sixdice": (2, (), "target=3000 start=500", ("m:stop",)),
    "sixtysix": (1, ("easy",), "target=1", ()),  # against a computer (not reviewed)
}


async def from_the_hand(table, user):
    """A Sixty-Six move from the player's DM: declare at 66, pass, exchange,
    draw, a marriage, else the first card."""
    hand = table.night.hand(user)
    points = hand.reading("sixtysix.private.points")
    if "m:declare" in hand.actions and points and int(points["n"]) >= 66:
        return await hand.act("m:declare")
    for word in ("m:pass", "m:exchange", "m:draw"):
        if word in hand.actions:
            return await hand.act(word)
    values = [o["value"] for o in hand.selects[0]["options"]]
    return await hand.choose(next((v for v in values if v.startswith("marry")), values[0]))


@pytest.fixture
def defers(monkeypatch):
    import discord

    calls: list[dict] = []
    real_defer = discord.InteractionResponse.defer

    async def defer(self, **kwargs):
        calls.append(kwargs)
        return await real_defer(self, **kwargs)

    monkeypatch.setattr(discord.InteractionResponse, "defer", defer)
    return calls


@pytest.mark.parametrize("game", GAMES)
async def test_review_after_a_game_then_from_the_cache_and_after_a_restart(
    game_night, defers, game
) -> None:
    async with game_night(seeded=True) as night:
        count, cpus, options, prefer = SETUP.get(game, (2, (), None, ()))
        table = await night.table(game, players=count, cpus=cpus, options=options)
        policy = from_the_hand if game == "sixtysix" else None
        await table.play_to_the_end(prefer=prefer, policy=policy)
        assert table.over
        assert t("result.btn.review") in table.buttons
        [listed] = await night.store.results()
        stored = await night.store.get_result(listed["id"])
        res = await table.press(t("result.btn.review"), by=night.alice)
        assert defers == [{"ephemeral": True, "thinking": True}]  # "thinking…" at once
        text = res.response.content  # the follow-up replaces the thinking message
        assert res.ephemeral and says(text, "review.title", game=t(f"game.{game}")), text
        assert says(text, f"review.worth.{game}")
        humans = [s["name"] for s in stored["seats"] if not s.get("bot")]
        expected = review(read_record(stored["record"]), humans)
        for p in expected.players:
            # everyone's figures, the accuracy as the engine computes it
            if p.accuracy is not None:
                assert says(text, "review.player", accuracy=f"{p.accuracy:.1f}", count=p.decisions)
            assert len(readings(text, "review.mistake")) == sum(
                len(q.mistakes) for q in expected.players
            )
        alice_mistakes = expected.of("alice").mistakes
        files = res.response.attachments
        if alice_mistakes:
            assert files, "the presser's mistakes come with their positions"
            for f in files:
                assert f.description and f.description.strip()  # alt text
        cog = night.bot.get_cog("Reviews")
        assert cog.computed == 1
        # the second press (anyone who sees the result) comes from the cache
        again = await table.press(t("result.btn.review"), by=night.eve)
        assert cog.computed == 1 and says(again.response.content, "review.title", game=t(f"game.{game}"))
        # stored with the result: after a restart the button (only the result
        # id) is answered from the database, not computed again
        assert await night.store.get_review(stored["id"], VERSION) == expected.to_json()
        await night.restart()
        after = await table.press(t("result.btn.review"), by=night.alice)
        assert says(after.response.content, "review.title", game=t(f"game.{game}"))
        assert night.bot.get_cog("Reviews").computed == 0
        for p in expected.players:
            if p.accuracy is not None:
                assert says(after.response.content, "review.player", accuracy=f"{p.accuracy:.1f}", count=p.decisions)


async def test_review_command_defaults_to_your_last_game_and_speaks_japanese(game_night) -> None:
    async with game_night(seeded=True, locales={"bob": "ja"}) as night:
        table = await night.table("nine", players=2)
        await table.play_to_the_end()
        [stored] = await night.store.results()
        res = await night.command(night.bob, "review")
        assert res.ephemeral
        assert says(res.response.content, "review.title", "ja", game=t("game.nine", "ja"))
        by_id = await night.command(night.alice, "review", result=stored["id"])
        assert says(by_id.response.content, "review.title", game=t("game.nine"))


async def test_review_refuses_what_it_cannot_review(game_night) -> None:
    async with game_night(seeded=True) as night:
        res = await night.command(night.eve, "review")  # no game played
        assert refused(res, "error.no_review_game")
        res = await night.command(night.eve, "review", result=999)
        assert refused(res, "error.no_result")


async def test_computer_seats_are_not_reviewed(game_night) -> None:
    async with game_night(seeded=True, cpu_delay=0) as night:
        table = await night.table("yahtzee", players=1, cpus=["easy"])
        await table.play_to_the_end()
        res = await table.press(t("result.btn.review"), by=night.alice)
        text = res.response.content
        lines = [x for x in text.splitlines() if x.startswith("**")]
        assert len(lines) == 1 and "alice" in lines[0], text


async def test_two_reviews_of_one_game_at_once_compute_it_once(game_night) -> None:
    """Two presses while the review is being computed wait for the same job
    (SimCord runs one press at a time, so the cog is asked directly)."""
    import asyncio

    async with game_night(seeded=True) as night:
        table = await night.table("yahtzee", players=2)
        await table.play_to_the_end()
        [listed] = await night.store.results()
        stored = await night.store.get_result(listed["id"])
        cog = night.bot.get_cog("Reviews")
        args = (stored["id"], "yahtzee", stored["record"], ["alice", "bob"])
        first, second = await asyncio.gather(cog.reviewed(*args), cog.reviewed(*args))
        assert first == second == review(read_record(stored["record"]))
        assert cog.computed == 1 and not cog.pending


async def test_a_new_review_version_recomputes_the_stored_review(game_night, monkeypatch) -> None:
    from bot.commands import review as review_command

    async with game_night(seeded=True) as night:
        table = await night.table("nine", players=2)
        await table.play_to_the_end()
        await table.press(t("result.btn.review"), by=night.alice)
        await night.restart()
        monkeypatch.setattr(review_command, "VERSION", "test-next")
        res = await table.press(t("result.btn.review"), by=night.alice)
        assert says(res.response.content, "review.title", game=t("game.nine"))
        assert night.bot.get_cog("Reviews").computed == 1


@on_both_databases
async def test_reviews_are_stored_on_each_database(game_night) -> None:
    async with game_night(seeded=True) as night:
        table = await night.table("nine", players=2)
        await table.play_to_the_end()
        await table.press(t("result.btn.review"), by=night.bob)
        [listed] = await night.store.results()
        doc = await night.store.get_review(listed["id"], VERSION)
        assert doc == review(read_record(listed["record"])).to_json()
        assert await night.store.get_review(listed["id"], "another version") is None
        await night.store.save_review(listed["id"], "r0", {"x": 1}, now=1.0)  # the last write wins
        assert await night.store.get_review(listed["id"], "r0") == {"x": 1}
        assert await night.store.get_review(listed["id"], VERSION) is None
