"""The golden transcripts read as a newcomer reads them (issue 33, "Words
everywhere"): each fault found there, driven through SimCord or the plugin
that writes the line, checked against the catalogues."""

from __future__ import annotations

import re

import pytest
from simtable import reading, readings, says

from bot.games import plugin
from bot.i18n import catalogue, t

LANGS = ("en", "ja")


async def test_an_onlooker_gets_the_review_without_pictures_captioned_you(game_night) -> None:
    """eve (who did not play) asked /review of alice's game and got alice's
    mistake picture captioned "You: Flip 1 + 6 · Best: …". The pictures are
    the presser's own mistakes: a player gets theirs, an onlooker none."""
    async with game_night(seeded=True) as night:
        table = await night.table("nine", players=2)
        await table.play_to_the_end()
        [stored] = await night.store.results.all()
        mine = await table.press(t("result.btn.review"), by=night.alice)
        assert mine.response.attachments, mine.response.content  # alice's inaccuracy, drawn
        onlooker = await night.command(night.eve, "review", result=stored["id"])
        assert says(onlooker.response.content, "review.title", game=t("game.nine"))
        assert onlooker.response.attachments == [], [
            a.description for a in onlooker.response.attachments
        ]


@pytest.mark.parametrize("lang", LANGS)
async def test_stats_about_oneself_say_you(game_night, lang) -> None:
    """eve's /stats read "eve has not finished a game yet." — to eve."""
    async with game_night(locales={"eve": lang}) as night:
        res = await night.command(night.eve, "stats")
        assert says(res.response.content, "stats.empty_self", lang), res.response.content
        other = await night.command(night.eve, "stats", user=night.bob)
        assert says(other.response.content, "stats.empty", lang, user="bob")


@pytest.mark.parametrize("lang", LANGS)
def test_a_token_spent_in_nine_says_why(lang) -> None:
    """ "alice: token -1 (holds 0)." read as a penalty: a token is spent
    when no card can be flipped, and saves the player from ドボン."""
    spent = {"kind": "token", "player": "alice", "data": {"change": -1, "tokens": 0}}
    line = plugin("nine").describe(spent, lang)
    assert says(line, "ev.nine.token_used", lang, player="alice", tokens=0), line
    won = {"kind": "token", "player": "alice", "data": {"change": 1, "tokens": 1}}
    assert says(plugin("nine").describe(won, lang), "ev.nine.token", lang, player="alice")


@pytest.mark.parametrize("lang", LANGS)
def test_sixty_six_names_no_trump_card_once_it_is_gone(lang) -> None:
    """Once the talon is gone the status read "trump ♠ (card —)"."""
    view = {"players": ["alice", "bob"], "trump": "S", "trump_card": None, "talon": 0, "deal": 1}
    line = plugin("sixtysix").status_line(view, lang)
    first = line.splitlines()[0]
    assert says(first, "sixtysix.status.deal_gone", lang, n=1), line
    assert "—" not in first, first


async def test_a_seat_that_left_is_said_to_have_left_once_in_the_alt_text(game_night) -> None:
    """Nine's alt text read "carol (left): 1 2 … 9 (= 45), Left;" (JA
    「carol（退出）：…（計45）、退出。」)."""
    for lang in LANGS:
        async with game_night(seeded=True, locales={"carol": lang}) as night:
            await night.settings(lang=lang)
            table = await night.table("nine", players=3)
            await table.ask(night.carol, "game leave")
            await night.settle()
            [picture] = table.attachments
            alt = picture["description"] if isinstance(picture, dict) else picture.description
            mark = t("table.seat_left", lang, player="carol")
            assert mark in alt, alt
            said = alt.lower().count(t("pic.forfeit", lang).lower())
            assert said == 1, alt  # the seat's mark alone


@pytest.mark.parametrize("lang", LANGS)
def test_the_result_legends_give_their_numbers_a_unit(lang) -> None:
    """ "a player who has lost 1 ends the match", "the first to 1 wins",
    "御祝儀 (gift): 5 from each player": a number without its unit."""
    bluff = plugin("bluff").result_legend({"options": {"losses": 1}}, lang)
    assert t("unit.life_lost", lang, count=1) in bluff, bluff
    sixtysix = plugin("sixtysix").result_legend({"options": {"target": 1}}, lang)
    assert t("unit.game_point", lang, count=1) in sixtysix, sixtysix
    assert t("unit.game_point", lang, count=7) in plugin("sixtysix").result_legend({}, lang)
    sixdice = plugin("sixdice").result_legend({"options": {}}, lang)
    chips = t("unit.chip", lang, count=5, signed="5")
    assert sixdice.count(chips) == 2, sixdice  # not started: 5 more; 御祝儀: 5 from each


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(
    ("game", "unit"),
    [
        ("yahtzee", "points"),
        ("nine", "sum"),
        ("sixdice", "points"),
        ("sixdice", "win_chance"),
        ("bluff", "lose_chance"),
        ("sixtysix", "game_points"),
    ],
)
def test_the_review_footer_gives_the_unit_once_and_three_plain_thresholds(game, unit, lang):
    """The Japanese footer put the unit on the last threshold alone:
    「…5以上なら悪手、最終得点の期待値12点以上なら大悪手です」 — a blunder
    read as an expected score of 12. Now the unit once, then three numbers
    (a chance's with its %)."""
    from bot.commands.review import footer
    from games.review import Review, grades

    rv = Review(game, unit, True, ())
    text = footer(rv, lang)
    got = reading(text, "review.footer", lang)
    assert got is not None, text
    assert got["unit"] == t(f"review.size.{game}.{unit}", lang)
    chance = unit.endswith("chance")
    names = ("inaccuracy", "mistake", "blunder")
    for name, value in zip(names, grades(game, unit).classes, strict=True):
        shown = 100 * value if chance else value
        assert got[name] == f"{shown:g}" + ("%" if chance else ""), (name, text)


def test_the_record_file_names_no_button_it_is_not_under() -> None:
    """The record file comes from the result's button and from /history's
    select, where no Replay button is: "The Replay button shows it"."""
    for lang, word in (("en", "button"), ("ja", "ボタン")):
        assert word not in catalogue(lang)["result.record_file"].lower()


def test_a_timeout_says_what_its_count_means() -> None:
    """ "alice ran out of time (1/3)": a bare fraction. It says what the 3 is."""
    for lang in LANGS:
        text = catalogue(lang)["ev.timeout"]
        assert not re.search(r"\{count\}/\{max\}", text), text


@pytest.mark.parametrize("lang", LANGS)
def test_a_bluff_mistake_is_named_by_the_tables_game_number(lang) -> None:
    """The table counts Bluff's games ("Game 3 begins: bob has the cup",
    「第3ゲーム開始」, the picture's "Bluff dice, Game 3"); the review said
    "Round 3" (「ラウンド3」), a word the table never shows."""
    moment = t("review.at.bluff.round", lang, round=3)
    assert moment in t("ev.bluff.start", lang, n=3, player="bob"), moment


def test_a_japanese_mistake_picture_draws_no_dash_the_font_turns_into_a_long_vowel() -> None:
    """The caption of a Yahtzee mistake read 「あなた：スリーカード ー 16」 (the
    font draws — as ー beside katakana; Six Dice's 「5 ー 50点」 too)."""
    import random

    from bot.commands.review import mistake_caption
    from games import yahtzee
    from games.core import SeededSource, record_of
    from games.review import positions, review

    state = yahtzee.new_game(["alice"], {}, "alice", SeededSource("dash"))
    rng = random.Random("dash")
    while not yahtzee.is_finished(state):
        moves = yahtzee.legal_moves(state, "alice")
        scores = [m for m in moves if m.startswith("score")]
        yahtzee.apply(state, "alice", rng.choice(scores or moves))  # a box at once: mistakes
    rec = record_of("yahtzee", state)
    rv = review(rec)
    shown = rv.of("alice").mistakes
    assert any(d.made.startswith("score") for d in shown)
    for n, d in enumerate(shown, start=1):
        view = yahtzee.view(positions(rec, d.index), "alice")
        title, lines, _, _ = mistake_caption(rv, rec, d, n, "ja", view)
        assert "—" not in title + "".join(lines), lines
        title, lines, _, _ = mistake_caption(rv, rec, d, n, "en", view)
        if d.made.startswith("score"):
            assert "—" in lines[0], lines  # English keeps its dash: "Three of a kind — 16"


def test_a_long_name_under_the_bluff_cup_stays_inside_the_picture() -> None:
    """「ながいなまえのプレイヤー・たなかたろう（東京支部）がカップを持つ」 ran past
    the picture's left edge (its first letter cut): the name is shortened so
    that the whole line fits."""
    from bot.render import bluff as render
    from games import bluff
    from games.core import SeededSource

    long = "ながいなまえのプレイヤー・たなかたろう（東京支部）"
    state = bluff.new_game(["alice", "bob"], {}, "alice", SeededSource("cup"))
    view = bluff.view(state, None) | {"display_names": {"alice": long, "bob": long}}
    assert view["holder"] == "alice"
    for lang in LANGS:
        img, _ = render.table(view, lang)
        # the holder's line, just inside the picture's 3-pixel frame
        band = img.crop((3, 280, 10, 310)).convert("RGB")
        background = img.convert("RGB").getpixel((5, 250))
        assert set(band.get_flattened_data()) == {background}, lang


def test_a_bad_house_option_is_refused_in_the_same_words_by_play_and_config() -> None:
    """/play said 「ハウスルールの指定が正しくありません：…」 and /config
    「そのハウスルールは使えません：…」 for the same options (the English
    said the same in both)."""
    for lang in LANGS:
        assert catalogue(lang)["config.bad_options"] == catalogue(lang)["error.bad_options"]


@pytest.mark.parametrize("lang", LANGS)
async def test_a_mistakes_moment_is_found_in_the_replay(game_night, lang) -> None:
    """alice's review names her mistake "Round 6"; the replay's select read
    only "Turn 11: alice", a count the review never says. Each turn of the
    replay now carries the moment as the review names it ("Turn 11: alice ·
    Round 6"), and jumping there shows the position of the mistake's picture."""
    async with game_night(seeded=True, locales={"alice": lang}) as night:
        table = await night.table("nine", players=2)
        await table.play_to_the_end()
        res = await table.press(t("result.btn.review"), by=night.alice)
        [line] = [x for x in readings(res.response.content, "review.mistake", lang)]
        moment = reading(line["when"], "review.at.nine.round", lang)
        assert moment is not None, line
        [picture] = res.response.attachments
        res = await table.press(t("result.btn.replay"), by=night.alice)
        viewer = night.reply(res, night.alice)
        at = t("replay.at.nine", lang, round=moment["round"])
        [option] = [
            o
            for o in viewer.selects[0]["options"]
            if says(o["label"], "replay.turn_at", lang, player="alice", at=at)
        ]
        res = await viewer.choose(option["value"])
        [shown] = res.response.attachments
        assert shown.description in picture.description, (shown.description, picture.description)


async def test_the_stats_card_says_no_best_it_does_not_have(game_night) -> None:
    """Nine keeps no best figure: the card's alt text read "Nine: games 2,
    wins 2, best —"."""
    async with game_night(seeded=True) as night:
        table = await night.table("nine", players=2)
        await table.play_to_the_end()
        res = await night.command(night.alice, "stats")
        [card] = res.response.attachments
        assert says(card.description, "pic.stats.alt_game_nobest", game=t("game.nine")), card
        assert "—" not in card.description, card.description
