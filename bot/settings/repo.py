"""The server settings' storage: one JSON value per (server, key), read on
every move (turn clocks) and so kept here once read; a process that writes
one tells the others to forget their copy."""

from __future__ import annotations

import json
from typing import Any

from cachetools import LRUCache

from bot import caches
from bot.db.core import Database, dumps

# the channel on which processes tell each other of a server setting changed
SETTINGS_CHANNEL = "chabudai_settings"
# server settings kept once read (~0.3 KB each): the servers playing now, not every server
SETTINGS_KEPT = 4096

#: what ``copy-db`` moves of this concern (:mod:`bot.db.copy`)
COPIED = {
    "guild_settings": (("guild_id", "key", "value"), "guild_id, key", frozenset({"value"})),
}


class SettingsRepo:
    """The ``guild_settings`` table."""

    def __init__(self, db: Database) -> None:
        self.db = db
        # guild settings change rarely and are read on every move (turn
        # clocks): kept here once read, replaced when written
        # (the most recently read :data:`SETTINGS_KEPT`: one a server and key)
        self._settings: LRUCache[tuple[int, str], Any] = LRUCache(maxsize=SETTINGS_KEPT)
        caches.budget("settings", SETTINGS_KEPT, "entries", lambda: (len(self._settings), 0))

    async def listen(self) -> None:
        """Hear the other processes' changes (at open; PostgreSQL ``LISTEN``)."""
        # (notices missed while the server was away: every copy is forgotten)
        await self.db.listen(SETTINGS_CHANNEL, self._heard, missed=self.forget_all)

    def _heard(self, payload: str) -> None:
        guild, _, key = payload.partition(":")
        if guild.isdigit() and key:
            self.forget_setting(int(guild), key)

    def forget_all(self) -> None:
        """Every copy forgotten (the database was filled by ``copy-db``)."""
        self._settings.clear()

    async def guild_setting(self, guild_id: int, key: str) -> Any:
        """A server setting (``None`` = not set); cached once read."""
        if (guild_id, key) in self._settings:
            return self._settings[guild_id, key]
        async with self.db.reading() as c:
            r = await c.fetchone(
                "SELECT value FROM guild_settings WHERE guild_id = ? AND key = ?", (guild_id, key)
            )
        value = json.loads(r[0]) if r else None
        self._settings[guild_id, key] = value
        return value

    async def set_guild_setting(self, guild_id: int, key: str, value: Any) -> None:
        async with self.db.writing() as c:
            await c.execute(
                "INSERT INTO guild_settings (guild_id, key, value) VALUES (?, ?, ?)"
                " ON CONFLICT (guild_id, key) DO UPDATE SET value = excluded.value",
                (guild_id, key, dumps(value)),
            )
        self._settings[guild_id, key] = value
        # the other processes forget their copy (PostgreSQL NOTIFY)
        await self.db.notify(SETTINGS_CHANNEL, f"{guild_id}:{key}")

    def forget_setting(self, guild_id: int, key: str) -> None:
        """Drop the cached copy of a setting another process changed."""
        self._settings.pop((guild_id, key), None)
