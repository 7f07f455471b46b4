"""A finished game's figures in words, each with its unit and its reason:
"+34 chips (face-up sum 0, 上がり (Shut!) holding 1 token: ×4)", "9 game
points (deal 1 +2: declared 66, bob under 33 (schneider); …)", "2 lives
lost" — for the result message, ``/history`` and ``/stats`` alike.

A game says what its points count through its plugin's ``points_words``
(:class:`bot.games.base.GamePlugin`): ``"chips"`` (a signed settlement),
``"game_points"``, ``"lives_lost"`` (the points are minus the lives lost)
or ``"points"`` (a final total, or signed points of a game without a word of
its own); the reasons come from its ``result_notes``.
"""

from __future__ import annotations

from typing import Any

from bot.games import plugin
from bot.i18n import has, t
from games import registry


def points_text(points: int, game: str, lang: Any = "en") -> str:
    """A player's points with their unit: ``+16 chips``, ``177 points``,
    ``9 game points``, ``2 lives lost`` (never a bare ``+0`` or ``-2``)."""
    words = plugin(game).points_words
    if words == "lives_lost":
        return t("unit.life_lost", lang, count=-points)
    if words == "game_points":
        return t("unit.game_point", lang, count=points)
    if words == "chips":
        return t("unit.chip", lang, count=abs(points), signed=f"{points:+,}")
    if registry.spec(game).points == "total":
        return t("unit.point", lang, count=points, points=f"{points:,}")
    return t("unit.point_signed", lang, count=abs(points), signed=f"{points:+,}")


def place_text(
    points: int, game: str, lang: str, *, figure: str | None = None, note: str | None = None
) -> str:
    """A place's points in words with why: the game's own figure where it
    differs from the points (Nine's face-up sum, Six Dice's score) and the
    plugin's note ("not started", "上がり … ×4", the deals won)."""
    shown = points_text(points, game, lang)
    why = [w for w in (figure_text(game, figure, lang), note) if w]
    if not why:
        return shown
    return t("result.why", lang, points=shown, why=t("list.sep", lang).join(why))


def figure_text(game: str, figure: str | None, lang: str) -> str | None:
    """The game's main figure in words ("face-up sum 7", "3,050 points"),
    where the game names one apart from its points."""
    key = f"result.figure.{game}"
    if figure is None or not has(key, lang):
        return None
    digits = figure.replace(",", "").lstrip("+-")
    count = int(digits) if digits.isdigit() else 0
    return t(key, lang, value=figure, count=count)


def notes_of(view: dict[str, Any], outcome: dict[str, Any], lang: str) -> dict[str, str]:
    """Why each player's figures are what they are (the plugin's notes; none
    if the plugin fails: the figures still carry their units)."""
    try:
        return dict(plugin(str(view["game"])).result_notes(view, outcome, lang))
    except Exception:  # pragma: no cover - a plugin's bug must not lose a result
        return {}


def figures_of(view: dict[str, Any], outcome: dict[str, Any]) -> dict[str, str | None]:
    """Each player's main figure as the result picture shows it, where it is
    more than the points (a settled game: the settlement column is the points)."""
    try:
        rows = plugin(str(view["game"])).result_rows(view, outcome)
    except Exception:  # pragma: no cover
        return {}
    return {p: (main if settled is not None else None) for p, main, settled in rows}
