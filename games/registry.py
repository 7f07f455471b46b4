"""The games chabudai knows: one registry of game specs.

A game states its own facts in a :class:`GameSpec` (as OpenSpiel's games
declare ``_GAME_TYPE`` and call ``register_game``): its engine, player counts
and options (read from the engine), whether it has secrets, what its points
mean, its default turn time, a small example position, the default move of a
player whose clock ran out, its AI and the AI's warm-up, and where its bot
plugin lives. Callers never switch on a game's name: they ask the registry.

The five games of chabudai are :data:`BUILTIN`, the one list of games; a test
or an extension adds another with :func:`register`.

>>> names()
('sixdice', 'bluff', 'nine', 'yahtzee', 'sixtysix')
>>> spec("nine").max_players
8
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from games.core import (
    Engine,
    MoveBreak,
    Option,
    Record,
    RecordError,
    RuleError,
    ScriptedSource,
    SourceExhausted,
)

# The one list of games: the modules that define each built-in game's SPEC.
BUILTIN = (
    "games.sixdice.spec",
    "games.bluff.spec",
    "games.nine.spec",
    "games.yahtzee.spec",
    "games.sixtysix.spec",
)

# (state, player, legal moves, moves already played in this timeout) ->
# (move, whether the timeout ends with it)
TimeoutMove = Callable[[Any, str, list[str], list[str]], tuple[str, bool]]


def _first_legal(state: Any, player: str, legal: list[str], played: list[str]) -> tuple[str, bool]:
    return legal[0], True


@dataclass(frozen=True)
class Example:
    """A small scripted position for ``/rules``: the dice and decks it draws,
    and the moves the first player makes."""

    dice: tuple[int, ...] = ()
    decks: tuple[tuple[str, ...], ...] = ()
    moves: tuple[str, ...] = ()


@dataclass(frozen=True)
class GameSpec:
    """What a game states about itself."""

    engine: Engine
    plugin: str  # dotted module path of the game's bot plugin (its ``PLUGIN``)
    secrets: bool = False  # secret dice or hands go to the players' DMs
    points: str = "signed"  # "signed" settlement points, or "total" (a final score)
    turn_seconds: int = 90  # the default turn clock
    example: Example = Example()
    timeout_move: TimeoutMove = _first_legal
    ai: str | None = None  # dotted module path: LEVELS, choose(), hint()
    # dotted module path of the post-game review: reviewer(record) (games.review)
    review: str | None = None
    # the AI's tables for these options: a key naming them (None = nothing to
    # build) and the blocking build (run once per process and key)
    warm_up_key: Callable[[Mapping[str, Any]], str | None] = lambda options: None
    warm_up: Callable[[Mapping[str, Any]], None] | None = None
    warm_at_start: bool = False  # build (load) the AI's default tables when the bot starts
    hint_is_slow: bool = False  # the coach searches (seconds): answer "thinking…" first
    # a computer player's move out of turn, from its own view and legal moves
    # (Sixty-Six: declare 66), else None
    interject: Callable[[dict[str, Any], str, list[str]], str | None] | None = None
    # what follows a computer's move in the same commit (Bluff: a computer
    # looks under the cup right after rolling)
    after_cpu_move: Callable[[Any, str, str], list[Any]] | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def name(self) -> str:
        return self.engine.NAME

    @property
    def options(self) -> tuple[Option, ...]:
        return tuple(self.engine.OPTIONS)

    @property
    def min_players(self) -> int:
        return self.engine.MIN_PLAYERS

    @property
    def max_players(self) -> int:
        return self.engine.MAX_PLAYERS

    def ai_module(self) -> Any:
        """The game's AI module (``LEVELS``, ``choose``, ``hint``)."""
        if self.ai is None:
            raise LookupError(f"{self.name} has no computer player")
        return importlib.import_module(self.ai)


_SPECS: dict[str, GameSpec] = {}


def register(game: GameSpec) -> GameSpec:
    """Add a game (idempotent for the same spec object)."""
    known = _SPECS.get(game.name)
    if known is not None and known is not game:
        raise ValueError(f"a game named {game.name!r} is already registered")
    _SPECS[game.name] = game
    return game


def unregister(name: str) -> None:
    """Remove a game added with :func:`register` (tests)."""
    _SPECS.pop(name, None)


def _load_builtins() -> None:
    if all(path.split(".")[1] in _SPECS for path in BUILTIN):
        return
    for path in BUILTIN:
        module = importlib.import_module(path)
        register(module.SPEC)


def names() -> tuple[str, ...]:
    """Every registered game: the built-in five first, in their order."""
    _load_builtins()
    return tuple(_SPECS)


def builtin_names() -> tuple[str, ...]:
    """The five games of chabudai (not the ones a test registered)."""
    return tuple(path.split(".")[1] for path in BUILTIN)


def spec(name: str) -> GameSpec:
    """The spec of a game by its record name; an unknown name is a
    :class:`RecordError`."""
    found = _SPECS.get(name)
    if found is not None:  # asked a few times a press: no look at the built-ins then
        return found
    _load_builtins()
    found = _SPECS.get(name)
    if found is None:
        raise RecordError(f"unknown game {name!r} (expected one of {', '.join(_SPECS)})")
    return found


def engine(name: str) -> Engine:
    """The engine of a game by its record name.

    >>> engine("nine").NAME
    'nine'
    """
    return spec(name).engine


def read_record(doc: Any) -> Record:
    """A game record from its JSON document, of a registered game; anything
    else is a :class:`RecordError`."""
    record = Record.from_json(doc)
    spec(record.game)
    return record


def replay(record: Record) -> Any:
    """Replay a record to its final state; a rule break raises :class:`MoveBreak`."""
    eng = engine(record.game)
    source = ScriptedSource(record.dice, record.decks, record.mishaps)
    try:
        state = eng.new_game(record.players, record.options, record.dealer, source)
    except SourceExhausted as err:
        raise MoveBreak(0, "(deal)", err) from err
    except RuleError as err:
        raise RecordError(str(err)) from err
    for number, text in enumerate(record.moves, start=1):
        words = text.split()
        if not words:
            raise MoveBreak(number, text, RuleError("move.empty", "empty move"))
        player, move = words[0], " ".join(words[1:])
        try:
            if player not in record.players:
                raise RuleError("move.not_a_player", f"unknown player {player!r}", player=player)
            eng.apply(state, player, move)
        except RuleError as err:
            raise MoveBreak(number, text, err) from err
    return state


def faces(move: str) -> list[int]:
    """The numbers of a move's notation (``"flip 3 9"`` → ``[3, 9]``)."""
    return [int(w) for w in move.split()[1:]]


def example_state(game: str, players: Sequence[str]) -> Any:
    """The example position of ``game`` (``/rules``), for these player names."""
    the = spec(game)
    ex = the.example
    source = ScriptedSource(dice=list(ex.dice), decks=[list(d) for d in ex.decks])
    state = the.engine.new_game(list(players), {}, players[0], source)
    for move in ex.moves:
        the.engine.apply(state, players[0], move)
    return state
