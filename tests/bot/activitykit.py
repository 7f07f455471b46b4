"""The Activity as its client sees it, for the bot tests: a night's bot
serving ``bot.activity`` on aiohttp's test server, members proven by the
sandbox's identity, and sockets that keep every frame they were sent (so a
test can read them all for a secret that must not be there).

    async with activity_of(night) as act:
        alice = await act.open(night.alice, table.channel)   # proven
        eve = await act.open(None, table.channel)            # nobody
        frame = await alice.table()                          # the next table frame
        await alice.move(frame, "m:roll")
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from aiohttp import ClientWebSocketResponse, WSMsgType
from aiohttp.test_utils import TestClient, TestServer

from bot.activity import Activity, SandboxIdentity, activity_app

WAIT = 5.0  # seconds a frame may take


class Sock:
    """One open Activity: its frames, oldest first."""

    def __init__(self, ws: ClientWebSocketResponse, user: Any) -> None:
        self.ws = ws
        self.user = user
        self.texts: list[str] = []  # every frame as sent
        self.frames: list[dict[str, Any]] = []
        self._read = 0  # frames handed out by next()
        self._more = asyncio.Event()
        self._reader = asyncio.get_running_loop().create_task(self._listen())

    async def _listen(self) -> None:
        async for msg in self.ws:
            if msg.type != WSMsgType.TEXT:
                break
            self.texts.append(msg.data)
            self.frames.append(json.loads(msg.data))
            self._more.set()

    async def next(self, op: str | None = None) -> dict[str, Any]:
        """The next frame not read yet (of ``op``: the others skipped)."""
        async with asyncio.timeout(WAIT):
            while True:
                while self._read < len(self.frames):
                    frame = self.frames[self._read]
                    self._read += 1
                    if op is None or frame["op"] == op:
                        return frame
                self._more.clear()
                await self._more.wait()

    async def table(self) -> dict[str, Any]:
        return await self.next("table")

    async def latest(self, version: int | None = None) -> dict[str, Any]:
        """The newest table frame once one of at least ``version`` came."""
        async with asyncio.timeout(WAIT):
            while True:
                tables = [f for f in self.frames if f["op"] == "table"]
                if tables and (version is None or tables[-1]["version"] >= version):
                    self._read = len(self.frames)
                    return tables[-1]
                self._more.clear()
                await self._more.wait()

    async def send(self, frame: dict[str, Any]) -> None:
        await self.ws.send_str(json.dumps(frame))

    async def move(self, frame: dict[str, Any], move: str, **changes: Any) -> None:
        """Make ``move`` (one of ``frame``'s) at the table and version ``frame`` shows."""
        await self.send(
            {"op": "move", "table": frame["table"], "version": frame["version"], "move": move}
            | changes
        )

    async def quiet(self, seconds: float = 0.2) -> list[dict[str, Any]]:
        """The frames that came within ``seconds`` (none expected, often)."""
        await asyncio.sleep(seconds)
        out = self.frames[self._read :]
        self._read = len(self.frames)
        return out

    async def close(self) -> None:
        await self.ws.close()
        self._reader.cancel()


class Act:
    """A night's Activity on a test server."""

    def __init__(self, night: Any, client: TestClient, identity: SandboxIdentity) -> None:
        self.night = night
        self.client = client
        self.identity = identity
        self.socks: list[Sock] = []

    @property
    def hub(self) -> Activity:
        return self.client.app["activity"]  # type: ignore[no-any-return,union-attr]

    async def settle(self) -> None:
        """Every Activity move handled to its last follower (the table
        message edited), and the bot's other work done."""
        async with asyncio.timeout(WAIT):
            while self.hub.moving:
                await asyncio.sleep(0.01)
        await self.night.settle()

    async def token(self, user: Any) -> str:
        res = await self.client.post(
            "/activity/api/token", json={"code": self.identity.mint(user.id)}
        )
        assert res.status == 200, await res.text()
        return str((await res.json())["access_token"])

    async def open(
        self, user: Any, channel: Any, *, token: str | None = None, since: int | None = None
    ) -> Sock:
        """A socket of ``user`` (``None``: nobody proven) in ``channel``,
        after its ``welcome``."""
        ws = await self.client.ws_connect("/activity/api/ws")
        sock = Sock(ws, user)
        self.socks.append(sock)
        if token is None and user is not None:
            token = await self.token(user)
        await sock.send(
            {
                "op": "hello",
                "token": token,
                "channel": str(channel.id),
                "instance": None,
                "since": since,
            }  # fmt: skip
        )
        welcome = await sock.next("welcome")
        assert (welcome["user"] is None) == (user is None or token == "forged"), welcome
        return sock


@asynccontextmanager
async def activity_of(night: Any) -> AsyncIterator[Act]:
    """``night``'s bot serving its Activity (the sandbox's identity: every
    member of the night, in their Discord locale)."""

    def member(user_id: int) -> tuple[str, str] | None:
        for m in night.members.values():
            if m.id == user_id:
                return str(m.name), night.by_user.get(user_id, "en-US")
        return None

    identity = SandboxIdentity(member)
    app = activity_app(night.bot, identity)
    async with TestClient(TestServer(app)) as client:
        act = Act(night, client, identity)
        try:
            yield act
        finally:
            for sock in act.socks:
                await sock.close()


def strings(doc: Any) -> list[str]:
    """Every string in a JSON document, keys too, and each word of each."""
    out: list[str] = []
    if isinstance(doc, dict):
        for k, v in doc.items():
            out += strings(k) + strings(v)
    elif isinstance(doc, list):
        for v in doc:
            out += strings(v)
    elif isinstance(doc, str):
        out += [doc, *doc.replace(":", " ").split()]
    return out
