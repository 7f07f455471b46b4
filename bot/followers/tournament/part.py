"""What every part of a process's tournament desk holds (:class:`Part`):
the bot, its table service and store, the tournament service, the
standings' words and pictures, and the tournaments' locks — one lock a
tournament in the process, whichever part takes it."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from bot.followers.standings import Standings
from bot.tables.service import TableService
from bot.tournament.service import TournamentService

if TYPE_CHECKING:
    from bot.host import Host


@dataclass(frozen=True)
class Shared:
    """What the desk's parts share: built once, by the desk."""

    client: Host
    tables: TableService
    service: TournamentService
    standings: Standings
    locks: dict[int, asyncio.Lock] = field(default_factory=dict)


class Part:
    """A part of the desk (:class:`bot.followers.tournament.Desk`) — and
    the desk itself, whose callers read the same (its store, its service,
    its standings, its lock)."""

    def __init__(self, shared: Shared) -> None:
        self.client = shared.client
        self.tables = shared.tables
        self.store = shared.tables.store
        self.service = shared.service
        self.standings = shared.standings  # their words and pictures
        self._locks = shared.locks

    def lock(self, tournament_id: int) -> asyncio.Lock:
        return self._locks.setdefault(tournament_id, asyncio.Lock())
