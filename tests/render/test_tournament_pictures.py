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
    case = tournament_cases()["tournament_swiss16"][1]
    _, text = T.standings_image(**case, lang="en")  # type: ignore[arg-type]
    assert "(dropped)" in drawn and "(removed)" in drawn
    assert "10. gus: 2 points, Buchholz 6.5, Sonneborn–Berger 4.5, 2 games (dropped)." in text
    # the long name is shortened with … in the picture, whole in the alt text
    assert any(s.startswith("Maximilian") and s.endswith("…") for s in drawn)
    assert LONG_NAME in text
    ja = T.standings_image(**tournament_cases()["tournament_swiss16_ja"][1], lang="ja")[1]
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
    assert "1. alice: 2.5 points, Score sum 3, 3 games." in pic.alt
    empty = T.standings_picture("T", "S", [], (), "ja")
    assert "まだ参加者がいません。" in empty.alt


def test_bracket_half_played_with_byes(drawn: list[str]) -> None:
    pic = T.bracket_picture("KO", knockout6(), "en")
    assert "bye" in drawn  # (each string is rasterised once: drawn lists it once)
    for word in ("Quarter-final", "Semi-final", "Final", "Champion"):
        assert word in drawn, word
    assert "—" in drawn  # the final's empty place and no champion yet
    assert "alice (1) has a bye" in pic.alt
    assert "eve (5) beat dave (4) 7–3" in pic.alt
    assert "ぼぶ太郎 (2) v carol (3), not played yet" in pic.alt
    assert "Final: alice (1) waits for an opponent." in pic.alt
    assert "Champion" not in pic.alt
    # the latest round first
    assert pic.alt.index("Final:") < pic.alt.index("Semi-final:") < pic.alt.index("Quarter-final:")
    assert _size(pic.png)[0] == 640


def test_bracket_finished_in_japanese(drawn: list[str]) -> None:
    pic = render_case("tournament_ko8_ja")
    for word in ("準々決勝", "準決勝", "決勝", "優勝"):
        assert word in drawn, word
    assert "carol" in drawn and "7" in drawn
    assert "優勝：carol（第3シード）。" in pic.alt
    assert "決勝：carol（第3シード）がalice（第1シード）に7対6で勝利。" in pic.alt
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
    pic = T.bracket_picture("KO", [first], "en")
    width, height = _size(pic.png)
    assert width >= 640 and len(pic.png) <= 150 * 1024 and len(pic.alt) <= 1000
    if "earlier round" not in pic.alt:  # every round said: every bye too
        assert pic.alt.count("has a bye") == size - players
    if players <= 8:
        assert width == 640


def test_the_winner_is_carried_to_the_next_round() -> None:
    grid = T._grid(knockout6())
    final = grid[-1][0]
    assert final.top.name == "alice" and final.top.seed == 1 and final.top.score is None
    assert final.bottom.name is None  # ぼぶ太郎 v carol not played
    assert grid[1][1].top.name == "ぼぶ太郎" and grid[1][1].bottom.name == "carol"


def test_a_first_round_of_the_wrong_size_is_refused() -> None:
    with pytest.raises(ValueError):
        T.bracket_picture("KO", [[BracketMatch(), BracketMatch(), BracketMatch()]], "en")
    with pytest.raises(ValueError):
        T.bracket_picture("KO", [], "en")


def test_emoji_names_are_drawn_as_the_board_draws_them(drawn: list[str]) -> None:
    """A name of emoji only shows "?" (no emoji font, as the goldens draw);
    the alt text keeps it."""
    from bot.render import _base

    with _base.emoji(False):
        rows = [StandingRow(1, "🎲🎲", 1, (), 1), StandingRow(2, "花子🌸", 0, (), 1)]
        pic = T.standings_picture("T", "S", rows, (), "en")
        ko = T.bracket_picture(
            "KO", [[BracketMatch(Slot("🎲🎲", 1, 7), Slot("花子🌸", 2, 3), 0)]], "en"
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
            history.append(
                P.Match(
                    r, t, tuple(float(p == w) for p in t), tuple(7.0 if p == w else 3.0 for p in t)
                )
            )
    assert paired[2] == [(12, 14)]  # seed order: bob (2) first
    rounds = T.bracket_from(paired, history, seeds, names)
    assert [len(r) for r in rounds] == [4, 2, 1]
    assert rounds[0][0].bottom.bye and rounds[0][0].winner == 0
    final = rounds[2][0]
    assert (final.top.name, final.bottom.name, final.winner) == ("dave", "bob", 1)
    assert (final.top.score, final.bottom.score) == (3.0, 7.0)
    pic = T.bracket_picture("KO", rounds, "en")
    assert "Champion: bob (2)." in pic.alt and "Final: bob (2) beat dave (4) 7–3." in pic.alt
    assert "alice (1) has a bye" in pic.alt
    # a forfeit (scores 0 and 0) is a win without a score
    forfeit = [P.Match(1, (11, 12), (1.0, 0.0), (0.0, 0.0))]
    ko = T.bracket_picture("KO", T.bracket_from([[(11, 12)]], forfeit, seeds, names), "en")
    assert "Final: alice (1) beat bob (2)." in ko.alt


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
