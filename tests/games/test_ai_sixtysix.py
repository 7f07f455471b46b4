"""Sixty-Six computer player (games/sixtysix/ai.py) and its solver."""

from __future__ import annotations

import random
from typing import Any

import pytest

from games import sixtysix as g
from games.core import CARDS, SeededSource
from games.sixtysix import ai, solver
from games.sixtysix.solver import Position, after, award, bits, follow_moves

P = ["ann", "bob"]


MEMORY = ("played", "face_down_trump", "closing_opponent_had_trick")


def plain_view(state: g.State, name: str) -> dict[str, Any]:
    """The engine view without the deal's public memory (the AI's fallback)."""
    v = g.view(state, name)
    for key in MEMORY:
        del v[key]
    return v


def play_game(seed: int, levels: dict[str, str], plain: bool, target: int = 3) -> g.State:
    state = g.new_game(P, {"target": target}, None, SeededSource(f"t{seed}"))
    rng = random.Random(seed)
    while not g.is_finished(state):
        who = g.to_move(state)[0]
        legal = g.legal_moves(state, who)
        view = plain_view(state, who) if plain else g.view(state, who)
        move = ai.choose(view, who, legal, levels[who], rng)
        assert move in legal, (move, legal)
        g.apply(state, who, move)
    return state


@pytest.mark.parametrize("level", ai.LEVELS)
def test_never_an_illegal_move(level: str) -> None:
    for seed in range(3):
        state = play_game(seed, {"ann": level, "bob": "easy"}, plain=seed == 2)
        assert state.winner is not None


def test_strict_option_moves_are_legal() -> None:
    state = g.new_game(P, {"target": 2, "strict": True}, None, SeededSource("strict"))
    rng = random.Random(5)
    while not g.is_finished(state):
        who = g.to_move(state)[0]
        legal = g.legal_moves(state, who)
        move = ai.choose(g.view(state, who), who, legal, "strong", rng)
        assert move in legal
        g.apply(state, who, move)


def _hidden_swapped(state: g.State, me: int) -> g.State:
    """The same state with the opponent's hand and the face-down talon
    (trump card kept) reshuffled among themselves."""
    other = g.clone(state)
    o = 1 - me
    hidden = list(other.hands[o]) + (other.talon[:-1] if other.talon else [])
    random.Random(9).shuffle(hidden)
    k = len(other.hands[o])
    other.hands[o] = sorted(hidden[:k], key=CARDS.index)
    if other.talon:
        other.talon = hidden[k:] + [other.talon[-1]]
    return other


def test_choice_depends_only_on_the_view() -> None:
    checked = 0
    for seed in range(4):
        state = g.new_game(P, {}, None, SeededSource(f"v{seed}"))
        rng = random.Random(seed)
        for _ in range(40):
            if g.is_finished(state):
                break
            who = g.to_move(state)[0]
            me = P.index(who)
            legal = g.legal_moves(state, who)
            twin = _hidden_swapped(state, me)
            assert g.view(twin, who) == g.view(state, who)
            level = "strong" if seed == 0 and checked < 12 else "normal"
            a = ai.choose(g.view(state, who), who, legal, level, random.Random(seed))
            b = ai.choose(g.view(twin, who), who, legal, level, random.Random(seed))
            assert a == b
            checked += 1
            g.apply(state, who, ai.choose(g.view(state, who), who, legal, "easy", rng))
    assert checked > 40


def test_declares_at_66_and_passes_below() -> None:
    view = {"players": P, "points": 70, "trump": "S", "trick": [], "hand": ["AS"]}
    assert ai.choose(view, "ann", ["play AS", "declare"], "strong", random.Random(1)) == "declare"
    view["points"] = 50
    assert ai.choose(view, "ann", ["declare", "pass"], "normal", random.Random(1)) == "pass"


def test_hint_numbers_are_json() -> None:
    import json

    state = g.new_game(P, {}, "ann", SeededSource("hint"))
    who = g.to_move(state)[0]
    h = ai.hint(g.view(state, who), who, g.legal_moves(state, who))
    assert h["reason"] == "hint.sixtysix"
    assert h["move"] in g.legal_moves(state, who)
    assert 0.0 <= h["numbers"]["win_chance"] <= 1.0
    assert h["move"] in h["numbers"]["moves"]
    json.dumps(h)


def test_knowledge_reads_the_public_memory_of_the_engine_view() -> None:
    """From the plain engine view the player knows every played card, the
    opponent's exact points, the face-down trump and the closing state."""
    open_checked = closed_checked = 0
    for seed in range(12):
        state = g.new_game(P, {"target": 2}, None, SeededSource(f"mem{seed}"))
        rng = random.Random(seed)
        while not g.is_finished(state):
            who = g.to_move(state)[0]
            me = P.index(who)
            view = g.view(state, who)
            assert all(key in view for key in MEMORY)
            k = ai.knowledge(view, who)
            if state.phase == "lead" and not state.trick:
                played = {c["card"] for t in view["played"] for c in t["cards"]}
                assert len(played) == 2 * sum(state.tricks)
                assert not any(k.pool >> CARDS.index(c) & 1 for c in played)
                assert k.points == [state.points[me], state.points[1 - me]]
                unseen = bin(k.pool).count("1") + bin(k.opp_known).count("1")
                if not state.closed:
                    assert unseen == len(state.hands[1 - me]) + max(0, len(state.talon) - 1)
                    open_checked += 1
                elif state.talon:
                    down = view["face_down_trump"]
                    assert down == state.talon[-1]
                    assert not k.pool >> CARDS.index(down) & 1
                    assert k.opp_had_trick == state.closing_opponent_had_trick
                    assert unseen == len(state.hands[1 - me]) + len(state.talon) - 1
                    closed_checked += 1
            legal = g.legal_moves(state, who)
            move = "close" if "close" in legal and seed % 2 else None
            g.apply(state, who, move or ai.choose(view, who, legal, "easy", rng))
    assert open_checked > 20 and closed_checked > 3


def test_node_budget_stops_sampling_and_stays_deterministic(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    state = g.new_game(P, {}, "ann", SeededSource("budget"))
    who = g.to_move(state)[0]
    view, legal = g.view(state, who), g.legal_moves(state, who)
    calls = [0]
    real = ai.sample

    def counted(k: ai.Knowledge, rng: random.Random, nodes: list[int] | None = None) -> Position:
        calls[0] += 1
        return real(k, rng, nodes)

    monkeypatch.setattr(ai, "sample", counted)
    tight = ai.Level(32, 10, 24, 3, True, 0.0, 1, 3)
    ai.evaluate(view, who, legal, tight, random.Random(1))
    assert calls[0] == 3  # the budget is spent at once: only the minimum
    calls[0] = 0
    ai.evaluate(view, who, legal, ai.Level(32, 10, 24, 3, True, 0.0, 10**9, 3), random.Random(1))
    assert calls[0] == 32
    a = ai.evaluate(view, who, legal, ai.LEVEL["strong"], random.Random(2))
    b = ai.evaluate(view, who, legal, ai.LEVEL["strong"], random.Random(2))
    assert a == b


# --------------------------------------------------------------------------
# The solver against brute-force minimax


def brute(pos: Position | int) -> int:
    """Plain minimax over every legal card (same declaration policy)."""
    if isinstance(pos, int):
        return pos
    hand = pos.hands[pos.turn]
    if pos.led >= 0:
        hand = follow_moves(hand, pos.led, pos.trump, True, pos.strict)
    vals = [brute(after(pos, c)) for c in bits(hand)]
    return max(vals) if pos.turn == 0 else min(vals)


def random_endgame(rng: random.Random, n: int, closed: bool, strict: bool) -> Position:
    deck = list(range(24))
    rng.shuffle(deck)
    h0 = sum(1 << c for c in deck[:n])
    h1 = sum(1 << c for c in deck[n : 2 * n])
    pts = [rng.randint(0, 60), rng.randint(0, 60)]
    tricks = [rng.randint(0, 3), rng.randint(0, 3)]
    for p in (0, 1):
        if tricks[p] == 0:
            pts[p] = rng.choice([0, 20, 40])
    closer = rng.randint(0, 1) if closed else -1
    return Position(
        (h0, h1),
        (),
        closed,
        closer,
        rng.random() < 0.5,
        rng.randint(0, 3),
        pts,
        tricks,
        rng.randint(0, 1),
        -1,
        strict,
    )


@pytest.mark.parametrize("closed", [False, True])
@pytest.mark.parametrize("strict", [False, True])
def test_endgame_solver_matches_brute_force(closed: bool, strict: bool) -> None:
    rng = random.Random(f"{closed}{strict}")
    for _ in range(60):
        pos = random_endgame(rng, rng.randint(1, 4), closed, strict)
        assert solver.solve_endgame(pos) == brute(pos)


def test_endgame_last_trick_bonus_and_no_score() -> None:
    m = lambda *cs: sum(1 << CARDS.index(c) for c in cs)  # noqa: E731
    # talon gone: player 0 wins the last trick (AS beats 9S): 56 + 11 + 10 = 77 ≥ 66,
    # opponent 40 ≥ 33 → 1
    pos = Position((m("AS"), m("9S")), (), False, -1, False, 1, [56, 40], [3, 3], 0)
    assert solver.solve_endgame(pos) == 1
    # same but 40 + 11 + 10 = 61: nobody declares, the deal scores nothing
    pos = Position((m("AS"), m("9S")), (), False, -1, False, 1, [40, 56], [3, 3], 0)
    assert solver.solve_endgame(pos) == 0
    # closed by player 0 without 66 while the opponent had no trick: opponent gets 3
    pos = Position((m("AS"), m("9S")), (), True, 0, False, 1, [40, 0], [3, 0], 0)
    assert solver.solve_endgame(pos) == -3


def test_award_table() -> None:
    assert award(0, -1, True, (66, 33), (1, 1)) == 1
    assert award(0, -1, True, (66, 32), (1, 1)) == 2
    assert award(0, -1, True, (66, 40), (1, 0)) == 3
    assert award(1, -1, True, (40, 50), (1, 1)) == 2  # player 1 below 66: player 0 gets 2
    assert award(1, 1, False, (10, 65), (0, 5)) == 3  # closer short, opponent had no trick


def test_open_search_is_legal_and_bounded() -> None:
    rng = random.Random(3)
    for _ in range(20):
        deck = list(range(24))
        rng.shuffle(deck)
        pos = Position(
            (sum(1 << c for c in deck[:6]), sum(1 << c for c in deck[6:12])),
            tuple(deck[12:]),
            False,
            -1,
            False,
            deck[-1] // 6,
            [0, 0],
            [0, 0],
            0,
        )
        assert -3.0 <= solver.search_open(pos, 4) <= 3.0
