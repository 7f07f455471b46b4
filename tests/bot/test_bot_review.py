"""The post-game review through Discord (SimCord): the Review button under
every finished game's result and ``/review``; "thinking…" first, the review
as the follow-up; cached per result; after a restart too (issue 17).

What a player reads (issue 22): the accuracy as a percentage with the word
of its band, each mistake with its class (inaccuracy, mistake, blunder) and
what it cost in the game's unit, never a chance summed past 100 %, no
formula, Japanese labels with their colon, and every mistake picture
labelled with the mistake it shows."""

from __future__ import annotations

import random
import re

import pytest
from PIL import Image
from simtable import on_both_databases, reading, readings, refused, says

from bot.commands.review import (
    classes_text,
    cost_text,
    mistake_pictures,
    percent,
    review_text,
    seat_names,
)
from bot.i18n import t
from bot.render import _base as b
from games import bluff, nine, sixdice, sixtysix, yahtzee
from games.core import SeededSource, record_of
from games.registry import read_record
from games.review import CLASSES, VERSION, grades, review

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


def classed(rv, player):
    """A player's mistakes the review names: the biggest that reach an inaccuracy."""
    g = grades(rv.game, rv.unit)
    return [d for d in rv.of(player).mistakes if g.kind(d.lost) is not None]


PERCENT = re.compile(r"(\d+(?:\.\d+)?) ?[%％]")
POINTS = re.compile(r"(\d+(?:\.\d+)?) ?(?:percentage points|ポイント)")
JARGON = ("percentage points", "exact solver", "turn policy", "厳密", "ターン方針")


def assert_reads_well(text, rv, lang="en"):
    """Every reviewed player's accuracy as a whole percentage with its band,
    their classes and cost, each named mistake with its class; no chance
    past 100 %, no formula."""
    g = grades(rv.game, rv.unit)
    for p in rv.players:
        if not p.decisions:
            continue
        if p.decisions < 5:  # too few to grade: no percentage, the mistakes still listed
            assert p.accuracy is None
            assert says(text, "review.player_few", lang, count=p.decisions), text
        else:
            band = t(f"review.band.{g.band(p.accuracy)}", lang)
            assert says(
                text,
                "review.player",
                lang,
                accuracy=percent(p.accuracy),
                band=band,
                count=p.decisions,
            ), text
        # the classes of the player's mistakes and their cost, in the game's unit
        counts = g.counts(p.losses)
        assert sum(counts.values()) >= len(classed(rv, p.player))
        summary = says(
            text,
            "review.summary",
            lang,
            classes=classes_text(counts, lang),
            cost=cost_text(rv, p, lang),
        )
        assert summary == (p.lost > 0), text  # nothing lost: "No mistake" alone
    lines = readings(text, "review.mistake", lang)
    assert len(lines) == sum(len(classed(rv, p.player)) for p in rv.players), text
    words = {t(f"review.class.{k}", lang) for k in CLASSES}
    assert all(line["kind"] in words for line in lines), lines
    assert says(text, "review.footer", lang)
    for number in PERCENT.findall(text) + POINTS.findall(text):
        assert float(number) <= 100, (number, text)
    assert "e^" not in text and "×" not in text and "summed" not in text, text
    assert not any(word in text for word in JARGON), text
    assert not re.search(r"\dポイント", text), text  # 勝率 −2.7ポイント: percentage points
    assert not re.search(r"[Mm]ove \d|\d+手目", text), text  # moments, not the move counter


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
        [listed] = await night.store.results.all()
        stored = await night.store.results.get_result(listed["id"])
        res = await table.press(t("result.btn.review"), by=night.alice)
        assert defers == [{"ephemeral": True, "thinking": True}]  # "thinking…" at once
        text = res.response.content  # the follow-up replaces the thinking message
        assert res.ephemeral and says(text, "review.title", game=t(f"game.{game}")), text
        assert says(text, f"review.worth.{game}")
        humans = [s["name"] for s in stored["seats"] if not s.get("bot")]
        expected = review(read_record(stored["record"]), humans)
        assert_reads_well(text, expected)
        alice_mistakes = classed(expected, "alice")
        files = res.response.attachments
        # one picture a mistake of the presser's, labelled with the mistake
        assert len(files) == len(alice_mistakes[:3])
        for n, (f, d) in enumerate(zip(files, alice_mistakes, strict=False), start=1):
            kind = grades(game, expected.unit).kind(d.lost)
            assert says(f.description, "review.picture", n=n, kind=t(f"review.class.{kind}"))
        cog = night.bot.get_cog("Reviews")
        assert cog.computed == 1
        # the second press (anyone who sees the result) comes from the cache
        again = await table.press(t("result.btn.review"), by=night.eve)
        assert cog.computed == 1 and says(
            again.response.content, "review.title", game=t(f"game.{game}")
        )
        # stored with the result: after a restart the button (only the result
        # id) is answered from the database, not computed again
        assert await night.store.reviews.get_review(stored["id"], VERSION) == expected.to_json()
        await night.restart()
        after = await table.press(t("result.btn.review"), by=night.alice)
        assert says(after.response.content, "review.title", game=t(f"game.{game}"))
        assert night.bot.get_cog("Reviews").computed == 0
        assert_reads_well(after.response.content, expected)


async def test_review_command_defaults_to_your_last_game_and_speaks_japanese(game_night) -> None:
    async with game_night(seeded=True, locales={"bob": "ja"}) as night:
        table = await night.table("nine", players=2)
        await table.play_to_the_end()
        [stored] = await night.store.results.all()
        res = await night.command(night.bob, "review")
        assert res.ephemeral
        assert says(res.response.content, "review.title", "ja", game=t("game.nine", "ja"))
        assert_reads_well(res.response.content, review(read_record(stored["record"])), "ja")
        assert_japanese_labels(res.response.content)
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
        [listed] = await night.store.results.all()
        stored = await night.store.results.get_result(listed["id"])
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
        [listed] = await night.store.results.all()
        doc = await night.store.reviews.get_review(listed["id"], VERSION)
        assert doc == review(read_record(listed["record"])).to_json()
        assert await night.store.reviews.get_review(listed["id"], "another version") is None
        await night.store.reviews.save_review(listed["id"], "r0", {"x": 1}, now=1.0)  # the last write wins
        assert await night.store.reviews.get_review(listed["id"], "r0") == {"x": 1}
        assert await night.store.reviews.get_review(listed["id"], VERSION) is None


# ------------------------------------------------------------------ words


def random_record(eng, game, players, seed, options=None):
    """A game of uniformly random legal moves (plenty of mistakes)."""
    state = eng.new_game(players, options or {}, players[0], SeededSource(seed))
    rng = random.Random(seed)
    while not eng.is_finished(state):
        p = eng.to_move(state)[0]
        eng.apply(state, p, rng.choice(eng.legal_moves(state, p)))
    return record_of(game, state)


def assert_japanese_labels(text):
    """A label and its value are parted by a full-width colon (合計：…,
    判断1回あたり平均：…), never run together (損失残りの期待値+17.2)."""
    assert re.search(r"(合計|平均)：", text), text
    assert not re.search(r"損失(?![：が])", text), text  # a label, or 「損失が」 in a sentence
    if "少なすぎて" not in text or "精度**" in text:  # a graded player (5 decisions or more)
        assert re.search(r"精度\*\*\d+%\*\*（", text), text  # 精度**87%**（良好）, not 精度 **0.7**
    assert "（合計）" not in text and "e^" not in text, text


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_chance_is_never_summed_past_100_percent(lang) -> None:
    """Bluff's worth is a chance: three reveals that each cost 50 points of
    chance used to read "+149.0 % chance to lose (summed)". A chance lost is
    shown per mistake in percentage points, and in total as the average per
    decision."""
    rec = random_record(bluff, "bluff", ["alice", "bob", "carol"], "s0")
    rv = review(rec)
    bob = rv.of("bob")
    assert bob.lost > 1.0  # the sum of bob's chances lost is past 100 %
    names = {p: p.title() for p in rec.players}
    text = review_text(rv, rec.to_json(), names, list(rec.players), lang)
    assert_reads_well(text, rv, lang)
    average = t(
        "review.loss.bluff.lose_chance", lang, value=f"{100 * bob.lost / bob.decisions:.1f}"
    )
    assert t("review.total.average", lang, loss=average) in text, text
    assert f"{100 * bob.lost:.1f}" not in text
    for d in classed(rv, "bob"):
        assert t("review.loss.bluff.lose_chance", lang, value=f"{100 * d.lost:.1f}") in text
    if lang == "ja":
        assert_japanese_labels(text)
        # the game's own words: ライフを失う, オープン / 振る / 宣言; no コール
        assert "ライフを失う確率" in text and "コール" not in text, text


def test_the_japanese_review_of_nine_uses_the_games_verb() -> None:
    rec = random_record(nine, "nine", ["alice", "bob"], "n3")
    rv = review(rec)
    text = review_text(rv, rec.to_json(), {}, list(rec.players), "ja")
    assert "伏せ" in text and "めく" not in text, text  # nine flips: 伏せる
    assert_japanese_labels(text)
    assert says(text, "review.summary", "ja")
    cost = reading(text, "review.loss.nine.sum", "ja")
    assert cost is not None and float(cost["value"]) > 0, text
    assert says(text, "review.note.nine", "ja")  # few real choices: said so


def test_the_review_says_what_a_perfect_game_is_without_a_formula() -> None:
    rec = random_record(yahtzee, "yahtzee", ["alice"], "y1")
    rv = review(rec)
    for lang in ("en", "ja"):
        text = review_text(rv, rec.to_json(), {}, ["alice"], lang)
        assert "Accuracy =" not in text and "精度＝" not in text and "exp(" not in text
        g = grades("yahtzee", "points")
        assert says(
            text, "review.footer", lang, inaccuracy=f"{g.classes[0]:g}", mistake=f"{g.classes[1]:g}"
        ), text


RANDOM_GAMES = [
    (yahtzee, "yahtzee", ["alice"], None),
    (nine, "nine", ["alice", "bob"], None),
    (sixdice, "sixdice", ["alice", "bob"], {"target": 3000, "start": 500}),
    (sixdice, "sixdice", ["alice", "bob", "carol"], {"target": 3000, "start": 500}),
    (bluff, "bluff", ["alice", "bob", "carol"], None),
    (sixtysix, "sixtysix", ["alice", "bob"], {"target": 1}),
]


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize(("eng", "game", "players", "options"), RANDOM_GAMES)
def test_every_mistake_picture_is_labelled_with_its_mistake(eng, game, players, options, lang):
    """One picture a mistake (the table, and the player's own dice or hand
    under it in a game with secrets), a caption band over it naming the
    mistake, and alt text that starts with the same label (Six Dice's were
    unlabelled)."""
    for seed in ("p1", "p2", "p3", "p4"):
        rec = random_record(eng, game, players, seed, options)
        rv = review(rec)
        mistakes = classed(rv, "alice")
        if mistakes:
            break
    assert mistakes, "a random player makes mistakes"
    pictures = mistake_pictures(rv, rec.to_json(), "alice", {"alice": "Alice"}, lang)
    assert len(pictures) == min(3, len(mistakes))
    g = grades(game, rv.unit)
    for n, (pic, d) in enumerate(zip(pictures, mistakes, strict=False), start=1):
        kind = t(f"review.class.{g.kind(d.lost)}", lang)
        label = reading(pic.alt, "review.picture", lang)
        assert label is not None and label["kind"] == kind and label["n"] == str(n), pic.alt
        # the same moment as the mistake's line in words
        text = review_text(rv, rec.to_json(), {"alice": "Alice"}, ["alice"], lang)
        line = [x for x in readings(text, "review.mistake", lang) if x["n"] == str(n)][0]
        assert label["when"] == line["when"], (label, line)
        assert len(pic.alt) <= 1024
        with Image.open(__import__("io").BytesIO(pic.png)) as img:
            rgb = img.convert("RGB")
            top = rgb.getpixel((rgb.width // 2, 6))  # the caption band on top
            assert max(abs(x - y) for x, y in zip(top, b.PANEL, strict=True)) <= 3, top
            # the band holds ink: the label is drawn, not an empty strip
            band = rgb.crop((0, 0, rgb.width, 60))
            assert band.getcolors(4096) is not None and len(band.getcolors(4096)) > 8


def test_a_caption_line_breaks_at_punctuation_and_keeps_numbers_whole() -> None:
    """The caption wraps at a space, 、 ： or before （ — never inside a
    number or between a label and its figure (「残りの期待値\\n8.3」)."""
    from bot.render.caption import wrap

    width = b.WIDTH - 28
    ja = "残りの期待値 +1.9：残りの期待値10.1（最善なら残りの期待値8.3）"
    lines = wrap(ja, b.BODY, width)
    assert lines == ["残りの期待値 +1.9：残りの期待値10.1", "（最善なら残りの期待値8.3）"]
    en = "+25.6 percentage points of chance to lose a life: 98.0 % to lose a life instead of 72.4 %"
    lines = wrap(en, b.BODY, width)
    assert len(lines) == 2 and " ".join(lines) == en
    assert all(b.text_width(line, b.BODY) <= width for line in lines)


# ------------------------------------------------------------- issue 31


def level_record(eng, game, players, seed, level, options=None):
    """A game with every seat at ``level``, seeded."""
    from games.registry import spec

    ai = spec(game).ai_module()
    state = eng.new_game(players, options or {}, players[0], SeededSource(seed))
    rng = random.Random(seed)
    while not eng.is_finished(state):
        p = eng.to_move(state)[0]
        legal = eng.legal_moves(state, p)
        eng.apply(state, p, ai.choose(eng.view(state, p), p, legal, level, rng))
    return record_of(game, state)


def blocks(text):
    """The review's paragraphs (a player's lines each, blank-line apart)."""
    return [b.strip() for b in text.split("\n\n") if b.strip()]


async def test_a_three_player_nine_has_too_few_decisions_to_grade(game_night) -> None:
    """A normal 3-player Nine read "accuracy **1 %** (needs work) · 2
    decisions" for every player (JA 精度**0%**). Now: no percentage under 5
    decisions ("too few decisions to grade"), the mistakes still listed,
    and a line that Nine offers few real choices."""
    async with game_night(seeded=True, locales={"bob": "ja"}) as night:
        table = await night.table("nine", players=3)
        await table.play_to_the_end()
        [stored] = await night.store.results.all()
        rv = review(read_record(stored["record"]))
        assert all(0 < p.decisions < 5 for p in rv.players), rv
        for who, lang in ((night.alice, "en"), (night.bob, "ja")):
            res = await table.press(t("result.btn.review"), by=who)
            text = res.response.content
            assert says(text, "review.note.nine", lang), text
            assert not says(text, "review.player", lang), text
            for block in blocks(text)[2:-1]:  # each player's: no percentage on its line
                assert not PERCENT.search(block.splitlines()[0]), block
            for p in rv.players:
                assert says(text, "review.player_few", lang, count=p.decisions), text
            assert len(readings(text, "review.mistake", lang)) == sum(
                len(classed(rv, p.player)) for p in rv.players
            )
            assert_reads_well(text, rv, lang)


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_low_band_always_shows_the_mistakes_that_made_it(lang) -> None:
    """Bluff read 0 % for both players; Six Dice "47 % (fair)" beside "no
    inaccuracy, mistake or blunder". Every player who reads fair or needs
    work has mistake lines under their name (seeded random and easy games,
    two and three seats)."""
    low = 0
    for game, eng, players, options in (
        ("bluff", bluff, ["alice", "bob"], None),
        ("bluff", bluff, ["alice", "bob", "carol"], None),
        ("sixdice", sixdice, ["alice", "bob"], {"target": 3000, "start": 500}),
        ("sixdice", sixdice, ["alice", "bob", "carol"], {"target": 3000, "start": 500}),
    ):
        for seed in ("b1", "b2", "b3"):
            for rec in (
                random_record(eng, game, players, seed, options),
                level_record(eng, game, players, seed, "easy", options),
            ):
                rv = review(rec)
                text = review_text(rv, rec.to_json(), {}, list(rec.players), lang)
                for block in blocks(text)[2:-1]:  # title and measure, footer apart
                    head = reading(block, "review.player", lang)
                    if head is None:
                        continue
                    bands = (t("review.band.fair", lang), t("review.band.poor", lang))
                    if head["band"] in bands:
                        low += 1
                        assert readings(block, "review.mistake", lang), block
                        assert not says(block, "review.slips", lang), block
    assert low >= 10


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_one_decision_reads_too_few_to_grade_beside_its_slip(lang) -> None:
    """Six Dice with 2 players: alice made one decision (a loss below an
    inaccuracy). No percentage beside "no inaccuracy…": too few to grade."""
    rec = level_record(
        sixdice, "sixdice", ["alice", "bob"], "one167", "normal", {"target": 3000, "start": 500}
    )
    rv = review(rec)
    alice = rv.of("alice")
    g = grades("sixdice", rv.unit)
    assert alice.decisions == 1 and 0 < alice.lost < g.classes[0]
    text = review_text(rv, rec.to_json(), {"alice": "Alice"}, ["alice", "bob"], lang)
    block = next(b for b in blocks(text) if "Alice" in b)
    assert says(block, "review.player_few", lang, player="Alice", count=1), block
    assert not PERCENT.search(block.splitlines()[0]), block
    assert says(block, "review.slips", lang), block


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_yahtzee_mistake_is_named_by_the_round_the_table_shows(lang) -> None:
    """A 13-round Yahtzee named "Blunder, move 75" while the table said
    "Round 11/13": each mistake now names the round of the table's status
    line at that position, and the roll (1st-3rd) from the rolls left."""
    from bot.games import plugin
    from games.review import positions

    rec = random_record(yahtzee, "yahtzee", ["alice", "bob"], "y13")
    rv = review(rec)
    text = review_text(rv, rec.to_json(), {}, ["alice", "bob"], lang)
    lines = readings(text, "review.mistake", lang)
    assert len(lines) == 6
    shown = [d for p in rv.players for d in classed(rv, p.player)]
    rounds = set()
    for line, d in zip(lines, shown, strict=True):
        view = yahtzee.view(positions(rec, d.index), d.player)
        status = reading(plugin("yahtzee").status_line(view, lang), "yahtzee.status", lang)
        rolled = 3 - int(status["left"])
        assert says(line["when"], f"review.at.yahtzee.roll{rolled}", lang, round=status["round"])
        rounds.add(int(status["round"]))
    assert max(rounds) >= 8, rounds


def test_seats_are_named_as_the_table_names_them() -> None:
    """ "carol (CPU)" for a computer in a removed person's seat (the pictures
    and the words), "Bob (left)" for a person who left (the words)."""
    rec = random_record(nine, "nine", ["alice", "bob", "carol"], "s1")
    rec = type(rec).from_json({**rec.to_json(), "moves": [*rec.moves[:4], "bob forfeit"]})
    seats = [
        {"name": "alice", "id": 1, "display": "Alice"},
        {"name": "bob", "id": 2, "display": "Bob"},
        {"name": "carol", "id": None, "bot": True, "took": "carol", "level": "normal"},
    ]
    for lang in ("en", "ja"):
        words, pictured = seat_names(seats, rec, lang)
        assert words["alice"] == pictured["alice"] == "Alice"
        assert words["bob"] == t("table.seat_left", lang, player="Bob")
        assert pictured["bob"] == "Bob"
        assert words["carol"] == pictured["carol"] == t("pic.seat_cpu", lang, name="carol")
    seats[1]["kicked"] = True
    words, _ = seat_names(seats, rec, "en")
    assert words["bob"] == t("table.seat_removed", "en", player="Bob")


def test_a_caption_is_never_cut_short() -> None:
    """A long name or moment wraps: every word of the title and of the
    lines is drawn (the band grows), nothing ends in "…"."""
    from bot.render.caption import captioned, wrap

    table = Image.new("RGB", (b.WIDTH, 100), b.PAPER)
    short = captioned([table], "1. Round 2", ["a", "b"], tag="Blunder", tone="blunder")
    title = "1. Deal 3, trick 5 — " + "Bartholomew-Alexandria " * 4
    lines = ["You: " + "Play the queen of hearts · " * 6, "Lost 1.25 expected game points " * 4]
    long = captioned([table], title, lines, tag="Blunder", tone="blunder")
    width = b.WIDTH - 28
    rows = sum(len(wrap(b.safe_text(x), b.BODY, width)) for x in lines)
    assert rows > 4  # more than the band used to keep
    assert long.height - short.height >= (rows - 2) * b.BODY


async def test_the_review_names_a_player_who_left_as_the_table_does(game_night) -> None:
    """bob plays a turn, then leaves (/game leave) and a computer plays on:
    the review names him as the table did, "bob (left)"."""
    async with game_night(seeded=True) as night:
        table = await night.table("yahtzee", players=2, cpus=["easy"])
        for _ in range(200):  # to bob's turn, then through it
            await night.settle()
            if table.turn is night.bob:
                break
            await table.play()
        while table.turn is night.bob:
            await table.play()
        for _ in range(200):
            await night.settle()
            if table.turn is night.bob:
                break
            await table.play()
        await table.ask(night.bob, "game leave")
        await night.settle()
        await table.play_to_the_end()
        res = await table.press(t("result.btn.review"), by=night.alice)
        text = res.response.content
        left = t("table.seat_left", "en", player="bob")
        [stored] = await night.store.results.all()
        bob = review(read_record(stored["record"])).of("bob")
        assert 0 < bob.decisions < 5  # one turn: too few to grade
        block = next(b for b in blocks(text) if b.startswith(f"**{left}**"))
        assert says(block, "review.player_few", player=left, count=bob.decisions), text


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_player_with_no_decision_is_told_why(lang) -> None:
    """Three at Six Dice (target 1000 from the start, as in the sandbox):
    alice rolled, and the review read "alice — no decision to review"
    beside a game she played. It says why: a roll with nothing to choose is
    no decision, and a turn played for a total is not judged."""
    rec = level_record(
        sixdice, "sixdice", ["alice", "bob", "carol"], "none45", "normal", {"target": 1000, "start": 0}
    )
    assert any(m.startswith("alice ") for m in rec.to_json()["moves"])
    rv = review(rec)
    assert rv.of("alice").decisions == 0
    text = review_text(rv, rec.to_json(), {"alice": "Alice"}, ["alice", "bob", "carol"], lang)
    block = next(b for b in blocks(text) if "Alice" in b)
    assert says(block, "review.no_decisions", lang, player="Alice"), block
    assert says(block, "review.no_decisions_why.sixdice", lang), block
