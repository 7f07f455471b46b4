"""A finished game as the store takes it: its places, ratings and season."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any


@dataclass
class PlayerResult:
    """One seat of a finished game."""

    user_id: int
    name: str
    rank: int
    won: bool
    points: int
    best: int | None = None


# (user → place, their ratings now) → new ratings
RateFn = Callable[[dict[int, int], dict[int, tuple[float, float]]], dict[int, tuple[float, float]]]


@dataclass
class Result:
    table_id: int
    guild_id: int | None
    channel_id: int
    game: str
    record: dict[str, Any]
    outcome: dict[str, Any]
    players: list[PlayerResult]
    seed: str | None
    has_bots: bool
    finished_at: float
    ratings: dict[int, tuple[float, float]] = field(default_factory=dict)
    # the table's seats as they ended (people, computers with their level)
    # and its host: what a rematch seats again
    seats: list[dict[str, Any]] | None = None
    host_id: int | None = None
    # the table message, which becomes the result message (history's link)
    message_id: int | None = None
    # the server's season (bot.seasons) when the game ended; None = none
    season: str | None = None
    season_ratings: dict[int, tuple[float, float]] = field(default_factory=dict)
    rated: bool | None = None  # None = rated unless has_bots (/config bots_rated)
    # (user → place, their ratings now) → new ratings: applied inside the
    # finishing transaction, so two games finishing at once both count
    rate: (
        Callable[[dict[int, int], dict[int, tuple[float, float]]], dict[int, tuple[float, float]]]
        | None
    ) = None
