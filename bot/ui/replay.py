"""The replay viewer of a finished game: one step of its record at a time.

Step 0 is the game as dealt; step ``k`` is the game after the record's
``k``-th move. Each step is drawn from the engine's **public** view at that
step (:func:`bot.pictures.table_picture`) with the public event lines of
the move that led to it, each person by the display name of their seat. The
record is replayed from its own dice and decks, nothing else: what it shows
is only what the record holds.

Hidden information (a game whose spec has secrets: dice under a cup,
hands) appears at the last step only, and only because the game is over:
each player's private lines as their own view at the end gives them.
Before the last step nothing but the public view is drawn or written.

The message is ephemeral and its controls carry only the result id and a
step (``cr:<result>:replay:<step>:<slot>``, a select ``cq:<result>:replay``
whose values are steps), so it works after a restart: every press replays
the record again to the step asked for and edits the message in place.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from typing import Any

import discord

from bot import pictures
from bot.games import plugin
from bot.i18n import t
from bot.ui.components import ResultButton, ResultSelect
from bot.ui.controls import MAX_OPTIONS
from bot.ui.present import displayed, game_title, seat_picture_names
from games import registry
from games.core import Record, ScriptedSource
from games.review import has_review, reviewer_of

ACTION = "replay"


@dataclass
class Step:
    """One step of a replay, as the viewer shows it."""

    number: int  # 0 = the deal; k = after the k-th move
    last: int  # the last step's number (the moves in the record)
    view: dict[str, Any]  # the public view at this step
    lines: list[str]  # the move's public events in words
    mover: str | None  # who made the move (display name), None at step 0
    hidden: list[str] = field(default_factory=list)  # at the last step only
    # (step, label) per turn: where each player's turn starts
    turns: list[tuple[int, str]] = field(default_factory=list)


def names_of(result: dict[str, Any]) -> dict[str, str]:
    """Engine name → display name, from the stored seats (or the places)."""
    names = {p["name"]: p["name"] for p in result.get("players", [])}
    for seat in result.get("seats") or []:
        names[seat["name"]] = str(seat.get("display") or seat["name"])
    return names


def step_of(result: dict[str, Any], number: int, lang: str) -> Step:
    """Replay ``result``'s record to step ``number`` (clamped to the game)."""
    record = Record.from_json(result["record"])
    eng = registry.engine(record.game)
    the = plugin(record.game)
    names = names_of(result)
    last = len(record.moves)
    number = max(0, min(number, last))
    source = ScriptedSource(record.dice, record.decks, record.mishaps)
    state = eng.new_game(record.players, record.options, record.dealer, source)
    at_step: Any = None
    lines: list[str] = []
    mover: str | None = None
    turns: list[tuple[int, str]] = []
    previous: str | None = None
    if number == 0:
        at_step = eng.view(state, None)
    reviewer = reviewer_of(record) if has_review(record.game) else None
    for k, text in enumerate(record.moves, start=1):
        player, _, move = text.partition(" ")
        if player != previous:
            n = len(turns) + 1
            who = names.get(player, player)
            if reviewer is not None:  # where the review names a mistake: "Round 6", "Game 3"
                _, fields = reviewer.moment(eng.view(state, player), player, record.moves[:k])
                at = t(f"replay.at.{record.game}", lang, **fields)
                turns.append((k, t("replay.turn_at", lang, n=n, player=who, at=at)))
            else:
                turns.append((k, t("replay.turn", lang, n=n, player=who)))
            previous = player
        events = eng.apply(state, player, move)
        if k == number:
            at_step = eng.view(state, None)
            mover = names.get(player, player)
            for event in events:
                if not event.public or (k == last and says_only_over(the, event.kind, lang)):
                    continue  # the last step says "The game is over" once, below
                line = the.describe(displayed(event.to_json(), names), lang)
                if line:
                    lines.append(line)
    hidden: list[str] = []
    if number == last and registry.spec(record.game).secrets:
        # the game is over: what each player held, in the third person under
        # their name (never their own DM's "your hand" under another's name)
        for p in record.players:
            hidden.extend(the.revealed_lines(eng.view(state, p), names.get(p, p), lang))
    return Step(number, last, at_step, lines, mover, hidden, turns)


def says_only_over(the: Any, kind: str, lang: str) -> bool:
    """Whether the event ``kind`` reads as a bare "the game is over" (no
    winner, no figure in it): the replay's last step says that itself."""
    if kind != "game_over":
        return False
    for key in (f"ev.{the.game}.{kind}", f"ev.{kind}"):
        text = t(key, lang)
        if text != key:
            return "{" not in text
    return True


def text_of(result: dict[str, Any], step: Step, lang: str) -> str:
    """The step in words: title, position, the move's events, the end."""
    out = [
        t(
            "replay.title",
            lang,
            game=game_title(result["game"], lang),
            id=result["id"],
            step=step.number,
            last=step.last,
        )
    ]
    if step.number == 0:
        out.append(t("replay.start", lang))
    elif not step.lines:
        out.append(t("replay.moved", lang, player=step.mover or ""))
    out.extend("• " + line for line in step.lines)
    if step.number == step.last:
        out.append(t("replay.end", lang))
        if step.hidden:
            out.append(t("replay.revealed", lang))
            out.extend(step.hidden)
    return "\n".join(out)


def controls(result_id: int, step: Step, lang: str) -> discord.ui.View:
    """◀ ▶, jump to the start or the end, and a select of turns around here."""
    view = discord.ui.View(timeout=None)
    n, last = step.number, step.last
    for slot, to, label, off in (
        ("first", 0, "⏮", n == 0),
        ("prev", n - 1, "◀", n == 0),
        ("next", n + 1, "▶", n >= last),
        ("end", last, "⏭", n >= last),
    ):
        view.add_item(
            ResultButton.build(
                result_id, ACTION, label, arg=f"{max(0, to)}:{slot}", row=0, disabled=off
            )
        )
    chapters = [(0, t("replay.deal", lang))] + step.turns
    if len(chapters) > 1:
        # the turns around the current step (a select holds 25 options)
        here = max(i for i, (s, _label) in enumerate(chapters) if s <= n)
        lo = max(0, min(here - MAX_OPTIONS // 2, len(chapters) - MAX_OPTIONS))
        window = chapters[lo : lo + MAX_OPTIONS]
        options = [
            discord.SelectOption(label=label[:100], value=str(s), default=(i + lo == here))
            for i, (s, label) in enumerate(window)
        ]
        view.add_item(
            ResultSelect.build(result_id, ACTION, t("replay.choose", lang), options, row=1)
        )
    return view


def message(result: dict[str, Any], number: int, lang: str) -> dict[str, Any]:
    """The viewer at step ``number``: keyword arguments for a send or an
    edit (``content``, ``attachments``, ``view``)."""
    step = step_of(result, number, lang)
    files = []
    # a computer in a removed person's seat drawn by that person's name
    names = {**names_of(result), **seat_picture_names(result.get("seats") or [], lang)}
    picture = pictures.table_picture(step.view, lang=lang, names=names)
    if picture is not None:
        files.append(
            discord.File(io.BytesIO(picture.png), picture.filename, description=picture.alt)
        )
    return {
        "content": text_of(result, step, lang),
        "attachments": files,
        "view": controls(int(result["id"]), step, lang),
        "allowed_mentions": discord.AllowedMentions.none(),
    }
