"""Who an Activity's socket is (docs/activity.md "Security model"):
Discord's OAuth2 against a fake discord.com (an aiohttp test server that
checks what it is sent), and the sandbox's minted codes."""

from __future__ import annotations

import logging

import pytest
from aiohttp import web
from aiohttp.test_utils import TestServer

from bot.activity import DiscordIdentity, IdentityError, SandboxIdentity, Viewer

CLIENT_ID, SECRET = "4321", "s3cret-value"
CODES = {"good-code": "token-of-alice"}  # the codes Discord would accept, once each
USERS = {
    "token-of-alice": {"id": "1001", "username": "alice", "global_name": "Alice A", "locale": "ja"}
}


@pytest.fixture
async def discord_api():
    asked: list[str] = []

    async def token(request: web.Request) -> web.Response:
        form = await request.post()
        asked.append("token")
        ok = (
            form.get("client_id") == CLIENT_ID
            and form.get("client_secret") == SECRET
            and form.get("grant_type") == "authorization_code"
        )
        code = str(form.get("code"))
        if not ok or code not in CODES:
            return web.json_response({"error": "invalid_grant"}, status=400)
        return web.json_response(
            {"access_token": CODES.pop(code), "token_type": "Bearer", "scope": "identify"}
        )

    async def me(request: web.Request) -> web.Response:
        asked.append("me")
        auth = request.headers.get("Authorization", "")
        user = USERS.get(auth.removeprefix("Bearer "))
        if not auth.startswith("Bearer ") or user is None:
            return web.json_response({"message": "401: Unauthorized", "code": 0}, status=401)
        return web.json_response(user)

    app = web.Application()
    app.router.add_post("/api/v10/oauth2/token", token)
    app.router.add_get("/api/v10/users/@me", me)
    async with TestServer(app) as server:
        yield str(server.make_url("/api/v10")), asked


async def test_discord_exchanges_a_code_once_and_names_the_user(discord_api, caplog):
    api, asked = discord_api
    caplog.set_level(logging.INFO)
    now = [0.0]
    identity = DiscordIdentity(CLIENT_ID, SECRET, api=api, clock=lambda: now[0])
    try:
        token = await identity.exchange("good-code")
        assert token == "token-of-alice"
        with pytest.raises(IdentityError):  # a code is good once (a replayed one is refused)
            await identity.exchange("good-code")
        with pytest.raises(IdentityError):
            await identity.exchange("made-up")
        assert await identity.user(token) == Viewer(1001, "Alice A", "ja")
        assert await identity.user(token) == Viewer(1001, "Alice A", "ja")
        assert asked.count("me") == 1  # remembered a while, not asked per socket
        now[0] += 301
        assert await identity.user(token) == Viewer(1001, "Alice A", "ja")
        assert asked.count("me") == 2  # asked again after USER_TTL
        assert await identity.user("forged") is None
        # neither the secret, nor a code, nor a token in any log line
        logged = "\n".join(r.getMessage() for r in caplog.records)
        for secret in (SECRET, "good-code", "made-up", token, "forged"):
            assert secret not in logged
    finally:
        await identity.close()


async def test_discord_unreachable_is_a_refusal_not_a_crash():
    identity = DiscordIdentity(CLIENT_ID, SECRET, api="http://127.0.0.1:9/api/v10")
    try:
        with pytest.raises(IdentityError):
            await identity.exchange("good-code")
        assert await identity.user("token-of-alice") is None
    finally:
        await identity.close()


async def test_the_sandbox_mints_codes_no_other_process_takes():
    members = {7: ("alice", "en-US"), 8: ("bob", "ja")}
    one, two = SandboxIdentity(members), SandboxIdentity(members)
    code = one.mint(7)
    token = await one.exchange(code)
    assert await one.user(token) == Viewer(7, "alice", "en-US")
    with pytest.raises(IdentityError):
        await two.exchange(code)  # another process's key
    assert await two.user(token) is None
    assert await one.user(code) is None  # a code is no token
    with pytest.raises(IdentityError):
        await one.exchange(token)  # nor a token a code
    with pytest.raises(IdentityError):
        await one.exchange(one.mint(9))  # no such member
    forged = "8." + code.partition(".")[2]  # alice's MAC on bob's id
    with pytest.raises(IdentityError):
        await one.exchange(forged)
