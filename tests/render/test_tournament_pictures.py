"""The tournament's pictures (issue 26): the standings and the knockout
bracket, in English and Japanese — their goldens (tournament_views.py,
compared by test_golden.py too), the words they draw and their alt text,
which states the same facts."""

from __future__ import annotations

import io
from typing import Any

import numpy as np
import pytest
from PIL import Image

from bot.render import Picture
from bot.render import bracket as K
from bot.render import tournament as T
from bot.render.tournament import BracketMatch, Slot, StandingRow

from .golden import GOLDEN, render_case
from .tournament_views import LONG_NAME, knockout6, swiss8, tournament_cases

CASES = sorted(tournament_cases())


def _pixels(png: bytes) -> np.ndarray:
    return np.asarray(Image.open(io.BytesIO(png)).convert("RGB"), dtype=np.int16)


def _size(png: bytes) -> tuple[int, int]:
    return Image.open(io.BytesIO(png)).size


@pytest.mark.parametrize("name", CASES)
def test_golden(name: str) -> None:
    pic = render_case(name)
    path = GOLDEN / f"{name}.png"
    assert path.exists(), f"missing golden {path.name}"
    got, want = _pixels(pic.png), _pixels(path.read_bytes())
    assert got.shape == want.shape
    diff = np.abs(got - want).max(axis=2)
    assert (diff > 40).mean() < 0.002 and diff.mean() < 1.5
    assert len(pic.png) <= 150 * 1024
    assert 10 < len(pic.alt) <= 1000


def _standings(lang: str, **kw: Any) -> Picture:
    return T.standings_picture(
        "Night", "Sixty-Six", swiss8(), ("buchholz", "sonneborn_berger"), lang, **kw
    )


def test_points_are_written_without_a_needless_decimal() -> None:
    assert [T.points_text(v) for v in (3.0, 2.5, 0, 1, 0.5, 10.0)] == [
        "3",
        "2.5",
        "0",
        "1",
        "0.5",
        "10",
    ]
    assert [T.tiebreak_text(v) for v in (6, 5.5, 0)] == ["6.0", "5.5", "0.0"]


def test_standings_draw_the_columns_and_the_round_in_english(drawn: list[str]) -> None:
    pic = _standings("en", round_no=2, rounds=3)
    for word in ("Place", "Player", "Points", "Buchholz", "Sonneborn–", "Berger", "Games"):
        assert word in drawn, word
    assert "Round 2 of 3" in drawn
    # points as written: "1.5", never "2.0"; tie-breaks with one decimal
    assert "1.5" in drawn and "0.5" in drawn and "2" in drawn
    assert "1.0" in drawn and "3.0" in drawn  # tie-breaks: 1.0, never "1"
    assert pic.alt.startswith("Night. Sixty-Six. Round 2 of 3. ")
    assert "1. alice: 2 points, Buchholz 3.0, Sonneborn–Berger 1.5, 2 games." in pic.alt
    assert "3. Christopher-Alexander-Longname: 1.5 points," in pic.alt
    assert "4. d😀👍🏽: 1 point," in pic.alt  # the name as the player wrote it, and "1 point"
    assert "2.0 points" not in pic.alt


def test_standings_in_japanese(drawn: list[str]) -> None:
    pic = _standings("ja", final=True)
    for word in ("順位", "参加者", "勝ち点", "ブッフホルツ", "ソネボーン・", "ベルガー", "試合数"):
        assert word in drawn, word
    assert "最終順位" in drawn
    assert "1位　alice：勝ち点2、ブッフホルツ3.0、ソネボーン・ベルガー1.5、2試合。" in pic.alt
    assert pic.alt.startswith("Night。Sixty-Six。最終順位。")
    assert "第2回戦（全3回戦）" == T.stage_words("ja", 2, 3, False)


def test_the_round_is_said_in_both_languages() -> None:
    assert T.stage_words("en", 2, 3, False) == "Round 2 of 3"
    assert T.stage_words("en", 3, 3, True) == "Final standings"
    assert T.stage_words("ja", 3, 3, True) == "最終順位"
    assert T.stage_words("en", None, None, False) == ""


def test_a_dropped_and_a_removed_player_are_greyed_and_said(drawn: list[str]) -> None:
    case = dict(tournament_cases()["tournament_swiss16"][1])
    _, whole = T.standings_image(**case, lang="en")  # type: ignore[arg-type]
    case["rows"] = case["rows"][8:]  # the lower half: every row fits the alt text
    _, text = T.standings_image(**case, lang="en")  # type: ignore[arg-type]
    assert "(dropped)" in drawn and "(removed)" in drawn
    assert "10. gus: 2 points, Buchholz 6.5, Sonneborn–Berger 4.5, 2 games (dropped)." in text
    # the long name is shortened with … in the picture, whole in the alt text
    assert any(s.startswith("Maximilian") and s.endswith("…") for s in drawn)
    assert LONG_NAME in whole
    ja_case = dict(tournament_cases()["tournament_swiss16_ja"][1])
    ja_case["rows"] = ja_case["rows"][8:]
    ja = T.standings_image(**ja_case, lang="ja")[1]  # type: ignore[arg-type]
    assert "10位　gus：勝ち点2、ブッフホルツ6.5、ソネボーン・ベルガー4.5、2試合（途中棄権）。" in ja
    assert "16位　ned：勝ち点0、ブッフホルツ3.0、ソネボーン・ベルガー0.0、2試合（除外）。" in ja
    assert "（途中棄権）" in drawn


def test_sixty_four_players_fit_the_budget() -> None:
    rows = [
        StandingRow(
            i + 1,
            f"player {i + 1}" if i != 5 else "とても長い名前のプレイヤーさん",
            6 - i / 12,
            (20 - i / 4,),
            6,
        )
        for i in range(64)
    ]
    for lang in ("en", "ja"):
        pic = T.standings_picture("Big", "Nine", rows, ("score_sum",), lang, round_no=3, rounds=6)
        width, height = _size(pic.png)
        assert width == 640 and height > 64 * 28
        assert len(pic.png) <= 150 * 1024
        assert len(pic.alt) <= 1000
        # as many rows as fit, then how many are left out
        more = "more players." if lang == "en" else "人。"
        assert pic.alt.endswith(more), pic.alt[-40:]
    # fewer rows are taller: 8 rows of 34 px
    assert _size(_standings("en").png)[1] < 64 * 28


def test_rows_may_be_plain_dicts() -> None:
    row = {"place": 1, "name": "alice", "points": 2.5, "tiebreaks": [3.0], "games": 3}
    pic = T.standings_picture("T", "S", [row], ("score_sum",), "en")
    assert "1. alice: 2.5 points, score sum 3, 3 games." in pic.alt
    empty = T.standings_picture("T", "S", [], (), "ja")
    assert "まだ参加者がいません。" in empty.alt


def test_bracket_half_played_with_byes(drawn: list[str]) -> None:
    pic = K.bracket_picture("KO", knockout6(), "en")
    assert "Bye" in drawn  # (each string is rasterised once: drawn lists it once)
    for word in ("Quarter-final", "Semi-final", "Final", "Champion"):
        assert word in drawn, word
    assert "—" in drawn  # the final's empty place and no champion yet
    assert "alice (1) has a bye" in pic.alt
    assert "eve (5) beat dave (4), 7 to 3" in pic.alt
    assert "ぼぶ太郎 (2) v carol (3), not played yet" in pic.alt
    assert "Final: alice (1) waits for an opponent." in pic.alt
    assert "Champion" not in pic.alt
    # the latest round first
    assert pic.alt.index("Final:") < pic.alt.index("Semi-final:") < pic.alt.index("Quarter-final:")
    assert _size(pic.png)[0] == 640


def test_bracket_says_what_its_figures_count(drawn: list[str]) -> None:
    """The boxes' figures are the game's own (game points, a face-up sum,
    lives lost): a legend under the bracket names them in each language, for
    every game a knockout can be played at, once a match has figures — a
    bracket nobody has scored in yet has no legend to read."""
    from bot.i18n import t
    from games.registry import builtin_names

    for lang in ("en", "ja"):
        for game in builtin_names():
            key = f"pic.tournament.bracket_legend.{game}"
            assert t(key, lang) != key, (lang, key)
    legend = t("pic.tournament.bracket_legend.sixtysix", "en")
    with_figures = K.bracket_picture("KO", knockout6(), "en", legend)
    assert legend in drawn
    drawn.clear()
    unplayed = [[BracketMatch(Slot("a", 1), Slot("b", 2)), BracketMatch(Slot("c", 3), Slot("d", 4))]]
    bare = K.bracket_picture("KO", unplayed, "en", legend)
    assert legend not in drawn
    assert _size(with_figures.png)[1] > _size(K.bracket_picture("KO", knockout6(), "en").png)[1]
    assert _size(bare.png)[1] == _size(K.bracket_picture("KO", unplayed, "en").png)[1]


def test_bracket_finished_in_japanese(drawn: list[str]) -> None:
    pic = render_case("tournament_ko8_ja")
    for word in ("準々決勝", "準決勝", "決勝", "優勝"):
        assert word in drawn, word
    assert "carol" in drawn and "7" in drawn
    assert "優勝：carol（第3シード）。" in pic.alt
    assert "決勝：carol（第3シード）がalice（第1シード）に勝利（7対6）。" in pic.alt
    bye = render_case("tournament_ko6_ja")
    assert "不戦勝" in drawn
    assert "alice（第1シード）は不戦勝" in bye.alt
    assert "ぼぶ太郎（第2シード）対carol（第3シード）は未対戦" in bye.alt


def test_round_names() -> None:
    assert [T.round_label("en", i, 5) for i in range(5)] == [
        "Round 1",
        "Round 2",
        "Quarter-final",
        "Semi-final",
        "Final",
    ]
    assert [T.round_label("ja", i, 4) for i in range(4)] == ["1回戦", "準々決勝", "準決勝", "決勝"]
    assert T.round_label("en", 0, 1) == "Final"


@pytest.mark.parametrize("players", [2, 3, 4, 5, 8, 12, 16, 24, 32])
def test_every_size_of_bracket(players: int) -> None:
    """2 to 32 players: the first round has the next power of two's half of
    matches, byes to the top seeds; the later rounds come empty."""
    size = 1
    while size < players:
        size *= 2
    seeds = list(range(1, size + 1))
    first = []
    for j in range(size // 2):
        a, c = seeds[j], seeds[size - 1 - j]
        top = Slot(f"player {a}", a)
        bottom = Slot(f"player {c}", c) if c <= players else Slot(bye=True)
        first.append(BracketMatch(top, bottom, 0 if bottom.bye else None))
    pic = K.bracket_picture("KO", [first], "en")
    width, height = _size(pic.png)
    assert width >= 640 and len(pic.png) <= 150 * 1024 and len(pic.alt) <= 1000
    if "earlier round" not in pic.alt:  # every round said: every bye too
        assert pic.alt.count("has a bye") == size - players
    if players <= 8:
        assert width == 640


def test_the_winner_is_carried_to_the_next_round() -> None:
    grid = K._grid(knockout6())
    final = grid[-1][0]
    assert final.top.name == "alice" and final.top.seed == 1 and final.top.result is None
    assert final.bottom.name is None  # ぼぶ太郎 v carol not played
    assert grid[1][1].top.name == "ぼぶ太郎" and grid[1][1].bottom.name == "carol"


def test_a_first_round_of_the_wrong_size_is_refused() -> None:
    with pytest.raises(ValueError):
        K.bracket_picture("KO", [[BracketMatch(), BracketMatch(), BracketMatch()]], "en")
    with pytest.raises(ValueError):
        K.bracket_picture("KO", [], "en")


def test_emoji_names_are_drawn_as_the_board_draws_them(drawn: list[str]) -> None:
    """A name of emoji only shows "?" (no emoji font, as the goldens draw);
    the alt text keeps it."""
    from bot.render import _base

    with _base.emoji(False):
        rows = [StandingRow(1, "🎲🎲", 1, (), 1), StandingRow(2, "花子🌸", 0, (), 1)]
        pic = T.standings_picture("T", "S", rows, (), "en")
        ko = K.bracket_picture(
            "KO", [[BracketMatch(Slot("🎲🎲", 1, "7"), Slot("花子🌸", 2, "3"), 0)]], "en"
        )
    assert "?" in drawn and "花子" in drawn
    assert "1. 🎲🎲: 1 point" in pic.alt and "Champion: 🎲🎲 (1)" in ko.alt


def test_a_knockout_drawn_from_the_pairings_records() -> None:
    """bracket_from: six players paired by bot.tournament.pairing round by
    round; each winner lands in the slot the lines lead to (the final's
    seats come in seed order, the bracket puts them where they came from)."""
    from bot.tournament import pairing as P

    players = [11, 12, 13, 14, 15, 16]
    names = dict(zip(players, ["alice", "bob", "carol", "dave", "eve", "frank"], strict=True))
    seeds = {p: i + 1 for i, p in enumerate(players)}
    winners = {1: {(14, 15): 14, (13, 16): 13}, 2: {(11, 14): 14, (12, 13): 12}, 3: {(12, 14): 12}}
    history: list[P.Match] = []
    paired: list[list[tuple[int, ...]]] = []
    results: dict[tuple[int, int], tuple[str, str]] = {}
    for r in (1, 2, 3):
        tables = P.pair_round("knockout", r, players, history, table_size=2, min_seats=2)
        paired.append(tables)
        rounds = T.bracket_from(paired, history, seeds, names)  # paired, not played yet
        assert all(m.winner is None for m in rounds[-1] if not m.bottom.bye)
        for t in tables:
            if len(t) == 1:
                history.append(P.bye(r, t[0], 2))
                continue
            w = winners[r][t]
            # the record keeps a settlement (Nine's chips: the loser's negative)
            history.append(
                P.Match(
                    r, t, tuple(float(p == w) for p in t), tuple(12.0 if p == w else -12.0 for p in t)
                )
            )
            for p in t:  # the game's own result: the face-up sum, lowest wins
                sums = ("0", "face-up sum 0") if p == w else ("12", "face-up sum 12")
                results[(r, p)] = sums
    assert paired[2] == [(12, 14)]  # seed order: bob (2) first
    rounds = T.bracket_from(paired, history, seeds, names, results)
    assert [len(r) for r in rounds] == [4, 2, 1]
    assert rounds[0][0].bottom.bye and rounds[0][0].winner == 0
    final = rounds[2][0]
    assert (final.top.name, final.bottom.name, final.winner) == ("dave", "bob", 1)
    assert (final.top.result, final.bottom.result) == ("12", "0")
    pic = K.bracket_picture("KO", rounds, "en")
    assert "Champion: bob (2)." in pic.alt
    assert "Final: bob (2) beat dave (4), face-up sum 0 to face-up sum 12." in pic.alt
    assert "alice (1) has a bye" in pic.alt
    # without the game's result (a forfeit, a game an organiser ended) the
    # bracket says who went through, and never the record's settlement
    bare = T.bracket_from(paired, history, seeds, names)
    ko = K.bracket_picture("KO", bare, "en")
    assert "Final: bob (2) beat dave (4)." in ko.alt and "12" not in ko.alt
    assert all(s.result is None for rnd in bare for m in rnd for s in (m.top, m.bottom))


def test_standing_rows_from_the_pairings_standings() -> None:
    from bot.tournament import pairing as P

    table = [P.Standing(7, 1, 2.0, (3.0, 1.5), 2), P.Standing(9, 2, 0.5, (2.0, 0.0), 1)]
    rows = T.rows_from(table, {7: "alice"}, {9: "kicked"})
    assert rows == [
        StandingRow(1, "alice", 2.0, (3.0, 1.5), 2, ""),
        StandingRow(2, "?", 0.5, (2.0, 0.0), 1, "removed"),
    ]


@pytest.mark.parametrize(
    ("ink", "ground"),
    [
        ("INK", "PANEL"),  # a name on a striped row or in a match box
        ("INK_DIM", "PANEL"),  # a dropped player, a loser, "bye", "—", a seed
        ("INK_DIM", "TABLE"),
        ("HILITE", "PANEL"),  # the points
        ("HILITE", "TABLE"),
        ("HILITE", "WIN_ROW"),  # a match's winner and score
        ("GOLD", "TABLE"),  # "Champion"
        ("PAPER_INK", "GOLD"),  # the champion's name
        ("PAPER_INK", "HILITE"),  # the round's pill
    ],
)
def test_text_meets_wcag_aa(ink: str, ground: str) -> None:
    from bot.render import _base as b

    assert b.contrast(getattr(b, ink), getattr(b, ground)) >= b.AA


def test_a_column_of_whole_numbers_has_no_decimals():
    """A score sum (Nine's chips, Yahtzee's points) is a whole number: "-11",
    not "-11.0"; a column with a fraction (Buchholz 2.5) keeps one decimal
    in every row."""
    assert T.tiebreak_text(-11, T.whole_column([-11, 10, 3])) == "-11"
    assert T.tiebreak_text(3, T.whole_column([3, 2.5])) == "3.0"


# ------------------------------------------ standings that explain themselves


def _every_tiebreak() -> list[str]:
    """Every tie-break an event can have (bot.tournament.pairing), the
    tables' one under each word a game's results count in."""
    from bot.tournament import pairing as P

    names = {
        n for f in P.FORMATS for two in (True, False) for n in P.tiebreak_names(f, two)
    }
    names.discard(T.SCORE_SUM)
    return sorted(names) + [T.score_sum_name(w) for w in T.SCORE_WORDS]


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_every_tiebreak_has_a_word_and_a_legend(lang: str, drawn: list[str]) -> None:
    """Round robin's "wins" read `wins` in both languages (no catalogue
    entry): every tie-break is named in words, starts with a capital in
    English, and is explained in one sentence under the rows and in the
    alt text."""
    names = _every_tiebreak()
    assert "wins" in names and "score_sum.chips" in names
    for name in names:
        label, legend = T.tiebreak_label(name, lang), T.tiebreak_legend(name, lang)
        assert label != name and "_" not in label, (name, label)
        assert legend.startswith(label) and legend.endswith("。" if lang == "ja" else "."), legend
        if lang == "en":
            assert label[0].isupper(), label
    rows = [StandingRow(1, "alice", 2, (3.0, 2.0), 2), StandingRow(2, "bob", 1, (2.0, 1.0), 2)]
    pic = T.standings_picture("T", "S", rows, ("sonneborn_berger", "wins"), lang)
    wins = T.tiebreak_label("wins", lang)
    assert wins in drawn and "wins" not in drawn
    for name in ("sonneborn_berger", "wins"):
        legend = T.tiebreak_legend(name, lang)
        lines = T.legend_wrapped(legend, lang)
        assert all(line in drawn for line in lines)  # under the rows, whole
        assert ("" if lang == "ja" else " ").join(lines) == legend
        assert legend in pic.alt
    assert T.tiebreak_label("wins", "en") == "Wins" and T.tiebreak_label("wins", "ja") == "勝利数"


def test_the_tables_tiebreak_is_in_the_games_own_unit(drawn: list[str]) -> None:
    """At tables the tie-break read "Score sum" though Nine's results are
    chips (and Bluff's minus the lives lost): the column is named by the
    game's unit and written in it — chips signed, lives lost as a count."""
    rows = [StandingRow(1, "alice", 8, (34.0,), 2), StandingRow(2, "bob", 8, (-12.0,), 2)]
    chips = T.standings_picture("Nine", "S", rows, (T.score_sum_name("chips"),), "en")
    assert "Chips" in drawn and "Score sum" not in drawn
    assert "+34" in drawn and "-12" in drawn
    assert "1. alice: 8 points, +34 chips, 2 games." in chips.alt
    lives = [StandingRow(1, "carol", 8, (-1.0,), 2), StandingRow(2, "dave", 8, (-3.0,), 2)]
    pic = T.standings_picture("Bluff", "S", lives, (T.score_sum_name("lives_lost"),), "ja")
    assert "失ったライフ" in drawn
    assert "1位　carol：勝ち点8、失ったライフ1、2試合。" in pic.alt  # 1, never -1
    assert T.score_sum_name("lives_lost") == "score_sum.lives_lost"
    assert T.score_sum_name("something else") == T.SCORE_SUM


def test_a_shared_place_is_marked_and_keeps_its_medal(drawn: list[str]) -> None:
    """Two players equal on points and every tie-break share 3rd: both rows
    read "3=" (the medal for both), the alt text says it is shared."""
    rows = [
        StandingRow(1, "alice", 3, (4.0,), 5),
        StandingRow(2, "bob", 2, (4.0,), 5),
        StandingRow(3, "carol", 1, (3.0,), 5),
        StandingRow(3, "dave", 1, (3.0,), 5),
    ]
    pic = T.standings_picture("T", "S", rows, ("buchholz",), "en")
    assert "3=" in drawn  # the place, on both rows (drawn once: cached)
    assert "3= carol (shared place): 1 point, Buchholz 3, 5 games." in pic.alt
    assert "3= carol (shared place): 1 point" in pic.alt
    assert "3= dave (shared place): 1 point" in pic.alt
    assert "2. bob: 2 points" in pic.alt
    ja = T.standings_picture("T", "S", rows, ("buchholz",), "ja")
    assert "3位タイ　carol：勝ち点1" in ja.alt and "2位　bob：勝ち点2" in ja.alt
    single = T.standings_picture("T", "S", rows[:3], ("buchholz",), "en")
    assert "shared" not in single.alt


def test_the_english_headings_are_in_one_case() -> None:
    """Every heading of the tournament pictures starts with a capital in
    English (they mixed `wins`, `bye`, `round robin · tournament #3` with
    "Final standings")."""
    from bot.i18n import catalogue

    en = catalogue("en")
    heads = [
        k
        for k in en
        if k.startswith("pic.tournament.")
        and k.split(".")[2] in {"place", "player", "points", "games", "tb", "format", "bye",
                                "round_of", "final_standings", "round", "quarter_final",
                                "semi_final", "final", "champion"}  # fmt: skip
    ]
    assert len(heads) >= 20
    for key in heads:
        text = en[key].format_map({"round": 2, "rounds": 3, "n": 1})
        assert text[0].isupper(), (key, text)
    assert T.tr("en", "tournament.format.round-robin") == "Round robin"


@pytest.mark.parametrize("seed", range(40))
def test_the_tiebreak_shown_is_the_one_that_decides(seed: int) -> None:
    """deciding(): a player alone on their points shows no tie-break; two
    players next to each other on equal points show every tie-break down
    to the first that differs between them (an oracle: the first index
    where the two lines differ, found by comparing them directly); two
    equal on everything need none (nothing decides: a shared place)."""
    import random

    rng = random.Random(seed)
    lines = sorted(
        ((rng.choice([0, 0.5, 1, 1.5, 2]), (rng.choice([1, 2, 3]), rng.choice([0, 1])))
         for _ in range(rng.randint(1, 9))),  # fmt: skip
        key=lambda x: (x[0], x[1]),
        reverse=True,
    )
    shown = T.deciding(lines)
    for i, (points, breaks) in enumerate(lines):
        others = [j for j, (p, _) in enumerate(lines) if p == points and j != i]
        if not others:
            assert shown[i] == 0
            continue
        assert all(shown[j] == shown[i] for j in others)  # one depth for the group
        for j in (i - 1, i + 1):
            if 0 <= j < len(lines) and lines[j][0] == points:
                diff = [k for k in range(2) if lines[j][1][k] != breaks[k]]
                need = diff[0] + 1 if diff else 0
                assert shown[i] >= need
    # and no deeper than the deepest pair needs
    groups: dict[float, list[int]] = {}
    for i, (p, _) in enumerate(lines):
        groups.setdefault(p, []).append(i)
    for members in groups.values():
        if len(members) < 2:
            continue
        needs = []
        for a, c in zip(members, members[1:], strict=False):
            diff = [k for k in range(2) if lines[a][1][k] != lines[c][1][k]]
            needs.append(diff[0] + 1 if diff else 0)
        assert shown[members[0]] == max(needs)
