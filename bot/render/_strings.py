"""The few words the pictures and their alt texts need: the ``pic.*`` keys
of the bot's catalogues (``bot/i18n/en.json``, ``ja.json``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.i18n import t
from bot.render import _base as b


def tr(lang: str, key: str, **args: Any) -> str:
    """The picture word ``pic.<key>`` in ``lang`` (English when unknown),
    formatted; a number ``n`` also picks the plural form (``pic.to_roll.one``
    for 1 where the language has one)."""
    if "n" in args:
        args.setdefault("count", args["n"])
    return t("pic." + key, lang, **args)


def comma(lang: str) -> str:
    """The list separator of ``lang`` (、 in Japanese)."""
    return "、" if lang == "ja" else ", "


def colon(lang: str) -> str:
    """A label's colon in ``lang`` (full-width in Japanese)."""
    return "：" if lang == "ja" else ": "


def alt(parts: list[str], lang: str) -> str:
    """Alt text from sentences, within Discord's 1024-character limit. In
    English a list of items ("alice: 3;", "bob: 5;") ends with a full stop
    ("bob: 5."), before the next sentence or at the end, not with ";"."""
    sep = "" if lang == "ja" else " "
    parts = [p for p in parts if p]
    if lang != "ja":
        ends = [i + 1 == len(parts) or not parts[i + 1].endswith(";") for i in range(len(parts))]
        parts = [
            p[:-1] + "." if p.endswith(";") and end else p
            for p, end in zip(parts, ends, strict=True)
        ]
    text = sep.join(parts)
    return text if len(text) <= 1000 else text[:999] + "…"


def seat_mark(view: Mapping[str, Any], player: str, lang: str) -> str:
    """The " (left)" / "（退出）" after the name of a seat out of the game
    (``view["seat_marks"]``, engine name → ``"left"`` or ``"removed"``,
    given by the bot), else ""."""
    mark = (view.get("seat_marks") or {}).get(player)
    if not mark:
        return ""
    return ("" if lang == "ja" else " ") + tr(lang, f"seat_{mark}")


def marked_name(view: Mapping[str, Any], player: str, lang: str, size: int, width: int) -> str:
    """The player's name shortened to ``width`` px with its seat mark kept
    whole ("Caroline Sm… (left)")."""
    mark = seat_mark(view, player, lang)
    room = width - (b.text_width(mark, size) if mark else 0)
    return b.name(b.who(view, player), size, max(room, size)) + mark
