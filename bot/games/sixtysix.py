"""Sixty-Six — シックスティー・シックス: the public table and each hand in a DM.

The public table message (from the public view only) shows the trump card,
the talon (size, closed), the current trick, declared marriages, tricks and
game points, and carries two controls for both players: "Declare 66"
(勝利宣言, legal for either player at any moment) and "Show my hand".

Each player's DM (or, with DMs closed, the ephemeral fallback) shows their
hand picture and exactly their legal moves: a select of cards to play (the
values are moves such as ``play QS``; a card never goes into a custom id), a
select of marriages, and buttons for exchange, draw, close (before the draw:
"close without drawing"), declare and pass.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from bot.games.base import CONFIRMED, DISMISS, MAX_LINES, Confirm, GamePlugin, ResultRow, pct
from bot.i18n import t
from bot.render import sixtysix as render
from bot.ui.controls import Button, Control, Select
from games import sixtysix as engine
from games.core import Event
from games.sixtysix.engine import GOAL

SUIT_SIGNS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
RANKS = {"9": "9", "T": "10", "J": "J", "Q": "Q", "K": "K", "A": "A"}
SHOW = "show"
# the table's UI state: the players who stop before drawing (to close then),
# and the action of the hand's switch
ASK_DRAW = "ask_draw"

if TYPE_CHECKING:
    from PIL import Image


def card_text(card: str) -> str:
    """``TS`` → ``10♠``.

    >>> card_text("TS"), card_text("QH")
    ('10♠', 'Q♥')
    """
    return RANKS[card[0]] + SUIT_SIGNS[card[1]]


def talon_open(view: dict[str, Any]) -> bool:
    """Whether the talon still has cards and is not closed: only then can a
    player draw, close it or exchange the trump 9 (docs/rules/sixtysix.md)."""
    return not view.get("closed") and bool(view.get("talon"))


def deal_reason(
    deal: dict[str, Any],
    players: list[str],
    base: int,
    lang: str,
    shown: Callable[[str], str] = str,
) -> str:
    """Why a deal's winner scored ``base`` game points (carry-over apart),
    from the finished deal's record (docs/rules/sixtysix.md's table):
    declared or closed with 66 — 1, 2 with the opponent under 33
    (schneider), 3 without a trick for them (schwarz) — or the other's
    declaration or closing fell short."""
    winner = deal.get("winner")
    other = next((p for p in players if p != winner), "")
    declarer = deal.get("declarer")
    closed = deal.get("reason") == "closed"
    if declarer is not None and declarer != winner:  # it fell short
        if closed:
            return t("result.sixtysix.short_closed", lang, other=shown(declarer))
        mine = (deal.get("card_points") or {}).get(declarer, 0)
        return t("result.sixtysix.short_declared", lang, other=shown(declarer), points=mine)
    how = t("result.sixtysix.closed" if closed else "result.sixtysix.declared", lang)
    if base == 2:
        how += t("list.sep", lang) + t("result.sixtysix.schneider", lang, other=shown(other))
    elif base >= 3:
        how += t("list.sep", lang) + t("result.sixtysix.schwarz", lang, other=shown(other))
    return how


class Plugin(GamePlugin):
    game = "sixtysix"
    points_words = "game_points"  # a total of game points, never signed
    private_mode = "edit"  # one DM per player and table, edited after every move
    plays_in_private = True  # cards are played from the hand (DM or Show my hand)
    seed_term = "deck"  # the seed decides the shuffles

    # ------------------------------------------------------------ public

    def controls(
        self,
        view: dict[str, Any],
        player: str | None,
        legal: list[str],
        ui: dict[str, Any],
        lang: str,
    ) -> list[Control]:
        if view.get("finished"):
            return []
        # Never the mover's cards here: ``legal`` names them; only public
        # moves go on the public message.
        return [
            Button("m:declare", t("sixtysix.btn.declare", lang), "success", row=0),
            Button(SHOW, t("sixtysix.btn.show", lang), "secondary", row=0),
        ]

    def result_legend(self, view: dict[str, Any], lang: str) -> str:
        """Game points a deal gives, and the match's goal with its unit ("the
        first to 1 game point wins"; it read "the first to 1 wins")."""
        options = {o.name: o.default for o in engine.OPTIONS} | (view.get("options") or {})
        target = int(options["target"])
        return t("pic.legend.sixtysix", lang, goal=t("unit.game_point", lang, count=target))

    def status_line(self, view: dict[str, Any], lang: str) -> str | None:
        players: list[str] = view.get("players") or []
        trump = view.get("trump") or ""
        trump_card = view.get("trump_card")
        if view.get("closed"):
            talon = t("sixtysix.status.closed", lang, closer=view.get("closer") or "")
        elif view.get("talon"):
            talon = t("sixtysix.status.talon", lang, n=view.get("talon"))
        else:
            talon = t("sixtysix.status.talon_gone", lang)
        deal = {"n": view.get("deal", 1), "trump": SUIT_SIGNS.get(trump, trump), "talon": talon}
        if trump_card:
            lines = [t("sixtysix.status.deal", lang, card=card_text(trump_card), **deal)]
        else:  # taken with the last draw: nothing to name (it read "(card —)")
            lines = [t("sixtysix.status.deal_gone", lang, **deal)]
        # the trick on the table and the marriages shown are in the picture
        # and the last events; the words keep the deal, the talon and the score
        tricks = view.get("tricks") or {}
        points = view.get("game_points") or {}
        target = (view.get("options") or {}).get("target", 7)
        lines.append(
            t(
                "sixtysix.status.score",
                lang,
                table=t("list.dot", lang).join(
                    t(
                        "sixtysix.status.player",
                        lang,
                        player=p,
                        tricks=t("unit.trick", lang, count=tricks.get(p, 0)),
                        points=points.get(p, 0),
                        target=target,
                    )
                    for p in players
                ),
            )
        )
        if view.get("carry"):  # rare: deals without a score before this one
            lines.append(t("sixtysix.status.carry", lang, count=view["carry"]))
        if view.get("phase") == "speak":  # the deal's last moment
            lines.append(t("sixtysix.status.speak", lang))
        return "\n".join(lines)

    def describe(self, event: dict[str, Any], lang: str) -> str | None:
        kind = event["kind"]
        data = event.get("data") or {}
        who = event.get("player") or ""
        if kind == "play":
            return t("ev.sixtysix.play", lang, player=who, card=card_text(data["card"]))
        if kind == "marriage":
            return t(
                "ev.sixtysix.marriage",
                lang,
                player=who,
                suit=SUIT_SIGNS[data["suit"]],
                points=data["points"],
            )
        if kind == "exchange":
            return t(
                "ev.sixtysix.exchange",
                lang,
                player=who,
                nine=card_text(data["nine"]),
                card=card_text(data["card"]),
            )
        if kind == "trick":
            cards = " ".join(card_text(c) for _p, c in data.get("cards") or [])
            return t("ev.sixtysix.trick", lang, player=who, cards=cards)
        if kind == "deal":
            return t(
                "ev.sixtysix.deal",
                lang,
                n=data.get("deal"),
                dealer=data.get("dealer"),
                card=card_text(data["trump_card"]),
            )
        if kind == "declare":
            return None  # said with the deal's end: whether it held, and what it scored
        if kind == "deal_end" and data.get("reason") == "declared" and data.get("declarer"):
            declarer = data["declarer"]
            mine = (data.get("card_points") or {}).get(declarer, 0)
            key = "won" if data.get("winner") == declarer else "lost"
            return t(
                f"ev.sixtysix.declared_{key}",
                lang,
                player=declarer,
                points=mine,
                winner=data.get("winner") or "",
                count=data.get("game_points"),
            )
        if kind == "deal_end":
            cp = data.get("card_points") or {}
            points = t("list.sep", lang).join(f"{p} {v}" for p, v in cp.items())
            if data.get("winner") is None:
                return t("ev.sixtysix.no_score", lang, points=points)
            return t(
                "ev.sixtysix.deal_end",
                lang,
                player=data["winner"],
                count=data.get("game_points"),
                points=points,
                reason=t(f"sixtysix.reason.{data.get('reason')}", lang),
            )
        if kind == "draw" and data.get("other"):  # both drew: name them both
            return t("ev.sixtysix.draw_both", lang, player=who, other=data["other"])
        if kind == "start":
            return None
        return super().describe(event, lang)

    def after_move(self, events: list[Event], ui: dict[str, Any]) -> None:
        """A draw names who drew second too (the drawn cards stay private)."""
        for e in events:
            if e.kind == "draw" and e.player:
                other = next(
                    (d.player for d in events if d.kind == "drawn" and d.player != e.player), None
                )
                if other:
                    e.data["other"] = other

    def automatic(self, state: Any, seats: list[dict[str, Any]], ui: dict[str, Any]) -> list[Event]:
        """A person who won a trick while the talon is open draws at once
        (the move ``draw``, in the record as if pressed): drawing is the
        common case and costs no press. Closing instead stays the winner's
        right (docs/rules/sixtysix.md): a player who turned on "Stop before
        drawing" in their hand (``ui["ask_draw"]``) is asked, as before; a
        computer decides for itself."""
        for name in engine.to_move(state):
            if "draw" not in engine.legal_moves(state, name):
                continue
            seat = next((s for s in seats if s.get("name") == name), None)
            if seat is not None and seat.get("bot"):
                return []  # the computer draws or closes itself
            if name in (ui.get(ASK_DRAW) or []):
                return []
            return engine.apply(state, name, "draw")
        return []

    def ui_action(
        self, action: str, view: dict[str, Any], player: str, ui: dict[str, Any]
    ) -> dict[str, Any] | None:
        """The hand's "Stop before drawing" / "Draw by itself" switch."""
        if action != ASK_DRAW:
            return None
        asking = [p for p in ui.get(ASK_DRAW) or [] if p != player]
        if player not in (ui.get(ASK_DRAW) or []):
            asking.append(player)
        new = dict(ui)
        new[ASK_DRAW] = asking
        return new

    def private_settings(
        self, view: dict[str, Any], player: str, ui: dict[str, Any], lang: str
    ) -> list[Control]:
        if view.get("finished") or not talon_open(view):
            return []  # nothing left to draw, so nothing to stop before
        asking = player in (ui.get(ASK_DRAW) or [])
        key = "sixtysix.btn.auto_draw" if asking else "sixtysix.btn.ask_draw"
        return [Button(ASK_DRAW, t(key, lang), "secondary", row=3)]

    def confirm(self, state: Any, player: str, move: str, lang: str) -> Confirm | None:
        """Declaring 66 below 66 loses the deal: the declarer is asked first,
        privately, with their card points (the state knows them). With the
        house option ``show_points`` off the player keeps count alone, so
        every declaration is asked alike and the question tells nothing."""
        if move != "declare" or "declare" not in engine.legal_moves(state, player):
            return None
        p = state.players.index(player)
        if state.options.get("show_points", True):
            if state.points[p] >= GOAL:
                return None
            text = t("sixtysix.confirm.declare", lang, points=state.points[p], goal=GOAL)
        else:
            text = t("sixtysix.confirm.declare_blind", lang, goal=GOAL)
        return text, [
            Button(CONFIRMED + move, t("sixtysix.btn.declare_anyway", lang), "danger", row=0),
            Button(DISMISS, t("ui.btn.cancel", lang), "secondary", row=0),
        ]

    # ----------------------------------------------------------- private

    def private_targets(self, events: list[Event], players: list[str]) -> list[str]:
        """Every move changes both players' DMs (hands, legal moves, and the
        row version in the DM's custom ids)."""
        return list(players)

    def private_lines(self, view: dict[str, Any], lang: str) -> list[str]:
        hand = view.get("hand") or []
        trump = view.get("trump") or ""
        lines = [
            t(
                "sixtysix.private.hand",
                lang,
                n=view.get("deal", 1),
                trump=SUIT_SIGNS.get(trump, trump),
                cards=" ".join(card_text(c) for c in hand) or "—",
            )
        ]
        if view.get("points") is not None:
            lines.append(t("sixtysix.private.points", lang, n=view["points"]))
        moves = view.get("moves") or []
        if view.get("finished"):
            lines.append(t("sixtysix.private.over", lang, winner=view.get("winner") or ""))
        elif [m for m in moves if m != "declare"]:
            phase = view.get("phase")
            trick = view.get("trick") or []
            if phase == "follow" and trick:
                lines.append(t("sixtysix.private.follow", lang, card=card_text(trick[0]["card"])))
            elif phase == "lead" and not talon_open(view):  # no closing, no exchange now
                lines.append(t("sixtysix.private.lead_talon_shut", lang))
            else:
                lines.append(t(f"sixtysix.private.{phase}", lang))
        else:
            lines.append(t("sixtysix.private.wait", lang))
        return lines

    def revealed_lines(self, view: dict[str, Any], player: str, lang: str) -> list[str]:
        hand = view.get("hand") or []
        if not hand:
            return [t("replay.sixtysix.played_out", lang, player=player)]
        cards = " ".join(card_text(c) for c in hand)
        return [t("replay.sixtysix.held", lang, player=player, cards=cards)]

    def private_controls(self, view: dict[str, Any], legal: list[str], lang: str) -> list[Control]:
        out: list[Control] = []
        trump = view.get("trump")
        # one select (Discord needs distinct custom ids): cards, then marriages
        options = [
            (m, self.card_label(m.split()[1], trump, lang)) for m in legal if m.startswith("play ")
        ]
        for m in legal:
            if m.startswith("marry "):
                card = m.split()[1]
                label = t(
                    "sixtysix.option.marry",
                    lang,
                    suit=SUIT_SIGNS[card[1]],
                    points=40 if card[1] == trump else 20,
                    card=card_text(card),
                )
                options.append((m, label))
        if options:
            out.append(Select("m", t("sixtysix.select.play", lang), options, row=0))
        buttons = [
            ("draw", "sixtysix.btn.draw", "primary"),
            ("exchange", "sixtysix.btn.exchange", "primary"),
            (
                "close",
                "sixtysix.btn.close_no_draw" if "draw" in legal else "sixtysix.btn.close",
                "secondary",
            ),
            ("declare", "sixtysix.btn.declare", "success"),
            ("pass", "sixtysix.btn.pass", "secondary"),
        ]
        for move, key, style in buttons:
            if move in legal:
                out.append(Button(f"m:{move}", t(key, lang), style, row=2))
        return out

    def move_label(self, move: str, view: dict[str, Any], lang: str) -> str:
        """As the hand's menu and buttons name it ("Play 10♦", "Marriage ♥
        (20): lead Q♥", "Draw")."""
        verb, *rest = move.split()
        trump = view.get("trump")
        if verb == "play" and rest:
            card = self.card_label(rest[0], trump, lang)
            return t("sixtysix.move.play", lang, card=card)
        if verb == "marry" and rest:
            card = rest[0]
            return t(
                "sixtysix.option.marry",
                lang,
                suit=SUIT_SIGNS[card[1]],
                points=40 if card[1] == trump else 20,
                card=card_text(card),
            )
        if verb == "close":
            moves = view.get("moves") or []
            key = "sixtysix.btn.close_no_draw" if "draw" in moves else "sixtysix.btn.close"
            return t(key, lang)
        if verb in ("draw", "exchange", "declare", "pass"):
            return t(f"sixtysix.btn.{verb}", lang)
        return move

    @staticmethod
    def card_label(card: str, trump: str | None, lang: str) -> str:
        label = card_text(card)
        if card[1] == trump:  # "10♠ (trump)", 「10♠（切り札）」: the language's own spacing
            label = t("sixtysix.option.trump", lang, card=label)
        return label

    def table_image(self, view: dict[str, Any], lang: str) -> tuple[Image.Image, str]:
        return render.table(view, lang)

    def hand_image(self, view: dict[str, Any], lang: str) -> tuple[Image.Image, str]:
        return render.hand(view, lang)

    def result_rows(self, view: dict[str, Any], outcome: dict[str, Any]) -> list[ResultRow]:
        gp = outcome.get("game_points", {})
        order = sorted(view["players"], key=lambda p: -gp.get(p, 0))
        if outcome.get("winner") in order:  # a winner by the other's leaving
            order.remove(outcome["winner"])
            order.insert(0, outcome["winner"])
        return [(p, str(gp.get(p, 0)), None) for p in order]

    def result_notes(
        self, view: dict[str, Any], outcome: dict[str, Any], lang: str
    ) -> dict[str, str]:
        """Each player's game points deal by deal: how each deal they won
        was won (declared 66, the opponent under 33: schneider, no trick:
        schwarz, the opponent's declaration or closing fell short) and the
        points carried over; a win by the other's leaving says so."""
        players = list(view["players"])
        names = view.get("display_names") or {}  # others by the names people know

        def shown(player: str) -> str:
            return str(names.get(player) or player)

        won: dict[str, list[str]] = {p: [] for p in players}
        carry = 0
        for n, deal in enumerate(view.get("deals") or outcome.get("deals") or [], 1):
            winner = deal.get("winner")
            if winner not in won:
                carry += 1  # a deal that scored nothing: the next one earns more
                continue
            awarded = int(deal.get("game_points") or 0)
            why = deal_reason(deal, players, awarded - carry, lang, shown)
            if carry:
                why += t("list.sep", lang) + t("result.sixtysix.carry", lang, count=carry)
            won[winner].append(t("result.sixtysix.deal", lang, n=n, count=awarded, why=why))
            carry = 0
        target = int((view.get("options") or {}).get("target") or 7)
        gp = outcome.get("game_points") or view.get("game_points") or {}
        winner = outcome.get("winner")
        if winner in won and int(gp.get(winner, 0)) < target:  # the other left
            other = next(p for p in players if p != winner)
            won[winner].append(t("result.sixtysix.left", lang, other=shown(other)))
        sep = t("result.sixtysix.sep", lang)
        return {p: sep.join(parts) for p, parts in won.items() if parts}

    def hint_words(self, n: dict[str, Any], view: dict[str, Any], lang: str) -> list[str]:
        lines = [
            t("hint.sixtysix.win", lang, chance=pct(n.get("win_chance")), points=n.get("points"))
        ]
        moves = n.get("moves") or {}
        ranked = sorted(moves.items(), key=lambda mv: -mv[1]["game_points"])
        for move, v in ranked[:MAX_LINES]:
            lines.append(
                t(
                    "hint.sixtysix.move",
                    lang,
                    move=self.move_text(move, view, lang),
                    points=f"{float(v['game_points']):+.2f}",
                    chance=pct(v.get("win_chance")),
                )
            )
        return lines


PLUGIN = Plugin()
