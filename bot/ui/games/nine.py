"""Nine — ナイン on the table message: Roll, then one button per legal flip."""

from __future__ import annotations

from typing import Any

from bot.i18n import t
from bot.ui.games.base import Button, Control, GameUI


class UI(GameUI):
    game = "nine"

    def controls(
        self,
        view: dict[str, Any],
        player: str | None,
        legal: list[str],
        ui: dict[str, Any],
        lang: str,
    ) -> list[Control]:
        out: list[Control] = []
        for move in legal:
            if move == "roll":
                out.append(Button("m:roll", t("nine.btn.roll", lang), "primary"))
            else:
                out.append(Button(f"m:{move}", self.move_label(move, view, lang), "success"))
        return out

    def move_label(self, move: str, view: dict[str, Any], lang: str) -> str:
        words = move.split()
        if words[0] == "flip":
            return t("nine.btn.flip", lang, cards=" + ".join(words[1:]))
        return move

    def status_line(self, view: dict[str, Any], lang: str) -> str | None:
        roll = view.get("last_roll")
        if view.get("phase") == "flip" and roll:
            return t(
                "nine.status.flip",
                lang,
                dice=" + ".join(map(str, roll["dice"])),
                total=roll["total"],
            )
        return None
