"""Sixty-Six — シックスティー・シックス (docs/rules/sixtysix.md): the two-player engine.

Moves (docs/rules/notation.md, case-sensitive): ``play QS`` · ``marry KS`` /
``marry QS`` (show the marriage and lead that card) · ``exchange`` · ``draw``
· ``close`` · ``declare`` · ``pass``; and ``forfeit`` (leaving the game, any
time, either player; never listed by ``legal_moves``).

Phases of a deal (``view["phase"]``):

- ``lead``: the turn holder leads (play, marry, exchange, close);
- ``follow``: the turn holder answers the led card;
- ``draw``: a trick was just won while the talon is open; the winner may only
  ``draw`` (both players draw, winner first) or ``close``;
- ``speak``: after the last trick of a deal that was not closed, each player
  who has not passed may ``declare`` or ``pass`` (either may speak first).

``declare`` is legal for both players at every moment of a deal (in ``speak``
only for a player who has not passed), so ``legal_moves`` of the player who is
not in :func:`to_move` is ``["declare"]``.

View keys (``view(state, viewer)``), besides the contract's ``game``,
``players``, ``dealer`` (of the current deal), ``to_move``, ``finished``,
``options``:

- ``deal`` (1-based number), ``phase`` (above), ``trump`` (suit letter),
  ``trump_card`` (the face-up card under the talon, ``None`` once taken or
  once the talon is closed), ``talon`` (cards left, trump card included),
  ``closed`` (bool), ``closer`` (name or ``None``),
- ``trick``: the current trick, list of ``{"player", "card"}`` (0 or 1 card),
- ``last_trick``: ``{"cards": [{"player", "card"}, …], "winner"}`` or ``None``,
- ``marriages``: list of ``{"player", "suit", "points"}`` shown this deal,
- ``tricks``: tricks won this deal by player; ``hand_sizes`` by player,
- ``passed``: by player (the speak phase), ``last_trick_bonus``: name of the
  player who got the last-trick 10 (``None`` until then),
- ``game_points`` by player, ``carry`` (no-score deals waiting to be won),
  ``winner`` (name or ``None``), ``deals``: finished deals, each
  ``{"winner", "game_points", "card_points", "reason", "declarer"}`` (reason
  ``declared`` / ``closed`` / ``no_score``; a finished deal's counts are open),
- the deal's public memory, for players and computer players alike:
  ``played`` (the completed tricks, each ``{"cards": [{"player": None,
  "card"}, …], "winner"}``, grouped by winner), ``face_down_trump`` (the
  trump card a close turned face down; everyone had seen it) and
  ``closing_opponent_had_trick`` (``None`` unless closed),
- a player's own view only: ``hand`` (sorted), ``moves`` (their legal moves),
  and with ``show_points`` ``points`` (their own card points: tricks +
  last trick + marriages).

Never in any view: the opponent's hand, the talon order, the opponent's points.

Events (``core.Event``; ``data`` keys):

- ``deal`` {deal, dealer, trump_card} public; ``hand`` {cards} private to each player
- ``play`` {card}; ``marriage`` {suit, points, card}; ``exchange`` {nine, card}
- ``trick`` {cards: [[player, card], …], winner}; ``last_trick`` {points: 10}
- ``draw`` {cards: 2} public, plus ``drawn`` {card} private to each drawer
- ``close`` {}; ``declare`` {}; ``pass`` {}; ``speak`` {} (the speak phase begins)
- ``deal_end`` {winner, game_points, card_points, reason, declarer}
- ``game_over`` {winner, game_points}; ``forfeit`` {winner}

:func:`settle`: the game points and the winner (kind ``signed``).
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from games import core
from games.core import CARDS, Event, History, Option, Outcome, Played, RuleError, Source

NAME = "sixtysix"
MIN_PLAYERS = 2
MAX_PLAYERS = 2
OPTIONS: tuple[Option, ...] = (
    # limits and their reasons: docs/rules/sixtysix.md "House option limits"
    Option("target", "int", 7, minimum=1, maximum=21),
    Option("strict", "bool", False),
    Option("show_points", "bool", True),
)
SMALL_OPTION_VALUES: dict[str, list[Any]] = {"target": [2]}

# Rules as data: strength (higher wins) and card points per rank.
STRENGTH = {"9": 0, "J": 1, "Q": 2, "K": 3, "T": 4, "A": 5}
RANK_POINTS = {"9": 0, "J": 2, "Q": 3, "K": 4, "T": 10, "A": 11}
POINTS = {c: RANK_POINTS[c[0]] for c in CARDS}
POWER = {c: STRENGTH[c[0]] for c in CARDS}
ORDER = {c: i for i, c in enumerate(CARDS)}
CARD_SET = frozenset(CARDS)
GOAL = 66  # 勝利宣言 needs 66
HALF = 33  # 1 game point when the loser has this much
LAST_TRICK = 10
MARRIAGE = 20
TRUMP_MARRIAGE = 40

LEAD, FOLLOW, DRAW, SPEAK = "lead", "follow", "draw", "speak"
SIMPLE_MOVES = frozenset({"draw", "close", "declare", "pass", "exchange", "forfeit"})


@dataclass(slots=True)
class State:
    """A game of Sixty-Six: the game so far plus the deal in progress.

    Players are indices 0/1 (seat order) inside; names appear only at the edges.
    ``talon`` lists the talon from the top; while it is not empty its last card
    is the trump card (face up unless ``closed``).
    """

    history: History
    source: Source
    options: dict[str, Any]
    dealer: int
    game_points: list[int] = field(default_factory=lambda: [0, 0])
    deals: list[dict[str, Any]] = field(default_factory=list)
    carry: int = 0
    finished: bool = False
    winner: int | None = None
    forfeited: int | None = None
    deal_no: int = 0
    hands: list[list[str]] = field(default_factory=lambda: [[], []])
    talon: list[str] = field(default_factory=list)
    trump: str = "S"
    closed: bool = False
    closer: int | None = None
    closing_opponent_had_trick: bool = False
    turn: int = 0
    phase: str = LEAD
    trick: list[tuple[int, str]] = field(default_factory=list)
    last_trick: list[tuple[int, str]] = field(default_factory=list)
    last_winner: int | None = None
    won: list[list[str]] = field(default_factory=lambda: [[], []])
    tricks: list[int] = field(default_factory=lambda: [0, 0])
    points: list[int] = field(default_factory=lambda: [0, 0])
    marriages: list[tuple[int, str]] = field(default_factory=list)
    passed: list[bool] = field(default_factory=lambda: [False, False])
    bonus: int | None = None  # who got the last-trick 10

    @property
    def players(self) -> list[str]:
        return self.history.players


# --------------------------------------------------------------------------
# Setting up


def new_game(
    players: Sequence[str],
    options: Mapping[str, Any] | None,
    dealer: str | None,
    source: Source,
) -> State:
    """A new game; the first dealer is ``dealer`` or drawn with ``source.randbelow(2)``."""
    names = list(players)
    if (
        len(names) != 2
        or len(set(names)) != 2
        or not all(isinstance(p, str) and p and not any(c.isspace() for c in p) for p in names)
    ):
        raise RuleError(
            "game.players", "Sixty-Six needs exactly two distinct player names without spaces"
        )
    opts = core.parse_options(OPTIONS, options)
    if dealer is None:
        first = source.randbelow(2)
    elif dealer in names:
        first = names.index(dealer)
    else:
        raise RuleError("game.players", f"the dealer {dealer!r} is not a player", player=dealer)
    state = State(History(names, dict(opts), names[first]), source, opts, first)
    _start_deal(state, _draw_deck(state))
    return state


def _sort(hand: list[str]) -> None:
    hand.sort(key=ORDER.__getitem__)


def _draw_deck(s: State) -> list[str]:
    """The next deal's deck from the source (a scripted source that ran out
    raises :class:`~games.core.SourceExhausted`)."""
    deck = s.source.deck()
    if len(deck) != 24 or set(deck) != CARD_SET:
        raise RuleError("record.bad_deck", "a deck must hold the 24 cards once each")
    return deck


def _next_deck(s: State, winner: int | None, base: int) -> list[str] | None:
    """Before a move that ends the deal changes anything: the next deal's
    deck, or ``None`` when the deal ends the game (``winner`` reaches the
    target with ``base`` game points and the carry)."""
    if winner is not None and s.game_points[winner] + base + s.carry >= s.options["target"]:
        return None
    return _draw_deck(s)


def _start_deal(s: State, deck: list[str]) -> list[Event]:
    d = s.dealer
    n = 1 - d
    # three to the non-dealer, three to the dealer, three and three again
    hands: list[list[str]] = [[], []]
    hands[n] = deck[0:3] + deck[6:9]
    hands[d] = deck[3:6] + deck[9:12]
    _sort(hands[0])
    _sort(hands[1])
    s.hands = hands
    s.talon = deck[13:] + [deck[12]]  # the turned-up card lies under the talon
    s.trump = deck[12][1]
    s.closed = False
    s.closer = None
    s.closing_opponent_had_trick = False
    s.turn = n  # the non-dealer leads the first trick
    s.phase = LEAD
    s.trick = []
    s.last_trick = []
    s.last_winner = None
    s.won = [[], []]
    s.tricks = [0, 0]
    s.points = [0, 0]
    s.marriages = []
    s.passed = [False, False]
    s.bonus = None
    s.deal_no += 1
    names = s.players
    return [
        Event("deal", None, {"deal": s.deal_no, "dealer": names[d], "trump_card": deck[12]}),
        Event("hand", names[0], {"cards": list(hands[0])}, (names[0],)),
        Event("hand", names[1], {"cards": list(hands[1])}, (names[1],)),
    ]


# --------------------------------------------------------------------------
# Legal moves


def _talon_open(s: State) -> bool:
    return not s.closed and bool(s.talon)


def _can_exchange(s: State, p: int) -> bool:
    return s.tricks[p] > 0 and _talon_open(s) and ("9" + s.trump) in s.hands[p]


def _beats(s: State, led: str, card: str) -> bool:
    """Whether ``card`` played second beats the led card."""
    if card[1] == led[1]:
        return POWER[card] > POWER[led]
    return card[1] == s.trump


def _playable(s: State, p: int) -> list[str]:
    """The cards ``p`` may play to the current trick (``phase == follow``)."""
    hand = s.hands[p]
    if _talon_open(s):
        return list(hand)
    led = s.trick[0][1]
    suit = [c for c in hand if c[1] == led[1]]
    if not s.options["strict"]:
        return suit or list(hand)
    if suit:
        winners = [c for c in suit if POWER[c] > POWER[led]]
        return winners or suit
    trumps = [c for c in hand if c[1] == s.trump]
    return trumps or list(hand)


def _legal(s: State, p: int) -> list[str]:
    if s.finished:
        return []
    if s.phase == SPEAK:
        return [] if s.passed[p] else ["declare", "pass"]
    if p != s.turn:
        return ["declare"]
    if s.phase == DRAW:
        return ["draw", "close", "declare"]
    if s.phase == FOLLOW:
        moves = ["play " + c for c in _playable(s, p)]
        moves.append("declare")
        return moves
    hand = s.hands[p]
    moves = ["play " + c for c in hand]
    for suit in "SHDC":
        if "K" + suit in hand and "Q" + suit in hand:
            moves.append("marry K" + suit)
            moves.append("marry Q" + suit)
    if _can_exchange(s, p):
        moves.append("exchange")
    if _talon_open(s):
        moves.append("close")
    moves.append("declare")
    return moves


def legal_moves(state: State, player: str) -> list[str]:
    """The canonical moves ``player`` may make now (``[]`` when none)."""
    if player not in state.history.players:
        return []
    return _legal(state, state.history.players.index(player))


def to_move(state: State) -> list[str]:
    """Whom the game waits for: the turn holder, or in the speak phase every
    player who has not passed. The other player may still ``declare``."""
    if state.finished:
        return []
    names = state.history.players
    if state.phase == SPEAK:
        return [names[i] for i in (0, 1) if not state.passed[i]]
    return [names[state.turn]]


def is_finished(state: State) -> bool:
    return state.finished


# --------------------------------------------------------------------------
# Parsing and explaining illegal moves


def canonical(move: str) -> str:
    """The canonical text of a move; unknown words raise ``move.unknown``.

    >>> canonical("  play   QS ")
    'play QS'
    >>> canonical("draw")
    'draw'
    """
    words = move.split()
    if len(words) == 1 and words[0] in SIMPLE_MOVES:
        return words[0]
    if len(words) == 2 and words[0] in ("play", "marry") and words[1] in CARD_SET:
        return words[0] + " " + words[1]
    raise RuleError("move.unknown", f"{move!r} is not a Sixty-Six move", move=move)


def _why(s: State, p: int, move: str) -> RuleError:
    """The rule that ``move`` by ``p`` breaks (it is known not to be legal)."""
    word, _, card = move.partition(" ")
    if s.phase == SPEAK:
        if s.passed[p]:
            return RuleError("sixtysix.passed", "a player who passed may not declare or play on")
        return RuleError(
            "sixtysix.declare_or_pass", "after the last trick a player may only declare or pass"
        )
    if word == "pass":
        return RuleError("sixtysix.pass_before_last", "pass is allowed only after the last trick")
    if p != s.turn:
        return RuleError("move.not_your_turn", "it is not your turn", player=s.players[p])
    if s.phase == DRAW:
        return RuleError(
            "sixtysix.draw_or_close", "after winning a trick, draw or close first", move=move
        )
    if word == "draw":
        return RuleError("sixtysix.draw_not_now", "there is nothing to draw now")
    if word == "close":
        if s.phase != LEAD:
            return RuleError("sixtysix.close_on_lead", "only the player on lead may close")
        if s.closed:
            return RuleError("sixtysix.already_closed", "the talon is already closed")
        return RuleError("sixtysix.close_talon_gone", "the talon is gone: nothing to close")
    if word == "exchange":
        if s.phase != LEAD:
            return RuleError("sixtysix.exchange_on_lead", "exchange only when about to lead")
        if ("9" + s.trump) not in s.hands[p]:
            return RuleError(
                "sixtysix.exchange_no_nine", "exchange needs the trump 9", card="9" + s.trump
            )
        if s.tricks[p] == 0:
            return RuleError(
                "sixtysix.exchange_no_trick", "exchange needs a trick won in this deal"
            )
        if s.closed:
            return RuleError("sixtysix.exchange_closed", "no exchange once the talon is closed")
        return RuleError(
            "sixtysix.exchange_no_trump_card", "the trump card is no longer on the table"
        )
    if card not in s.hands[p]:
        return RuleError("sixtysix.not_in_hand", f"{card} is not in your hand", card=card)
    if word == "marry":
        if s.phase != LEAD:
            return RuleError(
                "sixtysix.marriage_on_lead", "a marriage is shown only when about to lead"
            )
        if card[0] not in "KQ":
            return RuleError("sixtysix.marriage_card", "a marriage leads its K or Q", card=card)
        return RuleError(
            "sixtysix.marriage_needs_pair", "a marriage needs the K and Q of one suit", suit=card[1]
        )
    # play: in hand, during follow, so a follow-suit rule forbids it
    led = s.trick[0][1]
    if card[1] != led[1] and any(c[1] == led[1] for c in s.hands[p]):
        return RuleError("sixtysix.must_follow", "you must follow the led suit", suit=led[1])
    if card[1] == led[1]:
        return RuleError("sixtysix.must_win", "you must win the trick if you can (strict)")
    return RuleError("sixtysix.must_trump", "you must trump if you cannot follow (strict)")


# --------------------------------------------------------------------------
# Applying moves


def _apply(state: State, player: str, move: str) -> Played:
    """Apply one move; an illegal move raises :class:`RuleError` and changes
    nothing (a move that ends a deal draws the next deck before it changes
    anything, so a scripted source that ran out changes nothing either)."""
    names = state.history.players
    if player not in names:
        raise RuleError("move.not_a_player", f"{player!r} is not a player", player=player)
    if state.finished:
        raise RuleError("move.game_over", "the game is over")
    canon = canonical(move)
    p = names.index(player)
    if canon == "forfeit":
        return Played(_forfeit(state, p), canon)
    if canon not in _legal(state, p):
        raise _why(state, p, canon)
    return Played(_do(state, p, canon), canon)


apply = core.recorded(_apply)


def _do(s: State, p: int, move: str) -> list[Event]:
    names = s.players
    who = names[p]
    word, _, card = move.partition(" ")
    if word == "play":
        return _play(s, p, card)
    if word == "marry":
        suit = card[1]
        pts = TRUMP_MARRIAGE if suit == s.trump else MARRIAGE
        s.points[p] += pts
        s.marriages.append((p, suit))
        events = [Event("marriage", who, {"suit": suit, "points": pts, "card": card})]
        return events + _play(s, p, card)
    if word == "draw":
        first, second = s.talon[0], s.talon[1]
        del s.talon[:2]
        s.hands[p].append(first)
        s.hands[1 - p].append(second)
        _sort(s.hands[0])
        _sort(s.hands[1])
        s.phase = LEAD
        return [
            Event("draw", who, {"cards": 2}),
            Event("drawn", who, {"card": first}, (who,)),
            Event("drawn", names[1 - p], {"card": second}, (names[1 - p],)),
        ]
    if word == "close":
        s.closed = True
        s.closer = p
        s.closing_opponent_had_trick = s.tricks[1 - p] > 0
        s.phase = LEAD
        return [Event("close", who, {})]
    if word == "exchange":
        nine = "9" + s.trump
        old = s.talon[-1]
        hand = s.hands[p]
        hand.remove(nine)
        hand.append(old)
        _sort(hand)
        s.talon[-1] = nine
        return [Event("exchange", who, {"nine": nine, "card": old})]
    if word == "declare":
        winner, gp = _declaration(s, p)
        deck = _next_deck(s, winner, gp)
        return [Event("declare", who, {})] + _end_deal(s, winner, gp, "declared", p, deck)
    # pass
    if s.passed[1 - p]:  # both passed: nobody scores, the next deal follows
        deck = _next_deck(s, None, 0)
        s.passed[p] = True
        return [Event("pass", who, {})] + _end_deal(s, None, 0, "no_score", None, deck)
    s.passed[p] = True
    return [Event("pass", who, {})]


def _play(s: State, p: int, card: str) -> list[Event]:
    names = s.players
    if s.phase == LEAD:
        s.hands[p].remove(card)
        s.trick = [(p, card)]
        s.phase = FOLLOW
        s.turn = 1 - p
        return [Event("play", names[p], {"card": card})]
    leader, led = s.trick[0]
    w = p if _beats(s, led, card) else leader
    deck: list[str] | None = None
    if s.closed and len(s.hands[w]) == (1 if w == p else 0):
        # the last trick of a closed deal ends it (the trick's winner has no
        # card left): the closer is deemed to declare; the next deck is drawn
        # before anything changes
        assert s.closer is not None
        points, tricks = list(s.points), list(s.tricks)
        points[w] += POINTS[led] + POINTS[card]
        tricks[w] += 1
        deck = _next_deck(s, *_declaration(s, s.closer, points, tricks))
    s.hands[p].remove(card)
    events = [Event("play", names[p], {"card": card})]
    s.trick.append((p, card))
    s.won[w].append(led)
    s.won[w].append(card)
    s.tricks[w] += 1
    s.points[w] += POINTS[led] + POINTS[card]
    s.last_trick = s.trick
    s.last_winner = w
    s.trick = []
    s.turn = w
    events.append(
        Event(
            "trick",
            names[w],
            {"cards": [[names[i], c] for i, c in s.last_trick], "winner": names[w]},
        )
    )
    if s.hands[w]:
        s.phase = DRAW if _talon_open(s) else LEAD
        return events
    if s.closed:
        # the closer is deemed to declare once play ends
        assert s.closer is not None
        winner, gp = _declaration(s, s.closer)
        return events + _end_deal(s, winner, gp, "closed", s.closer, deck)
    s.points[w] += LAST_TRICK
    s.bonus = w
    s.phase = SPEAK
    s.passed = [False, False]
    return events + [
        Event("last_trick", names[w], {"points": LAST_TRICK}),
        Event("speak", None, {}),
    ]


def _declaration(
    s: State, d: int, points: Sequence[int] | None = None, tricks: Sequence[int] | None = None
) -> tuple[int, int]:
    """(winner, game points) when ``d`` declares now (docs/rules/sixtysix.md's table, read
    bottom-up), with the deal's card ``points`` and ``tricks`` (default: as
    they stand)."""
    points = s.points if points is None else points
    tricks = s.tricks if tricks is None else tricks
    o = 1 - d
    mine = points[d]
    if s.closer == d and mine < GOAL and not s.closing_opponent_had_trick:
        return o, 3
    if mine >= GOAL:
        if tricks[o] == 0:
            return d, 3
        if points[o] < HALF:
            return d, 2
        return d, 1
    return o, 3 if (tricks[d] == 0 or tricks[o] == 0) else 2


def _end_deal(
    s: State,
    winner: int | None,
    base: int,
    reason: str,
    declarer: int | None,
    deck: list[str] | None,
) -> list[Event]:
    """Score the deal; then the game is over, or the next deal is dealt from
    ``deck`` (drawn by :func:`_next_deck` before the move changed anything)."""
    names = s.players
    if winner is None:
        s.carry += 1
        awarded = 0
    else:
        awarded = base + s.carry
        s.carry = 0
        s.game_points[winner] += awarded
    winner_name = None if winner is None else names[winner]
    record: dict[str, Any] = {
        "winner": winner_name,
        "game_points": awarded,
        "card_points": {names[0]: s.points[0], names[1]: s.points[1]},
        "reason": reason,
        "declarer": None if declarer is None else names[declarer],
    }
    s.deals.append(record)
    events = [Event("deal_end", winner_name, dict(record, card_points=dict(record["card_points"])))]
    if winner is not None and s.game_points[winner] >= s.options["target"]:
        s.finished = True
        s.winner = winner
        events.append(
            Event(
                "game_over",
                names[winner],
                {"winner": names[winner], "game_points": _by_name(s, s.game_points)},
            )
        )
        return events
    assert deck is not None, "a deal that does not end the game needs the next deck"
    s.dealer = 1 - s.dealer
    return events + _start_deal(s, deck)


def _by_name(s: State, values: Sequence[Any]) -> dict[str, Any]:
    names = s.players
    return {names[0]: values[0], names[1]: values[1]}


def forfeit(state: State, player: str) -> list[Event]:
    """``player`` leaves: the opponent wins the game at once, game points stay
    as they are; the deal in progress is abandoned (not in ``deals``). Also the
    move ``forfeit`` (not listed by ``legal_moves``), recorded by :func:`apply`
    as ``PLAYER forfeit`` so the game replays (docs/rules/sixtysix.md)."""
    return apply(state, player, "forfeit")


def _forfeit(s: State, p: int) -> list[Event]:
    names = s.players
    s.finished = True
    s.winner = 1 - p
    s.forfeited = p
    return [
        Event("forfeit", names[p], {"winner": names[1 - p]}),
        Event(
            "game_over",
            names[1 - p],
            {"winner": names[1 - p], "game_points": _by_name(s, s.game_points)},
        ),
    ]


# --------------------------------------------------------------------------
# Views, outcome, JSON, clone


def view(state: State, viewer: str | None) -> dict[str, Any]:
    """What ``viewer`` (a player, or ``None`` for the public) may know."""
    s = state
    names = s.players
    trump_card = s.talon[-1] if _talon_open(s) else None
    doc: dict[str, Any] = {
        "game": NAME,
        "players": list(names),
        "dealer": names[s.dealer],
        "to_move": to_move(s),
        "finished": s.finished,
        "options": dict(s.options),
        "deal": s.deal_no,
        "phase": s.phase,
        "trump": s.trump,
        "trump_card": trump_card,
        "talon": len(s.talon),
        "closed": s.closed,
        "closer": None if s.closer is None else names[s.closer],
        "trick": [{"player": names[i], "card": c} for i, c in s.trick],
        "last_trick": None
        if s.last_winner is None
        else {
            "cards": [{"player": names[i], "card": c} for i, c in s.last_trick],
            "winner": names[s.last_winner],
        },
        "marriages": [
            {
                "player": names[i],
                "suit": suit,
                "points": TRUMP_MARRIAGE if suit == s.trump else MARRIAGE,
            }
            for i, suit in s.marriages
        ],
        "tricks": _by_name(s, s.tricks),
        "hand_sizes": _by_name(s, [len(s.hands[0]), len(s.hands[1])]),
        "passed": _by_name(s, s.passed),
        "last_trick_bonus": None if s.bonus is None else names[s.bonus],
        "game_points": _by_name(s, s.game_points),
        "carry": s.carry,
        "winner": None if s.winner is None else names[s.winner],
        "deals": [dict(d, card_points=dict(d["card_points"])) for d in s.deals],
        # Public memory of the deal: every card of a completed trick was shown
        # face up, and the trump card was seen before a close turned it down.
        # (Grouped by the trick's winner, not in play order.)
        "played": [
            {
                "cards": [{"player": None, "card": c} for c in s.won[w][i : i + 2]],
                "winner": names[w],
            }
            for w in (0, 1)
            for i in range(0, len(s.won[w]), 2)
        ],
        "face_down_trump": s.talon[-1] if s.closed and s.talon else None,
        "closing_opponent_had_trick": s.closing_opponent_had_trick if s.closed else None,
    }
    if viewer is not None and viewer in names:
        p = names.index(viewer)
        doc["hand"] = list(s.hands[p])
        doc["moves"] = _legal(s, p)
        if s.options["show_points"]:
            doc["points"] = s.points[p]
    return doc


def outcome(state: State) -> dict[str, Any]:
    """The replay outcome of docs/rules/notation.md."""
    s = state
    return {
        "finished": s.finished,
        "game_points": _by_name(s, s.game_points),
        "winner": None if s.winner is None else s.players[s.winner],
        "deals": [
            {
                "winner": d["winner"],
                "game_points": d["game_points"],
                "card_points": dict(d["card_points"]),
            }
            for d in s.deals
        ],
    }


def settle(state: State) -> Outcome:
    """The game's :class:`~games.core.Outcome`: the game points and the winner."""
    out = outcome(state)
    return Outcome(
        finished=out["finished"],
        winners=(out["winner"],) if out["winner"] else (),
        points={p: int(out["game_points"].get(p, 0)) for p in state.players},
        kind=core.SIGNED,
    )


def to_json(state: State) -> dict[str, Any]:
    s = state
    return {
        "schema": core.SCHEMA_VERSION,
        "game": NAME,
        "history": s.history.to_json(),
        "source": s.source.to_json(),
        "options": dict(s.options),
        "dealer": s.dealer,
        "game_points": list(s.game_points),
        "deals": [dict(d, card_points=dict(d["card_points"])) for d in s.deals],
        "carry": s.carry,
        "finished": s.finished,
        "winner": s.winner,
        "forfeited": s.forfeited,
        "deal_no": s.deal_no,
        "hands": [list(h) for h in s.hands],
        "talon": list(s.talon),
        "trump": s.trump,
        "closed": s.closed,
        "closer": s.closer,
        "closing_opponent_had_trick": s.closing_opponent_had_trick,
        "turn": s.turn,
        "phase": s.phase,
        "trick": [[i, c] for i, c in s.trick],
        "last_trick": [[i, c] for i, c in s.last_trick],
        "last_winner": s.last_winner,
        "won": [list(w) for w in s.won],
        "tricks": list(s.tricks),
        "points": list(s.points),
        "marriages": [[i, suit] for i, suit in s.marriages],
        "passed": list(s.passed),
        "bonus": s.bonus,
    }


def from_json(doc: Mapping[str, Any]) -> State:
    if doc.get("game") != NAME or doc.get("schema") != core.SCHEMA_VERSION:
        raise core.RecordError("not a Sixty-Six state of this schema")
    return State(
        history=History.from_json(doc["history"]),
        source=Source.from_json(doc["source"]),
        options=dict(doc["options"]),
        dealer=int(doc["dealer"]),
        game_points=list(doc["game_points"]),
        deals=[dict(d, card_points=dict(d["card_points"])) for d in doc["deals"]],
        carry=int(doc["carry"]),
        finished=bool(doc["finished"]),
        winner=doc["winner"],
        forfeited=doc["forfeited"],
        deal_no=int(doc["deal_no"]),
        hands=[list(h) for h in doc["hands"]],
        talon=list(doc["talon"]),
        trump=str(doc["trump"]),
        closed=bool(doc["closed"]),
        closer=doc["closer"],
        closing_opponent_had_trick=bool(doc["closing_opponent_had_trick"]),
        turn=int(doc["turn"]),
        phase=str(doc["phase"]),
        trick=[(int(i), str(c)) for i, c in doc["trick"]],
        last_trick=[(int(i), str(c)) for i, c in doc["last_trick"]],
        last_winner=doc["last_winner"],
        won=[list(w) for w in doc["won"]],
        tricks=list(doc["tricks"]),
        points=list(doc["points"]),
        marriages=[(int(i), str(suit)) for i, suit in doc["marriages"]],
        passed=[bool(x) for x in doc["passed"]],
        bonus=doc["bonus"],
    )


def _copy_source(src: Source) -> Source:
    """An independent copy of a source, faster than ``copy.deepcopy``."""
    new = copy.copy(src)
    for name, value in vars(src).items():
        if isinstance(value, list):
            setattr(new, name, [list(x) if isinstance(x, list) else x for x in value])
        elif isinstance(value, core._Stream):
            stream = copy.copy(value)
            stream.runs = [list(r) for r in value.runs]
            setattr(new, name, stream)
        elif isinstance(value, (dict, set)) or hasattr(value, "__dict__"):
            setattr(new, name, copy.deepcopy(value))
    return new


def clone(state: State, source: Source | None = None) -> State:
    """A fast independent copy for simulations (no JSON round trip).

    The copy gets ``source`` when given (an AI's own randomness for the deals
    after this one); otherwise a deep copy of the state's source, so playing
    on the clone never changes the original.
    """
    s = state
    h = s.history
    return State(
        history=History(list(h.players), dict(h.options), h.dealer, list(h.moves)),
        source=_copy_source(s.source) if source is None else source,
        options=s.options,  # never mutated after new_game
        dealer=s.dealer,
        game_points=list(s.game_points),
        deals=list(s.deals),  # finished deal records are never mutated
        carry=s.carry,
        finished=s.finished,
        winner=s.winner,
        forfeited=s.forfeited,
        deal_no=s.deal_no,
        hands=[list(s.hands[0]), list(s.hands[1])],
        talon=list(s.talon),
        trump=s.trump,
        closed=s.closed,
        closer=s.closer,
        closing_opponent_had_trick=s.closing_opponent_had_trick,
        turn=s.turn,
        phase=s.phase,
        trick=list(s.trick),
        last_trick=list(s.last_trick),
        last_winner=s.last_winner,
        won=[list(s.won[0]), list(s.won[1])],
        tricks=list(s.tricks),
        points=list(s.points),
        marriages=list(s.marriages),
        passed=list(s.passed),
        bonus=s.bonus,
    )
