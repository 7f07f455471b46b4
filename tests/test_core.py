from __future__ import annotations

import doctest
import json
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import games.core as core
from games.core import (
    Option,
    Record,
    RecordError,
    RuleError,
    ScriptedSource,
    SeededSource,
    Source,
    parse_options,
    seed_hash,
)


def test_doctests() -> None:
    result = doctest.testmod(core)
    assert result.failed == 0 and result.attempted > 0


def test_options_accept_json_and_strings() -> None:
    specs = [Option("flag", "bool", False), Option("n", "int", 3, minimum=1),
             Option("mode", "choice", "a", choices=("a", "b")),
             Option("games", "int", None, minimum=1, optional=True)]
    assert parse_options(specs, {}) == {"flag": False, "n": 3, "mode": "a", "games": None}
    got = parse_options(specs, {"flag": "on", "n": "7", "mode": "b", "games": 2})
    assert got == {"flag": True, "n": 7, "mode": "b", "games": 2}
    assert parse_options(specs, {"games": "off"})["games"] is None


@pytest.mark.parametrize("raw", [{"flag": 1}, {"n": 0}, {"n": "x"}, {"n": True},
                                 {"mode": "c"}, {"bogus": 1}])
def test_bad_option_raises(raw: dict) -> None:
    specs = [Option("flag", "bool", False), Option("n", "int", 3, minimum=1),
             Option("mode", "choice", "a", choices=("a", "b"))]
    with pytest.raises(RuleError) as err:
        parse_options(specs, raw)
    assert err.value.key in ("option.unknown", "option.bad_value")


def test_scripted_source_runs_out() -> None:
    src = ScriptedSource(dice=[1, 2])
    with pytest.raises(RuleError):
        src.roll(3)


def test_seeded_source_is_fixed_by_seed_and_restores() -> None:
    a, b = SeededSource("s1"), SeededSource("s1")
    assert a.roll(20) == b.roll(20)
    assert a.deck() == b.deck()
    assert sorted(a.deck()) == sorted(core.CARDS)
    a.randbelow(7)
    a.mishap()
    c = Source.from_json(json.loads(json.dumps(a.to_json())))
    assert c.roll(10) == a.roll(10)
    assert c.deck() == a.deck()
    assert c.dice_log == a.dice_log


@given(
    draws=st.lists(
        st.tuples(st.sampled_from(["roll", "deck", "mishap", "below"]), st.integers(1, 65536)),
        max_size=40,
    ),
    seed=st.text(min_size=1, max_size=8),
)
@settings(max_examples=60, deadline=None)
def test_a_saved_seeded_source_seeks_where_replaying_its_draws_would_be(draws, seed) -> None:
    """A state loads its dice stream from the saved position ("at") instead
    of drawing every earlier number again; both ways give the same source,
    and a state saved before "at" existed still loads by replaying."""
    a = SeededSource(seed)
    for what, n in draws:
        if what == "roll":
            a.roll(1 + n % 6)
        elif what == "deck":
            a.deck()
        elif what == "mishap":
            a.mishap()
        else:
            a.randbelow(n)
    doc = json.loads(json.dumps(a.to_json()))
    old = {k: v for k, v in doc.items() if k != "at"}
    sought, replayed = Source.from_json(doc), Source.from_json(old)
    assert sought.to_json() == replayed.to_json() == doc
    for draw in (lambda s: s.roll(7), lambda s: s.deck(), lambda s: s.randbelow(65000), lambda s: s.mishap()):
        expected = draw(a)  # what the source would have drawn next
        assert draw(sought) == expected
        assert draw(replayed) == expected


def test_seeded_dice_are_uniform_enough() -> None:
    faces = SeededSource("uniform").roll(60000)
    counts = [faces.count(f) for f in range(1, 7)]
    assert all(9400 < c < 10600 for c in counts), counts


from games.registry import read_record  # noqa: E402


def test_record_validation() -> None:
    with pytest.raises(RecordError):
        read_record({"game": "chess", "players": ["a"]})
    with pytest.raises(RecordError):
        Record.from_json({"game": "nine", "players": ["a b"]})
    with pytest.raises(RecordError):
        Record.from_json({"game": "nine", "players": ["a"], "dealer": "z"})
    with pytest.raises(RecordError):
        Record.from_json({"game": "nine", "players": ["a"], "dice": [7]})
    rec = Record.from_json({"game": "nine", "players": ["a"], "dealer": "a", "dice": [1, 2]})
    assert rec.to_json()["dice"] == [1, 2]


def _cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "games", *args], capture_output=True,
                          text=True, input=stdin)


def test_verify_cli_matches_seeded_source() -> None:
    seed = "abc123"
    out = _cli("verify", seed, seed_hash(seed), "--count", "12")
    assert out.returncode == 0
    doc = json.loads(out.stdout)
    assert doc["match"] is True and doc["dice"] == SeededSource(seed).roll(12)
    bad = _cli("verify", seed, "0" * 64)
    assert bad.returncode == 1 and json.loads(bad.stdout)["match"] is False


def test_replay_cli_bad_json_is_one_line(tmp_path) -> None:
    f = tmp_path / "r.json"
    f.write_text("{not json")
    out = _cli("replay", str(f))
    assert out.returncode == 2
    assert out.stderr.startswith("bad record:") and out.stderr.count("\n") == 1
    f.write_text(json.dumps({"game": "go", "players": ["a"]}))
    out = _cli("replay", str(f))
    assert out.returncode == 2 and "unknown game" in out.stderr and "Traceback" not in out.stderr
