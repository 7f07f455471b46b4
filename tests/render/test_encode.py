"""Pictures cost less CPU (issue 25): a table or hand picture whose view did
not change is not drawn again, and a kind of picture keeps its PNG palette
while it fits — the same pixels to the eye as a palette of its own."""

from __future__ import annotations

import io

import numpy as np
from PIL import Image

from bot import pictures
from bot.games import plugin
from bot.render import _base

from .views import bench_views, golden_cases, play


def _rgb(png: bytes) -> np.ndarray:
    return np.asarray(Image.open(io.BytesIO(png)).convert("RGB"), dtype=np.int16)


def test_an_unchanged_view_is_not_drawn_again(monkeypatch):
    drawn: list[str | None] = []
    draw = _base.drawn

    def counted(kind, render):
        drawn.append(kind)
        return draw(kind, render)

    monkeypatch.setattr(_base, "drawn", counted)
    pictures.forget_pictures()
    view = bench_views()["bluff"]
    first = pictures.table_picture(view)
    again = pictures.table_picture(dict(view))  # an equal view, another object
    assert first is not None and again == first and drawn == ["bluff-table"]
    pictures.table_picture(view, lang="ja")  # another language: drawn
    pictures.table_picture(view, names={"alice": "Alice Liddell"})  # other names: drawn
    assert drawn == ["bluff-table"] * 3
    _kind, hand, _outcome, _history = golden_cases()["sixtysix_hand"]
    pictures.hand_picture(hand)
    pictures.hand_picture(hand)
    assert drawn == ["bluff-table"] * 3 + ["sixtysix-hand"]
    pictures.forget_pictures()
    pictures.table_picture(view)
    assert len(drawn) == 5


def test_a_kind_keeps_its_palette_while_it_fits(monkeypatch):
    found = []
    palette_of = _base.palette_of

    def counted(sample, colours=160):
        found.append(sample.size)
        return palette_of(sample, colours)

    monkeypatch.setattr(_base, "palette_of", counted)
    _base.forget_palettes()
    views = []
    for moves in (12, 15, 18, 21):  # a game going on: the same table, move after move
        e, s = play("nine", ["alice", "bob", "carol"], moves, 1)
        views.append(e.view(s, None))

    imgs = [plugin("nine").table_image(v, "en")[0] for v in views]
    for img in imgs:
        kept = _base.encode(img, kind="test-nine")
        own = _base.encode(img)  # a palette of its own
        a, b, raw = _rgb(kept), _rgb(own), np.asarray(img, dtype=np.int16)
        # as close to the drawing as its own palette, to the eye the same
        assert np.abs(a - raw).max(axis=2).mean() <= np.abs(b - raw).max(axis=2).mean() + 0.3
        assert (np.abs(a - b).max(axis=2) > 40).mean() < 0.002
        assert len(kept) <= 150 * 1024
    kept_found = len(found) - len(imgs)  # each own palette is found once
    assert kept_found < len(imgs), found  # at least one picture kept the palette
    # a picture unlike the kind's others gets a palette of its own, kept next
    other = plugin("sixdice").table_image(bench_views()["sixdice"], "en")[0]
    before = len(found)
    _base.encode(other, kind="test-nine")
    _base.encode(other, kind="test-nine")
    assert len(found) == before + 1
