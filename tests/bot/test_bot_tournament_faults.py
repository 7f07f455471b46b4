"""Tournaments, faults at the edges: sizes a game cannot seat,
members who left the server, forged sign-up presses, an unwritable
database when a round should advance, the organiser's re-pair, abandoned
matches and the standings' last edit, and what players are told. Each
story through SimCord; each failed on the code before its fix."""

from __future__ import annotations

import asyncio
import contextlib
import re
from typing import Any

import discord
from conftest import snapshot_with
from simtable import on_both_databases, press_from_snapshot, privately, says, snapshot
from test_bot_faults import read_only
from test_bot_tournament import (
    EIGHT,
    answer,
    create,
    event,
    matches,
    play_match,
    posts,
    press,
)
from test_bot_tournament_edges import signed_up

from bot.followers.clock import BACKOFF_MAX, REPAIR_EVERY
from bot.i18n import t
from games import registry

# ------------------------------------------ 1: a table size the game cannot seat


async def test_a_table_of_one_is_refused_with_the_sizes_allowed(game_night):
    """Nine, Six Dice and Yahtzee can be played alone, but a tournament's
    table seats at least two: ``table_size:1`` is refused with the range
    (it was accepted; Start then failed and the event was stuck), in the
    asker's language, and nothing is stored."""
    async with game_night(seeded=True, managers=["alice"], locales={"alice": "ja"}) as night:
        alice = night.member("alice")
        hall = night.guild.create_text_channel("solo")
        for game in ("nine", "sixdice", "yahtzee"):
            res = await alice.slash(hall, "tournament create", game=game, format="swiss",
                                    table_size=1)  # fmt: skip
            assert res.response is not None and res.response.ephemeral, res
            assert says(answer(res), "tournament.error.bad_table_size", "ja", value=1, min=2,
                        max=8), answer(res)  # fmt: skip
        assert await night.store.tournaments.guild_tournaments(night.guild.id) == []
        res = await alice.slash(hall, "tournament create", game="nine", format="swiss",
                                table_size=2)  # fmt: skip
        assert res.response is not None and not res.response.ephemeral, res


# ------------------------------------------ 2: sign-up presses bound to their channel


async def test_a_forged_sign_up_press_from_another_channel_changes_nothing(game_night):
    """Event #1's sign-up is in a channel dave cannot see; event #2's is in
    the lounge. A press on #2's message forged to carry #1's custom id
    (``ct:1:join``) is refused as a press on a table of another channel is,
    in the presser's language: dave is not signed up, neither message is
    rewritten (it joined him and wrote #1's sign-up over #2's). A custom id
    past 64 bits is refused the same way (it logged an OverflowError)."""
    async with game_night(seeded=True, managers=["alice"], locales={"dave": "ja"}) as night:
        alice, dave = night.member("alice"), night.member("dave")
        hidden = night.guild.create_text_channel(
            "staff", overwrites={dave: discord.PermissionOverwrite(view_channel=False)}
        )
        first = await create(night, alice, hidden, game="sixtysix", format="swiss")
        lounge = night.guild.create_text_channel("lounge")
        second = await create(night, alice, lounge, game="nine", format="swiss")
        shown = {m.id: night.env.backend.get_message(m.channel_id, m.id).content
                 for m in (first, second)}  # fmt: skip
        payload = snapshot(night.env, second)
        for forged in ("ct:1:join", "ct:99999999999999999999:join", "ct:1:leave"):
            res = await press_from_snapshot(dave, night.env, snapshot_with(payload, forged), forged)
            assert privately(res, "tournament.error.stale_button", "ja"), res
        assert await night.store.tournaments.entrants(1) == [] and await night.store.tournaments.entrants(2) == []
        for m in (first, second):
            assert night.env.backend.get_message(m.channel_id, m.id).content == shown[m.id]
        res = await press(dave, second, 2, "join")  # the real button still works
        assert [e.user_id for e in await night.store.tournaments.entrants(2)] == [dave.id]


# ------------------------------------------ 3: an unwritable database when a round should advance


async def test_a_round_due_to_advance_on_an_unwritable_database_is_told_once(game_night, caplog):
    """bob drops out of the one match of a one-round event; the process
    dies before the match is recorded, and the database cannot be written
    for ten minutes. The sweep's repair cannot record it: the operator is
    told once (and reminded), never told it "can be written again" while
    it cannot (the sweeps between, which only read, reset the back-off:
    20 ERRORs and 20 false "written again" in ten minutes); once writes
    work the match is recorded and the event finishes, once."""
    async with game_night(seeded=True, managers=["alice"]) as night:
        alice, bob, carol = night.member("alice"), night.member("bob"), night.member("carol")
        hall, signup = await signed_up(night, alice, "stuck", (bob, carol), rounds=1,
                                       options="target=1")  # fmt: skip
        await press(alice, signup, 1, "start")
        desk = night.bot.tournaments
        ended = desk.match_ended

        async def died(*args: Any, **kwargs: Any) -> None:
            return None  # the process died before it recorded the match

        desk.match_ended = died
        await bob.slash(hall, "tournament drop")
        await night.settle()
        desk.match_ended = ended
        (match,) = await matches(night, 1)
        assert match.state == "open" and await night.store.tables.get_table(match.table_id) is None
        caplog.clear()
        async with read_only(night):
            await night.wait(600)
            assert (await event(night)).state == "running"
        lines = [r for r in caplog.records if r.name == "bot.followers.tournament"]
        errors = [r for r in lines if r.levelname == "ERROR"]
        assert 1 <= len(errors) <= 3, [r.getMessage() for r in errors]
        # nor by the turn clocks' sweeper, whose sweeps between claims only read
        assert not [r.name for r in caplog.records if "can be written again" in r.getMessage()]
        caplog.clear()
        await night.wait(BACKOFF_MAX + 35)
        row = await event(night)
        assert row.state == "finished"
        (match,) = await matches(night, 1)
        assert match.state == "finished" and match.points == {bob.id: 0.0, carol.id: 1.0}
        again = [r.name for r in caplog.records if "can be written again" in r.getMessage()]
        assert again.count("bot.followers.tournament") == 1, again


# ------------------------------------------ 4: the organiser's re-pair


async def kicked_before_repair(
    night: Any, name: str, count: int = 5
) -> tuple[Any, list[Any], list[Any]]:
    """Five (``count``) players of Sixty-Six, started (two matches and a
    bye); alice, the host, kicks dave: (the channel, the players, round 1's
    matches)."""
    people = [night.member(n) for n in EIGHT[:count]]
    hall, signup = await signed_up(night, people[0], name, people, rounds=2, options="target=1")
    await press(people[0], signup, 1, "start")
    dave = night.member("dave")
    res = await people[0].slash(hall, "tournament kick", user=dave)
    assert says(answer(res), "tournament.ok.kicked", user=dave.mention, id=1)
    await night.settle()
    return hall, people, await matches(night, 1)


async def a_press(tables: Any, table_id: int) -> bool:
    """The player to move makes their first legal move as a press does
    (:class:`bot.presses.Presses`: under the table's lock, through the one
    commit path, a ``press`` line in the ledger); whether it was made."""
    async with tables.lock(table_id):
        loaded = await tables.load(table_id)
        if loaded is None:
            return False  # the table is gone: "This table is gone"
        before, row = loaded
        eng = registry.engine(row.game)
        state = eng.from_json(row.state)
        (player, *_) = eng.to_move(state)
        events = eng.apply(state, player, eng.legal_moves(state, player)[0])
        return await tables.commit(before, row, origin="press", state=state, events=events,
                                   actor=player) is not None  # fmt: skip


def waiting_for(tables: Any, table_id: int) -> bool:
    """Whether someone in this process waits for the table's lock."""
    entry = tables._locks.get(table_id)  # (its asyncio.Lock, how many use it)
    return entry is not None and bool(getattr(entry[0], "_waiters", None))


async def test_a_move_made_while_the_round_is_paired_again_is_not_thrown_away(game_night):
    """While ``/tournament repair`` runs — after it looked for moves at the
    round's tables, before it closes them — a player plays a card. The
    check and the closing are one claim under the tables' locks: the card
    waits for the repair and is then refused (the table is gone), or the
    repair sees it and refuses; never a move made at a table the repair
    then closes (it was thrown away)."""
    async with game_night(seeded=True, managers=["alice"]) as night:
        hall, people, first = await kicked_before_repair(night, "race")
        live = [m for m in first if m.state == "open"]
        assert live, first
        store, tables = night.store, night.bot.tables
        claim = store.tournaments.repair_round
        pressed: list[asyncio.Task[Any]] = []

        async def with_a_move(*args: Any, **kwargs: Any) -> Any:
            if not pressed:  # the card comes in now (the press's own path) …
                task = asyncio.create_task(a_press(tables, live[0].table_id))
                pressed.append(task)
                # … and is made, or waits for the table's lock
                while not task.done() and not waiting_for(tables, live[0].table_id):
                    await asyncio.sleep(0)
            return await claim(*args, **kwargs)

        store.tournaments.repair_round = with_a_move
        res = await people[0].slash(hall, "tournament repair")
        store.tournaments.repair_round = claim
        assert pressed, "the card was not played during the repair"
        moved = await pressed[0]
        await night.settle()
        old_tables = [m.table_id for m in first if m.table_id is not None]
        thrown = [t for t in old_tables if await store.tables.get_table(t) is None
                  and any(line["origin"] == "press" for line in await store.tables.ledger(t))
                  and not any(m.table_id == t and m.state == "finished" for m in first)]  # fmt: skip
        assert thrown == [], "a move was made at a table the repair closed"
        if says(answer(res), "tournament.ok.repaired", round=1):
            assert not moved  # the press found its table gone
        else:
            assert says(answer(res), "tournament.error.round_started"), answer(res)


async def test_a_table_closed_by_a_repair_says_the_round_was_paired_again(game_night):
    """The tables a re-pair closes say so — the organiser paired the round
    again, nobody scores there — in the table's language, not "nobody played
    for 3 turn clocks" (nobody had had a turn clock to play)."""
    async with game_night(seeded=True, managers=["alice"], settings={"lang": "ja"}) as night:
        hall, people, first = await kicked_before_repair(night, "closed")
        shown = []
        for m in first:
            row = await night.store.tables.get_table(m.table_id) if m.table_id else None
            if row is not None:
                shown.append((m.thread_id, row.message_id))
        assert shown
        res = await people[0].slash(hall, "tournament repair")
        assert says(answer(res), "tournament.ok.repaired", round=1), answer(res)
        for thread_id, message_id in shown:
            text = night.env.backend.get_message(thread_id, message_id).content
            assert says(text, "result.repaired", "ja", user=people[0].mention, round=1), text
            assert not says(text, "result.abandoned_idle", "ja"), text


# ------------------------------------------ 5: abandoned games


async def test_the_seed_of_a_game_ended_without_a_result_can_be_checked(game_night):
    """The host ends a Nine game alone (Nine settles nothing as it stands:
    no result). Its message says the seed is under 🔑 Seed — and now that
    button is there: anyone who sees the table presses it and is told the
    seed privately, in their language, its hash the one the table showed;
    the seed never appears in public."""
    async with game_night(seeded=True, locales={"bob": "ja"}) as night:
        table = await night.table("nine")
        (row,) = await night.store.tables.live_tables()
        seed = row.seed
        (shown,) = re.findall(r"`([0-9a-f]{8})`", table.content)
        await table.command(night.alice, "game end")
        assert await night.store.tables.get_table(row.id) is None and await night.store.results.all() == []
        button = t("result.btn.fair")
        assert table.shows("seed.result.dice", hash=shown, button=button), table.content
        assert table.over and seed not in table.content
        for user, lang in ((night.eve, "en"), (night.bob, "ja")):
            res = await table.press(button, by=user)
            assert privately(res, "result.fair.dice", lang, seed=seed, hash=shown), res
        assert seed not in table.content
        # a custom id made by hand for a live table tells nothing
        other = await night.table("nine", players=[night.carol, night.dave])
        (live,) = [r for r in await night.store.tables.live_tables() if r.id != row.id]
        forged = f"cr:0:fair:t{live.id}"
        res = await press_from_snapshot(night.carol, night.env,
                                        snapshot_with(snapshot(night.env, other.message), forged),
                                        forged)  # fmt: skip
        assert privately(res, "error.fair_unseeded"), res
        assert live.seed not in str(res.response.content)


@on_both_databases
async def test_a_game_ended_without_a_result_whose_edit_failed_is_shown_later(game_night):
    """The edit that shows a Nine game ended without a result failed once
    (a 500): the message kept the live game (nothing noted it was not
    shown). The repair sweep shows the end — no table controls left, the
    seed's button there — and then leaves it."""
    async with game_night(seeded=True) as night:
        table = await night.table("nine")
        (row,) = await night.store.tables.live_tables()
        night.env.inject_error("PATCH", "/channels/*/messages/*", status=500, code=0, times=1)
        await table.command(night.alice, "game end")
        assert await night.store.tables.get_table(row.id) is None
        assert not table.over  # still the live game
        await night.wait(REPAIR_EVERY + 15)
        assert table.over, table.content
        assert table.shows("result.abandoned", game="Nine", user=night.alice.mention), table.content
        assert t("result.btn.fair") in table.buttons
        stored = night.env.backend.get_message(table.channel.id, table.message.id)
        edited = stored.edited_timestamp
        await night.wait(REPAIR_EVERY * 2)
        assert stored.edited_timestamp == edited  # shown: not redrawn again and again


# ------------------------------------------ 6: the standings' last edit


@on_both_databases
async def test_a_failed_final_edit_of_the_standings_is_repaired(game_night):
    """The last match ends and the edit that shows the final standings
    fails (a 500): nothing comes after the final round, so the message kept
    "round 1 being played" for good. The sweep edits it again, once."""
    async with game_night(seeded=True, managers=["alice"]) as night:
        alice, bob, carol = night.member("alice"), night.member("bob"), night.member("carol")
        hall, signup = await signed_up(night, alice, "last-edit", (bob, carol), rounds=1,
                                       options="target=1")  # fmt: skip
        await press(alice, signup, 1, "start")
        row = await event(night)
        assert row.standings_message_id is not None
        board = night.env.backend.get_message(hall.id, row.standings_message_id)
        assert says(board.content, "tournament.standings.live", game="Sixty-Six", round=1)
        night.env.inject_error("PATCH", f"/channels/{hall.id}/messages/{board.id}", status=500,
                               code=0, times=1)  # fmt: skip
        await bob.slash(hall, "tournament drop")
        await night.settle()
        assert (await event(night)).state == "finished"
        board = night.env.backend.get_message(hall.id, board.id)
        assert says(board.content, "tournament.standings.live", game="Sixty-Six", round=1)
        await night.wait(35)
        board = night.env.backend.get_message(hall.id, board.id)
        assert says(board.content, "tournament.standings.title", game="Sixty-Six", round=1), board
        edited = board.edited_timestamp
        await night.wait(70)
        assert night.env.backend.get_message(hall.id, board.id).edited_timestamp == edited


# ------------------------------------------ 7: a member who left the server


async def test_a_member_who_left_the_server_is_not_paired_again(game_night):
    """Four players of Sixty-Six. dave plays his round 1 match, then leaves
    the server before the round ends. Round 2 pairs the three still here (a
    match and a bye): dave is not paired again (he was, and his matches
    forfeited one after another), and the standings say he left."""
    async with game_night(seeded=True, managers=["alice"], locales={"carol": "ja"}) as night:
        people = [night.member(n) for n in ("bob", "carol", "dave", "erin")]
        dave = night.member("dave")
        hall, signup = await signed_up(night, night.member("alice"), "gone", people, rounds=3,
                                       options="target=1")  # fmt: skip
        await press(night.member("alice"), signup, 1, "start")
        first = await matches(night, 1)
        mine = next(m for m in first if dave.id in m.seats)
        await play_match(night, mine, "sixtysix")
        night.guild.remove_member(dave)
        for m in first:
            if m is not mine:
                await play_match(night, m, "sixtysix")
        await night.settle()
        row = await event(night)
        assert row.round == 2
        second = await matches(night, 2)
        assert dave.id not in {u for m in second for u in m.seats}, second
        assert sorted(len(m.seats) for m in second) == [1, 2]
        statuses = {e.user_id: e.status for e in await night.store.tournaments.entrants(1)}
        assert statuses[dave.id] == "left"
        board = night.env.backend.get_message(hall.id, row.standings_message_id).content
        assert says(board, "tournament.standings.left", players=dave.mention), board


# ------------------------------------------ 8: what players are told


async def test_a_kick_or_drop_before_the_start_speaks_of_no_game(game_night):
    """Before the start there is no game to forfeit: a kick says the player
    is out and cannot join again, a /tournament drop that the player left —
    neither speaks of a forfeited game (both did)."""
    async with game_night(seeded=True, managers=["alice"], locales={"alice": "ja"}) as night:
        alice, bob, carol = night.member("alice"), night.member("bob"), night.member("carol")
        hall, _signup = await signed_up(night, alice, "early", (bob, carol))
        res = await alice.slash(hall, "tournament kick", user=bob)
        assert says(answer(res), "tournament.ok.kicked_signup", "ja", user=bob.mention, id=1)
        assert not says(answer(res), "tournament.ok.kicked", "ja", user=bob.mention, id=1)
        res = await carol.slash(hall, "tournament drop")
        assert says(answer(res), "tournament.ok.dropped_signup", user=carol.mention, id=1)
        assert not says(answer(res), "tournament.ok.dropped", user=carol.mention, id=1)
        statuses = {e.user_id: e.status for e in await night.store.tournaments.entrants(1)}
        assert statuses == {bob.id: "kicked", carol.id: "dropped"}


async def test_a_player_dropped_at_check_in_is_told(game_night):
    """bob, carol and dave join an event with a check-in; dave does not
    check in. At the start he is dropped — and told so, by name, in the
    event's channel (he was not told: he learnt it from the pairings)."""
    async with game_night(seeded=True, managers=["alice"], settings={"lang": "ja"}) as night:
        people = [night.member(n) for n in ("bob", "carol", "dave")]
        hall, signup = await signed_up(night, night.member("alice"), "checkin", people,
                                       starts_at="3m", checkin=1, options="target=1")  # fmt: skip
        await night.wait(125)  # the check-in opens
        for user in people[:2]:
            await press(user, signup, 1, "checkin")
        await night.wait(60)
        assert (await event(night)).state == "running"
        dave = people[2]
        told = posts(hall, "tournament.checkin_dropped", "ja", players=dave.mention, id=1)
        assert len(told) == 1, [m.content for m in hall.history()]


async def test_a_called_off_event_is_not_listed_as_ended_early(game_night):
    """An event called off at its start time (one player) is listed by
    /tournament history as called off, not as "ended early"."""
    async with game_night(seeded=True, managers=["alice"]) as night:
        alice = night.member("alice")
        hall, _signup = await signed_up(night, alice, "nobody", (alice,), starts_at="2m")
        await night.wait(125)
        assert (await event(night)).state == "ended"
        res = await alice.slash(hall, "tournament history")
        text = answer(res)
        assert t("tournament.state.unstarted") in text, text
        assert t("tournament.state.ended") not in text, text


async def test_match_threads_of_two_events_have_names_of_their_own(game_night):
    """Two events of one server, in two channels: their match threads are
    told apart by name (both were "Round 1 · match 1")."""
    async with game_night(seeded=True, managers=["alice"]) as night:
        alice = night.member("alice")
        names = []
        for n, (channel, players) in enumerate(
            (("east", ("bob", "carol")), ("west", ("dave", "erin"))), start=1
        ):
            hall = night.guild.create_text_channel(channel)
            signup = await create(night, alice, hall, game="sixtysix", format="swiss",
                                  options="target=1")  # fmt: skip
            for name in players:
                await press(night.member(name), signup, n, "join")
            await press(alice, signup, n, "start")
            (thread,) = hall.threads
            assert says(thread.name, "tournament.thread", id=n, round=1, number=1), thread.name
            names.append(thread.name)
        assert names[0] != names[1]


async def test_a_matchs_introduction_comes_before_its_table_and_turn_ping(game_night):
    """In a match's thread the introduction ("this table is your round 1
    match…") comes first, then the table and the ping of whoever moves
    first (it came after them)."""
    async with game_night(seeded=True, managers=["alice"]) as night:
        alice, bob, carol = night.member("alice"), night.member("bob"), night.member("carol")
        hall, signup = await signed_up(night, alice, "intro", (bob, carol), options="target=1")
        await press(alice, signup, 1, "start")
        await night.settle()
        (match,) = await matches(night, 1)
        (thread,) = hall.threads
        history = sorted(thread.history(), key=lambda m: m.id)
        intro = [i for i, m in enumerate(history) if says(m.content, "tournament.match.ping")]
        assert intro == [0], [m.content for m in history]
        table = await night.store.tables.get_table(match.table_id)
        assert [m.id for m in history].index(table.message_id) > 0


async def test_a_match_ending_while_the_round_is_paired_again_does_not_wait_forever(game_night):
    """Seven players: dave is kicked (his match ends), and another match
    ends (a forfeit, under its table's lock) just as the organiser's
    re-pair asks for that table's lock. A match's end takes its
    table's lock, then the tournament's (to record it): the re-pair takes
    them in the same order, so the end is recorded and the re-pair goes on
    — it held the tournament's lock while it waited for the table's, and
    the two would have waited on each other for good."""
    async with game_night(seeded=True, managers=["alice"]) as night:
        hall, people, first = await kicked_before_repair(night, "order", 7)  # 3 matches, a bye
        live = next(m for m in first if m.state == "open")
        desk, tables = night.bot.tournaments, night.bot.tables
        lock = tables.lock
        ended: list[asyncio.Task[Any]] = []

        def hooked(table_id: int, **kwargs: Any) -> Any:
            if table_id == live.table_id and not ended:  # the re-pair asks for it: the end comes first
                ended.append(asyncio.create_task(end_match()))
                return waiting(lock(table_id, **kwargs))
            return lock(table_id, **kwargs)

        async def end_match() -> None:
            await desk.forfeit(await event(night), live.seats[0])

        @contextlib.asynccontextmanager
        async def waiting(inner: Any) -> Any:
            task = ended[0]
            while not task.done() and not getattr(desk.lock(1), "_waiters", None):
                await asyncio.sleep(0)
            assert task.done(), "the end waits for the tournament's lock the re-pair holds"
            async with inner:
                yield

        tables.lock = hooked
        try:
            res = await people[0].slash(hall, "tournament repair")
        finally:
            tables.lock = lock
        assert ended and ended[0].done()
        assert says(answer(res), "tournament.ok.repaired", round=1), answer(res)
        assert await night.store.tables.get_table(live.table_id) is None


async def test_a_member_who_left_before_the_start_is_not_in_round_1(game_night):
    """dave joins, then leaves the server before the host presses Start:
    round 1 pairs bob and carol only (dave's match would have forfeited
    after three turn clocks), and the standings say he left."""
    async with game_night(seeded=True, managers=["alice"]) as night:
        bob, carol, dave = (night.member(n) for n in ("bob", "carol", "dave"))
        hall, signup = await signed_up(night, night.member("alice"), "before", (bob, carol, dave),
                                       options="target=1")  # fmt: skip
        night.guild.remove_member(dave)
        await press(night.member("alice"), signup, 1, "start")
        (match,) = await matches(night, 1)
        assert sorted(match.seats) == sorted((bob.id, carol.id))
        row = await event(night)
        board = night.env.backend.get_message(hall.id, row.standings_message_id).content
        assert says(board, "tournament.standings.left", players=dave.mention), board
