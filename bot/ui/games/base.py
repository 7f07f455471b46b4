"""The shape of a game's UI module, and the generic fallback.

A game UI never touches Discord: it returns :class:`Button` and
:class:`Select` descriptions whose ``action`` the component layer puts in the
custom id (``cb:<table>:<version>:<action>``). Actions:

- ``m:<move>`` — a button that plays the move in notation (``m:roll``,
  ``m:flip 3 9``);
- ``m`` — a select whose chosen value is the move (``m.<tag>`` when a
  message has several such selects: custom ids must differ);
- anything else is the game's own UI action (Yahtzee ``k:<i>`` toggles a
  held die), handled by :meth:`GameUI.ui_action`, which changes only the UI
  state stored with the table.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bot.i18n import t
from games.core import Event

MAX_OPTIONS = 25  # Discord's limit for a select


@dataclass(frozen=True)
class Button:
    action: str
    label: str
    style: str = "secondary"  # primary | secondary | success | danger
    row: int | None = None
    disabled: bool = False


@dataclass(frozen=True)
class Select:
    action: str
    placeholder: str
    options: list[tuple[str, str]] = field(default_factory=list)  # (value, label)
    row: int | None = None


Control = Button | Select


@dataclass(frozen=True)
class Standing:
    """One player's place in a finished game."""

    player: str
    rank: int  # 1 = winner; equal ranks share a place
    won: bool
    points: int  # settlement points (Yahtzee: final total)
    best: int | None = None


class GameUI:
    """Default behaviour; each game overrides what it does differently."""

    game: str = ""

    def controls(
        self,
        view: dict[str, Any],
        player: str | None,
        legal: list[str],
        ui: dict[str, Any],
        lang: str,
    ) -> list[Control]:
        """The controls for the player to move (``legal`` = their legal moves)."""
        if not legal:
            return []
        options = [(m, self.move_label(m, view, lang)) for m in legal[:MAX_OPTIONS]]
        return [Select("m", t("ui.choose_move", lang), options)]

    def move_label(self, move: str, view: dict[str, Any], lang: str) -> str:
        return move

    def ui_action(
        self, action: str, view: dict[str, Any], player: str, ui: dict[str, Any]
    ) -> dict[str, Any] | None:
        """A UI-only action (no move): the new UI state, or ``None`` if unknown."""
        return None

    def after_move(self, events: list[Event], ui: dict[str, Any]) -> None:
        """Update UI state after a move (e.g. clear held dice, track bests)."""

    def describe(self, event: dict[str, Any], lang: str) -> str | None:
        """One line in words for a public event (JSON form), or ``None`` to skip it."""
        kind = event["kind"]
        key = f"ev.{self.game}.{kind}"
        data = dict(event.get("data") or {})
        data.setdefault("player", event.get("player") or "")
        for k in (key, f"ev.{kind}"):
            if t(k, lang) != k:
                return t(k, lang, **{name: _words(v) for name, v in data.items()})
        return None

    def status_line(self, view: dict[str, Any], lang: str) -> str | None:
        """A short line under the turn indicator (the roll to answer…)."""
        return None

    def standings(
        self, outcome: dict[str, Any], players: list[str], ui: dict[str, Any]
    ) -> list[Standing]:
        """Places, win flags and points of a finished game."""
        settlement = outcome.get("settlement") or {p: 0 for p in players}
        winners = outcome.get("winners") or ([outcome["winner"]] if outcome.get("winner") else [])
        return rank_by(players, {p: int(settlement.get(p, 0)) for p in players}, winners, ui)


class GenericUI(GameUI):
    def __init__(self, game: str) -> None:
        self.game = game


def rank_by(
    players: list[str], points: dict[str, int], winners: list[str], ui: dict[str, Any]
) -> list[Standing]:
    """Winners first (rank 1), then the rest by points, highest first."""
    best = ui.get("best", {})
    order = sorted(players, key=lambda p: (p not in winners, -points[p]))
    out: list[Standing] = []
    rank = 0
    prev: tuple[bool, int] | None = None
    for i, p in enumerate(order):
        key = (p in winners, points[p] if p not in winners else 0)
        if key != prev:
            rank = i + 1
            prev = key
        out.append(Standing(p, rank, p in winners, points[p], best.get(p)))
    return out


def _words(value: Any) -> Any:
    if isinstance(value, list):
        return " ".join(str(v) for v in value)
    return value
