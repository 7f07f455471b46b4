"""Yahtzee — ヤッツィー on the table message.

Five toggle buttons for the dice to keep (held dice are UI state stored with
the table), a reroll button whose custom id carries the resulting ``keep``
move, and a select of the legal boxes with the points each would score
(option ``triple``: one select per column, so all 39 boxes can be reached).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bot.games.base import MAX_LINES, GamePlugin, ResultRow, num
from bot.i18n import sentences, t
from bot.render import yahtzee as render
from bot.ui.controls import MAX_OPTIONS, Button, Control, Select
from games.core import Event
from games.yahtzee.engine import FACTORS
from games.yahtzee.scoring import BOXES

DIE_FACES = "⚀⚁⚂⚃⚄⚅"

if TYPE_CHECKING:
    from PIL import Image


class Plugin(GamePlugin):
    game = "yahtzee"

    def controls(
        self,
        view: dict[str, Any],
        player: str | None,
        legal: list[str],
        ui: dict[str, Any],
        lang: str,
    ) -> list[Control]:
        if legal == ["roll"]:
            return [Button("m:roll", t("yahtzee.btn.roll", lang), "primary", row=0)]
        out: list[Control] = []
        dice: list[int] = view.get("dice") or []
        hold = _hold(ui)
        if any(m.startswith("keep") for m in legal) and dice:
            for i, face in enumerate(dice):
                style = "success" if hold[i] else "secondary"
                key = "yahtzee.btn.held" if hold[i] else "yahtzee.btn.die"
                out.append(
                    Button(f"k:{i}", t(key, lang, face=face, pip=DIE_FACES[face - 1]), style, row=0)
                )
            kept = sorted(d for d, h in zip(dice, hold, strict=True) if h)
            move = " ".join(["keep", *map(str, kept)])
            if move in legal:
                out.append(
                    Button(
                        f"m:{move}",
                        t("yahtzee.btn.reroll", lang, left=view.get("rolls_left", 0)),
                        "primary",
                        row=1,
                    )
                )
        potential = [p for p in view.get("potential") or [] if p["move"] in legal]
        if any(p.get("column") for p in potential):
            out.extend(_column_selects(potential, lang))
            return out
        potential.sort(key=lambda p: -int(p["points"]))
        options = [
            (p["move"], t("yahtzee.option.box", lang, box=_box(p, lang), points=p["points"]))
            for p in potential[:MAX_OPTIONS]
        ]
        if options:
            out.append(Select("m", t("yahtzee.select.box", lang), options, row=2))
        return out

    def move_label(self, move: str, view: dict[str, Any], lang: str) -> str:
        """Roll, the dice kept for a reroll, or the box with the points it
        would score (as the box menu names it)."""
        verb, *rest = move.split()
        if verb == "roll":
            return t("yahtzee.btn.roll", lang)
        if verb == "keep":
            if not rest:
                return t("yahtzee.move.reroll_all", lang)
            return t("yahtzee.move.keep", lang, dice=" ".join(rest))
        if verb == "score":
            for p in view.get("potential") or []:
                if p["move"] == move:
                    return t("yahtzee.option.box", lang, box=_box(p, lang), points=p["points"])
            column = int(rest[1][1:]) if len(rest) > 1 and rest[1][1:].isdigit() else None
            return _box({"box": rest[0], "column": column}, lang) if rest else move
        return move

    def ui_action(
        self, action: str, view: dict[str, Any], player: str, ui: dict[str, Any]
    ) -> dict[str, Any] | None:
        if not action.startswith("k:") or not view.get("dice") or view.get("rolls_left", 0) <= 0:
            return None
        try:
            i = int(action[2:])
        except ValueError:
            return None
        if not 0 <= i < 5:
            return None
        new = dict(ui)
        hold = _hold(ui)
        hold[i] = not hold[i]
        new["hold"] = hold
        return new

    def after_move(self, events: list[Event], ui: dict[str, Any]) -> None:
        """Held dice stay held across a reroll, as in a real game (the dice
        the engine kept); a score, a new turn's first roll or the last roll
        of a turn (nothing left to reroll) releases them all."""
        hold = [False] * 5
        for event in events:
            if event.kind == "roll" and int(event.data.get("rolls_left", 0)) > 0:
                hold = [bool(k) for k in event.data.get("kept") or []]
            elif event.kind in ("roll", "score"):
                hold = [False] * 5
        ui["hold"] = (hold + [False] * 5)[:5]

    def terms(self, lang: str) -> dict[str, str]:
        """Each box of the score sheet by its name in ``lang``."""
        return {box: t(f"yahtzee.box.{box}", lang) for box in BOXES}

    def picture_view(self, view: dict[str, Any], ui: dict[str, Any]) -> dict[str, Any]:
        """The picture marks "keep" under exactly the dice whose buttons are
        held: the table's held dice while a reroll is left, none otherwise
        (the engine's ``kept`` is the last reroll's, not the buttons')."""
        rerolls = bool(view.get("dice")) and int(view.get("rolls_left") or 0) > 0
        return {**view, "kept": _hold(ui) if rerolls else [False] * 5}

    def describe(self, event: dict[str, Any], lang: str) -> str | None:
        """A scored box by its name in the table's language (``Three of a
        kind ×2``), never its engine key."""
        if event["kind"] == "score":
            data = event.get("data") or {}
            return t(
                "ev.yahtzee.score",
                lang,
                player=event.get("player") or "",
                points=data.get("points"),
                box=_box(data, lang),
            )
        return super().describe(event, lang)

    def status_line(self, view: dict[str, Any], lang: str) -> str | None:
        if view.get("turn") is None:
            return None
        line = t(
            "yahtzee.status",
            lang,
            round=view.get("round"),
            rounds=view.get("rounds"),
            left=view.get("rolls_left"),
        )
        if view.get("dice"):
            line = sentences(
                line, t("yahtzee.status.dice", lang, dice=" ".join(map(str, view["dice"])))
            )
        return line

    result_chart = True

    def table_image(self, view: dict[str, Any], lang: str) -> tuple[Image.Image, str]:
        return render.table(view, lang)

    def result_rows(self, view: dict[str, Any], outcome: dict[str, Any]) -> list[ResultRow]:
        tot = outcome.get("totals", {})
        order = sorted(view["players"], key=lambda p: -tot.get(p, 0))
        return [(p, str(tot.get(p, 0)), None) for p in order]

    def hint_words(self, n: dict[str, Any], view: dict[str, Any], lang: str) -> list[str]:
        lines = [t("hint.yahtzee.expected", lang, expected=num(n.get("expected"), 2))]
        choices = n.get("choices") or []
        if choices:
            lines.append(t("hint.yahtzee.header", lang))
            for c in choices[:MAX_LINES]:
                lines.append(
                    t(
                        "hint.yahtzee.choice",
                        lang,
                        move=self.move_text(c["move"], view, lang),
                        expected=num(c["expected"], 2),
                    )
                )
        return lines


def _box(p: dict[str, Any], lang: str) -> str:
    label = t(f"yahtzee.box.{p['box']}", lang)
    if p.get("column"):
        label += f" ×{p['column']}"
    return label


def _column_selects(potential: list[dict[str, Any]], lang: str) -> list[Control]:
    """Option ``triple``: one select per column that has a legal box (13 boxes
    at most, so every legal box is offered), boxes in the sheet's order, each
    labelled with the points it would score in that column. The selects take
    rows 2-4, under the keep toggles (row 0) and Reroll (row 1): five rows,
    Discord's limit. Their actions ``m.x1``… keep the custom ids apart."""
    out: list[Control] = []
    for column in FACTORS:
        boxes = sorted(
            (p for p in potential if p.get("column") == column),
            key=lambda p: BOXES.index(p["box"]),
        )
        if not boxes:
            continue
        options = [
            (p["move"], t("yahtzee.option.box", lang, box=_box(p, lang), points=p["points"]))
            for p in boxes
        ]
        placeholder = t("yahtzee.select.column", lang, column=column)
        out.append(Select(f"m.x{column}", placeholder, options, row=1 + column))
    return out


def _hold(ui: dict[str, Any]) -> list[bool]:
    hold = list(ui.get("hold") or [])
    return (hold + [False] * 5)[:5]


PLUGIN = Plugin()
