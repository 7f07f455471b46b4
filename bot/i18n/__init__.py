"""Every user-facing string, from the ``en`` and ``ja`` catalogues.

``t(key, locale, **args)`` looks the key up in the catalogue of ``locale``
(``"ja"``, ``"en-US"``, a :class:`discord.Locale` …), falls back to English,
then to the key itself, and fills ``{placeholders}``. :func:`rule_error`
translates a :class:`games.core.RuleError` (fallback: its English message).
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from typing import Any

from games.core import RuleError

LANGS = ("en", "ja")
DEFAULT = "en"
_DIR = Path(__file__).parent
_PLACEHOLDER = re.compile(r"\{(\w+)(?::[^}]*)?\}")


@cache
def catalogue(lang: str) -> dict[str, str]:
    """The catalogue of one language (``key → template``)."""
    with open(_DIR / f"{lang}.json", encoding="utf-8") as f:
        data: dict[str, str] = json.load(f)
    return data


def add_entries(lang: str, entries: dict[str, str]) -> None:
    """Add catalogue entries (a game that brings its own words)."""
    catalogue(lang).update(entries)


def remove_entries(lang: str, entries: dict[str, str]) -> None:
    """Take entries added with :func:`add_entries` away again."""
    for key in entries:
        catalogue(lang).pop(key, None)


def lang_of(locale: Any) -> str:
    """The catalogue language for a Discord locale (``"ja"`` → ja, else en).

    >>> lang_of("ja"), lang_of("en-US"), lang_of(None)
    ('ja', 'en', 'en')
    """
    if locale is None:
        return DEFAULT
    text = str(getattr(locale, "value", locale))
    base = text.split("-")[0].lower()
    return base if base in LANGS else DEFAULT


class _Missing:
    """A placeholder nobody filled: shown as ``{name}``, whatever its format."""

    def __init__(self, key: str) -> None:
        self.key = key

    def __format__(self, spec: str) -> str:
        return "{" + self.key + "}"


class _Args(dict[str, Any]):
    def __missing__(self, key: str) -> _Missing:
        return _Missing(key)


PLURAL_FORMS = ("one", "other")


def _template(key: str, lang: str, args: dict[str, Any]) -> str | None:
    """The template of ``key`` in ``lang``: the key itself, else its plural
    variant for ``args["count"]`` (``.one`` for 1 where the language has it,
    else ``.other``)."""
    found = catalogue(lang)
    if key in found:
        return found[key]
    if args.get("count") == 1 and key + ".one" in found:
        return found[key + ".one"]
    return found.get(key + ".other")


def has(key: str, locale: Any = DEFAULT) -> bool:
    """Whether ``key`` (or its plural variants) exists in the catalogue of
    ``locale`` (or English)."""
    args = {"count": 0}
    return _template(key, lang_of(locale), args) is not None or (
        _template(key, DEFAULT, args) is not None
    )


def t(key: str, locale: Any = DEFAULT, **args: Any) -> str:
    """The text of ``key`` in ``locale`` with ``args`` filled in.

    >>> t("error.not_your_turn", "en")
    'It is not your turn.'
    >>> t("unit.game", "en", count=1), t("unit.game", "en", count=2)
    ('1 game', '2 games')
    """
    lang = lang_of(locale)
    template = _template(key, lang, args) or _template(key, DEFAULT, args) or key
    try:
        return template.format_map(_Args(args))
    except (ValueError, TypeError, KeyError, IndexError):
        # a value of an unexpected type for its format: show it plainly
        return _PLACEHOLDER.sub(lambda m: str(args.get(m.group(1), m.group(0))), template)


def rule_error(err: RuleError, locale: Any = DEFAULT) -> str:
    """A rule break in the user's language; the English message if the
    catalogues do not know its key."""
    key = "rule." + err.key
    if has(key, locale):
        return t(key, locale, **err.args_)
    return err.message


def option_error(err: RuleError, options: Any, game: str, locale: Any = DEFAULT) -> str:
    """A house-option error that teaches: the syntax with an example of
    this game (``losses=3``), the options it knows, or that it has none.
    ``options``: the game's :class:`games.core.Option` list; ``game``: its
    name in words."""
    names = [o.name for o in options]
    if not names and err.key in ("option.unknown", "option.syntax", "option.bad_value"):
        return t("rule.option.none", locale, game=game)
    example = ""
    if names:
        first = options[0]
        value = first.default
        if isinstance(value, bool):
            shown = "off" if value else "on"
        else:
            shown = "off" if value is None else str(value)
        example = f"{first.name}={shown}"
    args = dict(err.args_)
    args.update(known=t("list.sep", locale).join(names), example=example, game=game)
    key = "rule." + err.key
    if has(key, locale):
        return t(key, locale, **args)
    return err.message
