"""Pig's rules as an engine of the games contract (see :mod:`games.core`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from games import core
from games.core import Event, History, Option, Outcome, Played, RuleError, Source

NAME = "pig"
OPTIONS: tuple[Option, ...] = (Option("target", "int", 100, minimum=10, maximum=1000),)
MIN_PLAYERS = 2
MAX_PLAYERS = 6


@dataclass
class PigState:
    history: History
    source: Source
    scores: dict[str, int]
    out: list[str] = field(default_factory=list)  # players who left
    current: int = 0
    turn_total: int = 0
    last_roll: dict[str, Any] | None = None
    winner: str | None = None


def new_game(
    players: Sequence[str], options: Mapping[str, Any] | None, dealer: str | None, source: Source
) -> PigState:
    core.check_seats(players, MIN_PLAYERS, MAX_PLAYERS, "Pig")
    opts = core.parse_options(OPTIONS, options)
    first = dealer if dealer is not None else players[0]
    core.check_player(players, first)
    return PigState(
        history=History(list(players), opts, first),
        source=source,
        scores={p: 0 for p in players},
        current=list(players).index(first),
    )


def _player(state: PigState) -> str:
    return state.history.players[state.current]


def is_finished(state: PigState) -> bool:
    return state.winner is not None


def to_move(state: PigState) -> list[str]:
    return [] if is_finished(state) else [_player(state)]


def legal_moves(state: PigState, player: str) -> list[str]:
    if is_finished(state) or player != _player(state):
        return []
    return ["roll", "hold"] if state.turn_total else ["roll"]


def _next(state: PigState) -> list[Event]:
    state.turn_total = 0
    players = state.history.players
    for _ in players:
        state.current = (state.current + 1) % len(players)
        if _player(state) not in state.out:
            break
    return [Event("turn", _player(state))]


def _apply(state: PigState, player: str, move: str) -> Played:
    text = " ".join(move.split())
    if text == "forfeit":
        core.check_player(state.history.players, player)
        return Played(_forfeit(state, player), text)
    if text not in legal_moves(state, player):
        if player not in to_move(state):
            raise RuleError("move.not_your_turn", f"it is not {player}'s turn", player=player)
        raise RuleError("pig.illegal", f"{text!r} is not legal now", move=text)
    if text == "roll":
        (face,) = state.source.roll(1)  # may raise SourceExhausted: nothing changed yet
        state.last_roll = {"player": player, "die": face}
        if face == 1:
            lost = state.turn_total + 0
            return Played([Event("pig_out", player, {"lost": lost}), *_next(state)], text)
        state.turn_total += face
        return Played([Event("roll", player, {"die": face, "total": state.turn_total})], text)
    state.scores[player] += state.turn_total
    events = [Event("hold", player, {"points": state.turn_total, "score": state.scores[player]})]
    if state.scores[player] >= state.history.options["target"]:
        state.winner = player
        state.turn_total = 0
        return Played([*events, Event("game_over", None, {"winner": player})], text)
    return Played(events + _next(state), text)


apply = core.recorded(_apply)


def _forfeit(state: PigState, player: str) -> list[Event]:
    state.out.append(player)
    events = [Event("forfeit", player)]
    left = [p for p in state.history.players if p not in state.out]
    if len(left) == 1:
        state.winner = left[0]
        return [*events, Event("game_over", None, {"winner": left[0]})]
    if _player(state) == player:
        events += _next(state)
    return events


def forfeit(state: PigState, player: str) -> list[Event]:
    """The player leaves (the move ``forfeit``); the last one left wins."""
    core.check_player(state.history.players, player)
    if is_finished(state) or player in state.out:
        return []
    return apply(state, player, "forfeit")


def outcome(state: PigState) -> dict[str, Any]:
    players = state.history.players
    settlement = {p: 0 for p in players}
    if state.winner is not None:
        settlement = {p: -1 for p in players}
        settlement[state.winner] = len(players) - 1
    return {
        "finished": is_finished(state),
        "winner": state.winner,
        "scores": dict(state.scores),
        "settlement": settlement,
    }


def settle(state: PigState) -> Outcome:
    out = outcome(state)
    winners = (state.winner,) if state.winner else ()
    return Outcome(out["finished"], winners, dict(out["settlement"]), core.SIGNED)


def view(state: PigState, viewer: str | None) -> dict[str, Any]:
    return {
        "game": NAME,
        "players": list(state.history.players),
        "dealer": state.history.dealer,
        "options": dict(state.history.options),
        "to_move": to_move(state),
        "finished": is_finished(state),
        "scores": dict(state.scores),
        "turn_total": state.turn_total,
        "last_roll": state.last_roll,
        "target": state.history.options["target"],
        "winner": state.winner,
    }


def to_json(state: PigState) -> dict[str, Any]:
    return {
        "schema": core.SCHEMA_VERSION,
        "history": state.history.to_json(),
        "source": state.source.to_json(),
        "scores": dict(state.scores),
        "out": list(state.out),
        "current": state.current,
        "turn_total": state.turn_total,
        "last_roll": state.last_roll,
        "winner": state.winner,
    }


def from_json(doc: Mapping[str, Any]) -> PigState:
    return PigState(
        history=History.from_json(doc["history"]),
        source=Source.from_json(doc["source"]),
        scores=dict(doc["scores"]),
        out=list(doc["out"]),
        current=int(doc["current"]),
        turn_total=int(doc["turn_total"]),
        last_roll=doc["last_roll"],
        winner=doc["winner"],
    )
