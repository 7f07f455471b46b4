"""Bounded house options (tracker: "Bound what users can ask for").

Every integer option of every game has a documented minimum and maximum
(docs/rules/<game>.md "House option limits"); a value's text is refused
before it is converted when it is absurdly long; and an answer about bad
options stays far below Discord's 2,000 characters whatever the user typed.
"""

from __future__ import annotations

import pytest

from bot.i18n import option_error, t
from bot.model import parse_options_text
from games import registry
from games.core import ECHO_LIMIT, INT_DIGITS, Option, RuleError, parse_options

N = Option("n", "int", 3, minimum=1, maximum=10)
DISCORD_LIMIT = 2000


def bad(option: Option, value: object) -> RuleError:
    with pytest.raises(RuleError) as err:
        option.coerce(value)
    assert err.value.key == "option.bad_value"
    return err.value


@pytest.mark.parametrize("game", registry.names())
def test_every_integer_option_has_both_bounds(game: str) -> None:
    for option in registry.engine(game).OPTIONS:
        if option.kind == "int":
            assert option.minimum is not None and option.maximum is not None, option.name
            assert option.minimum <= option.maximum
            if option.default is not None:
                assert option.minimum <= option.default <= option.maximum


def test_a_3000_digit_value_is_refused_cleanly() -> None:
    err = bad(N, "9" * 3000)
    assert len(err.args_["value"]) == ECHO_LIMIT and err.args_["value"].endswith("…")
    assert len(str(err)) < 100
    # longer than Python's int() digit limit (4300): still the same clean refusal
    bad(N, "1" * 5000)
    bad(N, "-" + "1" * 5000)


def test_digit_strings_up_to_the_limit_are_read() -> None:
    big = Option("big", "int", 0, minimum=0, maximum=10**INT_DIGITS)
    assert big.coerce("9" * INT_DIGITS) == 10**INT_DIGITS - 1
    bad(big, "1" + "0" * INT_DIGITS)


def test_huge_integers_from_records_are_refused_and_shown_short() -> None:
    free = Option("free", "int", 0)  # no bounds of its own: still a 64-bit value
    assert free.coerce(2**63 - 1) == 2**63 - 1
    bad(free, 2**63)
    bad(free, -(2**63))
    err = bad(N, 10**5000)  # str() of it would raise in Python 3.11
    assert err.args_["value"] == "≈10^5000"
    assert bad(N, [10**5000]).args_["value"] == "list"


@pytest.mark.parametrize("text", ["--5", "²", "5-", "+5", "", " ", "1e3", "0x10", "½"])
def test_only_plain_decimal_digits_are_numbers(text: str) -> None:
    bad(N, text)


def test_full_width_digits_are_numbers() -> None:
    assert N.coerce("５") == 5 and N.coerce(" １０ ") == 10  # as a Japanese keyboard types them


def test_echoed_words_are_clipped() -> None:
    word = "w" * 500
    with pytest.raises(RuleError) as err:
        parse_options([N], {word: "1"})
    assert err.value.key == "option.unknown"
    assert err.value.args_["option"] == "w" * (ECHO_LIMIT - 1) + "…"
    with pytest.raises(RuleError) as err:
        parse_options_text(word[:199] + "=")
    assert err.value.key == "option.syntax"
    assert len(err.value.args_["word"]) == ECHO_LIMIT
    assert len(str(err.value)) < 100


def test_option_text_is_limited() -> None:
    assert parse_options_text("target=5000 " + " " * 300) == {"target": "5000"}
    parse_options_text("a" * 200)
    with pytest.raises(RuleError) as err:
        parse_options_text("a" * 201)
    assert err.value.key == "option.too_long" and err.value.args_ == {"limit": 200}


def test_every_option_of_a_game_fits_the_text_limit() -> None:
    for game in registry.names():
        words = []
        for o in registry.engine(game).OPTIONS:
            if o.kind == "int":
                value = f"-{o.maximum}"
            else:
                value = max(o.choices, key=len) if o.kind == "choice" else "false"
            words.append(f"{o.name}={value}")
        assert len(" ".join(words)) <= 150, game


def worst_inputs() -> list[str]:
    long_word = "x" * 200
    return [
        long_word,  # option.unknown
        long_word[:-1] + "=",  # option.syntax
        "target=" + "9" * 193,  # option.bad_value (too many digits)
        "kinds=" + "ニ" * 194,  # option.bad_value (a choice), wide characters
        "ニ" * 200,  # option.unknown, wide characters
        "9" * 3000,  # option.too_long
        "target=" + "9" * 3000,
    ]


@pytest.mark.parametrize("locale", ["en", "ja"])
@pytest.mark.parametrize("game", registry.names())
def test_answers_about_bad_options_stay_short(game: str, locale: str) -> None:
    specs = registry.engine(game).OPTIONS
    for text in worst_inputs():
        with pytest.raises(RuleError) as err:
            parse_options(specs, parse_options_text(text))
        # as the bot answers: the known options and an example named
        reason = option_error(err.value, specs, t(f"game.{game}", locale), locale)
        for key in ("error.bad_options", "config.bad_options"):
            answer = t(key, locale, reason=reason)
            assert "{" not in answer
            assert len(answer) < 200 < DISCORD_LIMIT, answer
