"""The tournaments' store (migration 9) on SQLite and PostgreSQL: a round is
claimed once whoever asks, its pairings stored in the same transaction; a
match's result is recorded once; a re-pair replaces a round that has no
finished match; matches left paired (a crash between pairing and opening)
are found for the repair."""

from __future__ import annotations

import asyncio

from simtable import on_both_databases

from bot.storage import Store, open_store

NOW = 1_700_000_000.0


async def _opened(target) -> Store:
    store = open_store(target)
    await store.open()
    return store


async def _event(store: Store, **kw):
    fields = dict(
        guild_id=2**62 + 1, channel_id=2**62 + 2, game="sixtysix", format="swiss", rounds=3,
        table_size=2, options={"target": 3}, clock_seconds=60, starts_at=None,
        checkin_seconds=0, cpu_fill=False, host_id=2**62 + 3, lang="en", now=NOW,
    )  # fmt: skip
    fields.update(kw)
    return await store.tournaments.create_tournament(**fields)


@on_both_databases
async def test_a_tournament_its_players_and_a_round_claimed_once(new_database):
    store = await _opened(await new_database())
    try:
        row = await _event(store)
        assert (row.state, row.round, row.version, row.options) == ("signup", 0, 0, {"target": 3})
        assert row.guild_id == 2**62 + 1  # Discord ids keep every digit
        for n, user in enumerate((11, 12, 13)):
            assert await store.tournaments.join_tournament(row.id, user, f"p{user}", 25.0, now=NOW + n)
        assert not await store.tournaments.join_tournament(row.id, 11, "p11", 25.0, now=NOW)  # already in
        assert await store.tournaments.set_entrant_status(row.id, 12, "dropped", only_from=("joined",))
        assert await store.tournaments.join_tournament(row.id, 12, "p12", 25.0, now=NOW + 9)  # back again
        assert await store.tournaments.set_entrant_status(row.id, 13, "kicked", only_from=("joined",))
        assert not await store.tournaments.join_tournament(row.id, 13, "p13", 25.0, now=NOW)  # kicked: no
        assert [(e.user_id, e.status) for e in await store.tournaments.entrants(row.id)] == [
            (11, "joined"), (13, "kicked"), (12, "joined"),
        ]  # fmt: skip

        # two processes claim round 1 from the same row: one wins
        other = await store.tournaments.get_tournament(row.id)
        assert other is not None
        won = await asyncio.gather(
            store.tournaments.claim_round(row, [(11, 12), (13,)], byes={13: 1.0}),
            store.tournaments.claim_round(other, [(12, 11)]),
        )
        assert sorted(won) == [False, True]
        stored = await store.tournaments.get_tournament(row.id)
        assert stored is not None and (stored.round, stored.state) == (1, "running")
        matches = await store.tournaments.matches(row.id, round=1)
        assert len(matches) in (1, 2)  # the winner's pairings, and only those
        first = matches[0]
        assert first.state == "paired" and first.table_id is None

        # opened once; recorded once
        assert await store.tournaments.open_match(first.id, thread_id=99, table_id=7)
        assert not await store.tournaments.open_match(first.id, thread_id=98, table_id=8)
        assert (await store.tournaments.match_of_table(7)).id == first.id  # type: ignore[union-attr]
        got = await asyncio.gather(
            store.tournaments.record_match(first.id, points={11: 1.0, 12: 0.0}, scores={11: 7}, result_id=5),
            store.tournaments.record_match(first.id, points={11: 0.0, 12: 1.0}, scores={}, result_id=6),
        )
        assert sorted(got) == [False, True]
        again = await store.tournaments.get_match(first.id)
        assert again is not None and again.state == "finished" and again.result_id in (5, 6)
    finally:
        await store.close()


@on_both_databases
async def test_a_round_left_paired_is_found_and_a_repair_replaces_it(new_database):
    store = await _opened(await new_database())
    try:
        row = await _event(store, format="knockout", rounds=0)
        assert await store.tournaments.claim_round(row, [(1, 2), (3, 4), (5,)], byes={5: 1.0})
        stranded = await store.tournaments.stranded_matches()
        assert [m.seats for m in stranded] == [[1, 2], [3, 4]]  # the bye needs no table
        bye = (await store.tournaments.matches(row.id))[-1]
        assert bye.state == "bye" and bye.points == {5: 1.0}
        # an open match whose table is gone is stranded too (its end unrecorded)
        assert await store.tournaments.open_match(stranded[0].id, thread_id=None, table_id=12345)
        assert [m.seats for m in await store.tournaments.stranded_matches()] == [[1, 2], [3, 4]]

        # re-paired: the round's matches replaced, once (a stale row is refused)
        stale = await store.tournaments.get_tournament(row.id)
        old = await store.tournaments.repair_round(row, [(1, 3), (2, 4), (5,)], byes={5: 1.0})
        assert old is not None and [m.seats for m in old] == [[1, 2], [3, 4], [5]]
        assert await store.tournaments.repair_round(stale, [(1, 4)]) is None  # type: ignore[arg-type]
        assert [m.seats for m in await store.tournaments.matches(row.id, round=1)] == [[1, 3], [2, 4], [5]]

        # finished once
        fresh = await store.tournaments.get_tournament(row.id)
        assert fresh is not None
        assert await store.tournaments.update_tournament(fresh, state="finished", finished_at=NOW)
        assert not await store.tournaments.update_tournament(row, state="ended")  # stale version
        assert [t.id for t in await store.tournaments.live_tournaments()] == []
        assert [t.id for t in await store.tournaments.guild_tournaments(2**62 + 1)] == [row.id]
    finally:
        await store.close()


@on_both_databases
async def test_copy_db_carries_tournaments(new_database):
    """``copy-db`` moves an event, its players and its matches (points and
    scores as documents), ids kept; a new event after it gets a new id."""
    source = await _opened(await new_database())
    target = await _opened(await new_database())
    try:
        row = await _event(source)
        for user in (11, 12, 13):
            await source.tournaments.join_tournament(row.id, user, f"p{user}", None, now=NOW)
        assert await source.tournaments.claim_round(row, [(11, 12), (13,)], byes={13: 1.0})
        first = (await source.tournaments.matches(row.id))[0]
        await source.tournaments.record_match(first.id, points={11: 0.5, 12: 0.5}, scores={11: 33},
                                  result_id=None)  # fmt: skip
        counts = await target.import_rows(await source.export_rows())
        assert (counts["tournaments"], counts["tournament_players"],
                counts["tournament_matches"]) == (1, 3, 2)  # fmt: skip
        copied = await target.tournaments.get_tournament(row.id)
        assert copied is not None and (copied.round, copied.options) == (1, {"target": 3})
        assert [(m.seats, m.points, m.scores) for m in await target.tournaments.matches(row.id)] == [
            ([11, 12], {11: 0.5, 12: 0.5}, {11: 33}), ([13], {13: 1.0}, {}),
        ]  # fmt: skip
        assert (await _event(target)).id == row.id + 1
    finally:
        await source.close()
        await target.close()
