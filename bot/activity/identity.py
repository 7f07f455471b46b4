"""Who is at the other end of an Activity's socket: Discord's word for it.

The client asks the Embedded App SDK to ``authorize`` (scope ``identify``),
gets a one-time OAuth2 code, and posts it to ``api/token``; the bot
exchanges it with Discord for an access token (:meth:`Identity.exchange`),
which the client hands to the SDK's ``authenticate`` and to its socket's
``hello``; the bot asks Discord whose token it is (:meth:`Identity.user`).
A socket whose token proves nobody sees the public table only.

Two implementations: :class:`DiscordIdentity` (Discord's OAuth2 endpoint,
over aiohttp; the client secret never leaves the bot) and
:class:`SandboxIdentity` (the sandbox mints a code per member: an HMAC of
the member's id with a key made fresh in each process, so no code or token
is good anywhere else or after a restart).
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import secrets
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

import aiohttp

log = logging.getLogger(__name__)

API = "https://discord.com/api/v10"
TIMEOUT = aiohttp.ClientTimeout(total=10)
USER_TTL = 300.0  # seconds a token's user, once asked of Discord, is trusted
USERS_KEPT = 4096  # tokens remembered (the oldest asked again)


PLACE_TTL = 60.0  # seconds an Activity instance's place and users are trusted
PLACES_KEPT = 1024


@dataclass(frozen=True)
class Place:
    """Where an Activity instance runs (Discord's word): its channel and the
    users connected to it."""

    channel_id: int
    users: frozenset[int]


class Places:
    """An Activity instance's place, asked of Discord with the bot's token
    (``GET /applications/{app}/activity-instances/{instance}``) and kept
    :data:`PLACE_TTL` seconds; a user not among the kept users asks again
    (they may just have joined). ``fetch(instance)``: the raw instance
    (``None``: no such instance)."""

    def __init__(
        self,
        fetch: Callable[[str], Awaitable[dict[str, Any] | None]],
        *,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.fetch = fetch
        self.clock = clock
        self._kept: dict[str, tuple[Place | None, float]] = {}

    async def where(self, instance: str, user_id: int | None) -> Place | None:
        now = self.clock()
        kept = self._kept.get(instance)
        if kept is not None and kept[1] > now and kept[0] is not None:
            if user_id is None or user_id in kept[0].users:
                return kept[0]
        try:
            raw = await self.fetch(instance)
        except Exception as err:  # Discord unreachable, 404, 403: no place
            log.info("activity: an instance could not be asked for (%s)", type(err).__name__)
            raw = None
        place = None
        found = raw if isinstance(raw, dict) else {}
        location = found.get("location")
        if isinstance(location, dict) and str(location.get("channel_id", "")).isdigit():
            users = frozenset(int(u) for u in found.get("users") or () if str(u).isdigit())
            place = Place(int(location["channel_id"]), users)
        if len(self._kept) >= PLACES_KEPT:
            self._kept.pop(next(iter(self._kept)))
        self._kept[instance] = (place, now + PLACE_TTL)
        return place


class IdentityError(Exception):
    """A code or token refused (bad, used, expired) or Discord unreachable."""


@dataclass(frozen=True)
class Viewer:
    """A proven user: their Discord id, name and locale (``en-US``, ``ja``)."""

    id: int
    name: str
    locale: str


class Identity(Protocol):
    """How the Activity proves who a socket is."""

    async def exchange(self, code: str) -> str:
        """The access token for an OAuth2 ``code`` (:class:`IdentityError` if refused)."""
        ...

    async def user(self, token: str) -> Viewer | None:
        """Whose token it is, or ``None`` (refused, expired)."""
        ...


class DiscordIdentity:
    """Discord's OAuth2: ``POST /oauth2/token`` (``authorization_code``) and
    ``GET /users/@me``. ``api``: Discord's API base (a fake in tests)."""

    def __init__(
        self,
        client_id: str,
        client_secret: str,
        *,
        api: str = API,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.client_id = client_id
        self._secret = client_secret
        self.api = api.rstrip("/")
        self.clock = clock
        self._session: aiohttp.ClientSession | None = None
        # token digest → (viewer, trusted until): not a request to Discord per socket
        self._users: dict[str, tuple[Viewer, float]] = {}

    def _http(self) -> aiohttp.ClientSession:
        if self._session is None or self._session.closed:
            self._session = aiohttp.ClientSession(timeout=TIMEOUT)
        return self._session

    async def close(self) -> None:
        if self._session is not None:
            await self._session.close()
            self._session = None

    async def exchange(self, code: str) -> str:
        form = {
            "client_id": self.client_id,
            "client_secret": self._secret,
            "grant_type": "authorization_code",
            "code": code,
        }
        try:
            async with self._http().post(f"{self.api}/oauth2/token", data=form) as resp:
                body = await resp.json(content_type=None)
                status = resp.status
        except (aiohttp.ClientError, TimeoutError, ValueError) as err:
            log.warning("activity: Discord's token endpoint failed (%s)", type(err).__name__)
            raise IdentityError("unreachable") from err
        token = body.get("access_token") if isinstance(body, dict) else None
        if status != 200 or not isinstance(token, str) or not token:
            # Discord's error name only ("invalid_grant"): never the code
            error = body.get("error") if isinstance(body, dict) else None
            log.info("activity: a code was refused (%s %s)", status, error)
            raise IdentityError("refused")
        return token

    async def user(self, token: str) -> Viewer | None:
        key = hashlib.sha256(token.encode()).hexdigest()
        now = self.clock()
        known = self._users.get(key)
        if known is not None and known[1] > now:
            return known[0]
        headers = {"Authorization": f"Bearer {token}"}
        try:
            async with self._http().get(f"{self.api}/users/@me", headers=headers) as resp:
                body = await resp.json(content_type=None)
                status = resp.status
        except (aiohttp.ClientError, TimeoutError, ValueError) as err:
            log.warning("activity: Discord's user endpoint failed (%s)", type(err).__name__)
            return None
        if status != 200 or not isinstance(body, dict) or not str(body.get("id", "")).isdigit():
            log.info("activity: a token was refused (%s)", status)
            return None
        name = body.get("global_name") or body.get("username") or str(body["id"])
        viewer = Viewer(int(body["id"]), str(name), str(body.get("locale") or "en-US"))
        if len(self._users) >= USERS_KEPT:
            self._users.pop(next(iter(self._users)))
        self._users[key] = (viewer, now + USER_TTL)
        return viewer


Members = Mapping[int, tuple[str, str]] | Callable[[int], "tuple[str, str] | None"]


class SandboxIdentity:
    """The sandbox's members, no Discord: :meth:`mint` gives a member's code
    (``<id>.<HMAC>``, in their "Open the Activity" link); its token is
    another HMAC of the id. ``users``: member id → (name, locale), a mapping
    or a callable (``None``: no such member)."""

    def __init__(self, users: Members) -> None:
        self.users = users
        self._key = secrets.token_bytes(32)

    def _mac(self, purpose: str, user_id: int) -> str:
        msg = f"{purpose}:{user_id}".encode()
        return hmac.new(self._key, msg, hashlib.sha256).hexdigest()

    def mint(self, user_id: int) -> str:
        """The code for ``user_id``'s link."""
        return f"{user_id}.{self._mac('code', user_id)}"

    def _read(self, purpose: str, value: str) -> int | None:
        user, _, mac = value.partition(".")
        if not user.isdigit() or len(user) > 20:
            return None
        if not hmac.compare_digest(mac, self._mac(purpose, int(user))):
            return None
        return int(user)

    def _member(self, user_id: int) -> tuple[str, str] | None:
        users = self.users
        if callable(users):
            return users(user_id)
        return users.get(user_id)

    async def exchange(self, code: str) -> str:
        user_id = self._read("code", code)
        if user_id is None or self._member(user_id) is None:
            raise IdentityError("refused")
        return f"{user_id}.{self._mac('token', user_id)}"

    async def user(self, token: str) -> Viewer | None:
        user_id = self._read("token", token)
        member = None if user_id is None else self._member(user_id)
        if user_id is None or member is None:
            return None
        return Viewer(user_id, member[0], member[1])
