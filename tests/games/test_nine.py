"""Nine (docs/rules/nine.md): one test per rule, the seed's sample game, records."""

from __future__ import annotations

import json
import pathlib
import subprocess
import sys
from typing import Any

import pytest

import games.nine as nine
from games.core import (
    Record,
    RuleError,
    ScriptedSource,
    SeededSource,
    SourceExhausted,
    dumps,
    record_of,
)
from games.nine.engine import FULL, NineState
from games.registry import replay

RECORDS = sorted((pathlib.Path(__file__).parents[1] / "records" / "nine").glob("*.json"))


def game(dice: list[int], players: tuple[str, ...] = ("a", "b"), dealer: str = "a") -> NineState:
    return nine.new_game(list(players), {}, dealer, ScriptedSource(dice))


def play(state: NineState, *moves: str) -> list[Any]:
    events: list[Any] = []
    for m in moves:
        player, move = m.split(" ", 1)
        events += nine.apply(state, player, move)
    return events


def set_up(state: NineState, player: str, cards: list[int]) -> None:
    """Put exactly ``cards`` face up for ``player`` (test set-up)."""
    state.up[player] = sum(1 << (c - 1) for c in cards)


def kinds(events: list[Any]) -> list[str]:
    return [e.kind for e in events]


# --------------------------------------------------------------------------
# Dealer


def test_dealer_is_highest_die_and_one_is_one() -> None:
    state = nine.new_game(["a", "b"], {}, None, ScriptedSource(aux=[1, 2]))
    assert state.history.dealer == "b"
    assert state.order == ["b", "a"]
    assert nine.view(state, None)["dealer_rolls"] == [{"a": 1, "b": 2}]


def test_dealer_ties_roll_again_among_themselves() -> None:
    src = ScriptedSource(aux=[5, 5, 2, 3, 4])
    state = nine.new_game(["a", "b", "c"], {}, None, src)
    assert state.history.dealer == "b"
    assert state.dealer_rolls == [{"a": 5, "b": 5, "c": 2}, {"a": 3, "b": 4}]
    assert state.order == ["b", "c", "a"]


def test_dealer_choice_is_not_in_the_record() -> None:
    state = nine.new_game(["a", "b"], {}, None, SeededSource("dealer"))
    rec = record_of("nine", state)
    assert rec.dealer == state.history.dealer and rec.dice == []


def test_play_goes_in_seat_order_from_the_dealer() -> None:
    state = game([3, 1, 3, 1, 3, 1], ("a", "b", "c"), dealer="b")
    assert nine.to_move(state) == ["b"]
    play(state, "b roll", "b flip 4")
    assert nine.to_move(state) == ["c"]
    play(state, "c roll", "c flip 4")
    assert nine.to_move(state) == ["a"]


# --------------------------------------------------------------------------
# A turn


def test_turn_is_roll_then_flip() -> None:
    state = game([6, 3])
    assert nine.legal_moves(state, "a") == ["roll"]
    with pytest.raises(RuleError) as err:
        nine.apply(state, "a", "flip 9")
    assert err.value.key == "nine.roll_first"
    play(state, "a roll")
    assert nine.legal_moves(state, "a") == [
        "flip 9",
        "flip 1 8",
        "flip 2 7",
        "flip 3 6",
        "flip 4 5",
    ]
    with pytest.raises(RuleError) as err:
        nine.apply(state, "a", "roll")
    assert err.value.key == "nine.flip_first"


def test_flip_must_equal_the_dice_total() -> None:
    state = game([6, 3])
    play(state, "a roll")
    before = dumps(nine.to_json(state))
    with pytest.raises(RuleError) as err:
        nine.apply(state, "a", "flip 8")
    assert err.value.key == "nine.flip_sum" and err.value.args_["total"] == 9
    assert dumps(nine.to_json(state)) == before


def test_flip_cards_in_any_order_are_canonical_ascending() -> None:
    assert nine.canonical("flip 9 3") == "flip 3 9"
    assert nine.canonical(nine.canonical("flip 9 3")) == "flip 3 9"
    state = game([6, 6])
    play(state, "a roll", "a flip 9 3")
    assert state.history.moves == ["a roll", "a flip 3 9"]


def test_never_three_cards() -> None:
    state = game([6, 3])
    play(state, "a roll")
    with pytest.raises(RuleError) as err:
        nine.apply(state, "a", "flip 2 3 4")
    assert err.value.key == "nine.too_many_cards"


def test_a_card_cannot_be_flipped_twice() -> None:
    state = game([2, 2, 6, 3, 6, 2])
    play(state, "a roll", "a flip 4", "b roll", "b flip 9", "a roll")
    with pytest.raises(RuleError) as err:
        nine.apply(state, "a", "flip 4 4")
    assert err.value.key == "nine.same_card"
    with pytest.raises(RuleError) as err:
        nine.apply(state, "a", "flip 4 4x")
    assert err.value.key == "move.unknown"


def test_face_down_card_cannot_be_flipped() -> None:
    state = game([3, 1, 6, 3, 1, 3])
    play(state, "a roll", "a flip 4", "b roll", "b flip 9", "a roll")
    with pytest.raises(RuleError) as err:
        nine.apply(state, "a", "flip 4")
    assert err.value.key == "nine.card_down"
    assert nine.legal_moves(state, "a") == ["flip 1 3"]


def test_not_your_turn_and_not_a_player() -> None:
    state = game([6, 3])
    with pytest.raises(RuleError) as err:
        nine.apply(state, "b", "roll")
    assert err.value.key == "move.not_your_turn"
    with pytest.raises(RuleError) as err:
        nine.apply(state, "zed", "roll")
    assert err.value.key == "move.not_a_player"
    assert nine.legal_moves(state, "b") == []


def test_unknown_words_are_refused() -> None:
    state = game([6, 3])
    for bad in ["", "roll now", "flip", "flip 0", "flip x", "FLIP 9", "take 9"]:
        with pytest.raises(RuleError) as err:
            nine.apply(state, "a", bad)
        assert err.value.key == "move.unknown", bad


# --------------------------------------------------------------------------
# Doubles, ドボン, tokens


def test_doubles_give_a_token() -> None:
    state = game([4, 4])
    events = play(state, "a roll")
    assert kinds(events) == ["roll", "token"]
    assert state.tokens["a"] == 1 and state.phase == "flip"


def test_doubles_token_is_counted_before_looking_for_a_flip() -> None:
    # only 1 and 9 up: 3+3 = 6 has no flip, but the doubles token saves it (×○)
    state = game([3, 3], ("a",))
    set_up(state, "a", [1, 9])
    events = play(state, "a roll")
    assert kinds(events) == ["roll", "token", "token", "turn"]
    assert [e.data["change"] for e in events if e.kind == "token"] == [1, -1]
    assert state.tokens["a"] == 0 and state.status["a"] is None


def test_dobon_no_legal_flip_ends_the_players_game() -> None:
    state = game([4, 1, 6, 3], ("a", "b"))
    set_up(state, "a", [1, 9])
    events = play(state, "a roll")
    assert kinds(events) == ["roll", "dobon", "turn"]
    assert state.status["a"] == "dobon" and nine.to_move(state) == ["b"]


def test_token_rescues_dobon_automatically() -> None:
    state = game([4, 1, 6, 3], ("a", "b"))
    set_up(state, "a", [1, 9])
    state.tokens["a"] = 2
    events = play(state, "a roll")
    assert kinds(events) == ["roll", "token", "turn"]
    assert state.tokens["a"] == 1 and state.status["a"] is None
    assert state.history.moves == ["a roll"]  # the spent token takes no move


def test_one_dobon_when_only_the_one_is_left() -> None:
    state = game([3, 1, 6, 3], ("a", "b"))
    set_up(state, "a", [1, 4])
    state.tokens["a"] = 3
    events = play(state, "a roll", "a flip 4")
    assert "one_dobon" in kinds(events)
    assert state.status["a"] == "one_dobon"
    assert nine.view(state, None)["multiplier"]["a"] == 1


def test_finished_player_is_skipped() -> None:
    state = game([4, 1, 6, 3, 6, 2], ("a", "b"))
    set_up(state, "a", [1, 9])
    play(state, "a roll", "b roll", "b flip 9")
    assert nine.to_move(state) == ["b"]
    assert nine.legal_moves(state, "a") == []


# --------------------------------------------------------------------------
# 上がり and the result


def test_agari_multiplier_is_two_times_two_to_the_tokens() -> None:
    state = game([6, 3], ("a", "b"))
    set_up(state, "a", [9])
    state.tokens["a"] = 2
    events = play(state, "a roll", "a flip 9")
    agari = [e for e in events if e.kind == "agari"]
    assert agari and agari[0].data == {"tokens": 2, "multiplier": 8}
    assert state.status["a"] == "agari"


def test_agari_on_doubles_with_three_tokens_is_x16() -> None:
    state = game([2, 2], ("a", "b"))
    set_up(state, "a", [1, 3])
    state.tokens["a"] = 2
    play(state, "a roll", "a flip 1 3")
    assert nine.outcome(state)["multiplier"]["a"] == 16


def test_lowest_score_wins_and_each_loser_pays_the_difference_times_multiplier() -> None:
    state = game([4, 1, 5, 1], ("a", "b"))
    set_up(state, "a", [2, 9])  # will ドボン at 11
    set_up(state, "b", [6, 7])  # flips 6, then one card left: ドボン later
    play(state, "a roll", "b roll", "b flip 6")
    state.source = ScriptedSource([1, 2])
    play(state, "b roll")
    out = nine.outcome(state)
    assert out["remaining"] == {"a": 11, "b": 7}
    assert out["winner"] == "b" and out["settlement"] == {"a": -4, "b": 4}


def test_tie_goes_to_the_higher_multiplier() -> None:
    state = game([3, 3, 2, 2], ("a", "b"))
    set_up(state, "a", [6])
    set_up(state, "b", [4])
    play(state, "a roll", "a flip 6", "b roll", "b flip 4")
    # both 上がり on doubles with ×4: equal, so a (earlier in player order) wins
    assert nine.outcome(state)["multiplier"] == {"a": 4, "b": 4}
    assert nine.outcome(state)["winner"] == "a"
    state2 = game([3, 3, 3, 1], ("a", "b"))
    set_up(state2, "a", [6])
    set_up(state2, "b", [4])
    play(state2, "a roll", "a flip 6", "b roll", "b flip 4")
    out = nine.outcome(state2)
    assert out["multiplier"] == {"a": 4, "b": 2}
    assert out["winner"] == "a" and out["settlement"] == {"a": 0, "b": 0}
    state3 = game([3, 1, 2, 2], ("a", "b"))
    set_up(state3, "a", [4])
    set_up(state3, "b", [4])
    play(state3, "a roll", "a flip 4", "b roll", "b flip 4")
    assert nine.outcome(state3)["winner"] == "b"  # ×4 beats ×2 though a is first


def test_tie_with_equal_multiplier_goes_to_the_earlier_in_player_order() -> None:
    state = game([4, 1, 4, 1], ("a", "b"), dealer="b")
    set_up(state, "a", [2, 9])
    set_up(state, "b", [2, 9])
    play(state, "b roll", "a roll")
    out = nine.outcome(state)
    assert out["remaining"] == {"a": 11, "b": 11}
    assert out["winner"] == "b"  # b is dealer, so first in player order


def test_settlement_is_zero_sum_and_worst_payment_is_40_times_128() -> None:
    state = game([4, 2, 3, 1], ("a", "b"))
    set_up(state, "a", [6])
    state.tokens["a"] = 6
    set_up(state, "b", [2, 3, 5, 6, 7, 8, 9])  # 40: flipped 1 and 4
    play(state, "a roll", "a flip 6", "b roll")  # b: total 4 has no flip: ドボン
    out = nine.outcome(state)
    assert out["multiplier"]["a"] == 128
    assert out["settlement"] == {"a": 5120, "b": -5120}
    assert sum(out["settlement"].values()) == 0


def test_one_player_alone_is_a_legal_game() -> None:
    state = game([6, 3], ("a",))
    set_up(state, "a", [9])
    play(state, "a roll", "a flip 9")
    out = nine.outcome(state)
    assert out == {
        "finished": True,
        "remaining": {"a": 0},
        "multiplier": {"a": 2},
        "winner": "a",
        "settlement": {"a": 0},
    }


def test_seed_sample_agari_without_tokens_beats_dobon_at_15_for_30() -> None:
    a, b = "p1", "p2"
    state = game(
        [6, 3, 6, 5, 6, 2, 6, 4, 5, 2, 5, 4, 4, 2, 4, 1, 4, 1, 3, 1, 2, 1, 2, 1], (a, b), dealer=a
    )
    for p, flip in [
        (a, "flip 9"),
        (b, "flip 9 2"),
        (a, "flip 8"),
        (b, "flip 7 3"),
        (a, "flip 7"),
        (b, "flip 5 4"),
        (a, "flip 6"),
        (b, None),
        (a, "flip 5"),
        (a, "flip 4"),
        (a, "flip 2 1"),
        (a, "flip 3"),
    ]:
        play(state, f"{p} roll")
        if flip:
            play(state, f"{p} {flip}")
    out = nine.outcome(state)
    assert out["remaining"] == {a: 0, b: 15}
    assert out["multiplier"] == {a: 2, b: 1}
    assert out["winner"] == a and out["settlement"] == {a: 30, b: -30}


# --------------------------------------------------------------------------
# Forfeit, the game's end, view, saving


def test_forfeit_counts_all_cards_up_and_the_player_cannot_win() -> None:
    state = game([6, 3, 6, 4], ("a", "b"))
    set_up(state, "a", [5, 9])
    set_up(state, "b", [1])
    play(state, "a roll", "a flip 9")
    events = nine.forfeit(state, "b")
    assert kinds(events)[0] == "forfeit"
    assert state.history.moves[-1] == "b forfeit"
    assert nine.to_move(state) == ["a"]
    play(state, "a roll")  # total 10, only the 5 up: ドボン at 5
    out = nine.outcome(state)
    assert out["finished"] and out["remaining"] == {"a": 5, "b": 45}
    assert out["winner"] == "a" and out["settlement"] == {"a": 40, "b": -40}
    assert nine.forfeit(state, "b") == []  # after the end: nothing happens


def test_forfeit_of_the_player_to_move_passes_the_turn() -> None:
    state = game([6, 3], ("a", "b", "c"))
    nine.apply(state, "a", "forfeit")
    assert nine.to_move(state) == ["b"]
    with pytest.raises(RuleError):
        nine.apply(state, "a", "forfeit")


def test_roll_when_the_dice_run_out_changes_nothing() -> None:
    state = game([3, 4])
    play(state, "a roll", "a flip 7")
    before = dumps(nine.to_json(state))
    with pytest.raises(SourceExhausted):
        nine.apply(state, "b", "roll")
    assert dumps(nine.to_json(state)) == before
    assert state.history.moves == ["a roll", "a flip 7"]  # not recorded before the dice


def test_move_after_the_end_is_refused() -> None:
    state = game([6, 3], ("a",))
    set_up(state, "a", [9])
    play(state, "a roll", "a flip 9")
    assert nine.is_finished(state) and nine.to_move(state) == []
    with pytest.raises(RuleError) as err:
        nine.apply(state, "a", "roll")
    assert err.value.key == "move.game_over"


def test_view_shows_cards_tokens_status_roll_and_legal_flips() -> None:
    state = game([5, 5], ("a", "b"))
    play(state, "a roll")
    v = nine.view(state, None)
    for key in ("game", "players", "dealer", "to_move", "finished", "options"):
        assert key in v
    assert v["cards"]["a"] == [True] * 9 and v["tokens"]["a"] == 1
    assert v["status"] == {"a": None, "b": None}
    assert v["last_roll"] == {"player": "a", "dice": [5, 5], "total": 10, "doubles": True}
    assert v["turn"] == "a" and v["phase"] == "flip"
    assert v["legal_flips"] == nine.legal_moves(state, "a")
    assert nine.view(state, "b") == v  # nothing secret in Nine
    json.dumps(v)


def test_json_round_trip_mid_game() -> None:
    state = nine.new_game(["a", "b", "c"], {}, None, SeededSource("rt"))
    play(state, f"{nine.to_move(state)[0]} roll")
    doc = json.loads(json.dumps(nine.to_json(state)))
    again = nine.from_json(doc)
    assert dumps(nine.to_json(again)) == dumps(nine.to_json(state))
    p = nine.to_move(state)[0]
    assert nine.legal_moves(again, p) == nine.legal_moves(state, p)


# --------------------------------------------------------------------------
# Records


@pytest.mark.parametrize("path", RECORDS, ids=[p.stem for p in RECORDS])
def test_record_replays_to_its_expected_outcome(path: pathlib.Path) -> None:
    doc = json.loads(path.read_text(encoding="utf-8"))
    state = replay(Record.from_json(doc))
    assert nine.outcome(state) == doc["expected"]
    assert doc["expected"]["finished"] is True
    out = subprocess.run(
        [sys.executable, "-m", "games", "replay", str(path)], capture_output=True, text=True
    )
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == doc["expected"]


def test_broken_record_exits_2_naming_the_move(tmp_path: pathlib.Path) -> None:
    doc = json.loads((RECORDS[0].parent / "seed_sample.json").read_text(encoding="utf-8"))
    doc["moves"][1] = "alice flip 8"  # the first roll is 6+3
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    out = subprocess.run(
        [sys.executable, "-m", "games", "replay", str(path)], capture_output=True, text=True
    )
    assert out.returncode == 2
    assert out.stderr.startswith("move 2 'alice flip 8': ") and out.stderr.count("\n") == 1
    doc = json.loads((RECORDS[0].parent / "seed_sample.json").read_text(encoding="utf-8"))
    doc["dice"] = doc["dice"][:3]
    path.write_text(json.dumps(doc), encoding="utf-8")
    out = subprocess.run(
        [sys.executable, "-m", "games", "replay", str(path)], capture_output=True, text=True
    )
    assert out.returncode == 2 and out.stderr.startswith("move 3 'bob roll': ")


def test_full_flip_table_matches_brute_force() -> None:
    from games.nine.engine import FLIPS

    for mask in range(FULL + 1):
        up = [c for c in range(1, 10) if mask >> (c - 1) & 1]
        for total in range(2, 13):
            want = {f"flip {c}" for c in up if c == total}
            want |= {f"flip {a} {b}" for a in up for b in up if a < b and a + b == total}
            assert set(FLIPS[mask][total]) == want
