"""Start-up without a token, the catalogues, option parsing, logging."""

from __future__ import annotations

import logging
import re
import string

import pytest
from simtable import exactly

from bot import __main__ as entry
from bot.i18n import catalogue, rule_error, t
from bot.model import engine_name, parse_options_text
from games.core import RuleError


def test_missing_token_exits_2_and_says_how_to_get_one(monkeypatch, tmp_path, capsys):
    monkeypatch.chdir(tmp_path)  # no .env here
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    assert entry.main([]) == 2
    err = capsys.readouterr().err
    assert "DISCORD_TOKEN" in err and "discord.com/developers/applications" in err


def test_a_token_never_reaches_the_log(capsys):
    entry.setup_logging("sekrit.token.value")
    try:
        logging.getLogger("x").warning("connecting with %s", "sekrit.token.value")
        err = capsys.readouterr().err
        assert "sekrit.token.value" not in err and "[redacted]" in err
    finally:
        logging.getLogger().handlers[:] = []


def _fields(text: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(text) if f}


def test_catalogues_have_the_same_keys_and_placeholders():
    # plural variants (.one/.other) are checked by test_catalogue_lint
    en = {k: v for k, v in catalogue("en").items() if not k.endswith((".one", ".other"))}
    ja = {k: v for k, v in catalogue("ja").items() if not k.endswith((".one", ".other"))}
    assert set(en) == set(ja)
    for key in en:
        assert _fields(en[key]) == _fields(ja[key]), key


def test_every_rule_error_key_of_the_public_games_is_translated():
    keys = set()
    for game in ("nine", "sixdice", "yahtzee"):
        from pathlib import Path

        for path in Path("games", game).glob("*.py"):
            keys |= set(
                re.findall(
                    r'"((?:move|game|option|nine|sixdice|yahtzee)\.[a-z_]+)"', path.read_text()
                )
            )
    missing = sorted(k for k in keys if "rule." + k not in catalogue("en"))
    assert not missing


def test_translations():
    not_your_turn = t("error.not_your_turn", "ja")
    assert exactly(not_your_turn, "error.not_your_turn", "ja")
    assert not exactly(not_your_turn, "error.not_your_turn", "en")  # really Japanese
    assert exactly(t("error.not_your_turn", "en-US"), "error.not_your_turn", "en")
    assert t("no.such.key", "ja") == "no.such.key"
    err = RuleError("nine.flip_sum", "the cards must add up to 7", total=7)
    assert exactly(rule_error(err, "ja"), "rule.nine.flip_sum", "ja", total=7)
    assert not exactly(rule_error(err, "ja"), "rule.nine.flip_sum", "en", total=7)
    assert rule_error(RuleError("x.unknown", "plain English"), "ja") == "plain English"


def test_option_text_and_names():
    assert parse_options_text("target=5000 start=500") == {"target": "5000", "start": "500"}
    assert parse_options_text(None) == {}
    with pytest.raises(RuleError):
        parse_options_text("=5")
    assert engine_name("  Ann  Lee ", set()) == "Ann_Lee"
    assert engine_name("", {"player"}) == "player_2"
