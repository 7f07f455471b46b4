"""Sixty-Six (docs/rules/sixtysix.md): a perfect-information solver on bitmasks.

The computer player (:mod:`games.sixtysix.ai`) samples the hidden cards and
hands every sample to this module, which then sees both hands and the talon
order. Cards are numbered in ``core.CARDS`` order (card ``c``: suit ``c // 6``,
rank ``"9TJQKA"[c % 6]``); a set of cards is an ``int`` bit mask.

Values are **game points of the deal from player 0's view** (+3 … −3): the
award of the declaration table of docs/rules/sixtysix.md, 0 for a deal that scores nothing (the
carry-over is not counted). Both players follow the same policy for the
things the solver does not branch on, which is also what the AI does:

- a player declares as soon as their points reach 66 (after a trick they
  won, or after a marriage);
- a K or Q led while its partner is in hand is always shown as a marriage
  (extra points never hurt the one who gets them);
- no losing declarations; after the last trick of an open deal a player
  below 66 passes.

:func:`solve_endgame` is exact (alpha-beta over every legal card, with a
transposition table and move ordering) once the talon is closed or gone.
:func:`search_open` looks a few plies ahead while the talon is open (draws
follow the sampled talon order) and scores its leaves with
:func:`heuristic`, a guess of the deal's game points from the points taken
and the cards in hand; a leaf where the talon ran out is solved exactly.

>>> from games.core import CARDS
>>> m = lambda *cs: sum(1 << CARDS.index(c) for c in cs)
>>> # player 0 leads with 60 points and holds the two top spades: wins 1 (opponent has 40)
>>> solve_endgame(Position((m("AS", "TS"), m("9H", "JH")), (), True, 0, True, 3, [60, 40], [3, 2], 0))
1
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass, field

RANK_POWER = (0, 4, 1, 2, 3, 5)  # 9 T J Q K A → A > T > K > Q > J > 9
RANK_POINTS = (0, 10, 2, 3, 4, 11)
POWER = tuple(RANK_POWER[c % 6] for c in range(24))
POINTS = tuple(RANK_POINTS[c % 6] for c in range(24))
SUIT_OF = tuple(c // 6 for c in range(24))
SUIT_MASK = tuple(0x3F << (6 * s) for s in range(4))
NINE, QUEEN, KING = 0, 3, 4
GOAL, HALF, LAST_TRICK = 66, 33, 10
INF = 99


def bits(mask: int) -> Iterator[int]:
    """The cards of a mask, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def partner(c: int) -> int:
    """The marriage partner of a K or Q (−1 for other ranks)."""
    r = c % 6
    if r == KING:
        return c - 1
    if r == QUEEN:
        return c + 1
    return -1


@dataclass(slots=True)
class Position:
    """A deal seen with every card open.

    ``talon`` lists the talon from the top, the trump card last; it is only
    read while the talon is open (``not closed``). ``led`` is the card led to
    the current trick by ``1 - turn`` (−1 when ``turn`` is about to lead).
    ``opp_had_trick`` is whether the closer's opponent had a trick when the
    talon was closed.
    """

    hands: tuple[int, int]
    talon: tuple[int, ...]
    closed: bool
    closer: int  # −1: nobody closed
    opp_had_trick: bool
    trump: int
    points: list[int]
    tricks: list[int]
    turn: int
    led: int = -1
    strict: bool = False
    # counters for the benchmark and the docs
    nodes: list[int] = field(default_factory=lambda: [0])


def award(d: int, closer: int, opp_had: bool, pts: tuple[int, int], tr: tuple[int, int]) -> int:
    """Player 0's game points when ``d`` declares (docs/rules/sixtysix.md's table, bottom-up)."""
    o = 1 - d
    sign = 1 if d == 0 else -1
    if closer == d and pts[d] < GOAL and not opp_had:
        return -3 * sign
    if pts[d] >= GOAL:
        if tr[o] == 0:
            return 3 * sign
        if pts[o] < HALF:
            return 2 * sign
        return sign
    return -sign * (3 if (tr[d] == 0 or tr[o] == 0) else 2)


def beats(led: int, card: int, trump: int) -> bool:
    """Whether ``card`` played second beats the led card."""
    if SUIT_OF[card] == SUIT_OF[led]:
        return POWER[card] > POWER[led]
    return SUIT_OF[card] == trump


def follow_moves(hand: int, led: int, trump: int, must_follow: bool, strict: bool) -> int:
    """The cards of ``hand`` that may answer ``led``."""
    if not must_follow:
        return hand
    suit = hand & SUIT_MASK[SUIT_OF[led]]
    if not strict:
        return suit or hand
    if suit:
        win = 0
        for c in bits(suit):
            if POWER[c] > POWER[led]:
                win |= 1 << c
        return win or suit
    return (hand & SUIT_MASK[trump]) or hand


def _order_lead(hand: int, trump: int) -> list[int]:
    # marriages and high cards first: good moves early make alpha-beta cut
    cs = list(bits(hand))
    cs.sort(
        key=lambda c: (
            -(
                POWER[c]
                + (8 if partner(c) >= 0 and hand >> partner(c) & 1 else 0)
                + (2 if SUIT_OF[c] == trump else 0)
            )
        )
    )
    return cs


def _order_follow(moves: int, led: int, trump: int) -> list[int]:
    # cheapest winning card first, then the cheapest loser
    cs = list(bits(moves))
    cs.sort(
        key=lambda c: (
            0 if beats(led, c, trump) else 1,
            POINTS[c] + (20 if SUIT_OF[c] == trump else 0),
        )
    )
    return cs


def solve_endgame(pos: Position, alpha: int = -3, beta: int = 3) -> int:
    """The exact value (player 0's game points) of a deal whose talon is
    closed or gone. Within ``(alpha, beta)`` the result is exact; outside it
    is a bound (fail-soft)."""
    trump = pos.trump
    closer = pos.closer if pos.closed else -1
    had = pos.opp_had_trick
    bonus = not pos.closed  # last trick +10 only when the talon ran out
    strict = pos.strict
    tt: dict[tuple[int, ...], tuple[int, int]] = {}
    counter = pos.nodes

    def node(
        h0: int,
        h1: int,
        p0: int,
        p1: int,
        t0: int,
        t1: int,
        turn: int,
        led: int,
        alpha: int,
        beta: int,
    ) -> int:
        counter[0] += 1
        key = (h0, h1, p0, p1, t0 > 0, t1 > 0, turn, led)
        lo, hi = tt.get(key, (-INF, INF))
        if lo >= beta:
            return lo
        if hi <= alpha:
            return hi
        if lo == hi:
            return lo
        a0, b0 = alpha, beta
        if lo > alpha:
            alpha = lo
        if hi < beta:
            beta = hi
        hand = h0 if turn == 0 else h1
        maxing = turn == 0
        best = -INF if maxing else INF
        if led < 0:
            for c in _order_lead(hand, trump):
                bit = 1 << c
                q0, q1 = p0, p1
                mate = partner(c)
                if mate >= 0 and hand >> mate & 1:
                    gain = 40 if SUIT_OF[c] == trump else 20
                    if turn == 0:
                        q0 += gain
                    else:
                        q1 += gain
                if (q0 if turn == 0 else q1) >= GOAL:
                    v = award(turn, closer, had, (q0, q1), (t0, t1))
                elif turn == 0:
                    v = node(h0 ^ bit, h1, q0, q1, t0, t1, 1, c, alpha, beta)
                else:
                    v = node(h0, h1 ^ bit, q0, q1, t0, t1, 0, c, alpha, beta)
                if maxing:
                    if v > best:
                        best = v
                        if v > alpha:
                            alpha = v
                elif v < best:
                    best = v
                    if v < beta:
                        beta = v
                if alpha >= beta:
                    break
        else:
            for c in _order_follow(follow_moves(hand, led, trump, True, strict), led, trump):
                bit = 1 << c
                n0, n1 = (h0 ^ bit, h1) if turn == 0 else (h0, h1 ^ bit)
                w = turn if beats(led, c, trump) else 1 - turn
                gain = POINTS[led] + POINTS[c]
                q0, q1, u0, u1 = p0, p1, t0, t1
                if w == 0:
                    q0 += gain
                    u0 += 1
                else:
                    q1 += gain
                    u1 += 1
                if (q0 if w == 0 else q1) >= GOAL:
                    v = award(w, closer, had, (q0, q1), (u0, u1))
                elif not n0 and not n1:
                    if closer >= 0:
                        v = award(closer, closer, had, (q0, q1), (u0, u1))
                    else:
                        if bonus:
                            if w == 0:
                                q0 += LAST_TRICK
                            else:
                                q1 += LAST_TRICK
                        v = award(w, -1, had, (q0, q1), (u0, u1)) if max(q0, q1) >= GOAL else 0
                else:
                    v = node(n0, n1, q0, q1, u0, u1, w, -1, alpha, beta)
                if maxing:
                    if v > best:
                        best = v
                        if v > alpha:
                            alpha = v
                elif v < best:
                    best = v
                    if v < beta:
                        beta = v
                if alpha >= beta:
                    break
        if best <= a0:
            tt[key] = (lo, best)
        elif best >= b0:
            tt[key] = (best, hi)
        else:
            tt[key] = (best, best)
        return best

    h0, h1 = pos.hands
    return node(
        h0,
        h1,
        pos.points[0],
        pos.points[1],
        pos.tricks[0],
        pos.tricks[1],
        pos.turn,
        pos.led,
        alpha,
        beta,
    )


# --------------------------------------------------------------------------
# The open talon: a few plies of search, heuristic leaves

HAND_WEIGHT = 0.6  # how much of a card's points in hand counts as "will be taken"
TRUMP_BONUS = 6.0  # a trump in hand wins tricks later
MARRIAGE_HOPE = 0.6  # a marriage pair still in hand is most of its points
SCALE = 30.0  # point difference → game points: 3·tanh(diff / SCALE)


def heuristic(pos_trump: int, h0: int, h1: int, p0: int, p1: int, t0: int, t1: int) -> float:
    """A guess of player 0's game points of the deal, from the points taken
    and what each player holds (sampled hands are open to the solver)."""

    def strength(h: int) -> float:
        s = 0.0
        for c in bits(h):
            s += HAND_WEIGHT * POINTS[c]
            if SUIT_OF[c] == pos_trump:
                s += TRUMP_BONUS + POWER[c]
            if c % 6 == KING and h >> (c - 1) & 1:
                s += MARRIAGE_HOPE * (40 if SUIT_OF[c] == pos_trump else 20)
        return s

    diff = (p0 - p1) + strength(h0) - strength(h1)
    if t0 == 0:
        diff -= 6
    if t1 == 0:
        diff += 6
    return 3.0 * math.tanh(diff / SCALE)


def search_open(pos: Position, plies: int) -> float:
    """Player 0's value of ``pos`` (talon open), searching ``plies`` cards
    ahead; leaves use :func:`heuristic`, except that when the last two talon
    cards are drawn at the end of the current trick (``len(pos.talon) <= 2``)
    the position after the draw is solved exactly (:func:`solve_endgame`)."""
    exact = len(pos.talon) <= 2
    trump = pos.trump
    talon = pos.talon
    nt = len(talon)
    counter = pos.nodes
    strict = pos.strict

    def node(
        h0: int,
        h1: int,
        ti: int,
        p0: int,
        p1: int,
        t0: int,
        t1: int,
        turn: int,
        led: int,
        depth: int,
        alpha: float,
        beta: float,
    ) -> float:
        counter[0] += 1
        if ti >= nt and led < 0:
            if not exact:
                return heuristic(trump, h0, h1, p0, p1, t0, t1)
            end = Position(
                (h0, h1), (), False, -1, False, trump, [p0, p1], [t0, t1], turn, -1, strict, counter
            )
            return float(solve_endgame(end, max(-3, math.floor(alpha)), min(3, math.ceil(beta))))
        if depth <= 0 and led < 0:
            return heuristic(trump, h0, h1, p0, p1, t0, t1)
        hand = h0 if turn == 0 else h1
        maxing = turn == 0
        best = -float(INF) if maxing else float(INF)
        if led < 0:
            for c in _order_lead(hand, trump):
                bit = 1 << c
                q0, q1 = p0, p1
                mate = partner(c)
                if mate >= 0 and hand >> mate & 1:
                    gain = 40 if SUIT_OF[c] == trump else 20
                    if turn == 0:
                        q0 += gain
                    else:
                        q1 += gain
                if (q0 if turn == 0 else q1) >= GOAL:
                    v: float = award(turn, -1, False, (q0, q1), (t0, t1))
                elif turn == 0:
                    v = node(h0 ^ bit, h1, ti, q0, q1, t0, t1, 1, c, depth - 1, alpha, beta)
                else:
                    v = node(h0, h1 ^ bit, ti, q0, q1, t0, t1, 0, c, depth - 1, alpha, beta)
                if maxing:
                    if v > best:
                        best = v
                        alpha = max(alpha, v)
                elif v < best:
                    best = v
                    beta = min(beta, v)
                if alpha >= beta:
                    break
            return best
        must = ti >= nt
        for c in _order_follow(follow_moves(hand, led, trump, must, strict), led, trump):
            bit = 1 << c
            n0, n1 = (h0 ^ bit, h1) if turn == 0 else (h0, h1 ^ bit)
            w = turn if beats(led, c, trump) else 1 - turn
            gain = POINTS[led] + POINTS[c]
            q0, q1, u0, u1 = p0, p1, t0, t1
            if w == 0:
                q0 += gain
                u0 += 1
            else:
                q1 += gain
                u1 += 1
            if (q0 if w == 0 else q1) >= GOAL:
                v = award(w, -1, False, (q0, q1), (u0, u1))
            else:
                ni = ti
                if ti < nt:  # winner draws first, loser second
                    a, b = talon[ti], talon[ti + 1]
                    ni = ti + 2
                    if w == 0:
                        n0 |= 1 << a
                        n1 |= 1 << b
                    else:
                        n1 |= 1 << a
                        n0 |= 1 << b
                v = node(n0, n1, ni, q0, q1, u0, u1, w, -1, depth - 1, alpha, beta)
            if maxing:
                if v > best:
                    best = v
                    alpha = max(alpha, v)
            elif v < best:
                best = v
                beta = min(beta, v)
            if alpha >= beta:
                break
        return best

    h0, h1 = pos.hands
    return node(
        h0,
        h1,
        0,
        pos.points[0],
        pos.points[1],
        pos.tricks[0],
        pos.tricks[1],
        pos.turn,
        pos.led,
        plies,
        -float(INF),
        float(INF),
    )


def after(pos: Position, card: int) -> Position | int:
    """The position after ``pos.turn`` plays ``card`` (a K or Q with its
    partner in hand is shown as a marriage; the winner of a trick draws first
    while the talon is open), or player 0's game points if the deal ends
    there (a declaration at 66)."""
    p = pos.turn
    hands = list(pos.hands)
    hand = hands[p]
    pts = list(pos.points)
    tricks = list(pos.tricks)
    hands[p] = hand & ~(1 << card)
    closer = pos.closer if pos.closed else -1
    if pos.led < 0:
        mate = partner(card)
        if mate >= 0 and hand >> mate & 1:
            pts[p] += 40 if SUIT_OF[card] == pos.trump else 20
            if pts[p] >= GOAL:
                return award(p, closer, pos.opp_had_trick, (pts[0], pts[1]), (tricks[0], tricks[1]))
        return Position(
            (hands[0], hands[1]),
            pos.talon,
            pos.closed,
            pos.closer,
            pos.opp_had_trick,
            pos.trump,
            pts,
            tricks,
            1 - p,
            card,
            pos.strict,
            pos.nodes,
        )
    led = pos.led
    w = p if beats(led, card, pos.trump) else 1 - p
    pts[w] += POINTS[led] + POINTS[card]
    tricks[w] += 1
    if pts[w] >= GOAL:
        return award(w, closer, pos.opp_had_trick, (pts[0], pts[1]), (tricks[0], tricks[1]))
    talon = pos.talon
    if not pos.closed and talon:
        hands[w] |= 1 << talon[0]
        hands[1 - w] |= 1 << talon[1]
        talon = talon[2:]
    elif not hands[0] and not hands[1]:
        if closer >= 0:
            return award(
                closer, closer, pos.opp_had_trick, (pts[0], pts[1]), (tricks[0], tricks[1])
            )
        pts[w] += LAST_TRICK
        if pts[w] >= GOAL:
            return award(w, -1, False, (pts[0], pts[1]), (tricks[0], tricks[1]))
        return 0
    return Position(
        (hands[0], hands[1]),
        talon,
        pos.closed,
        pos.closer,
        pos.opp_had_trick,
        pos.trump,
        pts,
        tricks,
        w,
        -1,
        pos.strict,
        pos.nodes,
    )


def value(pos: Position, plies: int) -> float:
    """Player 0's value of ``pos``: exact once the talon is closed or gone,
    else :func:`search_open` ``plies`` cards deep."""
    if pos.closed or not pos.talon:
        return float(solve_endgame(pos))
    return search_open(pos, plies)
