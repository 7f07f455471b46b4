"""Dispatch from a view's game name to its renderer (placeholder renderers for now)."""

from __future__ import annotations

import io
import json
from typing import Any

from PIL import Image, ImageDraw

from bot.render import Picture


def _text_picture(title: str, lines: list[str], filename: str, alt: str) -> Picture:
    img = Image.new("RGB", (800, 40 + 22 * len(lines)), (40, 44, 52))
    d = ImageDraw.Draw(img)
    d.text((12, 8), title, fill=(255, 255, 255), font_size=18)
    for i, line in enumerate(lines):
        d.text((12, 34 + 22 * i), line[:110], fill=(220, 220, 220), font_size=14)
    buf = io.BytesIO()
    img.save(buf, "PNG")
    return Picture(buf.getvalue(), alt, filename)


def _lines(doc: dict[str, Any]) -> list[str]:
    return [f"{k}: {json.dumps(v, ensure_ascii=False)}" for k, v in doc.items()]


def table(view: dict[str, Any], lang: str) -> Picture:
    game = str(view.get("game", "game"))
    return _text_picture(game, _lines(view), f"{game}-table.png", f"{game} table")


def hand(view: dict[str, Any], lang: str) -> Picture:
    game = str(view.get("game", "game"))
    return _text_picture(game, _lines(view), f"{game}-hand.png", f"{game} hand")


def result(
    view: dict[str, Any], outcome: dict[str, Any], lang: str, history: list[dict[str, int]] | None
) -> Picture:
    game = str(view.get("game", "game"))
    return _text_picture(game, _lines(outcome), f"{game}-result.png", f"{game} result")
