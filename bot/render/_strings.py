"""The few words the pictures and their alt texts need: the ``pic.*`` keys
of the bot's catalogues (``bot/i18n/en.json``, ``ja.json``)."""

from __future__ import annotations

from typing import Any

from bot.i18n import DEFAULT, catalogue, lang_of


def tr(lang: str, key: str, **args: Any) -> str:
    """The string ``key`` in ``lang`` (English when unknown), formatted."""
    text = catalogue(lang_of(lang)).get("pic." + key) or catalogue(DEFAULT)["pic." + key]
    return text.format(**args) if args else text


def alt(parts: list[str], lang: str) -> str:
    """Alt text from sentences, within Discord's 1024-character limit."""
    sep = "" if lang == "ja" else " "
    text = sep.join(p for p in parts if p)
    return text if len(text) <= 1000 else text[:999] + "…"
