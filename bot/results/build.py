"""A finished game as it is stored: its record, outcome, places and the new
ratings — built before the finishing transaction, so the result, the
settlement and the ratings are written together with the table's removal."""

from __future__ import annotations

from typing import Any

from bot import ratings, seasons
from bot.results.rows import PlayerResult, Result
from bot.storage import Store
from bot.tables.rows import TableRow
from bot.ui import present
from bot.ui.controls import Standing
from games import registry
from games.core import record_of


def record(row: TableRow, state: Any) -> dict[str, Any]:
    """The game record; ``hints`` lists the players who asked /hint (a key
    the replay ignores)."""
    doc = record_of(row.game, state).to_json()
    if row.ui.get("hints"):
        doc["hints"] = sorted(row.ui["hints"])
    return doc


async def build(
    store: Store, row: TableRow, state: Any, standings: list[Standing], *, now: float
) -> Result:
    """The result of a finished game. Games with computer players are rated
    only where the server says so (``/config bots_rated``). A game the host
    ended without everyone's agreement (``/game end``: no contest) is
    stored unrated, with no winner and nothing settled: its places as they
    stood, points 0 (the record and the engine's outcome keep the rest), so
    no rating, leaderboard win or points move."""
    eng = registry.engine(row.game)
    by_name = {s["name"]: s for s in row.seats}
    has_bots = any(s.get("bot") for s in row.seats)
    no_contest = row.ui.get(present.ENDED) == present.NO_CONTEST
    players = [
        PlayerResult(
            by_name[s.player]["id"],
            s.player,
            s.rank,
            s.won and not no_contest,
            0 if no_contest else s.points,
            s.best,
        )
        for s in standings
        if s.player in by_name and not by_name[s.player].get("bot")
    ]
    rated = not has_bots
    if has_bots and row.guild_id is not None:
        rated = bool(await store.settings.guild_setting(row.guild_id, "bots_rated"))
    rated = rated and not no_contest
    season = None  # the server's season now (bot.seasons); a DM has none
    if row.guild_id is not None:
        length = seasons.length_of(await store.settings.guild_setting(row.guild_id, "season"))
        season = seasons.season_at(now, length)
    return Result(
        table_id=row.id,
        guild_id=row.guild_id,
        channel_id=row.channel_id,
        game=row.game,
        record=record(row, state),
        outcome=eng.outcome(state),
        players=players,
        seed=row.seed,
        has_bots=has_bots,
        finished_at=now,
        # a rematch seats them again; /history reads every seat's place
        # (a computer's too: people's places are also in ``players``)
        seats=placed_seats(row.seats, standings, no_contest=no_contest),
        host_id=row.host_id,
        # the table message becomes the result message: history links to it
        message_id=row.message_id,
        season=season,
        rated=rated,
        # the ratings are read and written in the finishing transaction
        rate=ratings.rate if rated and len(players) >= 2 else None,
    )


def placed_seats(
    seats: list[dict[str, Any]], standings: list[Standing], *, no_contest: bool = False
) -> list[dict[str, Any]]:
    """The seats as stored with the result, each with its ``rank`` and
    ``points`` (a computer's place is in no ``result_players`` row)."""
    places = {s.player: s for s in standings}
    out = []
    for seat in seats:
        stored = dict(seat)
        place = places.get(seat["name"])
        if place is not None:
            stored["rank"] = place.rank
            stored["points"] = 0 if no_contest else place.points
        out.append(stored)
    return out
