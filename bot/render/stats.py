"""Pictures of players' numbers: the ``/stats`` card and the
``/leaderboard`` picture, each with alt text that says the same facts.

Pure functions of plain data (the command gathers it from the store):

- :func:`stats_card` — a player's card: initials in a circle and the name,
  the period, games, wins and win rate, the rating with a small chart of
  its trend over the last games, best scores per game, the favourite game.
- :func:`board_picture` — a leaderboard: the title (smaller, or on two
  lines, when it is long: never cut), the season's dates, and the ranked
  rows (medals for the first three).

Ratings are drawn as :func:`bot.ratings.shown` writes them ("1540?"), the
number ``/leaderboard`` and ``/stats`` say.

Game names come from the ``pic.<game>`` catalogue keys like every picture's.
"""

from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw

from bot import ratings
from bot.render import _base as b
from bot.render._strings import alt, tr

CARD_H = 120  # the header
ROW = 30
MEDALS: tuple[b.Color, ...] = ((244, 190, 60), (200, 204, 212), (205, 127, 50))
TITLE_MIN = 22  # a board's title shrinks to this size on one line, then wraps


def initials(name: str) -> str:
    """One or two letters for the avatar circle ("Ann Lee" → "AL", "ぼぶ" → "ぼ");
    a name of emoji only shows its first emoji where they are drawn, else "?".

    >>> initials("Ann Lee"), initials("bob"), initials("ぼぶ太郎")
    ('AL', 'B', 'ぼ')
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
    trend = [ratings.display(v) for v in card.get("trend") or []]  # ordinals, as shown
    trend_game = card.get("trend_game")
    rated = next((r for r in rows if r["game"] == trend_game and r.get("rating") is not None), None)
    rating = ratings.shown(rated["rating"], rated.get("rated")) if rated else None
    # a season's card shows the season's rating; its trend is all-time's
    trend_key = "stats.trend_all" if card.get("trend_all_time") else "stats.trend"
    provisional = rating is not None and rating.endswith("?")
    height = CARD_H + 110 + 38 + ROW * len(rows) + 20 + (26 if provisional else 0)
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
    # the rating's tile names its game; a footnote says what "?" means
    caption = _game(lang, trend_game) if trend_game else ""
    figures = [
        (tr(lang, "stats.games"), f"{total}", ""),
        (tr(lang, "stats.wins"), f"{wins} ({rate}%)", ""),
        (tr(lang, "stats.rating"), rating or "—", caption),
    ]
    for i, (label, value, under) in enumerate(figures):
        x = 20 + i * 140
        d.rounded_rectangle((x, y, x + 130, y + 90), 10, fill=b.PANEL)
        b.draw_text(d, (x + 65, y + 18), label, b.SMALL, b.INK_DIM, anchor="mm")
        b.draw_text(d, (x + 65, y + 49), value, b.LARGE, b.INK, anchor="mm", bold=True)
        if under:
            b.draw_text(
                d,
                (x + 65, y + 77),
                b.fit(under, b.SMALL - 3, 120),
                b.SMALL - 3,
                b.INK_DIM,
                anchor="mm",
            )
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
    if provisional:
        note = tr(lang, "board.provisional", n=ratings.PROVISIONAL_GAMES)
        b.draw_text(d, (24, y + 6), b.fit(note, b.SMALL - 2, 600), b.SMALL - 2, b.INK_DIM)
    return img, card_alt(card, lang, total, wins, rate, rating)


def card_alt(
    card: dict[str, Any], lang: str, total: int, wins: int, rate: int, rating: str | None
) -> str:
    """The card in words: every fact it draws."""
    end = "." if lang == "en" else "。"
    parts = [
        tr(lang, "stats.alt_title", player=card["name"], period=card["period"]) + end,
        tr(lang, "stats.alt_totals", games=total, wins=wins, rate=rate) + end,
    ]
    trend = [ratings.display(v) for v in card.get("trend") or []]
    if rating is not None and card.get("trend_game"):
        game = _game(lang, card["trend_game"])
        if len(trend) >= 2:  # where the rating stood at the first game of the trend
            said = tr(
                lang, "stats.alt_rating", game=game, rating=rating, first=trend[0], n=len(trend)
            )
        else:  # one rated game (or none kept): no trend to speak of
            said = tr(lang, "stats.alt_rating_new", game=game, rating=rating)
        parts.append(said + end)
        if rating.endswith("?"):
            parts.append(tr(lang, "board.provisional", n=ratings.PROVISIONAL_GAMES) + end)
    for r in card["games"]:
        best = r.get("best")
        facts = {"game": _game(lang, r["game"]), "games": r["games"], "wins": r["wins"]}
        if best is None:  # a game with no best figure (Nine): no "best —"
            parts.append(tr(lang, "stats.alt_game_nobest", **facts) + end)
        else:
            parts.append(tr(lang, "stats.alt_game", best=f"{best:,}", **facts) + end)
    if card.get("favourite"):
        parts.append(tr(lang, "stats.alt_favourite", game=_game(lang, card["favourite"])) + end)
    return alt(parts, lang)


def title_lines(text: str, width: int = b.WIDTH - 40) -> tuple[list[str], int]:
    """A board's title laid out to ``width`` px, never cut: one line at the
    largest size from LARGE down to :data:`TITLE_MIN` that fits, else two
    lines (as large as they fit) broken at the space, opening bracket or 、
    that makes the longer line shortest (the long ones are Japanese:
    シックスティー・シックスランキング（このサーバー、レーティング順）).

    >>> title_lines("Nine leaderboard (this server, by rating)")
    (['Nine leaderboard (this server, by rating)'], 26)
    >>> lines, size = title_lines("x" * 40 + " " + "y" * 40)
    >>> [len(line) for line in lines], size
    ([40, 40], 26)
    """
    for size in range(b.LARGE, TITLE_MIN - 1, -1):
        if b.text_width(text, size) <= width:
            return [text], size
    breaks = [i for i, ch in enumerate(text) if ch in " （(" and i > 0]
    breaks += [i + 1 for i, ch in enumerate(text) if ch in "、," and i + 1 < len(text)]
    best: tuple[int, list[str]] | None = None
    for i in breaks:
        lines = [text[:i].rstrip(), text[i:].lstrip()]
        widest = max(b.text_width(line, b.LARGE) for line in lines)
        if best is None or widest < best[0]:
            best = (widest, lines)
    if best is None:
        return [b.fit(text, b.BODY, width)], b.BODY
    for size in range(b.LARGE, b.BODY - 1, -1):
        if all(b.text_width(line, size) <= width for line in best[1]):
            return best[1], size
    return [b.fit(line, b.BODY, width) for line in best[1]], b.BODY


def board_picture(board: dict[str, Any], lang: str) -> tuple[Image.Image, str]:
    """A leaderboard. ``board``: ``title`` and ``subtitle`` (words: the game,
    where and by what; the season's dates), ``rows`` (``rank``, ``name``,
    ``value`` as shown, ``games``, ``wins``), ``value_label``, ``by`` (by
    ``wins``: the wins are the value, one column) and ``provisional``
    (some rating is: a footnote says what "?" means)."""
    rows: list[dict[str, Any]] = board["rows"]
    by_wins = board.get("by") == "wins"
    title = b.safe_text(board["title"])
    lines, size = title_lines(title)
    extra = (len(lines) - 1) * (size + 6)  # a second line of title pushes the rest down
    note = tr(lang, "board.provisional", n=ratings.PROVISIONAL_GAMES)
    foot = 30 if board.get("provisional") else 0
    height = 100 + extra + 34 * max(1, len(rows)) + 20 + foot
    img = b.canvas(height)
    d = ImageDraw.Draw(img)
    for i, line in enumerate(lines):
        b.draw_text(
            d,
            (20, 14 + (4 if size < b.LARGE else 0) + i * (size + 6)),
            line,
            size,
            b.INK,
            bold=True,
        )
    b.draw_text(
        d,
        (20, 52 + extra),
        b.fit(b.safe_text(board["subtitle"]), b.SMALL, 600),
        b.SMALL,
        b.INK_DIM,
    )
    y = 86 + extra
    if not by_wins:  # by wins the value is the wins: one column
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
        if not by_wins:  # a provisional rating's "?" hangs after the column
            value = str(r["value"])
            mark = value.endswith("?")
            value = value.removesuffix("?")
            b.draw_text(d, (440, cy), value, b.BODY, b.HILITE, anchor="rm", bold=True)
            if mark:
                b.draw_text(d, (442, cy), "?", b.BODY, b.INK_DIM, anchor="lm")
        b.draw_text(d, (530, cy), str(r["games"]), b.BODY, b.INK, anchor="rm")
        wins_colour, wins_bold = (b.HILITE, True) if by_wins else (b.INK, False)
        b.draw_text(
            d, (b.WIDTH - 24, cy), str(r["wins"]), b.BODY, wins_colour, anchor="rm", bold=wins_bold
        )
        y += 34
    if foot:
        b.draw_text(d, (20, y + 14), b.fit(note, b.SMALL - 2, 600), b.SMALL - 2, b.INK_DIM)
    end = "." if lang == "en" else "。"
    parts = [board["title"] + end, board["subtitle"] + end]
    for r in rows:
        key = "board.alt_row_wins" if by_wins else "board.alt_row"
        args = {k: r[k] for k in ("rank", "name", "games", "wins")}
        if not by_wins:
            args["value"] = r["value"]
        parts.append(tr(lang, key, **args) + end)
    if foot:
        parts.append(note + end)
    return img, alt(parts, lang)
