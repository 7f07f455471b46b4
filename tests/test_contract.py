"""The engine contract, checked the same way for every game (DESIGN.md).

Random play-outs with every option combination: legal moves exist until the
game ends, every game ends, an illegal move raises RuleError and changes
nothing, to_json/from_json round-trips, replaying the game's own record gives
the same outcome, and settlements are zero-sum. Per-game rule tests live in
tests/games/.
"""
from __future__ import annotations

import importlib
import itertools
import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games import registry
from games.core import Event, RuleError, SeededSource, dumps, record_of
from games.registry import replay

ENGINES = []
for _name in registry.names():
    try:
        ENGINES.append(importlib.import_module(f"games.{_name}"))
    except ModuleNotFoundError:  # a game not written yet
        pass

JUNK = ["", "fly", "roll roll", "take", "take 7", "flip 0", "score nothing",
        "announce 12", "play XX", "keep 9", "marry", "stop now", "ROLL", "declare 66"]


def option_sets(eng: Any) -> list[dict[str, Any]]:
    """Every combination of the bool/choice options. Int options take their
    small test values (``SMALL_OPTION_VALUES``, so random games stay short)
    in every combination, and their defaults in the all-defaults game."""
    small = getattr(eng, "SMALL_OPTION_VALUES", {})
    axes: list[list[tuple[str, Any]]] = []
    for opt in eng.OPTIONS:
        if opt.kind == "bool":
            axes.append([(opt.name, False), (opt.name, True)])
        elif opt.kind == "choice":
            axes.append([(opt.name, c) for c in opt.choices])
        else:
            axes.append([(opt.name, v) for v in small.get(opt.name, [opt.default])[:1]])
    combos = [dict(c) for c in itertools.product(*axes)] if axes else [{}]
    defaults = {o.name: o.default for o in eng.OPTIONS}
    if defaults not in combos:
        combos.insert(0, defaults)
    return combos


def play_out(eng: Any, players: list[str], options: dict[str, Any], seed: str,
             check_illegal: bool, max_moves: int = 20000) -> Any:
    state = eng.new_game(players, options, None, SeededSource(seed))
    rng = random.Random(seed)
    moves = 0
    while not eng.is_finished(state):
        movers = [p for p in players if eng.legal_moves(state, p)]
        assert movers, "no player has a legal move in an unfinished game"
        assert set(eng.to_move(state)) <= set(movers)
        player = rng.choice(sorted(eng.to_move(state)) or movers)
        legal = eng.legal_moves(state, player)
        if check_illegal and moves % 23 == 0:
            before = dumps(eng.to_json(state))
            for bad in JUNK + [f"{m}" for p in players if p != player
                               for m in eng.legal_moves(state, p)
                               if m not in legal][:3]:
                if bad in legal:
                    continue
                with pytest.raises(RuleError):
                    eng.apply(state, player, bad)
                assert dumps(eng.to_json(state)) == before, f"illegal {bad!r} changed the state"
            for other in players:
                if other not in movers:
                    for m in legal[:2]:
                        with pytest.raises(RuleError):
                            eng.apply(state, other, m)
                    assert dumps(eng.to_json(state)) == before
        events = eng.apply(state, player, rng.choice(legal))
        assert all(isinstance(e, Event) for e in events)
        moves += 1
        if moves % 37 == 0:
            doc = json.loads(json.dumps(eng.to_json(state)))
            again = eng.from_json(doc)
            assert dumps(eng.to_json(again)) == dumps(eng.to_json(state))
            state = again
        if moves >= max_moves // 10 and hasattr(eng, "end_game"):
            eng.end_game(state)  # RULES §1: the table ends a game stuck far from its target
            break
        assert moves < max_moves, "game did not end"
    assert eng.legal_moves(state, players[0]) == []
    return state


def check_finished(eng: Any, state: Any) -> None:
    out = eng.outcome(state)
    assert out["finished"] is True
    if "settlement" in out:
        assert sum(out["settlement"].values()) == 0
    json.dumps(out)
    # the game's own record replays to the same outcome
    rec = record_of(eng.NAME, state)
    again = replay(rec)
    if getattr(state, "end_reason", None) == "table":  # not a record move: replays unfinished
        assert eng.is_finished(again) is False
        assert {k: eng.outcome(again)[k] for k in ("scores", "started")} == {
            k: out[k] for k in ("scores", "started")}
    else:
        assert eng.outcome(again) == out
    for viewer in [None, *state.history.players]:
        json.dumps(eng.view(state, viewer))


CASES = [(eng, opts) for eng in ENGINES for opts in option_sets(eng)]


@pytest.mark.parametrize("eng,options", CASES,
                         ids=[f"{e.NAME}-{json.dumps(o, sort_keys=True)}" for e, o in CASES])
@settings(max_examples=4)
@given(seed=st.text(min_size=1, max_size=8), n=st.integers(min_value=1, max_value=8))
def test_random_playouts_follow_the_contract(eng: Any, options: dict[str, Any], seed: str,
                                             n: int) -> None:
    n = max(eng.MIN_PLAYERS, min(n, eng.MAX_PLAYERS))
    players = [f"p{i}" for i in range(n)]
    state = play_out(eng, players, options, seed, check_illegal=True)
    check_finished(eng, state)


@pytest.mark.parametrize("eng", ENGINES, ids=[e.NAME for e in ENGINES])
def test_unknown_option_is_refused(eng: Any) -> None:
    players = [f"p{i}" for i in range(eng.MIN_PLAYERS)]
    with pytest.raises(RuleError) as err:
        eng.new_game(players, {"no_such_option": True}, None, SeededSource("x"))
    assert err.value.key == "option.unknown"


@pytest.mark.parametrize("eng", ENGINES, ids=[e.NAME for e in ENGINES])
def test_player_count_limits(eng: Any) -> None:
    with pytest.raises(RuleError):
        eng.new_game([f"p{i}" for i in range(eng.MAX_PLAYERS + 1)], {}, None, SeededSource("x"))
    if eng.MIN_PLAYERS > 1:
        with pytest.raises(RuleError):
            eng.new_game(["p0"], {}, None, SeededSource("x"))
