"""Yahtzee (ヤッツィー) engine: docs/rules/yahtzee.md on the contract of docs/contract.md.

Players 1–8, each with a score sheet of 13 boxes (three columns ×1 ×2 ×3 with
option ``triple``); 13 (39) rounds in player order from the dealer (the first
player). With ``dealer=None`` the first player is drawn with
``source.randbelow(len(players))`` (no draw for a single player) and stored
in ``state.history.dealer``.

Options: ``joker`` = ``forced`` (default) | ``free``; ``triple`` (bool).

Moves (canonical text): ``roll`` (first roll of a turn) · ``keep 2 2 5``
(values ascending; keep those dice, reroll the rest; ``keep`` alone rerolls
all; keeping all five is a legal, wasted reroll; at most two rerolls) ·
``score BOX`` (``score BOX xN`` with ``triple``, N = 1, 2, 3 the column).
``forfeit`` is also accepted from any player still playing at any time (the
same as :func:`forfeit`, so a record of a game someone left replays); it is
never listed by :func:`legal_moves`.

Events (``kind``: ``data``), all public (Yahtzee has no secrets):

- ``roll``: ``dice`` (the five dice after the roll, in place), ``kept``
  (five bools: which dice were kept), ``rolls_left`` (rerolls left, 0–2)
- ``score``: ``box``, ``column`` (1–3 with ``triple``, else ``None``),
  ``score`` (unmultiplied box score), ``bonus`` (100 for an extra Yahtzee
  when the column's yahtzee box holds 50, else 0), ``joker`` (bool),
  ``points`` ((score + bonus) × column factor)
- ``forfeit``: ``zeroed`` (number of boxes filled with 0)
- ``turn``: ``round`` (1-based); ``player`` is who is to move now
- ``game_over``: ``totals`` (by player), ``winners`` (seat order)

:func:`settle`: the totals and the winners (kind ``total``).

View keys (besides the contract's ``game players dealer to_move finished
options``):

- ``order``: player order (from the dealer); ``turn``: whose turn or ``None``
- ``round`` / ``rounds``: the turn holder's round (1-based) / 13 or 39
- ``dice``: the five dice, ``[]`` before the turn's first roll; ``kept``: five
  bools, the dice kept at the last ``keep`` (all ``False`` after ``roll``)
- ``rolls_left``: rolls left this turn, 3 before ``roll``, then 2, 1, 0
- ``sheets``: player → list of columns (one, or three with ``triple``), each
  ``{"factor", "boxes" (box → score or null), "upper_subtotal",
  "upper_needed" (points still missing to 63), "upper_bonus",
  "lower_subtotal", "yahtzee_bonus", "total" (unmultiplied), "points"
  (total × factor)}``
- ``totals``: player → total points; ``forfeited``: players who left
- ``potential``: :func:`potential_scores` of the turn holder (``[]`` before
  the first roll)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import product
from typing import Any

from games import core
from games.core import Event, History, Option, Outcome, Played, RuleError, Source
from games.yahtzee import scoring
from games.yahtzee.scoring import BOXES

NAME = "yahtzee"
OPTIONS: tuple[Option, ...] = (
    Option("joker", "choice", "forced", choices=scoring.JOKER_MODES),
    Option("triple", "bool", False),
)
MIN_PLAYERS = 1
MAX_PLAYERS = 8
ROLLS_PER_TURN = 3  # the first roll and two rerolls
FACTORS = (1, 2, 3)  # the columns of option triple

Sheet = list[dict[str, int | None]]


@dataclass(slots=True)
class State:
    """A Yahtzee game. Change it only through :func:`apply` / :func:`forfeit`."""

    history: History
    source: Source
    players: list[str]
    order: list[str]
    joker: str
    triple: bool
    sheets: dict[str, Sheet]
    turn: int  # index into order
    dice: list[int]
    kept: list[bool]
    rolls: int  # rolls made this turn, 0–3
    forfeited: list[str]
    finished: bool


# --------------------------------------------------------------------------
# Set-up


def new_game(
    players: Sequence[str],
    options: Mapping[str, Any] | None,
    dealer: str | None,
    source: Source,
) -> State:
    """A new game; ``dealer`` is the first player (``None``: drawn by ``source.randbelow``)."""
    names = list(players)
    core.check_seats(names, MIN_PLAYERS, MAX_PLAYERS, "Yahtzee")
    opts = core.parse_options(OPTIONS, options)
    if dealer is None:
        first = source.randbelow(len(names)) if len(names) > 1 else 0
    elif dealer in names:
        first = names.index(dealer)
    else:
        raise RuleError("game.dealer", f"the dealer {dealer!r} is not a player", player=dealer)
    columns = 3 if opts["triple"] else 1
    return State(
        history=History(names, dict(opts), names[first]),
        source=source,
        players=names,
        order=names[first:] + names[:first],
        joker=opts["joker"],
        triple=opts["triple"],
        sheets={p: [scoring.empty_column() for _ in range(columns)] for p in names},
        turn=0,
        dice=[],
        kept=[],
        rolls=0,
        forfeited=[],
        finished=False,
    )


# --------------------------------------------------------------------------
# Queries


def is_finished(state: State) -> bool:
    return state.finished


def to_move(state: State) -> list[str]:
    return [] if state.finished else [state.order[state.turn]]


_KEEPS: dict[tuple[int, ...], list[str]] = {}


def _keep_moves(dice: Sequence[int]) -> list[str]:
    """Every distinct ``keep`` of these dice (each sub-multiset once)."""
    key = tuple(sorted(dice))
    moves = _KEEPS.get(key)
    if moves is None:
        faces = sorted(set(key))
        moves = []
        for counts in product(*(range(key.count(f) + 1) for f in faces)):
            kept = [str(f) for f, c in zip(faces, counts, strict=True) for _ in range(c)]
            moves.append(" ".join(["keep", *kept]))
        _KEEPS[key] = moves
    return list(moves)


def _suffix(state: State, index: int) -> str:
    return f" x{FACTORS[index]}" if state.triple else ""


def legal_moves(state: State, player: str) -> list[str]:
    """The moves ``player`` may make now, canonical; ``[]`` when not their turn."""
    if state.finished or player != state.order[state.turn]:
        return []
    if state.rolls == 0:
        return ["roll"]
    moves = _keep_moves(state.dice) if state.rolls < ROLLS_PER_TURN else []
    for i, column in enumerate(state.sheets[player]):
        for box in scoring.legal_boxes(state.dice, column, state.joker):
            moves.append(f"score {box}{_suffix(state, i)}")
    return moves


def potential_scores(state: State, player: str) -> list[dict[str, Any]]:
    """Each box ``player`` may score now and what it would bring (for the bot's menu).

    One entry per legal ``score`` move: ``move``, ``box``, ``column`` (1–3
    with ``triple``, else ``None``), ``score`` (the box's unmultiplied score),
    ``bonus`` (100 for an extra Yahtzee when the column's yahtzee box holds
    50), ``points`` ((score + bonus) × factor). ``[]`` when ``player`` cannot
    score now.
    """
    if state.finished or state.rolls == 0 or player != state.order[state.turn]:
        return []
    out: list[dict[str, Any]] = []
    for i, column in enumerate(state.sheets[player]):
        bonus = scoring.yahtzee_bonus(state.dice, column)
        for box, score in scoring.scores_for(state.dice, column, state.joker).items():
            out.append(
                {
                    "move": f"score {box}{_suffix(state, i)}",
                    "box": box,
                    "column": FACTORS[i] if state.triple else None,
                    "score": score,
                    "bonus": bonus,
                    "points": (score + bonus) * FACTORS[i],
                }
            )
    return out


def total(state: State, player: str) -> int:
    """A player's total: each column's total times its factor."""
    return sum(scoring.column_total(col) * FACTORS[i] for i, col in enumerate(state.sheets[player]))


def _winners(state: State) -> list[str]:
    # A player who left cannot win (their worst case); if everyone left, nobody wins.
    playing = [p for p in state.players if p not in state.forfeited]
    if not playing:
        return []
    best = max(total(state, p) for p in playing)
    return [p for p in playing if total(state, p) == best]


# --------------------------------------------------------------------------
# Moves


def _unknown(move: str) -> RuleError:
    return RuleError("move.unknown", f"{move!r} is not a Yahtzee move", move=move)


def _parse_keep(words: list[str], move: str) -> list[int]:
    values: list[int] = []
    for w in words:
        if len(w) != 1 or w not in "123456":
            raise _unknown(move)
        values.append(int(w))
    return sorted(values)


def _parse_score(state: State, words: list[str], move: str) -> tuple[str, int]:
    if len(words) not in (1, 2) or words[0] not in scoring.BOX_INDEX:
        raise _unknown(move)
    box = words[0]
    if len(words) == 1:
        if state.triple:
            raise RuleError(
                "yahtzee.column_required",
                "with triple a score names its column: score BOX x1, x2 or x3",
                box=box,
            )
        return box, 0
    if words[1] not in ("x1", "x2", "x3"):
        raise _unknown(move)
    if not state.triple:
        raise RuleError(
            "yahtzee.column_forbidden",
            "without triple there is one column: score BOX takes no xN",
            box=box,
        )
    return box, int(words[1][1]) - 1


def _apply(state: State, player: str, move: str) -> Played:
    """Apply ``player``'s ``move``; raise :class:`RuleError` and change nothing if illegal."""
    core.check_player(state.players, player)
    words = move.split()
    if words == ["forfeit"]:
        return Played(_forfeit(state, player), "forfeit")
    if state.finished:
        raise RuleError("move.game_over", "the game is over")
    if player != state.order[state.turn]:
        raise RuleError(
            "move.not_your_turn",
            f"it is {state.order[state.turn]}'s turn",
            player=state.order[state.turn],
        )
    if not words:
        raise _unknown(move)
    verb, rest = words[0], words[1:]
    if verb == "roll":
        if rest:
            raise _unknown(move)
        if state.rolls:
            raise RuleError(
                "yahtzee.already_rolled", "the turn's first roll is made: keep or score"
            )
        return Played(_roll(state, player, []), "roll")
    if verb == "keep":
        values = _parse_keep(rest, move)
        if state.rolls == 0:
            raise RuleError("yahtzee.roll_first", "roll the dice first")
        if state.rolls >= ROLLS_PER_TURN:
            raise RuleError("yahtzee.no_rolls_left", "no rerolls left: score the dice")
        pool = list(state.dice)
        for v in values:
            if v not in pool:
                raise RuleError(
                    "yahtzee.keep_not_rolled",
                    f"cannot keep {' '.join(map(str, values))}: not among the dice",
                    keep=values,
                    dice=list(state.dice),
                )
            pool.remove(v)
        return Played(_roll(state, player, values), " ".join(["keep", *map(str, values)]))
    if verb == "score":
        box, index = _parse_score(state, rest, move)
        if state.rolls == 0:
            raise RuleError("yahtzee.roll_first", "roll the dice first")
        column = state.sheets[player][index]
        if column[box] is not None:
            raise RuleError("yahtzee.box_full", f"the {box} box is already filled", box=box)
        if box not in scoring.legal_boxes(state.dice, column, state.joker):
            raise RuleError(
                "yahtzee.joker_order",
                "an extra Yahtzee must go in its upper box if empty, else in a lower box",
                box=box,
                legal=scoring.legal_boxes(state.dice, column, state.joker),
            )
        return Played(_score(state, player, box, index), f"score {box}{_suffix(state, index)}")
    raise _unknown(move)


apply = core.recorded(_apply)


def _roll(state: State, player: str, keep: list[int]) -> list[Event]:
    kept = [False] * 5
    if state.rolls:
        pool = list(keep)
        for i, d in enumerate(state.dice):
            if d in pool:
                pool.remove(d)
                kept[i] = True
    n = 5 - len(keep)
    faces = state.source.roll(n) if n else []  # may raise SourceExhausted: nothing changed yet
    dice = list(state.dice) if state.rolls else [0] * 5
    it = iter(faces)
    for i in range(5):
        if not kept[i]:
            dice[i] = next(it)
    state.dice = dice
    state.kept = kept
    state.rolls += 1
    return [
        Event(
            "roll",
            player,
            {"dice": list(dice), "kept": list(kept), "rolls_left": ROLLS_PER_TURN - state.rolls},
        )
    ]


def _score(state: State, player: str, box: str, index: int) -> list[Event]:
    column = state.sheets[player][index]
    joker = scoring.joker_active(state.dice, column)
    score = scoring.box_score(box, state.dice, column, state.joker)
    bonus = scoring.yahtzee_bonus(state.dice, column)
    column[box] = score
    column["yahtzee_bonus"] = (column["yahtzee_bonus"] or 0) + bonus
    events = [
        Event(
            "score",
            player,
            {
                "box": box,
                "column": FACTORS[index] if state.triple else None,
                "score": score,
                "bonus": bonus,
                "joker": joker,
                "points": (score + bonus) * FACTORS[index],
            },
        )
    ]
    return events + _next_turn(state)


def _next_turn(state: State) -> list[Event]:
    """Pass the turn to the next player still playing, or end the game."""
    state.dice, state.kept, state.rolls = [], [], 0
    n = len(state.order)
    for step in range(1, n + 1):
        i = (state.turn + step) % n
        p = state.order[i]
        if p not in state.forfeited and not all(scoring.is_full(c) for c in state.sheets[p]):
            state.turn = i
            return [Event("turn", p, {"round": _round(state, p)})]
    state.finished = True
    return [
        Event(
            "game_over",
            None,
            {"totals": {p: total(state, p) for p in state.players}, "winners": _winners(state)},
        )
    ]


def _round(state: State, player: str) -> int:
    filled = sum(1 for col in state.sheets[player] for b in BOXES if col[b] is not None)
    return filled + 1


def forfeit(state: State, player: str) -> list[Event]:
    """``player`` leaves: every empty box of theirs is scored 0 and they cannot win.

    The others play on; the game ends when every player still playing has
    filled their sheet (at once if nobody is left). The same as the move
    ``forfeit``, recorded by :func:`apply`.
    """
    return apply(state, player, "forfeit")


def _forfeit(state: State, player: str) -> list[Event]:
    if state.finished:
        raise RuleError("move.game_over", "the game is over")
    if player in state.forfeited:
        raise RuleError("yahtzee.already_left", f"{player} has already left", player=player)
    zeroed = 0
    for column in state.sheets[player]:
        for box in BOXES:
            if column[box] is None:
                column[box] = 0
                zeroed += 1
    state.forfeited.append(player)
    events = [Event("forfeit", player, {"zeroed": zeroed})]
    if player == state.order[state.turn]:
        events += _next_turn(state)
    return events


# --------------------------------------------------------------------------
# Views, results, persistence


def _column_view(column: Mapping[str, int | None], factor: int) -> dict[str, Any]:
    subtotal = scoring.upper_subtotal(column)
    col_total = scoring.column_total(column)
    return {
        "factor": factor,
        "boxes": {b: column[b] for b in BOXES},
        "upper_subtotal": subtotal,
        "upper_needed": max(0, scoring.UPPER_BONUS_AT - subtotal),
        "upper_bonus": scoring.upper_bonus(column),
        "lower_subtotal": scoring.lower_subtotal(column),
        "yahtzee_bonus": column["yahtzee_bonus"],
        "total": col_total,
        "points": col_total * factor,
    }


def view(state: State, viewer: str | None) -> dict[str, Any]:
    """Everything is public in Yahtzee: every viewer gets the same view."""
    current = None if state.finished else state.order[state.turn]
    return {
        "game": NAME,
        "players": list(state.players),
        "dealer": state.history.dealer,
        "to_move": to_move(state),
        "finished": state.finished,
        "options": dict(state.history.options),
        "order": list(state.order),
        "turn": current,
        "round": _round(state, current) if current else None,
        "rounds": len(BOXES) * len(FACTORS if state.triple else (1,)),
        "dice": list(state.dice),
        "kept": list(state.kept),
        "rolls_left": ROLLS_PER_TURN - state.rolls,
        "sheets": {
            p: [_column_view(c, FACTORS[i]) for i, c in enumerate(state.sheets[p])]
            for p in state.players
        },
        "totals": {p: total(state, p) for p in state.players},
        "forfeited": list(state.forfeited),
        "potential": potential_scores(state, current) if current else [],
    }


def _outcome_column(column: Mapping[str, int | None]) -> dict[str, int | None]:
    out: dict[str, int | None] = {b: column[b] for b in BOXES}
    out["upper_bonus"] = scoring.upper_bonus(column)
    out["yahtzee_bonus"] = column["yahtzee_bonus"]
    return out


def outcome(state: State) -> dict[str, Any]:
    """The replay outcome: ``finished``, ``totals``, ``winners`` (``None`` until
    the end), ``sheets`` (a column, or with ``triple`` a list of three, unmultiplied)."""
    sheets: dict[str, Any] = {}
    for p in state.players:
        cols = [_outcome_column(c) for c in state.sheets[p]]
        sheets[p] = cols if state.triple else cols[0]
    return {
        "finished": state.finished,
        "totals": {p: total(state, p) for p in state.players},
        "winners": _winners(state) if state.finished else None,
        "sheets": sheets,
    }


def settle(state: State) -> Outcome:
    """The game's :class:`~games.core.Outcome`: the final totals (kind
    ``total``) and the winners."""
    out = outcome(state)
    return Outcome(
        finished=out["finished"],
        winners=tuple(out["winners"] or ()),
        points={p: int(out["totals"].get(p, 0)) for p in state.players},
        kind=core.TOTAL,
    )


def to_json(state: State) -> dict[str, Any]:
    return {
        "schema": core.SCHEMA_VERSION,
        "game": NAME,
        "players": list(state.players),
        "order": list(state.order),
        "joker": state.joker,
        "triple": state.triple,
        "sheets": {p: [dict(c) for c in cols] for p, cols in state.sheets.items()},
        "turn": state.turn,
        "dice": list(state.dice),
        "kept": list(state.kept),
        "rolls": state.rolls,
        "forfeited": list(state.forfeited),
        "finished": state.finished,
        "source": state.source.to_json(),
        "history": state.history.to_json(),
    }


def from_json(doc: Mapping[str, Any]) -> State:
    if doc.get("game") != NAME:
        raise core.RecordError(f"not a {NAME} state: {doc.get('game')!r}")
    if doc.get("schema") != core.SCHEMA_VERSION:
        raise core.RecordError(f"unknown schema version {doc.get('schema')!r}")
    return State(
        history=History.from_json(doc["history"]),
        source=Source.from_json(doc["source"]),
        players=list(doc["players"]),
        order=list(doc["order"]),
        joker=doc["joker"],
        triple=bool(doc["triple"]),
        sheets={p: [dict(c) for c in cols] for p, cols in doc["sheets"].items()},
        turn=int(doc["turn"]),
        dice=list(doc["dice"]),
        kept=list(doc["kept"]),
        rolls=int(doc["rolls"]),
        forfeited=list(doc["forfeited"]),
        finished=bool(doc["finished"]),
    )
