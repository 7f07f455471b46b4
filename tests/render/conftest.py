"""Fixtures of the render tests."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from typing import Any

import pytest
from PIL import ImageDraw

from bot.render import _base


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Every string drawn with Pillow while the test runs (sprite and text
    caches emptied first, so nothing is drawn from an earlier test's cache)."""
    for name, module in list(sys.modules.items()):
        if name.startswith("bot.render"):
            for value in vars(module).values():
                clear = getattr(value, "cache_clear", None)
                if callable(clear) and value is not _base.font:
                    clear()
    seen: list[str] = []
    original = ImageDraw.ImageDraw.text

    def text(self: ImageDraw.ImageDraw, xy: Any, text: Any, *args: Any, **kwargs: Any) -> Any:
        seen.append(str(text))
        return original(self, xy, text, *args, **kwargs)

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", text)
    yield seen
