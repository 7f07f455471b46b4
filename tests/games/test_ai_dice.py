"""Computer players and the coach of the four dice games (docs/ai_dice.md)."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from fractions import Fraction
from itertools import product
from typing import Any

import numpy as np
import pytest

from games import bluff, nine, sixdice, yahtzee
from games.bluff import ai as bluff_ai
from games.core import ScriptedSource, SeededSource
from games.nine import ai as nine_ai
from games.sixdice import ai as sixdice_ai
from games.sixdice import policy
from games.yahtzee import ai as yahtzee_ai
from games.yahtzee import solver as ysolver

AIS = (sixdice_ai, bluff_ai, nine_ai, yahtzee_ai)


def _play(
    eng: Any,
    ai: Any,
    players: list[str],
    options: dict[str, Any],
    seed: str,
    levels: dict[str, str],
    after: Callable[[Any, str, str], None] | None = None,
    max_moves: int = 5000,
) -> Any:
    """Play a game with AI players; every chosen move must be legal and its hint sane."""
    state = eng.new_game(players, options, players[0], SeededSource(seed))
    rng = random.Random(seed)
    for _ in range(max_moves):
        if eng.is_finished(state):
            return state
        p = eng.to_move(state)[0]
        legal = eng.legal_moves(state, p)
        view = eng.view(state, p)
        move = ai.choose(view, p, legal, levels[p], rng)
        assert move in legal, (move, legal)
        eng.apply(state, p, move)
        if after:
            after(state, p, move)
    raise AssertionError("game did not finish")


@pytest.mark.parametrize("ai", AIS)
def test_uniform_api(ai: Any) -> None:
    assert ai.LEVELS == ("easy", "normal", "strong")
    assert callable(ai.choose) and callable(ai.hint)


# --------------------------------------------------------------------------
# Six Dice


def _fail_fraction(n: int) -> Fraction:
    bad = sum(1 for roll in product(range(1, 7), repeat=n) if not sixdice.roll_scores(roll, {}))
    return Fraction(bad, 6**n)


def test_sixdice_dobon_chance_is_exact() -> None:
    key = policy.rules_key({})
    assert _fail_fraction(1) == Fraction(2, 3)
    for n in range(1, 7):
        assert policy.fail_chance(n, key) == pytest.approx(float(_fail_fraction(n)), abs=1e-12)
    assert round(100 * policy.fail_chance(6, key), 2) == 2.31


def _sixdice_state(dice: list[int], options: dict[str, Any] | None = None) -> Any:
    return sixdice.new_game(["a", "b"], options or {}, "a", ScriptedSource(dice=dice))


def test_sixdice_hint_numbers() -> None:
    state = _sixdice_state([1, 5, 2, 3, 4, 6, 2, 3, 3, 4, 6])
    sixdice.apply(state, "a", "roll")
    h = sixdice_ai.hint(sixdice.view(state, "a"), "a", sixdice.legal_moves(state, "a"))
    json.dumps(h)
    assert h["reason"] == "hint.sixdice"
    assert h["move"] in sixdice.legal_moves(state, "a")
    assert h["numbers"]["dice"] == 6 and h["numbers"]["dobon_chance"] == 0.0231
    sixdice.apply(state, "a", "take 1")
    h = sixdice_ai.hint(sixdice.view(state, "a"), "a", sixdice.legal_moves(state, "a"))
    # not started and far below 1000: stopping is not allowed, rolling is the move
    assert h["move"] == "roll" and h["numbers"]["dice"] == 5
    assert h["numbers"]["dobon_chance"] == round(float(_fail_fraction(5)), 4)


def test_sixdice_one_die_dobon_is_two_thirds_in_hint() -> None:
    state = _sixdice_state([1, 1, 1, 5, 5, 2], {"start": 0})
    sixdice.apply(state, "a", "roll")
    sixdice.apply(state, "a", "take 1 1 1 5 5")
    h = sixdice_ai.hint(sixdice.view(state, "a"), "a", sixdice.legal_moves(state, "a"))
    assert h["numbers"]["dice"] == 1 and h["numbers"]["dobon_chance"] == round(2 / 3, 4)
    # 1100 in hand with one die: stopping beats a 2/3 chance of losing it all
    assert h["move"] == "stop"
    assert h["numbers"]["stop_value"] > h["numbers"]["roll_value"]


def test_sixdice_strong_plays_for_the_win_in_the_last_round() -> None:
    view = sixdice.view(_sixdice_state([1]), "b")
    view.update(
        scores={"a": 10400, "b": 9000},
        started={"a": True, "b": True},
        ending=True,
        turn_player="b",
        turn_total=600,
        dice_left=3,
        can_stop=True,
    )
    # stopping at 9600 loses for sure; the end-game policy rolls on
    assert sixdice_ai.choose(view, "b", ["roll", "stop"], "strong", random.Random(0)) == "roll"
    # the expected-points level would bank 600 with three dice left
    assert sixdice_ai.choose(view, "b", ["roll", "stop"], "normal", random.Random(3)) == "stop"
    h = sixdice_ai.hint(view, "b", ["roll", "stop"])
    assert h["numbers"]["goal"] == "win" and h["numbers"]["stop_value"] < 0


def test_sixdice_goal_turns_match_the_win_table() -> None:
    """The forward pass of the "reach at least x" policy (what the race table
    uses between turns) agrees with the backward solve: it succeeds exactly as
    often as the win table says, stops only at totals ≥ x, and every turn ends
    in a stop, a ドボン or a ブタ."""
    key = policy.rules_key({})
    gt = policy.goal_turns(key)
    reach = policy.win_table(key).v[6, 0, :]
    totals = np.arange(gt.final.shape[1])
    for k, x in enumerate(policy.GOALS):
        assert gt.final[k].sum() == pytest.approx(reach[x], abs=1e-9)
        assert gt.final[k, :x].sum() == 0.0
        assert gt.final[k].sum() + gt.dobon[k] + gt.buta[k] == pytest.approx(1.0, abs=1e-9)
        # ブタ at least on the first roll, more when 振りきり comes up
        assert gt.buta[k] >= policy.fail_chance(6, key) - 1e-12
    # the last take overshoots: "reach 300" ends well above 300 on average
    k300 = policy.GOALS.index(6)
    mean = (gt.final[k300] * totals).sum() / gt.final[k300].sum() * policy.STEP
    assert 500 < mean < 800


def test_sixdice_race_table_is_a_consistent_win_chance() -> None:
    key = policy.rules_key({})
    race = policy.race_table(key, 300, 2000)
    for f in (0, 1):
        assert ((race.me[f] >= 0) & (race.me[f] <= 1)).all()
        # op is the complement of the opponent's own chance, seats swapped
        assert np.allclose(race.op[f], 1 - race.me[1 - f].T)
    i0 = race.state(0, False)
    # more score is better for the mover (started 1500 vs started 500)
    assert race.me[0][race.state(1500, True), i0] > race.me[0][race.state(500, True), i0]
    # the second seat reaching the target wins at once: stopping there is worth 1
    view = sixdice.view(_sixdice_state([1], {"start": 300, "target": 2000}), "b")
    view.update(
        scores={"a": 1500, "b": 1800},
        started={"a": True, "b": True},
        turn_player="b",
        turn_total=200,
        dice_left=1,
        can_stop=True,
    )
    values = sixdice_ai.evaluate(view, "b", ["roll", "stop"], "strong")
    assert values["stop"] == pytest.approx(1.0) and values["roll"] < 1.0
    assert sixdice_ai.choose(view, "b", ["roll", "stop"], "strong", random.Random(0)) == "stop"
    numbers = sixdice_ai.hint(view, "b", ["roll", "stop"])["numbers"]
    assert numbers["goal"] == "race" and numbers["stop_value"] == pytest.approx(1.0)
    # next to the chances to win: the expected points of each choice this turn
    assert numbers["points"]["stop"] == 200.0
    # for points alone rolling the last die is better (a 1 or a 5 is 振りきり and
    # six fresh dice): the coach shows both, and plays for the game
    assert numbers["points"]["roll"] > 200.0


@pytest.mark.parametrize("level", ["easy", "normal", "strong"])
def test_sixdice_ai_moves_are_legal(level: str) -> None:
    for g in range(6):
        levels = {"a": level, "b": ["easy", "normal", "strong"][g % 3]}
        state = _play(sixdice, sixdice_ai, ["a", "b"], {"target": 3000}, f"sd{level}{g}", levels)
        assert sixdice.outcome(state)["winner"] in ("a", "b")


# --------------------------------------------------------------------------
# Bluff


def _bluff_after(state: Any, p: str, move: str) -> None:
    if move == "roll":
        bluff.peek(state, p)  # as the bot does for a computer player


@pytest.mark.parametrize("level", ["easy", "normal", "strong"])
def test_bluff_ai_moves_are_legal(level: str) -> None:
    for g in range(8):
        levels = {"a": level, "b": "strong", "c": ["easy", "normal", "strong"][g % 3]}
        state = _play(bluff, bluff_ai, ["a", "b", "c"], {}, f"bl{level}{g}", levels, _bluff_after)
        assert bluff.is_finished(state)


def test_bluff_ai_sees_only_its_view() -> None:
    """Two matches that differ only in the dice under the cup (seen by a, not
    by b): b's view and b's choice are the same."""
    choices = []
    for cup in ([6, 5], [3, 1]):
        state = bluff.new_game(["a", "b", "c"], {}, "a", ScriptedSource(dice=cup))
        bluff.apply(state, "a", "roll")
        bluff.peek(state, "a")
        bluff.apply(state, "a", "announce 64")
        view = bluff.view(state, "b")
        assert "cup" not in json.dumps(view) or view["cup_seen"] is None
        legal = bluff.legal_moves(state, "b")
        choices.append(
            (
                view,
                [bluff_ai.choose(view, "b", legal, lv, random.Random(7)) for lv in bluff_ai.LEVELS],
            )
        )
        choices[-1][0]["hint"] = bluff_ai.hint(view, "b", legal)
    assert choices[0] == choices[1]


def test_bluff_chances_are_exact() -> None:
    assert bluff_ai.chance_at_least("21") == pytest.approx(2 / 36)
    assert bluff_ai.chance_at_least("11") == pytest.approx(8 / 36)  # 21 + six doubles
    assert bluff_ai.chance_at_least("31") == pytest.approx(1.0)
    assert sum(bluff_ai.CHANCE.values()) == pytest.approx(1.0)


def test_bluff_reveals_a_known_lie_and_passes_on_known_strong_dice() -> None:
    # a rolled 3-1 (seen), lied 65; b and c pass; back at a... a knows the dice
    state = bluff.new_game(["a", "b"], {}, "a", ScriptedSource(dice=[3, 1, 6, 6]))
    bluff.apply(state, "a", "roll")
    bluff.peek(state, "a")
    bluff.apply(state, "a", "announce 32")
    bluff.apply(state, "b", "announce 41")
    view = bluff.view(state, "a")
    assert view["cup_seen"] == [3, 1]
    assert bluff_ai.chance_true(view) == 0.0
    assert (
        bluff_ai.choose(view, "a", bluff.legal_moves(state, "a"), "strong", random.Random(0))
        == "reveal"
    )
    h = bluff_ai.hint(view, "a", bluff.legal_moves(state, "a"))
    json.dumps(h)
    assert (
        h["reason"] == "hint.bluff" and h["move"] == "reveal" and h["numbers"]["chance_true"] == 0.0
    )


def test_bluff_normal_takes_the_plain_odds_strong_models_the_announcer() -> None:
    """An opening 65: fresh dice reach it with 10/36, so normal (no model of
    lying) reveals; strong knows nobody is forced to lie on the first
    announcement (chance_true 1.0) and rolls."""
    state = bluff.new_game(["a", "b", "c"], {}, "a", ScriptedSource(dice=[6, 5]))
    bluff.apply(state, "a", "roll")
    bluff.peek(state, "a")
    bluff.apply(state, "a", "announce 65")
    view = bluff.view(state, "b")
    legal = bluff.legal_moves(state, "b")
    assert bluff_ai.plain_true(view) == pytest.approx(10 / 36)
    assert bluff_ai.chance_true(view) == 1.0
    assert bluff_ai.choose(view, "b", legal, "normal", random.Random(0)) == "reveal"
    assert bluff_ai.choose(view, "b", legal, "strong", random.Random(0)) == "roll"
    # after a weak value the same 65 may be a forced lie: strong now doubts it
    # (below 50 %) and agrees with normal
    state = bluff.new_game(["a", "b", "c"], {}, "a", ScriptedSource(dice=[6, 4, 3, 1]))
    bluff.apply(state, "a", "roll")
    bluff.apply(state, "a", "announce 64")
    bluff.apply(state, "b", "roll")
    bluff.apply(state, "b", "announce 65")
    view = bluff.view(state, "c")
    assert bluff_ai.chance_true(view) < 0.5
    assert bluff_ai.plain_true(view) == pytest.approx(10 / 36)
    legal = bluff.legal_moves(state, "c")
    for level in ("normal", "strong"):
        assert bluff_ai.choose(view, "c", legal, level, random.Random(0)) == "reveal"


def test_bluff_normal_reveals_a_lie_about_dice_it_saw() -> None:
    # a rolled 3-1 (seen) and announced 32; b passed the cup as 41: fresh
    # dice would reach 41 with 32/36, but normal saw them
    state = bluff.new_game(["a", "b"], {}, "a", ScriptedSource(dice=[3, 1]))
    bluff.apply(state, "a", "roll")
    bluff.peek(state, "a")
    bluff.apply(state, "a", "announce 32")
    bluff.apply(state, "b", "announce 41")
    view = bluff.view(state, "a")
    assert bluff_ai.plain_true(view) == 0.0
    legal = bluff.legal_moves(state, "a")
    assert bluff_ai.choose(view, "a", legal, "normal", random.Random(0)) == "reveal"


def test_bluff_lies_with_the_weakest_value_when_it_cannot_beat() -> None:
    state = bluff.new_game(["a", "b"], {}, "a", ScriptedSource(dice=[6, 6, 3, 2]))
    bluff.apply(state, "a", "roll")
    bluff.apply(state, "a", "announce 66")
    bluff.apply(state, "b", "roll")
    bluff.peek(state, "b")
    view = bluff.view(state, "b")
    assert (
        bluff_ai.choose(view, "b", bluff.legal_moves(state, "b"), "strong", random.Random(0))
        == "announce 21"
    )


# --------------------------------------------------------------------------
# Nine


@pytest.mark.parametrize("level", ["easy", "normal", "strong"])
def test_nine_ai_moves_are_legal(level: str) -> None:
    for g in range(10):
        levels = {"a": level, "b": "strong", "c": "easy"}
        state = _play(nine, nine_ai, ["a", "b", "c"], {}, f"n{level}{g}", levels)
        assert nine.is_finished(state)


def test_nine_hint_chances() -> None:
    state = nine.new_game(["a"], {}, "a", ScriptedSource(dice=[1, 3]))
    h = nine_ai.hint(nine.view(state, "a"), "a", nine.legal_moves(state, "a"))
    assert h["move"] == "roll" and 0 < h["numbers"]["chance_agari"] < 1
    nine.apply(state, "a", "roll")
    legal = nine.legal_moves(state, "a")
    h = nine_ai.hint(nine.view(state, "a"), "a", legal)
    json.dumps(h)
    assert h["reason"] == "hint.nine" and set(h["numbers"]["flips"]) == set(legal)
    best = min(h["numbers"]["flips"].values(), key=lambda f: f["expected_remaining"])
    assert h["numbers"]["flips"][h["move"]] == best


def test_nine_doubles_token_is_not_counted_twice() -> None:
    state = nine.new_game(["a", "b"], {}, "a", ScriptedSource(dice=[2, 2]))
    nine.apply(state, "a", "roll")
    view = nine.view(state, "a")
    assert view["tokens"]["a"] == 1 and nine_ai._tokens_before(view, "a") == 0
    expected = nine_ai.tables().choices(range(1, 10), 0, (2, 2))
    assert [c.move for c in nine_ai.flip_choices(view, "a")] == [c.move for c in expected]


# --------------------------------------------------------------------------
# Yahtzee


@pytest.fixture(scope="module")
def late_game_solver() -> ysolver.Solver:
    """A table for the last two rounds only (the full one takes ≈ 15 s)."""
    solver = ysolver.Solver(ysolver.build_table("forced", max_open=2), "forced")
    return solver


def test_yahtzee_ai_moves_are_legal(late_game_solver: ysolver.Solver) -> None:
    yahtzee_ai.install_solver(late_game_solver)
    for g in range(3):
        state = yahtzee.new_game(["a", "b"], {}, "a", SeededSource(f"y{g}"))
        rng = random.Random(g)
        while not yahtzee.is_finished(state):
            p = yahtzee.to_move(state)[0]
            legal = yahtzee.legal_moves(state, p)
            view = yahtzee.view(state, p)
            late = view["round"] > 11
            level = ["strong", "normal"][g % 2] if late else "easy"
            move = yahtzee_ai.choose(view, p, legal, level, rng)
            assert move in legal
            if late and legal != ["roll"]:
                h = yahtzee_ai.hint(view, p, legal)
                json.dumps(h)
                assert h["reason"] == "hint.yahtzee" and h["move"] in legal
                exp = [c["expected"] for c in h["numbers"]["choices"]]
                assert exp == sorted(exp, reverse=True)
                if level == "strong":
                    assert move == h["move"]
            yahtzee.apply(state, p, move)


def test_yahtzee_strong_takes_the_obvious_yahtzee(late_game_solver: ysolver.Solver) -> None:
    yahtzee_ai.install_solver(late_game_solver)
    state = yahtzee.new_game(["a"], {}, "a", ScriptedSource(dice=[4, 4, 4, 4, 4]))
    sheet = state.sheets["a"][0]
    for box in yahtzee.engine.BOXES:
        if box not in ("yahtzee", "chance"):
            sheet[box] = 0
    yahtzee.apply(state, "a", "roll")
    view = yahtzee.view(state, "a")
    legal = yahtzee.legal_moves(state, "a")
    assert yahtzee_ai.choose(view, "a", legal, "strong", random.Random(0)) == "score yahtzee"
