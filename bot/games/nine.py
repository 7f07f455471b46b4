"""Nine — ナイン on the table message: Roll, then one button per legal flip."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bot.games.base import MAX_LINES, GamePlugin, ResultRow, num, pct
from bot.i18n import t
from bot.render import nine as render
from bot.ui.controls import Button, Control

if TYPE_CHECKING:
    from PIL import Image


class Plugin(GamePlugin):
    points_words = "chips"  # the settlement: each loser pays the winner
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
        if move == "roll":
            return t("nine.btn.roll", lang)
        return move

    def describe(self, event: dict[str, Any], lang: str) -> str | None:
        """A token spent says why ("no card to flip; a token saves them from
        ドボン"): a bare "token -1" read as a penalty."""
        data = event.get("data") or {}
        if event.get("kind") == "token" and int(data.get("change", 0)) < 0:
            return t(
                "ev.nine.token_used",
                lang,
                player=event.get("player") or "",
                tokens=data.get("tokens", 0),
            )
        return super().describe(event, lang)

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

    def table_image(self, view: dict[str, Any], lang: str) -> tuple[Image.Image, str]:
        return render.table(view, lang)

    def result_rows(self, view: dict[str, Any], outcome: dict[str, Any]) -> list[ResultRow]:
        settle: dict[str, int] = outcome.get("settlement") or {}
        rem = outcome.get("remaining", {})
        mult = outcome.get("multiplier", {})
        order = sorted(view["players"], key=lambda p: (rem.get(p, 0), -mult.get(p, 1)))
        w = outcome.get("winner")
        if w in order:
            order.remove(w)
            order.insert(0, w)
        return [(p, str(rem.get(p, 0)), settle.get(p)) for p in order]

    def result_notes(
        self, view: dict[str, Any], outcome: dict[str, Any], lang: str
    ) -> dict[str, str]:
        """How each player finished: the winner's 上がり with its tokens and
        multiplier (the "×4" every loser pays by), ドボン, 1 ドボン, left."""
        status = view.get("status") or {}
        tokens = view.get("tokens") or {}
        mult = outcome.get("multiplier") or {}
        out: dict[str, str] = {}
        for p in view["players"]:
            how = status.get(p)
            if how == "agari":
                held = int(tokens.get(p, 0))
                key = "result.nine.agari_tokens" if held else "result.nine.agari"
                out[p] = t(key, lang, count=held, mult=mult.get(p, 2))
            elif how in ("dobon", "one_dobon"):
                out[p] = t(f"result.nine.{how}", lang)
            elif how == "forfeit":
                out[p] = t("result.left", lang)
        return out

    def hint_words(self, n: dict[str, Any], view: dict[str, Any], lang: str) -> list[str]:
        lines = []
        if "chance_agari" in n:
            lines.append(
                t(
                    "hint.nine.before",
                    lang,
                    chance=pct(n["chance_agari"]),
                    left=num(n.get("expected_remaining"), 2),
                )
            )
        flips = n.get("flips") or {}
        for move, v in list(flips.items())[:MAX_LINES]:
            lines.append(
                t(
                    "hint.nine.flip",
                    lang,
                    move=self.move_text(move, view, lang),
                    chance=pct(v.get("chance_agari")),
                    left=num(v.get("expected_remaining"), 2),
                )
            )
        return lines


PLUGIN = Plugin()
