"""Languages: the catalogues, slash command translations, each user's own
language in a played game, and no user-facing text outside the catalogues."""

from __future__ import annotations

import ast
import importlib
import pkgutil
import re
import string
import sys
from pathlib import Path

from discord import Locale
from discord.app_commands import locale_str
from discord.ext import commands
from simtable import privately, says

import bot.commands as bot_commands
from bot.app import create_bot
from bot.i18n import catalogue, t
from bot.i18n.translator import Translator
from bot.storage import Store
from bot.turns import first_turn_seconds
from games.core import CARDS

BOT = Path(__file__).resolve().parents[2] / "bot"
DECKS = [list(CARDS)] * 4


def placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_every_key_in_both_catalogues_with_the_same_placeholders():
    """Plural variants (``.one``/``.other``) count as their key: Japanese
    writes only ``.other`` (tests/bot/test_catalogue_lint.py checks them)."""
    en = {k: v for k, v in catalogue("en").items() if not k.endswith((".one", ".other"))}
    ja = {k: v for k, v in catalogue("ja").items() if not k.endswith((".one", ".other"))}
    assert set(en) == set(ja), sorted(set(en) ^ set(ja))
    for key in en:
        assert en[key].strip() and ja[key].strip(), key
        assert placeholders(en[key]) == placeholders(ja[key]), key


def test_the_seed_terms_are_in_japanese_in_both_catalogues():
    for lang in ("en", "ja"):
        text = "\n".join(catalogue(lang).values())
        for term in (
            "ドボン",
            "ブタ",
            "振りきり",
            "上がり",
            "ゾロ目",
            "勝利宣言",
            "御祝儀",
            "ニコニコ",
        ):
            assert term in text, (lang, term)


def command_cogs(bot):
    """One of each cog in bot.commands (every module's own Cog classes)."""
    found = []
    for info in pkgutil.iter_modules(bot_commands.__path__):
        module = importlib.import_module(f"bot.commands.{info.name}")
        for value in vars(module).values():
            if (
                isinstance(value, type)
                and issubclass(value, commands.Cog)
                and value.__module__ == module.__name__
            ):
                found.append(value(bot))
    assert len(found) >= 6, found
    return found


async def test_every_slash_command_option_and_choice_is_translated(tmp_path):
    bot = create_bot(Store(tmp_path / "db.sqlite3"), sync_commands=False)
    translator = Translator()
    en = catalogue("en")
    seen = 0

    def check(payload, key):
        nonlocal seen
        assert payload["name"] == en[f"{key}.name"], key
        assert payload["description"] == en[f"{key}.desc"], key
        assert payload["description"] != "…", key  # the picker shows words, not "…"
        assert payload["name_localizations"]["ja"] == t(f"{key}.name", "ja"), key
        assert payload["description_localizations"]["ja"] == t(f"{key}.desc", "ja"), key
        name = payload["name_localizations"]["ja"]
        assert re.fullmatch(r"[-_\w]{1,32}", name) and name == name.lower(), name
        seen += 1
        for option in payload.get("options", []):
            if option["type"] in (1, 2):  # a subcommand (group)
                check(option, f"{key}.{option['name']}")
                continue
            check(option, f"{key}.{option['name']}")
            for choice in option.get("choices", []):
                assert "ja" in choice.get("name_localizations", {}), choice

    for cog in command_cogs(bot):
        for command in cog.get_app_commands():
            payload = await command.get_translated_payload(bot.tree, translator)
            check(payload, f"cmd.{command.name}")
    assert seen >= 30  # 10 commands and subcommands, 20 options
    # English locales keep the English of the code
    assert await translator.translate(locale_str("play"), Locale.american_english, None) is None


async def test_a_japanese_and_an_english_player_each_get_their_language(game_night):
    async with game_night(decks=DECKS, aux=[1], locales={"alice": "ja", "bob": "en-GB"}) as night:
        table = await night.table("sixtysix")  # on an English server
        alice, bob = night.alice, night.bob
        assert table.shows("table.title", game="Sixty-Six")  # public: the server's language
        # private messages: each player's own language
        assert any(says(m.content, "private.header", "ja") for m in night.dms(alice))
        assert any(says(m.content, "private.header") for m in night.dms(bob))
        assert not any(says(m.content, "private.header", "ja") for m in night.dms(bob))
        # ephemeral answers: the presser's language
        for watcher, locale, lang in ((night.carol, "ja", "ja"), (night.dave, "en-US", "en")):
            night.speaks(watcher, locale)
            res = await table.press("Show my hand", by=watcher)
            assert privately(res, "private.no_hand", lang)
        text = await table.ask(alice, "game status")
        assert says(text, "status.playing", "ja")
        assert not says(text, "status.playing") and not says(text, "table.turn")
        assert says(await table.ask(bob, "game status"), "status.playing")
        # the turn clock plays for the player to move; then bob leaves (a forfeit)
        await night.wait(first_turn_seconds(120) + 5)  # the leader's first turn
        assert table.shows("ev.timeout", count=1)
        await table.command(bob, "game leave")
        assert table.shows("result.title", game="Sixty-Six")
        assert any(says(m.content, "sixtysix.private.over", "ja") for m in night.dms(alice))
        assert any(says(m.content, "sixtysix.private.over") for m in night.dms(bob))
        # a Japanese server: public messages in Japanese for everybody
        japanese = night.server("日本", locale="ja")
        res = await japanese.command(japanese.bob, "play", game="nine")
        assert says(res.response.content, "lobby.title", "ja")
        assert not says(res.response.content, "lobby.hint")
        assert not says(res.response.content, "lobby.btn.join")


# ---------------------------------------------------------------- no literals

# Calls whose text reaches a user, and which of their arguments are text.
TEXT_ARGS: dict[str, tuple[tuple[int, ...], tuple[str, ...]]] = {
    "send_message": ((0,), ("content",)),
    "send": ((0,), ("content",)),
    "edit_message": ((), ("content",)),
    "edit": ((), ("content",)),
    "TableMessage": ((0,), ("content",)),
    "PrivateMessage": ((0,), ("content",)),
    "Button": ((1,), ("label",)),
    "Select": ((1,), ("placeholder",)),
    "SelectOption": ((0,), ("label", "description")),
    "Embed": ((), ("title", "description")),
    "add_field": ((), ("name", "value")),
    "set_footer": ((), ("text",)),
    "say": ((1,), ()),
}
# Calls whose string arguments are catalogue keys, not text.
KEY_CALLS = {"t", "rule_error", "has", "lookup"}
WORDS = re.compile(r"[A-Za-z]{2,}|[\u3040-\u30ff\u4e00-\u9fff]")
# Documented exceptions: none needed today. Add "path:line" with a reason.
ALLOWLIST: dict[str, str] = {}


def _literals(node: ast.AST) -> list[ast.Constant]:
    out: list[ast.Constant] = []
    if isinstance(node, ast.Call):
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        if name in KEY_CALLS:
            return out
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node]
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.FormattedValue):  # a format spec is no text
            out += _literals(child.value)
        else:
            out += _literals(child)
    return out


def user_facing_literals() -> list[str]:
    found = []
    for path in sorted(BOT.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if name not in TEXT_ARGS:
                continue
            positions, keywords = TEXT_ARGS[name]
            args = [a for i, a in enumerate(node.args) if i in positions]
            args += [k.value for k in node.keywords if k.arg in keywords]
            for arg in args:
                for lit in _literals(arg):
                    if WORDS.search(lit.value):
                        where = f"{path.relative_to(BOT.parent)}:{lit.lineno}"
                        if where not in ALLOWLIST:
                            found.append(f"{where} {lit.value!r}")
    return found


def test_no_user_facing_literal_text_outside_the_catalogues():
    assert user_facing_literals() == []


def test_the_literal_check_finds_literal_text(tmp_path, monkeypatch):
    """The check above can fail: a literal reply is found."""
    sample = tmp_path / "bot"
    sample.mkdir()
    (sample / "x.py").write_text(
        "async def f(i):\n"
        "    await i.response.send_message('Hello there', ephemeral=True)\n"
        "    await i.response.send_message(t('ok.done', 'en'))\n"
        "    Button('m:roll', f'Roll {n} dice')\n"
    )
    monkeypatch.setattr(sys.modules[__name__], "BOT", sample)
    found = user_facing_literals()
    assert len(found) == 3, found
    assert any("'Hello there'" in f for f in found) and any("'Roll '" in f for f in found)
