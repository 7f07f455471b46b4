"""Pig on the table message: Roll and Hold, the scores in words."""

from __future__ import annotations

from typing import Any

from bot.games.base import GamePlugin
from bot.i18n import t
from bot.ui.controls import Button, Control


class Plugin(GamePlugin):
    game = "pig"

    def controls(
        self,
        view: dict[str, Any],
        player: str | None,
        legal: list[str],
        ui: dict[str, Any],
        lang: str,
    ) -> list[Control]:
        style = {"roll": "primary", "hold": "success"}
        return [Button(f"m:{m}", t(f"pig.btn.{m}", lang), style[m]) for m in legal]

    def status_line(self, view: dict[str, Any], lang: str) -> str | None:
        scores = ", ".join(f"{p} {s}" for p, s in view["scores"].items())
        return t("pig.status", lang, total=view["turn_total"], scores=scores, target=view["target"])

    def hint_lines(self, n: dict[str, Any], lang: str) -> list[str]:
        return [t("pig.hint", lang, total=n.get("turn_total", 0))]


PLUGIN = Plugin()
