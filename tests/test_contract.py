"""The engine contract, checked the same way for every game (DESIGN.md).

Random play-outs with every option combination: legal moves exist until the
game ends, every game ends, an illegal move raises RuleError and changes
nothing, the history grows by exactly one entry per move played, a source
that runs out mid-game changes nothing, to_json/from_json round-trips,
replaying the game's own record gives the same outcome, settlements are
zero-sum and ``settle`` agrees with ``outcome``. Per-game rule tests live in
tests/games/.
"""
from __future__ import annotations

import importlib
import itertools
import json
import pathlib
import random
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games import registry
from games.core import (
    SIGNED,
    TOTAL,
    EndsEarly,
    Engine,
    Event,
    MoveBreak,
    Outcome,
    RuleError,
    ScriptedSource,
    SeededSource,
    SourceExhausted,
    dumps,
    ends_early,
    record_of,
)
from games.registry import read_record, replay

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
        move = rng.choice(legal)
        history = list(state.history.moves)
        events = eng.apply(state, player, move)
        assert all(isinstance(e, Event) for e in events)
        assert state.history.moves == [*history, f"{player} {move}"]  # once, canonical
        moves += 1
        if moves % 37 == 0:
            doc = json.loads(json.dumps(eng.to_json(state)))
            again = eng.from_json(doc)
            assert dumps(eng.to_json(again)) == dumps(eng.to_json(state))
            state = again
        early = ends_early(eng)
        if moves >= max_moves // 10 and early is not None:
            history = list(state.history.moves)
            early.end_game(state)  # RULES §1: the table ends a game stuck far from its target
            assert state.history.moves == history  # not a move: not recorded
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
    check_settle(eng, state)


# What the bot ranks players by today (bot/games/<g>.py ``standings``, base.py
# for Nine): (points by player, winners) read from ``outcome``. ``settle``
# must give exactly these, so the bot can switch to it with the same ranks.
def _settlement_and_winner(out: dict[str, Any], players: list[str]) -> tuple[
        dict[str, int], list[str]]:
    settlement = out.get("settlement") or {p: 0 for p in players}
    winners = out.get("winners") or ([out["winner"]] if out.get("winner") else [])
    return {p: int(settlement.get(p, 0)) for p in players}, winners


BOT_STANDINGS: dict[str, Callable[[dict[str, Any], list[str]], tuple[dict[str, int],
                                                                        list[str]]]] = {
    "sixdice": _settlement_and_winner,
    "nine": _settlement_and_winner,
    "yahtzee": lambda out, players: (
        {p: int((out.get("totals") or {}).get(p, 0)) for p in players},
        list(out.get("winners") or [])),
    "bluff": lambda out, players: (
        {p: -int((out.get("losses") or {}).get(p, 0)) for p in players},
        list(out.get("winners") or [])),
    "sixtysix": lambda out, players: (
        {p: int((out.get("game_points") or {}).get(p, 0)) for p in players},
        [out["winner"]] if out.get("winner") else []),
}


def check_settle(eng: Any, state: Any) -> Outcome:
    """``settle`` is ``outcome`` in the one result type, with the points and
    winners the bot ranks by, and the kind of points the game's spec states."""
    players = list(state.history.players)
    out = eng.outcome(state)
    result = eng.settle(state)
    assert isinstance(result, Outcome)
    points, winners = BOT_STANDINGS[eng.NAME](out, players)
    assert result.finished is out["finished"]
    assert result.points == points and list(result.points) == players
    assert list(result.winners) == winners
    assert result.kind == registry.spec(eng.NAME).points
    if "settlement" in out:
        assert result.kind == SIGNED and sum(result.points.values()) == 0
    return result


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


@pytest.mark.parametrize("eng,options", CASES,
                         ids=[f"{e.NAME}-{json.dumps(o, sort_keys=True)}" for e, o in CASES])
@settings(max_examples=3)
@given(seed=st.text(min_size=1, max_size=8), n=st.integers(min_value=1, max_value=8),
       cut=st.floats(min_value=0.0, max_value=0.99))
def test_a_source_that_runs_out_mid_game_changes_nothing(
        eng: Any, options: dict[str, Any], seed: str, n: int, cut: float) -> None:
    """A record cut short (too few dice or decks): the move that needs what is
    missing raises SourceExhausted (a RuleError) and leaves the state as it
    was; every move before it added exactly its own entry to the history."""
    n = max(eng.MIN_PLAYERS, min(n, eng.MAX_PLAYERS))
    players = [f"p{i}" for i in range(n)]
    rec = record_of(eng.NAME, play_out(eng, players, options, seed, check_illegal=False))
    dice = rec.dice[:int(len(rec.dice) * cut)]
    decks = rec.decks[:max(1, int(len(rec.decks) * cut))] if rec.decks else []
    if len(dice) == len(rec.dice) and len(decks) == len(rec.decks):
        return  # nothing to run out of (a game without randomness left)
    state = eng.new_game(rec.players, rec.options, rec.dealer,
                         ScriptedSource(dice, decks, rec.mishaps))
    for number, text in enumerate(rec.moves):
        player, move = text.split(" ", 1)
        before = dumps(eng.to_json(state))
        try:
            eng.apply(state, player, move)
        except SourceExhausted:
            assert dumps(eng.to_json(state)) == before
            assert state.history.moves == rec.moves[:number]
            return
        assert state.history.moves == rec.moves[:number + 1]
    pytest.fail("the cut record never ran out")


@pytest.mark.parametrize("eng", ENGINES, ids=[e.NAME for e in ENGINES])
def test_every_engine_follows_the_typed_contract(eng: Any) -> None:
    assert isinstance(eng, Engine)
    assert registry.engine(eng.NAME) is eng
    # an optional ability is a protocol of its own: only Six Dice ends early
    assert (ends_early(eng) is eng) == (eng.NAME == "sixdice") == isinstance(eng, EndsEarly)


@pytest.mark.parametrize("eng", ENGINES, ids=[e.NAME for e in ENGINES])
def test_forfeit_is_recorded_once_when_it_is_a_move(eng: Any) -> None:
    """``forfeit(state, p)`` is the move ``forfeit`` where the game has one
    (one history entry, as ``apply`` writes it) and unrecorded elsewhere (Six
    Dice); a forfeit that changes nothing records nothing."""
    players = ["p0", "p1", "p2"][:max(2, min(3, eng.MAX_PLAYERS))]
    by_forfeit = eng.new_game(players, {}, "p0", SeededSource("leave"))
    by_move = eng.new_game(players, {}, "p0", SeededSource("leave"))
    assert eng.forfeit(by_forfeit, "p0")
    try:
        eng.apply(by_move, "p0", " forfeit ")
        is_move = True
    except RuleError as err:
        assert err.key == "move.unknown"
        is_move = False
    assert by_forfeit.history.moves == (["p0 forfeit"] if is_move else [])
    if is_move:
        assert dumps(eng.to_json(by_forfeit)) == dumps(eng.to_json(by_move))
    history = list(by_forfeit.history.moves)
    try:
        assert eng.forfeit(by_forfeit, "p0") == []
    except RuleError:
        pass
    assert by_forfeit.history.moves == history


RECORDS = sorted(p for p in (pathlib.Path(__file__).parent / "records").glob("*/*.json")
                 if not p.name.endswith(".expected.json"))


@pytest.mark.parametrize("path", RECORDS, ids=[f"{p.parent.name}-{p.stem}" for p in RECORDS])
def test_settle_agrees_with_outcome_on_recorded_games(path: pathlib.Path) -> None:
    rec = read_record(json.loads(path.read_text(encoding="utf-8")))
    if path.stem.startswith("broken_"):
        # a broken record names its break instead of settling: replay
        # stops at the rule break, never at a later or an earlier move
        with pytest.raises(MoveBreak) as brk:
            replay(rec)
        expected = path.with_name(path.stem + ".expected.json")
        if expected.exists():
            assert str(brk.value) == json.loads(expected.read_text(encoding="utf-8"))["error"]
        return
    state = replay(rec)
    eng = registry.engine(rec.game)
    result = check_settle(eng, state)
    assert result.finished == eng.is_finished(state)
    if rec.game == "yahtzee":
        assert result.kind == TOTAL


def test_an_outcome_has_one_of_two_kinds() -> None:
    assert Outcome(False, (), {"a": 0}, TOTAL).kind == "total"
    with pytest.raises(ValueError):
        Outcome(True, ("a",), {"a": 1}, "score")
