"""The tournaments' storage: an event, its players and its matches. A round
is claimed by ``round = round + 1`` where the round is still the old one
(one process wins) in the transaction that stores its pairings, before any
table is opened; a join and the start take turns on the event's row."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.db.core import Conn, Database, dumps
from bot.tournament.rows import (
    MATCH_COLS,
    TOURNAMENT_COLS,
    TOURNAMENT_FIELDS,
    Entrant,
    MatchRow,
    TournamentRow,
    decode_match,
    decode_tournament,
)

STANDINGS_BEHIND = (
    "standings_behind."  # meta: a tournament's standings message is behind (+ its id)
)

#: what ``copy-db`` moves of this concern (:mod:`bot.db.copy`): an event
#: before its players and matches
COPIED = {
    "tournaments": (
        tuple(TOURNAMENT_COLS.replace(" ", "").split(",")),
        "id",
        frozenset({"options"}),
    ),
    "tournament_players": (
        ("tournament_id", "user_id", "name", "rating", "seed", "status", "joined_at"),
        "tournament_id, user_id",
        frozenset(),
    ),
    "tournament_matches": (
        tuple(MATCH_COLS.split(", ")),
        "id",
        frozenset({"seats", "points", "scores"}),
    ),
}


class TournamentsRepo:
    """The ``tournaments``, ``tournament_players`` and ``tournament_matches``
    tables (and the ``meta`` notes of standings messages behind)."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def create_tournament(
        self,
        *,
        guild_id: int,
        channel_id: int,
        game: str,
        format: str,
        rounds: int,
        table_size: int,
        options: dict[str, Any],
        clock_seconds: int | None,
        starts_at: float | None,
        checkin_seconds: int,
        cpu_fill: bool,
        host_id: int,
        lang: str,
        now: float,
    ) -> TournamentRow:
        """A new tournament taking sign-ups."""
        async with self.db.writing() as c:
            r = await c.fetchone(
                "INSERT INTO tournaments (guild_id, channel_id, game, format, rounds, table_size,"
                " options, clock_seconds, starts_at, checkin_seconds, cpu_fill, host_id, lang,"
                " state, round, version, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'signup', 0, 0, ?) RETURNING id",
                (guild_id, channel_id, game, format, rounds, table_size, dumps(options),
                 clock_seconds, starts_at, checkin_seconds, int(cpu_fill), host_id, lang, now),
            )  # fmt: skip
        assert r is not None
        found = await self.get_tournament(int(r[0]))
        assert found is not None
        return found

    async def _tournaments(self, where: str, args: Sequence[Any] = ()) -> list[TournamentRow]:
        async with self.db.reading() as c:
            rows = await c.fetch(f"SELECT {TOURNAMENT_COLS} FROM tournaments {where}", args)
        return [decode_tournament(r) for r in rows]

    async def get_tournament(self, tournament_id: int) -> TournamentRow | None:
        rows = await self._tournaments("WHERE id = ?", (tournament_id,))
        return rows[0] if rows else None

    async def guild_tournaments(self, guild_id: int, *, limit: int = 10) -> list[TournamentRow]:
        """A server's tournaments, newest first."""
        return await self._tournaments(
            "WHERE guild_id = ? ORDER BY created_at DESC, id DESC LIMIT ?", (guild_id, limit)
        )

    async def live_count(self, guild_id: int) -> int:
        """How many of a server's tournaments take sign-ups, check in or run."""
        async with self.db.reading() as c:
            rows = await c.fetch(
                "SELECT COUNT(*) FROM tournaments WHERE guild_id = ?"
                " AND state IN ('signup', 'checkin', 'running')",
                (guild_id,),
            )
        return int(rows[0][0])

    async def live_tournaments(self) -> list[TournamentRow]:
        """Tournaments taking sign-ups, checking in or running, oldest first."""
        return await self._tournaments(
            "WHERE state IN ('signup', 'checkin', 'running') ORDER BY id"
        )

    async def update_tournament(self, row: TournamentRow, **changes: Any) -> bool:
        """Write ``changes`` (of :data:`TOURNAMENT_FIELDS`) if the stored
        version is still ``row.version``; on success ``row`` holds them and
        its new version. ``False``: someone (another process) was first."""
        bad = set(changes) - TOURNAMENT_FIELDS
        if bad or not changes:
            raise ValueError(f"not a tournament field to change: {sorted(bad)}")
        names = sorted(changes)
        sets = ", ".join(f"{name} = ?" for name in names)
        async with self.db.writing() as c:
            n = await c.execute(
                f"UPDATE tournaments SET {sets}, version = version + 1"
                " WHERE id = ? AND version = ?",
                (*(changes[name] for name in names), row.id, row.version),
            )
        if n == 1:
            for name in names:
                setattr(row, name, changes[name])
            row.version += 1
        return n == 1

    async def set_tournament_message(
        self, tournament_id: int, *, message_id: int | None = None, standings: int | None = None
    ) -> None:
        """Where the sign-up or the standings message is (no version bump)."""
        async with self.db.writing() as c:
            if message_id is not None:
                await c.execute(
                    "UPDATE tournaments SET message_id = ? WHERE id = ?",
                    (message_id, tournament_id),
                )
            if standings is not None:
                await c.execute(
                    "UPDATE tournaments SET standings_message_id = ? WHERE id = ?",
                    (standings, tournament_id),
                )

    async def note_standings_behind(self, tournament_id: int, behind: bool) -> None:
        """Whether the tournament's standings message is behind (its edit
        failed: the sweep edits it again), kept in ``meta``."""
        key = f"{STANDINGS_BEHIND}{tournament_id}"
        if behind:
            async with self.db.writing() as c:
                await self.db.put_meta(c, [(key, "1")])
        else:
            await self.db.drop_meta([key])

    async def standings_behind(self) -> list[int]:
        """The tournaments whose standings message is behind."""
        rows = await self.db.meta_prefixed(STANDINGS_BEHIND)
        return [int(key[len(STANDINGS_BEHIND) :]) for key, _value in rows]

    async def entrants(self, tournament_id: int) -> list[Entrant]:
        """A tournament's players in the order they joined."""
        async with self.db.reading() as c:
            rows = await c.fetch(
                "SELECT user_id, name, rating, seed, status, joined_at FROM tournament_players"
                " WHERE tournament_id = ? ORDER BY joined_at, user_id",
                (tournament_id,),
            )
        return [Entrant(int(r[0]), r[1], r[2], r[3], r[4], float(r[5])) for r in rows]

    async def _tournament_state(self, tx: Conn, tournament_id: int) -> str | None:
        rows = await tx.fetch(
            "SELECT state FROM tournaments WHERE id = ?" + self.db.share_lock, (tournament_id,)
        )
        return str(rows[0][0]) if rows else None

    async def join_tournament(
        self, tournament_id: int, user_id: int, name: str, rating: float | None, *, now: float
    ) -> bool:
        """Sign ``user_id`` up (again, after leaving) while the tournament
        takes sign-ups — during check-in, checked in — in one transaction
        with a look at its state, so a join and the start
        (:meth:`update_tournament` out of ``signup``/``checkin``) come one
        after the other: the start sees the player, or the join sees the
        start. ``False`` if they are signed up already, were kicked, or the
        tournament no longer takes sign-ups."""
        async with self.db.transaction() as tx:
            state = await self._tournament_state(tx, tournament_id)
            if state not in ("signup", "checkin"):
                return False
            status = "checked_in" if state == "checkin" else "joined"
            n = await tx.execute(
                "INSERT INTO tournament_players (tournament_id, user_id, name, rating, status,"
                " joined_at) VALUES (?, ?, ?, ?, ?, ?)"
                " ON CONFLICT (tournament_id, user_id) DO UPDATE SET status = excluded.status,"
                " name = excluded.name, rating = excluded.rating, joined_at = excluded.joined_at"
                " WHERE tournament_players.status = 'dropped'",
                (tournament_id, user_id, name, rating, status, now),
            )
        return n == 1

    async def set_entrant_status(
        self,
        tournament_id: int,
        user_id: int,
        status: str,
        *,
        only_from: Sequence[str],
        while_state: Sequence[str] = (),
    ) -> bool:
        """Set a player's status if it is one of ``only_from`` (and, given
        ``while_state``, the tournament's state is one of those: checked in
        the same transaction, as :meth:`join_tournament` does); whether it was."""
        marks = ", ".join("?" for _ in only_from)
        sql = (
            f"UPDATE tournament_players SET status = ? WHERE tournament_id = ? AND user_id = ?"
            f" AND status IN ({marks})"
        )
        args = (status, tournament_id, user_id, *only_from)
        if not while_state:
            async with self.db.writing() as c:
                return await c.execute(sql, args) == 1
        async with self.db.transaction() as tx:
            if await self._tournament_state(tx, tournament_id) not in while_state:
                return False
            return await tx.execute(sql, args) == 1

    async def seed_entrants(self, tournament_id: int, seeds: dict[int, int]) -> None:
        """Each player's seed (1 = the top: by rating at the start)."""
        async with self.db.writing() as c:
            await c.executemany(
                "UPDATE tournament_players SET seed = ? WHERE tournament_id = ? AND user_id = ?",
                [(seed, tournament_id, user) for user, seed in seeds.items()],
            )

    async def matches(self, tournament_id: int, *, round: int | None = None) -> list[MatchRow]:
        """A tournament's matches (of one round), in order."""
        sql = f"SELECT {MATCH_COLS} FROM tournament_matches WHERE tournament_id = ?"
        args: tuple[Any, ...] = (tournament_id,)
        if round is not None:
            sql += " AND round = ?"
            args += (round,)
        async with self.db.reading() as c:
            rows = await c.fetch(sql + " ORDER BY round, number", args)
        return [decode_match(r) for r in rows]

    async def get_match(self, match_id: int) -> MatchRow | None:
        async with self.db.reading() as c:
            r = await c.fetchone(
                f"SELECT {MATCH_COLS} FROM tournament_matches WHERE id = ?", (match_id,)
            )
        return None if r is None else decode_match(r)

    async def claim_round(
        self,
        row: TournamentRow,
        pairings: Sequence[Sequence[int]],
        *,
        byes: dict[int, float] | None = None,
        state: str = "running",
    ) -> bool:
        """Round ``row.round + 1`` paired, exactly once whoever asks: one
        transaction claims it (``round = round + 1`` where it is still
        ``row.round``: one process wins) and stores its matches — a seat
        tuple of one is a bye, worth ``byes[user]`` points — before any table
        is opened. On success ``row`` is the new round."""
        number = row.round + 1
        async with self.db.transaction() as tx:
            n = await tx.execute(
                "UPDATE tournaments SET round = round + 1, state = ?, version = version + 1"
                " WHERE id = ? AND round = ? AND state IN ('signup', 'checkin', 'running')",
                (state, row.id, row.round),
            )
            if n != 1:
                return False
            await self._insert_matches(tx, row.id, number, pairings, byes or {})
        row.round = number
        row.state = state
        row.version += 1
        return True

    async def _insert_matches(
        self,
        tx: Conn,
        tournament_id: int,
        round_no: int,
        pairings: Sequence[Sequence[int]],
        byes: dict[int, float],
    ) -> None:
        rows = []
        for number, seats in enumerate(pairings, start=1):
            bye = len(seats) == 1
            points = {str(seats[0]): byes.get(seats[0], 1.0)} if bye else None
            rows.append((
                tournament_id, round_no, number, dumps([int(u) for u in seats]),
                "bye" if bye else "paired", dumps(points) if points is not None else None,
            ))  # fmt: skip
        if rows:
            await tx.executemany(
                "INSERT INTO tournament_matches (tournament_id, round, number, seats, state,"
                " points) VALUES (?, ?, ?, ?, ?, ?)",
                rows,
            )

    async def repair_round(
        self,
        row: TournamentRow,
        pairings: Sequence[Sequence[int]],
        *,
        byes: dict[int, float] | None = None,
    ) -> list[MatchRow] | None:
        """The current round paired again (the host's re-pair, before any of
        its games is played — the caller checks): its matches replaced in
        one transaction, if ``row.version`` is still the stored one. The
        matches removed (their tables are to be closed), or ``None``:
        someone was first."""
        async with self.db.transaction() as tx:
            n = await tx.execute(
                "UPDATE tournaments SET version = version + 1"
                " WHERE id = ? AND version = ? AND state = 'running'",
                (row.id, row.version),
            )
            if n != 1:
                return None
            old = [
                decode_match(r)
                for r in await tx.fetch(
                    f"SELECT {MATCH_COLS} FROM tournament_matches"
                    " WHERE tournament_id = ? AND round = ? ORDER BY number",
                    (row.id, row.round),
                )
            ]
            await tx.execute(
                "DELETE FROM tournament_matches WHERE tournament_id = ? AND round = ?",
                (row.id, row.round),
            )
            await self._insert_matches(tx, row.id, row.round, pairings, byes or {})
        row.version += 1
        return old

    async def open_match(self, match_id: int, *, thread_id: int | None, table_id: int) -> bool:
        """A paired match's table is open (where): once; ``False`` if another
        process opened it first."""
        async with self.db.writing() as c:
            n = await c.execute(
                "UPDATE tournament_matches SET thread_id = ?, table_id = ?, state = 'open'"
                " WHERE id = ? AND state = 'paired'",
                (thread_id, table_id, match_id),
            )
        return n == 1

    async def set_match_thread(self, match_id: int, thread_id: int) -> None:
        """The thread made for a paired match (before its table is opened),
        so a repair after a crash uses it again instead of making another."""
        async with self.db.writing() as c:
            await c.execute(
                "UPDATE tournament_matches SET thread_id = ? WHERE id = ? AND thread_id IS NULL",
                (thread_id, match_id),
            )

    async def record_match(
        self,
        match_id: int,
        *,
        points: dict[int, float],
        scores: dict[int, float],
        result_id: int | None,
    ) -> bool:
        """A match's result, once: ``False`` if it was recorded already (by
        another process, or a repair)."""
        async with self.db.writing() as c:
            n = await c.execute(
                "UPDATE tournament_matches SET state = 'finished', points = ?, scores = ?,"
                " result_id = ? WHERE id = ? AND state IN ('paired', 'open')",
                (
                    dumps({str(u): p for u, p in points.items()}),
                    dumps({str(u): p for u, p in scores.items()}),
                    result_id,
                    match_id,
                ),
            )
        return n == 1

    async def match_of_table(self, table_id: int) -> MatchRow | None:
        """The tournament match played at table ``table_id``, if any."""
        async with self.db.reading() as c:
            r = await c.fetchone(
                f"SELECT {MATCH_COLS} FROM tournament_matches WHERE table_id = ?"
                " ORDER BY id DESC LIMIT 1",
                (table_id,),
            )
        return None if r is None else decode_match(r)

    async def stranded_matches(self) -> list[MatchRow]:
        """Matches of running tournaments left behind by a crash: paired but
        never opened, or open at a table that is gone (its game ended while
        no process recorded it)."""
        async with self.db.reading() as c:
            rows = await c.fetch(
                f"SELECT {', '.join('m.' + col for col in MATCH_COLS.split(', '))}"
                " FROM tournament_matches m JOIN tournaments t ON t.id = m.tournament_id"
                " WHERE t.state = 'running' AND t.round = m.round AND (m.state = 'paired'"
                " OR (m.state = 'open' AND NOT EXISTS (SELECT 1 FROM tables x"
                " WHERE x.id = m.table_id))) ORDER BY m.id"
            )
        return [decode_match(r) for r in rows]
