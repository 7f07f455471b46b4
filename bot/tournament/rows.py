"""A tournament, its players and its matches as stored."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any


@dataclass
class TournamentRow:
    """One tournament as stored (``options`` decoded)."""

    id: int
    guild_id: int
    channel_id: int
    game: str
    format: str  # swiss | round-robin | knockout
    rounds: int  # 0: as many as the format needs (round robin, knockout)
    table_size: int
    options: dict[str, Any]
    clock_seconds: int | None
    starts_at: float | None
    checkin_seconds: int
    cpu_fill: bool
    host_id: int
    lang: str
    state: str  # signup | checkin | running | finished | ended
    round: int  # the round being played (0: not started)
    message_id: int | None  # the sign-up message
    standings_message_id: int | None
    version: int
    created_at: float
    finished_at: float | None


@dataclass
class Entrant:
    """One player of a tournament."""

    user_id: int
    name: str
    rating: float | None
    seed: int | None
    status: str  # joined | checked_in | dropped | kicked
    joined_at: float


@dataclass
class MatchRow:
    """One match of a tournament: a table of ``seats`` (user ids; a
    computer filling a seat is negative), or a bye (one seat)."""

    id: int
    tournament_id: int
    round: int
    number: int
    seats: list[int]
    thread_id: int | None
    table_id: int | None
    result_id: int | None
    state: str  # paired | open | finished | bye
    points: dict[int, float]  # user id → tournament points (finished, bye)
    scores: dict[int, float]  # user id → the game's score (a tie-break)


TOURNAMENT_COLS = (
    "id, guild_id, channel_id, game, format, rounds, table_size, options, clock_seconds,"
    " starts_at, checkin_seconds, cpu_fill, host_id, lang, state, round, message_id,"
    " standings_message_id, version, created_at, finished_at"
)


# what :meth:`bot.tournament.repo.TournamentsRepo.update_tournament` may change
TOURNAMENT_FIELDS = frozenset(
    {"state", "round", "starts_at", "finished_at", "host_id", "rounds", "checkin_seconds"}
)


MATCH_COLS = (
    "id, tournament_id, round, number, seats, thread_id, table_id, result_id, state, points, scores"
)


def decode_tournament(r: Sequence[Any]) -> TournamentRow:
    return TournamentRow(
        id=int(r[0]),
        guild_id=int(r[1]),
        channel_id=int(r[2]),
        game=r[3],
        format=r[4],
        rounds=int(r[5]),
        table_size=int(r[6]),
        options=json.loads(r[7]),
        clock_seconds=r[8],
        starts_at=r[9],
        checkin_seconds=int(r[10]),
        cpu_fill=bool(r[11]),
        host_id=int(r[12]),
        lang=r[13],
        state=r[14],
        round=int(r[15]),
        message_id=r[16],
        standings_message_id=r[17],
        version=int(r[18]),
        created_at=float(r[19]),
        finished_at=r[20],
    )


def _by_user(doc: str | None) -> dict[int, float]:
    return {int(k): v for k, v in json.loads(doc).items()} if doc else {}


def decode_match(r: Sequence[Any]) -> MatchRow:
    return MatchRow(
        id=int(r[0]),
        tournament_id=int(r[1]),
        round=int(r[2]),
        number=int(r[3]),
        seats=[int(u) for u in json.loads(r[4])],
        thread_id=r[5],
        table_id=r[6],
        result_id=r[7],
        state=r[8],
        points=_by_user(r[9]),
        scores=_by_user(r[10]),
    )
