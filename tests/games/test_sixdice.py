"""Six Dice (docs/rules/sixdice.md): one test per rule, plus the recorded games."""

from __future__ import annotations

import json
import pathlib
import subprocess
import sys
from typing import Any

import pytest

import games.sixdice as sd
from games.core import Record, RuleError, ScriptedSource, SeededSource, dumps, record_of
from games.registry import replay

RECORDS = pathlib.Path(__file__).resolve().parents[1] / "records" / "sixdice"
ROOT = pathlib.Path(__file__).resolve().parents[2]

# Rolls that score nothing: six dice (ブタ) and five dice (ドボン).
BUTA = [2, 3, 4, 6, 2, 3]
DOBON5 = [2, 3, 4, 6, 6]


def game(
    dice: list[int],
    players: tuple[str, ...] = ("a", "b"),
    mishaps: tuple[int, ...] = (),
    **options: Any,
) -> sd.State:
    return sd.new_game(list(players), options, players[0], ScriptedSource(dice, mishaps=mishaps))


def play(state: sd.State, *moves: str) -> list[Any]:
    events: list[Any] = []
    for text in moves:
        player, move = text.split(" ", 1)
        events += sd.apply(state, player, move)
    return events


def kinds(events: list[Any]) -> list[str]:
    return [e.kind for e in events]


def refused(state: sd.State, player: str, move: str) -> str:
    before = dumps(sd.to_json(state))
    with pytest.raises(RuleError) as err:
        sd.apply(state, player, move)
    assert dumps(sd.to_json(state)) == before
    return err.value.key


# A quick ドボン turn: take the 5, then five dice score nothing.
QUICK_DOBON = [5, 2, 3, 4, 6, 6, *DOBON5]


def quick_dobon(player: str) -> tuple[str, str, str]:
    return (f"{player} roll", f"{player} take 5", f"{player} roll")


# --------------------------------------------------------------------------
# Scoring


def test_scoring_table() -> None:
    s = sd.score_dice
    assert s([1], {}) == 100 and s([5], {}) == 50
    assert [s([f] * 3, {}) for f in range(1, 7)] == [1000, 200, 300, 400, 500, 600]
    assert s([2], {}) is None and s([1, 2], {}) is None and s([], {}) is None


def test_four_fives_score_1000_with_doubling() -> None:
    assert sd.score_dice([5, 5, 5, 5], {}) == 1000  # not 500 + 50
    assert sd.score_dice([3, 3, 3, 3], {}) == 600
    assert sd.score_dice([3] * 5, {}) == 1200
    assert sd.score_dice([3] * 6, {}) == 2400
    assert sd.score_dice([1] * 6, {}) == 8000


def test_kinds_additive() -> None:
    opts = {"kinds": "additive"}
    assert [sd.score_dice([4] * n, opts) for n in (3, 4, 5, 6)] == [400, 800, 1200, 1600]
    assert sd.score_dice([5] * 5, opts) == 1500


def test_nikoniko_three_pairs() -> None:
    assert sd.score_dice([2, 2, 3, 3, 6, 6], {}) == 2000
    assert sd.score_dice([1, 1, 5, 5, 6, 6], {}) == 2000  # better than 300 from 1s and 5s
    assert sd.score_dice([2, 2, 2, 2, 6, 6], {}) is None  # 4+2 is not ニコニコ by default


def test_four_and_pair_is_nikoniko_option() -> None:
    opts = {"four_and_pair_is_nikoniko": True}
    assert sd.score_dice([2, 2, 2, 2, 6, 6], opts) == 2000
    assert sd.score_dice([1, 1, 1, 1, 5, 5], opts) == 2100  # the best partition still wins
    assert sd.score_dice([3] * 6, opts) == 2400  # six equal faces are six of a kind


def test_straight_value_option() -> None:
    assert sd.score_dice([1, 2, 3, 4, 5, 6], {}) == 3000
    assert sd.score_dice([6, 5, 4, 3, 2, 1], {"straight": 1500}) == 1500


def test_take_only_the_1_and_5_of_a_straight() -> None:
    g = game([1, 2, 3, 4, 5, 6])
    play(g, "a roll")
    takes = sd.legal_moves(g, "a")
    assert takes == ["take 1", "take 5", "take 1 5", "take 1 2 3 4 5 6"]


def test_legal_takes_list_every_scoring_multiset() -> None:
    g = game([2, 1, 5, 2, 1, 2])
    play(g, "a roll")
    takes = sd.legal_moves(g, "a")
    expected = {
        "take 1", "take 5", "take 1 1", "take 1 5", "take 1 1 5", "take 2 2 2",
        "take 1 2 2 2", "take 2 2 2 5", "take 1 1 2 2 2", "take 1 2 2 2 5",
        "take 1 1 2 2 2 5",
    }
    assert set(takes) == expected and len(takes) == len(expected)
    assert all(sd.canonical(t) == t for t in takes)


def test_take_is_canonical_values_ascending() -> None:
    g = game([5, 1, 5, 2, 3, 4, 2, 2, 3])
    play(g, "a roll", "a take 5 1 5")
    assert g.history.moves[-1] == "a take 1 5 5"
    assert g.turn_total == 200
    assert sd.canonical(sd.canonical("take 5  1 5")) == "take 1 5 5"


def test_take_refuses_dice_not_rolled_or_not_scoring() -> None:
    g = game([1, 2, 3, 4, 6, 6])
    play(g, "a roll")
    assert refused(g, "a", "take 5") == "sixdice.take_not_in_roll"
    assert refused(g, "a", "take 1 2") == "sixdice.take_not_scoring"
    assert refused(g, "a", "take 1 1") == "sixdice.take_not_in_roll"
    assert refused(g, "a", "roll") == "sixdice.must_take"
    assert refused(g, "a", "stop") == "sixdice.stop_not_now"
    assert refused(g, "b", "take 1") == "move.not_your_turn"
    assert refused(g, "z", "take 1") == "move.not_a_player"
    for junk in ("take", "take 7", "take x", "roll roll", "ROLL", "stop now"):
        assert refused(g, "a", junk) == "move.unknown"


def test_combinations_only_within_one_roll() -> None:
    # a 1 then two 1s in the next roll are 100 + 200, never three 1s
    g = game([1, 2, 3, 4, 6, 6, 1, 1, 2, 3, 4], start=0)
    play(g, "a roll", "a take 1", "a roll")
    assert "take 1 1" in sd.legal_moves(g, "a")
    play(g, "a take 1 1", "a stop")
    assert g.scores["a"] == 300


# --------------------------------------------------------------------------
# Turn flow


def test_a_turn_starts_with_an_explicit_roll() -> None:
    g = game([1, 2, 3, 4, 6, 6])
    assert sd.legal_moves(g, "a") == ["roll"] and sd.legal_moves(g, "b") == []
    assert sd.to_move(g) == ["a"]
    assert refused(g, "a", "stop") == "sixdice.stop_not_now"


def test_dobon_loses_the_turn_total() -> None:
    g = game([1, 5, 3, 4, 6, 6, 2, 3, 4, 6])
    events = play(g, "a roll", "a take 1 5", "a roll")
    assert "dobon" in kinds(events)
    assert g.scores["a"] == 0 and g.turn_total == 0 and sd.to_move(g) == ["b"]
    assert sd.view(g, None)["last_roll"]["result"] == "dobon"


def test_hot_dice_must_roll_again() -> None:
    g = game([1, 1, 1, 5, 5, 5, 1, 2, 3, 4, 6, 6])
    events = play(g, "a roll", "a take 1 1 1 5 5 5")
    assert "hot_dice" in kinds(events)
    assert sd.legal_moves(g, "a") == ["roll"]
    assert sd.view(g, None)["hot_dice"] is True
    assert refused(g, "a", "stop") == "sixdice.hot_dice_must_roll"
    play(g, "a roll")  # six dice again
    assert g.roll == [1, 2, 3, 4, 6, 6]
    play(g, "a take 1", "a stop")
    assert g.scores["a"] == 1600 and g.started["a"]


def test_stop_before_start_threshold_is_refused() -> None:
    g = game([1, 2, 3, 4, 6, 6])
    play(g, "a roll", "a take 1")
    assert sd.legal_moves(g, "a") == ["roll"]
    assert refused(g, "a", "stop") == "sixdice.stop_before_start"
    g2 = game([5, 5, 5, 2, 3, 4])
    play(g2, "a roll", "a take 5 5 5")
    assert refused(g2, "a", "stop") == "sixdice.stop_before_start"
    g3 = game([5, 5, 5, 2, 3, 4], start=500)
    play(g3, "a roll", "a take 5 5 5", "a stop")
    assert g3.started["a"] and g3.scores["a"] == 500


def test_start_rule_counts_score_plus_turn_total() -> None:
    # a at -1000 (a ブタ) needs a 2000-point turn
    prefix = [*BUTA, *QUICK_DOBON, 1, 1, 1, 1, 2, 3]
    g = game(prefix)
    play(g, "a roll", *quick_dobon("b"), "a roll", "a take 1 1 1")
    assert g.scores["a"] == -1000
    assert refused(g, "a", "stop") == "sixdice.stop_before_start"
    g = game(prefix)
    play(g, "a roll", *quick_dobon("b"), "a roll", "a take 1 1 1 1", "a stop")
    assert g.scores["a"] == 1000 and g.started["a"]


def test_started_player_may_stop_with_any_turn_total() -> None:
    g = game([1, 1, 1, 2, 3, 4, *QUICK_DOBON, 5, 2, 3, 4, 6, 6])
    play(g, "a roll", "a take 1 1 1", "a stop", *quick_dobon("b"), "a roll", "a take 5", "a stop")
    assert g.scores["a"] == 1050


def test_buta_resets_started_player() -> None:
    g = game([1, 1, 1, 2, 3, 4, *QUICK_DOBON, *BUTA])
    play(g, "a roll", "a take 1 1 1", "a stop", *quick_dobon("b"))
    assert g.started["a"] and g.scores["a"] == 1000
    events = play(g, "a roll")
    buta = [e for e in events if e.kind == "buta"][0]
    assert buta.data["penalty"] == "reset"
    assert g.scores["a"] == 0 and not g.started["a"] and sd.to_move(g) == ["b"]


def test_buta_unstarted_loses_1000() -> None:
    g = game([*BUTA, *QUICK_DOBON, *BUTA])
    play(g, "a roll")
    assert g.scores["a"] == -1000 and not g.started["a"]
    play(g, *quick_dobon("b"), "a roll")
    assert g.scores["a"] == -2000
    assert sd.view(g, None)["last_roll"]["result"] == "buta"


def test_buta_after_hot_dice() -> None:
    g = game([1, 1, 1, 5, 5, 5, *BUTA])
    events = play(g, "a roll", "a take 1 1 1 5 5 5", "a roll")
    assert "buta" in kinds(events) and "dobon" not in kinds(events)
    assert g.scores["a"] == -1000


def test_buta_is_only_on_six_dice() -> None:
    g = game([1, 2, 3, 4, 6, 6, *DOBON5])
    events = play(g, "a roll", "a take 1", "a roll")
    assert "dobon" in kinds(events) and "buta" not in kinds(events)
    assert g.scores["a"] == 0


# --------------------------------------------------------------------------
# End and settlement


def test_round_is_played_out_to_the_last_player_before_the_dealer() -> None:
    g = game([*QUICK_DOBON, 1, 1, 1, 1, 2, 3, *QUICK_DOBON], players=("a", "b", "c"), target=2000)
    play(g, *quick_dobon("a"))
    events = play(g, "b roll", "b take 1 1 1 1", "b stop")
    assert "target" in kinds(events) and not sd.is_finished(g)
    assert sd.to_move(g) == ["c"]
    events = play(g, *quick_dobon("c"))
    assert kinds(events)[-1] == "game_over" and sd.is_finished(g)
    out = sd.outcome(g)
    assert out["winner"] == "b"
    assert out["settlement"] == {"a": -7, "b": 14, "c": -7}
    assert sd.legal_moves(g, "a") == [] and refused(g, "a", "roll") == "move.game_over"


def test_later_player_can_overtake_in_the_last_round() -> None:
    dice = [*QUICK_DOBON, 1, 1, 1, 1, 2, 3, 1, 1, 1, 1, 5, 3]
    g = game(dice, players=("a", "b", "c"), target=2000)
    play(g, *quick_dobon("a"), "b roll", "b take 1 1 1 1", "b stop")
    play(g, "c roll", "c take 1 1 1 1 5", "c stop")
    assert sd.outcome(g)["winner"] == "c"


def test_last_seat_reaching_target_ends_at_once() -> None:
    g = game([*QUICK_DOBON, 1, 1, 1, 1, 2, 3], target=2000)
    play(g, *quick_dobon("a"), "b roll", "b take 1 1 1 1", "b stop")
    assert sd.is_finished(g) and sd.outcome(g)["winner"] == "b"


def test_units_truncate_toward_zero() -> None:
    assert [sd.units(s) for s in (2650, 11050, -1000, -1500, 999, -999, 0)] == [
        2, 11, -1, -1, 0, 0, 0,
    ]


def test_settlement_seed_example() -> None:
    # The seed's table: the winner gets everything paid (+30, not the sample's +35).
    players = ("p1", "p2", "p3", "p4")
    g = game([], players=players)
    g.scores.update({"p1": 2650, "p2": 11050, "p3": 7050, "p4": -1000})
    g.started.update({"p1": True, "p2": True, "p3": True, "p4": False})
    sd.end_game(g)
    out = sd.outcome(g)
    assert out["winner"] == "p2"
    assert out["settlement"] == {"p1": -9, "p2": 30, "p3": -4, "p4": -17}


def test_tie_goes_to_the_earliest_in_player_order() -> None:
    g = game([], players=("a", "b", "c"))
    g.scores.update({"a": 1500, "b": 3000, "c": 3000})
    g.started.update({"a": True, "b": True, "c": True})
    # player order starts at the dealer: make c the dealer
    g2 = sd.new_game(["a", "b", "c"], {}, "c", ScriptedSource([]))
    g2.scores.update(g.scores)
    g2.started.update(g.started)
    sd.end_game(g)
    sd.end_game(g2)
    assert sd.outcome(g)["winner"] == "b"
    assert sd.outcome(g2)["winner"] == "c"


def test_winner_is_highest_raw_score_and_equal_units_pay_zero() -> None:
    g = game([], players=("a", "b"))
    g.scores.update({"a": 2100, "b": 2900})
    g.started.update({"a": True, "b": True})
    sd.end_game(g)
    assert sd.outcome(g)["winner"] == "b"
    assert sd.outcome(g)["settlement"] == {"a": 0, "b": 0}


def test_gift_six_of_a_kind() -> None:
    # 御祝儀: earned by the roll, even though a takes only three and then loses the turn
    g = game([4, 4, 4, 4, 4, 4, 2, 3, 6], players=("a", "b", "c"))
    events = play(g, "a roll")
    assert "gift" in kinds(events)
    play(g, "a take 4 4 4", "a roll")
    assert g.scores["a"] == 0 and g.gifts["a"] == 1
    sd.end_game(g)
    # nobody started: a wins on the tie (dealer), b and c pay 0 + 5, and 5 each as gift
    assert sd.outcome(g)["settlement"] == {"a": 20, "b": -10, "c": -10}


def test_gift_off() -> None:
    g = game([4, 4, 4, 4, 4, 4], players=("a", "b"), six_kind_gift=False)
    assert "gift" not in kinds(play(g, "a roll"))
    sd.end_game(g)
    assert sd.outcome(g)["settlement"] == {"a": 5, "b": -5}


def test_solo_game_settles_to_zero() -> None:
    g = sd.new_game(["solo"], {"target": 1000}, None, ScriptedSource([1, 1, 1, 2, 3, 4], aux=[3]))
    play(g, "solo roll", "solo take 1 1 1", "solo stop")
    assert sd.is_finished(g)
    assert sd.outcome(g)["settlement"] == {"solo": 0}


# --------------------------------------------------------------------------
# Bowl mishaps, dealer, forfeit, table end


def test_bowl_mishap_is_buta_mid_turn() -> None:
    g = game([1, 2, 3, 4, 6, 6, 5, 5, 5, 2, 3], mishaps=(2,), bowl_mishaps=True)
    play(g, "a roll", "a take 1")
    events = play(g, "a roll")  # roll number 2: even → グッチョン
    assert [e.data["kind"] for e in events if e.kind == "mishap"] == ["gucchon"]
    assert g.scores["a"] == -1000 and sd.to_move(g) == ["b"]
    assert sd.view(g, None)["last_roll"]["result"] == "gucchon"
    assert g.source.dice_log == [1, 2, 3, 4, 6, 6, 5, 5, 5, 2, 3]


def test_mishap_never_earns_a_gift_and_odd_rolls_are_shonben() -> None:
    g = game([6] * 6, mishaps=(1,), bowl_mishaps=True)
    events = play(g, "a roll")
    assert "gift" not in kinds(events) and g.gifts["a"] == 0
    assert [e.data["cause"] for e in events if e.kind == "buta"] == ["shonben"]


def test_mishaps_ignored_when_option_off() -> None:
    g = game([1, 2, 3, 4, 6, 6], mishaps=(1,))
    play(g, "a roll")
    assert g.roll == [1, 2, 3, 4, 6, 6] and g.source.mishaps_log == []


def test_dealer_choice_one_counts_as_ten_and_ties_reroll() -> None:
    g = sd.new_game(["a", "b", "c"], {}, None, ScriptedSource(aux=[2, 1, 1, 6, 3]))
    assert g.history.dealer == "b" and g.order == ["b", "c", "a"]
    assert sd.view(g, None)["dealer_rolls"] == [{"a": 2, "b": 1, "c": 1}, {"b": 6, "c": 3}]
    g = sd.new_game(["a", "b"], {}, None, ScriptedSource(aux=[6, 1]))
    assert g.history.dealer == "b"
    # the record replays without the dealer rolls
    assert record_of("sixdice", g).dealer == "b"


def test_forfeit() -> None:
    g = game([*QUICK_DOBON], players=("a", "b", "c"))
    play(g, *quick_dobon("a"))
    events = sd.forfeit(g, "b")  # on turn
    assert kinds(events)[0] == "forfeit" and sd.to_move(g) == ["c"]
    assert sd.legal_moves(g, "b") == []
    events = sd.forfeit(g, "a")  # one player left: the game ends
    assert kinds(events)[-1] == "game_over"
    out = sd.outcome(g)
    assert out["winner"] == "c"
    assert out["settlement"] == {"a": -5, "b": -5, "c": 10}
    assert sum(out["settlement"].values()) == 0


def test_end_game_settles_as_it_stands() -> None:
    g = game([1, 1, 1, 2, 3, 4, *BUTA, 1, 1, 1, 2, 3, 4], players=("a", "b"))
    play(g, "a roll", "a take 1 1 1", "a stop", "b roll", "a roll", "a take 1 1 1")
    events = sd.end_game(g)
    assert kinds(events) == ["game_over"]
    out = sd.outcome(g)
    assert out["finished"] and out["scores"] == {"a": 1000, "b": -1000}
    assert out["settlement"] == {"a": 7, "b": -7}
    with pytest.raises(RuleError):
        sd.end_game(g)


# --------------------------------------------------------------------------
# Contract details


def test_json_round_trip_and_view_keys() -> None:
    g = sd.new_game(["a", "b", "c"], {"target": 2000}, None, SeededSource("view"))
    for _ in range(10):
        p = sd.to_move(g)[0]
        sd.apply(g, p, sd.legal_moves(g, p)[-1])
        again = sd.from_json(json.loads(json.dumps(sd.to_json(g))))
        assert dumps(sd.to_json(again)) == dumps(sd.to_json(g))
        g = again
    v = sd.view(g, None)
    for key in ("game", "players", "dealer", "to_move", "finished", "options", "scores",
                "started", "turn_total", "roll", "set_aside", "hot_dice", "last_roll", "gifts"):
        assert key in v
    assert all(sd.view(g, p) == v for p in ("a", "b", "c"))  # nothing secret
    assert set(sd.outcome(g)) == {"finished", "scores", "started", "winner"}


def test_options_validated() -> None:
    with pytest.raises(RuleError):
        sd.new_game(["a"], {"kinds": "tripling"}, "a", ScriptedSource([]))
    with pytest.raises(RuleError):
        sd.new_game(["a", "a"], {}, "a", ScriptedSource([]))
    g = sd.new_game(["a"], {"target": "5000", "bowl_mishaps": "on"}, "a", ScriptedSource([]))
    assert g.options["target"] == 5000 and g.options["bowl_mishaps"] is True


@pytest.mark.parametrize(
    ("name", "low", "high"), [("straight", 50, 8000), ("start", 0, 2000), ("target", 1000, 10000)]
)
def test_option_limits(name: str, low: int, high: int) -> None:
    """docs/rules/sixdice.md "House option limits": the bounds are accepted
    (as numbers and as text), one step beyond them is refused."""
    for value in (low, high, str(high)):
        g = sd.new_game(["a"], {name: value}, "a", ScriptedSource([]))
        assert g.options[name] == int(value)
    for value in (low - 1, high + 1, str(high + 1)):
        with pytest.raises(RuleError) as err:
            sd.new_game(["a"], {name: value}, "a", ScriptedSource([]))
        assert err.value.key == "option.bad_value" and err.value.args_["option"] == name


# --------------------------------------------------------------------------
# Recorded games


def record_names() -> list[str]:
    return sorted(p.name[: -len(".json")] for p in RECORDS.glob("*.json")
                  if not p.name.endswith(".expected.json"))


@pytest.mark.parametrize("name", record_names())
def test_record_replays_to_expected_outcome(name: str) -> None:
    expected = json.loads((RECORDS / f"{name}.expected.json").read_text(encoding="utf-8"))
    record = Record.from_json(json.loads((RECORDS / f"{name}.json").read_text(encoding="utf-8")))
    assert sd.outcome(replay(record)) == expected
    run = subprocess.run([sys.executable, "-m", "games", "replay", str(RECORDS / f"{name}.json")],
                         capture_output=True, text=True, cwd=ROOT, check=False)
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout) == expected


def test_records_exist() -> None:
    assert len(record_names()) >= 3


def test_broken_record_exits_2_naming_the_move(tmp_path: pathlib.Path) -> None:
    doc = {"game": "sixdice", "options": {}, "players": ["a", "b"], "dealer": "a",
           "dice": [1, 2, 3, 4, 6, 6], "moves": ["a roll", "a take 1", "a stop"]}
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    run = subprocess.run([sys.executable, "-m", "games", "replay", str(path)],
                         capture_output=True, text=True, cwd=ROOT, check=False)
    assert run.returncode == 2
    assert run.stderr.startswith("move 3 'a stop': ")
    assert "start" in run.stderr


def test_record_with_dice_running_out_is_broken(tmp_path: pathlib.Path) -> None:
    doc = {"game": "sixdice", "players": ["a"], "dealer": "a", "dice": [1, 2, 3],
           "moves": ["a roll"]}
    path = tmp_path / "short.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    run = subprocess.run([sys.executable, "-m", "games", "replay", str(path)],
                         capture_output=True, text=True, cwd=ROOT, check=False)
    assert run.returncode == 2 and run.stderr.startswith("move 1 'a roll': ")


def test_doctests() -> None:
    import doctest

    import games.sixdice.engine as engine
    import games.sixdice.scoring as scoring

    for module in (engine, scoring):
        result = doctest.testmod(module)
        assert result.failed == 0 and result.attempted > 0
