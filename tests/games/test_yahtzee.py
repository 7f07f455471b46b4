"""Yahtzee (docs/rules/yahtzee.md): one test per rule, the seed's probabilities, records."""

from __future__ import annotations

import json
import pathlib
import subprocess
import sys
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games import yahtzee as y
from games.core import Record, RuleError, ScriptedSource, SeededSource, dumps, record_of
from games.registry import replay
from games.yahtzee import probability, scoring
from games.yahtzee.scoring import BOXES, box_score, legal_boxes

RECORDS = pathlib.Path(__file__).resolve().parents[1] / "records" / "yahtzee"
ROOT = RECORDS.parents[2]


def game(
    dice: list[int],
    players: tuple[str, ...] = ("ann",),
    options: dict[str, Any] | None = None,
    filled: dict[str, int] | None = None,
    columns: dict[int, dict[str, int]] | None = None,
) -> y.State:
    """A game whose first player ann has some boxes already filled."""
    state = y.new_game(list(players), options or {}, players[0], ScriptedSource(dice))
    for box, score in (filled or {}).items():
        state.sheets["ann"][0][box] = score
    for index, boxes in (columns or {}).items():
        for box, score in boxes.items():
            state.sheets["ann"][index][box] = score
    return state


def moves(state: y.State, *texts: str) -> list[Any]:
    events: list[Any] = []
    for text in texts:
        player, _, move = text.partition(" ")
        events += y.apply(state, player, move)
    return events


def rule_key(state: y.State, player: str, move: str) -> str:
    before = dumps(y.to_json(state))
    with pytest.raises(RuleError) as err:
        y.apply(state, player, move)
    assert dumps(y.to_json(state)) == before, "an illegal move changed the state"
    return err.value.key


def col(**boxes: int) -> dict[str, int | None]:
    c = scoring.empty_column()
    c.update(boxes)
    return c


# --------------------------------------------------------------------------
# Box scores


@pytest.mark.parametrize(
    "box,dice,score",
    [
        ("ones", [1, 1, 3, 4, 1], 3),
        ("sixes", [6, 6, 6, 6, 6], 30),
        ("fours", [1, 2, 3, 5, 6], 0),
        ("three_kind", [2, 2, 2, 5, 6], 17),
        ("three_kind", [2, 2, 5, 5, 6], 0),
        ("four_kind", [3, 3, 3, 3, 6], 18),
        ("four_kind", [3, 3, 3, 6, 6], 0),
        ("full_house", [2, 2, 3, 3, 3], 25),
        ("full_house", [2, 2, 3, 3, 4], 0),
        ("small_straight", [1, 2, 3, 4, 4], 30),
        ("small_straight", [6, 3, 5, 4, 1], 30),
        ("small_straight", [1, 2, 3, 5, 6], 0),
        ("large_straight", [2, 3, 4, 5, 6], 40),
        ("large_straight", [1, 2, 3, 4, 6], 0),
        ("yahtzee", [5, 5, 5, 5, 5], 50),
        ("yahtzee", [5, 5, 5, 5, 4], 0),
        ("chance", [6, 6, 5, 5, 4], 26),
    ],
)
def test_box_scores_as_the_table_says(box: str, dice: list[int], score: int) -> None:
    assert box_score(box, dice, scoring.empty_column()) == score


def test_five_of_a_kind_is_a_full_house_only_as_joker() -> None:
    assert box_score("full_house", [4] * 5, scoring.empty_column()) == 0
    assert box_score("full_house", [4] * 5, col(yahtzee=50)) == 25


def test_box_names_exactly_as_rules() -> None:
    assert BOXES == tuple(
        "ones twos threes fours fives sixes three_kind four_kind full_house "
        "small_straight large_straight yahtzee chance".split()
    )


def test_upper_bonus_at_63() -> None:
    sixty_two = col(ones=2, twos=6, threes=9, fours=12, fives=15, sixes=18)
    assert scoring.upper_subtotal(sixty_two) == 62 and scoring.upper_bonus(sixty_two) == 0
    sixty_three = col(ones=3, twos=6, threes=9, fours=12, fives=15, sixes=18)
    assert scoring.upper_bonus(sixty_three) == 35
    assert scoring.column_total(sixty_three) == 63 + 35


# --------------------------------------------------------------------------
# The turn


def test_first_move_is_roll() -> None:
    state = game([1, 2, 3, 4, 5])
    assert y.legal_moves(state, "ann") == ["roll"]
    assert rule_key(state, "ann", "score chance") == "yahtzee.roll_first"
    assert rule_key(state, "ann", "keep 1") == "yahtzee.roll_first"


def test_may_score_right_after_first_roll() -> None:
    state = game([1, 2, 3, 4, 5])
    moves(state, "ann roll")
    assert "score large_straight" in y.legal_moves(state, "ann")
    moves(state, "ann score large_straight")
    assert state.sheets["ann"][0]["large_straight"] == 40


def test_keep_values_reroll_the_rest() -> None:
    state = game([2, 5, 2, 1, 2, 6, 3])
    moves(state, "ann roll")
    events = moves(state, "ann keep 5 2 2")
    assert state.dice == [2, 5, 2, 6, 3]
    assert state.kept == [True, True, True, False, False]
    assert events[0].data["rolls_left"] == 1
    assert state.history.moves[-1] == "ann keep 2 2 5"  # canonical: values ascending


def test_keep_alone_rerolls_all() -> None:
    state = game([1, 1, 1, 1, 1, 6, 6, 6, 6, 6])
    moves(state, "ann roll", "ann keep")
    assert state.dice == [6] * 5 and state.kept == [False] * 5


def test_keep_all_five_is_a_wasted_reroll() -> None:
    state = game([1, 2, 3, 4, 6])
    moves(state, "ann roll", "ann keep 1 2 3 4 6")
    assert state.dice == [1, 2, 3, 4, 6] and state.rolls == 2
    assert state.source.dice_log == [1, 2, 3, 4, 6]


def test_keep_must_name_rolled_dice() -> None:
    state = game([1, 2, 3, 4, 6])
    moves(state, "ann roll")
    assert rule_key(state, "ann", "keep 5") == "yahtzee.keep_not_rolled"
    assert rule_key(state, "ann", "keep 1 1") == "yahtzee.keep_not_rolled"
    assert rule_key(state, "ann", "keep 7") == "move.unknown"


def test_at_most_two_rerolls() -> None:
    state = game([1, 2, 3, 4, 6, 5, 5])
    moves(state, "ann roll", "ann keep 1 2 3 4", "ann keep 1 2 3 4")
    assert all(m.startswith("score") for m in y.legal_moves(state, "ann"))
    assert rule_key(state, "ann", "keep 1 2 3 4") == "yahtzee.no_rolls_left"
    assert rule_key(state, "ann", "roll") == "yahtzee.already_rolled"


def test_box_filled_once() -> None:
    state = game([1, 1, 1, 2, 3], filled={"ones": 2})
    moves(state, "ann roll")
    assert "score ones" not in y.legal_moves(state, "ann")
    assert rule_key(state, "ann", "score ones") == "yahtzee.box_full"


def test_zero_when_nothing_fits() -> None:
    state = game([1, 2, 3, 5, 6])
    moves(state, "ann roll", "ann score yahtzee")
    assert state.sheets["ann"][0]["yahtzee"] == 0


def test_unknown_words_are_refused() -> None:
    state = game([1, 2, 3, 5, 6])
    for bad in ["", "fly", "roll now", "ROLL"]:
        assert rule_key(state, "ann", bad) == "move.unknown"
    moves(state, "ann roll")
    for bad in ["score nothing", "score chance extra words", "keep one"]:
        assert rule_key(state, "ann", bad) == "move.unknown"


def test_not_your_turn() -> None:
    state = game([1, 2, 3, 5, 6], players=("ann", "bo"))
    assert y.legal_moves(state, "bo") == []
    assert rule_key(state, "bo", "roll") == "move.not_your_turn"
    assert rule_key(state, "zed", "roll") == "move.not_a_player"


def test_player_order_from_dealer() -> None:
    state = y.new_game(["ann", "bo", "cy"], {}, "bo", ScriptedSource([1] * 15))
    assert state.order == ["bo", "cy", "ann"] and y.to_move(state) == ["bo"]
    moves(state, "bo roll", "bo score chance")
    assert y.to_move(state) == ["cy"]


def test_no_dealer_draws_first_player_with_randbelow() -> None:
    state = y.new_game(["ann", "bo", "cy"], {}, None, ScriptedSource(aux=[3]))
    assert state.history.dealer == "cy" and y.to_move(state) == ["cy"]
    assert state.source.dice_log == []  # never from the record's dice


def test_player_count_one_to_eight_distinct_no_spaces() -> None:
    for bad in [[], [f"p{i}" for i in range(9)], ["a", "a"], ["a b"]]:
        with pytest.raises(RuleError) as err:
            y.new_game(bad, {}, None, SeededSource("x"))
        assert err.value.key == "game.players"
    y.new_game(["solo"], {}, None, SeededSource("x"))


def test_thirteen_rounds_then_highest_total_wins() -> None:
    state = y.new_game(["ann", "bo"], {}, "ann", ScriptedSource([6] * 5 * 13 + [1] * 5 * 13))
    for box in BOXES:
        for p in ("ann", "bo"):
            moves(state, f"{p} roll", f"{p} score {box}")
    assert y.is_finished(state) and y.legal_moves(state, "ann") == []
    out = y.outcome(state)
    assert out["winners"] == ["ann"] and out["totals"]["ann"] > out["totals"]["bo"]
    assert rule_key(state, "ann", "roll") == "move.game_over"


def test_ties_share() -> None:
    state = y.new_game(["ann", "bo"], {}, "bo", ScriptedSource([2, 3, 4, 5, 6] * 26))
    for box in BOXES:
        for p in ("bo", "ann"):
            moves(state, f"{p} roll", f"{p} score {box}")
    assert y.outcome(state)["winners"] == ["ann", "bo"]  # seat order


# --------------------------------------------------------------------------
# Extra Yahtzees: forced joker (default)


def test_joker_forced_matching_upper_box_only() -> None:
    state = game([4] * 5, filled={"yahtzee": 50})
    moves(state, "ann roll")
    assert y.legal_moves(state, "ann") == [
        m for m in y.legal_moves(state, "ann") if "keep" in m
    ] + ["score fours"]
    assert rule_key(state, "ann", "score four_kind") == "yahtzee.joker_order"
    moves(state, "ann score fours")
    assert state.sheets["ann"][0]["fours"] == 20
    assert state.sheets["ann"][0]["yahtzee_bonus"] == 100


def test_joker_forced_lower_box_full_scores() -> None:
    column = col(yahtzee=50, fours=12)
    assert legal_boxes([4] * 5, column) == [
        "three_kind",
        "four_kind",
        "full_house",
        "small_straight",
        "large_straight",
        "chance",
    ]
    assert {b: box_score(b, [4] * 5, column) for b in legal_boxes([4] * 5, column)} == {
        "three_kind": 20,
        "four_kind": 20,
        "full_house": 25,
        "small_straight": 30,
        "large_straight": 40,
        "chance": 20,
    }


def test_joker_forced_zero_in_empty_upper_box_when_lower_full() -> None:
    lower = {b: 0 for b in scoring.LOWER} | {"yahtzee": 50}
    state = game([4] * 5, filled=lower | {"fours": 8, "ones": 1})
    moves(state, "ann roll")
    assert [m for m in y.legal_moves(state, "ann") if m.startswith("score")] == [
        "score twos",
        "score threes",
        "score fives",
        "score sixes",
    ]
    moves(state, "ann score sixes")
    assert state.sheets["ann"][0]["sixes"] == 0


def test_yahtzee_bonus_needs_50() -> None:
    state = game([2] * 10, filled={"yahtzee": 0})
    moves(state, "ann roll", "ann score twos")
    assert state.sheets["ann"][0]["twos"] == 10
    assert state.sheets["ann"][0]["yahtzee_bonus"] == 0
    assert scoring.yahtzee_bonus([2] * 5, col(yahtzee=50)) == 100


def test_joker_order_applies_when_yahtzee_box_holds_zero() -> None:
    column = col(yahtzee=0)
    assert legal_boxes([5] * 5, column) == ["fives"]
    column["fives"] = 15
    assert box_score("large_straight", [5] * 5, column) == 40


def test_yahtzee_bonus_even_when_scored_zero_in_upper_box() -> None:
    lower = {b: 0 for b in scoring.LOWER} | {"yahtzee": 50}
    state = game([3] * 5, filled=lower | {"threes": 9})
    events = moves(state, "ann roll", "ann score ones")
    score = next(e for e in events if e.kind == "score")
    assert score.data == {
        "box": "ones",
        "column": None,
        "score": 0,
        "bonus": 100,
        "joker": True,
        "points": 100,
    }
    assert state.sheets["ann"][0]["yahtzee_bonus"] == 100


def test_first_yahtzee_is_not_a_joker() -> None:
    # the yahtzee box empty: five of a kind is scored by the normal rules anywhere
    assert legal_boxes([6] * 5, scoring.empty_column()) == list(BOXES)
    assert box_score("small_straight", [6] * 5, scoring.empty_column()) == 0


# --------------------------------------------------------------------------
# Extra Yahtzees: joker=free


def test_joker_free_any_empty_box() -> None:
    state = game([4] * 5, options={"joker": "free"}, filled={"yahtzee": 50})
    moves(state, "ann roll")
    scores = [m for m in y.legal_moves(state, "ann") if m.startswith("score")]
    assert scores == [f"score {b}" for b in BOXES if b != "yahtzee"]
    moves(state, "ann score chance")
    assert state.sheets["ann"][0]["chance"] == 20
    assert state.sheets["ann"][0]["yahtzee_bonus"] == 100


def test_joker_free_fixed_scores_need_upper_box_filled() -> None:
    empty_upper = col(yahtzee=50)
    assert box_score("full_house", [4] * 5, empty_upper, "free") == 0
    assert box_score("large_straight", [4] * 5, empty_upper, "free") == 0
    filled_upper = col(yahtzee=50, fours=8)
    assert box_score("full_house", [4] * 5, filled_upper, "free") == 25
    assert box_score("small_straight", [4] * 5, filled_upper, "free") == 30
    assert box_score("large_straight", [4] * 5, filled_upper, "free") == 40


def test_joker_free_upper_boxes_score_normally() -> None:
    column = col(yahtzee=50)
    assert box_score("fours", [4] * 5, column, "free") == 20
    assert box_score("sixes", [4] * 5, column, "free") == 0


# --------------------------------------------------------------------------
# Option triple


def test_triple_requires_column_suffix() -> None:
    state = game([1, 2, 3, 4, 5], options={"triple": True})
    moves(state, "ann roll")
    assert rule_key(state, "ann", "score chance") == "yahtzee.column_required"
    assert rule_key(state, "ann", "score chance x4") == "move.unknown"
    assert "score chance x3" in y.legal_moves(state, "ann")


def test_column_suffix_forbidden_without_triple() -> None:
    state = game([1, 2, 3, 4, 5])
    moves(state, "ann roll")
    assert rule_key(state, "ann", "score chance x1") == "yahtzee.column_forbidden"


def test_triple_columns_multiply() -> None:
    state = game([1, 2, 3, 4, 5] * 3, options={"triple": True})
    moves(state, "ann roll", "ann score large_straight x1")
    moves(state, "ann roll", "ann score large_straight x2")
    moves(state, "ann roll", "ann score large_straight x3")
    assert y.total(state, "ann") == 40 * (1 + 2 + 3)
    assert y.to_move(state) == ["ann"] and y.view(state, None)["round"] == 4
    sheet = y.outcome(state)["sheets"]["ann"]
    assert [c["large_straight"] for c in sheet] == [40, 40, 40]  # unmultiplied


def test_triple_joker_judged_in_picked_column() -> None:
    state = game([5] * 10, options={"triple": True}, columns={0: {"yahtzee": 50}, 1: {"fives": 10}})
    moves(state, "ann roll")
    scores = {m for m in y.legal_moves(state, "ann") if m.startswith("score")}
    assert "score fives x1" in scores and "score chance x1" not in scores  # joker in x1
    assert "score yahtzee x2" in scores and "score chance x3" in scores  # no joker in x2, x3
    events = moves(state, "ann score yahtzee x3")
    score = next(e for e in events if e.kind == "score")
    assert (score.data["score"], score.data["bonus"], score.data["points"]) == (50, 0, 150)


def test_triple_has_39_rounds() -> None:
    state = y.new_game(["ann"], {"triple": True}, None, ScriptedSource([1, 1, 2, 3, 4] * 39))
    for box in BOXES:
        for n in (1, 2, 3):
            assert not y.is_finished(state)
            moves(state, "ann roll", f"ann score {box} x{n}")
    assert y.is_finished(state) and y.view(state, None)["rounds"] == 39


# --------------------------------------------------------------------------
# Forfeit, views, persistence


def test_forfeit_zeroes_remaining_boxes_and_cannot_win() -> None:
    state = y.new_game(["ann", "bo"], {}, "ann", ScriptedSource([6] * 5 + [1, 1, 2, 2, 3] * 13))
    moves(state, "ann roll", "ann score chance")
    events = y.forfeit(state, "ann")
    assert events[0].kind == "forfeit" and events[0].data == {"zeroed": 12}
    assert all(state.sheets["ann"][0][b] is not None for b in BOXES)
    for box in BOXES:
        assert y.to_move(state) == ["bo"]
        moves(state, "bo roll", f"bo score {box}")
    out = y.outcome(state)
    assert out["finished"] and out["totals"]["ann"] == 30 > out["totals"]["bo"]
    assert out["winners"] == ["bo"]
    # the record says "ann forfeit" and replays to the same outcome
    assert "ann forfeit" in state.history.moves
    assert y.outcome(replay(record_of("yahtzee", state))) == out


def test_forfeit_of_turn_holder_passes_the_turn() -> None:
    state = y.new_game(["ann", "bo"], {}, "ann", ScriptedSource([6] * 10))
    moves(state, "ann roll", "ann forfeit")
    assert y.to_move(state) == ["bo"] and state.dice == []
    y.forfeit(state, "bo")
    assert y.is_finished(state) and y.outcome(state)["winners"] == []


def test_view_shows_sheets_dice_and_potential_scores() -> None:
    state = y.new_game(["ann", "bo"], {}, "ann", ScriptedSource([3, 3, 3, 2, 2, 3, 3]))
    v = y.view(state, None)
    for key in [
        "game",
        "players",
        "dealer",
        "to_move",
        "finished",
        "options",
        "order",
        "turn",
        "round",
        "rounds",
        "dice",
        "kept",
        "rolls_left",
        "sheets",
        "totals",
        "forfeited",
        "potential",
    ]:
        assert key in v
    assert v["rolls_left"] == 3 and v["dice"] == [] and v["potential"] == []
    moves(state, "ann roll", "ann keep 3 3 3")
    v = y.view(state, "bo")
    assert v["dice"] == [3, 3, 3, 3, 3] and v["kept"] == [True, True, True, False, False]
    assert v["rolls_left"] == 1 and v["turn"] == "ann" and v["round"] == 1
    potential = {e["box"]: e["points"] for e in v["potential"]}
    assert potential["yahtzee"] == 50 and potential["threes"] == 15
    assert potential["full_house"] == 0 and len(potential) == 13
    assert v == y.view(state, "ann") == y.view(state, None)  # nothing secret
    moves(state, "ann score threes")
    column = y.view(state, None)["sheets"]["ann"][0]
    assert column["upper_subtotal"] == 15 and column["upper_needed"] == 48
    assert column["boxes"]["threes"] == 15 and column["points"] == 15
    json.dumps(y.view(state, None))


def test_potential_scores_match_scoring_api() -> None:
    state = game([2, 2, 3, 3, 3], filled={"full_house": 25, "chance": 13})
    moves(state, "ann roll")
    got = {e["move"]: e["score"] for e in y.potential_scores(state, "ann")}
    column = state.sheets["ann"][0]
    want = {
        f"score {b}": box_score(b, state.dice, column, "forced")
        for b in legal_boxes(state.dice, column)
    }
    assert got == want and "score full_house" not in got


def test_json_round_trip_mid_turn() -> None:
    state = y.new_game(["ann", "bo"], {"triple": True}, None, SeededSource("rt"))
    moves(state, f"{y.to_move(state)[0]} roll")
    doc = json.loads(json.dumps(y.to_json(state)))
    again = y.from_json(doc)
    assert dumps(y.to_json(again)) == dumps(y.to_json(state))
    assert y.legal_moves(again, y.to_move(again)[0]) == y.legal_moves(state, y.to_move(state)[0])


def test_canonical_moves_round_trip() -> None:
    state = game([5, 1, 5, 2, 6])
    moves(state, "ann roll")
    for m in y.legal_moves(state, "ann"):
        assert " ".join(m.split()) == m
        if m.startswith("keep"):
            values = m.split()[1:]
            assert values == sorted(values)


# --------------------------------------------------------------------------
# The seed's probabilities


def test_probability_five_of_a_kind_first_roll() -> None:
    assert probability.five_of_a_kind_first_roll() == probability.Fraction(6, 7776)


def test_probability_yahtzee_chase_two_rerolls() -> None:
    p = probability.yahtzee_chase(rerolls=2)
    assert p == probability.Fraction(2783176, 60466176)
    assert round(float(p) * 100, 3) == 4.603
    assert probability.yahtzee_chase(rerolls=0) == probability.Fraction(6, 7776)


# --------------------------------------------------------------------------
# Records


RECORD_FILES = sorted(RECORDS.glob("*.json"))


@pytest.mark.parametrize("path", RECORD_FILES, ids=[p.stem for p in RECORD_FILES])
def test_record_replays_to_expected_outcome(path: pathlib.Path) -> None:
    doc = json.loads(path.read_text(encoding="utf-8"))
    proc = subprocess.run(
        [sys.executable, "-m", "games", "replay", str(path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    if "expected_error" in doc:
        assert proc.returncode == 2
        assert proc.stderr.startswith(doc["expected_error"])
        assert proc.stderr.count("\n") == 1
        return
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == doc["expected"]
    state = replay(Record.from_json(doc))
    assert y.outcome(state) == doc["expected"]


# --------------------------------------------------------------------------
# Properties of the scoring API


@given(
    dice=st.lists(st.integers(1, 6), min_size=5, max_size=5),
    filled=st.dictionaries(st.sampled_from(BOXES), st.integers(0, 50), max_size=12),
    joker=st.sampled_from(scoring.JOKER_MODES),
)
def test_a_box_is_always_legal_until_the_column_is_full(
    dice: list[int], filled: dict[str, int], joker: str
) -> None:
    column = col(**filled)
    legal = legal_boxes(dice, column, joker)
    assert legal and set(legal) <= set(scoring.empty_boxes(column))
    if not scoring.joker_active(dice, column):
        # without a joker both modes agree and every empty box is open
        assert legal == scoring.empty_boxes(column)
        for box in legal:
            assert box_score(box, dice, column, "forced") == box_score(box, dice, column, "free")
            assert box_score(box, dice, column, joker) == scoring.normal_scores(dice)[box]
