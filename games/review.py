"""The post-game review (issue 17, docs/review.md): how well each player
played, from the games' solvers.

:func:`review` replays a stored record (:class:`games.core.Record`) move by
move. Before each move of a player who had a real choice (two legal moves or
more) the game's reviewer (``GameSpec.review``: a module with
``reviewer(record) -> GameReviewer``) values every candidate move from what
that player could know at that moment, in the game's own measure of "worth"
(Yahtzee: expected final score; Nine: expected face-up sum left; Six Dice:
expected turn points; Bluff: chance to lose the life; Sixty-Six: game points
of the deal). The move made loses ``|worth(best) − worth(made)|`` (0 for the
best move). After each move the reviewer may report the luck of the dice the
move threw: the roll's percentile among every roll that could have come.

Per player:

- ``accuracy``: a decreasing function of the average loss per decision,
  calibrated per game (:class:`Grades`, the game's ``GRADES``; measured with
  bench/review.py, docs/review.md) so that one set of bands means the same
  in every game: the optimal player scores 100; ``None`` with fewer than
  :data:`MIN_DECISIONS` decisions (too few to grade);
- ``lost``: the loss summed over the decisions; ``decisions``: how many;
  ``losses``: each decision's loss, in the order played;
- the three biggest mistakes (largest loss first; ties: the earlier move);
- ``luck``: the percentile of the player's rolls, 0–1 (0.5: as expected;
  0.9: luckier than 90 % of players would have been with fair dice). Each
  roll gives its mid-percentile ``u = P(V < v) + P(V = v)/2`` (``V`` the
  value of a random roll in that position, ``v`` the roll's own); under fair
  dice ``u`` has mean 1/2 and an exactly known variance, so the sum of a
  player's ``u`` gives a z-score and ``luck = Φ(z)``.

How the bot words these figures (:class:`Grades`, per game and unit: a
game's ``GRADES``): the accuracy's band (excellent, good, fair, poor: one
set for every game, :data:`BAND_LEAST`) and each loss's class (inaccuracy,
mistake, blunder), from the measured levels and loss distributions
(docs/review.md).

Pure and deterministic: the same record gives the same review (the
Sixty-Six search seeds its samples from the player and the move number).
"""

from __future__ import annotations

import importlib
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from games import registry
from games.core import Event, Record, RuleError, ScriptedSource

# the review's version: bump when its numbers or its JSON change (stored
# reviews are redone). r2: every decision's loss (``losses``), for the classes;
# r3: the accuracy from the game's calibrated mapping (none below
# MIN_DECISIONS decisions), no ``scale``.
VERSION = "r3"
EPSILON = 1e-9  # losses below this are rounding: the best move
MISTAKES = 3
BANDS = ("excellent", "good", "fair", "poor")  # best first
CLASSES = ("inaccuracy", "mistake", "blunder")  # least first


# One set of bands for every game (docs/review.md, "Bands"): the least
# accuracy of excellent, good and fair; below: needs work. Each game's
# accuracy is scaled (its ``Grades.anchors``) so that these mean the same
# everywhere: its strong computer reads excellent, normal good, easy fair and
# random play needs work.
BAND_LEAST = (90.0, 70.0, 45.0)
# fewer decisions than this: no accuracy ("too few decisions to grade"); the
# mistakes are still listed
MIN_DECISIONS = 5


@dataclass(frozen=True)
class Grades:
    """The words of a game's figures (docs/review.md, "Bands and classes").

    ``anchors``: the accuracy as a function of the average loss per
    decision, through measured points ``(loss, accuracy)`` (losses rising,
    accuracies falling; 0 loss is 100): linear from (0, 100) to the first
    anchor, piecewise linear in log(loss) between anchors and on the last
    segment's slope beyond them, clamped to 0–100. ``classes``: the least
    loss of an inaccuracy, a mistake and a blunder, in the game's unit (a
    smaller loss is no mistake: it counts in the accuracy only). The
    inaccuracy starts at or below the loss per decision where "good" ends,
    so that a player below good always has a mistake to read (checked here).

    >>> g = Grades(((1.0, 80.0), (4.0, 60.0)), (1.0, 5.0, 12.0))
    >>> g.of_loss(0.0), g.of_loss(0.5), g.of_loss(2.0), round(g.of_loss(8.0), 1)
    (100.0, 90.0, 70.0, 50.0)
    >>> g.band(100.0), g.band(70.0), g.band(44.9), g.kind(0.9), g.kind(5.0), g.kind(40.0)
    ('excellent', 'good', 'poor', None, 'mistake', 'blunder')
    >>> g.accuracy([0.0] * 4) is None, g.accuracy([2.0] * 5)
    (True, 70.0)
    """

    anchors: tuple[tuple[float, float], ...]
    classes: tuple[float, float, float]
    bands: tuple[float, float, float] = BAND_LEAST

    def __post_init__(self) -> None:
        points = [(0.0, 100.0), *self.anchors]
        for (l0, a0), (l1, a1) in zip(points, points[1:], strict=False):
            if not (l1 > l0 and a1 < a0):
                raise ValueError(f"anchors must rise in loss and fall in accuracy: {points}")
        if self.of_loss(self.classes[0]) < self.bands[1] - 1e-6:
            raise ValueError("an inaccuracy must start within good: a low band needs a mistake")

    def of_loss(self, loss: float) -> float:
        """The accuracy of an average loss per decision ``loss``."""
        if loss <= EPSILON:
            return 100.0
        first, top = self.anchors[0]
        if loss <= first:
            return 100.0 - (100.0 - top) * loss / first
        points = list(self.anchors)
        if len(points) == 1:  # one anchor: the slope from half its loss
            points.insert(0, (first / 2, (100.0 + top) / 2))
        k = next((i for i in range(1, len(points)) if loss <= points[i][0]), len(points) - 1)
        (l0, a0), (l1, a1) = points[k - 1], points[k]
        at = a0 + (a1 - a0) * math.log(loss / l0) / math.log(l1 / l0)
        return min(100.0, max(0.0, at))

    def accuracy(self, losses: Sequence[float]) -> float | None:
        """A player's accuracy from every decision's loss; ``None`` below
        :data:`MIN_DECISIONS` decisions (too few to grade)."""
        if len(losses) < MIN_DECISIONS:
            return None
        return self.of_loss(sum(losses) / len(losses))

    def band(self, accuracy: float) -> str:
        for word, least in zip(BANDS, self.bands, strict=False):
            if accuracy >= least:
                return word
        return BANDS[-1]

    def kind(self, lost: float) -> str | None:
        """The class of a decision that lost ``lost``; ``None``: no mistake."""
        found = None
        for word, least in zip(CLASSES, self.classes, strict=True):
            if lost >= least - EPSILON:
                found = word
        return found

    def counts(self, losses: Iterable[float]) -> dict[str, int]:
        """How many decisions of each class (every class, 0 included)."""
        out = dict.fromkeys(CLASSES, 0)
        for lost in losses:
            kind = self.kind(lost)
            if kind is not None:
                out[kind] += 1
        return out


@dataclass(frozen=True)
class Assessment:
    """The candidates of one decision: move → worth, and which way is better.
    ``made`` is the worth of the move made (also in ``values``)."""

    values: dict[str, float]
    made: str
    detail: dict[str, Any] = field(default_factory=dict)  # e.g. Nine: chance of 上がり by move


@dataclass(frozen=True)
class Luck:
    """One roll's mid-percentile ``u`` and its variance under fair dice."""

    u: float
    var: float


class GameReviewer:
    """What a game tells the review; a game's ``review`` module subclasses it.

    ``unit``: the catalogue key suffix of its measure (``review.unit.<unit>``);
    ``higher``: whether a larger worth is better (the accuracy and the words
    of a unit: the game's ``GRADES[unit]``)."""

    unit = "points"
    higher = True

    def assess(self, state: Any, player: str, legal: list[str], move: str) -> Assessment | None:
        """The worth of every candidate, or ``None`` when this is no decision."""
        return None

    def before(self, state: Any, player: str, move: str) -> Any:
        """What :meth:`luck` needs from the position before the move."""
        return None

    def luck(
        self, memo: Any, state: Any, player: str, move: str, events: Sequence[Event]
    ) -> list[tuple[str, Luck]]:
        """(roller, luck) of every roll the move made (``state`` after it)."""
        return []

    def after(self, state: Any, player: str, move: str) -> None:
        """Called after every move (Bluff: the roller looks under the cup)."""

    def moment(
        self, view: dict[str, Any], player: str, before: Sequence[str]
    ) -> tuple[str, dict[str, Any]]:
        """When a decision was made, as the table and the replay name it:
        the catalogue suffix (``review.at.<game>.<kind>``) and its fields,
        from the player's view before the move and the record's moves
        before it (``"player move"`` strings). Every game's reviewer names
        its own (round, roll, deal, trick)."""
        raise NotImplementedError


def own_rolls_this_turn(player: str, before: Sequence[str]) -> int:
    """The ``roll`` moves ``player`` made since their turn began (the run of
    their moves at the end of ``before``)."""
    count = 0
    for text in reversed(before):
        who, _, move = text.partition(" ")
        if who != player:
            break
        count += move == "roll"
    return count


@dataclass(frozen=True)
class Decision:
    """One reviewed decision: the move number in the record (0-based: the
    position is the record replayed up to it), who, the move made and the
    best move with their worths, the loss, and every candidate's worth."""

    index: int
    player: str
    made: str
    best: str
    made_worth: float
    best_worth: float
    lost: float
    values: dict[str, float]
    detail: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "player": self.player,
            "made": self.made,
            "best": self.best,
            "made_worth": self.made_worth,
            "best_worth": self.best_worth,
            "lost": self.lost,
            "values": self.values,
            "detail": self.detail,
        }

    @classmethod
    def from_json(cls, doc: dict[str, Any]) -> Decision:
        return cls(
            int(doc["index"]),
            str(doc["player"]),
            str(doc["made"]),
            str(doc["best"]),
            float(doc["made_worth"]),
            float(doc["best_worth"]),
            float(doc["lost"]),
            {str(k): float(v) for k, v in doc["values"].items()},
            dict(doc.get("detail", {})),
        )


@dataclass(frozen=True)
class PlayerReview:
    """One player's review (see the module docstring for the figures)."""

    player: str
    decisions: int
    lost: float
    accuracy: float | None  # None below MIN_DECISIONS decisions
    mistakes: tuple[Decision, ...]
    rolls: int
    luck: float | None  # None without a roll
    losses: tuple[float, ...] = ()  # every decision's loss, in the order played

    def to_json(self) -> dict[str, Any]:
        return {
            "player": self.player,
            "decisions": self.decisions,
            "lost": self.lost,
            "accuracy": self.accuracy,
            "mistakes": [d.to_json() for d in self.mistakes],
            "rolls": self.rolls,
            "luck": self.luck,
            "losses": list(self.losses),
        }

    @classmethod
    def from_json(cls, doc: dict[str, Any]) -> PlayerReview:
        return cls(
            str(doc["player"]),
            int(doc["decisions"]),
            float(doc["lost"]),
            None if doc["accuracy"] is None else float(doc["accuracy"]),
            tuple(Decision.from_json(d) for d in doc["mistakes"]),
            int(doc["rolls"]),
            None if doc["luck"] is None else float(doc["luck"]),
            tuple(float(x) for x in doc.get("losses", ())),
        )


@dataclass(frozen=True)
class Review:
    """A whole game's review: the measure and every player's figures (seat order)."""

    game: str
    unit: str
    higher: bool
    players: tuple[PlayerReview, ...]

    def of(self, player: str) -> PlayerReview:
        return next(p for p in self.players if p.player == player)

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "unit": self.unit,
            "higher": self.higher,
            "players": [p.to_json() for p in self.players],
        }

    @classmethod
    def from_json(cls, doc: dict[str, Any]) -> Review:
        return cls(
            str(doc["game"]),
            str(doc["unit"]),
            bool(doc["higher"]),
            tuple(PlayerReview.from_json(p) for p in doc["players"]),
        )


# --------------------------------------------------------------------------
# Figures


def mid_percentile(outcomes: Iterable[tuple[float, float]], actual: float) -> Luck:
    """The mid-percentile of ``actual`` among ``outcomes`` ((chance, value)
    pairs; a larger value is luckier) and its variance under that law.

    >>> fair = [(1 / 6, float(f)) for f in range(1, 7)]
    >>> luck = mid_percentile(fair, 6.0)
    >>> round(luck.u, 4), round(luck.var, 4)
    (0.9167, 0.081)
    """
    merged: dict[float, float] = {}
    for p, v in outcomes:
        key = round(v, 9)
        merged[key] = merged.get(key, 0.0) + p
    total = sum(merged.values())
    below = 0.0
    us: dict[float, float] = {}
    second = 0.0
    for v in sorted(merged):
        p = merged[v] / total
        us[v] = below + p / 2
        second += p * us[v] ** 2
        below += p
    key = round(actual, 9)
    if key in us:
        u = us[key]
    else:  # not among the outcomes (rounding): the share strictly below it
        u = sum(merged[v] for v in merged if v < key) / total
    return Luck(u, max(0.0, second - 0.25))


def luck_percentile(rolls: Sequence[Luck]) -> float | None:
    """Φ of the z-score of a player's rolls (``None`` without a roll).

    >>> luck_percentile([Luck(0.5, 1 / 12)] * 4)
    0.5
    """
    if not rolls:
        return None
    var = sum(r.var for r in rolls)
    if var <= 0:
        return 0.5
    z = (sum(r.u for r in rolls) - 0.5 * len(rolls)) / math.sqrt(var)
    return 0.5 * (1.0 + math.erf(z / math.sqrt(2.0)))


def reviewer_of(record: Record) -> GameReviewer:
    """The record's game's reviewer (its spec's ``review`` module)."""
    spec = registry.spec(record.game)
    if spec.review is None:
        raise LookupError(f"{record.game} has no review")
    module = importlib.import_module(spec.review)
    found: GameReviewer = module.reviewer(record)
    return found


def has_review(game: str) -> bool:
    return registry.spec(game).review is not None


def grades(game: str, unit: str) -> Grades:
    """The bands and classes of ``game``'s review in ``unit`` (its review
    module's ``GRADES``; Six Dice has one per measure)."""
    spec = registry.spec(game)
    if spec.review is None:
        raise LookupError(f"{game} has no review")
    found: Grades = importlib.import_module(spec.review).GRADES[unit]
    return found


def positions(record: Record, upto: int) -> Any:
    """The position before the record's move number ``upto`` (0-based) as
    the review judged it (Bluff: each roller has looked under the cup)."""
    the = reviewer_of(record)
    eng = registry.engine(record.game)
    source = ScriptedSource(record.dice, record.decks, record.mishaps)
    state = eng.new_game(record.players, record.options, record.dealer, source)
    for text in record.moves[:upto]:
        player, _, move = text.partition(" ")
        eng.apply(state, player, move)
        the.after(state, player, move)
    return state


def review(record: Record, players: Sequence[str] | None = None) -> Review:
    """Review ``players`` (default: everyone) of a recorded game."""
    who = set(record.players if players is None else players)
    the = reviewer_of(record)
    eng = registry.engine(record.game)
    source = ScriptedSource(record.dice, record.decks, record.mishaps)
    state = eng.new_game(record.players, record.options, record.dealer, source)
    decisions: dict[str, list[Decision]] = {p: [] for p in record.players}
    rolls: dict[str, list[Luck]] = {p: [] for p in record.players}
    sign = 1.0 if the.higher else -1.0
    g = grades(record.game, the.unit)
    for index, text in enumerate(record.moves):
        player, _, move = text.partition(" ")
        if player in who and move != "forfeit":
            legal = eng.legal_moves(state, player)
            if len(legal) > 1 and move in legal:
                found = the.assess(state, player, legal, move)
                if found is not None and len(found.values) > 1:
                    best = max(found.values, key=lambda m: (sign * found.values[m], m == move))
                    made = found.values[found.made]
                    lost = max(0.0, sign * (found.values[best] - made))
                    if lost < EPSILON:
                        lost, best = 0.0, move
                    decisions[player].append(
                        Decision(
                            index,
                            player,
                            move,
                            best,
                            made,
                            found.values[best],
                            lost,
                            dict(found.values),
                            dict(found.detail),
                        )
                    )
        memo = the.before(state, player, move)
        try:
            events = eng.apply(state, player, move)
        except RuleError as err:  # a broken record: reviewed up to here
            raise ValueError(f"move {index + 1} {text!r}: {err}") from err
        for roller, luck in the.luck(memo, state, player, move, events):
            if roller in who:
                rolls[roller].append(luck)
        the.after(state, player, move)
    out = []
    for p in record.players:
        if p not in who:
            continue
        ds = decisions[p]
        worst = sorted((d for d in ds if d.lost > 0), key=lambda d: (-d.lost, d.index))
        out.append(
            PlayerReview(
                p,
                len(ds),
                sum(d.lost for d in ds),
                g.accuracy([d.lost for d in ds]),
                tuple(worst[:MISTAKES]),
                len(rolls[p]),
                luck_percentile(rolls[p]),
                tuple(d.lost for d in ds),
            )
        )
    return Review(record.game, the.unit, the.higher, tuple(out))


def review_json(doc: dict[str, Any], players: Sequence[str] | None = None) -> dict[str, Any]:
    """:func:`review` of a record's JSON document, as JSON (a worker's job)."""
    return review(registry.read_record(doc), players).to_json()
