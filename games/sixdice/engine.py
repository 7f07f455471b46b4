"""Six Dice — シックスダイス (docs/rules/sixdice.md): the engine.

Moves (RULES notation): ``roll`` · ``take 1 5 5`` (values set aside from the
current roll; canonical form: values ascending) · ``stop``. A turn starts with
an explicit ``roll``; after a scoring roll the only move is one ``take``;
then ``roll`` or ``stop``; after 振りきり (all six dice set aside) only
``roll``. ドボン, ブタ and the next turn are automatic.

Bowl mishaps (option ``bowl_mishaps``): after every roll the engine asks
``state.source.mishap()``. A mishap is a ブタ with the ブタ penalty, even in
the middle of a turn, and never earns 御祝儀. Its kind is fixed by the roll's
1-based number over the game (``source.rolls``, the number records use):
odd → ションベン (``"shonben"``, a die jumped out of the bowl), even →
グッチョン (``"gucchon"``, dice stacked on each other).

Events (``core.Event``; all public, ``player`` = the player concerned):

========== ===================================================================
kind       data
========== ===================================================================
roll       ``dice`` (faces, as rolled), ``number`` (1-based roll number of the
           game), ``count`` (dice rolled)
gift       ``count`` (this player's 御祝儀 rolls so far): six equal faces
mishap     ``kind`` (``"shonben"`` | ``"gucchon"``)
buta       ``cause`` (``"nothing"`` | ``"shonben"`` | ``"gucchon"``),
           ``lost`` (turn total lost), ``score`` (after the penalty),
           ``started`` (after), ``penalty`` (``"reset"`` for a started
           player, ``"minus_1000"`` otherwise)
dobon      ``lost`` (turn total lost)
take       ``dice`` (ascending), ``points``, ``turn_total``, ``dice_left``
hot_dice   ``turn_total`` (振りきり: the player must roll six again)
stop       ``points`` (turn total banked), ``score``, ``started_now`` (bool)
target     ``score``: this player reached the target; the round is played
           out to ``last`` (the last player before the dealer)
forfeit    ``lost`` (turn total lost, when it was their turn)
turn       the next turn holder (``player``), ``round`` (1-based)
game_over  ``winner``, ``settlement`` (units by player), ``reason``
           (``"target"`` | ``"table"`` | ``"forfeit"``)
========== ===================================================================

View keys (``view(state, viewer)``; Six Dice has no secrets, so every viewer
sees the same): ``game``, ``players`` (seat order), ``dealer``, ``to_move``,
``finished``, ``options``, and

- ``order``: player order (dealer first); ``round``: 1-based round number;
- ``scores``, ``started``, ``gifts`` (御祝儀 rolls), by player;
- ``forfeited``: players who left, in seat order;
- ``turn_player``: whose turn it is (``None`` when finished);
- ``turn_total``: points set aside this turn;
- ``roll``: the current roll awaiting a ``take`` (faces), else ``None``;
- ``set_aside``: this turn's groups, ``[{"dice": [...], "points": n}, …]``;
- ``dice_left``: how many dice the next ``roll`` throws;
- ``hot_dice``: 振りきり — the player must roll six again;
- ``can_stop``: ``stop`` is legal now;
- ``last_roll``: ``None`` or ``{"player", "dice", "number", "result"}`` with
  result ``"score"`` | ``"dobon"`` | ``"buta"`` | ``"shonben"`` |
  ``"gucchon"`` — the latest roll, kept after the turn passed so the table
  can show what happened;
- ``ending``: someone reached the target; the round is being played out;
- ``dealer_rolls``: the dealer-choosing rolls (list of ``{player: face}``
  rounds; empty when the dealer was given);
- ``winner``, ``settlement``: ``None`` until the game is over.

Outside the move set: :func:`forfeit` (a player leaves) and :func:`end_game`
(the table ends a game stuck far from the target, settled as it stands:
Six Dice is the one :class:`games.core.EndsEarly` engine); neither is a
record move nor enters ``state.history``, so a record of such a game replays
to an unfinished state (see docs/rules/sixdice.md).

:func:`settle`: the settlement in units and the winner (kind ``signed``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from games import core
from games.core import Event, History, Outcome, Played, RuleError, Source
from games.sixdice.scoring import DEFAULT_STRAIGHT, KINDS, score_dice, scoring_selections

NAME = "sixdice"
MIN_PLAYERS = 1
MAX_PLAYERS = 8

OPTIONS: tuple[core.Option, ...] = (
    core.Option("kinds", "choice", "doubling", choices=KINDS),
    core.Option("four_and_pair_is_nikoniko", "bool", False),
    # limits and their reasons: docs/rules/sixdice.md "House option limits"
    core.Option("straight", "int", DEFAULT_STRAIGHT, minimum=50, maximum=8000),
    core.Option("start", "int", 1000, minimum=0, maximum=2000),
    core.Option("target", "int", 10000, minimum=1000, maximum=10000),
    core.Option("bowl_mishaps", "bool", False),
    core.Option("six_kind_gift", "bool", True),
)
SMALL_OPTION_VALUES: dict[str, list[Any]] = {"start": [300], "target": [2000]}

BUTA_PENALTY = 1000  # an unstarted player's loss on ブタ
UNSTARTED_PENALTY = 5  # units an unstarted loser pays on top (the × mark)
GIFT_UNITS = 5  # 御祝儀: units from every other player per six-of-a-kind roll

# Phases of the turn holder.
ROLL = "roll"  # start of a turn: only ``roll``
TAKE = "take"  # a scoring roll lies in the bowl: only ``take``
CHOOSE = "choose"  # after a take with dice left: ``roll`` or ``stop``
HOT = "hot"  # 振りきり: only ``roll`` (six dice)
OVER = "over"


@dataclass(slots=True)
class State:
    """A Six Dice game. Change it only through :func:`apply`, :func:`forfeit`
    and :func:`end_game`."""

    history: History
    source: Source
    options: dict[str, Any]
    order: list[str]
    scores: dict[str, int]
    started: dict[str, bool]
    gifts: dict[str, int]
    forfeited: list[str] = field(default_factory=list)
    turn: int = 0  # index into ``order``
    phase: str = ROLL
    turn_total: int = 0
    roll: list[int] | None = None
    set_aside: list[dict[str, Any]] = field(default_factory=list)
    dice_left: int = 6
    last_roll: dict[str, Any] | None = None
    ending: bool = False
    round: int = 1
    end_reason: str | None = None
    dealer_rolls: list[dict[str, int]] = field(default_factory=list)

    @property
    def finished(self) -> bool:
        return self.phase == OVER

    @property
    def current(self) -> str:
        return self.order[self.turn]


# --------------------------------------------------------------------------
# New game


def _rank(face: int) -> int:
    return 10 if face == 1 else face  # 親決め: a 1 counts as 10


def choose_dealer(players: Sequence[str], source: Source) -> tuple[str, list[dict[str, int]]]:
    """親決め: everyone rolls one die (``source.aux_roll``), a 1 counts as 10,
    the highest is dealer, tied highest roll again among themselves.

    >>> choose_dealer(["a", "b", "c"], core.ScriptedSource(aux=[6, 1, 1, 3, 2]))
    ('b', [{'a': 6, 'b': 1, 'c': 1}, {'b': 3, 'c': 2}])
    """
    return core.roll_for_dealer(players, source, _rank)


def new_game(
    players: Sequence[str],
    options: Mapping[str, Any] | None,
    dealer: str | None,
    source: Source,
) -> State:
    """A new game; ``dealer=None`` chooses the dealer by 親決め."""
    players = list(players)
    core.check_seats(players, MIN_PLAYERS, MAX_PLAYERS, "Six Dice")
    opts = core.parse_options(OPTIONS, options)
    dealer_rolls: list[dict[str, int]] = []
    if dealer is None:
        dealer, dealer_rolls = choose_dealer(players, source)
    elif dealer not in players:
        raise RuleError("game.players", f"the dealer {dealer!r} is not a player", dealer=dealer)
    d = players.index(dealer)
    order = players[d:] + players[:d]
    return State(
        history=History(players, dict(opts), dealer),
        source=source,
        options=opts,
        order=order,
        scores={p: 0 for p in players},
        started={p: False for p in players},
        gifts={p: 0 for p in players},
        dealer_rolls=dealer_rolls,
    )


# --------------------------------------------------------------------------
# Moves


def canonical(move: str) -> str:
    """The canonical text of a move, or :class:`RuleError` ``move.unknown``.

    >>> canonical("take 5 1  5"), canonical(" roll ")
    ('take 1 5 5', 'roll')
    """
    words = move.split()
    if words == ["roll"] or words == ["stop"]:
        return words[0]
    if len(words) >= 2 and words[0] == "take" and len(words) <= 7:
        if all(w in ("1", "2", "3", "4", "5", "6") for w in words[1:]):
            return "take " + " ".join(sorted(words[1:]))
    raise RuleError("move.unknown", f"unknown move {move!r}", move=move)


def _can_stop(state: State) -> bool:
    p = state.current
    if state.phase != CHOOSE:
        return False
    return state.started[p] or state.scores[p] + state.turn_total >= state.options["start"]


def legal_moves(state: State, player: str) -> list[str]:
    """The moves ``player`` may make now (``[]`` when not their turn)."""
    if state.phase == OVER or player != state.current:
        return []
    if state.phase == TAKE:
        assert state.roll is not None
        return [
            "take " + " ".join(map(str, sel))
            for sel, _ in scoring_selections(state.roll, state.options)
        ]
    if state.phase == CHOOSE:
        return ["roll", "stop"] if _can_stop(state) else ["roll"]
    return ["roll"]


def to_move(state: State) -> list[str]:
    """The turn holder (empty when the game is over)."""
    return [] if state.phase == OVER else [state.current]


def is_finished(state: State) -> bool:
    return state.phase == OVER


def _check_turn(state: State, player: str) -> None:
    core.check_player(state.history.players, player)
    if state.phase == OVER:
        raise RuleError("move.game_over", "the game is over")
    if player != state.current:
        raise RuleError(
            "move.not_your_turn", f"it is {state.current}'s turn", player=player, turn=state.current
        )


def _apply(state: State, player: str, move: str) -> Played:
    """Apply one move; an illegal move raises :class:`RuleError` and changes nothing."""
    _check_turn(state, player)
    text = canonical(move)
    if text == "roll":
        if state.phase == TAKE:
            raise RuleError("sixdice.must_take", "set aside scoring dice before rolling again")
        events = _roll(state, player)
    elif text == "stop":
        if state.phase == HOT:
            raise RuleError(
                "sixdice.hot_dice_must_roll",
                "after 振りきり (hot dice) you must roll all six again",
            )
        if state.phase != CHOOSE:
            raise RuleError("sixdice.stop_not_now", "there is nothing to stop with now")
        if not _can_stop(state):
            need = state.options["start"]
            raise RuleError(
                "sixdice.stop_before_start",
                f"you have not started: you may stop only when score + turn total ≥ {need}",
                start=need,
                total=state.scores[player] + state.turn_total,
            )
        events = _stop(state, player)
    else:
        events = _take(state, player, [int(w) for w in text.split()[1:]])
    if any(e.kind in ("stop", "dobon", "buta") for e in events):
        events += _end_turn(state, player)
    return Played(events, text)


apply = core.recorded(_apply)


def _roll(state: State, player: str) -> list[Event]:
    count = state.dice_left
    dice = state.source.roll(count)  # may raise SourceExhausted before any change
    number = state.source.rolls
    events = [Event("roll", player, {"dice": list(dice), "number": number, "count": count})]
    opts = state.options
    mishap = opts["bowl_mishaps"] and state.source.mishap()
    if mishap:
        kind = "shonben" if number % 2 else "gucchon"
        events.append(Event("mishap", player, {"kind": kind}))
        state.last_roll = {"player": player, "dice": list(dice), "number": number, "result": kind}
        return events + _buta(state, player, kind)
    if count == 6 and dice.count(dice[0]) == 6 and opts["six_kind_gift"]:
        state.gifts[player] += 1
        events.append(Event("gift", player, {"count": state.gifts[player]}))
    if not scoring_selections(dice, opts):
        result = "buta" if count == 6 else "dobon"
        state.last_roll = {"player": player, "dice": list(dice), "number": number, "result": result}
        if count == 6:
            return events + _buta(state, player, "nothing")
        events.append(Event("dobon", player, {"lost": state.turn_total}))
        return events
    state.last_roll = {"player": player, "dice": list(dice), "number": number, "result": "score"}
    if state.phase == HOT:
        state.set_aside = []  # a new bowl of six; the turn total stays
    state.roll = list(dice)
    state.phase = TAKE
    return events


def _buta(state: State, player: str, cause: str) -> list[Event]:
    """ブタ: the turn ends with nothing; a started player goes back to 0 and
    not started, an unstarted player loses 1000."""
    lost = state.turn_total
    if state.started[player]:
        state.scores[player] = 0
        state.started[player] = False
        penalty = "reset"
    else:
        state.scores[player] -= BUTA_PENALTY
        penalty = "minus_1000"
    return [
        Event(
            "buta",
            player,
            {
                "cause": cause,
                "lost": lost,
                "score": state.scores[player],
                "started": state.started[player],
                "penalty": penalty,
            },
        )
    ]


def _take(state: State, player: str, dice: list[int]) -> list[Event]:
    if state.phase != TAKE:
        raise RuleError("sixdice.take_not_now", "there is no roll to take dice from")
    assert state.roll is not None
    rest = list(state.roll)
    for v in dice:
        if v not in rest:
            raise RuleError(
                "sixdice.take_not_in_roll",
                f"the roll {sorted(state.roll)} has no such dice {dice}",
                dice=dice,
                roll=sorted(state.roll),
            )
        rest.remove(v)
    points = score_dice(dice, state.options)
    if points is None:
        raise RuleError(
            "sixdice.take_not_scoring",
            "every die set aside must belong to a scoring combination",
            dice=dice,
        )
    state.turn_total += points
    state.set_aside.append({"dice": list(dice), "points": points})
    state.roll = None
    state.dice_left = len(rest)
    events = [
        Event(
            "take",
            player,
            {
                "dice": list(dice),
                "points": points,
                "turn_total": state.turn_total,
                "dice_left": len(rest),
            },
        )
    ]
    if rest:
        state.phase = CHOOSE
    else:
        state.phase = HOT  # 振りきり
        state.dice_left = 6
        events.append(Event("hot_dice", player, {"turn_total": state.turn_total}))
    return events


def _stop(state: State, player: str) -> list[Event]:
    points = state.turn_total
    started_now = not state.started[player]
    state.scores[player] += points
    state.started[player] = True
    events = [
        Event(
            "stop",
            player,
            {"points": points, "score": state.scores[player], "started_now": started_now},
        )
    ]
    if state.scores[player] >= state.options["target"]:
        state.ending = True
        events.append(
            Event("target", player, {"score": state.scores[player], "last": state.order[-1]})
        )
    return events


def _active(state: State) -> list[str]:
    return [p for p in state.order if p not in state.forfeited]


def _end_turn(state: State, player: str) -> list[Event]:
    """Clear the turn; then the next active player, or the end of the game."""
    state.turn_total = 0
    state.roll = None
    state.set_aside = []
    state.dice_left = 6
    state.phase = ROLL
    n = len(state.order)
    nxt = state.turn
    wrapped = False
    for _ in range(n):
        nxt = (nxt + 1) % n
        if nxt == 0:
            wrapped = True
        if state.order[nxt] not in state.forfeited:
            break
    if wrapped and state.ending:
        return _finish(state, "target")
    if wrapped:
        state.round += 1
    state.turn = nxt
    return [Event("turn", state.current, {"round": state.round})]


def _finish(state: State, reason: str) -> list[Event]:
    state.phase = OVER
    state.end_reason = reason
    state.roll = None
    state.set_aside = []
    state.turn_total = 0
    out = outcome(state)
    return [
        Event(
            "game_over",
            None,
            {"winner": out["winner"], "settlement": out["settlement"], "reason": reason},
        )
    ]


def forfeit(state: State, player: str) -> list[Event]:
    """A player leaves the game (``/game leave`` or repeated timeouts).

    Their turn (if it is theirs) ends with nothing, they get no more turns,
    they cannot win, and at settlement they pay as an unstarted loser: the
    units they trail the winner by (at least 0) plus 5. 御祝儀 already earned
    stays theirs. When fewer than two active players remain in a game of
    several players (or none in a solo game), the game ends, settled as it
    stands.
    """
    core.check_player(state.history.players, player)
    if state.phase == OVER:
        raise RuleError("move.game_over", "the game is over")
    if player in state.forfeited:
        raise RuleError("sixdice.already_left", f"{player} has already left", player=player)
    events: list[Event] = []
    was_turn = player == state.current
    lost = state.turn_total if was_turn else 0
    state.forfeited.append(player)
    state.started[player] = False
    events.append(Event("forfeit", player, {"lost": lost}))
    remaining = _active(state)
    if len(remaining) < (2 if len(state.order) > 1 else 1):
        return events + _finish(state, "forfeit")
    if was_turn:
        events += _end_turn(state, player)
    return events


def end_game(state: State) -> list[Event]:
    """The table ends a game that cannot reach the target (e.g. everyone stuck
    far below zero): the current turn total is lost and the game is settled
    as it stands. Not a move: a record of such a game replays unfinished."""
    if state.phase == OVER:
        raise RuleError("move.game_over", "the game is over")
    return _finish(state, "table")


# --------------------------------------------------------------------------
# Results


def units(score: int) -> int:
    """Game units: the score truncated to thousands toward zero.

    >>> [units(s) for s in (2650, 11050, -1000, -1500, -999)]
    [2, 11, -1, -1, 0]
    """
    return abs(score) // 1000 * (1 if score >= 0 else -1)


def winner_of(state: State) -> str:
    """The highest raw score among players still in; ties: earliest in player order."""
    candidates = _active(state) or list(state.order)
    best = candidates[0]
    for p in candidates[1:]:
        if state.scores[p] > state.scores[best]:
            best = p
    return best


def settlement(
    scores: Mapping[str, int],
    started: Mapping[str, bool],
    winner: str,
    gifts: Mapping[str, int] | None = None,
    left: Sequence[str] = (),
) -> dict[str, int]:
    """清算 in units, zero-sum: each loser pays the winner the units they
    trail by (+5 if not started; a player who ``left`` never less than 0
    + 5), then 5 units per 御祝儀 roll from every other player.

    docs/rules/sixdice.md's worked example (the seed's table, by its own rule):

    >>> settlement({"a": 2650, "b": 11050, "c": 7050, "d": -1000},
    ...            {"a": True, "b": True, "c": True, "d": False}, "b")
    {'a': -9, 'b': 30, 'c': -4, 'd': -17}
    """
    out = {p: 0 for p in scores}
    wu = units(scores[winner])
    for p, score in scores.items():
        if p == winner:
            continue
        pay = wu - units(score)
        if p in left:
            pay = max(pay, 0)
        if not started[p]:
            pay += UNSTARTED_PENALTY
        out[p] -= pay
        out[winner] += pay
    for roller, count in (gifts or {}).items():
        for p in out:
            if p != roller:
                out[p] -= GIFT_UNITS * count
                out[roller] += GIFT_UNITS * count
    return out


def outcome(state: State) -> dict[str, Any]:
    """The replay outcome (docs/rules/notation.md)."""
    players = state.history.players
    doc: dict[str, Any] = {
        "finished": state.phase == OVER,
        "scores": {p: state.scores[p] for p in players},
        "started": {p: state.started[p] for p in players},
        "winner": None,
    }
    if state.phase == OVER:
        win = winner_of(state)
        doc["winner"] = win
        settle = settlement(state.scores, state.started, win, state.gifts, state.forfeited)
        doc["settlement"] = {p: settle[p] for p in players}
    return doc


def settle(state: State) -> Outcome:
    """The game's :class:`~games.core.Outcome`: the settlement in units
    (zeros until the game is over) and the winner."""
    out = outcome(state)
    settlement = out.get("settlement") or {}
    return Outcome(
        finished=out["finished"],
        winners=(out["winner"],) if out["winner"] else (),
        points={p: int(settlement.get(p, 0)) for p in state.history.players},
        kind=core.SIGNED,
    )


def view(state: State, viewer: str | None) -> dict[str, Any]:
    """Everything is public in Six Dice: every viewer gets the same dict."""
    over = state.phase == OVER
    out = outcome(state) if over else None
    players = state.history.players
    return {
        "game": NAME,
        "players": list(players),
        "dealer": state.history.dealer,
        "to_move": to_move(state),
        "finished": over,
        "options": dict(state.options),
        "order": list(state.order),
        "round": state.round,
        "scores": {p: state.scores[p] for p in players},
        "started": {p: state.started[p] for p in players},
        "gifts": {p: state.gifts[p] for p in players},
        "forfeited": [p for p in players if p in state.forfeited],
        "turn_player": None if over else state.current,
        "turn_total": state.turn_total,
        "roll": None if state.roll is None else list(state.roll),
        "set_aside": [{"dice": list(g["dice"]), "points": g["points"]} for g in state.set_aside],
        "dice_left": state.dice_left,
        "hot_dice": state.phase == HOT,
        "can_stop": _can_stop(state),
        "last_roll": None if state.last_roll is None else dict(state.last_roll),
        "ending": state.ending,
        "dealer_rolls": [dict(r) for r in state.dealer_rolls],
        "winner": out["winner"] if out else None,
        "settlement": out["settlement"] if out else None,
    }


# --------------------------------------------------------------------------
# Saving


def to_json(state: State) -> dict[str, Any]:
    """The whole state as JSON-able data (exact round trip with :func:`from_json`)."""
    return {
        "schema": core.SCHEMA_VERSION,
        "game": NAME,
        "history": state.history.to_json(),
        "source": state.source.to_json(),
        "options": dict(state.options),
        "order": list(state.order),
        "scores": dict(state.scores),
        "started": dict(state.started),
        "gifts": dict(state.gifts),
        "forfeited": list(state.forfeited),
        "turn": state.turn,
        "phase": state.phase,
        "turn_total": state.turn_total,
        "roll": None if state.roll is None else list(state.roll),
        "set_aside": [{"dice": list(g["dice"]), "points": g["points"]} for g in state.set_aside],
        "dice_left": state.dice_left,
        "last_roll": None if state.last_roll is None else dict(state.last_roll),
        "ending": state.ending,
        "round": state.round,
        "end_reason": state.end_reason,
        "dealer_rolls": [dict(r) for r in state.dealer_rolls],
    }


def from_json(doc: Mapping[str, Any]) -> State:
    """A state from :func:`to_json`'s output."""
    if doc.get("game") != NAME:
        raise core.RecordError(f"not a {NAME} state")
    if doc.get("schema") != core.SCHEMA_VERSION:
        raise core.RecordError(f"unknown schema {doc.get('schema')!r}")
    roll = doc["roll"]
    last = doc["last_roll"]
    return State(
        history=History.from_json(doc["history"]),
        source=Source.from_json(doc["source"]),
        options=dict(doc["options"]),
        order=list(doc["order"]),
        scores=dict(doc["scores"]),
        started=dict(doc["started"]),
        gifts=dict(doc["gifts"]),
        forfeited=list(doc["forfeited"]),
        turn=int(doc["turn"]),
        phase=str(doc["phase"]),
        turn_total=int(doc["turn_total"]),
        roll=None if roll is None else list(roll),
        set_aside=[{"dice": list(g["dice"]), "points": g["points"]} for g in doc["set_aside"]],
        dice_left=int(doc["dice_left"]),
        last_roll=None if last is None else dict(last),
        ending=bool(doc["ending"]),
        round=int(doc["round"]),
        end_reason=doc["end_reason"],
        dealer_rolls=[dict(r) for r in doc["dealer_rolls"]],
    )
