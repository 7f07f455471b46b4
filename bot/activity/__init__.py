"""The table as a Discord Activity (issue 36, ``docs/activity.md``): the
bot serves a web client and a WebSocket under ``/activity/``; every open
Activity is pushed the channel's table after each commit, and its moves go
through the button press's path.

- :class:`Identity` (:class:`DiscordIdentity`, :class:`SandboxIdentity`):
  who a socket is;
- :class:`Activity`: the routes, the sockets and the follower of the bus;
- :func:`activity_app`: an aiohttp application serving one bot's Activity
  (the sandbox's).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from aiohttp import web

from bot.activity.hub import NOTICES, PREFIX, STATIC, Activity, Socket
from bot.activity.identity import (
    DiscordIdentity,
    Identity,
    IdentityError,
    Place,
    Places,
    SandboxIdentity,
    Viewer,
)
from bot.i18n import LANGS, t

if TYPE_CHECKING:
    from bot.host import Host

__all__ = [
    "NOTICES",
    "PREFIX",
    "STATIC",
    "Activity",
    "DiscordIdentity",
    "Identity",
    "IdentityError",
    "Place",
    "Places",
    "SandboxIdentity",
    "Socket",
    "Viewer",
    "activity_app",
    "entry_point",
]

ENTRY_POINT = "launch"  # the Entry Point command's name (Discord's default one's)
PRIMARY_ENTRY_POINT = 4  # the command type (discord.py 2.7 has no name for it)
DISCORD_LAUNCH_ACTIVITY = 2  # its handler: Discord opens the Activity itself


def entry_point() -> dict[str, Any]:
    """The app's Entry Point command (``/launch`` in the App Launcher):
    Discord launches the Activity itself (handler ``DISCORD_LAUNCH_ACTIVITY``),
    in servers, DMs and group DMs, for installs to a server or a user."""
    others = {lang: t("activity.command", lang) for lang in LANGS if lang != "en"}
    return {
        "name": ENTRY_POINT,
        "type": PRIMARY_ENTRY_POINT,
        "handler": DISCORD_LAUNCH_ACTIVITY,
        "description": t("activity.command", "en"),
        "description_localizations": others,
        "integration_types": [0, 1],
        "contexts": [0, 1, 2],
    }


def activity_app(bot: Host, identity: Identity, *, client_id: str = "sandbox") -> web.Application:
    """An aiohttp application serving ``bot``'s Activity under
    ``/activity/`` with ``identity`` (the sandbox's), its hub subscribed
    to the bot's commits (first, as the bot's own is). The hub is
    ``app["activity"]``; it listens for other processes' commits when the
    application starts."""
    hub = Activity(bot, identity, client_id=client_id)
    hub.attach()
    app = web.Application()
    app["activity"] = hub
    hub.routes(app)

    async def listening(_app: web.Application) -> None:
        await hub.start()

    async def closing(_app: web.Application) -> None:
        hub.detach()
        await hub.close()

    app.on_startup.append(listening)
    app.on_cleanup.append(closing)
    return app
