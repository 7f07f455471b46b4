"""No picture asks the shipped font for a character it cannot draw (issue 18:
"□_Dice_King_□'s turn", Bluff's "1 ☒"): every string any renderer hands to
Pillow, in English and Japanese, with emoji and underscored engine names at
the table, is made of characters the font has.

"Has" is checked twice, independently: the font's own cmap table (read by
``bot.render._base``) and Pillow/FreeType itself — a character the font
lacks renders as the ``.notdef`` box, so its glyph must differ from that
box. No font library is added: Pillow is enough for both checks.
"""

from __future__ import annotations

from functools import cache

import pytest

from bot import pictures
from bot.i18n import t
from bot.render import _base
from games import core, registry

from .golden import render_case
from .views import NAMES8, finished, golden_cases, play, sixdice_dobon, sixtysix_marriage

NOTDEF_PROBE = "\U0010fffd"  # a private-use code point no font maps
# Engine names with underscores and emoji, and the display names the bot
# passes for them
HARD = ["alice", "🎲_Dice_King_🎲", "Bob_Smith", "山田_花子"]
DISPLAY = {
    "🎲_Dice_King_🎲": "🎲 Dice King 🎲",
    "Bob_Smith": "Bob Smith 👍🏽",
    "山田_花子": "山田 花子",
}


@cache
def _glyph(ch: str) -> bytes:
    mask = _base.font(40).getmask(ch)
    return bytes(mask) + repr(mask.size).encode()


def missing(text: str) -> set[str]:
    """The characters of ``text`` the shipped font cannot draw."""
    out = set()
    for ch in set(text):
        if ch in (" ", "\n"):
            continue
        if ord(ch) not in _base.COVERED or _glyph(ch) == _glyph(NOTDEF_PROBE):
            out.add(ch)
    return out


def test_the_check_tells_a_missing_glyph() -> None:
    """Not vacuous: the marks and emoji the issue saw are caught."""
    assert missing("1 ✕") == {"✕"}
    assert missing("□_Dice_King_□") == set()  # □ itself is in the font…
    assert missing("🎲 Dice King 🎲") == {"🎲"}  # …the emoji are not
    assert missing("1 ☒ ⚀") == {"☒", "⚀"}
    assert missing("ぼぶ太郎の番 ♠♥♦♣ × … → ・") == set()


def _every_picture(lang: str) -> None:
    """Tables, hands and results of every game in ``lang`` with hard names."""
    for name in golden_cases():
        render_case(name)
    for game in ("nine", "sixdice", "yahtzee", "bluff"):
        players = HARD if game != "bluff" else HARD + NAMES8[1:3]
        for seed, steps in ((1, 9), (7, 30)):
            e, s = play(game, players, steps, seed)
            pictures.table_picture(e.view(s, None), lang=lang, names=DISPLAY)
        e, s = finished(game, players, 3, {"target": 1500} if game == "sixdice" else None)
        pictures.table_picture(e.view(s, None), lang=lang, names=DISPLAY)
        history = [dict.fromkeys(players, 0), {p: 10 * k for k, p in enumerate(players)}]
        pictures.result_picture(
            e.view(s, None), e.outcome(s), lang=lang, names=DISPLAY, history=history
        )
    two = HARD[1:3]
    e, s = play("sixtysix", two, 9, 5, prefer=("play", "draw", "marry"))
    pictures.table_picture(e.view(s, None), lang=lang, names=DISPLAY)
    pictures.hand_picture(e.view(s, two[0]), lang=lang, names=DISPLAY)
    e, s = play("sixtysix", two, 3, 2, prefer=("close",))
    pictures.table_picture(e.view(s, None), lang=lang, names=DISPLAY)
    e, s = finished("sixtysix", two, 4)
    pictures.result_picture(e.view(s, None), e.outcome(s), lang=lang, names=DISPLAY)
    e, s = sixtysix_marriage()
    pictures.table_picture(e.view(s, None), lang=lang, names=DISPLAY)
    e, s = sixdice_dobon(HARD[:2])
    pictures.table_picture(e.view(s, None), lang=lang, names=DISPLAY)
    e, s = play("bluff", HARD, 11, 2)
    pictures.table_picture(e.view(s, None), lang=lang, names=DISPLAY)
    pictures.hand_picture(e.view(s, HARD[1]), lang=lang, names=DISPLAY)
    e, s = play("yahtzee", HARD[:3], 5, 5, {"triple": True})
    pictures.table_picture(e.view(s, None), lang=lang, names=DISPLAY)
    # Six Dice's bowl mishaps and stamps (ブタ, 振りきり)
    eng = registry.engine("sixdice")
    dice = [1, 1, 5, 2, 3, 4] + [1, 5, 2, 3, 4, 6] * 2
    s = eng.new_game(
        HARD[:2], {"bowl_mishaps": True}, HARD[0], core.ScriptedSource(dice=dice, mishaps=[1])
    )
    eng.apply(s, HARD[0], "roll")
    pictures.table_picture(eng.view(s, None), lang=lang, names=DISPLAY)
    s = eng.new_game(HARD[:2], {}, HARD[0], core.ScriptedSource(dice=[2, 3, 4, 6, 2, 3] * 2))
    eng.apply(s, HARD[0], "roll")
    pictures.table_picture(eng.view(s, None), lang=lang, names=DISPLAY)
    s = eng.new_game(HARD[:2], {}, HARD[0], core.ScriptedSource(dice=[1, 1, 1, 5, 5, 5] * 3))
    eng.apply(s, HARD[0], "roll")
    eng.apply(s, HARD[0], "take 1 1 1 5 5 5")
    pictures.table_picture(eng.view(s, None), lang=lang, names=DISPLAY)
    # the /rules example of every game, with its catalogue names
    for game in registry.builtin_names():
        state = registry.example_state(game, t("rules.example.players", lang).split())
        pictures.table_picture(registry.engine(game).view(state, None), lang=lang)


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_no_character_outside_the_font_is_drawn(drawn: list[str], lang: str) -> None:
    _every_picture(lang)
    assert len(drawn) > 300  # each text is drawn once, then cached
    text = "".join(drawn)
    assert "ぼぶ太郎" in text and "Dice King" in text and "Bob Smith" in text
    if lang == "ja":
        assert "の番" in text
    # a run of emoji is drawn with the colour emoji font, where it is installed
    emoji = {s for s in drawn if _base.EMOJI and all(_base._is_emoji(ch) for ch in s)}
    bad = {s: sorted(missing(s)) for s in set(drawn) - emoji if missing(s)}
    assert not bad, bad
    assert not [s for s in drawn if "□" in s]  # no stand-in box for what was left out
    # people by their display names, never the underscored engine names
    assert not any(n in s for s in drawn for n in ("Bob_Smith", "山田_花子", "Dice_King"))
