"""Bluff dice — Mäxchen on the table message, the dice under the cup in DMs.

The cup holder's controls on the public table: Reveal, Roll (then the bot
looks under the cup for them — :func:`games.bluff.peek` — and DMs the dice),
Roll without looking (nobody sees the dice), and a select of exactly the
legal stronger values, strongest first with 21 marked as the top (after a
roll: the announcement; without a roll: a pass without rolling). Every
player has "Show my dice", which re-opens what they saw, ephemerally.

The select values are public moves (``announce 54``); no custom id or public
line ever carries the dice under the cup: those reach only the roller's own
view (``cup_seen``) until a reveal makes them public.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bot.games.base import MAX_LINES, GamePlugin, ResultRow, pct
from bot.i18n import sentences, t
from bot.render import bluff as render
from bot.ui.controls import Button, Control, Select
from games import bluff
from games.bluff.ai import chance_at_least
from games.core import Event

BLIND = "blind"  # the UI action "roll without looking" (the move is ``roll``)
SHOW = "show"  # "Show my dice" (handled by the table service)

if TYPE_CHECKING:
    from PIL import Image


class Plugin(GamePlugin):
    game = "bluff"
    private_mode = "send"  # a new DM for every look under the cup
    points_words = "lives_lost"  # the points are minus the lives lost

    # ------------------------------------------------------------ public

    def controls(
        self,
        view: dict[str, Any],
        player: str | None,
        legal: list[str],
        ui: dict[str, Any],
        lang: str,
    ) -> list[Control]:
        out: list[Control] = []
        if "reveal" in legal:
            out.append(Button("m:reveal", t("bluff.btn.reveal", lang), "danger", row=0))
        if "roll" in legal:
            out.append(Button("m:roll", t("bluff.btn.roll", lang), "primary", row=0))
            out.append(Button(BLIND, t("bluff.btn.roll_blind", lang), "secondary", row=0))
        values = [m.split()[1] for m in legal if m.startswith("announce ")]
        if values:
            values.sort(key=lambda v: bluff.RANKING.index(v))  # strongest first
            key = (
                "bluff.select.announce" if view.get("phase") == "announce" else "bluff.select.pass"
            )
            out.append(
                Select(
                    "m",
                    t(key, lang),
                    [(f"announce {v}", self.value_label(v, lang)) for v in values],
                    row=1,
                )
            )
        if not view.get("finished"):
            out.append(Button(SHOW, t("bluff.btn.show", lang), "secondary", row=2))
        return out

    def move_label(self, move: str, view: dict[str, Any], lang: str) -> str:
        """As the buttons name it (Reveal, Roll), an announcement with its
        value as the menu shows it ("Announce 32")."""
        if move.startswith("announce "):
            key = "bluff.move.announce" if view.get("phase") == "announce" else "bluff.move.pass"
            return t(key, lang, value=self.value_label(move.split()[1], lang))
        if move in ("reveal", "roll"):
            return t(f"bluff.btn.{move}", lang)
        return move

    @staticmethod
    def value_label(value: str, lang: str) -> str:
        if value == "21":
            return t("bluff.value.top", lang, value=value)
        if value[0] == value[1]:
            return t("bluff.value.double", lang, value=value)
        return value

    def action_move(self, action: str) -> str | None:
        return "roll" if action == BLIND else None

    def after_apply(self, state: Any, player: str, move: str, action: str) -> list[Event]:
        """A plain Roll looks under the cup for the roller (a private event)."""
        if move == "roll" and action == "m:roll":
            return bluff.peek(state, player)
        return []

    def result_legend(self, view: dict[str, Any], lang: str) -> str:
        """How lives lost count, the match's end with its unit ("when a
        player reaches 1 life lost"; it read "who has lost 1")."""
        options = {o.name: o.default for o in bluff.OPTIONS} | (view.get("options") or {})
        losses = int(options["losses"])
        return t("pic.legend.bluff", lang, lost=t("unit.life_lost", lang, count=losses))

    def status_line(self, view: dict[str, Any], lang: str) -> str | None:
        lines = []
        last = view.get("last_announcement")
        phase = view.get("phase")
        if last:
            lines.append(
                t("bluff.status.announced", lang, player=last["player"], value=last["value"])
            )
        if phase == "roll":
            lines.append(t("bluff.status.must_roll", lang))
        elif phase == "announce":
            # the game's first announcement has nothing to beat
            key = "bluff.status.must_announce" if last else "bluff.status.must_announce_first"
            lines.append(t(key, lang))
        elif phase == "reveal":
            lines.append(t("bluff.status.must_reveal", lang))
        lines.append(self.losses_line(view, lang))
        return "\n".join(lines)

    @staticmethod
    def losses_line(view: dict[str, Any], lang: str) -> str:
        losses = view.get("losses") or {}
        limit = (view.get("options") or {}).get("losses")
        games = (view.get("options") or {}).get("games")
        sep = t("list.dot", lang)  # " · ", 、 in Japanese
        table = sep.join(f"{p} {losses.get(p, 0)}" for p in view.get("players") or [])
        key = "bluff.status.losses_games" if games else "bluff.status.losses"
        return t(key, lang, table=table, limit=limit, games=games, n=view.get("game_number", 1))

    def describe(self, event: dict[str, Any], lang: str) -> str | None:
        kind = event["kind"]
        data = event.get("data") or {}
        who = event.get("player") or ""
        if kind == "announce":
            key = "ev.bluff.announce" if data.get("rolled") else "ev.bluff.pass"
            return t(key, lang, player=who, value=data.get("value"))
        if kind == "reveal":
            dice = " ".join(map(str, data.get("dice") or []))
            reason = (
                "ev.bluff.bluff_called"
                if data.get("reason") == "bluff_called"
                else ("ev.bluff.wrong_call")
            )
            return sentences(
                t(
                    "ev.bluff.reveal",
                    lang,
                    player=who,
                    dice=dice,
                    value=data.get("value"),
                    announced=data.get("announced"),
                    announcer=data.get("announcer"),
                ),
                t(reason, lang, loser=data.get("loser")),
            )
        if kind == "start":
            return t("ev.bluff.start", lang, n=data.get("game", 1), player=who)
        return super().describe(event, lang)

    # ----------------------------------------------------------- private

    def private_targets(self, events: list[Event], players: list[str]) -> list[str]:
        """Only a look under the cup sends a DM (to the one who looked)."""
        return [e.player for e in events if e.kind == "peek" and e.player]

    def repair_targets(self, views: dict[str, dict[str, Any]]) -> list[str]:
        """The one who looked under the cup (their dice are still the cup's)."""
        return [p for p, view in views.items() if view.get("cup_seen")]

    def private_lines(self, view: dict[str, Any], lang: str) -> list[str]:
        seen = view.get("cup_seen")
        lines = [t("bluff.private.game", lang, n=view.get("game_number", 1))]
        if seen:
            value = bluff.value_of(seen)
            lines.append(t("bluff.private.dice", lang, dice=" ".join(map(str, seen)), value=value))
        else:
            lines.append(t("bluff.private.not_seen", lang))
        return lines

    def private_controls(self, view: dict[str, Any], legal: list[str], lang: str) -> list[Control]:
        return []  # the cup holder plays on the table message

    def revealed_lines(self, view: dict[str, Any], player: str, lang: str) -> list[str]:
        seen = view.get("cup_seen")
        if not seen:
            return []
        dice = " ".join(map(str, seen))
        return [t("replay.bluff.seen", lang, player=player, dice=dice, value=bluff.value_of(seen))]

    def table_image(self, view: dict[str, Any], lang: str) -> tuple[Image.Image, str]:
        return render.table(view, lang)

    def hand_image(self, view: dict[str, Any], lang: str) -> tuple[Image.Image, str]:
        return render.hand(view, lang)

    def result_rows(self, view: dict[str, Any], outcome: dict[str, Any]) -> list[ResultRow]:
        losses = outcome.get("losses", {})
        order = sorted(view["players"], key=lambda p: losses.get(p, 0))
        return [(p, str(losses.get(p, 0)), None) for p in order]  # under "Losses"

    def hint_words(self, n: dict[str, Any], view: dict[str, Any], lang: str) -> list[str]:
        lines = []
        if n.get("dice"):
            reach = pct(chance_at_least(str(n["dice"])))
            lines.append(t("hint.bluff.dice", lang, dice=n["dice"], chance=reach))
        if n.get("announcement"):
            lines.append(
                t(
                    "hint.bluff.true",
                    lang,
                    value=n["announcement"],
                    chance=pct(n.get("chance_true")),
                    prior=pct(n.get("chance_at_least")),
                )
            )
        elif view.get("phase") == "announce":  # rolled: only the announcement is left
            lines.append(t("hint.bluff.rolled", lang))
        else:
            lines.append(t("hint.bluff.first", lang))
        loss = n.get("loss") or {}
        if loss:
            lines.append(t("hint.bluff.header", lang))
            for move, value in sorted(loss.items(), key=lambda mv: mv[1])[:MAX_LINES]:
                label = self.move_text(move, view, lang)
                lines.append(t("hint.choice", lang, move=label, value=pct(value)))
        return lines


PLUGIN = Plugin()
