"""Pictures of players' numbers: the ``/stats`` card and the
``/leaderboard`` picture, each with alt text that says the same facts.

Pure functions of plain data (the command gathers it from the store):

- :func:`stats_card` — a player's card: initials in a circle and the name,
  the period, games, wins and win rate, the rating with a small chart of
  its trend over the last games, best scores per game, the favourite game.
- :func:`board_picture` — a leaderboard: the title, the season's dates, and
  the ranked rows (medals for the first three).

Game names come from the ``pic.<game>`` catalogue keys like every picture's.
"""

from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw

from bot.render import _base as b
from bot.render._strings import alt, tr

CARD_H = 120  # the header
ROW = 30
MEDALS: tuple[b.Color, ...] = ((244, 190, 60), (200, 204, 212), (205, 127, 50))


def initials(name: str) -> str:
    """One or two letters for the avatar circle ("Ann Lee" → "AL", "ぼぶ" → "ぼ").

    >>> initials("Ann Lee"), initials("bob"), initials("ぼぶ太郎"), initials("🎲")
    ('AL', 'B', 'ぼ', '□')
    """
    words = [w for w in b.safe_text(name).replace("_", " ").split() if w]
    if not words:
        return "?"
    if len(words) >= 2 and words[0][0].isascii() and words[1][0].isascii():
        return (words[0][0] + words[1][0]).upper()
    return words[0][0].upper()


def _colour_of(key: int) -> b.Color:
    return b.PLAYER_COLOURS[key % 6]


def _game(lang: str, game: str) -> str:
    try:
        return tr(lang, game)
    except KeyError:  # a game without picture words: its own name
        return game


def _spark(
    d: ImageDraw.ImageDraw, box: tuple[int, int, int, int], values: list[float], lang: str
) -> None:
    """A small line chart of ``values`` (oldest first); a word when empty."""
    x0, y0, x1, y1 = box
    d.rounded_rectangle(box, 6, fill=b.PANEL)
    if not values:
        b.draw_text(
            d,
            ((x0 + x1) / 2, (y0 + y1) / 2),
            tr(lang, "stats.no_trend"),
            b.SMALL - 2,
            b.INK_DIM,
            anchor="mm",
        )
        return
    lo, hi = min(values), max(values)
    span = hi - lo or 1.0
    left, right = x0 + 8, x1 - 8
    top, bottom = y0 + 8, y1 - 8
    n = len(values)
    step = (right - left) / (n - 1) if n > 1 else 0

    def at(i: int, v: float) -> tuple[float, float]:
        return left + step * i, bottom - (v - lo) / span * (bottom - top)

    pts = [at(i, v) for i, v in enumerate(values)]
    if len(pts) > 1:
        d.line(pts, fill=b.BLUE, width=3, joint="curve")
    px, py = pts[-1]
    colour = b.GREEN if n < 2 or values[-1] >= values[0] else b.RED
    d.ellipse((px - 4, py - 4, px + 4, py + 4), fill=colour)


def stats_card(card: dict[str, Any], lang: str) -> tuple[Image.Image, str]:
    """A player's card. ``card``: ``name``, ``key`` (an int for the avatar's
    colour), ``period`` (words: "All time", "Season 2026-11 (…)"), ``games``
    (one dict per game: ``game``, ``games``, ``wins``, ``best``, ``rating``),
    ``favourite`` (a game), ``trend`` (all-time ratings after the last
    games, oldest first), ``trend_game`` and ``trend_all_time`` (say so: the
    card is a season's)."""
    rows: list[dict[str, Any]] = card["games"]
    total = sum(int(r["games"]) for r in rows)
    wins = sum(int(r["wins"]) for r in rows)
    rate = round(100 * wins / total) if total else 0
    trend: list[float] = list(card.get("trend") or [])
    trend_game = card.get("trend_game")
    rating = next((r.get("rating") for r in rows if r["game"] == trend_game), None)
    # a season's card shows the season's rating; its trend is all-time's
    trend_key = "stats.trend_all" if card.get("trend_all_time") else "stats.trend"
    height = CARD_H + 110 + 38 + ROW * len(rows) + 20
    img = b.canvas(height)
    d = ImageDraw.Draw(img)
    # the header: initials in a circle, the name, the period
    colour = _colour_of(int(card.get("key", 0)))
    d.ellipse((20, 20, 100, 100), fill=colour, outline=b.INK, width=2)
    b.draw_text(
        d, (60, 60), initials(card["name"]), b.HUGE - 6, b.PAPER_INK, anchor="mm", bold=True
    )
    b.draw_text(d, (120, 28), b.name(card["name"], b.LARGE + 4, 500), b.LARGE + 4, b.INK, bold=True)
    b.draw_text(d, (120, 70), b.fit(b.safe_text(card["period"]), b.BODY, 500), b.BODY, b.INK_DIM)
    # three figures and the trend
    y = CARD_H
    figures = [
        (tr(lang, "stats.games"), f"{total}"),
        (tr(lang, "stats.wins"), f"{wins} ({rate}%)"),
        (tr(lang, "stats.rating"), f"{rating:.1f}" if rating is not None else "—"),
    ]
    for i, (label, value) in enumerate(figures):
        x = 20 + i * 140
        d.rounded_rectangle((x, y, x + 130, y + 90), 10, fill=b.PANEL)
        b.draw_text(d, (x + 65, y + 22), label, b.SMALL, b.INK_DIM, anchor="mm")
        b.draw_text(d, (x + 65, y + 58), value, b.LARGE, b.INK, anchor="mm", bold=True)
    sx = 20 + 3 * 140
    b.draw_text(
        d,
        (sx, y + 4),
        b.fit(tr(lang, trend_key, game=_game(lang, trend_game)), b.SMALL - 2, b.WIDTH - 20 - sx)
        if trend_game
        else "",
        b.SMALL - 2,
        b.INK_DIM,
    )
    _spark(d, (sx, y + 26, b.WIDTH - 20, y + 90), trend, lang)
    # one line per game: games, wins, best; the favourite marked
    y += 110
    b.draw_text(d, (24, y + 8), tr(lang, "stats.game"), b.SMALL, b.INK_DIM)
    for x, key in ((330, "stats.games"), (430, "stats.wins"), (b.WIDTH - 24, "stats.best")):
        b.draw_text(d, (x, y + 8), tr(lang, key), b.SMALL, b.INK_DIM, anchor="ra")
    y += 38
    favourite = card.get("favourite")
    for r in rows:
        if r["game"] == favourite:
            d.rounded_rectangle((12, y - 2, b.WIDTH - 12, y + ROW - 4), 8, fill=(70, 100, 64))
        name = _game(lang, r["game"])
        b.draw_text(d, (24, y + ROW / 2 - 3), name, b.BODY, b.INK, anchor="lm")
        if r["game"] == favourite:
            w = b.text_width(name, b.BODY)
            b.pill(d, (34 + w, y + 1), tr(lang, "stats.favourite"), b.SMALL - 4, b.HILITE)
        b.draw_text(d, (330, y + ROW / 2 - 3), str(r["games"]), b.BODY, b.INK, anchor="rm")
        b.draw_text(d, (430, y + ROW / 2 - 3), str(r["wins"]), b.BODY, b.INK, anchor="rm")
        best = r.get("best")
        b.draw_text(
            d,
            (b.WIDTH - 24, y + ROW / 2 - 3),
            f"{best:,}" if best is not None else "—",
            b.BODY,
            b.INK,
            anchor="rm",
            bold=True,
        )
        y += ROW
    return img, card_alt(card, lang, total, wins, rate, rating)


def card_alt(
    card: dict[str, Any], lang: str, total: int, wins: int, rate: int, rating: float | None
) -> str:
    """The card in words: every fact it draws."""
    end = "." if lang == "en" else "。"
    parts = [
        tr(lang, "stats.alt_title", player=card["name"], period=card["period"]) + end,
        tr(lang, "stats.alt_totals", games=total, wins=wins, rate=rate) + end,
    ]
    trend = list(card.get("trend") or [])
    if rating is not None and card.get("trend_game"):
        parts.append(
            tr(
                lang,
                "stats.alt_rating",
                game=_game(lang, card["trend_game"]),
                rating=f"{rating:.1f}",
                first=f"{trend[0]:.1f}" if trend else f"{rating:.1f}",
                n=len(trend),
            )
            + end
        )
    for r in card["games"]:
        best = r.get("best")
        parts.append(
            tr(
                lang,
                "stats.alt_game",
                game=_game(lang, r["game"]),
                games=r["games"],
                wins=r["wins"],
                best=f"{best:,}" if best is not None else "—",
            )
            + end
        )
    if card.get("favourite"):
        parts.append(tr(lang, "stats.alt_favourite", game=_game(lang, card["favourite"])) + end)
    return alt(parts, lang)


def board_picture(board: dict[str, Any], lang: str) -> tuple[Image.Image, str]:
    """A leaderboard. ``board``: ``title`` and ``subtitle`` (words: the game,
    where and by what; the season's dates), ``rows`` (``rank``, ``name``,
    ``value`` as shown, ``games``, ``wins``), ``value_label``."""
    rows: list[dict[str, Any]] = board["rows"]
    height = 100 + 34 * max(1, len(rows)) + 20
    img = b.canvas(height)
    d = ImageDraw.Draw(img)
    b.draw_text(
        d, (20, 14), b.fit(b.safe_text(board["title"]), b.LARGE, 600), b.LARGE, b.INK, bold=True
    )
    b.draw_text(
        d, (20, 52), b.fit(b.safe_text(board["subtitle"]), b.SMALL, 600), b.SMALL, b.INK_DIM
    )
    y = 86
    b.draw_text(d, (440, y), board["value_label"], b.SMALL, b.INK_DIM, anchor="rm")
    b.draw_text(d, (530, y), tr(lang, "stats.games"), b.SMALL, b.INK_DIM, anchor="rm")
    b.draw_text(d, (b.WIDTH - 24, y), tr(lang, "stats.wins"), b.SMALL, b.INK_DIM, anchor="rm")
    y += 14
    if not rows:
        b.draw_text(
            d, (b.WIDTH / 2, y + 17), tr(lang, "board.empty"), b.BODY, b.INK_DIM, anchor="mm"
        )
    for i, r in enumerate(rows):
        if i % 2 == 0:
            d.rectangle((10, y, b.WIDTH - 10, y + 33), fill=b.PANEL)
        rank = int(r["rank"])
        cy = y + 17
        if rank <= 3:
            d.ellipse((22, cy - 13, 48, cy + 13), fill=MEDALS[rank - 1])
            b.draw_text(d, (35, cy), str(rank), b.SMALL, b.PAPER_INK, anchor="mm", bold=True)
        else:
            b.draw_text(d, (35, cy), str(rank), b.BODY, b.INK_DIM, anchor="mm")
        b.draw_text(d, (64, cy), b.name(r["name"], b.BODY, 290), b.BODY, b.INK, anchor="lm")
        b.draw_text(d, (440, cy), str(r["value"]), b.BODY, b.HILITE, anchor="rm", bold=True)
        b.draw_text(d, (530, cy), str(r["games"]), b.BODY, b.INK, anchor="rm")
        b.draw_text(d, (b.WIDTH - 24, cy), str(r["wins"]), b.BODY, b.INK, anchor="rm")
        y += 34
    end = "." if lang == "en" else "。"
    parts = [board["title"] + end, board["subtitle"] + end]
    for r in rows:
        parts.append(
            tr(
                lang,
                "board.alt_row",
                rank=r["rank"],
                name=r["name"],
                value=r["value"],
                games=r["games"],
                wins=r["wins"],
            )
            + end
        )
    return img, alt(parts, lang)
