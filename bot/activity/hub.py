"""The Activity's server: its routes, its sockets, and the follower of the
commit bus that pushes every open Activity the table after each commit
(``docs/activity.md``).

Sockets are kept by the channel they said they are in (``hello``). After a
commit of a table, its channel's sockets are grouped by what they may see —
the seat their user holds there (``None``: a spectator, or a socket that
proved nobody) and their language — and one frame is built and encoded per
group, then queued on each socket of the group (50 spectators share one
encoded public frame). A socket's writer sends its queue in order; a socket
too slow to keep up loses its oldest frames (each holds the whole table).

A move comes through :meth:`bot.presses.Presses.remote`: the checks of a
button press and the one write path (:meth:`TableService.commit`).

Several processes (PostgreSQL): each commit is also announced with a
``NOTIFY`` (:data:`NOTICES`: the process, channel, table, version, kind and
result); a process holding sockets on that channel loads the table (or the
result) and pushes it to them.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
from collections import deque
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web

from bot import events as ev
from bot.activity import frames
from bot.activity.frames import Shown
from bot.activity.identity import Identity, IdentityError, Places, Viewer
from bot.db.core import PROCESS
from bot.db.postgres import PostgresDatabase
from bot.events import TableCommitted
from bot.i18n import lang_of, rule_error
from bot.lobby import Who
from bot.model import is_cpu, message_link
from bot.tables.rows import TableRow
from bot.ui.controls import Standing
from games import registry
from games.core import RecordError

if TYPE_CHECKING:
    from bot.host import Host

log = logging.getLogger(__name__)

STATIC = Path(__file__).parent / "static"  # the built client (web/activity/)
PREFIX = "/activity"
NOTICES = "chabudai_activity"  # NOTIFY channel: a commit another process may show
MAX_QUEUED = 16  # frames a socket may have unsent before the oldest is dropped
SEND_NOW = 16 * 1024  # bytes buffered below which a frame is written at once
MAX_FRAME = 4096  # bytes of a client's frame
MAX_CODE = 512  # characters of an OAuth2 code
HEARTBEAT = 30.0  # seconds between the server's pings of a socket
RESULT_SHOWN = 900.0  # seconds a finished game's result greets a socket of its channel
RESULTS_KEPT = 4096  # channels whose last result is remembered (the oldest forgotten)
ID_DIGITS = 20  # a Discord id's digits at most


def _id(value: Any) -> int | None:
    """A Discord id sent as a string (or a number): its int, else ``None``."""
    text = str(value) if isinstance(value, (str, int)) and not isinstance(value, bool) else ""
    return int(text) if text.isdigit() and len(text) <= ID_DIGITS else None


def _dumps(frame: dict[str, Any]) -> str:
    return json.dumps(frame, ensure_ascii=False, separators=(",", ":"))


class Socket:
    """One open Activity: who (proven or not), where, in which language,
    and what is queued for it."""

    def __init__(self, ws: web.WebSocketResponse, transport: asyncio.BaseTransport | None) -> None:
        self.ws = ws
        self.transport = transport
        self.viewer: Viewer | None = None
        self.lang = "en"
        self.channel: int | None = None
        self.sent: int = 0  # frames written
        self._queue: deque[str] = deque()
        self._wake = asyncio.Event()
        self._writer = asyncio.get_running_loop().create_task(self._write())

    def send(self, text: str) -> None:
        """Queue ``text`` (an encoded frame); the writer sends it."""
        if len(self._queue) >= MAX_QUEUED:
            self._queue.popleft()
        self._queue.append(text)
        self._wake.set()

    async def deliver(self, text: str) -> None:
        """Send ``text`` at once when the socket keeps up (nothing queued,
        its transport's buffer nearly empty: the write does not wait), else
        queue it for the writer: a slow socket never holds up the others."""
        transport = self.transport
        if (
            not self._queue
            and isinstance(transport, asyncio.WriteTransport)
            and not transport.is_closing()
            and transport.get_write_buffer_size() < SEND_NOW
        ):
            try:
                await self.ws.send_str(text)
            except (ConnectionError, RuntimeError):  # closed meanwhile
                return
            self.sent += 1
            return
        self.send(text)

    def send_frame(self, frame: dict[str, Any]) -> None:
        self.send(_dumps(frame))

    async def _write(self) -> None:
        try:
            while True:
                await self._wake.wait()
                self._wake.clear()
                while self._queue:
                    await self.ws.send_str(self._queue.popleft())
                    self.sent += 1
        except (ConnectionError, RuntimeError):  # closed meanwhile
            return

    async def close(self) -> None:
        self._writer.cancel()
        if not self.ws.closed:
            await self.ws.close()


class Activity:
    """The Activity of one bot: its routes, sockets and commit follower."""

    def __init__(
        self, bot: Host, identity: Identity, *, client_id: str, static: Path = STATIC
    ) -> None:
        self.bot = bot
        self.service = bot.tables
        self.identity = identity
        self.client_id = client_id
        self.static = static
        self._channels: dict[int, set[Socket]] = {}
        self.frames_built = 0  # frames built since start (one per viewer kind and commit)
        self.moving = 0  # Activity moves being handled (their followers included)
        # where an Activity instance runs, Discord's word (None: the client's
        # word for its channel is taken, as in the sandbox)
        self.places: Places | None = None
        self.listening = False
        self.announce = False  # tell other processes of each commit (PostgreSQL: start())
        self._tasks: set[asyncio.Task[None]] = set()
        # channel → (its last finished game's result, when): a socket that
        # was away when the game ended is shown its result on its hello
        self._finished: dict[int, tuple[int, float]] = {}
        # who announces (several bots may share one OS process: the tests)
        self.me = f"{PROCESS}/{secrets.token_hex(4)}"

    def attach(self) -> None:
        """Follow the bot's commits, first: an Activity sees a move before
        the table message is edited (Discord's round trip)."""
        self.service.bus.subscribe(self.on_commit, name="activity", first=True)

    def detach(self) -> None:
        self.service.bus.unsubscribe(self.on_commit)

    # ------------------------------------------------------------------ HTTP

    def routes(self, app: web.Application) -> None:
        """Add the Activity's routes (under ``/activity/``) to ``app``."""
        app.router.add_get(PREFIX, self._to_index)
        app.router.add_get(PREFIX + "/", self._index)
        app.router.add_get(PREFIX + "/assets/{path:.+}", self._asset)
        app.router.add_get(PREFIX + "/api/config", self._config)
        app.router.add_post(PREFIX + "/api/token", self._token)
        app.router.add_get(PREFIX + "/api/ws", self._socket)

    async def _to_index(self, request: web.Request) -> web.StreamResponse:
        raise web.HTTPFound(PREFIX + "/")

    async def _index(self, request: web.Request) -> web.StreamResponse:
        index = self.static / "index.html"
        if not index.is_file():
            return web.Response(status=404, text="the Activity's client is not built")
        return web.FileResponse(index, headers={"Cache-Control": "no-cache"})

    async def _asset(self, request: web.Request) -> web.StreamResponse:
        root = (self.static / "assets").resolve()
        path = (root / request.match_info["path"]).resolve()
        if not path.is_relative_to(root) or not path.is_file():
            raise web.HTTPNotFound()
        return web.FileResponse(path)

    async def _config(self, request: web.Request) -> web.StreamResponse:
        return web.json_response({"client_id": self.client_id})

    async def _token(self, request: web.Request) -> web.StreamResponse:
        try:
            body = await request.json()
        except (ValueError, UnicodeDecodeError):
            body = None
        code = body.get("code") if isinstance(body, dict) else None
        if not isinstance(code, str) or not code or len(code) > MAX_CODE:
            return web.json_response({"error": "no code"}, status=400)
        try:
            token = await self.identity.exchange(code)
        except IdentityError:
            return web.json_response({"error": "refused"}, status=401)
        return web.json_response({"access_token": token}, headers={"Cache-Control": "no-store"})

    # ---------------------------------------------------------------- sockets

    def sockets(self, channel_id: int | None = None) -> list[Socket]:
        """The open sockets (of one channel)."""
        if channel_id is not None:
            return list(self._channels.get(channel_id, ()))
        return [s for group in self._channels.values() for s in group]

    async def _socket(self, request: web.Request) -> web.StreamResponse:
        # no permessage-deflate: one frame goes to many sockets, each would deflate it again
        ws = web.WebSocketResponse(heartbeat=HEARTBEAT, max_msg_size=MAX_FRAME, compress=False)
        await ws.prepare(request)
        sock = Socket(ws, request.transport)
        try:
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    break
                await self._heard(sock, msg.data)
        finally:
            self._leave(sock)
            await sock.close()
        return ws

    async def _heard(self, sock: Socket, text: str) -> None:
        try:
            data = json.loads(text)
        except ValueError:
            data = None
        op = data.get("op") if isinstance(data, dict) else None
        if op == "ping":
            sock.send_frame({"op": "pong"})
        elif op == "hello" and isinstance(data, dict):
            await self._hello(sock, data)
        elif op == "move" and isinstance(data, dict):
            await self._move(sock, data)
        elif op == "open" and isinstance(data, dict):
            await self._open(sock, data)
        else:
            sock.send_frame(frames.error_frame("activity.error.bad_frame", sock.lang))

    def _leave(self, sock: Socket) -> None:
        if sock.channel is None:
            return
        group = self._channels.get(sock.channel)
        if group is not None:
            group.discard(sock)
            if not group:
                del self._channels[sock.channel]
        sock.channel = None

    async def _hello(self, sock: Socket, data: dict[str, Any]) -> None:
        token = data.get("token")
        viewer = None
        if isinstance(token, str) and 0 < len(token) <= MAX_CODE:
            viewer = await self.identity.user(token)
        channel = _id(data.get("channel"))
        refused = channel is not None and not await self._here(
            data.get("instance"), channel, viewer
        )
        if refused:
            channel = None
        self._leave(sock)
        sock.viewer = viewer
        sock.lang = lang_of(viewer.locale) if viewer is not None else "en"
        user = None if viewer is None else {"id": str(viewer.id), "name": viewer.name}
        sock.send_frame(
            {"op": "welcome", "user": user, "locale": sock.lang, "words": frames.words(sock.lang)}
        )
        if channel is None:
            key = "activity.error.not_here" if refused else "activity.error.no_channel"
            sock.send_frame(frames.error_frame(key, sock.lang))
            return
        sock.channel = channel
        self._channels.setdefault(channel, set()).add(sock)
        await self.catch_up(channel, [sock])

    async def _here(self, instance: Any, channel: int, viewer: Viewer | None) -> bool:
        """Whether a socket may be in ``channel``: where Discord says where
        an instance runs (:attr:`places`), the instance must run there and a
        proven user be one of its users; elsewhere (the sandbox) the
        client's word is taken."""
        if self.places is None:
            return True
        if not isinstance(instance, str) or not 0 < len(instance) <= MAX_CODE:
            return False
        place = await self.places.where(instance, None if viewer is None else viewer.id)
        if place is None or place.channel_id != channel:
            return False
        return viewer is None or viewer.id in place.users

    async def catch_up(self, channel: int, socks: Iterable[Socket]) -> None:
        """The channel's table as stored now, to ``socks``; with none, the
        game that finished there in the last :data:`RESULT_SHOWN` seconds
        (its result), if this process heard of it."""
        row = await self.service.store.tables.table_in_channel(channel)
        shown = None if row is None else Shown(row)
        if shown is None:
            finished = self._finished.get(channel)
            if finished is not None and finished[1] > self.service.clock() - RESULT_SHOWN:
                shown = await self._result(finished[0])
        await self.push(channel, shown, list(socks))

    def _ended(self, channel: int, result_id: int) -> None:
        """A game finished in ``channel`` (here or in another process)."""
        self._finished.pop(channel, None)
        if len(self._finished) >= RESULTS_KEPT:
            self._finished.pop(next(iter(self._finished)))
        self._finished[channel] = (result_id, self.service.clock())

    async def _move(self, sock: Socket, data: dict[str, Any]) -> None:
        lang = sock.lang
        viewer, channel = sock.viewer, sock.channel
        table, version, move = data.get("table"), data.get("version"), data.get("move")
        if viewer is None or channel is None:
            sock.send_frame(frames.error_frame("error.not_in_game", lang))
            return
        if (
            not isinstance(table, int)
            or not isinstance(version, int)
            or isinstance(table, bool)
            or isinstance(version, bool)
            or not isinstance(move, str)
            or not 0 < len(move) <= 100
        ):
            sock.send_frame(frames.error_frame("activity.error.bad_frame", lang))
            return
        self.moving += 1
        try:
            decided = await self.bot.presses.remote(
                viewer.id, channel, table, version, move, lang, who=self._who(sock)
            )
        finally:
            self.moving -= 1
        if decided.refusal is not None:
            sock.send_frame(frames.error_frame(decided.refusal, lang, decided.said,
                                               **decided.args))  # fmt: skip
        elif decided.error is not None:
            text = rule_error(decided.error, lang)
            sock.send_frame(frames.error_frame(decided.error.key, lang, text))
        elif decided.question is not None:
            loaded = await self.service.store.tables.get_table(table)
            if loaded is not None:
                sock.send_frame(frames.ask_frame(loaded, *decided.question))

    def _who(self, sock: Socket) -> Who | None:
        """The socket's proven user as a lobby's asker (their display name
        in the server when the bot knows it); ``None``: nobody proven, or a
        channel the bot does not see."""
        viewer, channel_id = sock.viewer, sock.channel
        if viewer is None or channel_id is None:
            return None
        guild = getattr(self.bot.get_channel(channel_id), "guild", None)
        if guild is None:
            return None
        member = guild.get_member(viewer.id)
        name = member.display_name if member is not None else viewer.name
        return Who(guild.id, channel_id, viewer.id, name, sock.lang)

    async def _open(self, sock: Socket, data: dict[str, Any]) -> None:
        """``open``: a lobby of ``game`` in the socket's channel, hosted by
        its proven user, through ``/play``'s own code (the server's house
        options, its limits and refusals); its message is posted in the
        channel and every socket there is pushed the lobby, by the commit."""
        lang = sock.lang
        who = self._who(sock)
        if who is None:  # nobody signed in, or a channel of no server the bot sees
            key = "activity.error.not_proven" if sock.viewer is None else "activity.error.no_server"
            sock.send_frame(frames.error_frame(key, lang))
            return
        game = data.get("game")
        if not isinstance(game, str) or game not in registry.names():
            sock.send_frame(frames.error_frame("activity.error.unknown_game", lang))
            return
        guild = getattr(self.bot.get_channel(who.channel_id), "guild", None)
        locale = getattr(guild, "preferred_locale", None)
        public = await self.service.server_lang(who.guild_id, locale)
        self.moving += 1
        try:
            refused = await self.bot.lobby.open_for(who, game, None, public)
        finally:
            self.moving -= 1
        if refused is not None:
            sock.send_frame(frames.error_frame(refused.key, lang, refused.text, **refused.args))

    # ------------------------------------------------------------- followers

    async def on_commit(self, change: TableCommitted) -> None:
        """After every commit: its channel's Activities get the table, and
        other processes are told (they may hold sockets on the channel)."""
        row = change.after
        if change.kind == ev.FINISHED and change.result_id is not None:
            self._ended(row.channel_id, change.result_id)
        if self._channels.get(row.channel_id):
            await self.push(row.channel_id, shown_of(change))
            # the sockets' writers send now, before the next follower's work
            # (the table message's picture) holds the loop
            await asyncio.sleep(0)
        if self.announce and self.listening and change.kind != ev.REPAIRED:
            fields = (self.me, row.channel_id, row.id, row.version, change.kind,
                      change.result_id or 0)  # fmt: skip
            # in the background: the followers after this one (the table
            # message) do not wait for the database's round trip; a
            # listener loads the channel's table as it is then, so notices
            # arriving out of order show the same table
            self._spawn(self._announce(" ".join(str(x) for x in fields)))

    async def _announce(self, payload: str) -> None:
        try:
            await self.service.store.db.notify(NOTICES, payload)
        except Exception as err:  # the move stands; other processes catch up on their next
            log.warning("activity: a commit could not be announced (%s)", type(err).__name__)

    async def push(
        self, channel: int, shown: Shown | None, socks: list[Socket] | None = None
    ) -> None:
        """``shown`` (``None``: no table) to the channel's sockets (or
        ``socks``): one frame per distinct viewer seat and language."""
        targets = self.sockets(channel) if socks is None else socks
        if not targets:
            return
        if shown is None:  # a proven user is offered the games to open
            nones: dict[str | None, str] = {}
            for sock in targets:
                lang = sock.lang if sock.viewer is not None else None
                if lang not in nones:
                    nones[lang] = _dumps(frames.none_frame(lang))
                await sock.deliver(nones[lang])
            return
        now = self.service.clock()
        lobby = shown.row.phase == "lobby" and shown.kind == "live"
        groups: dict[tuple[str | None, str, bool], list[Socket]] = {}
        for sock in targets:
            seat = self._seat(shown.row, sock.viewer)
            # a lobby offers Join to a proven user without a seat, not to nobody
            may_join = lobby and seat is None and sock.viewer is not None
            groups.setdefault((seat, sock.lang, may_join), []).append(sock)
        for (seat, lang, may_join), group in groups.items():
            try:
                frame = frames.table_frame(shown, seat, lang, now, may_join=may_join)
            except Exception:
                log.exception("table %d: the Activity's frame failed", shown.row.id)
                continue
            self.frames_built += 1
            text = _dumps(frame)
            for sock in group:
                await sock.deliver(text)

    @staticmethod
    def _seat(row: TableRow, viewer: Viewer | None) -> str | None:
        if viewer is None:
            return None
        seat = row.seat_of(viewer.id)
        return None if seat is None or is_cpu(seat) else str(seat["name"])

    # ------------------------------------------------------ other processes

    async def start(self) -> None:
        """Listen for other processes' commits (PostgreSQL; nothing on SQLite)."""
        if self.listening:
            return
        db = self.service.store.db
        await db.listen(NOTICES, self._heard_notice, missed=self._missed)
        self.listening = True
        self.announce = isinstance(db, PostgresDatabase)  # SQLite: one process, nobody to tell

    def _heard_notice(self, payload: str) -> None:
        parts = payload.split(" ")
        if len(parts) != 6 or parts[0] == self.me:
            return  # this process's own commit was pushed already
        channel = _id(parts[1])
        if channel is None:
            return
        result_id = _id(parts[5]) or None
        if parts[4] == ev.FINISHED and result_id is not None:
            self._ended(channel, result_id)
        if not self._channels.get(channel):
            return
        self._spawn(self._heard_commit(channel, parts[4], result_id))

    def _missed(self) -> None:
        """Notices were lost (the database's connection): every channel caught up."""
        for channel in list(self._channels):
            self._spawn(self.catch_up(channel, self.sockets(channel)))

    def _spawn(self, work: Any) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _heard_commit(self, channel: int, kind: str, result_id: int | None) -> None:
        if kind == ev.FINISHED and result_id is not None:
            shown = await self._result(result_id)
            if shown is not None:
                await self.push(channel, shown)
                return
        await self.catch_up(channel, self.sockets(channel))

    async def _result(self, result_id: int) -> Shown | None:
        """A game another process finished, from its stored result."""
        result = await self.service.store.results.get_result(result_id)
        if result is None or not result.get("seats"):
            return None
        try:
            state = registry.replay(registry.read_record(result["record"]))
        except (RecordError, ValueError):
            log.warning("activity: result %d could not be replayed", result_id)
            return None
        row = TableRow(
            id=int(result["table_id"] or 0), guild_id=result["guild_id"],
            channel_id=int(result["channel_id"]), message_id=result["message_id"],
            game=result["game"], phase="playing", host_id=int(result["host_id"] or 0),
            seats=result["seats"], options={}, state=None, ui={}, seed=result["seed"],
            version=0, deadline=None, created_at=0.0, updated_at=0.0,
        )  # fmt: skip
        by_user = {int(s["id"]): s["name"] for s in row.seats}
        standings = [
            Standing(
                by_user.get(int(p["user_id"] or 0), p["name"]),
                p["rank"],
                p["won"],
                p["points"],
                p["best"],
            )  # fmt: skip
            for p in result["players"]
        ]
        return Shown(row, state, "finished", standings, result_id)

    async def close(self) -> None:
        for sock in self.sockets():
            await sock.close()
        self._channels.clear()
        for task in list(self._tasks):
            task.cancel()


def shown_of(change: TableCommitted) -> Shown | None:
    """What a commit leaves on the table for the Activity (``None``: no table)."""
    row = change.after
    if change.kind in (ev.CANCELLED, ev.EXPIRED):
        return None
    if change.kind == ev.FINISHED or change.result_id is not None:
        return Shown(row, change.state, "finished", change.standings, change.result_id)
    if change.kind == ev.ABANDONED:
        return Shown(row, change.state, "ended")
    return Shown(row, change.state if row.phase == "playing" else None)


def link_of(row: TableRow) -> str:
    return message_link(row.guild_id, row.channel_id, row.message_id)
