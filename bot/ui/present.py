"""The table message: words, picture and controls, drawn from a table row.

Public text comes only from the public view, public events and the seats —
never from the state itself — so nothing secret reaches the channel.
"""

from __future__ import annotations

import io
import logging
import re
from dataclasses import dataclass, field
from typing import Any

import discord

from bot import pictures
from bot.games import plugin
from bot.i18n import t
from bot.model import CPU_ADD, CPU_REMOVE, LEVELS, is_cpu, seat_named
from bot.tables.rows import TableRow
from bot.turns import LOBBY_IDLE, MAX_IDLE, WARN_BEFORE
from bot.ui import result_words
from bot.ui.components import build_view, ended_view, result_view
from bot.ui.controls import (
    MAX_OPTIONS,
    RESULT_ACTIONS,
    Button,
    Control,
    Select,
    Standing,
    waiting_for_computer,
)
from games import registry
from games.core import Outcome, seed_hash

log = logging.getLogger(__name__)

CPU_NAME = re.compile(r"CPU\d+")  # a computer's own engine name (not a seat it took)

# The table message is short: the turn, a status line or two, the last few
# events in words, the clock; the picture shows the rest, and the whole
# history is in ``/game status`` and the record.
LOG_LINES = 3
NOTICES = ("timeout", "timeout_removed")  # events kept in view a little longer
# a seat leaving the game: kept in view while the table keeps the line
DEPARTURES = ("forfeit", "kicked", "kicked_cpu", "timeout_removed")
SAYS_FORFEIT = ("kicked", "timeout_removed")  # notes whose forfeit needs no line of its own
PASSIVE = ("start", "turn", *DEPARTURES)  # events that name a player who did not act

# a tournament's match (ui key, bot.lobby.Lobby.open_seated): its result
# offers none of these buttons (the next match is the event's to pair)
TOURNAMENT = "tournament"
NOT_IN_EVENT = ("rematch",)

# /game end of a running game (bot.presses.Presses.end): who agreed, and how it ended
END_VOTES = "end_votes"  # ui: user id → when they agreed to end the game
END_WINDOW = LOBBY_IDLE  # seconds an agreement stands
ENDED = "ended"  # ui: how /game end ended the game
AGREED = "agreed"  # every person still playing agreed: a result as usual
NO_CONTEST = "no_contest"  # the host or a manager alone: no winner, unrated
REPAIRED = "repaired"  # a tournament's organiser paired the round again: closed


@dataclass
class TableMessage:
    content: str
    files: list[discord.File] = field(default_factory=list)
    view: discord.ui.View | None = None

    def edit_kwargs(self) -> dict[str, Any]:
        return {
            "content": self.content,
            "attachments": self.files,
            "view": self.view,
            "allowed_mentions": discord.AllowedMentions(users=True, roles=False, everyone=False),
        }

    def send_kwargs(self) -> dict[str, Any]:
        kwargs: dict[str, Any] = {
            "content": self.content,
            "files": self.files,
            "allowed_mentions": discord.AllowedMentions(users=True, roles=False, everyone=False),
        }
        if self.view is not None:
            kwargs["view"] = self.view
        return kwargs


def game_title(game: str, lang: str) -> str:
    return t(f"game.{game}", lang)


def seat_line(seat: dict[str, Any]) -> str:
    if seat.get("bot"):  # a computer player: its plain label, e.g. "CPU1 (strong)"
        return str(seat.get("display") or seat["name"])
    return f"<@{seat['id']}>"


def lobby_message(row: TableRow, lang: str) -> TableMessage:
    eng = registry.engine(row.game)
    players = t("list.sep", lang).join(seat_line(s) for s in row.seats) or "—"
    options = " ".join(f"{k}={_opt(v)}" for k, v in row.options.items() if _is_changed(eng, k, v))
    lines = [
        t("lobby.title", lang, game=game_title(row.game, lang)),
        t("lobby.host", lang, host=f"<@{row.host_id}>"),
        t(
            "lobby.players",
            lang,
            players=players,
            count=len(row.seats),
            max=eng.MAX_PLAYERS,
            status=head_count(len(row.seats), eng.MIN_PLAYERS, lang),
        ),
    ]
    waiting = row.ui.get("rematch", {}).get("invited", [])
    if waiting:  # a rematch: the last game's players, until they press Join
        invited = t("list.sep", lang).join(f"<@{p['id']}>" for p in waiting)
        lines.append(t("lobby.invited", lang, players=invited))
    if options:
        lines.append(t("lobby.options", lang, options=options))
    if row.seed:
        lines.append(seed_line(row, lang))
    lines.append(t("lobby.hint", lang))
    controls: list[Control] = [
        Button("join", t("lobby.btn.join", lang), "success", row=0),
        Button("leave", t("lobby.btn.leave", lang), "secondary", row=0),
        Button("start", t("lobby.btn.start", lang), "primary", row=0),
        Button("cancel", t("lobby.btn.cancel", lang), "danger", row=0),
        *cpu_controls(row, lang),  # add / remove computer players
    ]
    return TableMessage("\n".join(lines), [], build_view(row.id, row.version, controls))


def head_count(seated: int, least: int, lang: str) -> str:
    """What the lobby's head-count means: "1 more needed to start", or "ready"."""
    if seated < least:
        return t("lobby.need", lang, count=least - seated)
    return t("lobby.ready", lang)


def cpu_controls(row: TableRow, lang: str) -> list[Control]:
    """The lobby's second row: add a computer player at a strength, remove one
    (games with an AI only)."""
    if registry.spec(row.game).ai is None:
        return []
    out: list[Control] = [
        Button(f"{CPU_ADD}{level}", t(f"lobby.btn.cpu_{level}", lang), "secondary", row=1)
        for level in LEVELS
    ]
    if any(is_cpu(s) for s in row.seats):
        out.append(Button(CPU_REMOVE, t("lobby.btn.cpu_remove", lang), "secondary", row=1))
    return out


def mention(user_id: int | None) -> str | None:
    """A person's mention, or ``None`` when nobody did it (the clock, the
    bot itself): never ``<@None>``."""
    return None if user_id is None else f"<@{user_id}>"


def cancelled_message(row: TableRow, lang: str, *, by: int | None) -> TableMessage:
    game = game_title(row.game, lang)
    user = mention(by)
    if user is None:  # closed by the bot itself (its lobby could not be shown)
        return TableMessage(t("lobby.cancelled_nobody", lang, game=game))
    return TableMessage(t("lobby.cancelled", lang, game=game, user=user))


def expired_message(row: TableRow, lang: str) -> TableMessage:
    """A lobby nobody started in time."""
    text = t("lobby.expired", lang, game=game_title(row.game, lang), minutes=LOBBY_IDLE // 60)
    return TableMessage(text)


async def abandoned_message(row: TableRow, lang: str, *, by: int | None) -> TableMessage:
    """A game ended without a settlement (its rules have none "as it stands"):
    the standings as they stood (where the game counts any yet), the table
    as it stood, without controls, and the seed to verify."""
    game = game_title(row.game, lang)
    user = mention(by)
    if row.ui.get(ENDED) == REPAIRED:  # its tournament's round was paired again
        round_no = (row.ui.get(TOURNAMENT) or {}).get("round", "?")
        lines = [t("result.repaired", lang, game=game, user=user or "?", round=round_no)]
    elif user is None:  # the turn clock ended it: nobody played (or could reach it)
        lines = [t("result.abandoned_idle", lang, game=game, n=MAX_IDLE)]
    else:
        lines = [t("result.abandoned", lang, game=game, user=user)]
    files: list[discord.File] = []
    if row.state is not None:
        eng = registry.engine(row.game)
        state = eng.from_json(row.state)
        lines.extend(standing_lines(row, eng.settle(state), lang))
        files = await picture_files(eng.view(state, None), lang, row)
    view = None
    if row.seed:  # the seed is under its 🔑 Seed button, as under a result
        lines.append(result_seed_line(row, lang))
        if row.id is not None:
            view = ended_view(row.id, t("result.btn.fair", lang))
    return TableMessage("\n".join(lines), files, view)


def standing_lines(row: TableRow, outcome: Outcome, lang: str) -> list[str]:
    """The places of an unfinished game as they stand, nobody marked as the
    winner; none while nobody has a point (Nine settles only at the end)."""
    if not any(outcome.points.values()):
        return []
    names = {s["name"]: s for s in row.seats}
    lines = [t("result.header_as_it_stood", lang)]
    for s in plugin(row.game).standings(outcome, row.ui):
        seat = names.get(s.player)
        who = seat_line(seat) if seat else s.player
        points = points_text(s.points, row.game, lang)
        lines.append(t("result.line", lang, rank=s.rank, player=who, points=points))
    return lines


async def table_message(row: TableRow, lang: str, state: Any = None) -> TableMessage:
    """The live table: turn, last moves in words, picture, legal controls.
    ``state``: the row's state already loaded (read only), else loaded here."""
    assert row.state is not None
    eng = registry.engine(row.game)
    ui = plugin(row.game)
    if state is None:
        state = eng.from_json(row.state)
    view = eng.view(state, None)
    names = {s["name"]: s for s in row.seats}
    lines = [t("table.title", lang, game=game_title(row.game, lang))]
    movers = eng.to_move(state)
    controls: list[Control] = []
    if movers:
        mover = movers[0]
        seat = names.get(mover)
        mention = seat_line(seat) if seat else mover
        controls = ui.controls(view, mover, eng.legal_moves(state, mover), row.ui, lang)
        if all(is_cpu(names.get(m)) for m in movers):  # a computer thinks: its moves greyed
            people = [s["name"] for s in row.seats if not is_cpu(s)]
            open_moves = {m for p in people for m in eng.legal_moves(state, p)}
            controls = waiting_for_computer(controls, open_moves)
        show = next((c for c in controls if isinstance(c, Button) and c.action == "show"), None)
        if ui.plays_in_private and show is not None:  # moves are made from the hand
            lines.append(t("table.turn_private", lang, player=mention, button=show.label))
        else:
            lines.append(t("table.turn", lang, player=mention, name=mover))
        status = ui.status_line(displayed(view, shown_names(row)), lang)
        if status:
            lines.append(status)
        lines.extend(end_vote_lines(row, view, lang))
    lines.extend(seat_mark_line(row, view, lang))
    lines.extend(log_lines(row, lang))
    lines.extend(clock_lines(row, lang))
    if row.seed:
        lines.append(seed_line(row, lang))
    files = await picture_files(view, lang, row)
    return TableMessage("\n".join(lines), files, build_view(row.id, row.version, controls))


async def plain_message(row: TableRow, lang: str) -> TableMessage:
    """A fallback table message: title, turn and controls, no log, no picture."""
    eng = registry.engine(row.game)
    lines = [t("table.title", lang, game=game_title(row.game, lang))]
    controls: list[Control] = []
    if row.state is not None:
        state = eng.from_json(row.state)
        movers = eng.to_move(state)
        names = {s["name"]: s for s in row.seats}
        if movers:
            seat = names.get(movers[0])
            lines.append(t("table.turn", lang, player=seat_line(seat) if seat else movers[0]))
            legal = eng.legal_moves(state, movers[0])
            the = plugin(row.game)
            if the.has_private_controls:
                # a game with secrets: its legal moves name hidden cards, so
                # only its public controls (from the public view) go here
                view = eng.view(state, None)
                controls = the.controls(view, movers[0], legal, row.ui, lang)
            elif legal:
                options = [(m, _label(the, m, state, eng, lang)) for m in legal[:MAX_OPTIONS]]
                controls = [Select("m", t("ui.choose_move", lang), options)]
    return TableMessage("\n".join(lines), [], build_view(row.id, row.version, controls))


async def result_message(
    row: TableRow,
    lang: str,
    standings: list[Standing],
    *,
    ended_by: int | None = None,
    result_id: int | None = None,
) -> TableMessage:
    """The finished game: places and settlement, and the seed to verify."""
    assert row.state is not None
    eng = registry.engine(row.game)
    state = eng.from_json(row.state)
    view = eng.view(state, None)
    names = {s["name"]: s for s in row.seats}
    lines = [t("result.title", lang, game=game_title(row.game, lang))]
    ended = row.ui.get(ENDED)  # how /game end ended it, if it did
    no_contest = ended == NO_CONTEST
    if ended_by is not None:
        key = {AGREED: "result.ended_agreed", NO_CONTEST: "result.no_contest"}.get(
            str(ended), "result.ended_by"
        )
        lines.append(t(key, lang, user=mention(ended_by)))
    lines.extend(log_lines(row, lang))
    lines.append(t("result.header_as_it_stood" if no_contest else "result.header", lang))
    if no_contest:  # the game's own figures as they stood (Six Dice: the scores)
        the = plugin(row.game)
        for rank, (player, figure, _settled) in enumerate(
            the.result_rows(view, eng.outcome(state)), 1
        ):
            seat = names.get(player)
            who = seat_line(seat) if seat else player
            shown = result_words.figure_text(row.game, figure, lang) or figure
            lines.append(t("result.line", lang, rank=rank, player=who, points=shown))
        standings = []
    outcome = eng.outcome(state)
    shown = dict(view, display_names=shown_names(row))  # others by their display names
    notes = result_words.notes_of(shown, outcome, lang) if standings else {}
    figures = result_words.figures_of(view, outcome) if standings else {}
    for s in standings:
        seat = names.get(s.player)
        who = seat_line(seat) if seat else s.player
        key = "result.line_win" if s.won else "result.line"
        points = result_words.place_text(
            s.points, row.game, lang, figure=figures.get(s.player), note=notes.get(s.player)
        )
        lines.append(t(key, lang, rank=s.rank, player=who, points=points))
    if row.ui.get("hints"):  # players who asked /hint
        used = [seat_line(names[p]) if p in names else p for p in sorted(row.ui["hints"])]
        lines.append(t("result.hints", lang, players=t("list.sep", lang).join(used)))
    if row.seed:
        lines.append(result_seed_line(row, lang))
    if no_contest:  # nobody won: the table as it stood, not a winner's picture
        files = await picture_files(dict(view, winner=None), lang, row)
    else:
        files = await result_files(row, view, eng.outcome(state), lang)
    view_ = None
    if result_id is not None:  # the buttons under the result (record, rematch…)
        left_out = NOT_IN_EVENT if TOURNAMENT in row.ui else ()
        offered = [a for a in RESULT_ACTIONS if a.action not in left_out]
        view_ = result_view(result_id, {a.action: t(a.label_key, lang) for a in offered})
    return TableMessage("\n".join(lines), files, view_)


async def result_files(
    row: TableRow, view: dict[str, Any], outcome: dict[str, Any], lang: str
) -> list[discord.File]:
    """The result picture; none if it fails (the words carry everything, and
    a missing picture must not lose a result)."""
    try:
        picture = await pictures.draw_cheapest(
            f"{row.game}-result",
            pictures.result_picture,
            view,
            outcome,
            lang=lang,
            names=pictures.display_names(row.seats),
        )
    except Exception:
        log.exception("result picture failed for %s", row.game)
        return []
    return [discord.File(io.BytesIO(picture.png), picture.filename, description=picture.alt)]


async def picture_files(
    view: dict[str, Any], lang: str, row: TableRow | None = None
) -> list[discord.File]:
    """The table picture of ``view``: people by their display names and what
    the table's UI state shows (``row``: its seats and UI state)."""
    names = picture_names(row, lang) if row is not None else None
    ui = row.ui if row is not None else None
    marks = seat_marks(row, view) if row is not None and row.state is not None else {}
    if marks:  # seats out of the game, drawn greyed with "(left)"
        view = dict(view, seat_marks=marks)
    try:
        picture = await pictures.draw_cheapest(
            f"{view.get('game')}-table", pictures.table_picture, view, lang=lang, names=names, ui=ui
        )
    except Exception:  # a broken renderer: words only
        log.warning("no table picture for %s", view.get("game"), exc_info=True)
        return []
    if picture is None:  # the game draws no picture
        return []
    return [discord.File(io.BytesIO(picture.png), picture.filename, description=picture.alt)]


def clock_lines(row: TableRow, lang: str) -> list[str]:
    """The clock on the table message: when the turn runs out, and the warning."""
    if row.phase != "playing" or row.deadline is None or not row.clock.get("player"):
        return []
    player = row.clock["player"]
    seat = seat_named(row, player)
    who = seat_line(seat) if seat else player
    lines = [t("clock.deadline", lang, time=f"<t:{int(row.deadline)}:R>")]
    if row.clock.get("warned"):
        lines.append(t("clock.warning", lang, player=who, seconds=WARN_BEFORE))
    return lines


def must_agree(row: TableRow, view: dict[str, Any]) -> list[dict[str, Any]]:
    """The people whose agreement ends a running game with a result: every
    seated person still playing — not those who left (a ``forfeit`` in the
    record, or listed as ``forfeited`` by the public view: Six Dice's
    forfeit is no record move)."""
    gone = gone_players(row, view)
    return [s for s in row.seats if not is_cpu(s) and s["name"] not in gone]


def gone_players(row: TableRow, view: dict[str, Any]) -> set[str]:
    """The engine names of the seats that left the game (``/game leave``,
    ``/game kick``, a third timeout): a ``forfeit`` in the record, or listed
    as ``forfeited`` by the public view (Six Dice's forfeit is no record move)."""
    gone = set(view.get("forfeited") or [])
    moves = ((row.state or {}).get("history") or {}).get("moves") or []
    gone |= {m.rsplit(" ", 1)[0] for m in moves if m.endswith(" forfeit")}  # recorded moves
    return gone


def seat_marks(row: TableRow, view: dict[str, Any]) -> dict[str, str]:
    """Each seat out of the game → how it left: ``"removed"`` (``/game
    kick``) or ``"left"`` (``/game leave``, the turn clock). The table's
    words and picture mark them, so a seat that left is never read as a
    player with no points."""
    gone = gone_players(row, view)
    return {
        s["name"]: "removed" if s.get("kicked") else "left" for s in row.seats if s["name"] in gone
    }


def seat_mark_line(row: TableRow, view: dict[str, Any], lang: str) -> list[str]:
    """The line "Out of the game: carol (left), dave (removed)" while others play on."""
    marks = seat_marks(row, view)
    if not marks:
        return []
    names = shown_names(row)
    who = [
        t(f"table.seat_{mark}", lang, player=names.get(name, name)) for name, mark in marks.items()
    ]
    return [t("table.seats_out", lang, players=t("list.sep", lang).join(who))]


def picture_names(row: TableRow, lang: str) -> dict[str, str]:
    """The names a table picture draws (:func:`seat_picture_names`)."""
    return seat_picture_names(row.seats, lang)


def seat_picture_names(seats: list[dict[str, Any]], lang: str) -> dict[str, str]:
    """The names a table picture draws: each seat's display name, but a
    computer that took a removed person's seat by that person's name first
    ("carol (CPU)"), so a narrow column header still says whose seat it is."""
    names = pictures.display_names(seats)
    for seat in seats:
        if is_cpu(seat) and not CPU_NAME.fullmatch(str(seat["name"])):
            took = str(seat.get("took") or seat["name"])
            names[str(seat["name"])] = t("pic.seat_cpu", lang, name=took)
    return names


def standing_votes(row: TableRow, now: float) -> dict[str, float]:
    """The agreements to end the game still standing at ``now``."""
    votes: dict[str, float] = row.ui.get(END_VOTES) or {}
    return {uid: at for uid, at in votes.items() if now - float(at) < END_WINDOW}


def end_vote_lines(row: TableRow, view: dict[str, Any], lang: str) -> list[str]:
    """Who agreed to end the game, and until when that stands."""
    votes: dict[str, float] = row.ui.get(END_VOTES) or {}
    if not votes:
        return []
    people = must_agree(row, view)
    agreed = [s for s in people if str(s["id"]) in votes]
    if not agreed:
        return []
    until = int(min(float(votes[str(s["id"])]) for s in agreed) + END_WINDOW)
    names = t("list.sep", lang).join(str(s.get("display") or s["name"]) for s in agreed)
    return [
        t(
            "table.end_votes",
            lang,
            players=names,
            n=len(agreed),
            m=len(people),
            time=f"<t:{until}:R>",
        )
    ]


def log_lines(row: TableRow, lang: str, limit: int | None = LOG_LINES) -> list[str]:
    """The last ``limit`` public events in words (``None``: all the table
    keeps, for ``/game status``), each person by the display name of their
    seat (the stored events keep the engine names).

    A seat that left the game (``/game leave``, ``/game kick``, a third
    timeout) stays in view while the table keeps its line, however many
    moves the others (computers) made since: it takes the first of the
    ``limit`` lines. A clock's notice ("ran out of time") stays in view
    while the moves the clock made for that player are still on the table."""
    ui = plugin(row.game)
    names = shown_names(row)
    log: list[dict[str, Any]] = row.ui.get("log", [])
    # only the last 2 × limit lines can be shown, and a departure: words for
    # those alone, not for the whole log at every press
    window = len(log) if limit is None else 2 * limit
    said: list[tuple[str, str]] = []  # (line, what kind of line), oldest first
    for i, event in enumerate(log):
        kind = event.get("kind")
        if i < len(log) - window and kind not in DEPARTURES:
            continue
        if kind == "forfeit" and i > 0 and _said_before(log[i - 1], event):
            continue  # "removed …; their seat forfeits" already says it
        text = ui.describe(displayed(event, names), lang)
        if text:
            said.append(("• " + text, str(kind)))
    lines = [line for line, _ in said]
    if limit is None or len(lines) <= limit:
        return lines
    shown = lines[-limit:]
    older = said[: len(said) - limit]
    gone = [line for line, kind in older if kind in DEPARTURES]
    # a clock's notice only while its default moves are on the table (2 × limit)
    recent = [line for line, kind in older[-limit:] if kind in NOTICES]
    pinned = gone[-1:] or recent[-1:]
    if pinned and limit > 1:
        return [*pinned, *shown[1:]]
    return shown


def kept_log(row: TableRow, keep: int) -> list[dict[str, Any]]:
    """The table's public events to store: the last ``keep``, and the latest
    seat's departure before those while no person has acted since — the
    computers' moves after a ``/game leave`` do not push it off the table
    before anyone still playing has seen it."""
    log: list[dict[str, Any]] = row.ui.get("log", [])
    if len(log) <= keep:
        return log
    older, recent = log[:-keep], log[-keep:]
    at = next(
        (i for i in range(len(older) - 1, -1, -1) if older[i].get("kind") in DEPARTURES), None
    )
    if at is None:
        return recent
    people = {s["name"] for s in row.seats if not is_cpu(s)} - {older[at].get("player")}
    acted = any(
        e.get("player") in people and e.get("kind") not in PASSIVE for e in older[at + 1 :] + recent
    )
    return recent if acted else [older[at], *recent]


def _said_before(previous: dict[str, Any], event: dict[str, Any]) -> bool:
    """Whether ``previous`` (a kick, the clock's removal) already says that
    ``event``'s player forfeits."""
    return previous.get("kind") in SAYS_FORFEIT and previous.get("player") == event.get("player")


def displayed(value: Any, names: dict[str, str]) -> Any:
    """``value`` (an event in JSON form) with every engine name of a seat —
    a string, or a key — replaced by that seat's display name."""
    renamed = {k: v for k, v in names.items() if k != v}
    return _renamed(value, renamed) if renamed else value


def _renamed(value: Any, names: dict[str, str]) -> Any:
    if isinstance(value, str):
        return names.get(value, value)
    if isinstance(value, list):
        return [_renamed(v, names) for v in value]
    if isinstance(value, dict):
        return {names.get(k, k): _renamed(v, names) for k, v in value.items()}
    return value


def _label(the: Any, move: str, state: Any, eng: Any, lang: str) -> str:
    """A move as its button names it; its notation if even that fails (the
    words-only table is the fallback of a drawing bug)."""
    try:
        return str(the.move_text(move, eng.view(state, None), lang))
    except Exception:
        return move


def points_text(points: int, game: str, lang: Any = "en") -> str:
    """A player's points with their unit (``+16 chips``, ``177 points``,
    ``2 lives lost``): :func:`bot.ui.result_words.points_text`."""
    return result_words.points_text(points, game, lang)


SHORT_HASH = 8  # hex digits of the seed's hash on the table and the lobby


def seed_line(row: TableRow, lang: str, *, full: bool = False) -> str:
    """The seed's hash in the game's own words (dice or shuffle): short on
    the table and the lobby, whole in ``/game status``."""
    assert row.seed is not None
    digest = seed_hash(row.seed)
    term = plugin(row.game).seed_term
    return t(f"seed.hash.{term}", lang, hash=digest if full else digest[:SHORT_HASH])


def result_seed_line(row: TableRow, lang: str) -> str:
    """The fair-dice line at the end: the short hash again and where the
    seed is (the result's 🔑 Seed button answers it privately, so no seed
    fills the chat; ``/rules`` says how to check it)."""
    assert row.seed is not None
    term = plugin(row.game).seed_term
    short = seed_hash(row.seed)[:SHORT_HASH]
    return t(f"seed.result.{term}", lang, hash=short, button=t("result.btn.fair", lang))


def shown_names(row: TableRow) -> dict[str, str]:
    """Each seat's engine name → the name people read (its display name)."""
    return {s["name"]: str(s.get("display") or s["name"]) for s in row.seats}


def _opt(value: Any) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    return "off" if value is None else str(value)


def _is_changed(eng: Any, name: str, value: Any) -> bool:
    for option in eng.OPTIONS:
        if option.name == name:
            return bool(option.default != value)
    return True
