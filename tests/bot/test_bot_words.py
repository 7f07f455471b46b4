"""Every word the players got, as people read it (issue 18, "Names and
notation", "English"): a game of each kind played out in English and in
Japanese by alice and a member whose name has a space ("Bob Smith",
「山田 花子」). Everything they were shown — each version of the table message
with its buttons, menus and picture descriptions, every channel message, every
DM, every answer only they saw (presses, /game status, /hint, /stats,
/leaderboard) — names people as they chose their names (never the seat's
engine name "Bob_Smith") and moves in words (never the engine's notation
"flip 1 9", "keep 2 2", "play 9H", "announce 32"); English buttons are in
English; numbers agree with their nouns."""

from __future__ import annotations

import re
from typing import Any

import pytest
from simtable import accepted, controls, walk

from bot.i18n import t
from games.yahtzee.scoring import BOXES

JAPANESE = re.compile(r"[\u3040-\u30ff\u3400-\u9fff]")
NOTATION = [
    re.compile(r"\b(?:flip|keep|take|announce|roll)\s+\d"),  # flip 1 9, keep 2 2, announce 32
    re.compile(r"\b(?:play|marry)\s+[9TJQKA][SHDC]\b"),  # play 9H
    re.compile(r"(?<![\w#])[9TJQKA][SHDC](?![\w])"),  # a card's code: 9H, QS
    re.compile(r"\bscore\s+(?:" + "|".join(BOXES) + r")\b"),  # score three_kind
    re.compile(r"(?<![\w/])(?:" + "|".join(b for b in BOXES if "_" in b) + r")(?![\w])"),
]
BAD_ENGLISH = [
    re.compile(r"(?<![\d.,])1 (?:games|wins|losses|tricks|dice|cards|points|game points)\b"),
    re.compile(r"\(s\)"),
]

# game, house options, what the players prefer to press on the table
GAMES = [
    ("nine", None, ()),
    ("sixdice", "target=3000 start=500", ("m:stop",)),
    ("yahtzee", None, ()),
    ("bluff", "losses=2", ("m:reveal", "m:roll")),
    ("sixtysix", "target=2 show_points=on", ()),
]
SPACED = {"en": "Bob Smith", "ja": "山田 花子"}


class Seen:
    """Every text the players were shown, with where it came from."""

    def __init__(self, env: Any) -> None:
        self.env = env
        self.texts: list[tuple[str, str]] = []

    def add(self, where: str, text: Any) -> None:
        if text:
            self.texts.append((where, str(text)))

    def message(self, where: str, message: Any) -> None:
        """A message's words as Discord keeps them: its text, its buttons'
        and menus' labels, its pictures' descriptions, its embeds."""
        stored = self.stored(message)
        if stored is None:  # an answer only one person sees
            self.add(where, message.content)
            components = controls(message)
            attachments = [a if isinstance(a, dict) else vars(a) for a in message.attachments]
            embeds = [e if isinstance(e, dict) else e.to_dict() for e in message.embeds]
        else:
            self.add(where, stored.content)
            components = [c for c in walk(stored.components) if c.get("type") in (2, 3)]
            attachments, embeds = stored.attachments, stored.embeds
        for c in components:
            self.add(where + " button", c.get("label"))
            self.add(where + " menu", c.get("placeholder"))
            for o in c.get("options", []):
                self.add(where + " option", o.get("label"))
                self.add(where + " option", o.get("description"))
        for a in attachments:
            self.add(where + " picture", a.get("description"))
        for e in embeds:
            self.add(where + " embed", e.get("title"))
            self.add(where + " embed", e.get("description"))
            for f in e.get("fields", []):
                self.add(where + " embed", f.get("name"))
                self.add(where + " embed", f.get("value"))

    def stored(self, message: Any) -> Any:
        channel = getattr(message, "channel_id", None) or getattr(
            getattr(message, "channel", None), "id", None
        )
        try:
            return self.env.backend.get_message(int(channel), int(message.id))
        except Exception:
            return None

    def answer(self, where: str, res: Any) -> None:
        """A press's or command's answers (the table's edit included)."""
        if res is None:
            return
        if res.response is not None:
            self.message(where, res.response)
        for f in res.followups or []:
            self.message(where + " followup", f)


async def sixtysix_move(night: Any, user: Any, lang: str) -> Any:
    """A Sixty-Six move from the player's DM: declare at 66, pass, draw, a
    marriage, else the first card."""
    hand = night.hand(user)
    points = hand.reading("sixtysix.private.points", lang)
    if "m:declare" in hand.actions and points and int(points["n"]) >= 66:
        return await hand.act("m:declare")
    for word in ("m:pass", "m:exchange", "m:draw"):
        if word in hand.actions:
            return await hand.act(word)
    values = [o["value"] for o in hand.selects[0]["options"]]
    return await hand.choose(next((v for v in values if v.startswith("marry")), values[0]))


def breaks(texts: list[tuple[str, str]], lang: str, engine_name: str) -> list[str]:
    out = []
    for where, text in texts:
        if engine_name in text:
            out.append(f"{where}: the engine name {engine_name!r}: {text}")
        for p in NOTATION:
            if m := p.search(text):
                out.append(f"{where}: notation {m.group(0)!r}: {text}")
        if lang == "en":
            for p in BAD_ENGLISH:
                if m := p.search(text):
                    out.append(f"{where}: {m.group(0)!r}: {text}")
            if where.endswith(("button", "menu", "option")) and JAPANESE.search(text):
                out.append(f"{where}: Japanese on an English control: {text}")
    return out


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize(("game", "options", "prefer"), GAMES, ids=[g[0] for g in GAMES])
async def test_every_word_of_a_played_out_game(game_night, game, options, prefer, lang):
    spaced = SPACED[lang]
    engine_name = spaced.replace(" ", "_")
    locales = {"alice": lang, spaced: lang}
    async with game_night(seeded=True, locales=locales) as night:
        alice, other = night.alice, night.member(spaced)
        table = await night.table(game, players=[alice, other], options=options, lang=lang)
        seen = Seen(night.env)
        seen.message("table", table.message)
        step = 0
        while not table.over:
            step += 1
            assert step < 400, "the game did not end"
            who = table.mover
            if step in (2, 7):  # what a player asks along the way
                seen.answer("/game status", await table.command(other, "game status"))
                if game in ("nine", "sixdice", "bluff"):
                    seen.answer("/hint", await table.command(who, "hint"))
            if game == "sixtysix":
                res = await sixtysix_move(night, who, lang)
            else:
                res = await table.play(by=who, prefer=prefer)
            accepted(res)
            seen.answer(f"press {step}", res)
            seen.message(f"table {step}", table.message)
            for m in table.history():
                seen.message(f"channel {step}", m)
            for user in (alice, other):
                for m in night.dms(user):
                    seen.message(f"DM {step}", m)
        assert table.shows("result.title", lang, game=t(f"game.{game}", lang)), table.content
        seen.message("result", table.message)
        seen.answer("/stats", await table.command(other, "stats"))
        for by in ("points", "wins", "rating", "best"):
            seen.answer(
                f"/leaderboard {by}", await table.command(alice, "leaderboard", game=game, by=by)
            )
        assert spaced in "\n".join(text for _w, text in seen.texts)  # the name as chosen
        found = breaks(seen.texts, lang, engine_name)
        assert not found, "\n".join(dict.fromkeys(found))
