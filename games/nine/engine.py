"""Nine — ナイン (docs/rules/nine.md): the rules engine.

Each player has the cards 1–9 face up. A turn is ``roll`` (two dice) and then
``flip a b`` / ``flip a``: turn face down one card equal to the dice total or
two cards summing to it. Doubles (ゾロ目) give a token first; a roll with no
flip is ドボン unless a token is handed back (automatic); a player left with
only the 1 face up is out at once (1 ドボン); all nine down is 上がり.
Lowest face-up sum wins; 上がり multiplies the winner's take by 2 × 2^tokens.

Events (``core.Event.kind`` → ``data`` keys), all public:

- ``dealer_roll``: ``rolls`` (player → face, one round of the dealer choice)
- ``roll``: ``dice`` (two faces), ``total``, ``doubles``
- ``token``: ``change`` (+1 gained on doubles, -1 handed back), ``tokens`` (now held)
- ``flip``: ``cards`` (values turned down), ``remaining`` (face-up sum)
- ``dobon``: ``remaining`` — no legal flip and no token: the player's game ends
- ``one_dobon``: ``remaining`` (1) — only the 1 is left face up
- ``agari``: ``tokens``, ``multiplier`` — all nine cards face down
- ``forfeit``: ``remaining`` (45) — the player left; all their cards count face up
- ``turn``: the next player to roll (``player``)
- ``game_over``: ``winner``, ``settlement``

:func:`settle`: the settlement and the winner (kind ``signed``).

View keys (besides the common ``game players dealer to_move finished options``):
``order`` (player order from the dealer), ``cards`` (player → list of nine
booleans, index 0 = card 1, true = face up), ``up`` (player → face-up values),
``remaining`` (player → face-up sum), ``tokens`` (player → int), ``status``
(player → ``null`` while playing, else ``"agari"``, ``"dobon"``,
``"one_dobon"`` or ``"forfeit"``), ``turn`` (the player whose turn it is, or
null), ``phase`` (``"roll"``, ``"flip"`` or ``"over"``), ``last_roll``
(``{"player", "dice", "total", "doubles"}`` or null), ``legal_flips`` (the
flips allowed for the current roll, canonical move strings), ``dealer_rolls``
(rounds of the dealer choice: list of player → face), ``multiplier``
(player → int), ``winner`` and ``settlement`` (null until finished).
Nine has no secrets: every viewer gets the same view.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from games import core
from games.core import Event, History, Option, Outcome, Played, RuleError, Source

NAME = "nine"
OPTIONS: tuple[Option, ...] = ()
MIN_PLAYERS = 1
MAX_PLAYERS = 8

FULL = (1 << 9) - 1  # bit c-1 set = card c face up

# Statuses of a finished player.
AGARI = "agari"  # 上がり: all nine down
DOBON = "dobon"  # ドボン: no legal flip, no token
ONE_DOBON = "one_dobon"  # 1 ドボン: only the 1 left face up
FORFEIT = "forfeit"  # left the table


def _flip_table() -> list[list[tuple[str, ...]]]:
    """For every face-up mask and dice total: the legal flips, canonical, in
    a stable order (single card first, then pairs by their smaller card)."""
    table: list[list[tuple[str, ...]]] = []
    for mask in range(FULL + 1):
        row: list[tuple[str, ...]] = []
        for total in range(13):
            flips: list[str] = []
            if 1 <= total <= 9 and mask >> (total - 1) & 1:
                flips.append(f"flip {total}")
            for a in range(1, 10):
                b = total - a
                if a < b <= 9 and mask >> (a - 1) & 1 and mask >> (b - 1) & 1:
                    flips.append(f"flip {a} {b}")
            row.append(tuple(flips))
        table.append(row)
    return table


FLIPS = _flip_table()
SUMS = [sum(c for c in range(1, 10) if m >> (c - 1) & 1) for m in range(FULL + 1)]


@dataclass(slots=True)
class NineState:
    """A game of Nine. ``up`` holds a 9-bit mask of face-up cards per player."""

    history: History
    source: Source
    order: list[str]
    up: dict[str, int]
    tokens: dict[str, int]
    status: dict[str, str | None]
    turn: int = 0  # index into ``order``
    phase: str = "roll"  # "roll", "flip" or "over"
    last_roll: dict[str, Any] | None = None
    dealer_rolls: list[dict[str, int]] = field(default_factory=list)


# --------------------------------------------------------------------------
# Setting up


def choose_dealer(players: Sequence[str], source: Source) -> tuple[str, list[dict[str, int]]]:
    """親決め: each player rolls one die (a 1 is 1 here), highest is dealer;
    tied players roll again among themselves. Returns the dealer and the rounds."""
    return core.roll_for_dealer(players, source)


def new_game(
    players: Sequence[str],
    options: Mapping[str, Any] | None,
    dealer: str | None,
    source: Source,
) -> NineState:
    """A new game; ``dealer=None`` draws the dealer with ``source.aux_roll``."""
    core.check_seats(players, MIN_PLAYERS, MAX_PLAYERS, "Nine")
    opts = core.parse_options(OPTIONS, options)
    rounds: list[dict[str, int]] = []
    if dealer is None:
        dealer, rounds = choose_dealer(players, source)
    elif dealer not in players:
        raise RuleError("game.dealer", f"{dealer!r} is not a player", player=dealer)
    i = list(players).index(dealer)
    order = list(players[i:]) + list(players[:i])
    return NineState(
        history=History(list(players), opts, dealer),
        source=source,
        order=order,
        up={p: FULL for p in players},
        tokens={p: 0 for p in players},
        status={p: None for p in players},
        dealer_rolls=rounds,
    )


# --------------------------------------------------------------------------
# Moves


def canonical(move: str) -> str:
    """The canonical text of a move (cards ascending); raises on bad notation.

    >>> canonical("flip 9 3"), canonical(" roll ")
    ('flip 3 9', 'roll')
    """
    words = move.split()
    if words == ["roll"] or words == ["forfeit"]:
        return words[0]
    if words and words[0] == "flip" and len(words) >= 2:
        if not all(len(w) == 1 and w in "123456789" for w in words[1:]):
            raise RuleError("move.unknown", f"unknown move {move!r}", move=move)
        cards = sorted(int(w) for w in words[1:])
        if len(cards) > 2:
            raise RuleError(
                "nine.too_many_cards", "a flip turns down one or two cards, never three"
            )
        if len(cards) == 2 and cards[0] == cards[1]:
            raise RuleError("nine.same_card", "a card cannot be turned down twice", card=cards[0])
        return "flip " + " ".join(str(c) for c in cards)
    raise RuleError("move.unknown", f"unknown move {move!r}", move=move)


def current(state: NineState) -> str | None:
    """The player whose turn it is (None when the game is over)."""
    return None if state.phase == "over" else state.order[state.turn]


def legal_moves(state: NineState, player: str) -> list[str]:
    """``["roll"]`` or the legal flips for the player to move; else ``[]``."""
    if state.phase == "over" or state.order[state.turn] != player:
        return []
    if state.phase == "roll":
        return ["roll"]
    assert state.last_roll is not None
    return list(FLIPS[state.up[player]][state.last_roll["total"]])


def _check_turn(state: NineState, player: str) -> None:
    core.check_player(state.history.players, player)
    if state.phase == "over":
        raise RuleError("move.game_over", "the game is over")


def _apply(state: NineState, player: str, move: str) -> Played:
    """Play ``move`` for ``player``; automatic steps follow inside."""
    _check_turn(state, player)
    text = canonical(move)
    if text == "forfeit":
        if state.status[player] is not None:
            raise RuleError("nine.already_finished", f"{player} has already finished")
        return Played(_forfeit(state, player), text)
    if state.order[state.turn] != player:
        raise RuleError("move.not_your_turn", f"it is not {player}'s turn", player=player)
    if text == "roll":
        if state.phase != "roll":
            raise RuleError("nine.flip_first", "the roll must be answered with a flip first")
        return Played(_roll(state, player), text)
    # a flip
    if state.phase != "flip":
        raise RuleError("nine.roll_first", "roll the dice before flipping")
    assert state.last_roll is not None
    total = state.last_roll["total"]
    cards = [int(w) for w in text.split()[1:]]
    mask = state.up[player]
    for c in cards:
        if not mask >> (c - 1) & 1:
            raise RuleError("nine.card_down", f"card {c} is already face down", card=c)
    if sum(cards) != total:
        raise RuleError(
            "nine.flip_sum",
            f"the cards must add up to the dice total {total}",
            total=total,
            cards=cards,
        )
    for c in cards:
        mask &= ~(1 << (c - 1))
    state.up[player] = mask
    events = [Event("flip", player, {"cards": cards, "remaining": SUMS[mask]})]
    if mask == 0:  # 上がり
        state.status[player] = AGARI
        t = state.tokens[player]
        events.append(Event("agari", player, {"tokens": t, "multiplier": 2 << t}))
    elif mask == 1:  # 1 ドボン: no two dice total 1
        state.status[player] = ONE_DOBON
        events.append(Event("one_dobon", player, {"remaining": 1}))
    events += _next_turn(state)
    return Played(events, text)


apply = core.recorded(_apply)


def _roll(state: NineState, player: str) -> list[Event]:
    dice = state.source.roll(2)  # may raise SourceExhausted: nothing changed yet
    total = dice[0] + dice[1]
    doubles = dice[0] == dice[1]
    state.last_roll = {"player": player, "dice": list(dice), "total": total, "doubles": doubles}
    events = [Event("roll", player, {"dice": list(dice), "total": total, "doubles": doubles})]
    if doubles:  # ゾロ目: the token counts before looking for a flip
        state.tokens[player] += 1
        events.append(Event("token", player, {"change": 1, "tokens": state.tokens[player]}))
    if FLIPS[state.up[player]][total]:
        state.phase = "flip"
        return events
    if state.tokens[player] > 0:  # a token is handed back instead of ドボン
        state.tokens[player] -= 1
        events.append(Event("token", player, {"change": -1, "tokens": state.tokens[player]}))
    else:  # ドボン
        state.status[player] = DOBON
        events.append(Event("dobon", player, {"remaining": SUMS[state.up[player]]}))
    events += _next_turn(state)
    return events


def _next_turn(state: NineState) -> list[Event]:
    """Pass the turn to the next unfinished player, or end the game."""
    n = len(state.order)
    for step in range(1, n + 1):
        i = (state.turn + step) % n
        if state.status[state.order[i]] is None:
            state.turn = i
            state.phase = "roll"
            return [Event("turn", state.order[i])]
    state.phase = "over"
    res = result(state)
    return [Event("game_over", None, {"winner": res[0], "settlement": res[1]})]


def forfeit(state: NineState, player: str) -> list[Event]:
    """The player leaves (the move ``forfeit``, recorded by :func:`apply`):
    all nine of their cards count face up (45, the worst score: they pay the
    most a loser can), they cannot be the winner unless every player
    forfeited, and the others play on. A no-op for a player already finished
    or a game already over."""
    core.check_player(state.history.players, player)
    if state.phase == "over" or state.status[player] is not None:
        return []
    return apply(state, player, "forfeit")


def _forfeit(state: NineState, player: str) -> list[Event]:
    state.up[player] = FULL
    state.status[player] = FORFEIT
    events = [Event("forfeit", player, {"remaining": SUMS[FULL]})]
    if state.order[state.turn] == player:
        events += _next_turn(state)
    return events


# --------------------------------------------------------------------------
# Result


def multiplier(state: NineState, player: str) -> int:
    """1, or 2 × 2^tokens for 上がり."""
    if state.status[player] == AGARI:
        return 2 << state.tokens[player]
    return 1


def result(state: NineState) -> tuple[str, dict[str, int]]:
    """The winner and the zero-sum settlement of a finished game.

    Lowest face-up sum wins; ties go to the higher multiplier, then the
    earlier in player order; a player who forfeited wins only if everybody did.
    """
    pos = {p: i for i, p in enumerate(state.order)}
    winner = min(
        state.order,
        key=lambda p: (
            state.status[p] == FORFEIT,
            SUMS[state.up[p]],
            -multiplier(state, p),
            pos[p],
        ),
    )
    m = multiplier(state, winner)
    base = SUMS[state.up[winner]]
    settlement = {p: 0 for p in state.history.players}
    for p in state.order:
        if p != winner:
            pay = (SUMS[state.up[p]] - base) * m
            settlement[p] -= pay
            settlement[winner] += pay
    return winner, settlement


def is_finished(state: NineState) -> bool:
    return state.phase == "over"


def to_move(state: NineState) -> list[str]:
    p = current(state)
    return [] if p is None else [p]


def outcome(state: NineState) -> dict[str, Any]:
    """docs/rules/notation.md: finished, remaining, multiplier, winner, settlement."""
    players = state.history.players
    out: dict[str, Any] = {
        "finished": is_finished(state),
        "remaining": {p: SUMS[state.up[p]] for p in players},
        "multiplier": {p: multiplier(state, p) for p in players},
        "winner": None,
    }
    if is_finished(state):
        winner, settlement = result(state)
        out["winner"] = winner
        out["settlement"] = settlement
    return out


def settle(state: NineState) -> Outcome:
    """The game's :class:`~games.core.Outcome`: the zero-sum settlement
    (zeros until the game is over) and the winner."""
    out = outcome(state)
    settlement = out.get("settlement") or {}
    return Outcome(
        finished=out["finished"],
        winners=(out["winner"],) if out["winner"] else (),
        points={p: int(settlement.get(p, 0)) for p in state.history.players},
        kind=core.SIGNED,
    )


def view(state: NineState, viewer: str | None) -> dict[str, Any]:
    """Everything is public in Nine; ``viewer`` does not change the view."""
    players = state.history.players
    finished = is_finished(state)
    winner: str | None = None
    settlement: dict[str, int] | None = None
    if finished:
        winner, settlement = result(state)
    turn = current(state)
    return {
        "game": NAME,
        "players": list(players),
        "dealer": state.history.dealer,
        "to_move": to_move(state),
        "finished": finished,
        "options": dict(state.history.options),
        "order": list(state.order),
        "cards": {p: [bool(state.up[p] >> i & 1) for i in range(9)] for p in players},
        "up": {p: [c for c in range(1, 10) if state.up[p] >> (c - 1) & 1] for p in players},
        "remaining": {p: SUMS[state.up[p]] for p in players},
        "tokens": dict(state.tokens),
        "status": dict(state.status),
        "turn": turn,
        "phase": state.phase,
        "last_roll": dict(state.last_roll) if state.last_roll else None,
        "legal_flips": legal_moves(state, turn) if turn and state.phase == "flip" else [],
        "dealer_rolls": [dict(r) for r in state.dealer_rolls],
        "multiplier": {p: multiplier(state, p) for p in players},
        "winner": winner,
        "settlement": settlement,
    }


# --------------------------------------------------------------------------
# Saving


def to_json(state: NineState) -> dict[str, Any]:
    return {
        "schema": core.SCHEMA_VERSION,
        "game": NAME,
        "history": state.history.to_json(),
        "source": state.source.to_json(),
        "order": list(state.order),
        "up": dict(state.up),
        "tokens": dict(state.tokens),
        "status": dict(state.status),
        "turn": state.turn,
        "phase": state.phase,
        "last_roll": dict(state.last_roll) if state.last_roll else None,
        "dealer_rolls": [dict(r) for r in state.dealer_rolls],
    }


def from_json(doc: Mapping[str, Any]) -> NineState:
    if doc.get("game") != NAME or doc.get("schema") != core.SCHEMA_VERSION:
        raise core.RecordError("not a saved Nine game of this schema")
    last = doc["last_roll"]
    return NineState(
        history=History.from_json(doc["history"]),
        source=Source.from_json(doc["source"]),
        order=list(doc["order"]),
        up={p: int(v) for p, v in doc["up"].items()},
        tokens={p: int(v) for p, v in doc["tokens"].items()},
        status=dict(doc["status"]),
        turn=int(doc["turn"]),
        phase=str(doc["phase"]),
        last_roll=dict(last) if last else None,
        dealer_rolls=[dict(r) for r in doc["dealer_rolls"]],
    )
