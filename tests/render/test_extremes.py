"""Every renderer copes with the extremes: 8 (or 10) players, long and
Japanese names, emoji, negative scores, an empty talon, a 39-round Triple
sheet."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.pictures import Picture, hand_picture, result_picture, table_picture
from bot.render import _base
from bot.render import yahtzee as yahtzee_render
from games import core, registry

from .views import NAMES8, finished, play, sixdice_history


def _ok(pic: Picture) -> None:
    assert len(pic.png) <= 150 * 1024
    img = Image.open(io.BytesIO(pic.png))
    img.load()
    assert pic.alt


@pytest.mark.parametrize("game", ["nine", "sixdice", "yahtzee", "bluff"])
def test_eight_players_with_hard_names(game: str) -> None:
    e, s = play(game, NAMES8, 30, 7)
    for lang in ("en", "ja"):
        _ok(table_picture(e.view(s, None), lang=lang))
    e, s = finished(game, NAMES8, 8, {"target": 2000} if game == "sixdice" else None)
    _ok(table_picture(e.view(s, None)))
    _ok(result_picture(e.view(s, None), e.outcome(s), lang="ja"))


def test_bluff_ten_players() -> None:
    names = NAMES8 + ["イチロー", "Zoë"]
    e, s = play("bluff", names, 25, 3)
    _ok(table_picture(e.view(s, None), lang="ja"))


def test_sixdice_negative_scores() -> None:
    e = registry.engine("sixdice")
    # ブタ on the first roll of each turn: not started → −1000 each time
    s = e.new_game(["alice", "bob"], {}, "alice", core.ScriptedSource(dice=[2, 3, 4, 6, 2, 3] * 4))
    for p in ("alice", "bob", "alice", "bob"):
        e.apply(s, p, "roll")
    v = e.view(s, None)
    assert v["scores"]["alice"] < 0
    _ok(table_picture(v))
    _ok(
        result_picture(
            v, e.outcome(s), history=[{"alice": -1000, "bob": 0}, {"alice": -2000, "bob": -2000}]
        )
    )


def test_sixdice_result_chart_long_game() -> None:
    e, s, hist = sixdice_history(11, NAMES8, target=2000)
    _ok(result_picture(e.view(s, None), e.outcome(s), lang="en", history=hist))


def test_sixtysix_empty_talon_and_finished() -> None:
    e, s = finished("sixtysix", ["alice", "ぼぶ"], 4)
    _ok(table_picture(e.view(s, None)))
    _ok(result_picture(e.view(s, None), e.outcome(s)))


def test_sixtysix_empty_talon_drawn() -> None:
    """Play (never close) until the talon is drawn out, then draw the table."""
    import random

    e = registry.engine("sixtysix")
    s = e.new_game(["alice", "bob"], {}, "alice", core.SeededSource("talon"))
    r = random.Random(1)
    while True:
        v = e.view(s, None)
        if v["talon"] == 0 and not v["closed"]:
            break
        p = e.to_move(s)[0]
        moves = [m for m in e.legal_moves(s, p) if m.startswith(("play", "draw"))]
        assert moves, "the talon was not drawn out"
        e.apply(s, p, r.choice(moves))
    assert v["trump_card"] is None
    _ok(table_picture(v))
    _ok(hand_picture(e.view(s, "bob")))


def test_triple_yahtzee_39_rounds() -> None:
    e, s = finished("yahtzee", NAMES8[:3], 5, {"triple": True})
    v = e.view(s, None)
    assert v["finished"]
    _ok(table_picture(v, lang="ja"))
    _ok(result_picture(v, e.outcome(s), history=[dict.fromkeys(v["players"], 0), v["totals"]]))


@pytest.mark.parametrize("n", [4, 8])
def test_triple_yahtzee_many_players_stays_640_wide(n: int) -> None:
    """More than three players in Triple: the sheet is split into bands of
    three players under one another instead of growing wider."""
    e, s = play("yahtzee", NAMES8[:n], 60, n, {"triple": True})
    pic = table_picture(e.view(s, None))
    _ok(pic)
    width, height = Image.open(io.BytesIO(pic.png)).size
    assert width == 640
    rows = 20  # names, ×1…×3, 6 upper, subtotal, bonus, 7 lower, Yahtzee bonus, total, grand total
    assert height == yahtzee_render.HEADER + -(-n // 3) * (yahtzee_render.ROW * rows + 16)


def test_characters_the_font_lacks_are_dropped_cleanly() -> None:
    """Without the emoji font, emoji go, with their joiners, selectors and
    skin tones, and the spaces they leave are folded: never a missing-glyph
    box (with it they are drawn: tests/render/test_emoji.py)."""
    with _base.emoji(False):
        _dropped_cleanly()


def _dropped_cleanly() -> None:
    assert _base.safe_text("a😀b") == "ab"
    assert _base.safe_text("👨‍👩‍👧x") == "x"
    assert _base.safe_text("🎲 Dice King 🎲") == "Dice King"
    assert _base.safe_text("d😀👍🏽 e") == "d e"
    assert _base.safe_text("たろう") == "たろう"
    assert _base.safe_text("a\tb") == "a b"
    assert _base.name("😀😀", 20, 100) == _base.NO_NAME  # nothing drawable left
    assert "…" in _base.name("x" * 200, 20, 100)


@pytest.mark.parametrize("roll_number", [1, 2])  # odd: ションベン, even: グッチョン
def test_sixdice_bowl_mishaps(roll_number: int) -> None:
    e = registry.engine("sixdice")
    dice = [1, 1, 5, 2, 3, 4] + [1, 5, 2, 3, 4, 6] * 2
    src = core.ScriptedSource(dice=dice, mishaps=[roll_number])
    s = e.new_game(["alice", "bob"], {"bowl_mishaps": True}, "alice", src)
    e.apply(s, "alice", "roll")
    if roll_number == 2:
        e.apply(s, "alice", "take 1")
        e.apply(s, "alice", "roll")
    v = e.view(s, None)
    assert v["last_roll"]["result"] in ("shonben", "gucchon")
    _ok(table_picture(v, lang="ja"))
    _ok(table_picture(v, lang="en"))


def test_sixdice_names_run_up_to_their_score(monkeypatch) -> None:
    """A name in the Six Dice score list may run up to its score: a
    computer's "CPU1（普通）" was cut to "CPU1（普…" at a fixed 112 px."""
    e, s = play("sixdice", ["alice", "CPU1"], 0, 7)
    view = dict(e.view(s, None), display_names={"alice": "alice", "CPU1": "CPU1（普通）"})
    drawn: list[str] = []
    draw_text = _base.draw_text
    monkeypatch.setattr(
        _base,
        "draw_text",
        lambda d, xy, text, *a, **k: (drawn.append(text), draw_text(d, xy, text, *a, **k)),
    )
    _ok(table_picture(view, lang="ja"))
    assert "CPU1（普通）" in drawn, drawn
