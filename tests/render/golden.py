"""Golden images: render the fixed cases of ``views.golden_cases``.

Regenerate after an intended visual change (then LOOK at every PNG):

    /work/venv/bin/python -m tests.render.regen
"""

from __future__ import annotations

from pathlib import Path

from bot.pictures import (
    Picture,
    board_picture,
    forget_pictures,
    hand_picture,
    result_picture,
    stats_picture,
    table_picture,
)
from bot.render import _base, bracket, tournament

from .views import golden_cases

GOLDEN = Path(__file__).parent / "golden"


def render_case(name: str) -> Picture:
    """The case's picture. Emoji are drawn only in the ``*emoji*`` cases
    (where the emoji font is installed: bot.render._base.EMOJI); the others
    drop them, so they look the same on every machine. Drawn as the first
    picture after a start — no palette kept, no picture kept — whatever was
    drawn before in the process (by regen, or by other tests in an order
    pytest-xdist varies): a kind's palette kept from earlier pictures
    shifts the colours a little."""
    _base.forget_palettes()
    forget_pictures()
    with _base.emoji("emoji" in name):
        return _render(name)


def _render(name: str) -> Picture:
    kind, view, outcome, history = golden_cases()[name]
    lang = "ja" if name.endswith(("_result", "_reveal", "_ja")) else "en"
    if kind == "stats":
        return stats_picture(view, lang=lang)
    if kind == "board":
        return board_picture(view, lang=lang)
    if kind == "standings":
        return tournament.standings_picture(**view, lang=lang)
    if kind == "bracket":
        return bracket.bracket_picture(**view, lang=lang)
    if kind == "table":
        return table_picture(view, lang=lang)
    if kind == "hand":
        return hand_picture(view, lang=lang)
    assert outcome is not None
    return result_picture(view, outcome, lang=lang, history=history)
