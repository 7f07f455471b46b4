"""The words drawn in result pictures (issue 33's tour): a Japanese picture
draws no dash beside katakana (the font's — is the long vowel's bar:
「ヤッツィー — 結果」 read 「ヤッツィーー結果」); an English picture names the
seeds' terms as the English text does — the term with its gloss (ドボン
(dobon), 上がり (agari), 御祝儀 (gift), docs/i18n.md) — never "Dobon",
"Shut!" or a 御祝儀 left unexplained."""

from __future__ import annotations

import copy
import re
from typing import Any

import pytest

from bot.games import plugin
from bot.i18n import t
from bot.pictures import forget_pictures, result_picture
from bot.render import _base

from .views import golden_cases

# the glossary of docs/i18n.md, read again: a seed term → its English gloss
GLOSS = {"ドボン": "dobon", "上がり": "agari", "御祝儀": "gift"}
STAND_INS = re.compile(r"\bDobon\b|\bShut!|\bAgari\b")
# a dash the font draws as ー, next to katakana (a space between or not)
DASH_BY_KATAKANA = re.compile(r"[\u30a1-\u30fa\u30fc] ?[—―]|[—―] ?[\u30a1-\u30fa\u30fc]")


def drawn(monkeypatch: pytest.MonkeyPatch, draw: Any) -> list[str]:
    """Every string ``draw()`` puts on a picture (bot.render._base.draw_text)."""
    texts: list[str] = []
    real = _base.draw_text

    def spy(d: Any, xy: Any, text: str, *args: Any, **kwargs: Any) -> None:
        texts.append(text)
        real(d, xy, text, *args, **kwargs)

    monkeypatch.setattr(_base, "draw_text", spy)
    _base.forget_palettes()
    forget_pictures()
    draw()
    monkeypatch.undo()
    return texts


def result_cases(lang: str) -> dict[str, tuple[dict[str, Any], dict[str, Any], Any]]:
    cases = {
        name: (view, outcome, history)
        for name, (kind, view, outcome, history) in golden_cases().items()
        if kind == "result" and not (name.endswith("_en") and name[:-3] in golden_cases())
    }
    # a Six Dice result with a 御祝儀 (six of a kind) for its roller
    view, outcome, history = cases["sixdice_result"]
    gifted = copy.deepcopy(view)
    gifted["gifts"] = {gifted["players"][0]: 1}
    cases["sixdice_gift_result"] = (gifted, outcome, history)
    return cases


@pytest.mark.parametrize("name", sorted(result_cases("ja")))
def test_no_dash_beside_katakana_in_a_japanese_result(monkeypatch, name):
    view, outcome, history = result_cases("ja")[name]
    texts = drawn(
        monkeypatch, lambda: result_picture(view, outcome, lang="ja", history=history)
    )
    found = [s for s in texts if DASH_BY_KATAKANA.search(s)]
    assert not found, found


@pytest.mark.parametrize("name", sorted(result_cases("en")))
def test_an_english_result_glosses_the_seed_terms(monkeypatch, name):
    view, outcome, history = result_cases("en")[name]
    pic: list[Any] = []
    texts = drawn(
        monkeypatch,
        lambda: pic.append(result_picture(view, outcome, lang="en", history=history)),
    )
    words = " ".join(texts)  # a gloss wrapped to the next line is still beside its term
    for said in (words, pic[0].alt):
        assert not STAND_INS.search(said), said
        for term, gloss in GLOSS.items():
            for m in re.finditer(term, said):
                assert said[m.end() :].startswith(f" ({gloss})"), (term, said)


def test_the_cases_hold_every_term():
    """The English cases above draw each term at least once (so the rule
    was looked at): ドボン and 上がり in Nine's, 御祝儀 in Six Dice's."""
    seen = ""
    for view, outcome, history in result_cases("en").values():
        seen += result_picture(view, outcome, lang="en", history=history).alt
    for term in GLOSS:
        assert term in seen, term


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_stats_card_says_a_one_game_rating_without_a_trend(lang):
    """The issue's "at the first of the last 1 rated games": after one rated
    game there is no "first of the last" to speak of; after several the
    card says where the rating stood after the first of them."""
    from bot.pictures import stats_picture
    from bot.ratings import display

    from .stats_views import card

    one = dict(card(), trend=[12.5])
    alt = stats_picture(one, lang=lang).alt
    assert not re.search(r"\b1 rated games\b|last 1\b|直近1ゲーム", alt), alt
    several = card()
    alt = stats_picture(several, lang=lang).alt
    first, n = display(several["trend"][0]), len(several["trend"])
    assert f"{first}" in alt and str(n) in alt, alt


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_six_dice_stamp_in_words_names_whose_roll_first(lang):
    """The alt text of a ドボン stamp: "alice: ドボン (dobon).", never the
    gloss's brackets and the roller's side by side ("ドボン (dobon) (alice)")."""
    from bot.pictures import table_picture

    from .views import sixdice_dobon

    e, s = sixdice_dobon(["alice", "bob"])
    view = e.view(s, None)
    alt = table_picture(view, lang=lang).alt
    assert not re.search(r"\) ?\(|）（", alt), alt
    roller = view["last_roll"]["player"]
    sep = "：" if lang == "ja" else ": "
    assert f"{roller}{sep}{t('pic.dobon', lang)}" in alt, alt


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_turned_up_trump_card_is_named_as_such(lang):
    """Sixty-Six's alt text: "Trump: spades. Turned-up trump card: J of
    spades." (「めくり札」), not "Trump: spades. Trump J of spades."."""
    from bot.pictures import table_picture
    from bot.render.sixtysix import card_words

    kind, view, _o, _h = golden_cases()["sixtysix_table"]
    alt = table_picture(view, lang=lang).alt
    card = card_words(view["trump_card"], lang)
    assert t("pic.trump_card", lang, card=card) in alt, alt


def test_an_english_alt_text_ends_its_list_with_a_full_stop():
    """"alice: 0 lives lost; Bob Smith: 2 lives lost;" ended the alt text,
    or ran on into the legend's sentence; a list ends with a full stop."""
    from .golden import render_case

    for name, (kind, view, _outcome, _history) in golden_cases().items():
        lang = "ja" if name.endswith(("_result", "_reveal", "_ja")) else "en"
        if lang == "ja" or kind in ("standings", "bracket"):
            continue  # the tournament pictures are another helper's (tournament_views.py)
        alt = render_case(name).alt
        assert not alt.rstrip().endswith(";"), (name, alt)
        if kind == "result":
            legend = plugin(view["game"]).result_legend(view, "en")
            assert legend and f". {legend}" in alt, (name, alt)


@pytest.mark.parametrize(
    ("scores", "settlement", "places"),
    [
        # seen in the sandbox: CPU2 won on 1,400; alice (100) and CPU1 (400)
        # both pay 1 chip, so the words say "2." for both — the picture said
        # 2 and 3. Places follow the settlement, as the words and ratings do.
        ({"a": 100, "b": 400, "c": 1400}, {"a": -1, "b": -1, "c": 2}, {"c": 1, "b": 2, "a": 2}),
        # a 御祝儀 leaves a loser more chips than the winner: the winner stays first
        ({"a": 900, "b": 400, "c": 1400}, {"a": 9, "b": -7, "c": -2}, {"c": 1, "a": 2, "b": 3}),
    ],
)
def test_six_dice_result_places_are_the_words_places(scores, settlement, places):
    from bot.render.result import ranks

    view = {"players": ["a", "b", "c"], "started": {p: True for p in scores}}
    outcome = {"winner": "c", "scores": scores, "settlement": settlement}
    rows = plugin("sixdice").result_rows(view, outcome)
    assert rows[0][0] == "c"
    got = dict(zip([r[0] for r in rows], ranks(rows, ["c"]), strict=True))
    assert got == places, (rows, got)
