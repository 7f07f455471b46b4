"""Every user-facing string, from the ``en`` and ``ja`` catalogues.

``t(key, locale, **args)`` looks the key up in the catalogue of ``locale``
(``"ja"``, ``"en-US"``, a :class:`discord.Locale` …), falls back to English,
then to the key itself, and fills ``{placeholders}``. :func:`rule_error`
translates a :class:`games.core.RuleError` (fallback: its English message).
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path
from typing import Any

from bot import caches
from games.core import RuleError

LANGS = ("en", "ja")
DEFAULT = "en"
_DIR = Path(__file__).parent
_PLACEHOLDER = re.compile(r"\{(\w+)(?::[^}]*)?\}")
_COMMAND = re.compile(r"\{(cmd|opt)\[([^\]]+)\]\}")  # {cmd[game end]}, {opt[play options]}


@lru_cache(maxsize=8)  # the languages shipped (2): ~0.5 MB each, parsed
def catalogue(lang: str) -> dict[str, str]:
    """The catalogue of one language (``key → template``)."""
    with open(_DIR / f"{lang}.json", encoding="utf-8") as f:
        data: dict[str, str] = json.load(f)
    return data


caches.lru("i18n.catalogues", catalogue)


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
    if locale.__class__ is str and locale in LANGS:  # the common case, first
        return str(locale)
    text = str(getattr(locale, "value", locale))
    base = text.split("-")[0].lower()
    return base if base in LANGS else DEFAULT


class _Missing:
    """A placeholder nobody filled: shown as ``{name}``, whatever its format."""

    def __init__(self, key: str) -> None:
        self.key = key

    def __format__(self, spec: str) -> str:
        return "{" + self.key + "}"


# The slash commands' ids as Discord gave them when this process synced the
# tree (``remember_commands``): a reply can then mention a command so that a
# click fills it in.
COMMAND_IDS: dict[str, int] = {}


def remember_commands(synced: Any) -> None:
    """Keep the ids of the synced top-level commands (``tree.sync()``'s
    :class:`discord.app_commands.AppCommand` list)."""
    COMMAND_IDS.clear()
    for command_ in synced or ():
        if getattr(command_, "id", None):
            COMMAND_IDS[str(command_.name)] = int(command_.id)


def command(path: str, locale: Any = DEFAULT) -> str:
    """The slash command ``path`` (``"game end"``) as the reader's language
    names it: its ``cmd.<path>.name`` words, ``/ゲーム 終了`` in Japanese.

    Discord makes ``</game end:ID>`` a clickable mention but shows it with
    the words before the colon, and a mention with a localized name does
    nothing when clicked (discord-api-docs #5518, #5632): a reader whose
    language names the command as the code does (English) gets the
    clickable mention once the id is known, the others the command's name
    in their language as code.

    >>> command("game end", "ja") == "`/" + t("cmd.game.name", "ja") + " " + t("cmd.game.end.name", "ja") + "`"
    True
    """
    lang = lang_of(locale)
    parts = path.split()
    words = []
    for i, part in enumerate(parts):
        key = "cmd." + ".".join(parts[: i + 1]) + ".name"
        words.append(t(key, lang) if has(key, lang) else part)
    cid = COMMAND_IDS.get(parts[0]) if parts else None
    if cid and words == parts:
        return f"</{path}:{cid}>"
    return "`/" + " ".join(words) + "`"


_WIDE = re.compile(r"[\u2e80-\u9fff\uff00-\uffef]")  # CJK and full-width


def sentences(*parts: str) -> str:
    """Sentences one after another, as their language writes them: a space
    after an English one, none after a Japanese one (「…です。出目：3 4。」).

    >>> sentences("Round 1/13.", "Dice: 3 4."), sentences("ラウンド1/13。", "出目：3 4。")
    ('Round 1/13. Dice: 3 4.', 'ラウンド1/13。出目：3 4。')
    """
    out = ""
    for part in parts:
        if not part:
            continue
        if out and not _WIDE.match(out[-1]):
            out += " "
        out += part
    return out


def linked(key: str, locale: Any, url: str, **args: Any) -> str:
    """A Markdown link ``[label](url)`` whose label is the catalogue text of
    ``key`` (``link.table``: "Nine table", 「ナインの卓」) instead of a bare URL;
    Discord shows bots' masked links as their label.

    >>> linked("link.table", "en", "https://discord.com/channels/1/2/3", game="Nine")
    '[Nine table](https://discord.com/channels/1/2/3)'
    """
    label = t(key, locale, **args).replace("[", "(").replace("]", ")")
    return f"[{label}]({url})"


class _Commands:
    """``{cmd[game end]}`` in a template: :func:`command` in its language."""

    def __init__(self, lang: str) -> None:
        self.lang = lang

    def __getitem__(self, path: str) -> str:
        return command(path, self.lang)


def fill_names(template: str, locale: Any = DEFAULT) -> str:
    """``template`` with its command and option names (``{cmd[game end]}``,
    ``{opt[play options]}``) filled in as ``locale`` names them, its other
    placeholders left as they are.

    >>> fill_names("{cmd[play]} {player}", "ja") == command("play", "ja") + " {player}"
    True
    """
    lang = lang_of(locale)
    names = {"cmd": _Commands(lang), "opt": _Options(lang)}
    return _COMMAND.sub(lambda m: names[m.group(1)][m.group(2)], template)


class _Options:
    """``{opt[play options]}`` in a template: the option ``options`` of
    ``/play`` as the reader's client names it, as code (`ハウスルール`)."""

    def __init__(self, lang: str) -> None:
        self.lang = lang

    def __getitem__(self, path: str) -> str:
        key = "cmd." + ".".join(path.split()) + ".name"
        name = t(key, self.lang) if has(key, self.lang) else path.split()[-1]
        return f"`{name}`"


class _Args(dict[str, Any]):
    def __init__(self, args: dict[str, Any], lang: str = DEFAULT) -> None:
        super().__init__(args)
        self.lang = lang

    def __missing__(self, key: str) -> Any:
        if key == "cmd":
            return _Commands(self.lang)
        if key == "opt":
            return _Options(self.lang)
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
    if "{" not in template and "}" not in template:
        return template  # nothing to fill in
    try:
        return template.format_map(_Args(args, lang))
    except (ValueError, TypeError, KeyError, IndexError):
        # a value of an unexpected type for its format: show it plainly
        template = fill_names(template, lang)
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
    example = _example(options[0]) if names else ""
    args = dict(err.args_)
    key = "rule." + err.key
    named = next((o for o in options if o.name == args.get("option")), None)
    if err.key == "option.bad_value" and named is not None and named.kind != "bool":
        if str(args.get("value", "")).lower() == "on":
            # a bare name ("losses 2"): the value is missing, not wrong
            key, example = "rule.option.needs_value", _example(named)
    shown = str(args.get("option", ""))
    if len(shown) > 20:  # an unknown name is echoed short: the answer stays readable
        args["option"] = shown[:19].rstrip("…") + "…"
    known = t("list.sep", locale).join(f"`{n}`" for n in names)  # what to type, as code
    args.update(known=known, example=example, game=game)
    if has(key, locale):
        return t(key, locale, **args)
    return err.message


def _example(option: Any) -> str:
    """``name=value`` for one house option (its default, or ``off``/``on``
    against it): ``losses=3``."""
    value = option.default
    if isinstance(value, bool):
        shown = "off" if value else "on"
    else:
        shown = "off" if value is None else str(value)
    return f"{option.name}={shown}"
