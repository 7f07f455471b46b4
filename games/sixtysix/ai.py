"""Sixty-Six (docs/rules/sixtysix.md): the computer player and the coach.

``choose(view, me, legal, level, rng)`` returns one move of ``legal``; it
reads only ``view`` (the engine's ``view(state, me)``) and ``rng``, so the
same view and the same random state give the same move.

Strong: perfect-information Monte Carlo. The hidden cards (the opponent's
hand and the face-down talon) are dealt at random, consistent with what the
player has seen, a number of times; every candidate move is scored in every
sample by :mod:`games.sixtysix.solver` (exact alpha-beta once the talon is
closed or gone, a few plies plus a heuristic while it is open); the move with
the best average wins. Values are game points of the deal (+3 … −3), see
docs/ai_sixtysix.md. Fixed rules on top: declare as soon as the own points
reach 66 (pass below 66 after the last trick), always exchange the trump 9,
always show a marriage when leading its K or Q.

Normal: the same with few samples and a shallow search. Easy: the greedy
player (highest card / cheapest winning card) with a random card a quarter
of the time; it never closes.

Time: every decision may spend ``BUDGET`` solver nodes; once they are
spent no new sample is dealt (after at least ``Level.min_samples``). The
budget counts nodes, not seconds, so the move stays a function of the view
and the random source.

What the player knows comes from the view. The engine view carries the
deal's public memory: ``played`` (the completed tricks of this deal, each
``{"cards": [{"player", "card"}, …], "winner"}``; a plain list of cards is
also read), ``face_down_trump`` (the trump card turned down by a closing) and
``closing_opponent_had_trick``. A view without ``played`` (e.g. an older
record) still works: the player then knows only the last trick and samples
the other played cards among the unseen ones.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from games.core import CARDS
from games.sixtysix import solver
from games.sixtysix.solver import GOAL, POINTS, POWER, SUIT_OF, Position, bits

LEVELS = ("easy", "normal", "strong")
INDEX = {c: i for i, c in enumerate(CARDS)}
SUITS = "SHDC"
# Solver nodes the strong player may spend on one decision (then it stops
# sampling, after at least ``min_samples``). Counting nodes rather than
# seconds keeps the move a function of the view and the random source. The
# solver visits about 250,000-500,000 nodes a second on the 2-core machine,
# so this is ≈ 0.2-0.4 s; about 1 % of the strong player's decisions reach
# it, nearly all with 4 or 2 talon cards left (docs/ai_sixtysix.md).
BUDGET = 100_000


@dataclass(frozen=True)
class Level:
    samples: int  # sampled deals while the talon is open
    late_samples: int  # … once two cards or fewer are left to draw (leaves solved exactly)
    closed_samples: int  # … once the talon is closed
    plies: int  # cards searched after the candidate while the talon is open
    close: bool  # considers closing
    close_margin: float  # closing must beat going on by this much (game points)
    budget: int  # solver nodes per decision: no new sample once they are spent …
    min_samples: int  # … unless fewer samples than this were solved


LEVEL = {
    "normal": Level(6, 4, 6, 1, True, 0.3, 40_000, 2),
    "strong": Level(32, 10, 24, 3, True, 0.0, BUDGET, 4),
}


# --------------------------------------------------------------------------
# What the player knows


@dataclass
class Knowledge:
    """The deal from the player's seat: index 0 is the player, 1 the opponent."""

    hand: int
    opp_known: int  # cards certainly in the opponent's hand
    pool: int  # cards that may be in the opponent's hand or the face-down talon
    opp_size: int
    talon_size: int  # cards in the talon, trump card included
    trump: int
    trump_card: int  # the face-up trump card, −1 when none is visible
    down_trump: int  # the card turned down by closing, if known; else −1
    closed: bool
    closer: int  # 0 me, 1 opponent, −1 nobody
    opp_had_trick: bool
    points: list[int]
    tricks: list[int]
    phase: str
    my_turn: bool
    led: int
    strict: bool


def _played(view: dict[str, Any]) -> list[tuple[list[str], str | None]]:
    """Completed tricks of this deal: (cards, winner) from ``view["played"]``
    if present, else the last trick only."""
    out: list[tuple[list[str], str | None]] = []
    raw = view.get("played")
    if isinstance(raw, list):
        for item in raw:
            if isinstance(item, str):
                out.append(([item], None))
            elif isinstance(item, dict) and "cards" in item:
                cards = [c["card"] if isinstance(c, dict) else str(c) for c in item["cards"]]
                out.append((cards, item.get("winner")))
            elif isinstance(item, dict) and "card" in item:
                out.append(([str(item["card"])], item.get("winner")))
        return out
    last = view.get("last_trick")
    if last:
        out.append(([c["card"] for c in last["cards"]], last.get("winner")))
    return out


def _mask(cards: Iterable[str]) -> int:
    m = 0
    for c in cards:
        m |= 1 << INDEX[c]
    return m


def knowledge(view: dict[str, Any], me: str) -> Knowledge:
    """Everything ``me`` can tell about the deal from ``view``."""
    players = view["players"]
    opp = players[1 - players.index(me)]
    hand = _mask(view.get("hand", []))
    trump = SUITS.index(view["trump"])
    tricks_done = _played(view)
    exact = "played" in view
    played = 0
    for cards, _ in tricks_done:
        played |= _mask(cards)
    trick = view.get("trick") or []
    led = -1
    led_by_opp = 0
    for t in trick:
        played |= 1 << INDEX[t["card"]]
        if t["player"] == opp:
            led = INDEX[t["card"]]
            led_by_opp = 1 << led
    trump_card = INDEX[view["trump_card"]] if view.get("trump_card") else -1
    down = view.get("face_down_trump")
    down_trump = INDEX[down] if down and view.get("talon", 0) > 0 else -1
    # marriages shown: the partner of the led card stays with its owner until played
    opp_known = 0
    my_marr = opp_marr = 0
    for m in view.get("marriages", []):
        s = SUITS.index(m["suit"])
        if m["player"] == opp:
            opp_marr += m["points"]
            for c in (s * 6 + 3, s * 6 + 4):
                if not (played >> c & 1):
                    opp_known |= 1 << c
        else:
            my_marr += m["points"]
    opp_known &= ~hand
    seen = hand | played | opp_known
    if trump_card >= 0:
        seen |= 1 << trump_card
    if down_trump >= 0:
        seen |= 1 << down_trump
    pool = ((1 << 24) - 1) & ~seen
    tricks = [int(view["tricks"][me]), int(view["tricks"][opp])]
    bonus = view.get("last_trick_bonus")
    my_points = view.get("points")
    total = sum(POINTS[c] for cards, _ in tricks_done for c in (INDEX[x] for x in cards))
    if my_points is None:
        mine = sum(POINTS[INDEX[x]] for cards, w in tricks_done if w == me for x in cards)
        my_points = mine + my_marr + (10 if bonus == me else 0)
    if exact:
        my_tricks_pts = int(my_points) - my_marr - (10 if bonus == me else 0)
        opp_points = total - my_tricks_pts + opp_marr + (10 if bonus == opp else 0)
    else:
        # only the last trick is known: count the others at the average
        known = sum(POINTS[INDEX[x]] for cards, w in tricks_done if w == opp for x in cards)
        unseen_tricks = tricks[1] - sum(1 for _, w in tricks_done if w == opp)
        opp_points = known + 12 * max(0, unseen_tricks) + opp_marr + (10 if bonus == opp else 0)
    closer_name = view.get("closer")
    closer = -1 if closer_name is None else (0 if closer_name == me else 1)
    had = view.get("closing_opponent_had_trick")
    if had is None:
        had = tricks[1 - closer] > 0 if closer >= 0 else False
    return Knowledge(
        hand=hand,
        opp_known=opp_known,
        pool=pool & ~led_by_opp,
        opp_size=int(view["hand_sizes"][opp]),
        talon_size=int(view.get("talon", 0)),
        trump=trump,
        trump_card=trump_card,
        down_trump=down_trump,
        closed=bool(view.get("closed")),
        closer=closer,
        opp_had_trick=bool(had),
        points=[int(my_points), int(opp_points)],
        tricks=tricks,
        phase=str(view.get("phase")),
        my_turn=me in view.get("to_move", []),
        led=led,
        strict=bool(view.get("options", {}).get("strict", False)),
    )


def sample(k: Knowledge, rng: random.Random, nodes: list[int] | None = None) -> Position:
    """One deal consistent with ``k``, the player as player 0, to move;
    ``nodes`` is the solver's node counter to share (a new one if omitted)."""
    pool = list(bits(k.pool))
    rng.shuffle(pool)
    need = max(0, k.opp_size - bin(k.opp_known).count("1"))
    opp = k.opp_known
    for c in pool[:need]:
        opp |= 1 << c
    rest = pool[need:]
    talon: tuple[int, ...] = ()
    if not k.closed and k.talon_size > 0:
        hidden = rest[: max(0, k.talon_size - 1)]
        last = (
            k.trump_card
            if k.trump_card >= 0
            else (rest[len(hidden)] if len(rest) > len(hidden) else -1)
        )
        talon = tuple(hidden) + ((last,) if last >= 0 else ())
        if len(talon) % 2:  # too few unseen cards (the view lacks ``played``): keep draws in pairs
            talon = talon[:-1]
    return Position(
        (k.hand, opp),
        talon,
        k.closed,
        k.closer,
        k.opp_had_trick,
        k.trump,
        list(k.points),
        list(k.tricks),
        0,
        k.led,
        k.strict,
        [0] if nodes is None else nodes,
    )


# --------------------------------------------------------------------------
# Levels


def _card_moves(legal: list[str]) -> dict[int, str]:
    """Card → the move that plays it (a marriage when the move list offers one)."""
    out: dict[int, str] = {}
    for m in legal:
        word, _, card = m.partition(" ")
        if word == "play":
            out.setdefault(INDEX[card], m)
    for m in legal:
        word, _, card = m.partition(" ")
        if word == "marry":
            out[INDEX[card]] = m
    return out


def _forced(view: dict[str, Any], me: str, legal: list[str]) -> str | None:
    """The moves every level makes without thinking."""
    if not legal:
        raise ValueError("no legal move")
    if len(legal) == 1:
        return legal[0]
    pts = view.get("points")
    if pts is None:
        pts = knowledge(view, me).points[0]
    if "declare" in legal and pts >= GOAL:
        return "declare"
    if "pass" in legal:
        return "pass"
    if "exchange" in legal:
        return "exchange"
    return None


def greedy(view: dict[str, Any], me: str, legal: list[str]) -> str:
    """Highest card on lead (a marriage first), cheapest winning card when
    following, else the cheapest card; always draws, never closes."""
    forced = _forced(view, me, legal)
    if forced:
        return forced
    if "draw" in legal:
        return "draw"
    moves = _card_moves(legal)
    trump = SUITS.index(view["trump"])
    trick = view.get("trick") or []
    if not trick:
        marriages = [m for m in moves.values() if m.startswith("marry")]
        if marriages:
            return max(marriages, key=lambda m: POWER[INDEX[m[-2:]]])
        return moves[max(moves, key=lambda c: (POWER[c], SUIT_OF[c] != trump, -c))]
    led = INDEX[trick[0]["card"]]
    winners = [c for c in moves if solver.beats(led, c, trump)]
    if winners:
        return moves[min(winners, key=lambda c: (SUIT_OF[c] == trump, POWER[c], c))]
    return moves[min(moves, key=lambda c: (POINTS[c], SUIT_OF[c] == trump, c))]


def evaluate(
    view: dict[str, Any], me: str, legal: list[str], lv: Level, rng: random.Random
) -> tuple[dict[str, float], dict[str, float]]:
    """Mean value (game points) and share of won samples for every candidate."""
    k = knowledge(view, me)
    cands: list[str] = []
    if k.phase == "draw":
        cands = ["draw"]
        if lv.close and "close" in legal:
            cands.append("close")
    else:
        cands = list(_card_moves(legal).values())
        if lv.close and "close" in legal:
            cands.append("close")
    if k.closed or k.talon_size == 0:
        n = lv.closed_samples
        if k.talon_size == 0 and "played" in view:
            n = 1  # the opponent's hand is known by elimination
    elif k.talon_size <= 4:
        n = lv.late_samples
    else:
        n = lv.samples
    total = dict.fromkeys(cands, 0.0)
    wins = dict.fromkeys(cands, 0.0)
    nodes = [0]
    done = 0
    while done < n and (done < lv.min_samples or nodes[0] < lv.budget):
        pos = sample(k, rng, nodes)
        for m in cands:
            v = _score(pos, m, lv.plies)
            total[m] += v
            wins[m] += 1.0 if v > 0 else (0.5 if v == 0 else 0.0)
        done += 1
    n = done
    means = {m: total[m] / n for m in cands}
    if "close" in means:
        means["close"] -= lv.close_margin
    return means, {m: wins[m] / n for m in cands}


def _score(pos: Position, move: str, plies: int) -> float:
    if move == "close":
        closed = Position(
            pos.hands,
            (),
            True,
            0,
            pos.tricks[1] > 0,
            pos.trump,
            list(pos.points),
            list(pos.tricks),
            0,
            -1,
            pos.strict,
            pos.nodes,
        )
        return float(solver.solve_endgame(closed))
    if move == "draw":
        h0, h1 = pos.hands
        t = pos.talon
        if len(t) >= 2:
            h0 |= 1 << t[0]
            h1 |= 1 << t[1]
            t = t[2:]
        nxt = Position(
            (h0, h1),
            t,
            False,
            -1,
            False,
            pos.trump,
            list(pos.points),
            list(pos.tricks),
            0,
            -1,
            pos.strict,
            pos.nodes,
        )
        return solver.value(nxt, plies + 1)
    card = INDEX[move.split()[1]]
    child = solver.after(pos, card)
    if isinstance(child, int):
        return float(child)
    return solver.value(child, plies)


def choose(view: dict[str, Any], me: str, legal: list[str], level: str, rng: random.Random) -> str:
    """A move of ``legal`` for ``me``, from ``view`` only (module docstring)."""
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}")
    forced = _forced(view, me, legal)
    if forced:
        return forced
    if level == "easy":
        if rng.random() < 0.25:
            plays = [m for m in legal if m.startswith(("play", "marry"))] or ["draw"]
            return rng.choice([m for m in plays if m in legal] or legal)
        return greedy(view, me, legal)
    if "declare" in legal and len(legal) == 1:
        return "declare"
    means, _ = evaluate(view, me, legal, LEVEL[level], rng)
    return max(means, key=lambda m: (means[m], m != "close"))


def hint(view: dict[str, Any], me: str, legal: list[str]) -> dict[str, Any]:
    """The strong player's move with its numbers: the share of sampled deals
    won (``win_chance``) and each candidate's mean game points of the deal."""
    rng = random.Random(0)
    forced = _forced(view, me, legal)
    if forced:
        pts = knowledge(view, me).points[0]
        return {
            "move": forced,
            "reason": "hint.sixtysix",
            "numbers": {"win_chance": 1.0 if pts >= GOAL else None, "points": pts, "moves": {}},
        }
    means, wins = evaluate(view, me, legal, LEVEL["strong"], rng)
    best = max(means, key=lambda m: (means[m], m != "close"))
    return {
        "move": best,
        "reason": "hint.sixtysix",
        "numbers": {
            "win_chance": round(wins[best], 3),
            "points": knowledge(view, me).points[0],
            "moves": {
                m: {"game_points": round(means[m], 3), "win_chance": round(wins[m], 3)}
                for m in means
            },
        },
    }
