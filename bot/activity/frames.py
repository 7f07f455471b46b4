"""What an Activity's socket is sent: the table as one viewer may see it, in
their language (``docs/activity.md`` "Protocol").

A frame is built from the stored row (and the engine state of the commit
that announced it) for one *viewer seat* — a seat's engine name, or ``None``
for everyone without a seat — and one language; the hub builds it once per
distinct (seat, language) and sends the same text to every socket of that
kind. Only a seat's own frame holds its view (``engine.view(state, seat)``),
its private lines and its controls; the public frame is built from the
public view alone.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from bot.games import plugin
from bot.i18n import catalogue, t
from bot.model import CPU_ADD, CPU_REMOVE, LEVELS, is_cpu, message_link
from bot.tables.rows import TableRow
from bot.ui import present, result_words
from bot.ui.controls import Button, Control, Select, Standing, movers_only, waiting_for_computer
from games import registry

LOG_LINES = 8  # the log lines a frame carries (the table message shows 3)
WORDS = "activity."  # the catalogue entries the client is given


@dataclass
class Shown:
    """What a frame is drawn from: a stored row, its engine state, and how
    the commit left it (``kind``: ``live``, ``finished``, ``ended``)."""

    row: TableRow
    state: Any = None
    kind: str = "live"
    standings: list[Standing] = field(default_factory=list)
    result_id: int | None = None


def words(lang: str) -> dict[str, str]:
    """Every ``activity.*`` entry of the catalogue in ``lang``."""
    return {k: v for k, v in catalogue(lang).items() if k.startswith(WORDS)}


def iso(when: float | None) -> str | None:
    if when is None:
        return None
    return dt.datetime.fromtimestamp(when, dt.UTC).isoformat(timespec="seconds")


def move_list(controls: list[Control]) -> list[dict[str, str]]:
    """Controls as the Activity's moves: a button's action, a select's
    options as ``m:<value>`` (a select's value is the move), grouped under
    its placeholder; disabled ones and the "show" button left out (the
    Activity shows the hand)."""
    out: list[dict[str, str]] = []
    for c in controls:
        if c.disabled:
            continue
        if isinstance(c, Select):
            out += [
                {"move": f"m:{value}", "label": label, "group": c.placeholder, "style": "secondary"}
                for value, label in c.options
            ]
        elif isinstance(c, Button) and c.action != "show":
            out.append({"move": c.action, "label": c.label, "group": "", "style": c.style})
    return out


def _controls(row: TableRow, state: Any, seat: str, lang: str) -> list[Control]:
    """The controls ``seat`` has on the chat table and in their private
    message, as those draw them: the table's only while it is their turn
    (or a move open to anyone, greyed while a computer thinks), their DM's
    from their own view."""
    eng = registry.engine(row.game)
    the = plugin(row.game)
    legal = eng.legal_moves(state, seat)
    movers = eng.to_move(state)
    out: list[Control] = []
    if movers:
        mover = movers[0]
        public = eng.view(state, None)
        table = the.controls(public, mover, eng.legal_moves(state, mover), row.ui, lang)
        names = {s["name"]: s for s in row.seats}
        if all(is_cpu(names.get(m)) for m in movers):
            people = [s["name"] for s in row.seats if not is_cpu(s)]
            table = waiting_for_computer(
                table, {m for p in people for m in eng.legal_moves(state, p)}
            )
        mine = seat in movers
        for c in table:
            if movers_only(c) and not mine:
                # another's turn: only a move open to this seat too (Declare 66)
                if not (c.action.startswith("m:") and c.action[2:] in legal):
                    continue
            out.append(c)
    if legal or the.private_settings(eng.view(state, seat), seat, row.ui, lang):
        own = eng.view(state, seat)
        out += the.private_controls(own, legal, lang)
        out += the.private_settings(own, seat, row.ui, lang)
    seen: set[str] = set()
    unique: list[Control] = []
    for c in out:  # Declare 66 is on the table and in the hand: once
        key = c.action if isinstance(c, Button) else f"{c.action}|{c.placeholder}"
        if key not in seen:
            seen.add(key)
            unique.append(c)
    return unique


def none_frame(lang: str | None) -> dict[str, Any]:
    """No table in the channel; to a proven user (``lang``: theirs) the
    games they may open there (``None``: nobody proven, no offer)."""
    if lang is None:
        return {"op": "none"}
    return {"op": "none", "games": [{"name": g, "label": t(f"game.{g}", lang)}
                                    for g in registry.names()]}  # fmt: skip


def lobby_moves(row: TableRow, seat: str | None, may_join: bool, lang: str) -> list[Control]:
    """The lobby's buttons ``seat`` may press (``may_join``: a proven user
    without a seat): Join while a seat is free; Leave when seated; the host's
    Start (enough players), Add computer (a seat free), Remove computer and
    Cancel. The lobby decides each press again (:meth:`bot.lobby.Lobby.act`)."""
    spec = registry.spec(row.game)
    free = len(row.seats) < spec.max_players
    if seat is None:
        return [Button("join", t("lobby.btn.join", lang), "success")] if may_join and free else []
    out: list[Control] = [Button("leave", t("lobby.btn.leave", lang), "secondary")]
    host = next((s["name"] for s in row.seats if s["id"] == row.host_id), None)
    if seat != host:
        return out
    if len(row.seats) >= spec.min_players:
        out.insert(0, Button("start", t("lobby.btn.start", lang), "primary"))
    if spec.ai is not None:
        if free:
            out += [Button(f"{CPU_ADD}{level}", t(f"lobby.btn.cpu_{level}", lang), "secondary")
                    for level in LEVELS]  # fmt: skip
        if any(is_cpu(s) for s in row.seats):
            out.append(Button(CPU_REMOVE, t("lobby.btn.cpu_remove", lang), "secondary"))
    out.append(Button("cancel", t("lobby.btn.cancel", lang), "danger"))
    return out


def table_frame(
    shown: Shown, seat: str | None, lang: str, now: float | None = None, *, may_join: bool = False
) -> dict[str, Any]:
    """The ``table`` frame of ``shown`` for ``seat`` (``None``: the public);
    ``now``: the bot's clock (unix seconds), to count the deadline from;
    ``may_join``: a lobby offers Join (a proven user without a seat)."""
    row = shown.row
    eng = registry.engine(row.game)
    the = plugin(row.game)
    names = present.shown_names(row)
    state = shown.state
    if state is None and row.state is not None:
        state = eng.from_json(row.state)
    phase = "lobby" if row.phase == "lobby" else "playing"
    if shown.kind in ("finished", "ended"):
        phase = shown.kind
    public = eng.view(state, None) if state is not None else {}
    gone = present.gone_players(row, public) if state is not None else set()
    players = [
        {
            "name": s["name"],
            "display": names[s["name"]],
            "id": None if is_cpu(s) else str(s["id"]),
            "cpu": is_cpu(s),
            "out": s["name"] in gone,
        }
        for s in row.seats
    ]
    frame: dict[str, Any] = {
        "op": "table",
        "table": row.id,
        "version": row.version,
        "game": row.game,
        "game_name": t(f"game.{row.game}", lang),
        "terms": the.terms(lang),
        "phase": phase,
        "players": players,
        "you": seat,
        "turn": [],
        "status": None,
        "scores": [],
        "deadline": None,
        "now": iso(now),
        "log": [line.removeprefix("• ") for line in present.log_lines(row, lang, LOG_LINES)],
        "view": {},
        "private": [],
        "moves": [],
        "finished": phase in ("finished", "ended"),
        "result": [],
        "links": {},
    }
    if state is None:  # a lobby: its seats and buttons, nothing to play yet
        if phase == "lobby":
            frame["moves"] = move_list(lobby_moves(row, seat, may_join, lang))
        return frame
    view = eng.view(state, seat)
    frame["view"] = the.picture_view(view, row.ui)
    outcome = eng.outcome(state)
    frame["scores"] = [
        {"name": p, "text": result_words.figure_text(row.game, figure, lang) or figure}
        for p, figure, _settled in the.result_rows(public, outcome)
    ]
    if seat is not None and registry.spec(row.game).secrets:
        frame["private"] = the.private_lines(present.displayed(view, names), lang)
    if phase == "playing":
        frame["turn"] = list(eng.to_move(state))
        frame["status"] = the.status_line(present.displayed(public, names), lang)
        if row.clock.get("player"):
            frame["deadline"] = iso(row.deadline)
        if seat is not None and seat not in gone:
            frame["moves"] = move_list(_controls(row, state, seat, lang))
        return frame
    frame["result"] = result_lines(shown, lang)
    if shown.result_id is not None and row.message_id is not None:
        url = message_link(row.guild_id, row.channel_id, row.message_id)
        frame["links"] = {"review": url, "replay": url}
    return frame


def result_lines(shown: Shown, lang: str) -> list[str]:
    """A finished game's places in words (as the result message's lines,
    without Discord's markdown), or the line that says it ended without one."""
    row = shown.row
    names = present.shown_names(row)
    if shown.kind == "ended":
        return [t("activity.ended", lang, game=t(f"game.{row.game}", lang))]
    eng = registry.engine(row.game)
    state = shown.state if shown.state is not None else eng.from_json(row.state or {})
    view = eng.view(state, None)
    outcome = eng.outcome(state)
    shown_view = dict(view, display_names=names)
    notes = result_words.notes_of(shown_view, outcome, lang)
    figures = result_words.figures_of(view, outcome)
    lines = []
    for s in shown.standings:
        points = result_words.place_text(
            s.points, row.game, lang, figure=figures.get(s.player), note=notes.get(s.player)
        )
        key = "activity.place_won" if s.won else "activity.place"
        lines.append(t(key, lang, rank=s.rank, player=names.get(s.player, s.player), points=points))
    return lines


def ask_frame(row: TableRow, text: str, controls: list[Control]) -> dict[str, Any]:
    """A question before a move, for the asker's socket alone."""
    return {
        "op": "ask",
        "table": row.id,
        "version": row.version,
        "text": text,
        "moves": move_list(controls),
    }


def error_frame(key: str, lang: str, text: str | None = None, **args: Any) -> dict[str, Any]:
    return {"op": "error", "key": key, "text": text if text is not None else t(key, lang, **args)}
