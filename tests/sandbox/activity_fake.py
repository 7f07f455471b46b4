"""A small stand-in for the Activity's server (docs/activity.md "Protocol"),
for the client's own browser tests: it serves the committed client
(bot/activity/static/), answers api/config and api/token, and speaks the
socket's protocol over one game played with the real engine (games/), each
socket seeing the engine's view for its own seat. It checks nothing the real
server checks beyond the seat and the version: the real server's tests do
(tests/bot/test_activity_*.py); here it is the client under test."""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from aiohttp import WSMsgType, web

from games.core import SeededSource
from games.registry import engine

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "bot" / "activity" / "static"


def words(locale: str) -> dict[str, str]:
    """Every ``activity.*`` entry of the catalogue, as ``welcome`` carries them."""
    catalogue = json.loads((ROOT / "bot" / "i18n" / f"{locale}.json").read_text(encoding="utf-8"))
    return {k: v for k, v in catalogue.items() if k.startswith("activity.")}


class FakeActivity:
    """One table of ``game`` between ``players`` (the tokens ``tok-<name>``
    prove who a socket is; ``code-<name>`` is the code that gets it)."""

    def __init__(self, game: str, players: list[str], options: dict[str, Any] | None = None,
                 seed: str = "fake", locale: str = "en") -> None:  # fmt: skip
        self.game = game
        self.engine = engine(game)
        self.players = players
        self.state = self.engine.new_game(players, options or {}, players[0], SeededSource(seed))
        self.version = 1
        self.locale = locale
        self.sockets: list[tuple[web.WebSocketResponse, str | None]] = []
        self.received: list[dict[str, Any]] = []  # every client frame, in order
        self.sent: dict[str | None, list[str]] = {}  # viewer -> every frame sent, as text
        self.hellos = 0
        self.loop: asyncio.AbstractEventLoop | None = None
        self.url = ""
        self.log: list[str] = []
        self.label: Callable[[str], str] = lambda move: move
        self.asks: set[str] = set()  # moves answered with a question ("sure?") first
        self.refusing = False  # sockets closed at once (a server away), while set
        self.now: str | None = None  # the server's clock in the frames (ISO), if set
        self.deadline: str | None = None  # the turn clock's end (ISO), if set

    # ------------------------------------------------------------------ frames

    def frame(self, viewer: str | None) -> dict[str, Any]:
        e, s = self.engine, self.state
        finished = e.is_finished(s)
        turn = [] if finished else e.to_move(s)
        legal = e.legal_moves(s, viewer) if viewer in self.players and not finished else []
        view = e.view(s, viewer)
        return {
            "op": "table", "table": 1, "version": self.version, "game": self.game,
            "game_name": self.game, "phase": "finished" if finished else "playing",
            "players": [{"name": p, "display": p.capitalize(), "id": str(i + 1), "cpu": False, "out": False}
                        for i, p in enumerate(self.players)],
            "you": viewer, "turn": turn, "status": "",
            "scores": [{"name": p, "text": str(i)} for i, p in enumerate(self.players)],
            "deadline": self.deadline, "now": self.now, "log": self.log[-8:], "view": view, "private": [],
            "moves": [{"move": f"m:{m}", "label": self.label(m), "group": "", "style": "primary"} for m in legal],
            "finished": finished,
            "result": ["**Game over.**"] if finished else [],
            "links": {"review": "https://example.invalid/review", "replay": "https://example.invalid/replay"} if finished else {},
        }  # fmt: skip

    async def _send(
        self, ws: web.WebSocketResponse, viewer: str | None, doc: dict[str, Any]
    ) -> None:
        text = json.dumps(doc)
        self.sent.setdefault(viewer, []).append(text)
        await ws.send_str(text)

    async def broadcast(self) -> None:
        for ws, viewer in list(self.sockets):
            if not ws.closed:
                await self._send(ws, viewer, self.frame(viewer))

    def play(self, player: str, move: str) -> None:
        """A move made elsewhere (as from the chat table): applied and sent
        to every open socket."""
        assert self.loop is not None

        async def go() -> None:
            self.engine.apply(self.state, player, move)
            self.version += 1
            self.log.append(f"{player.capitalize()}: {move}")
            await self.broadcast()

        asyncio.run_coroutine_threadsafe(go(), self.loop).result(10)

    # ------------------------------------------------------------------ routes

    async def index(self, request: web.Request) -> web.StreamResponse:
        return web.FileResponse(STATIC / "index.html")

    async def config(self, request: web.Request) -> web.Response:
        return web.json_response({"client_id": "sandbox"})

    async def token(self, request: web.Request) -> web.Response:
        code = (await request.json()).get("code", "")
        name = code.removeprefix("code-")
        if not code.startswith("code-") or name not in self.players + ["watcher"]:
            return web.json_response({"error": "bad code"}, status=401)
        return web.json_response({"access_token": f"tok-{name}"})

    async def socket(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        if self.refusing:
            await ws.close()
            return ws
        viewer: str | None = None
        async for msg in ws:
            if msg.type != WSMsgType.TEXT:
                continue
            doc = json.loads(msg.data)
            self.received.append(doc)
            if doc.get("op") == "hello":
                self.hellos += 1
                token = doc.get("token") or ""
                name = token.removeprefix("tok-") if token.startswith("tok-") else None
                viewer = name if name in self.players else None
                self.sockets.append((ws, viewer))
                user = {"id": name, "name": name} if name else None
                await self._send(
                    ws,
                    viewer,
                    {
                        "op": "welcome",
                        "user": user,
                        "locale": self.locale,
                        "words": words(self.locale),
                    },
                )
                await self._send(ws, viewer, self.frame(viewer))
            elif doc.get("op") == "move" and doc.get("move") == "dismiss":
                continue  # "no" to a question: nothing changes, nothing is sent
            elif doc.get("op") == "move" and doc.get("move") in self.asks and viewer is not None:
                question = {"op": "ask", "table": 1, "version": self.version, "text": "**Sure?**",
                            "moves": [{"move": "y:" + doc["move"], "label": "Yes", "group": "", "style": "danger"},
                                      {"move": "dismiss", "label": "No", "group": "", "style": "secondary"}]}  # fmt: skip
                await self._send(ws, viewer, question)
            elif doc.get("op") == "move":
                move = str(doc.get("move", "")).removeprefix("y:").removeprefix("m:")
                if viewer is None or doc.get("version") != self.version:
                    await self._send(
                        ws, viewer, {"op": "error", "key": "error.stale", "text": "stale"}
                    )
                    continue
                try:
                    self.engine.apply(self.state, viewer, move)
                except Exception as err:  # a rule error, in words
                    await self._send(ws, viewer, {"op": "error", "key": "rule", "text": str(err)})
                    continue
                self.version += 1
                self.log.append(f"{viewer.capitalize()}: {move}")
                await self.broadcast()
            elif doc.get("op") == "ping":
                await ws.send_str(json.dumps({"op": "pong"}))
        self.sockets = [(w, v) for w, v in self.sockets if w is not ws]
        return ws

    # ------------------------------------------------------------------ running

    def start(self) -> str:
        app = web.Application()
        app.router.add_get("/activity/", self.index)
        app.router.add_static("/activity/assets/", STATIC / "assets")
        app.router.add_get("/activity/api/config", self.config)
        app.router.add_post("/activity/api/token", self.token)
        app.router.add_get("/activity/api/ws", self.socket)
        started = threading.Event()

        def run() -> None:
            self.loop = asyncio.new_event_loop()
            runner = web.AppRunner(app)
            self.loop.run_until_complete(runner.setup())
            site = web.TCPSite(runner, "127.0.0.1", 0)
            self.loop.run_until_complete(site.start())
            port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
            self.url = f"http://127.0.0.1:{port}/activity/"
            self._runner = runner
            started.set()
            self.loop.run_forever()
            self.loop.run_until_complete(runner.cleanup())

        self._thread = threading.Thread(target=run, daemon=True)
        self._thread.start()
        started.wait(10)
        return self.url

    def stop(self) -> None:
        if self.loop is not None:
            self.loop.call_soon_threadsafe(self.loop.stop)
            self._thread.join(10)
