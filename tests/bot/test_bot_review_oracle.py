"""docs/review.md's promises, checked through SimCord by a second reading
of the page (issue 33, "A review people trust"): the oracle below is
written from the docs' words and tables alone — the anchors and classes
of "Bands and classes", one set of bands (excellent ≥ 90, good ≥ 70, fair
≥ 45, else needs work), no percentage under 5 decisions, the mistakes
listed whatever the band, moments as the table names them, unsigned
losses, seats named as the table names them — never the review's own
helpers. Games of every kind with two and three seats are played through
the bot and the Review button pressed; the players' figures come from the
review the bot stored (its losses), the words from what the presser reads.
A player with 0, 1, 4 and 5 decisions is read from a stored review of a
real game (the bot serves a stored review as it is)."""

from __future__ import annotations

import math
import re

import pytest
from simtable import reading, readings, says

from bot.i18n import catalogue, t
from games.registry import read_record
from games.review import VERSION, Review, review

# docs/review.md "Bands and classes": (game, unit) → anchors (average loss a
# decision → accuracy) and the least loss of an inaccuracy, a mistake, a blunder.
# Chances are fractions (0.14 % = 0.0014).
DOC = {
    ("yahtzee", "points"): (((1.0, 80), (2.5, 57.5), (7.3, 22.5)), (1.5, 5, 12)),
    ("nine", "sum"): (((0.15, 80), (2.5, 22.5)), (0.2, 1.5, 3)),
    ("sixdice", "win_chance"): (
        ((0.0014, 80), (0.0056, 57.5), (0.025, 22.5)),
        (0.0025, 0.03, 0.10),
    ),
    ("sixdice", "points"): (((1.9, 80), (26, 57.5), (140, 22.5)), (6, 75, 200)),
    ("bluff", "lose_chance"): (((0.047, 80), (0.105, 57.5), (0.34, 22.5)), (0.05, 0.15, 0.30)),
    ("sixtysix", "game_points"): (
        ((0.037, 95), (0.063, 80), (0.23, 57.5), (0.67, 22.5)),
        (0.1, 0.5, 1),
    ),
}
BANDS = ((90, "excellent"), (70, "good"), (45, "fair"))  # else "poor" (needs work)
CLASSES = ("inaccuracy", "mistake", "blunder")
FEWEST = 5  # "with fewer than 5 decisions no percentage at all"


def doc_accuracy(losses: list[float], anchors) -> float:
    """The docs' mapping: linear from (0, 100) to the first anchor,
    piecewise linear in log L between anchors and on the last segment's
    slope beyond them, clamped to 0–100."""
    mean = sum(losses) / len(losses)
    if mean == 0:
        return 100.0
    first_loss, first_acc = anchors[0]
    if mean <= first_loss:
        acc = 100 + (first_acc - 100) * mean / first_loss
    else:
        pairs = list(zip(anchors, anchors[1:], strict=False))
        (l0, a0), (l1, a1) = next((p for p in pairs if mean <= p[1][0]), pairs[-1])
        acc = a0 + (a1 - a0) * (math.log(mean) - math.log(l0)) / (math.log(l1) - math.log(l0))
    return max(0.0, min(100.0, acc))


def doc_band(accuracy: float) -> str:
    return next((name for least, name in BANDS if accuracy >= least), "poor")


def doc_class(loss: float, classes) -> str | None:
    found = None
    for name, least in zip(CLASSES, classes, strict=True):
        if loss >= least - 1e-12:
            found = name
    return found


def blocks(text: str) -> list[str]:
    return [b.strip() for b in text.split("\n\n") if b.strip()]


def moment_keys(game: str, lang: str) -> list[str]:
    return [k for k in catalogue(lang) if k.startswith(f"review.at.{game}.")]


def check(text: str, doc: dict, names: dict[str, str], lang: str) -> dict[str, int]:
    """Every promise the docs make of a review's words, for each reviewed
    player of ``doc`` (the stored review: its players' losses). Returns the
    bands read, by name."""
    game, unit = doc["game"], doc["unit"]
    anchors, classes = DOC[game, unit]
    chance = unit.endswith("chance")
    parts = blocks(text)
    assert says(parts[-1], "review.footer", lang), parts[-1]
    seen: dict[str, int] = {}
    for p in doc["players"]:
        name = names.get(p["player"], p["player"])
        [block] = [b for b in parts[1:-1] if b.startswith(f"**{name}**")]
        head, *rest = block.splitlines()
        losses = list(p.get("losses") or [])
        n = p["decisions"]
        listed = readings(block, "review.mistake", lang)
        if n == 0:
            assert says(head, "review.no_decisions", lang, player=name), block
            assert not listed, block
            continue
        if n < FEWEST:  # a count, no percentage, "too few decisions to grade"
            assert says(head, "review.player_few", lang, player=name, count=n), block
            assert not re.search(r"\d ?[%％]", head), head
            seen["few"] = seen.get("few", 0) + 1
        else:
            got = reading(head, "review.player", lang, player=name, count=n)
            assert got is not None, block
            mine = doc_accuracy(losses, anchors)
            shown = int(got["accuracy"])
            assert abs(shown - mine) < 1, (shown, mine, losses)
            assert (shown == 100) == (sum(losses) == 0), (shown, losses)
            band = doc_band(mine)
            assert got["band"] == t(f"review.band.{band}", lang), (got, mine)
            seen[band] = seen.get(band, 0) + 1
            if band in ("fair", "poor"):  # a low band always comes with its mistakes
                assert listed, block
        # the classes made, counted from the losses by the docs' thresholds
        counts = {c: 0 for c in CLASSES}
        for loss in losses:
            kind = doc_class(loss, classes)
            if kind:
                counts[kind] += 1
        if sum(losses) > 0:
            summary = rest[0]
            for kind, count in counts.items():
                if count:
                    assert t(f"review.count.{kind}", lang, count=count) in summary, summary
            if not any(counts.values()):
                assert t("review.count.none", lang) in summary, summary
        # the three biggest that reach an inaccuracy, biggest first, unsigned, classed
        big = sorted((x for x in losses if doc_class(x, classes)), reverse=True)[:3]
        assert len(listed) == len(big), (block, big)
        for line, loss in zip(listed, big, strict=True):
            cost = reading(line["loss"], f"review.loss.{game}.{unit}", lang)
            assert cost is not None and not re.search(r"[-−+] ?\d", line["loss"]), line
            scale = 100 if chance else 1
            digits = len(cost["value"].partition(".")[2])
            shown = float(cost["value"].replace(",", "")) / scale
            assert abs(shown - loss) <= 0.5 * 10**-digits / scale + 1e-9, (cost, loss)
            assert line["kind"] == t(f"review.class.{doc_class(loss, classes)}", lang), line
            # the moment as the table names it, never the record's move counter
            assert any(says(line["when"], k, lang) for k in moment_keys(game, lang)), line
            assert not re.search(r"[Mm]ove \d|\d+手目", line["when"]), line
            numbers = [int(x) for x in re.findall(r"\d+", line["when"])]
            assert numbers and min(numbers) >= 1, line
            if game == "yahtzee":
                assert numbers[0] <= 13, line  # "Round 11, 2nd roll"
            if game == "sixtysix":
                assert numbers[1] <= 12, line  # "Deal 2, trick 5": 12 tricks a deal
    return seen


async def from_the_hand(table, user):
    """A Sixty-Six move from the player's DM: declare at 66, pass, draw, else
    the first card (the same as test_bot_review's)."""
    hand = table.night.hand(user)
    points = hand.reading("sixtysix.private.points")
    if "m:declare" in hand.actions and points and int(points["n"]) >= 66:
        return await hand.act("m:declare")
    for word in ("m:pass", "m:exchange", "m:draw"):
        if word in hand.actions:
            return await hand.act(word)
    values = [o["value"] for o in hand.selects[0]["options"]]
    return await hand.choose(values[0])


CASES = [
    # game, seats, options, preferred moves, language of the presser
    ("yahtzee", 2, None, (), "en"),
    ("yahtzee", 3, None, (), "ja"),
    ("nine", 2, None, (), "ja"),
    ("sixdice", 2, "target=3000 start=500", ("m:stop",), "en"),
    ("sixdice", 3, "target=3000 start=500", ("m:stop",), "ja"),
    ("bluff", 2, None, (), "ja"),
    ("bluff", 3, None, (), "en"),
    ("sixtysix", 2, "target=1", (), "en"),
]


@pytest.mark.parametrize(("game", "seats", "options", "prefer", "lang"), CASES)
async def test_every_game_reads_as_the_docs_promise(
    game_night, game, seats, options, prefer, lang
) -> None:
    async with game_night(seeded=True, locales={"alice": lang}) as night:
        table = await night.table(game, players=seats, options=options)
        policy = from_the_hand if game == "sixtysix" else None
        await table.play_to_the_end(prefer=prefer, policy=policy)
        res = await table.press(t("result.btn.review"), by=night.alice)
        [stored] = await night.store.results.all()
        doc = await night.store.reviews.get_review(stored["id"], VERSION)
        assert doc is not None and len(doc["players"]) == seats
        check(res.response.content, doc, {}, lang)


async def test_a_player_who_left_and_one_with_no_decision(game_night) -> None:
    """Three at Nine; carol leaves before her first roll: she is named as the
    table names her ("carol (left)") and has no decision to review."""
    async with game_night(seeded=True) as night:
        table = await night.table("nine", players=3)
        await table.ask(night.carol, "game leave")
        await night.settle()
        await table.play_to_the_end()
        res = await table.press(t("result.btn.review"), by=night.bob)
        [stored] = await night.store.results.all()
        doc = await night.store.reviews.get_review(stored["id"], VERSION)
        left = t("table.seat_left", "en", player="carol")
        assert [p["decisions"] for p in doc["players"] if p["player"] == "carol"] == [0]
        check(res.response.content, doc, {"carol": left}, "en")
        assert f"**{left}**" in res.response.content


@pytest.mark.parametrize("lang", ["en", "ja"])
async def test_players_with_0_1_4_and_5_decisions(game_night, lang) -> None:
    """A Yahtzee of four, its stored review cut to 5, 4, 1 and 0 decisions
    (each player's biggest real mistakes, the other decisions lossless): 5
    reads a percentage and its band, 4 and 1 "too few decisions to grade"
    with their mistakes still listed, 0 "no decision to review"."""
    async with game_night(seeded=True, locales={"alice": lang}) as night:
        table = await night.table("yahtzee", players=4)
        await table.play_to_the_end()
        [stored] = await night.store.results.all()
        real = review(read_record(stored["record"]), ["alice", "bob", "carol", "dave"])
        players = []
        for p, keep in zip(real.players, (5, 4, 1, 0), strict=True):
            # the player's biggest mistakes, as many as fit, the other decisions lost nothing
            kept = list(p.mistakes[:keep])
            losses = [d.lost for d in kept] + [0.0] * (keep - len(kept))
            doc = p.to_json() | {
                "decisions": keep,
                "losses": losses,
                "lost": sum(losses),
                "accuracy": None,
                "mistakes": [d.to_json() for d in kept],
            }
            players.append(doc)
        doc = {**real.to_json(), "players": players}
        Review.from_json(doc)  # a review the bot can read
        await night.store.reviews.save_review(
            stored["id"], VERSION, doc, now=night.bot.tables.clock()
        )
        res = await table.press(t("result.btn.review"), by=night.alice)
        seen = check(res.response.content, doc, {}, lang)
        assert seen.get("few") == 2, seen
        assert sum(v for k, v in seen.items() if k != "few") == 1, seen
        # the 1-decision player's mistake is still listed when it reaches an inaccuracy
        one = players[2]
        if one["losses"] and one["losses"][0] >= DOC["yahtzee", "points"][1][0]:
            block = next(b for b in blocks(res.response.content) if b.startswith("**carol**"))
            assert readings(block, "review.mistake", lang), block


def test_the_oracle_reads_the_docs_anchors() -> None:
    """The oracle's own mapping at the docs' points: each anchor's accuracy,
    100 at no loss, the bands' edges."""
    for anchors, _ in DOC.values():
        for loss, acc in anchors:
            assert doc_accuracy([loss], anchors) == pytest.approx(acc)
        assert doc_accuracy([0.0, 0.0], anchors) == 100
        assert doc_accuracy([1e9], anchors) == 0
    assert [doc_band(x) for x in (90, 89.9, 70, 45, 44.9)] == [
        "excellent",
        "good",
        "good",
        "fair",
        "poor",
    ]
