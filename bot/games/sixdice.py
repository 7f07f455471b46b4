"""Six Dice — シックスダイス on the table message.

Roll (and Stop when the rules allow it), or after a scoring roll one select of
the legal ``take`` choices, each labelled with its points.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bot.games.base import MAX_LINES, GamePlugin, ResultRow, num, pct
from bot.i18n import sentences, t
from bot.render import sixdice as render
from bot.ui.controls import MAX_OPTIONS, Button, Control, Select
from games.core import Event
from games.sixdice import score_dice
from games.sixdice.engine import GIFT_UNITS, UNSTARTED_PENALTY

if TYPE_CHECKING:
    from PIL import Image


class Plugin(GamePlugin):
    game = "sixdice"

    def controls(
        self,
        view: dict[str, Any],
        player: str | None,
        legal: list[str],
        ui: dict[str, Any],
        lang: str,
    ) -> list[Control]:
        out: list[Control] = []
        takes = [m for m in legal if m.startswith("take")]
        if takes:
            options = view.get("options") or {}
            scored = [(score_dice(_dice(m), options) or 0, m) for m in takes]
            scored.sort(key=lambda pm: (-pm[0], -len(pm[1]), pm[1]))
            out.append(
                Select(
                    "m",
                    t("sixdice.select.take", lang),
                    [
                        (m, t("sixdice.option.take", lang, dice=" ".join(m.split()[1:]), points=p))
                        for p, m in scored[:MAX_OPTIONS]
                    ],
                )
            )
        if "roll" in legal:
            key = "sixdice.btn.roll_hot" if view.get("hot_dice") else "sixdice.btn.roll"
            out.append(Button("m:roll", t(key, lang, count=view.get("dice_left", 6)), "primary"))
        if "stop" in legal:
            out.append(
                Button(
                    "m:stop",
                    t("sixdice.btn.stop", lang, total=view.get("turn_total", 0)),
                    "success",
                )
            )
        return out

    def move_label(self, move: str, view: dict[str, Any], lang: str) -> str:
        """As the take menu and the Roll/Stop buttons name it."""
        if move.startswith("take"):
            points = score_dice(_dice(move), view.get("options") or {}) or 0
            return t("sixdice.option.take", lang, dice=" ".join(move.split()[1:]), points=points)
        if move == "roll":
            key = "sixdice.btn.roll_hot" if view.get("hot_dice") else "sixdice.btn.roll"
            return t(key, lang, count=view.get("dice_left", 6))
        if move == "stop":
            return t("sixdice.btn.stop", lang, total=view.get("turn_total", 0))
        return move

    def status_line(self, view: dict[str, Any], lang: str) -> str | None:
        player = view.get("turn_player")
        if player is None:
            return None
        scores = view.get("scores", {})
        line = t(
            "sixdice.status",
            lang,
            player=player,
            score=scores.get(player, 0),
            turn=view.get("turn_total", 0),
            target=(view.get("options") or {}).get("target", 10000),
        )
        if view.get("roll"):
            line = sentences(
                line, t("sixdice.status.roll", lang, dice=" ".join(map(str, view["roll"])))
            )
        score = int(scores.get(player, 0))
        if not (view.get("started") or {}).get(player, True):
            start = int((view.get("options") or {}).get("start", 1000))
            need = start - score  # in one turn: a ブタ or ドボン keeps nothing
            if need > 0:
                line = sentences(line, t("sixdice.status.not_started", lang, need=f"{need:,}"))
            else:  # a threshold already reached (start=0): any stop starts
                line = sentences(line, t("sixdice.status.not_started_stop", lang))
        if view.get("ending"):  # the round is played out: this turn is the player's last
            need = needed_to_win(view, player)
            if need > 0:
                line = sentences(line, t("sixdice.status.last_turn", lang, need=f"{need:,}"))
            else:
                line = sentences(line, t("sixdice.status.last_turn_ahead", lang))
        return line

    def after_move(self, events: list[Event], ui: dict[str, Any]) -> None:
        best = ui.setdefault("best", {})
        for e in events:
            if e.kind == "stop" and e.player is not None:
                best[e.player] = max(best.get(e.player, 0), int(e.data.get("points", 0)))

    result_chart = True
    points_words = "chips"  # the settlement: each loser pays the winner

    def table_image(self, view: dict[str, Any], lang: str) -> tuple[Image.Image, str]:
        return render.table(view, lang)

    def result_rows(self, view: dict[str, Any], outcome: dict[str, Any]) -> list[ResultRow]:
        settle: dict[str, int] = outcome.get("settlement") or {}
        scores = outcome.get("scores", {})
        # the winner first, then by the settlement (the places the result's
        # words give: a 御祝儀 can leave a loser more chips than the winner), then points
        won = outcome.get("winner")
        order = sorted(view["players"],
                       key=lambda p: (p != won, -settle.get(p, 0), -scores.get(p, 0)))  # fmt: skip
        return [(p, f"{scores.get(p, 0):,}", settle.get(p)) for p in order]

    def result_notes(
        self, view: dict[str, Any], outcome: dict[str, Any], lang: str
    ) -> dict[str, str]:
        """Why a settlement is more than the difference in scores: not
        started (5 chips more), 御祝儀 rolls (5 from each player), left."""
        started = outcome.get("started") or view.get("started") or {}
        gifts = view.get("gifts") or {}
        gone = set(view.get("forfeited") or [])
        settled = outcome.get("settlement") is not None
        out: dict[str, str] = {}
        for p in view["players"]:
            parts = []
            if p in gone:
                parts.append(t("result.left", lang))
            if not started.get(p, True):
                if settled and p != outcome.get("winner"):
                    parts.append(t("result.sixdice.not_started", lang, n=UNSTARTED_PENALTY))
                else:
                    parts.append(t("pic.not_started", lang))
            if gifts.get(p) and settled:
                n = int(gifts[p])
                parts.append(t("result.sixdice.gifts", lang, count=n, n=GIFT_UNITS * n))
            if parts:
                out[p] = t("list.sep", lang).join(parts)
        return out

    def hint_words(self, n: dict[str, Any], view: dict[str, Any], lang: str) -> list[str]:
        goal = n.get("goal")
        lines = [
            t(
                "hint.sixdice.dobon",
                lang,
                count=n.get("dice"),
                dice=n.get("dice"),
                chance=pct(n.get("dobon_chance")),
            )
        ]
        show = num if goal == "points" else pct
        points = n.get("points") or {}
        if "stop_value" in n:
            lines.append(
                t(
                    f"hint.sixdice.roll_stop_{goal}"
                    if goal != "points"
                    else "hint.sixdice.roll_stop",
                    lang,
                    roll=show(n.get("roll_value")),
                    stop=show(n.get("stop_value")),
                    need=n.get("need", ""),
                    total=n.get("turn_total", 0),
                )
            )
            if points:
                lines.append(
                    t(
                        "hint.sixdice.roll_stop",
                        lang,
                        roll=num(points.get("roll")),
                        stop=num(points.get("stop")),
                        total=n.get("turn_total", 0),
                    )
                )
            return lines
        values = n.get("values") or {}
        if values:
            key = "hint.sixdice.header" if goal == "points" else f"hint.sixdice.header_{goal}"
            lines.append(t(key, lang, need=n.get("need", ""), total=n.get("turn_total", 0)))
            ranked = sorted(values.items(), key=lambda mv: -mv[1])
            for move, value in ranked[:MAX_LINES]:
                if move in points:
                    lines.append(
                        t(
                            "hint.sixdice.choice_race",
                            lang,
                            move=self.move_text(move, view, lang),
                            value=show(value),
                            points=num(points[move]),
                        )
                    )
                else:
                    label = self.move_text(move, view, lang)
                    lines.append(t("hint.choice", lang, move=label, value=show(value)))
        return lines


def needed_to_win(view: dict[str, Any], player: str) -> int:
    """The points ``player`` must add to their score to win (0: they lead):
    more than every other player still in; equal is enough against a player
    later in the order (a tie goes to the earliest in player order)."""
    order: list[str] = view.get("order") or view.get("players") or []
    gone = set(view.get("forfeited") or [])
    scores = view.get("scores") or {}
    mine = int(scores.get(player, 0))
    me = order.index(player) if player in order else len(order)
    need = 0
    for i, other in enumerate(order):
        if other == player or other in gone:
            continue
        need = max(need, int(scores.get(other, 0)) - mine + (1 if i < me else 0))
    return need


def _dice(move: str) -> list[int]:
    return [int(w) for w in move.split()[1:]]


PLUGIN = Plugin()
