"""Six Dice — シックスダイス on the table message.

Roll (and Stop when the rules allow it), or after a scoring roll one select of
the legal ``take`` choices, each labelled with its points.
"""

from __future__ import annotations

from typing import Any

from bot.i18n import t
from bot.ui.games.base import MAX_OPTIONS, Button, Control, GameUI, Select, Standing, rank_by
from games.core import Event
from games.sixdice import score_dice


class UI(GameUI):
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
            line += " " + t("sixdice.status.roll", lang, dice=" ".join(map(str, view["roll"])))
        if not (view.get("started") or {}).get(player, True):
            line += " " + t("sixdice.status.not_started", lang)
        return line

    def after_move(self, events: list[Event], ui: dict[str, Any]) -> None:
        best = ui.setdefault("best", {})
        for e in events:
            if e.kind == "stop" and e.player is not None:
                best[e.player] = max(best.get(e.player, 0), int(e.data.get("points", 0)))

    def standings(
        self, outcome: dict[str, Any], players: list[str], ui: dict[str, Any]
    ) -> list[Standing]:
        settlement = outcome.get("settlement") or {p: 0 for p in players}
        winner = outcome.get("winner")
        return rank_by(
            players, {p: int(settlement.get(p, 0)) for p in players}, [winner] if winner else [], ui
        )


def _dice(move: str) -> list[int]:
    return [int(w) for w in move.split()[1:]]
