"""A game's bot plugin: everything about one game that the bot shows.

Each game has one plugin module (``bot/games/<game>.py`` for the five of
chabudai; anywhere for another game, named by its spec's ``plugin``) whose
``PLUGIN`` is a :class:`GamePlugin`. It never touches Discord: it turns the
game's views, legal moves and events into controls (:mod:`bot.ui.controls`),
words, pictures (Pillow images from :mod:`bot.render`), hint lines and the
contents of the players' private messages. The bot finds it through the
game registry (:func:`bot.games.plugin`), never by switching on a name.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bot.i18n import has, t
from bot.ui.controls import MAX_OPTIONS, Control, Select, Standing
from games.core import TOTAL, Event, Outcome

if TYPE_CHECKING:
    from PIL import Image


ResultRow = tuple[str, str, "int | None"]  # (player, main figure as text, settlement)
Confirm = tuple[str, list[Control]]  # a question for the player alone, and its buttons

CONFIRMED = "y:"  # the action of a question's "yes" button: ``y:<move>`` plays the move
DISMISS = "dismiss"  # the action of a question's "no" button: nothing changes

MAX_LINES = 8  # choices listed under a hint


def pct(value: Any) -> str:
    """``0.1234`` → ``12.3%``; ``None`` → ``—``."""
    if value is None:
        return "—"
    return f"{100 * float(value):.1f}%"


def num(value: Any, digits: int = 1) -> str:
    if value is None:
        return "—"
    return f"{float(value):.{digits}f}"


class GamePlugin:
    """Default behaviour; each game overrides what it does differently."""

    game: str = ""
    # "edit": one private message per player and table, edited after every
    # move; "send": a new private message for every change (Bluff's looks)
    private_mode: str = "edit"
    result_chart: bool = False  # the result picture has a score chart
    # the player to move plays from their private message (Sixty-Six's hand):
    # the table's turn line says so, naming the table's "show" button
    plays_in_private: bool = False
    # what the seed decides, in the words of the seed's lines
    # (``seed.hash.<term>``): "dice", or "deck" for a card game's shuffles
    seed_term: str = "dice"
    # what a player's result points count in words (bot.ui.result_words):
    # "chips" (a signed settlement), "game_points", "lives_lost" where the
    # points are minus the lives lost (Bluff: "2 lives lost", never "-2
    # points"), or "points" (a final total, or signed points)
    points_words: str = "points"

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

    def move_text(self, move: str, view: dict[str, Any], lang: str) -> str:
        """A move in words as its button or menu option names it ("Flip 1 +
        9", "Play 10♦"), for the lines that name a move outside the
        controls (``/hint``); never the engine's notation."""
        return self.move_label(move, view, lang)

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

    def standings(self, outcome: Outcome, ui: dict[str, Any]) -> list[Standing]:
        """Places, win flags and points of a finished game, from the one
        result type every game gives (:class:`games.core.Outcome`): winners
        first, then by points. A game's best figure (the table's "best" in
        its UI state, e.g. Six Dice's best turn) goes with each place; a
        final total is its own best."""
        points = dict(outcome.points)
        best = points if outcome.kind == TOTAL else ui.get("best", {})
        return rank_by(list(points), points, list(outcome.winners), best)

    # ------------------------------------------------------------- moves

    def action_move(self, action: str) -> str | None:
        """A game's own action that plays a move (Bluff "roll without looking")."""
        return None

    def confirm(self, state: Any, player: str, move: str, lang: str) -> Confirm | None:
        """A move worth a second thought (Sixty-Six: declaring 66 below 66):
        the question and its buttons, shown to the player alone before
        anything changes, or ``None`` to play it at once. The question's
        "yes" button plays the move (action ``y:<move>``; :data:`CONFIRMED`),
        its "no" button (action :data:`DISMISS`) changes nothing."""
        return None

    def after_apply(self, state: Any, player: str, move: str, action: str) -> list[Event]:
        """What follows a human's move in the same commit (Bluff: Roll looks
        under the cup)."""
        return []

    def automatic(self, state: Any, seats: list[dict[str, Any]], ui: dict[str, Any]) -> list[Event]:
        """Moves the bot makes for a person with no press of their own, in
        the same commit as whatever led to them (a press, a computer's move,
        the clock), applied to ``state`` through the engine, so the record
        holds them as moves and replays: their events. Sixty-Six: the draw
        after a won trick, unless the winner asked to choose (``ui``)."""
        return []

    # ---------------------------------------------------------- pictures

    def table_image(self, view: dict[str, Any], lang: str) -> tuple[Image.Image, str] | None:
        """The table as ``view`` shows it, and its alt text; ``None`` = no
        picture (the words carry the table)."""
        return None

    def hand_image(self, view: dict[str, Any], lang: str) -> tuple[Image.Image, str] | None:
        """A player's private picture (games without secrets: the table)."""
        return self.table_image(view, lang)

    def terms(self, lang: str) -> dict[str, str]:
        """The game's own words for the names its view uses (Yahtzee: its
        boxes), for a client that draws the view itself (the Activity)."""
        return {}

    def picture_view(self, view: dict[str, Any], ui: dict[str, Any]) -> dict[str, Any]:
        """The view the table picture draws: the public view plus what the
        table's UI state shows on the table (Yahtzee: the held dice), so the
        picture and the controls agree. A new dict, or ``view`` unchanged."""
        return view

    def result_rows(self, view: dict[str, Any], outcome: dict[str, Any]) -> list[ResultRow]:
        """The result picture's rows, best first: (player, main figure, settlement)."""
        settle: dict[str, int] = outcome.get("settlement") or {}
        players = sorted(view["players"], key=lambda p: -settle.get(p, 0))
        return [(p, f"{settle.get(p, 0):+,}", settle.get(p)) for p in players]

    def result_notes(
        self, view: dict[str, Any], outcome: dict[str, Any], lang: str
    ) -> dict[str, str]:
        """Why a player's figures are what they are, in words, by player
        (Six Dice: "not started: 5 chips more"; Sixty-Six: the deals won);
        the result message and picture show them beside the figures."""
        return {}

    def result_legend(self, view: dict[str, Any], lang: str) -> str:
        """What the result picture's columns mean (``pic.legend.<game>``,
        filled from the game's options), or "" where there is none."""
        key = f"pic.legend.{self.game}"
        if not has(key, lang):
            return ""
        return t(key, lang, **(view.get("options") or {}))

    # ------------------------------------------------------------- hints

    def hint_lines(self, numbers: dict[str, Any], lang: str) -> list[str]:
        """The coach's numbers in words (under the title line)."""
        return []

    def hint_words(self, numbers: dict[str, Any], view: dict[str, Any], lang: str) -> list[str]:
        """The coach's numbers in words with the asker's ``view`` at hand, so
        that each move is named by :meth:`move_text`; by default
        :meth:`hint_lines`."""
        return self.hint_lines(numbers, lang)

    # ----------------------------------------------------------- secrets

    def private_targets(self, events: list[Event], players: list[str]) -> list[str]:
        """The players whose private message changes after ``events``."""
        return []

    def repair_targets(self, views: dict[str, dict[str, Any]]) -> list[str]:
        """The players owed their private message when the table is redrawn
        after a fault (``views``: each player's own view): by default those
        a game start would send to."""
        return self.private_targets([Event("start")], list(views))

    def private_lines(self, view: dict[str, Any], lang: str) -> list[str]:
        """A player's private content in words, from their own view."""
        return []

    def private_controls(self, view: dict[str, Any], legal: list[str], lang: str) -> list[Control]:
        """Controls on a player's private message (Sixty-Six: their cards)."""
        return []

    def private_settings(
        self, view: dict[str, Any], player: str, ui: dict[str, Any], lang: str
    ) -> list[Control]:
        """A player's own settings on their private message, from the table's
        UI state (Sixty-Six: draw by itself, or stop before drawing); their
        presses are UI actions (:meth:`ui_action`)."""
        return []

    def revealed_lines(self, view: dict[str, Any], player: str, lang: str) -> list[str]:
        """What ``player`` (their display name) held at the end, from their
        own ``view``, in the third person under their name — the replay's
        last step, once the game is over (Sixty-Six: "alice held K♥ 9♠")."""
        return []

    @property
    def has_private_controls(self) -> bool:
        """Whether legal moves name hidden things (played from the private
        message): the public table then shows only its public controls."""
        return type(self).private_controls is not GamePlugin.private_controls


class GenericPlugin(GamePlugin):
    """A game without a plugin of its own: one select of every legal move."""

    def __init__(self, game: str) -> None:
        self.game = game


def rank_by(
    players: list[str], points: dict[str, int], winners: list[str], best: dict[str, int]
) -> list[Standing]:
    """Winners first (rank 1), then the rest by points, highest first."""
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
