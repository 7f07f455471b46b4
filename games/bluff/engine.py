"""Bluff dice — Mäxchen family (docs/rules/bluff.md): the rules engine.

Two dice under a cup. The holder rolls (secretly; looking is a separate,
unrecorded action, :func:`peek`) or passes the cup without rolling, and
announces a value strictly stronger than the last one; or reveals the last
roll: if it is weaker than the last announcement the announcer loses
(``bluff_called``), else the revealer loses (``wrong_call``). A match is games
until a player reaches ``losses`` (default 3) or ``games`` games were played.

Events (``core.Event.kind`` → ``data`` keys):

- ``start``: ``game`` (1-based number), ``starter`` — a game begins
- ``roll``: public, no dice — the holder shook the cup
- ``peek``: private (``visible_to=(roller,)``): ``dice``, ``value``
- ``announce``: ``value``, ``rolled`` (whether the announcer rolled this turn)
- ``reveal``: public: ``dice``, ``value`` (of the dice), ``announced``,
  ``announcer``, ``loser``, ``reason`` (``bluff_called`` / ``wrong_call``)
- ``forfeit``: ``losses`` — the player left and takes the loss limit
- ``game_over``: ``winners``, ``losses`` — the match is over

:func:`settle`: the losses as negative points and the winners (kind ``signed``).

View keys (besides ``game players dealer to_move finished options``):
``losses`` (player → int), ``games`` (finished games: ``{"loser", "reason"}``),
``game_number``, ``starter``, ``holder`` (who has the cup, null when over),
``phase`` (``"roll"``: must roll, the first turn of a game; ``"announce"``:
rolled, must announce; ``"reveal"``: after 21, must reveal; ``"choose"``:
reveal, roll or pass; ``"over"``), ``announcements`` (this game's
``{"player", "value", "rolled"}``), ``last_announcement`` (``{"player",
"value"}`` or null), ``last_roller`` (who last rolled the cup's dice),
``last_reveal`` (the most recent reveal: ``dice``, ``value``, ``announced``,
``announcer``, ``revealer``, ``loser``, ``reason``; null before the first),
``winners`` (null until finished), ``ranking`` (strongest first).
Only in the viewer's own view: ``cup_seen`` — the dice the viewer saw by
peeking, kept while they are still the cup's dice (until someone rolls again
or the game ends), else null; and ``peeked`` (whether the viewer looked at
their roll this turn). Public and other players' views never hold the dice
under the cup.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from games import core
from games.core import Event, History, Option, Outcome, Played, RuleError, Source

NAME = "bluff"
OPTIONS: tuple[Option, ...] = (
    # limits and their reasons: docs/rules/bluff.md "House option limits"
    Option("losses", "int", 3, minimum=1, maximum=10),
    Option("games", "int", None, minimum=1, maximum=100, optional=True),
)
MIN_PLAYERS = 2
MAX_PLAYERS = 10
SMALL_OPTION_VALUES: dict[str, list[Any]] = {"losses": [1], "games": [2]}

# Strongest first: 21 (Mäxchen), doubles 66…11, then the rest high to low.
RANKING: tuple[str, ...] = (
    "21",
    "66", "55", "44", "33", "22", "11",
    "65", "64", "63", "62", "61",
    "54", "53", "52", "51",
    "43", "42", "41",
    "32", "31",
)  # fmt: skip
STRENGTH: dict[str, int] = {v: len(RANKING) - i for i, v in enumerate(RANKING)}  # 21 → 21
STRONGER: dict[str | None, list[str]] = {
    None: list(RANKING[::-1]),
    **{v: list(RANKING[:i][::-1]) for i, v in enumerate(RANKING)},
}  # the announcements allowed after each value, weakest first

BLUFF_CALLED = "bluff_called"  # the dice were weaker: the announcer loses
WRONG_CALL = "wrong_call"  # the dice were as good or better: the revealer loses
FORFEIT = "forfeit"


def value_of(dice: Sequence[int]) -> str:
    """The value of two dice, larger die first.

    >>> value_of([1, 2]), value_of([4, 6]), value_of([3, 3])
    ('21', '64', '33')
    """
    a, b = dice
    return f"{a}{b}" if a >= b else f"{b}{a}"


def stronger(a: str, b: str) -> bool:
    """Whether value ``a`` beats value ``b``.

    >>> stronger("21", "66"), stronger("11", "65"), stronger("32", "32")
    (True, True, False)
    """
    return STRENGTH[a] > STRENGTH[b]


@dataclass(slots=True)
class BluffState:
    """A Bluff match. ``cup`` holds the secret dice (None before the first roll
    of a game); ``seen`` maps a player to the cup dice they looked at, while
    those are still the cup's dice."""

    history: History
    source: Source
    losses: dict[str, int]
    games: list[dict[str, str]] = field(default_factory=list)
    starter: str = ""
    holder: int = 0  # index into players
    cup: list[int] | None = None
    last_roller: str | None = None
    rolled: bool = False  # the holder rolled this turn
    peeked: bool = False  # the holder looked at this turn's roll
    seen: dict[str, list[int]] = field(default_factory=dict)
    announcements: list[dict[str, Any]] = field(default_factory=list)
    last_reveal: dict[str, Any] | None = None
    over: bool = False


# --------------------------------------------------------------------------
# Setting up


def new_game(
    players: Sequence[str],
    options: Mapping[str, Any] | None,
    dealer: str | None,
    source: Source,
) -> BluffState:
    """A new match; ``dealer`` is the first game's starter (``None``: drawn
    with ``source.randbelow``)."""
    core.check_seats(players, MIN_PLAYERS, MAX_PLAYERS, "Bluff")
    opts = core.parse_options(OPTIONS, options)
    if dealer is None:
        dealer = players[source.randbelow(len(players))]
    elif dealer not in players:
        raise RuleError("game.dealer", f"{dealer!r} is not a player", player=dealer)
    state = BluffState(
        history=History(list(players), opts, dealer),
        source=source,
        losses={p: 0 for p in players},
    )
    _start_game(state, dealer)
    return state


def _start_game(state: BluffState, starter: str) -> Event:
    state.starter = starter
    state.holder = state.history.players.index(starter)
    state.cup = None
    state.last_roller = None
    state.rolled = False
    state.peeked = False
    state.seen = {}
    state.announcements = []
    return Event("start", starter, {"game": len(state.games) + 1, "starter": starter})


# --------------------------------------------------------------------------
# Moves


def canonical(move: str) -> str:
    """The canonical text of a move; raises ``move.unknown`` on bad notation.

    >>> canonical(" announce  54 ")
    'announce 54'
    """
    words = move.split()
    if words in (["roll"], ["reveal"], ["forfeit"]):
        return words[0]
    if len(words) == 2 and words[0] == "announce":
        if words[1] not in STRENGTH:
            raise RuleError(
                "bluff.not_a_value",
                f"{words[1]!r} is not a value (larger die first, e.g. 54)",
                value=words[1],
            )
        return f"announce {words[1]}"
    raise RuleError("move.unknown", f"unknown move {move!r}", move=move)


def _last(state: BluffState) -> str | None:
    return state.announcements[-1]["value"] if state.announcements else None


def phase(state: BluffState) -> str:
    """``roll``, ``announce``, ``reveal``, ``choose`` or ``over`` (see the view)."""
    if state.over:
        return "over"
    if state.rolled:
        return "announce"
    last = _last(state)
    if last is None:
        return "roll"
    if last == "21":
        return "reveal"
    return "choose"


def legal_moves(state: BluffState, player: str) -> list[str]:
    """The holder's moves; ``[]`` for everybody else."""
    if state.over or state.history.players[state.holder] != player:
        return []
    ph = phase(state)
    if ph == "roll":
        return ["roll"]
    if ph == "reveal":
        return ["reveal"]
    announces = ["announce " + v for v in STRONGER[_last(state)]]
    if ph == "announce":
        return announces
    return ["reveal", "roll", *announces]


def _apply(state: BluffState, player: str, move: str) -> Played:
    """Play ``move`` for ``player``; a reveal ends the game and may start the next."""
    core.check_player(state.history.players, player)
    if state.over:
        raise RuleError("move.game_over", "the match is over")
    text = canonical(move)
    if text == "forfeit":
        return Played(_forfeit(state, player), text)
    if state.history.players[state.holder] != player:
        raise RuleError("move.not_your_turn", f"it is not {player}'s turn", player=player)
    ph = phase(state)
    last = _last(state)
    if text == "roll":
        if ph == "announce":
            raise RuleError("bluff.announce_after_roll", "after rolling, announce a value")
        if ph == "reveal":
            raise RuleError("bluff.reveal_after_21", "after 21 the next player must reveal")
        state.cup = state.source.roll(2)  # may raise SourceExhausted: nothing changed yet
        state.last_roller = player
        state.rolled = True
        state.peeked = False
        state.seen = {}
        return Played([Event("roll", player, {})], text)
    if text == "reveal":
        if ph == "roll":
            raise RuleError("bluff.first_must_roll", "the first player of a game must roll")
        if ph == "announce":
            raise RuleError("bluff.announce_after_roll", "after rolling, announce a value")
        return Played(_reveal(state, player), text)
    # announce
    value = text.split()[1]
    if ph == "roll":
        raise RuleError("bluff.first_must_roll", "the first player of a game must roll")
    if ph == "reveal":
        raise RuleError("bluff.reveal_after_21", "after 21 the next player must reveal")
    if last is not None and not stronger(value, last):
        raise RuleError(
            "bluff.not_stronger",
            f"an announcement must be stronger than {last}",
            value=value,
            last=last,
        )
    state.announcements.append({"player": player, "value": value, "rolled": state.rolled})
    state.rolled = False
    state.peeked = False
    state.holder = (state.holder + 1) % len(state.history.players)
    return Played(
        [Event("announce", player, {"value": value, "rolled": state.announcements[-1]["rolled"]})],
        text,
    )


apply = core.recorded(_apply)


def peek(state: BluffState, player: str) -> list[Event]:
    """The holder who rolled this turn looks under the cup: a private event
    with the dice. Not a move and not recorded (it changes no outcome)."""
    core.check_player(state.history.players, player)
    if state.over:
        raise RuleError("move.game_over", "the match is over")
    if state.history.players[state.holder] != player:
        raise RuleError("move.not_your_turn", f"it is not {player}'s turn", player=player)
    if not state.rolled or state.cup is None:
        raise RuleError("bluff.peek_without_roll", "only a player who just rolled may look")
    state.peeked = True
    state.seen[player] = list(state.cup)
    return [
        Event("peek", player, {"dice": list(state.cup), "value": value_of(state.cup)}, (player,))
    ]


def _reveal(state: BluffState, revealer: str) -> list[Event]:
    assert state.cup is not None and state.announcements
    last = state.announcements[-1]
    value = value_of(state.cup)
    if stronger(last["value"], value):
        loser, reason = last["player"], BLUFF_CALLED
    else:
        loser, reason = revealer, WRONG_CALL
    state.last_reveal = {
        "dice": list(state.cup),
        "value": value,
        "announced": last["value"],
        "announcer": last["player"],
        "revealer": revealer,
        "loser": loser,
        "reason": reason,
    }
    events = [
        Event("reveal", revealer, {k: v for k, v in state.last_reveal.items() if k != "revealer"})
    ]
    return events + _game_lost(state, loser, reason, 1)


def _game_lost(state: BluffState, loser: str, reason: str, count: int) -> list[Event]:
    state.losses[loser] += count
    state.games.append({"loser": loser, "reason": reason})
    limit = state.history.options["losses"]
    games = state.history.options["games"]
    if state.losses[loser] >= limit or (games is not None and len(state.games) >= games):
        state.over = True
        state.rolled = False
        state.seen = {}
        return [Event("game_over", None, {"winners": winners(state), "losses": dict(state.losses)})]
    return [_start_game(state, loser)]


def forfeit(state: BluffState, player: str) -> list[Event]:
    """The player leaves (the move ``forfeit``, recorded by :func:`apply`):
    they lose the current game and their losses jump to the loss limit, which
    ends the match (the rules' worst result for them). A no-op once the match
    is over."""
    core.check_player(state.history.players, player)
    if state.over:
        return []
    return apply(state, player, "forfeit")


def _forfeit(state: BluffState, player: str) -> list[Event]:
    limit = state.history.options["losses"]
    count = limit - state.losses[player]
    events = [Event("forfeit", player, {"losses": limit})]
    return events + _game_lost(state, player, FORFEIT, count)


# --------------------------------------------------------------------------
# Result


def winners(state: BluffState) -> list[str]:
    """The players with the fewest losses, in seat order."""
    low = min(state.losses.values())
    return [p for p in state.history.players if state.losses[p] == low]


def is_finished(state: BluffState) -> bool:
    return state.over


def to_move(state: BluffState) -> list[str]:
    return [] if state.over else [state.history.players[state.holder]]


def outcome(state: BluffState) -> dict[str, Any]:
    """docs/rules/notation.md: finished, losses, games, winners."""
    return {
        "finished": state.over,
        "losses": dict(state.losses),
        "games": [dict(g) for g in state.games],
        "winners": winners(state) if state.over else None,
    }


def settle(state: BluffState) -> Outcome:
    """The match's :class:`~games.core.Outcome`: every player's losses as
    negative points (fewest losses best) and the winners."""
    out = outcome(state)
    return Outcome(
        finished=out["finished"],
        winners=tuple(out["winners"] or ()),
        points={p: -int(out["losses"].get(p, 0)) for p in state.history.players},
        kind=core.SIGNED,
    )


def view(state: BluffState, viewer: str | None) -> dict[str, Any]:
    """What ``viewer`` may know: never the cup's dice, except the viewer's
    own look (``cup_seen``) and revealed dice (``last_reveal``)."""
    players = state.history.players
    holder = None if state.over else players[state.holder]
    last = state.announcements[-1] if state.announcements else None
    return {
        "game": NAME,
        "players": list(players),
        "dealer": state.history.dealer,
        "to_move": to_move(state),
        "finished": state.over,
        "options": dict(state.history.options),
        "losses": dict(state.losses),
        "games": [dict(g) for g in state.games],
        "game_number": len(state.games) + (0 if state.over else 1),
        "starter": state.starter,
        "holder": holder,
        "phase": phase(state),
        "announcements": [dict(a) for a in state.announcements],
        "last_announcement": {"player": last["player"], "value": last["value"]} if last else None,
        "last_roller": state.last_roller,
        "last_reveal": dict(state.last_reveal) if state.last_reveal else None,
        "winners": winners(state) if state.over else None,
        "ranking": list(RANKING),
        "cup_seen": list(state.seen[viewer]) if viewer in state.seen else None,
        "peeked": bool(viewer is not None and viewer == holder and state.peeked),
    }


# --------------------------------------------------------------------------
# Saving


def to_json(state: BluffState) -> dict[str, Any]:
    return {
        "schema": core.SCHEMA_VERSION,
        "game": NAME,
        "history": state.history.to_json(),
        "source": state.source.to_json(),
        "losses": dict(state.losses),
        "games": [dict(g) for g in state.games],
        "starter": state.starter,
        "holder": state.holder,
        "cup": list(state.cup) if state.cup is not None else None,
        "last_roller": state.last_roller,
        "rolled": state.rolled,
        "peeked": state.peeked,
        "seen": {p: list(d) for p, d in state.seen.items()},
        "announcements": [dict(a) for a in state.announcements],
        "last_reveal": dict(state.last_reveal) if state.last_reveal else None,
        "over": state.over,
    }


def from_json(doc: Mapping[str, Any]) -> BluffState:
    if doc.get("game") != NAME or doc.get("schema") != core.SCHEMA_VERSION:
        raise core.RecordError("not a saved Bluff game of this schema")
    cup = doc["cup"]
    reveal = doc["last_reveal"]
    return BluffState(
        history=History.from_json(doc["history"]),
        source=Source.from_json(doc["source"]),
        losses={p: int(v) for p, v in doc["losses"].items()},
        games=[dict(g) for g in doc["games"]],
        starter=str(doc["starter"]),
        holder=int(doc["holder"]),
        cup=list(cup) if cup is not None else None,
        last_roller=doc["last_roller"],
        rolled=bool(doc["rolled"]),
        peeked=bool(doc["peeked"]),
        seen={p: list(d) for p, d in doc["seen"].items()},
        announcements=[dict(a) for a in doc["announcements"]],
        last_reveal=dict(reveal) if reveal else None,
        over=bool(doc["over"]),
    )
