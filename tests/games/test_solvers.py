"""The exact solvers of Yahtzee and Nine against published values, brute force
and the engines' own rules (issue 8).

The published Yahtzee start-of-game values are tested on freshly built full
tables (≈ 5 s each on an idle machine; ``bench/ai.py`` checks them too); the
solver's turn logic is tested on the last turns of the game (a partial table,
exact entries of the full one) against an independent brute-force recursion
over the engine's scoring.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Mapping
from functools import cache

import numpy as np
import pytest

from games.core import SeededSource
from games.nine import engine as nine_engine
from games.nine import solver as nine
from games.yahtzee import engine as yahtzee_engine
from games.yahtzee import scoring
from games.yahtzee import solver as ys

# --------------------------------------------------------------------------
# Nine


@pytest.fixture(scope="module")
def nine_tables() -> nine.NineTables:
    return nine.solve(tokens=True)


def test_nine_without_tokens_reproduces_known_optimum() -> None:
    t = nine.solve(tokens=False)
    assert round(100 * t.chance_agari(range(1, 10), 0), 3) == 5.349
    assert round(t.expected_remaining(range(1, 10), 0), 3) == 11.964


def test_nine_token_cap_does_not_change_values(nine_tables: nine.NineTables) -> None:
    wide = nine.solve(tokens=True, cap=20)
    full = range(1, 10)
    assert wide.chance_agari(full, 0) == nine_tables.chance_agari(full, 0)
    assert wide.expected_remaining(full, 0) == nine_tables.expected_remaining(full, 0)
    # tokens help: more 上がり, less left
    assert nine_tables.chance_agari(full, 0) > 0.05349
    assert nine_tables.expected_remaining(full, 0) < 11.964


def _value_iteration(tokens: bool, cap: int) -> tuple[dict[tuple[int, int], float], ...]:
    """Both objectives by plain value iteration over the 36 ordered rolls and
    the engine's flip table (an independent check of the DP's loop algebra)."""
    states = [(m, t) for m in range(1, nine.FULL + 1) if m != 1 for t in range(cap + 1)]
    states.sort(key=lambda s: (bin(s[0]).count("1"), s[1]))
    pa = dict.fromkeys(states, 0.0)
    pe = dict.fromkeys(states, 0.0)
    pa[(0, 0)], pe[(0, 0)] = 1.0, 0.0  # 上がり
    pa[(1, 0)], pe[(1, 0)] = 0.0, 1.0  # 1 ドボン
    # per state and roll: the states a flip may lead to, or the one a token leads to
    moves: dict[tuple[int, int], list[tuple[list[tuple[int, int]], float]]] = {}
    for m, t in states:
        rows = []
        for d1, d2 in itertools.product(range(1, 7), repeat=2):
            t1 = t + (1 if tokens and d1 == d2 else 0)  # clamped only where a flip leads
            nexts = []
            for mv in nine_engine.FLIPS[m][d1 + d2]:
                left = m & ~sum(1 << (int(c) - 1) for c in mv.split()[1:])
                nexts.append((left, 0 if left in (0, 1) else min(cap, t1)))
            if nexts:
                rows.append((nexts, 0.0))
            elif t1 > 0:
                rows.append(([], float(t1 - 1)))
            else:
                rows.append(([], -1.0 - nine.card_sum(m)))  # ドボン: minus the sum left
        moves[(m, t)] = rows
    for _ in range(200):  # Gauss–Seidel sweeps, fewest cards first
        delta = 0.0
        for m, t in states:
            a = e = 0.0
            for nexts, code in moves[(m, t)]:
                if nexts:
                    a += max(pa[n] for n in nexts)
                    e += min(pe[n] for n in nexts)
                elif code >= 0:
                    a += pa[(m, int(code))]
                    e += pe[(m, int(code))]
                else:
                    e += -1.0 - code
            a, e = a / 36, e / 36
            delta = max(delta, abs(a - pa[(m, t)]), abs(e - pe[(m, t)]))
            pa[(m, t)], pe[(m, t)] = a, e
        if delta < 1e-14:
            break
    return pa, pe


def test_nine_dp_matches_value_iteration_with_tokens() -> None:
    cap = 4  # small cap: the same clamped game on both sides, and quick
    pa, pe = _value_iteration(tokens=True, cap=cap)
    dp = nine.solve(tokens=True, cap=cap)
    for (m, t), v in pa.items():
        if m in (0, 1):
            continue
        assert dp.agari[m][t] == pytest.approx(v, abs=1e-12)
        assert dp.remaining[m][t] == pytest.approx(pe[(m, t)], abs=1e-11)


def test_nine_flips_match_engine() -> None:
    for m in range(nine.FULL + 1):
        for total in range(2, 13):
            mine = ["flip " + " ".join(map(str, c)) for c in nine.flips(m, total)]
            assert sorted(mine) == sorted(nine_engine.FLIPS[m][total])


def test_nine_choices_are_the_legal_flips_with_values(nine_tables: nine.NineTables) -> None:
    state = nine_engine.new_game(["solo"], {}, "solo", SeededSource("nine-choices"))
    rng = random.Random(3)
    for _ in range(40):
        if nine_engine.is_finished(state):
            state = nine_engine.new_game(["solo"], {}, "solo", SeededSource(f"n{rng.random()}"))
        view = nine_engine.view(state, "solo")
        if view["phase"] == "roll":
            nine_engine.apply(state, "solo", "roll")
            continue
        roll = view["last_roll"]["dice"]
        up = view["up"]["solo"]
        held = view["tokens"]["solo"] - (1 if roll[0] == roll[1] else 0)
        choices = nine_tables.choices(up, held, roll)
        assert sorted(c.move for c in choices) == sorted(nine_engine.legal_moves(state, "solo"))
        assert choices == sorted(choices, key=lambda c: (-c.agari, c.remaining))
        nine_engine.apply(state, "solo", choices[0].move)


# --------------------------------------------------------------------------
# Yahtzee


def test_yahtzee_score_table_matches_engine_scoring() -> None:
    for r, counts in enumerate(ys.COUNTS.tolist()):
        dice = [f + 1 for f in range(6) for _ in range(counts[f])]
        expected = scoring.normal_scores(dice)
        assert [int(x) for x in ys.SCORE[:, r]] == [expected[b] for b in ys.BOXES]
        assert ys.roll_index(dice) == r


def test_yahtzee_roll_probabilities() -> None:
    assert ys.P_ROLL.sum() == pytest.approx(1.0, abs=1e-15)
    assert ys.P_ROLL[ys.roll_index([6] * 5)] * 7776 == pytest.approx(1)
    assert ys.P_ROLL[ys.roll_index([1, 2, 3, 4, 5])] * 7776 == pytest.approx(120)


@pytest.fixture(scope="module", params=ys.JOKERS)
def late_table(request: pytest.FixtureRequest) -> tuple[str, np.ndarray]:
    joker: str = request.param
    return joker, ys.build_table(joker, max_open=3)


def _random_column(rng: random.Random, open_boxes: set[str]) -> dict[str, int | None]:
    """A reachable sheet with exactly ``open_boxes`` empty."""
    col: dict[str, int | None] = scoring.empty_column()
    for j, box in enumerate(ys.BOXES):
        if box in open_boxes:
            continue
        if j < 6:
            col[box] = rng.randint(0, 5) * (j + 1)
        elif box == "yahtzee":
            col[box] = rng.choice([0, 50])
        else:
            col[box] = rng.choice([0, 20, 25, 30])
    col["yahtzee_bonus"] = 100 * rng.randint(0, 2) if col["yahtzee"] == 50 else 0
    return col


def test_yahtzee_vectorized_box_choice_matches_engine_rules(
    late_table: tuple[str, np.ndarray],
) -> None:
    """For every final roll the vectorized best box (joker included) equals the
    best over the engine's legal boxes and scores."""
    joker, table = late_table
    solver = ys.Solver(table, joker)
    rng = random.Random(8)
    rolls = [[f + 1 for f in range(6) for _ in range(c[f])] for c in ys.COUNTS.tolist()]
    for trial in range(60):
        n_open = rng.randint(1, 3)
        open_boxes = set(rng.sample(ys.BOXES, n_open))
        if trial % 3 == 0:  # make the joker matter: yahtzee filled, upper boxes in play
            open_boxes.discard("yahtzee")
            open_boxes.add(rng.choice(ys.BOXES[:6]))
        col = _random_column(rng, open_boxes)
        m, u, b = (np.array([x]) for x in ys.column_state(col))
        vec = ys._final_values(table, m, u, b, joker)[:, 0]
        for r, dice in enumerate(rolls):
            best = max(solver.box_values(col, dice).values())
            assert vec[r] == pytest.approx(best, abs=1e-9), (col, dice)


def _brute_force(joker: str, column: Mapping[str, int | None]) -> float:
    """Expected points to come by direct recursion over the engine's scoring:
    dice as sorted tuples, every keep, every reroll outcome."""

    def outcomes(n: int) -> list[tuple[tuple[int, ...], float]]:
        out = []
        for combo in itertools.combinations_with_replacement(range(1, 7), n):
            ways = math.factorial(n) // math.prod(
                math.factorial(combo.count(f)) for f in set(combo)
            )
            out.append((combo, ways / 6**n))
        return out

    outs = {n: outcomes(n) for n in range(6)}

    memo: dict[tuple[object, ...], float] = {}

    def to_go(key: tuple[tuple[str, int | None], ...]) -> float:
        # the future depends on the filled boxes, the upper sum and the yahtzee box only
        col = dict(key)
        short = (
            tuple(b for b in ys.BOXES if col[b] is None),
            scoring.upper_subtotal(col),
            col["yahtzee"],
        )
        if short not in memo:
            memo[short] = _to_go(col)
        return memo[short]

    def _to_go(col: dict[str, int | None]) -> float:
        if scoring.is_full(col):
            return 0.0

        @cache
        def final(dice: tuple[int, ...]) -> float:
            best = -math.inf
            before = scoring.upper_bonus(col)
            for box in scoring.legal_boxes(list(dice), col, joker):
                new = dict(col)
                new[box] = scoring.box_score(box, list(dice), col, joker)
                gain = new[box] + scoring.yahtzee_bonus(list(dice), col)
                gain += scoring.upper_bonus(new) - before
                new["yahtzee_bonus"] = 0  # banked; not part of the future
                best = max(best, gain + to_go(tuple(sorted(new.items()))))
            return best

        @cache
        def reroll(keep: tuple[int, ...], rerolls: int) -> float:
            """Expected value of keeping ``keep`` and rolling the other dice."""
            return sum(
                p * value(tuple(sorted(keep + o)), rerolls - 1) for o, p in outs[5 - len(keep)]
            )

        @cache
        def value(dice: tuple[int, ...], rerolls: int) -> float:
            best = final(dice)
            if rerolls:
                keeps = {
                    tuple(sorted(c)) for n in range(5) for c in itertools.combinations(dice, n)
                }
                best = max(best, max(reroll(k, rerolls) for k in keeps))
            return best

        return sum(p * value(d, 2) for d, p in outs[5])

    start = dict(column)
    start["yahtzee_bonus"] = 0
    return to_go(tuple(sorted(start.items())))


LATE_SHEETS = [
    # upper bonus in reach, yahtzee holds 50: joker and +100 both matter
    ({"fives", "sixes", "small_straight"}, {"ones": 3, "twos": 6, "threes": 9, "fours": 12}),
    # yahtzee holds 0: forced joker order without the +100
    ({"threes", "full_house", "large_straight"}, {"yahtzee": 0, "sixes": 24}),
    # only upper boxes and one lower box open, yahtzee 50
    ({"ones", "twos", "four_kind"}, {"yahtzee": 50, "sixes": 18, "fives": 25}),
    # yahtzee itself open
    ({"yahtzee", "sixes", "chance"}, {"ones": 2, "fives": 20}),
]


@pytest.mark.parametrize("sheet", range(len(LATE_SHEETS)))
def test_yahtzee_late_game_matches_brute_force(
    late_table: tuple[str, np.ndarray], sheet: int
) -> None:
    joker, table = late_table
    open_boxes, fixed = LATE_SHEETS[sheet]
    col = scoring.empty_column()
    for box in ys.BOXES:
        if box not in open_boxes:
            col[box] = fixed.get(box, 50 if box == "yahtzee" else 0)
    solver = ys.Solver(table, joker)
    assert solver.expected_to_go(col) == pytest.approx(_brute_force(joker, col), abs=1e-9)


def test_yahtzee_advice_moves_are_legal_and_sorted(late_table: tuple[str, np.ndarray]) -> None:
    joker, table = late_table
    solver = ys.Solver(table, joker)
    state = yahtzee_engine.new_game(["solo"], {"joker": joker}, "solo", SeededSource("adv"))
    col = state.sheets["solo"][0]
    for box in ("ones", "twos", "threes", "fours", "fives", "three_kind", "four_kind"):
        col[box] = 0
    col["chance"], col["yahtzee"], col["small_straight"] = 20, 50, 30
    yahtzee_engine.apply(state, "solo", "roll")
    while not yahtzee_engine.is_finished(state):
        rerolls = 3 - state.rolls
        advice = solver.advise(col, state.dice, rerolls)
        legal = set(yahtzee_engine.legal_moves(state, "solo"))
        assert {c.move for c in advice.choices} <= legal
        assert [c.expected for c in advice.choices] == sorted(
            (c.expected for c in advice.choices), reverse=True
        )
        yahtzee_engine.apply(state, "solo", advice.best.move)
        if not yahtzee_engine.is_finished(state) and state.rolls == 0:
            yahtzee_engine.apply(state, "solo", "roll")


@pytest.mark.slow
@pytest.mark.parametrize(("joker", "published"), [("forced", 254.5877), ("free", 254.5896)])
def test_yahtzee_full_build_reaches_published_optimum(joker: str, published: float) -> None:
    """The full table, built fresh (5 s on an idle 2-core machine, ~15 s when busy)."""
    solver = ys.Solver(ys.build_table(joker), joker)
    assert round(solver.expected_total(scoring.empty_column()), 4) == published


def test_yahtzee_triple_heuristic_moves_are_legal(late_table: tuple[str, np.ndarray]) -> None:
    joker, table = late_table
    solver = ys.Solver(table, joker)
    state = yahtzee_engine.new_game(
        ["solo"], {"joker": joker, "triple": True}, "solo", SeededSource("triple")
    )
    columns = state.sheets["solo"]
    for i, col in enumerate(columns):  # late sheets: two open boxes per column
        for box in ys.BOXES:
            if box not in (ys.BOXES[i], ys.BOXES[8 + i]):
                col[box] = 50 if box == "yahtzee" else 0
    yahtzee_engine.apply(state, "solo", "roll")
    while not yahtzee_engine.is_finished(state):
        advice = ys.triple_advice([solver] * 3, columns, state.dice, 3 - state.rolls)
        assert {c.move for c in advice.choices} <= set(yahtzee_engine.legal_moves(state, "solo"))
        yahtzee_engine.apply(state, "solo", advice.best.move)
        if not yahtzee_engine.is_finished(state) and state.rolls == 0:
            yahtzee_engine.apply(state, "solo", "roll")


def test_yahtzee_cache_file_name_carries_rules(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CHABUDAI_CACHE", "/somewhere")
    forced, free = ys.cache_path("forced"), ys.cache_path("free")
    assert str(forced.parent) == "/somewhere"
    assert forced.name.startswith(f"yahtzee-forced-{ys.RULES_VERSION}-")
    assert forced.name.endswith(".npy") and forced != free
    assert ys.cache_path("forced", "/elsewhere").parent.name == "elsewhere"
    monkeypatch.setattr(ys, "YAHTZEE_BONUS", 50)  # a rules change → another file
    assert ys.cache_path("forced") != forced
