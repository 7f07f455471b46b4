"""Words for the moment (issue 18, "English", "Names and notation", "Traps
and fairness" — the words part): a command says what it did, a bad house
option teaches the syntax, a game's seed in its own words (a card game's
shuffle), Bluff's results in lives lost, and a leaderboard by best for a game
that keeps none says so."""

from __future__ import annotations

import re

from simtable import accepted, privately, readings, refused, says

from bot.i18n import t
from games.core import seed_hash
from games.nine import engine as nine
from games.sixdice import engine as sixdice

SEED_HEX = re.compile(r"`([0-9a-f]+)`")


async def test_game_leave_and_end_say_what_was_done(game_night):
    async with game_night(seeded=True) as night:
        table = await night.table("nine", players=3)
        res = await table.command(night.carol, "game leave")
        assert privately(res, "ok.left", game="Nine"), res.response.content
        assert not privately(res, "ok.done")
        lobby = await night.table("yahtzee", start=False)
        res = await lobby.command(night.alice, "game end")
        assert privately(res, "ok.closed", game="Yahtzee"), res.response.content


async def test_a_bad_house_option_teaches_the_syntax(game_night):
    async with game_night() as night:
        channel = night.guild.create_text_channel("options")
        alice = night.alice
        res = await alice.slash(channel, "play", game="nine", options="losses=2")
        assert refused(res, "error.bad_options", reason=t("rule.option.none", game="Nine"))
        res = await alice.slash(channel, "play", game="sixdice", options="colour=red")
        known = ", ".join(f"`{o.name}`" for o in sixdice.OPTIONS)  # what to type, as code
        reason = t("rule.option.unknown", option="colour", known=known)
        assert refused(res, "error.bad_options", reason=reason), res.response.content
        res = await alice.slash(channel, "play", game="sixdice", options="=5")
        first = sixdice.OPTIONS[0]
        reading = readings(res.response.content, "error.bad_options")
        assert reading, res.response.content
        assert says(reading[0]["reason"], "rule.option.syntax", word="=5"), reading
        assert f"{first.name}=" in reading[0]["reason"]
        res = await alice.slash(channel, "play", game="nine", options="=5")
        assert refused(res, "error.bad_options", reason=t("rule.option.none", game="Nine"))
        assert not nine.OPTIONS  # the game has none indeed
        assert await night.store.tables.live_tables() == []  # nothing was opened


async def test_the_seed_in_the_games_own_words(game_night):
    async with game_night(seeded=True, locales={"bob": "ja"}) as night:
        table = await night.table("sixtysix", options="target=1", start=False)
        (short,) = [m.group(1) for m in SEED_HEX.finditer(table.content)]
        assert table.shows("seed.hash.deck", hash=short) and len(short) == 8, table.content
        assert not table.shows("seed.hash.dice", hash=short)
        await table.act("start", by=night.alice)
        assert table.shows("seed.hash.deck", hash=short)
        (row,) = await night.store.tables.live_tables()
        assert seed_hash(row.seed).startswith(short) and seed_hash(row.seed) not in table.content
        text = await table.ask(night.bob, "game status")  # the same short hash, in bob's language
        assert says(text, "seed.hash.deck", "ja", hash=short), text
        res = await table.command(night.alice, "rules", game="sixtysix")
        (embed,) = res.response.embeds
        fields = {f.name: f.value for f in embed.fields}
        assert fields[t("rules.verify")] == t("rules.verify.deck", button=t("result.btn.fair"))
        assert "python -m games" not in fields[t("rules.verify")]  # a player's check
        res = await table.command(night.alice, "rules", game="nine")
        (embed,) = res.response.embeds
        assert {f.name: f.value for f in embed.fields}[t("rules.verify")] == t("rules.verify.dice", button=t("result.btn.fair"))


async def test_bluff_counts_lives_lost_in_words_and_best_where_there_is_none(game_night):
    async with game_night(seeded=True) as night:
        table = await night.table("bluff", options="losses=1")
        while not table.over:
            accepted(await table.play(prefer=("m:reveal", "m:roll")))
        lines = table.content.splitlines()
        places = [ln for ln in lines if re.match(r"\d+\\?\. <@", ln)]
        assert len(places) == 2, table.content
        assert any(says(ln, "result.line", points=t("unit.life_lost", count=1)) for ln in places)
        assert any(says(ln, "result.line_win", points=t("unit.life_lost", count=0)) for ln in places)
        assert not re.search(r" -\d+$", "\n".join(places)), places
        (result,) = await night.store.results.all(game="bluff")
        loser = next(u for u in (night.alice, night.bob) if result["settlement"][str(u.id)] < 0)
        text = await night.ask(loser, "stats", game="bluff")
        line = next(ln for ln in text.splitlines() if says(ln, "stats.line", game="Bluff dice"))
        assert says(line, "stats.line", points=t("unit.life_lost", count=1)), line
        assert "point" not in line, line
        res = await night.command(night.alice, "leaderboard", game="bluff", by="points")
        board = readings(res.response.content.split("\n", 2)[-1], "board.line")
        values = sorted(b["value"] for b in board)
        assert values == sorted([t("unit.life_lost", count=0), t("unit.life_lost", count=1)]), board

        nine_table = await night.table("nine")
        while not nine_table.over:
            accepted(await nine_table.play())
        res = await night.command(night.alice, "leaderboard", game="nine", by="best")
        assert says(res.response.content, "board.no_best", game="Nine"), res.response.content
        assert not says(res.response.content, "board.empty")
