"""The shared engine contract: errors, options, randomness, events, results and records.

Every game package (``games/<name>/``) exposes the same module-level API,
typed by :class:`Engine` (generic over the game's state ``S``), modelled on
OpenSpiel's State/Observer split and python-chess's move text:

- ``new_game(players, options, dealer, source) -> S``
- ``legal_moves(state, player) -> list[str]`` (moves in the game's notation,
  empty when that player may not move now)
- ``apply(state, player, move: str) -> list[Event]`` — the only thing that
  changes a state; an illegal move raises :class:`RuleError` and changes
  nothing. A game writes its own ``_apply`` (returning :class:`Played`) and
  gets ``apply`` from :func:`recorded`, which keeps the history: core
  appends the move to ``state.history.moves`` once it was played.
- ``forfeit(state, player) -> list[Event]`` — a player leaves
- ``view(state, viewer: str | None) -> dict`` — what ``viewer`` may know
  (``None`` = the public); JSON-able
- ``to_json(state) -> dict`` / ``from_json(doc) -> S``
- ``outcome(state) -> dict`` — the replay outcome of docs/rules/notation.md
- ``settle(state) -> Outcome`` — the one result type every caller reads
- ``is_finished(state) -> bool`` and ``to_move(state) -> list[str]``

Optional abilities are protocols of their own, asked for with a helper, never
with ``getattr``: :class:`EndsEarly` (:func:`ends_early`).

Randomness comes only from a :class:`Source`: scripted (records, tests) or
seeded (:class:`SeededSource`, a SHA-256 stream that ``python -m games verify``
can audit).
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol, TypeVar, cast, runtime_checkable

if TYPE_CHECKING:
    # PEP 696 defaults (``typing`` has them from Python 3.13): a bare
    # ``Engine`` means ``Engine[Any]`` for the registry, which holds engines of
    # different states, and mypy --strict accepts it there.
    from typing_extensions import TypeVar as DefaultTypeVar

    S = DefaultTypeVar("S", default=Any)
    S_contra = DefaultTypeVar("S_contra", contravariant=True, default=Any)
else:
    S = TypeVar("S")
    S_contra = TypeVar("S_contra", contravariant=True)

SCHEMA_VERSION = 1

# The 24 cards of Sixty-Six in notation: rank 9 T J Q K A + suit S H D C.
RANKS = ("9", "T", "J", "Q", "K", "A")
SUITS = ("S", "H", "D", "C")
CARDS = tuple(r + s for s in SUITS for r in RANKS)


# --------------------------------------------------------------------------
# Errors


ECHO_LIMIT = 40  # characters of a user's own text that a rule error repeats


class RuleError(ValueError):
    """A move or a setting that the rules forbid.

    ``key`` is a message key for the bot's catalogues (``"sixdice.stop_before_start"``),
    ``args`` its placeholders. ``str(err)`` is a plain English sentence for
    logs and the command-line tools. A placeholder that repeats what a user
    typed goes through :meth:`clip`, so that no error message grows with the
    user's text.
    """

    def __init__(self, key: str, message: str | None = None, **args: Any) -> None:
        self.key = key
        self.args_ = dict(args)
        self.message = message or key
        super().__init__(self.message)

    def __str__(self) -> str:
        return self.message

    @staticmethod
    def clip(text: str, limit: int = ECHO_LIMIT) -> str:
        """A user's text as an error repeats it: at most ``limit`` characters,
        the cut marked with "…".

        >>> RuleError.clip("target=5000")
        'target=5000'
        >>> RuleError.clip("x" * 100, 8)
        'xxxxxxx…'
        """
        return text if len(text) <= limit else text[: limit - 1] + "…"


class RecordError(ValueError):
    """A game record that cannot be read (not a rule break: bad JSON, unknown game…)."""


# --------------------------------------------------------------------------
# Options


INT_DIGITS = 18  # digits of the longest integer option text read (a 64-bit integer has 19)
INT_BOUND = 2**63  # every integer option fits a signed 64-bit column (SQLite)


def _shown(value: Any) -> str:
    """A raw option value as an error repeats it (clipped; an integer too
    long to print whole is shown by its size).

    >>> _shown("9" * 50)
    '999999999999999999999999999999999999999…'
    >>> _shown(-(10**5000))
    '-≈10^5000'
    """
    if isinstance(value, int) and abs(value).bit_length() > 4 * ECHO_LIMIT:
        # more digits than an error shows (and str() refuses above 4300)
        return ("-" if value < 0 else "") + f"≈10^{int(math.log10(abs(value)))}"
    try:
        text = value if isinstance(value, str) else str(value)
    except ValueError:  # a container holding an integer too long for str()
        text = type(value).__name__
    return RuleError.clip(text)


@dataclass(frozen=True)
class Option:
    """One house option (docs/rules/<game>.md).

    ``kind`` is ``"bool"``, ``"int"`` or ``"choice"``. Values coming from
    records or commands may be JSON booleans/integers, or the strings
    ``"on"``/``"off"`` and digit strings. An ``"int"`` option of a game has a
    ``minimum`` and a ``maximum`` (docs/rules/<game>.md "House option limits");
    a digit string longer than :data:`INT_DIGITS` digits is refused before it
    is converted, and no value reaches ±2⁶³ (:data:`INT_BOUND`).
    """

    name: str
    kind: str
    default: Any
    choices: tuple[str, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    optional: bool = False  # an int option that may be ``None`` (= off)

    def coerce(self, value: Any) -> Any:
        shown = _shown(value)
        bad = RuleError(
            "option.bad_value",
            f"option {self.name!r} cannot be {shown!r}",
            option=self.name,
            value=shown,
        )
        if self.kind == "bool":
            if isinstance(value, bool):
                return value
            if isinstance(value, str) and value.lower() in ("on", "off", "true", "false"):
                return value.lower() in ("on", "true")
            raise bad
        if self.kind == "int":
            if value is None or (isinstance(value, str) and value.lower() == "off"):
                if self.optional:
                    return None
                raise bad
            if isinstance(value, bool):
                raise bad
            if isinstance(value, str):
                text = value.strip()
                digits = text[1:] if text.startswith("-") else text
                # decimal digits only (full-width ones too: int() reads them),
                # and never so many that int() is slow or refuses
                if len(digits) > INT_DIGITS or not digits.isdecimal():
                    raise bad
                value = int(text)
            if not isinstance(value, int) or not -INT_BOUND < value < INT_BOUND:
                raise bad
            if self.minimum is not None and value < self.minimum:
                raise bad
            if self.maximum is not None and value > self.maximum:
                raise bad
            return value
        if self.kind == "choice":
            if isinstance(value, str) and value in self.choices:
                return value
            raise bad
        raise AssertionError(self.kind)


def parse_options(specs: Sequence[Option], raw: Mapping[str, Any] | None) -> dict[str, Any]:
    """Validate house options against ``specs``, filling in defaults.

    >>> specs = [Option("target", "int", 10000, minimum=1)]
    >>> parse_options(specs, {"target": "5000"})
    {'target': 5000}
    >>> parse_options(specs, {"colour": 1})
    Traceback (most recent call last):
    ...
    games.core.RuleError: unknown option 'colour'
    """
    by_name = {o.name: o for o in specs}
    out = {o.name: o.default for o in specs}
    for name, value in (raw or {}).items():
        if name not in by_name:
            shown = RuleError.clip(str(name))
            raise RuleError("option.unknown", f"unknown option {shown!r}", option=shown)
        out[name] = by_name[name].coerce(value)
    return out


# --------------------------------------------------------------------------
# Events


@dataclass(frozen=True)
class Event:
    """Something that happened while applying a move.

    ``visible_to`` is ``None`` for a public event, or the players who may see
    it (a Bluff roller's dice). The bot writes public text only from public
    events and views.
    """

    kind: str
    player: str | None = None
    data: dict[str, Any] = field(default_factory=dict)
    visible_to: tuple[str, ...] | None = None

    @property
    def public(self) -> bool:
        return self.visible_to is None

    def to_json(self) -> dict[str, Any]:
        doc: dict[str, Any] = {"kind": self.kind, "player": self.player, "data": self.data}
        if self.visible_to is not None:
            doc["visible_to"] = list(self.visible_to)
        return doc


# --------------------------------------------------------------------------
# Randomness


class SourceExhausted(RuleError):
    """A scripted source ran out of dice or decks (a broken record)."""


class Source:
    """Where a game's randomness comes from. Everything drawn is logged so a
    finished game can be written as a record.

    - ``roll(k)``: k die faces from the game's dice stream (logged in ``dice``).
    - ``deck()``: a shuffled 24-card Sixty-Six deck (logged in ``decks``).
    - ``mishap()``: Six Dice ``bowl_mishaps``: whether the roll just made had a
      mishap (logged as 1-based roll numbers in ``mishaps``).
    - ``aux_roll(k)`` / ``randbelow(n)``: choosing the first dealer/starter;
      not part of records (a record names its dealer).
    """

    def __init__(self) -> None:
        self.dice_log: list[int] = []
        self.decks_log: list[list[str]] = []
        self.mishaps_log: list[int] = []
        self.rolls = 0  # number of roll() calls, for mishap numbering

    # subclasses implement the _draw_* methods
    def _draw_faces(self, k: int) -> list[int]:
        raise NotImplementedError

    def _draw_deck(self) -> list[str]:
        raise NotImplementedError

    def _draw_mishap(self, roll_number: int) -> bool:
        raise NotImplementedError

    def aux_roll(self, k: int) -> list[int]:
        raise NotImplementedError

    def randbelow(self, n: int) -> int:
        raise NotImplementedError

    def roll(self, k: int) -> list[int]:
        faces = self._draw_faces(k)
        self.dice_log.extend(faces)
        self.rolls += 1
        return faces

    def deck(self) -> list[str]:
        cards = self._draw_deck()
        self.decks_log.append(list(cards))
        return cards

    def mishap(self) -> bool:
        """Whether the latest roll (``self.rolls``) had a bowl mishap."""
        hit = self._draw_mishap(self.rolls)
        if hit:
            self.mishaps_log.append(self.rolls)
        return hit

    def to_json(self) -> dict[str, Any]:
        raise NotImplementedError

    @staticmethod
    def from_json(doc: Mapping[str, Any]) -> Source:
        kind = doc.get("kind")
        if kind == "scripted":
            return ScriptedSource.from_json(doc)
        if kind == "seeded":
            return SeededSource.from_json(doc)
        raise RecordError(f"unknown source kind {kind!r}")

    def _log_json(self) -> dict[str, Any]:
        return {
            "dice_log": list(self.dice_log),
            "decks_log": [list(d) for d in self.decks_log],
            "mishaps_log": list(self.mishaps_log),
            "rolls": self.rolls,
        }

    def _load_log(self, doc: Mapping[str, Any]) -> None:
        self.dice_log = list(doc.get("dice_log", []))
        self.decks_log = [list(d) for d in doc.get("decks_log", [])]
        self.mishaps_log = list(doc.get("mishaps_log", []))
        self.rolls = int(doc.get("rolls", 0))


class ScriptedSource(Source):
    """Randomness read from a record (or written by a test).

    >>> src = ScriptedSource(dice=[6, 6, 3])
    >>> src.roll(2), src.roll(1)
    ([6, 6], [3])
    """

    def __init__(
        self,
        dice: Iterable[int] = (),
        decks: Iterable[Sequence[str]] = (),
        mishaps: Iterable[int] = (),
        aux: Iterable[int] = (),
    ) -> None:
        super().__init__()
        self.dice = list(dice)
        self.decks = [list(d) for d in decks]
        self.mishaps = sorted(set(mishaps))
        self.aux = list(aux)
        self.dice_pos = 0
        self.deck_pos = 0
        self.aux_pos = 0

    def _draw_faces(self, k: int) -> list[int]:
        if self.dice_pos + k > len(self.dice):
            raise SourceExhausted("record.dice_exhausted", "the record's dice list ran out")
        faces = self.dice[self.dice_pos : self.dice_pos + k]
        self.dice_pos += k
        return faces

    def _draw_deck(self) -> list[str]:
        if self.deck_pos >= len(self.decks):
            raise SourceExhausted("record.decks_exhausted", "the record's decks list ran out")
        cards = list(self.decks[self.deck_pos])
        self.deck_pos += 1
        return cards

    def _draw_mishap(self, roll_number: int) -> bool:
        return roll_number in self.mishaps

    def aux_roll(self, k: int) -> list[int]:
        if self.aux_pos + k > len(self.aux):
            raise SourceExhausted("record.aux_exhausted", "no scripted dealer rolls left")
        faces = self.aux[self.aux_pos : self.aux_pos + k]
        self.aux_pos += k
        return faces

    def randbelow(self, n: int) -> int:
        return (self.aux_roll(1)[0] - 1) % n

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": "scripted",
            "dice": self.dice,
            "decks": self.decks,
            "mishaps": self.mishaps,
            "aux": self.aux,
            "pos": [self.dice_pos, self.deck_pos, self.aux_pos],
            **self._log_json(),
        }

    @classmethod
    def from_json(cls, doc: Mapping[str, Any]) -> ScriptedSource:
        src = cls(doc["dice"], doc["decks"], doc["mishaps"], doc.get("aux", []))
        src.dice_pos, src.deck_pos, src.aux_pos = doc["pos"]
        src._load_log(doc)
        return src


class _Stream:
    """Uniform integers from SHA-256(seed ':' label ':' counter), by rejection.

    ``runs`` logs the bounds drawn, run-length encoded, so that a saved
    state restores the stream exactly by drawing them again.
    """

    __slots__ = ("prefix", "counter", "buf", "pos", "runs")

    def __init__(self, seed: str, label: str) -> None:
        self.prefix = f"{seed}:{label}:".encode()
        self.counter = 0
        self.buf = b""
        self.pos = 0
        self.runs: list[list[int]] = []

    def _byte(self) -> int:
        if self.pos >= len(self.buf):
            self.buf = hashlib.sha256(self.prefix + str(self.counter).encode()).digest()
            self.counter += 1
            self.pos = 0
        b = self.buf[self.pos]
        self.pos += 1
        return b

    def below(self, n: int) -> int:
        """A uniform integer in ``range(n)``, ``1 <= n <= 65536``."""
        if self.runs and self.runs[-1][0] == n:
            self.runs[-1][1] += 1
        else:
            self.runs.append([n, 1])
        if n <= 256:
            limit = 256 - 256 % n
            while True:
                b = self._byte()
                if b < limit:
                    return b % n
        limit = 65536 - 65536 % n
        while True:
            v = self._byte() << 8 | self._byte()
            if v < limit:
                return v % n

    def restore(self, runs: Sequence[Sequence[int]]) -> None:
        for n, count in runs:
            for _ in range(count):
                self.below(n)

    def at(self) -> list[int]:
        """Where the stream stands: the next block's counter and the read
        position in the current block (saved beside ``runs``)."""
        return [self.counter, self.pos]

    def seek(self, runs: Sequence[Sequence[int]], at: Sequence[int]) -> None:
        """Restore to ``at`` without drawing ``runs`` again: a saved state is
        loaded at every press, and replaying the 195 dice of a Yahtzee game
        took 55 µs a load against 5 µs this way. The block is hashed again
        from its counter. Only the last run is ever changed in place
        (:meth:`below` counts on in it), so only it is copied: the others are
        shared with ``runs`` (a Sixty-Six game's are one per card drawn)."""
        self.runs = cast("list[list[int]]", list(runs))  # lists as loaded, shared
        if self.runs:
            self.runs[-1] = list(self.runs[-1])
        self.counter, self.pos = int(at[0]), int(at[1])
        if self.counter:
            self.buf = hashlib.sha256(self.prefix + str(self.counter - 1).encode()).digest()


class SeededSource(Source):
    """Randomness fixed in advance by a secret seed.

    The hash :func:`seed_hash` is published when the game starts and the seed
    when it ends; ``python -m games verify SEED HASH`` then shows that the
    dice were determined before the first roll. Dice, decks, mishaps and the
    dealer choice use separate streams, so the dice a seed produces do not
    depend on the options.

    >>> SeededSource("example").roll(6)
    [4, 4, 4, 5, 2, 4]
    """

    def __init__(self, seed: str) -> None:
        super().__init__()
        self.seed = seed
        self._dice = _Stream(seed, "dice")
        self._decks = _Stream(seed, "decks")
        self._mishap = _Stream(seed, "mishap")
        self._aux = _Stream(seed, "aux")

    def _draw_faces(self, k: int) -> list[int]:
        return [1 + self._dice.below(6) for _ in range(k)]

    def _draw_deck(self) -> list[str]:
        cards = list(CARDS)
        for i in range(len(cards) - 1, 0, -1):  # Fisher–Yates
            j = self._decks.below(i + 1)
            cards[i], cards[j] = cards[j], cards[i]
        return cards

    def _draw_mishap(self, roll_number: int) -> bool:
        return self._mishap.below(100) == 0

    def aux_roll(self, k: int) -> list[int]:
        return [1 + self._aux.below(6) for _ in range(k)]

    def randbelow(self, n: int) -> int:
        return self._aux.below(n)

    def _streams(self) -> tuple[_Stream, ...]:
        return (self._dice, self._decks, self._mishap, self._aux)

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": "seeded",
            "seed": self.seed,
            "runs": [s.runs for s in self._streams()],
            "at": [s.at() for s in self._streams()],
            **self._log_json(),
        }

    @classmethod
    def from_json(cls, doc: Mapping[str, Any]) -> SeededSource:
        """The source as saved; ``runs`` drawn again where ``at`` (the
        streams' positions) is missing: a state saved by an older version."""
        src = cls(doc["seed"])
        at = doc.get("at")
        for i, (stream, runs) in enumerate(zip(src._streams(), doc["runs"], strict=True)):
            if at is not None:
                stream.seek(runs, at[i])
            else:
                stream.restore(runs)
        src._load_log(doc)
        return src


def seed_hash(seed: str) -> str:
    """The SHA-256 of a game seed, as published when the game starts.

    >>> seed_hash("example")[:16]
    '50d858e0985ecc7f'
    """
    return hashlib.sha256(seed.encode()).hexdigest()


# --------------------------------------------------------------------------
# The engine contract


class Played(NamedTuple):
    """What a game's own ``_apply`` returns: the events of the move and its
    canonical text, the words after the player's name in the record."""

    events: list[Event]
    move: str


class Recorded(Protocol):
    """A state that keeps its game's :class:`History` (every game's state)."""

    history: History


R = TypeVar("R", bound=Recorded)


def recorded(step: Callable[[R, str, str], Played]) -> Callable[[R, str, str], list[Event]]:
    """A game's public ``apply``, built from its own ``_apply`` (``step``).

    As OpenSpiel's ``apply_action`` records the action after the game's own
    ``_apply_action``: the step validates and plays the move (raising
    :class:`RuleError` before it changes anything), and only when it returned
    is ``"PLAYER MOVE"`` appended to ``state.history.moves``, exactly once.
    Games never append to their history by hand.

    >>> @dataclass
    ... class Toy:
    ...     history: History
    >>> def _apply(state: Toy, player: str, move: str) -> Played:
    ...     if move.split() != ["hop"]:
    ...         raise RuleError("move.unknown", f"unknown move {move!r}")
    ...     return Played([Event("hop", player)], "hop")
    >>> apply = recorded(_apply)
    >>> toy = Toy(History(["a"], {}, "a"))
    >>> [e.kind for e in apply(toy, "a", " hop ")], toy.history.moves
    (['hop'], ['a hop'])
    >>> apply(toy, "a", "jump")
    Traceback (most recent call last):
    ...
    games.core.RuleError: unknown move 'jump'
    >>> toy.history.moves
    ['a hop']
    """

    def apply(state: R, player: str, move: str) -> list[Event]:
        played = step(state, player, move)
        state.history.moves.append(f"{player} {played.move}")
        return played.events

    apply.__name__ = apply.__qualname__ = "apply"
    apply.__module__ = step.__module__
    apply.__doc__ = step.__doc__
    return apply


SIGNED = "signed"  # settlement points that sum to zero, or the game's own signed points
TOTAL = "total"  # a final score (Yahtzee's totals)


@dataclass(frozen=True)
class Outcome:
    """One result type for every game (as python-chess's ``Outcome``): what a
    finished game means for its players, whatever the game.

    ``winners`` in seat order (empty while unfinished, or when nobody wins);
    ``points`` by every player in seat order, the figure the players are
    ranked by after the winners; ``kind`` says what they are: :data:`SIGNED`
    (a settlement summing to zero, or the game's signed points such as
    Bluff's losses as negatives) or :data:`TOTAL` (a final score). A game's
    ``settle(state)`` derives it from its ``outcome(state)``, which stays the
    record's replay outcome.

    >>> Outcome(True, ("b",), {"a": -3, "b": 3}, SIGNED).points["b"]
    3
    """

    finished: bool
    winners: tuple[str, ...]
    points: dict[str, int]
    kind: str

    def __post_init__(self) -> None:
        if self.kind not in (SIGNED, TOTAL):
            raise ValueError(f"an outcome's kind is {SIGNED!r} or {TOTAL!r}, not {self.kind!r}")


@runtime_checkable
class Engine(Protocol[S]):
    """What every ``games/<name>`` module provides, generic over its state
    (``Engine[sixdice.State]``; a bare ``Engine`` is ``Engine[Any]``, as the
    registry holds engines of different states)."""

    NAME: str
    OPTIONS: tuple[Option, ...]
    MIN_PLAYERS: int
    MAX_PLAYERS: int

    def new_game(
        self,
        players: Sequence[str],
        options: Mapping[str, Any] | None,
        dealer: str | None,
        source: Source,
    ) -> S: ...

    def legal_moves(self, state: S, player: str) -> list[str]: ...

    def apply(self, state: S, player: str, move: str) -> list[Event]: ...

    def forfeit(self, state: S, player: str) -> list[Event]: ...

    def view(self, state: S, viewer: str | None) -> dict[str, Any]: ...

    def to_json(self, state: S) -> dict[str, Any]: ...

    def from_json(self, doc: Mapping[str, Any]) -> S: ...

    def outcome(self, state: S) -> dict[str, Any]: ...

    def settle(self, state: S) -> Outcome: ...

    def is_finished(self, state: S) -> bool: ...

    def to_move(self, state: S) -> list[str]: ...


@runtime_checkable
class EndsEarly(Protocol[S_contra]):
    """An optional ability: the table may end the game before its end,
    settled as it stands (Six Dice's ``end_game``: a game stuck far from its
    target). Not a move: it is not recorded, so a record of such a game
    replays unfinished."""

    def end_game(self, state: S_contra) -> list[Event]: ...


def ends_early(engine: Engine[S]) -> EndsEarly[S] | None:
    """The engine as an :class:`EndsEarly`, or ``None`` when its games end
    only by their rules.

    >>> from games import nine, sixdice
    >>> ends_early(sixdice) is sixdice, ends_early(nine)
    (True, None)
    """
    return engine if isinstance(engine, EndsEarly) else None


def split_move(text: str) -> list[str]:
    """Split a move's notation into words (records split on white space)."""
    return text.split()


def check_seats(players: Sequence[str], lo: int, hi: int, title: str) -> None:
    """The seats of a new game: ``lo``–``hi`` distinct names without white space.

    >>> check_seats(["a", "b"], 2, 8, "Nine")
    >>> check_seats(["a"], 2, 8, "Bluff")
    Traceback (most recent call last):
    ...
    games.core.RuleError: Bluff needs 2–8 players, not 1
    """
    if not lo <= len(players) <= hi:
        raise RuleError(
            "game.players",
            f"{title} needs {lo}–{hi} players, not {len(players)}",
            count=len(players),
            min=lo,
            max=hi,
        )
    if len(set(players)) != len(players) or not all(
        isinstance(p, str) and p and not any(c.isspace() for c in p) for p in players
    ):
        raise RuleError("game.players", "player names must be distinct and without spaces")


def roll_for_dealer(
    players: Sequence[str], source: Source, rank: Callable[[int], int] = lambda face: face
) -> tuple[str, list[dict[str, int]]]:
    """親決め: every contender rolls one die (``source.aux_roll``); the highest
    by ``rank`` is dealer, tied highest roll again among themselves. Returns
    the dealer and every round's faces.

    >>> ten = lambda f: 10 if f == 1 else f  # Six Dice: a 1 counts as 10
    >>> roll_for_dealer(["a", "b", "c"], ScriptedSource(aux=[6, 1, 1, 3, 2]), ten)
    ('b', [{'a': 6, 'b': 1, 'c': 1}, {'b': 3, 'c': 2}])
    """
    rounds: list[dict[str, int]] = []
    contenders = list(players)
    while True:
        faces = dict(zip(contenders, source.aux_roll(len(contenders)), strict=True))
        rounds.append(faces)
        top = max(rank(f) for f in faces.values())
        contenders = [p for p in contenders if rank(faces[p]) == top]
        if len(contenders) == 1:
            return contenders[0], rounds


def check_player(players: Sequence[str], player: str) -> None:
    if player not in players:
        raise RuleError("move.not_a_player", f"{player!r} is not a player", player=player)


# --------------------------------------------------------------------------
# Records


@dataclass
class Record:
    """A game record (docs/rules/notation.md)."""

    game: str
    players: list[str]
    dealer: str | None
    options: dict[str, Any] = field(default_factory=dict)
    dice: list[int] = field(default_factory=list)
    decks: list[list[str]] = field(default_factory=list)
    moves: list[str] = field(default_factory=list)
    mishaps: list[int] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        doc: dict[str, Any] = {
            "game": self.game,
            "options": self.options,
            "players": self.players,
            "dealer": self.dealer,
            "dice": self.dice,
            "decks": self.decks,
            "moves": self.moves,
        }
        if self.mishaps:
            doc["mishaps"] = self.mishaps
        return doc

    @classmethod
    def from_json(cls, doc: Any) -> Record:
        if not isinstance(doc, dict):
            raise RecordError("a record is one JSON object")
        game = doc.get("game")
        if not isinstance(game, str) or not game:
            raise RecordError("'game' must be the name of a game")
        players = doc.get("players")
        if (
            not isinstance(players, list)
            or not players
            or not all(
                isinstance(p, str) and p and not any(c.isspace() for c in p) for p in players
            )
        ):
            raise RecordError("'players' must be a non-empty list of names without spaces")
        if len(set(players)) != len(players):
            raise RecordError("'players' names a player twice")
        dealer = doc.get("dealer")
        if dealer is not None and dealer not in players:
            raise RecordError(f"unknown player {dealer!r} as dealer")
        options = doc.get("options", {})
        if not isinstance(options, dict):
            raise RecordError("'options' must be an object")
        dice = doc.get("dice", [])
        if not isinstance(dice, list) or not all(
            isinstance(d, int) and not isinstance(d, bool) and 1 <= d <= 6 for d in dice
        ):
            raise RecordError("'dice' must be a list of die faces 1–6")
        decks = doc.get("decks", [])
        if not isinstance(decks, list) or not all(
            isinstance(d, list) and sorted(d) == sorted(CARDS) for d in decks
        ):
            raise RecordError("'decks' must be lists of the 24 cards, each exactly once")
        moves = doc.get("moves", [])
        if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
            raise RecordError("'moves' must be a list of strings")
        mishaps = doc.get("mishaps", [])
        if not isinstance(mishaps, list) or not all(
            isinstance(m, int) and not isinstance(m, bool) and m >= 1 for m in mishaps
        ):
            raise RecordError("'mishaps' must be a list of roll numbers ≥ 1")
        return cls(game, list(players), dealer, dict(options), dice, decks, moves, mishaps)


class MoveBreak(Exception):
    """A record's move broke a rule: carries the 1-based move number."""

    def __init__(self, number: int, move: str, error: RuleError) -> None:
        self.number = number
        self.move = move
        self.error = error
        super().__init__(f"move {number} {move!r}: {error}")


def record_of(game: str, state: Any) -> Record:
    """The record of a game so far, from a state that follows the
    :class:`History` convention (``state.history`` and ``state.source``)."""
    h: History = state.history
    src: Source = state.source
    return Record(
        game=game,
        players=list(h.players),
        dealer=h.dealer,
        options=dict(h.options),
        dice=list(src.dice_log),
        decks=[list(d) for d in src.decks_log],
        moves=list(h.moves),
        mishaps=list(src.mishaps_log),
    )


@dataclass
class History:
    """What a record needs besides the randomness: kept in every state."""

    players: list[str]
    options: dict[str, Any]
    dealer: str | None
    moves: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "players": list(self.players),
            "options": dict(self.options),
            "dealer": self.dealer,
            "moves": list(self.moves),
        }

    @classmethod
    def from_json(cls, doc: Mapping[str, Any]) -> History:
        return cls(list(doc["players"]), dict(doc["options"]), doc["dealer"], list(doc["moves"]))


def dumps(doc: Any) -> str:
    """Canonical JSON text (stable key order, UTF-8 kept)."""
    return json.dumps(doc, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
