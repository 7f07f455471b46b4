"""Fixed data of the /stats card and the /leaderboard picture for the golden
tests and bench/render.py: ``stats_*`` and ``board_*`` cases (``*_ja``
drawn in Japanese), in the form of :func:`tests.render.views.golden_cases`
(kind, data, None, None)."""

from __future__ import annotations

from typing import Any

from bot import ratings

NAMES = [
    "alice",
    "ぼぶ太郎",
    "Christopher-Alexander-Longname",
    "d😀👍🏽",
    "eve",
    "フランク・ミュラー",
    "gus",
    "花子",
]

Case = tuple[str, dict[str, Any], None, None]


def card() -> dict[str, Any]:
    """A regular player's all-time card: four games, a rating trend."""
    return {
        "name": "Ann Lee",
        "key": 4,
        "period": "All time",
        "games": [
            {"game": "nine", "games": 31, "wins": 14, "best": 1200, "rating": 23.41, "rated": 31},
            {"game": "yahtzee", "games": 12, "wins": 5, "best": 287, "rating": 19.02, "rated": 12},
            {"game": "sixtysix", "games": 4, "wins": 3, "best": None, "rating": 8.5, "rated": 4},
            {"game": "bluff", "games": 2, "wins": 0, "best": None, "rating": None},
        ],
        "favourite": "nine",
        "trend": [0.0, 2.8, 5.1, 4.2, 7.9, 10.3, 9.6, 12.8, 15.0, 14.1, 17.7, 19.9, 21.2, 23.41],
        "trend_game": "nine",
    }


def board() -> dict[str, Any]:
    """A full season leaderboard of eight (long names, emoji), ratings as
    the bot writes them: the last two provisional ("1520?")."""
    return {
        "title": "Nine leaderboard (this server, by rating)",
        "subtitle": "Season 2026-01: 2026-01-01 – 2026-01-31",
        "by": "rating",
        "value_label": "Rating",
        "provisional": True,
        "rows": [
            {
                "rank": i + 1,
                "name": n,
                "value": ratings.shown(31.4 - 2.3 * i, 16 - 2 * i),
                "games": 20 - i,
                "wins": 11 - i,
            }
            for i, n in enumerate(NAMES)
        ],
    }


def stats_cases() -> dict[str, Case]:
    new = {
        "name": "d😀👍🏽",
        "key": 2,
        "period": "All time",
        # one rated game lost: ordinal −2.6 (shown "-2.6" before), now 1422?
        "games": [
            {"game": "sixdice", "games": 1, "wins": 0, "best": 450, "rating": -2.6, "rated": 1}
        ],
        "favourite": "sixdice",
        "trend": [-2.6],
        "trend_game": "sixdice",
    }
    card_ja = dict(
        card(),
        name="フランク・ミュラー",
        key=5,
        period="シーズン2026-01（2026-01-01〜2026-01-31）",
        trend_all_time=True,
    )
    board_ja = {  # the title that was cut (…レーティン…): now smaller, whole
        "title": "ナインランキング（このサーバー、レーティング順）",
        "subtitle": "シーズン2026-01（2026-01-01〜2026-01-31）",
        "by": "rating",
        "value_label": "レーティング",
        "provisional": False,
        "rows": [dict(r, value=str(2442 - 90 * i)) for i, r in enumerate(board()["rows"][:5])],
    }
    board_wrap_ja = {  # the longest title: on two lines
        "title": "シックスティー・シックスランキング（全サーバー、レーティング順）",
        "subtitle": "全期間",
        "by": "rating",
        "value_label": "レーティング",
        "provisional": True,
        "rows": [dict(r, value=f"{1620 - 40 * i}?") for i, r in enumerate(board()["rows"][:3])],
    }
    board_wins = {  # by wins: the wins are the value, one "Wins" column
        "title": "Yahtzee leaderboard (all servers, by wins)",
        "subtitle": "All time",
        "by": "wins",
        "value_label": "Wins",
        "rows": [dict(r, value=str(r["wins"])) for r in board()["rows"][:4]],
    }
    board_emoji = {  # emoji in names drawn in colour (where the emoji font is installed)
        "title": "Bluff dice leaderboard (this server, by wins)",
        "subtitle": "All time",
        "by": "wins",
        "value_label": "Wins",
        "rows": [
            dict(r, name=name, value=str(r["wins"]))
            for r, name in zip(
                board()["rows"],
                ["🎲 Dice King 🎲", "d😀👍🏽", "花子🌸", "👨‍👩‍👧 family", "🇯🇵", "plain"],
                strict=False,
            )
        ],
    }
    return {
        "stats_card": ("stats", card(), None, None),
        "stats_card_ja": ("stats", card_ja, None, None),
        "stats_new": ("stats", new, None, None),
        "board_season": ("board", board(), None, None),
        "board_ja": ("board", board_ja, None, None),
        "board_wrap_ja": ("board", board_wrap_ja, None, None),
        "board_wins": ("board", board_wins, None, None),
        "board_emoji": ("board", board_emoji, None, None),
    }
