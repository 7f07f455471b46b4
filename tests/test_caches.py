"""Every cache of the bot is bounded by size (docs/operations.md, "Memory").

Each test drives a cache with a workload that would grow it past its
bound and weighs what is left by its own measure — the pictures still alive
(weak references: nothing but a cache keeps them), the bytes and keys of the
kept pictures, the mapped pieces of the palettes — never by the cache's own
count. And the docs' table names every cache the code registers."""

from __future__ import annotations

import asyncio
import gc
import os
import re
import subprocess
import sys
import weakref
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

ROOT = Path(__file__).resolve().parents[1]
MB = 1 << 20


def alive_bytes(refs: list[weakref.ref[Image.Image]]) -> tuple[int, int]:
    """How many of the pictures are still alive, and their pixels' bytes."""
    gc.collect()
    alive = [r() for r in refs]
    kept = [img for img in alive if img is not None]
    return len(kept), sum(img.width * img.height * len(img.getbands()) for img in kept)


def drawn_many(fn: Any, calls: list[tuple[Any, ...]], pick: Any = lambda got: got) -> list[Any]:
    refs = []
    for args in calls:
        refs.append(weakref.ref(pick(fn(*args))))
    return refs


def test_nine_keeps_no_row_of_cards_but_its_mapped_piece(monkeypatch: pytest.MonkeyPatch) -> None:
    """A Nine row (9 cards, 70 KB in full colour) is not kept: 512 of them
    weighed 9 MB. On the kind's palette its mapped piece is found by what
    the row shows, so a row drawn before is not drawn again."""
    import random

    from bot import pictures
    from bot.render import _base, nine
    from games import core, registry

    made: list[weakref.ref[Image.Image]] = []
    row = nine.cards_row

    def counted(up: tuple[bool, ...]) -> Image.Image:
        got = row(up)
        made.append(weakref.ref(got))
        return got

    monkeypatch.setattr(nine, "cards_row", counted)
    e = registry.engine("nine")
    views = []
    for seed in range(6):
        s = e.new_game(["a", "b", "c"], {}, "a", core.SeededSource(f"rows-{seed}"))
        r = random.Random(seed)
        while not e.is_finished(s):
            p = e.to_move(s)[0]
            e.apply(s, p, r.choice(e.legal_moves(s, p)))
            views.append(e.view(s, None))
    _base.forget_palettes()
    pictures.forget_pictures()
    for view in views:
        pictures.table_picture(view)
    drawn = len(made)
    assert drawn > 20 and alive_bytes(made)[0] == 0  # rows drawn, none kept
    assert _base._kept_palettes.get("nine-table") is not None  # drawn on the kept palette
    pictures.forget_pictures()
    for view in views[-30:]:  # the same rows on the same palette: their pieces
        pictures.table_picture(view)
    assert len(made) == drawn


def test_dice_sprites_stay_within_their_bytes() -> None:
    from bot.render import _dice

    _dice.die.cache_clear()
    calls = [(face, 80, "normal", angle) for face in range(1, 7) for angle in range(0, 360, 3)]
    n, held = alive_bytes(drawn_many(_dice.die, calls))
    assert 0 < n < len(calls) and held <= 4 * MB, (n, held)


def test_text_masks_stay_within_their_bytes() -> None:
    from bot.render import _text

    _text._text_mask.cache_clear()
    calls = [(f"Player number {k} of the night", 28, "la", 0) for k in range(3000)]
    n, held = alive_bytes(drawn_many(_text._text_mask, calls, lambda got: got[0]))
    assert 0 < n < len(calls) and held <= 4 * MB, (n, held)


def test_card_faces_stay_within_their_bytes() -> None:
    from bot.render import _cards

    _cards.face.cache_clear()
    cards = [r + s for r in "9TJQKA" for s in "CDHS"]
    calls = [(card, width) for card in cards for width in range(60, 120, 6)]
    n, held = alive_bytes(drawn_many(_cards.face, calls))
    assert 0 < n < len(calls) and held <= 5 * MB, (n, held)


def test_six_dice_layers_stay_within_their_bytes() -> None:
    from bot.render import sixdice

    sixdice._background.cache_clear()
    sixdice._stamp_layer.cache_clear()
    n, held = alive_bytes(drawn_many(sixdice._background, [(h,) for h in range(400, 720, 40)]))
    assert 0 < n and held <= 6 * MB, (n, held)
    calls = [(f"WORD{k}", (200, 30, 30), "p", False) for k in range(40)]
    n, held = alive_bytes(drawn_many(sixdice._stamp_layer, calls))
    assert 0 < n < len(calls) and held <= 3 * MB, (n, held)


def test_kept_pictures_stay_within_their_bytes() -> None:
    from bot import pictures

    pictures.forget_pictures()
    for k in range(200):
        png = bytes([k % 251]) * (100 << 10)  # 100 KB each
        pictures._kept_or_drawn(["table", {"n": k}, "en"], lambda png=png: pictures.Picture(png, "alt", "t.png"))
    kept = list(pictures._kept.items())
    weight = sum(len(key) + (len(p.png) if p else 0) for key, p in kept)
    assert 0 < len(kept) < 200 and weight <= 2 * MB, (len(kept), weight)
    pictures.forget_pictures()


def test_palette_pieces_stay_within_their_bytes_in_all() -> None:
    from bot.render import _palette

    sample = Image.new("RGB", (60, 40), (30, 90, 50))
    saved = dict(_palette._kept_palettes)
    try:
        for k in range(15):  # every kind's palette, each given 3 MB of pieces
            _palette.encode(Image.new("RGB", (300, 200), (30 + k, 90, 50)), kind=f"kind{k}-table")
            pal = _palette._kept_palettes[f"kind{k}-table"]
            for j in range(30):
                pal.keep_piece(("t", k, j), (sample, sample, sample, 100 << 10, None))
        weight = sum(
            sum(piece[3] for piece in pal.pieces.values())
            for pal in _palette._kept_palettes.values()
        )
        assert weight <= 8 * MB, weight
    finally:
        _palette._kept_palettes.clear()
        _palette._kept_palettes.update(saved)


def test_server_settings_kept_are_bounded(tmp_path: Path) -> None:
    from bot.storage import open_store

    async def run() -> int:
        store = open_store(tmp_path / "s.sqlite3")
        await store.open()
        try:
            for guild in range(5000):
                await store.settings.guild_setting(guild, "clock")
            return len(store.settings._settings)
        finally:
            await store.close()

    kept = asyncio.run(run())
    assert 0 < kept <= 4096, kept


def test_table_locks_are_dropped_once_free(tmp_path: Path) -> None:
    from bot.storage import open_store
    from bot.tables.service import TableService

    async def run() -> int:
        store = open_store(tmp_path / "l.sqlite3")
        await store.open()
        try:
            service = TableService(store)
            for table_id in range(1, 500):
                async with service.lock(table_id):
                    pass
            return len(service._locks)
        finally:
            await store.close()

    assert asyncio.run(run()) == 0


def registered_names() -> set[str]:
    """The caches' names as the code registers them (read from the source)."""
    names: set[str] = set()
    pattern = re.compile(r"caches\.(?:budget|sized|lru)\(\s*\"([a-z_.]+)\"")
    for path in (ROOT / "bot").rglob("*.py"):
        names |= set(pattern.findall(path.read_text()))
    return names


def documented_names() -> set[str]:
    text = (ROOT / "docs" / "operations.md").read_text()
    section = text.split("## Memory", 1)[1].split("\n## ", 1)[0]
    return set(re.findall(r"^\| `([a-z_.]+)` \|", section, re.M))


def test_every_cache_is_in_the_docs_budget() -> None:
    names = registered_names()
    assert len(names) >= 20
    assert names == documented_names()


@pytest.mark.parametrize("module", ["bot.render.nine", "bot.render.sixdice", "bot.render.yahtzee",
                                    "bot.render.bluff", "bot.render._cards", "bot.pictures"])  # fmt: skip
def test_registered_caches_report_within_bounds(module: str) -> None:
    import importlib

    from bot import caches

    importlib.import_module(module)
    for name, got in caches.report().items():
        assert got["bytes" if got["unit"] == "bytes" else "entries"] <= got["bound"], name


def test_removed_tables_leave_no_parsed_state(tmp_path: Path) -> None:
    import time

    from bot.storage import open_store
    from games import registry
    from games.core import SeededSource

    async def run() -> int:
        store = open_store(tmp_path / "t.sqlite3")
        await store.open()
        try:
            engine = registry.engine("nine")
            for k in range(40):  # games played and ended, one after another
                row = await store.tables.create_table(
                    guild_id=1, channel_id=100 + k, game="nine", host_id=1,
                    seats=[{"id": 1, "name": "a"}, {"id": 2, "name": "b"}], options={}, now=time.time(),
                )  # fmt: skip
                assert row is not None
                row.phase = "playing"
                row.state = engine.to_json(engine.new_game(["a", "b"], None, None, SeededSource(str(k))))
                assert await store.tables.save_table(row, now=time.time())
                loaded = await store.tables.get_table(row.id)
                assert loaded is not None and await store.tables.delete_table(loaded, now=time.time())
            return len(store.tables._states)
        finally:
            await store.close()

    assert asyncio.run(run()) == 0


NO_NUMPY = """
import random, sys
import bot.app  # everything the bot imports at start
from bot import pictures
from games import core, registry

for name in registry.builtin_names():
    registry.spec(name).warm_up_key({})  # a computer joining a lobby asks for it
    e = registry.engine(name)
    players = ["alice", "bob"] + (["carol"] if name != "sixtysix" else [])
    s = e.new_game(players, {}, players[0], core.SeededSource("numpy"))
    r = random.Random(1)
    while not e.is_finished(s):
        p = e.to_move(s)[0]
        e.apply(s, p, r.choice(e.legal_moves(s, p)))
        # each press: the table and the player's hand (drawn on the kept palette from the second)
        assert pictures.table_picture(e.view(s, None)) is not None
        pictures.hand_picture(e.view(s, players[0]))
    pictures.result_picture(e.view(s, None), e.outcome(s))
print(sorted(m for m in sys.modules if m.split(".")[0] == "numpy")[:3])
"""


def test_the_bot_plays_and_draws_without_numpy() -> None:
    """numpy costs ~14 MB of RSS once imported (docs "Memory"): the bot's
    process imports it for no table picture, hand, result or warm-up key —
    only the AI workers' and reviews' tables need it."""
    got = subprocess.run(
        [sys.executable, "-c", NO_NUMPY],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert got.returncode == 0, got.stderr[-3000:]
    assert got.stdout.strip() == "[]", got.stdout
