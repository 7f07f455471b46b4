"""Fixed data of the tournament pictures (issue 26) for the golden tests:
``tournament_*`` cases (``*_ja`` drawn in Japanese), in the form of
:func:`tests.render.views.golden_cases` (kind, keyword arguments, None,
None): ``standings`` → :func:`bot.render.tournament.standings_picture`,
``bracket`` → :func:`bot.render.bracket.bracket_picture`."""

from __future__ import annotations

from typing import Any

from bot.i18n import t
from bot.render.tournament import BracketMatch, Slot, StandingRow

from .stats_views import NAMES

Case = tuple[str, dict[str, Any], None, None]

TIEBREAKS = ("buchholz", "sonneborn_berger")
LONG_NAME = "Maximilian Alexander von Habsburg-Lothringen"


def swiss8() -> list[StandingRow]:
    """Eight players of a Swiss Sixty-Six after round 2 of 3 (a drawn game
    gave two players half a point; the last two share 7th)."""
    table = [
        (1, 2, (3.0, 1.5)),
        (2, 2, (2.5, 1.0)),
        (3, 1.5, (3.5, 1.0)),
        (4, 1, (3.0, 0.5)),
        (5, 1, (2.0, 0.0)),
        (6, 0.5, (3.0, 0.0)),
        (7, 0, (3.5, 0.0)),
        (7, 0, (3.5, 0.0)),  # equal on points and tie-breaks: a shared 7th
    ]
    return [
        StandingRow(place, name, points, tbs, 2)
        for (place, points, tbs), name in zip(table, NAMES, strict=True)
    ]


SIXTEEN = [
    "alice",
    LONG_NAME,
    "ぼぶ太郎",
    "carol",
    "ジョナサン・クリストファー・ウィリアムズ",
    "dave",
    "eve",
    "フランク・ミュラー",
    "gus",
    "花子",
    "ivan",
    "judy",
    "ken",
    "りさ",
    "mallory",
    "ned",
]


def swiss16() -> list[StandingRow]:
    """Sixteen players' final standings after four rounds: gus dropped out
    after round 2 (his last games forfeited), ned was removed by the host."""
    rows = []
    points = [4, 3.5, 3, 3, 3, 2.5, 2, 2, 2, 2, 1.5, 1, 1, 1, 0.5, 0]
    for i, (name, pts) in enumerate(zip(SIXTEEN, points, strict=True)):
        status = {"gus": "dropped", "ned": "removed"}.get(name, "")
        games = 2 if status else 4
        rows.append(StandingRow(i + 1, name, pts, (10.5 - 0.5 * i, pts * 2.25), games, status))
    # gus and ned sink to the bottom of the points they have
    rows.sort(key=lambda r: (-r.points, r.status != ""))
    return [
        StandingRow(i + 1, r.name, r.points, r.tiebreaks, r.games, r.status)
        for i, r in enumerate(rows)
    ]


def nine_tables() -> list[StandingRow]:
    """A round robin of Nine at tables after three rounds: the tie-break is
    the chips won and lost (signed); carol and dave share 3rd, and its
    medal; erin dropped out."""
    table = [
        (1, "alice", 7.5, 12.0),
        (2, "ぼぶ太郎", 7.5, -3.0),
        (3, "carol", 5, 4.0),
        (3, "dave", 5, 4.0),
        (5, "erin", 4, -13.0),
    ]
    return [
        StandingRow(place, name, points, (chips,), 3, "dropped" if name == "erin" else "")
        for place, name, points, chips in table
    ]


def knockout6() -> list[list[BracketMatch]]:
    """Six players, a bracket of 8: seeds 1 and 2 have byes; the first round
    played, one semi-final played, the other and the final to come."""
    s = {
        i + 1: Slot(name=n, seed=i + 1)
        for i, n in enumerate(["alice", "ぼぶ太郎", "carol", "dave", "eve", "フランク・ミュラー"])
    }

    def played(a: Slot, x: int, c: Slot, y: int) -> BracketMatch:
        return BracketMatch(
            Slot(a.name, a.seed, str(x)), Slot(c.name, c.seed, str(y)), 0 if x > y else 1
        )

    first = [
        BracketMatch(s[1], Slot(bye=True), 0),
        played(s[4], 3, s[5], 7),
        BracketMatch(s[2], Slot(bye=True), 0),
        played(s[3], 7, s[6], 5),
    ]
    semis = [played(s[1], 7, s[5], 4)]  # the other semi-final: ぼぶ太郎 v carol, to come
    return [first, semis]


def knockout8() -> list[list[BracketMatch]]:
    """Eight players, every match played: carol (3) wins."""
    names = [
        "alice",
        "ぼぶ太郎",
        "carol",
        "Christopher-Alexander-Longname",
        "eve",
        "フランク・ミュラー",
        "gus",
        "花子",
    ]
    s = {i + 1: Slot(name=n, seed=i + 1) for i, n in enumerate(names)}

    def played(a: int, x: int, c: int, y: int) -> BracketMatch:
        return BracketMatch(
            Slot(s[a].name, a, str(x)), Slot(s[c].name, c, str(y)), 0 if x > y else 1
        )

    return [
        [played(1, 7, 8, 2), played(4, 5, 5, 7), played(2, 7, 7, 6), played(3, 7, 6, 3)],
        [played(1, 7, 5, 1), played(2, 4, 3, 7)],
        [played(1, 6, 3, 7)],
    ]


def tournament_cases() -> dict[str, Case]:
    en8 = {
        "title": "Sixty-Six night (Swiss)",
        "subtitle": "Sixty-Six · Swiss · 8 players",
        "rows": swiss8(),
        "tiebreak_labels": TIEBREAKS,
        "round_no": 2,
        "rounds": 3,
    }
    ja8 = dict(
        en8,
        title="シックスティー・シックスの夜（スイス式）",
        subtitle="シックスティー・シックス、スイス式、8人",
    )
    en16 = {
        "title": "November cup",
        "subtitle": "Sixty-Six · Swiss · 16 players · 4 rounds",
        "rows": swiss16(),
        "tiebreak_labels": TIEBREAKS,
        "final": True,
    }
    ja16 = dict(en16, title="11月杯", subtitle="シックスティー・シックス、スイス式、16人、全4回戦")
    nine = {
        "title": "Nine tournament",
        "subtitle": "Round robin · tournament #3",
        "rows": nine_tables(),
        "tiebreak_labels": ("score_sum.chips",),
        "final": True,
    }
    nine_ja = dict(nine, title="ナインの大会", subtitle="総当たり戦・大会#3")
    return {
        "tournament_nine_tables": ("standings", nine, None, None),
        "tournament_nine_tables_ja": ("standings", nine_ja, None, None),
        "tournament_swiss8": ("standings", en8, None, None),
        "tournament_swiss8_ja": ("standings", ja8, None, None),
        "tournament_swiss16": ("standings", en16, None, None),
        "tournament_swiss16_ja": ("standings", ja16, None, None),
        "tournament_ko6": (
            "bracket",
            {"title": "Sixty-Six knockout", "rounds": knockout6(),
             "legend": t("pic.tournament.bracket_legend.sixtysix", "en")},
            None,
            None,
        ),
        "tournament_ko6_ja": (
            "bracket",
            {"title": "シックスティー・シックス勝ち抜き戦", "rounds": knockout6(),
             "legend": t("pic.tournament.bracket_legend.sixtysix", "ja")},
            None,
            None,
        ),
        "tournament_ko8": (
            "bracket",
            {"title": "Sixty-Six knockout", "rounds": knockout8()},
            None,
            None,
        ),
        "tournament_ko8_ja": (
            "bracket",
            {"title": "シックスティー・シックス勝ち抜き戦", "rounds": knockout8()},
            None,
            None,
        ),
    }
