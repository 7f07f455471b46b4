"""The post-game review (games/review.py, issue 17): optimal play scores 100,
a deliberate blunder is found first with the right best move and value, the
Sixty-Six review never reads hidden cards, the same record gives the same
review. Issue 31: one set of bands for every game, each game's accuracy a
calibrated decreasing function of its average loss, no accuracy under 5
decisions, a band below good always with a mistake to read, and each
decision's moment as the table names it."""

from __future__ import annotations

import random
from typing import Any

import pytest

from games import bluff, nine, sixdice, sixtysix, yahtzee
from games.core import CARDS, Record, SeededSource, record_of
from games.nine import ai as nine_ai
from games.review import (
    BAND_LEAST,
    BANDS,
    CLASSES,
    MIN_DECISIONS,
    Grades,
    Luck,
    Review,
    grades,
    luck_percentile,
    mid_percentile,
    review,
)
from games.sixtysix import ai as s66_ai
from games.yahtzee import ai as y_ai
from games.yahtzee import review as y_review


def _play(
    eng: Any,
    game: str,
    players: list[str],
    seed: str,
    pick: Any,
    options: dict[str, Any] | None = None,
) -> Record:
    state = eng.new_game(players, options or {}, players[0], SeededSource(seed))
    n = 0
    while not eng.is_finished(state):
        p = eng.to_move(state)[0]
        legal = eng.legal_moves(state, p)
        eng.apply(state, p, pick(state, p, legal, n))
        n += 1
    return record_of(game, state)


def _strong(eng: Any, ai: Any) -> Any:
    rng = random.Random(7)
    return lambda state, p, legal, n: ai.choose(eng.view(state, p), p, legal, "strong", rng)


@pytest.fixture(scope="module", autouse=True)
def yahtzee_solver() -> None:
    y_review.reviewer(Record("yahtzee", ["a"], "a"))  # loads the table once (disk cache)


@pytest.mark.parametrize("seed", ["r1", "r2", "r3"])
def test_the_strong_yahtzee_player_scores_100(seed: str) -> None:
    rec = _play(yahtzee, "yahtzee", ["a", "b"], seed, _strong(yahtzee, y_ai))
    rv = review(rec)
    for p in rv.players:
        assert p.decisions >= 26  # at least two choices a turn
        assert p.accuracy == 100.0 and p.lost == 0.0 and p.mistakes == ()
        assert p.rolls >= 13 and p.luck is not None and 0.0 <= p.luck <= 1.0


@pytest.mark.parametrize("seed", ["n1", "n2", "n3", "n4"])
def test_the_strong_nine_player_scores_100(seed: str) -> None:
    rec = _play(nine, "nine", ["a", "b", "c"], seed, _strong(nine, nine_ai))
    rv = review(rec)
    assert sum(p.decisions for p in rv.players) > 0
    for p in rv.players:
        assert p.lost == 0.0 and p.mistakes == ()
        assert p.accuracy in (100.0, None)


def _worst(values: dict[str, float], higher: bool) -> str:
    return min(values, key=lambda m: values[m] if higher else -values[m])


def test_one_yahtzee_blunder_is_found_first_with_the_best_move_and_its_value() -> None:
    strong = _strong(yahtzee, y_ai)
    seen: dict[str, Any] = {}

    def pick(state: Any, p: str, legal: list[str], n: int) -> str:
        view = yahtzee.view(state, p)
        if p == "a" and "blunder" not in seen and view["round"] == 4 and view["rolls_left"] == 2:
            choices = {c.move: c.expected for c in y_ai.advice(view, p).choices}
            worst = _worst({m: v for m, v in choices.items() if m in legal}, True)
            best = max(choices, key=lambda m: choices[m])
            seen["blunder"] = (n, worst, choices[worst], best, choices[best])
            return worst
        return str(strong(state, p, legal, n))

    rec = _play(yahtzee, "yahtzee", ["a", "b"], "blunder", pick)
    n, worst, worst_value, best, best_value = seen["blunder"]
    assert best_value - worst_value > 5  # a real blunder
    got = review(rec).of("a")
    first = got.mistakes[0]
    assert (first.index, first.made, first.best) == (n, worst, best)
    assert first.made_worth == pytest.approx(worst_value)
    assert first.best_worth == pytest.approx(best_value)
    assert first.lost == pytest.approx(best_value - worst_value)
    assert got.lost == pytest.approx(first.lost) and len(got.mistakes) == 1  # the only one
    g = grades("yahtzee", "points")
    assert got.accuracy == pytest.approx(g.of_loss(first.lost / got.decisions))
    assert got.accuracy is not None and got.accuracy < 100
    assert review(rec).of("b").accuracy == 100.0
    # more than 5 expected points thrown away is named at least a mistake
    assert grades("yahtzee", "points").kind(first.lost) in ("mistake", "blunder")
    assert grades("yahtzee", "points").band(100.0) == "excellent"


def test_one_nine_blunder_is_found_first() -> None:
    strong = _strong(nine, nine_ai)
    seen: dict[str, Any] = {}

    def pick(state: Any, p: str, legal: list[str], n: int) -> str:
        view = nine.view(state, p)
        choices = {c.move: c.remaining for c in nine_ai.flip_choices(view, p) if c.move in legal}
        if p == "a" and "blunder" not in seen and len(choices) > 1:
            worst = _worst(choices, False)
            best = min(choices, key=lambda m: choices[m])
            if choices[worst] - choices[best] > 0.5:
                seen["blunder"] = (n, worst, choices[worst], best, choices[best])
                return worst
        return str(strong(state, p, legal, n))

    for seed in ("nb1", "nb2", "nb3", "nb4", "nb5"):
        seen.clear()
        rec = _play(nine, "nine", ["a", "b"], seed, pick)
        if "blunder" in seen:
            break
    n, worst, worst_value, best, best_value = seen["blunder"]
    got = review(rec).of("a")
    first = got.mistakes[0]
    assert (first.index, first.made, first.best) == (n, worst, best)
    assert (first.made_worth, first.best_worth) == pytest.approx((worst_value, best_value))
    assert len(got.mistakes) == 1
    assert "agari" in first.detail


def test_a_random_player_scores_well_below_the_strong_one() -> None:
    rng = random.Random(3)
    rec = _play(yahtzee, "yahtzee", ["a"], "rnd", lambda s, p, legal, n: rng.choice(legal))
    got = review(rec).of("a")
    assert got.accuracy is not None and got.accuracy < 40
    assert len(got.mistakes) == 3
    assert got.mistakes[0].lost >= got.mistakes[1].lost >= got.mistakes[2].lost > 0


def _s66_deck(seed: int) -> list[str]:
    deck = list(CARDS)
    random.Random(seed).shuffle(deck)
    return deck


def _s66_moves(deck: list[str], count: int) -> list[str]:
    """The first ``count`` moves of the strong players from ``deck`` (alice
    leads: bob deals)."""
    from games.core import ScriptedSource

    state = sixtysix.new_game(["alice", "bob"], {}, "bob", ScriptedSource(decks=[deck]))
    rng = random.Random(1)
    moves = []
    while len(moves) < count and not sixtysix.is_finished(state):
        p = sixtysix.to_move(state)[0]
        legal = sixtysix.legal_moves(state, p)
        move = s66_ai.choose(sixtysix.view(state, p), p, legal, "normal", rng)
        sixtysix.apply(state, p, move)
        moves.append(f"{p} {move}")
    return moves


def test_a_sixtysix_review_never_reads_the_hidden_cards() -> None:
    deck = _s66_deck(5)
    moves = _s66_moves(deck, 6)  # three tricks at most: the talon's first six cards drawn
    played = {m.split()[-1] for m in moves}
    # bob's cards (deck[3:6] + deck[9:12]) he has not played, swapped with talon
    # cards nobody drew (deck[19:23]): what alice could not see
    bobs = [i for i in (3, 4, 5, 9, 10, 11) if deck[i] not in played][:4]
    other = list(deck)
    for i, j in zip(bobs, range(19, 23), strict=False):
        other[i], other[j] = other[j], other[i]
    assert other != deck and len(bobs) >= 2
    a = Record("sixtysix", ["alice", "bob"], "bob", {}, [], [deck], moves)
    b = Record("sixtysix", ["alice", "bob"], "bob", {}, [], [other], moves)
    ra, rb = review(a, ["alice"]), review(b, ["alice"])
    assert ra.of("alice").decisions >= 2
    assert ra == rb
    # what alice does see matters: another hand of hers gives another review
    mine = list(deck)
    mine[0], mine[22] = mine[22], mine[0]
    if deck[0] not in played:
        c = Record("sixtysix", ["alice", "bob"], "bob", {}, [], [mine], moves)
        try:
            rc = review(c, ["alice"])
        except ValueError:
            return  # alice's moves are not legal with that hand
        assert rc != ra


def test_the_same_record_gives_the_same_review() -> None:
    deck = _s66_deck(9)
    moves = _s66_moves(deck, 12)
    rec = Record("sixtysix", ["alice", "bob"], "bob", {}, [], [deck], moves)
    assert review(rec).to_json() == review(rec).to_json()
    y = _play(yahtzee, "yahtzee", ["a"], "same", _strong(yahtzee, y_ai))
    assert review(y).to_json() == review(y).to_json()


@pytest.mark.parametrize(
    ("eng", "game", "players", "options"),
    [
        (sixdice, "sixdice", ["a", "b"], {"target": 3000, "start": 500}),
        (sixdice, "sixdice", ["a", "b", "c"], {"target": 3000, "start": 500}),
        (bluff, "bluff", ["a", "b", "c"], {}),
    ],
)
def test_the_other_dice_games_review_every_player(
    eng: Any, game: str, players: list[str], options: dict[str, Any]
) -> None:
    ai = __import__(f"games.{game}.ai", fromlist=["choose"])
    rng = random.Random(2)

    def pick(state: Any, p: str, legal: list[str], n: int) -> str:
        move = str(ai.choose(eng.view(state, p), p, legal, "strong", rng))
        return move

    rec = _play(eng, game, players, "other", pick, options)
    rv = review(rec)
    assert [p.player for p in rv.players] == players
    assert sum(p.decisions for p in rv.players) > 0
    assert all(p.rolls > 0 for p in rv.players)
    if game == "sixdice":  # the strong player's own measure: nothing lost
        assert all(p.lost == 0.0 for p in rv.players)
    from games.core import Record as R

    assert R.from_json(rec.to_json()) == rec
    assert type(rv).from_json(rv.to_json()) == rv


def test_luck_is_a_percentile_of_fair_rolls() -> None:
    die = [(1 / 6, float(f)) for f in range(1, 7)]
    assert mid_percentile(die, 1.0).u == pytest.approx(1 / 12)
    assert luck_percentile([mid_percentile(die, 6.0)] * 10) > 0.99  # ten sixes
    assert luck_percentile([mid_percentile(die, 1.0)] * 10) < 0.01
    assert luck_percentile([Luck(0.5, 1 / 12)]) == 0.5
    assert luck_percentile([]) is None


MEASURES = [
    ("yahtzee", "points"),
    ("nine", "sum"),
    ("sixdice", "win_chance"),
    ("sixdice", "points"),
    ("bluff", "lose_chance"),
    ("sixtysix", "game_points"),
]


@pytest.mark.parametrize(("game", "unit"), MEASURES)
def test_every_measure_has_its_bands_and_classes(game: str, unit: str) -> None:
    """The words of the review (docs/review.md, "Bands and classes"): the
    accuracy's band from excellent down to poor, and a loss's class from
    inaccuracy up to blunder; a loss below an inaccuracy is no mistake."""
    g = grades(game, unit)
    assert 100 > g.bands[0] > g.bands[1] > g.bands[2] > 0
    assert 0 < g.classes[0] < g.classes[1] < g.classes[2]
    assert g.band(100.0) == BANDS[0] and g.band(0.0) == BANDS[-1]
    assert [g.band(x) for x in g.bands] == list(BANDS[:3])
    assert g.kind(0.0) is None and g.kind(0.99 * g.classes[0]) is None
    assert [g.kind(x) for x in g.classes] == list(CLASSES)
    if unit.endswith("_chance"):  # a chance: a class is a drop of at most 100 points
        assert g.classes[2] <= 1.0
    assert g.counts([0.0, g.classes[0], g.classes[2], 2 * g.classes[2]]) == {
        "inaccuracy": 1,
        "mistake": 0,
        "blunder": 2,
    }


def test_every_decisions_loss_is_kept_for_the_classes() -> None:
    """The review keeps each decision's loss (the classes count them all,
    not only the three biggest); a review stored before it still reads."""
    rng = random.Random(3)
    rec = _play(yahtzee, "yahtzee", ["a"], "rnd", lambda s, p, legal, n: rng.choice(legal))
    rv = review(rec)
    got = rv.of("a")
    assert len(got.losses) == got.decisions
    assert sum(got.losses) == pytest.approx(got.lost)
    assert max(got.losses) == got.mistakes[0].lost
    assert sum(grades("yahtzee", "points").counts(got.losses).values()) > len(got.mistakes)
    assert Review.from_json(rv.to_json()) == rv
    old = rv.to_json()
    for p in old["players"]:
        del p["losses"]
    assert Review.from_json(old).of("a").losses == ()


# ------------------------------------------------------------- issue 31


def _level_record(game: str, players: list[str], seed: str, level: str, options: Any = None):
    """A game with every seat at ``level`` (``random``: a random legal move)."""
    from games import registry

    eng = registry.engine(game)
    ai = registry.spec(game).ai_module()
    rng = random.Random(seed)

    def pick(state: Any, p: str, legal: list[str], n: int) -> str:
        if level == "random":
            return rng.choice(legal)
        return str(ai.choose(eng.view(state, p), p, legal, level, rng))

    return _play(eng, game, players, seed, pick, options)


def test_one_set_of_bands_for_every_game() -> None:
    """The same accuracy reads the same band in every game (92 % was "good"
    in Nine and "excellent" in Yahtzee)."""
    for game, unit in MEASURES:
        g = grades(game, unit)
        assert g.bands == BAND_LEAST == (90.0, 70.0, 45.0)
        assert [g.band(x) for x in (92.0, 75.0, 50.0, 30.0)] == list(BANDS)


@pytest.mark.parametrize(("game", "unit"), MEASURES)
def test_the_accuracy_is_piecewise_linear_in_log_loss_through_its_anchors(
    game: str, unit: str
) -> None:
    """A second reading of the mapping (docs/review.md): 100 at no loss,
    each anchor's accuracy at its loss, halfway between two anchors' losses
    in log scale the mean of their accuracies, linear from 0 to the first
    anchor, always falling as the loss grows, never outside 0-100."""
    g = grades(game, unit)
    assert g.of_loss(0.0) == 100.0
    for loss, acc in g.anchors:
        assert g.of_loss(loss) == pytest.approx(acc)
    for (l0, a0), (l1, a1) in zip(g.anchors, g.anchors[1:], strict=False):
        assert g.of_loss((l0 * l1) ** 0.5) == pytest.approx((a0 + a1) / 2)
    l1, a1 = g.anchors[0]
    assert g.of_loss(l1 / 4) == pytest.approx(100 - (100 - a1) / 4)
    top = g.anchors[-1][0]
    grid = [top * 10 ** (k / 20) for k in range(-80, 41)]
    values = [g.of_loss(x) for x in grid]
    assert all(0.0 <= v <= 100.0 for v in values)
    assert all(a >= b for a, b in zip(values, values[1:], strict=False))
    assert values[0] > values[-1]


@pytest.mark.parametrize(("game", "unit"), MEASURES)
def test_an_inaccuracy_starts_within_good(game: str, unit: str) -> None:
    """A player below good has an average loss past the loss where good
    ends; if every loss were under an inaccuracy the average would be too:
    so the inaccuracy must start at or below that loss."""
    g = grades(game, unit)
    assert g.band(g.of_loss(g.classes[0])) in ("excellent", "good")
    # the mapping refuses thresholds that would let a low band go unexplained
    late = (g.classes[0] * 100, g.classes[0] * 200, g.classes[0] * 300)
    with pytest.raises(ValueError):
        Grades(g.anchors, late)


def test_fewer_than_five_decisions_get_no_accuracy() -> None:
    g = grades("yahtzee", "points")
    assert MIN_DECISIONS == 5
    assert g.accuracy([3.0] * 4) is None and g.accuracy([]) is None
    assert g.accuracy([3.0] * 5) == pytest.approx(g.of_loss(3.0))
    # a 3-player Nine (2-4 flips a player): no accuracy, the losses still kept
    rec = _level_record("nine", ["a", "b", "c"], "few", "random")
    rv = review(rec)
    few = [p for p in rv.players if 0 < p.decisions < 5]
    assert few
    for p in few:
        assert p.accuracy is None and len(p.losses) == p.decisions


RANDOM_KINDS = [
    ("yahtzee", ["a"], None, 3),
    ("nine", ["a", "b", "c"], None, 8),
    ("sixdice", ["a", "b"], {"target": 3000, "start": 500}, 3),
    ("sixdice", ["a", "b", "c"], {"target": 3000, "start": 500}, 3),
    ("bluff", ["a", "b"], None, 6),
    ("bluff", ["a", "b", "c"], None, 4),
    ("sixtysix", ["a", "b"], {"target": 1}, 3),
]


@pytest.mark.parametrize(("game", "players", "options", "count"), RANDOM_KINDS)
def test_a_band_below_good_always_comes_with_a_listed_mistake(
    game: str, players: list[str], options: Any, count: int
) -> None:
    """Seeded games of the bench's kind (easy and random seats): every
    player who reads fair or needs work has at least one loss that is an
    inaccuracy or worse among their three biggest (Six Dice read "47 %
    (fair)" beside "no inaccuracy, mistake or blunder")."""
    low = 0
    for level in ("easy", "random"):
        for i in range(count):
            rv = review(_level_record(game, players, f"low{i}", level, options))
            g = grades(game, rv.unit)
            for p in rv.players:
                # graded or not (Nine: 2-4 decisions), the mapping of the average
                if not p.decisions or g.band(g.of_loss(p.lost / p.decisions)) in (
                    "excellent",
                    "good",
                ):
                    continue
                low += 1
                assert p.mistakes and g.kind(p.mistakes[0].lost) is not None, (level, i, p)
    assert low > 0  # the check ran on someone


def test_a_yahtzee_moment_is_the_round_and_roll_the_table_shows() -> None:
    """A 13-round Yahtzee named "Blunder, move 75" while the table said
    "Round 11/13". The moment of each decision: the round counted from the
    player's boxes scored before it, the roll from their rolls and keeps
    since (an oracle of its own, not the view's counters)."""
    from games.review import reviewer_of

    rng = random.Random(5)
    rec = _play(yahtzee, "yahtzee", ["a", "b"], "moment", lambda s, p, legal, n: rng.choice(legal))
    rv = review(rec)
    the = reviewer_of(rec)
    seen = set()
    for p in rv.players:
        for d in p.mistakes:
            before = rec.moves[: d.index]
            mine = [m.split(" ", 1)[1] for m in before if m.split()[0] == d.player]
            boxes = sum(1 for m in mine if m.startswith("score "))
            since = 0
            for m in reversed(mine):
                if m.startswith("score "):
                    break
                since += 1
            view = yahtzee.view(_position(rec, d.index), d.player)
            kind, fields = the.moment(view, d.player, before)
            assert (kind, fields) == (f"roll{since}", {"round": boxes + 1})
            seen.add(boxes + 1)
    assert max(seen) > 5  # late rounds too, where the move counter ran far ahead


def _position(rec: Record, upto: int) -> Any:
    from games.review import positions

    return positions(rec, upto)


def test_a_sixdice_moment_is_the_round_and_the_roll_of_the_turn() -> None:
    """Six Dice: the round (every player has had as many turns before it) and
    how many times the player has rolled this turn (an oracle from the
    record's turns)."""
    from games.review import reviewer_of

    players = ["a", "b"]
    rec = _level_record("sixdice", players, "moment", "random", {"target": 3000, "start": 500})
    rv = review(rec)
    the = reviewer_of(rec)
    checked = 0
    for p in rv.players:
        for d in p.mistakes:
            before = rec.moves[: d.index]
            # turns: runs of one player's moves; the decision's turn is the last run
            runs: list[list[str]] = []
            for m in before:
                who, _, move = m.partition(" ")
                if not runs or runs[-1][0] != who:
                    runs.append([who])
                runs[-1].append(move)
            assert runs[-1][0] == d.player
            rolls = runs[-1].count("roll")
            turns_of_first = sum(1 for r in runs if r[0] == players[0])
            view = sixdice.view(_position(rec, d.index), d.player)
            kind, fields = the.moment(view, d.player, before)
            assert kind == "roll" and fields["roll"] == rolls
            assert fields["round"] == turns_of_first  # the first player opens each round
            checked += 1
    assert checked >= 3
