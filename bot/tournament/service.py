"""Tournaments as stored: sign-ups, the start, each round paired exactly
once, match results recorded once, the event finished once.

No Discord here: :mod:`bot.followers.tournament` posts the messages, opens
the matches' threads and tables and follows the tables' commits; this
module is what it asks of the database and of the pairing
(:mod:`bot.tournament.pairing`). Every change of a tournament is a
versioned write, so several processes may run one event:

- a round is *claimed* in the transaction that stores its pairings
  (``round = round + 1`` where it is still the old one: one process wins,
  :meth:`bot.tournament.repo.TournamentsRepo.claim_round`), before any thread or table is
  opened; a match stored ``paired`` is opened later by whoever finds it
  (the start-up repair and the sweep included);
- a match's result is recorded once (``state <> 'finished'``);
- the event is finished once (a versioned write of its state).
"""

from __future__ import annotations

import asyncio
import functools
import logging
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from bot import ratings
from bot.storage import Store
from bot.tournament import pairing
from bot.tournament.rows import Entrant, MatchRow, TournamentRow
from games import registry

log = logging.getLogger(__name__)

FORMATS = ("swiss", "round-robin", "knockout")
ACTIVE = ("joined", "checked_in")  # still playing (not dropped, not kicked)
LIVE = ("signup", "checkin", "running")
DEFAULT_TABLE = 4  # players a table of a 3+ player game seats by default
MIN_PLAYERS = 2  # an event needs at least this many players to start
MAX_PLAYERS = 64  # and takes at most this many


@dataclass
class Outcome:
    """What a request did: a catalogue key to tell the user (and its
    placeholders), and whether anything changed."""

    key: str
    changed: bool = False
    args: dict[str, Any] | None = None
    dropped: tuple[int, ...] = ()  # the start: players dropped for not checking in


def two_player(row: TournamentRow) -> bool:
    """Matches of two (a game set to two seats): points 1 / ½ / 0."""
    return row.table_size == 2


def seats_range(game: str) -> tuple[int, int]:
    spec = registry.spec(game)
    return spec.min_players, spec.max_players


def match_result(
    row: TournamentRow, match: MatchRow, result: dict[str, Any] | None
) -> tuple[dict[int, float], dict[int, float]]:
    """A finished match's tournament points and game scores per player, from
    its stored result (``None``: the game ended without one — abandoned —
    and nobody scores). The places of everyone who sat (computers take
    places too) give :func:`pairing.result_points`: two-player 1 / ½ / 0,
    tables their place points. A player of the match missing from the
    result (removed) scores nothing."""
    people = [u for u in match.seats if u > 0]
    if result is None:
        return dict.fromkeys(people, 0.0), dict.fromkeys(people, 0.0)
    order: list[int] = []
    places: list[int] = []
    scores: dict[int, float] = {}
    for seat in result.get("seats") or []:
        if "rank" in seat:
            order.append(int(seat["id"]))
            places.append(int(seat["rank"]))
            scores[int(seat["id"])] = float(seat.get("points") or 0)
    if not order:  # a result stored before seats kept places
        for p in result.get("players", []):
            order.append(int(p["user_id"]))
            places.append(int(p["rank"]))
            scores[int(p["user_id"])] = float(p.get("points") or 0)
    # places as 1..n among those who sat (a removed player leaves a gap)
    ranked = sorted(set(places))
    places = [1 + sum(places.count(r) for r in ranked if r < p) for p in places]
    earned = dict(zip(order, pairing.result_points(row.table_size, places), strict=True))
    if len(order) == 1:  # everyone else left: a win
        earned = {order[0]: pairing.bye_points(row.table_size)}
    points = {u: float(earned.get(u, 0.0)) for u in people}
    return points, {u: scores.get(u, 0.0) for u in people}


def history_of(matches: Sequence[MatchRow]) -> list[pairing.Match]:
    """The stored matches as the pairing reads them (finished and byes)."""
    return [
        pairing.Match(
            round=m.round,
            seats=tuple(m.seats),
            points=tuple(float(m.points.get(u, 0.0)) for u in m.seats),
            scores=tuple(float(m.scores.get(u, 0.0)) for u in m.seats),
        )
        for m in matches
        if m.state in ("finished", "bye")
    ]


def seed_of(row: TournamentRow) -> int:
    """The pairing's seed of this event's round: the same in every process
    (a re-pair asks for another)."""
    return zlib.crc32(f"{row.id}:{row.round}:{row.version}".encode())


class TournamentService:
    """Tournaments of one bot process (several may share the database)."""

    def __init__(self, store: Store, clock: Callable[[], float]) -> None:
        self.store = store
        self.clock = clock

    # ------------------------------------------------------------ sign-ups

    async def create(self, **fields: Any) -> TournamentRow:
        return await self.store.tournaments.create_tournament(now=self.clock(), **fields)

    async def join(self, row: TournamentRow, user_id: int, name: str) -> Outcome:
        if row.state == "running":
            return Outcome("tournament.error.join_started", args={"id": row.id})
        if row.state not in ("signup", "checkin"):
            return Outcome("tournament.error.closed")
        entrants = await self.store.tournaments.entrants(row.id)
        mine = next((e for e in entrants if e.user_id == user_id), None)
        if mine is not None and mine.status == "kicked":
            return Outcome("tournament.error.kicked")
        if mine is not None and mine.status in ACTIVE:
            return Outcome("tournament.error.already_in")
        if sum(e.status in ACTIVE for e in entrants) >= MAX_PLAYERS:
            return Outcome("tournament.error.full", args={"max": MAX_PLAYERS})
        rated = await self.store.boards.ratings(row.game, [user_id])
        rating = ratings.ordinal(*rated[user_id]) if user_id in rated else None
        # joining during check-in is checking in (the same write)
        if not await self.store.tournaments.join_tournament(row.id, user_id, name, rating, now=self.clock()):
            started = await self._started_meanwhile(row)
            if started is not None:
                return started  # the start came first: they are not in it
            return Outcome("tournament.error.already_in")
        return Outcome("tournament.ok.joined", changed=True)

    async def _started_meanwhile(self, row: TournamentRow) -> Outcome | None:
        """A sign-up refused because the event stopped taking them since
        ``row`` was read (its start, in this process or another): what to
        tell the player (``None``: it still takes sign-ups)."""
        fresh = await self.store.tournaments.get_tournament(row.id)
        if fresh is None or fresh.state in ("signup", "checkin"):
            return None
        if fresh.state == "running":
            return Outcome("tournament.error.join_started", args={"id": row.id})
        return Outcome("tournament.error.closed")

    async def leave(self, row: TournamentRow, user_id: int) -> Outcome:
        if row.state not in ("signup", "checkin"):
            return Outcome("tournament.error.leave_started", args={"id": row.id})
        if not await self.store.tournaments.set_entrant_status(
            row.id, user_id, "dropped", only_from=ACTIVE, while_state=("signup", "checkin")
        ):
            if await self._started_meanwhile(row) is not None:
                return Outcome("tournament.error.leave_started", args={"id": row.id})
            return Outcome("tournament.error.not_in")
        return Outcome("tournament.ok.left", changed=True)

    async def check_in(self, row: TournamentRow, user_id: int) -> Outcome:
        if row.state != "checkin":
            return Outcome("tournament.error.no_checkin")
        if await self.store.tournaments.set_entrant_status(
            row.id, user_id, "checked_in", only_from=("joined",), while_state=("checkin",)
        ):
            return Outcome("tournament.ok.checked_in", changed=True)
        entrants = {e.user_id: e for e in await self.store.tournaments.entrants(row.id)}
        if user_id in entrants and entrants[user_id].status == "checked_in":
            return Outcome("tournament.ok.checked_in")
        if user_id in entrants and entrants[user_id].status == "joined":
            return Outcome("tournament.error.checkin_late", args={"id": row.id})  # the start came first
        return Outcome("tournament.error.not_in")

    async def active(self, row: TournamentRow) -> list[Entrant]:
        """The players still in, in seed order once seeded (else as they joined)."""
        found = [e for e in await self.store.tournaments.entrants(row.id) if e.status in ACTIVE]
        return sorted(found, key=lambda e: (e.seed is None, e.seed or 0, e.joined_at, e.user_id))

    # ------------------------------------------------------------ the start

    async def open_checkin(self, row: TournamentRow) -> bool:
        """Sign-ups close and the check-in window opens (once): it runs
        until the start time (the host's Start with none set: for the
        window's length from now)."""
        if row.starts_at is not None and row.starts_at > self.clock():
            starts_at = row.starts_at
        else:
            starts_at = self.clock() + row.checkin_seconds
        return await self.store.tournaments.update_tournament(row, state="checkin", starts_at=starts_at)

    async def start(self, row: TournamentRow) -> Outcome:
        """Seed the players (by rating) and pair round 1, exactly once.
        Players who did not check in (a check-in window) are dropped.

        The start is *claimed* first — one versioned write out of
        ``signup``/``checkin`` into ``running`` at round 0 — and only then
        are the players read: a join, a leave or a check-in is one
        transaction with a look at the state (:meth:`Store.join_tournament`),
        so it came before the claim (and the player is in round 1) or is
        refused and told so; nobody is left out of round 1 and paired from
        round 2. An event found ``running`` at round 0 (a process died
        between the claim and round 1) is started again by the sweep."""
        low, _high = seats_range(row.game)
        needed = MIN_PLAYERS if row.cpu_fill else max(MIN_PLAYERS, low)
        resumed = row.state == "running" and row.round == 0
        if row.state not in ("signup", "checkin") and not resumed:
            return Outcome("tournament.error.started")
        checkin = row.state == "checkin" or (resumed and row.checkin_seconds > 0)
        if not resumed:
            entrants = await self.store.tournaments.entrants(row.id)
            if not checkin and sum(e.status in ACTIVE for e in entrants) < needed:
                return Outcome("tournament.error.too_few", args={"min": needed})
            before = row.state
            if not await self.store.tournaments.update_tournament(row, state="running"):
                return Outcome("tournament.error.started")
        else:
            before = "checkin" if checkin else "signup"
        entrants = await self.store.tournaments.entrants(row.id)
        dropped: list[int] = []  # who did not check in (to be told)
        if checkin:
            for e in entrants:
                if e.status == "joined" and await self.store.tournaments.set_entrant_status(
                    row.id, e.user_id, "dropped", only_from=("joined",)
                ):
                    dropped.append(e.user_id)
            entrants = await self.store.tournaments.entrants(row.id)
        players = [e for e in entrants if e.status in ACTIVE]
        if len(players) < needed:
            # sign-ups open again (the sweep calls off an event whose time came)
            await self.store.tournaments.update_tournament(row, state=before)
            return Outcome("tournament.error.too_few", args={"min": needed},
                           dropped=tuple(dropped))  # fmt: skip
        # seeds: the highest rating first; the unrated after them, as they joined
        ranked = sorted(
            players, key=lambda e: (e.rating is None, -(e.rating or 0.0), e.joined_at, e.user_id)
        )
        seeds = {e.user_id: n for n, e in enumerate(ranked, start=1)}
        await self.store.tournaments.seed_entrants(row.id, seeds)
        # the rounds: the format's default, or the organiser's number kept
        # within what the players allow (a two-player Swiss: players - 1, or
        # players if odd — beyond that someone would meet an opponent again)
        asked = row.rounds
        rounds = pairing.rounds_for(row.format, len(players), row.table_size, asked or None,
                                    min_seats=self.min_seats(row))  # fmt: skip
        if rounds != row.rounds and not await self.store.tournaments.update_tournament(row, rounds=rounds):
            return Outcome("tournament.error.started")
        if not await self.pair_next(row):
            return Outcome("tournament.error.started")
        args = {"asked": asked, "rounds": rounds, "count": len(players)} if asked else None
        return Outcome("tournament.ok.started", changed=True, args=args, dropped=tuple(dropped))

    # ------------------------------------------------------------ rounds

    async def pairings(self, row: TournamentRow, round_no: int) -> list[tuple[int, ...]]:
        players = [e.user_id for e in await self.active(row)]
        history = [m for m in history_of(await self.store.tournaments.matches(row.id)) if m.round < round_no]
        min_seats = self.min_seats(row)
        # a thread: a Swiss of 64 pairs in ~0.1 s of CPU (bench/pairing.py),
        # which would stop every table of the process on the event loop
        tables = await asyncio.to_thread(
            functools.partial(pairing.pair_round, row.format, round_no, players, history,
                              table_size=row.table_size, min_seats=min_seats, seed=seed_of(row))
        )  # fmt: skip
        return [tuple(int(u) for u in seats) for seats in tables]

    async def pair_next(self, row: TournamentRow) -> bool:
        """Pair the next round and store it, exactly once across processes:
        ``False`` when another process (or an earlier call) claimed it."""
        pairs = await self.pairings(row, row.round + 1)
        byes = {seats[0]: pairing.bye_points(row.table_size) for seats in pairs if len(seats) == 1}
        return await self.store.tournaments.claim_round(row, pairs, byes=byes)

    def min_seats(self, row: TournamentRow) -> int:
        """The fewest people a table seats: the game's least, or (cpu_fill)
        one — computers fill the rest."""
        return 2 if row.cpu_fill else max(2, seats_range(row.game)[0])

    async def repair(self, row: TournamentRow, started: Callable[[MatchRow], Any]) -> Outcome:
        """The host pairs the current round again (after a kick or a drop,
        say), before a person has played at any of its tables
        (``await started(match)`` says whether one has). The matches
        replaced are returned in ``args["old"]`` (their tables to close)."""
        if row.state != "running":
            return Outcome("tournament.error.not_running")
        current = await self.store.tournaments.matches(row.id, round=row.round)
        for match in current:
            if await started(match):
                return Outcome("tournament.error.round_started")
        pairs = await self.pairings(row, row.round)
        if [tuple(m.seats) for m in current] == pairs:
            return Outcome("tournament.error.same_pairs")
        byes = {seats[0]: pairing.bye_points(row.table_size) for seats in pairs if len(seats) == 1}
        old = await self.store.tournaments.repair_round(row, pairs, byes=byes)
        if old is None:
            return Outcome("tournament.error.round_started")
        return Outcome(
            "tournament.ok.repaired", changed=True, args={"old": old, "round": row.round}
        )

    async def record(
        self,
        row: TournamentRow,
        match: MatchRow,
        result: dict[str, Any] | None,
        *,
        void: bool = False,
    ) -> bool:
        """A match's result, once (``False``: recorded already). ``void``:
        an organiser ended it (``/game end``): a double forfeit — nobody
        scores at it, as at an abandoned game (its result, if the game
        stored one as it stood, is kept for the record)."""
        points, scores = match_result(row, match, None if void else result)
        return await self.store.tournaments.record_match(
            match.id, points=points, scores=scores,
            result_id=None if result is None else int(result["id"]),
        )  # fmt: skip

    async def round_complete(self, row: TournamentRow) -> bool:
        current = await self.store.tournaments.matches(row.id, round=row.round)
        return bool(current) and all(m.state in ("finished", "bye") for m in current)

    async def advance(self, row: TournamentRow) -> str | None:
        """After a match: when every match of the round has ended, pair the
        next round ("paired") or finish the event ("finished") — exactly
        once across processes (``None``: not yet, or another was first)."""
        if row.state != "running" or not await self.round_complete(row):
            return None
        players = [e.user_id for e in await self.active(row)]
        history = history_of(await self.store.tournaments.matches(row.id))
        done = pairing.finished(row.format, row.round, row.rounds, players, history,
                                min_seats=self.min_seats(row))
        if done:
            if await self.store.tournaments.update_tournament(row, state="finished", finished_at=self.clock()):
                return "finished"
            return None
        if await self.pair_next(row):
            return "paired"
        return None

    async def end(self, row: TournamentRow) -> bool:
        """The host ends the event: no more rounds (the games being played
        go on as normal games)."""
        if row.state not in LIVE:
            return False
        return await self.store.tournaments.update_tournament(row, state="ended", finished_at=self.clock())

    async def remove(self, row: TournamentRow, user_id: int, status: str) -> bool:
        """``user_id`` drops out (``dropped``) or is kicked (``kicked``): no
        later round pairs them."""
        return await self.store.tournaments.set_entrant_status(row.id, user_id, status, only_from=ACTIVE)

    async def depart(self, row: TournamentRow, user_id: int) -> bool:
        """``user_id`` left the server: no later round pairs them (their
        status ``left``); whether they were still in."""
        return await self.store.tournaments.set_entrant_status(row.id, user_id, "left", only_from=ACTIVE)

    async def decided(self, row: TournamentRow) -> bool:
        """Whether a match of the event was played to a result (someone
        scored at a table): an event whose every match was abandoned or
        ended by an organiser has no winner, whatever its standings share."""
        return any(
            m.state == "finished" and len(m.seats) > 1 and sum(m.points.values()) > 0
            for m in await self.store.tournaments.matches(row.id)
        )

    async def standings(self, row: TournamentRow) -> list[pairing.Standing]:
        entrants = await self.store.tournaments.entrants(row.id)
        history = history_of(await self.store.tournaments.matches(row.id))
        # those still in and those who played: not who left (or was dropped
        # at check-in, or kicked) before a game of theirs
        people = [e.user_id for e in entrants if e.status in ACTIVE or any(
            e.user_id in m.seats for m in history)]  # fmt: skip
        seeded = {e.user_id: (e.seed is None, e.seed or 0, e.joined_at) for e in entrants}
        people.sort(key=lambda u: seeded[u])
        return pairing.standings(row.format, people, history, table_size=row.table_size)
