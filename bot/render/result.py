"""Result pictures: final standings and settlement for every game, and for
Six Dice and Yahtzee a line chart of each player's score over the game.

The chart is drawn from ``history`` — per-turn score snapshots
``{player: score}`` the bot collects as the game goes (oldest first). Without
it the picture has standings only: the renderer never replays records."""

from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw

from bot.render import _base as b
from bot.render._strings import alt, comma, tr

ROW = 34
CHART_H = 220


def _winners(view: dict[str, Any], outcome: dict[str, Any]) -> list[str]:
    if outcome.get("winners"):
        return list(outcome["winners"])
    return [outcome["winner"]] if outcome.get("winner") else []


def result(
    view: dict[str, Any],
    outcome: dict[str, Any],
    lang: str,
    rows: list[tuple[str, str, int | None]],
    history: list[dict[str, int]] | None = None,
) -> tuple[Image.Image, str]:
    """The result picture: ``rows`` (player, main figure, settlement), best
    first, from the game's plugin; a chart when ``history`` is given."""
    game = view["game"]
    chart = bool(history)
    height = 96 + ROW * len(rows) + (CHART_H + 50 if chart else 0) + 16
    img = b.canvas(height)
    d = ImageDraw.Draw(img)
    b.draw_text(d, (16, 12), f"{tr(lang, game)} — {tr(lang, 'result')}", b.LARGE, b.INK, bold=True)
    winners = _winners(view, outcome)
    if winners:
        b.draw_text(
            d,
            (16, 52),
            tr(
                lang, "wins", player=b.name("・".join(b.who(view, w) for w in winners), b.BODY, 500)
            ),
            b.BODY,
            b.HILITE,
        )
    has_settle = any(s is not None for _, _, s in rows)
    colours = {
        p: b.PLAYER_COLOURS[i % len(b.PLAYER_COLOURS)] for i, p in enumerate(view["players"])
    }
    y = 92
    # column headers: what the main figure is (game points, losses…), settlement
    b.draw_text(d, (460, y - 12), tr(lang, f"figure.{game}"), b.SMALL, b.INK_DIM, anchor="rs")
    if has_settle:
        b.draw_text(
            d, (b.WIDTH - 20, y - 12), tr(lang, "settlement"), b.SMALL, b.INK_DIM, anchor="rs"
        )
    for k, (p, main, s) in enumerate(rows):
        if p in winners:
            d.rounded_rectangle((10, y, b.WIDTH - 10, y + ROW - 4), 8, fill=(70, 100, 64))
        b.draw_text(d, (24, y + ROW / 2 - 2), str(k + 1), b.BODY, b.INK_DIM, anchor="lm")
        if chart:
            d.rectangle((52, y + 10, 62, y + 20), fill=colours[p])
        b.draw_text(
            d,
            (72, y + ROW / 2 - 2),
            b.name(b.who(view, p), b.BODY, 280),
            b.BODY,
            b.INK,
            anchor="lm",
        )
        b.draw_text(d, (460, y + ROW / 2 - 2), main, b.BODY, b.INK, anchor="rm", bold=True)
        if s is not None:
            colour = b.GREEN if s > 0 else b.RED if s < 0 else b.INK_DIM
            b.draw_text(
                d,
                (b.WIDTH - 20, y + ROW / 2 - 2),
                f"{s:+,}",
                b.BODY,
                colour,
                anchor="rm",
                bold=True,
            )
        y += ROW
    if chart and history:
        _chart(
            d,
            (20, y + 30, b.WIDTH - 20, y + 30 + CHART_H),
            history,
            list(view["players"]),
            colours,
            lang,
        )
    end = "." if lang == "en" else "。"
    parts = [f"{tr(lang, game)} — {tr(lang, 'result')}" + end]
    if winners:
        parts.append(tr(lang, "wins", player=comma(lang).join(b.who(view, w) for w in winners)) + end)
    figure = tr(lang, f"figure.{game}")
    for p, main, s in rows:
        if lang == "ja":
            settle = f"（{tr(lang, 'settlement')}{s:+}）" if s is not None else ""
            parts.append(f"{b.who(view, p)}：{figure}{main}{settle}。")
        else:
            settle = f" ({tr(lang, 'settlement')} {s:+})" if s is not None else ""
            parts.append(f"{b.who(view, p)}: {figure} {main}{settle};")
    return img, alt(parts, lang)


def _chart(
    d: ImageDraw.ImageDraw,
    box: tuple[int, int, int, int],
    history: list[dict[str, int]],
    players: list[str],
    colours: dict[str, b.Color],
    lang: str,
) -> None:
    x0, y0, x1, y1 = box
    b.draw_text(d, (x0, y0 - 24), tr(lang, "over_time"), b.SMALL, b.INK_DIM)
    d.rectangle(box, fill=b.PANEL)
    values = [v for snap in history for v in snap.values()] + [0]
    lo, hi = min(values), max(values)
    if hi == lo:
        hi = lo + 1
    left = x0 + 56

    def sy(v: float) -> float:
        return y1 - 10 - (v - lo) / (hi - lo) * (y1 - y0 - 20)

    for v in {lo, hi, 0}:
        yy = sy(v)
        d.line((left, yy, x1 - 6, yy), fill=b.TABLE_EDGE, width=1)
        b.draw_text(
            d,
            (left - 6, yy),
            f"{v:,}",
            b.SMALL - 3 if abs(v) >= 10000 else b.SMALL,
            b.INK_DIM,
            anchor="rm",
        )
    n = len(history)
    step = (x1 - 6 - left) / max(1, n - 1) if n > 1 else 0

    for p in players:
        pts = [(left + step * i, sy(snap.get(p, 0))) for i, snap in enumerate(history)]
        if len(pts) == 1:
            px, py = pts[0]
            d.ellipse((px - 3, py - 3, px + 3, py + 3), fill=colours[p])
        else:
            d.line(pts, fill=colours[p], width=3, joint="curve")
