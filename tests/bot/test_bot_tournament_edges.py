"""Tournaments, the last edges (issue 26): what happens around a match and
an event when something is out of the ordinary. Each story through SimCord:
a database that cannot be written while an event is due to start (the
sweep backs off as the turn-clock sweeper does), a hand-made Rematch press
under a match's result, ``/game end`` inside a match, a join at the moment
the event starts, and the words an organiser reads."""

from __future__ import annotations

from typing import Any

from conftest import snapshot_with
from simtable import on_both_databases, press_from_snapshot, says, snapshot
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
    table_of_result,
)

from bot.followers.clock import BACKOFF_MAX
from bot.followers.tournament import Desk
from bot.i18n import t
from bot.tournament.service import Outcome


async def signed_up(
    night: Any, host: Any, name: str, players: Any, game: str = "sixtysix", **options: Any
) -> tuple[Any, Any]:
    """``host`` creates a Swiss event of ``game`` in a new channel ``name``
    and ``players`` join it: (the channel, the sign-up message)."""
    hall = night.guild.create_text_channel(name)
    signup = await create(night, host, hall, game=game, format="swiss", **options)
    for user in players:
        await press(user, signup, 1, "join")
    return hall, signup


# ------------------------------------------ 1: an unwritable database, backed off


async def test_an_unwritable_database_backs_the_tournament_sweep_off(game_night, caplog):
    """An event due to start while the database cannot be written for ten
    minutes: the operator is told once and reminded every few minutes (it
    was a warning every 5 s sweep, 121 of them), the sweep tries less and
    less often, and once writes work the event starts, once."""
    async with game_night(seeded=True, managers=["alice"]) as night:
        people = [night.member(n) for n in EIGHT[:4]]
        hall, signup = await signed_up(night, people[0], "read-only", people, rounds=1,
                                       options="target=1", starts_at="1m")  # fmt: skip
        store = night.store
        tries = 0  # sweeps that went to the database (each reads the live events first)
        live = store.tournaments.live_tournaments

        async def counted() -> Any:
            nonlocal tries
            tries += 1
            return await live()

        store.tournaments.live_tournaments = counted
        caplog.clear()
        async with read_only(night):
            await night.wait(60)  # the start time: from here each sweep must write
            tries = 0
            await night.wait(600)
            assert (await event(night)).state == "signup"
        lines = [r for r in caplog.records if r.name == "bot.followers.tournament"]
        assert 1 <= len(lines) <= 3, [r.getMessage() for r in lines]  # once, reminders
        assert all(r.exc_info is None for r in lines)  # no traceback
        assert "cannot be written" in lines[0].getMessage()
        assert "make the database writable" in lines[0].getMessage()
        assert tries <= 20, tries  # backed off (one every 5 s before)
        caplog.clear()
        await night.wait(BACKOFF_MAX + 1)
        row = await event(night)
        assert (row.state, row.round) == ("running", 1)  # started, once
        assert len(await matches(night, 1)) == 2
        assert len(posts(hall, "tournament.round.title", round=1, rounds=1)) == 1
        assert any("can be written again" in r.getMessage() for r in caplog.records)


async def two_player_match(night: Any, name: str = "match", **options: Any) -> tuple[Any, Any, Any]:
    """alice hosts a one-round Sixty-Six event of bob and carol, started:
    (the channel, the sign-up message, their match)."""
    alice, bob, carol = night.member("alice"), night.member("bob"), night.member("carol")
    hall, signup = await signed_up(night, alice, name, (bob, carol), rounds=1, options="target=1",
                                   **options)  # fmt: skip
    await press(alice, signup, 1, "start")
    (match,) = await matches(night, 1)
    assert match.state == "open"
    return hall, signup, match


# ------------------------------------------------ 2: no rematch in an event


async def test_a_hand_made_rematch_press_under_a_match_result_is_refused(game_night):
    """The result of a tournament's match shows no Rematch; a press made by
    hand with its custom id (``cr:<result>:rematch``) is refused in the
    presser's language, and no lobby is opened in the match's thread."""
    async with game_night(seeded=True, managers=["alice"], locales={"carol": "ja"}) as night:
        hall, _signup, match = await two_player_match(night)
        bob, carol = night.member("bob"), night.member("carol")
        res = await bob.slash(hall, "tournament drop")
        assert says(answer(res), "tournament.ok.dropped", user=bob.mention, id=1)
        await night.settle()
        done = (await matches(night, 1))[0]
        assert done.state == "finished" and done.result_id is not None
        ended = await table_of_result(night, done)
        forged = f"cr:{done.result_id}:rematch"
        payload = snapshot_with(snapshot(night.env, ended), forged)
        for user, lang in ((carol, "ja"), (bob, "en")):
            res = await press_from_snapshot(user, night.env, payload, forged)
            assert res.response is not None and res.response.ephemeral, res
            assert says(res.response.content, "tournament.error.no_rematch", lang), res
        assert await night.store.tables.table_in_channel(done.thread_id) is None  # no lobby
        assert await night.store.tables.live_tables() == []


# ------------------------------------------- 3: /game end inside a match


async def test_game_end_in_a_match_is_the_organisers_and_a_double_forfeit(game_night):
    """Six Dice at tables of two (the one game that settles "as it stands"):
    the players cannot end their match, alone or by agreeing (they are told
    to drop instead), and the table goes on; the event's host, who does not
    play, ends it: the match counts as a double forfeit — nobody scores at
    it, 0 each (the places as they stood made it a draw, ½ each) — the
    thread says so, and the round goes on (here: the event is over)."""
    async with game_night(seeded=True, managers=["alice"], locales={"carol": "ja"}) as night:
        alice, bob, carol = night.member("alice"), night.member("bob"), night.member("carol")
        hall, signup = await signed_up(night, alice, "dice", (bob, carol), game="sixdice",
                                       rounds=1, table_size=2)  # fmt: skip
        await press(alice, signup, 1, "start")
        (match,) = await matches(night, 1)
        thread = next(c for c in hall.threads if c.id == match.thread_id)
        version = (await night.store.tables.get_table(match.table_id)).version
        for user, lang in ((bob, "en"), (carol, "ja"), (night.member("dave"), "en")):  # dave: neither
            res = await user.slash(thread, "game end")
            assert says(answer(res), "tournament.error.end_match", lang, id=1), res
        live = await night.store.tables.get_table(match.table_id)
        assert live is not None and live.version == version  # nothing changed
        assert (await matches(night, 1))[0].state == "open"
        await alice.slash(thread, "game end")  # the host
        await night.settle()
        done = (await matches(night, 1))[0]
        assert done.state == "finished"
        assert done.points == {bob.id: 0.0, carol.id: 0.0}  # a double forfeit
        said = posts(thread, "tournament.match.void", user=alice.mention, id=1)
        assert len(said) == 1
        row = await event(night)
        assert row.state == "finished"
        assert [s.points for s in await night.bot.tournaments.service.standings(row)] == [0, 0]


async def test_an_organiser_who_plays_at_a_match_cannot_end_it(game_night):
    """The event's host plays in it: at her own match, /game end is refused
    (another organiser ends it); the server's tournament role is an
    organiser."""
    async with game_night(seeded=True, managers=["carol"]) as night:
        bob, carol = night.member("bob"), night.member("carol")
        role = night.guild.create_role("organisers")
        await night.settings(tournament_role=role.id)
        erin = night.guild.add_member(night.env.create_user("erin"), roles=[role])
        hall, signup = await signed_up(night, carol, "host-plays", (bob, carol), rounds=1,
                                       options="target=1")  # fmt: skip
        await press(carol, signup, 1, "start")
        (match,) = await matches(night, 1)
        thread = next(c for c in hall.threads if c.id == match.thread_id)
        res = await carol.slash(thread, "game end")
        assert says(answer(res), "tournament.error.end_own_match", id=1), res
        assert (await matches(night, 1))[0].state == "open"
        await erin.slash(thread, "game end")  # the tournament role
        await night.settle()
        done = (await matches(night, 1))[0]
        assert done.state == "finished" and done.points == {bob.id: 0.0, carol.id: 0.0}


# ------------------------------------------ 4: a join at the moment of the start


@on_both_databases
async def test_a_join_at_the_moment_the_event_starts_is_exact(game_night):
    """erin's Join, in another process that read the sign-up while it was
    still open, comes in just as the host's Start pairs round 1 (between
    the start reading the players and claiming the round). She is either in round 1 and told she is in, or refused and
    told the event started without her — never told "you are in" and left
    out of round 1 to be paired from round 2 (as she was)."""
    async with game_night(seeded=True, managers=["alice"]) as night:
        people = [night.member(n) for n in EIGHT[:4]]
        erin = night.member("erin")
        hall, signup = await signed_up(night, people[0], "at-once", people, rounds=2,
                                       options="target=1")  # fmt: skip
        bot = night.bot
        other = Desk(bot, bot.tables)  # another process: locks of its own
        store = night.store
        claim = store.tournaments.claim_round
        told: list[Outcome] = []
        seen = await event(night)  # the sign-up as the other process read it: open

        async def join_first(row: Any, *args: Any, **kwargs: Any) -> bool:
            if not told:  # erin's Join, in the other process, comes in now
                told.append(await other.service.join(seen, erin.id, "erin"))
            return await claim(row, *args, **kwargs)

        store.tournaments.claim_round = join_first
        await press(people[0], signup, 1, "start")
        store.tournaments.claim_round = claim
        assert told, "erin's join did not run during the start"
        first = await matches(night, 1)
        in_round_1 = erin.id in {u for m in first for u in m.seats}
        statuses = {e.user_id: e.status for e in await store.tournaments.entrants(1)}
        key = told[0].key  # what the Join press answers her (Desk.press)
        if in_round_1:
            assert key == "tournament.ok.joined", key
        else:
            assert key == "tournament.error.join_started", key
            assert says(t(key, "en", **(told[0].args or {})), key, id=1)
            assert statuses.get(erin.id) is None  # not signed up
        # and so never paired later without having played round 1
        for m in first:
            if m.state == "open":
                await play_match(night, m, "sixtysix")
        second = await matches(night, 2)
        assert (erin.id in {u for m in second for u in m.seats}) == in_round_1


@on_both_databases
async def test_leave_and_join_refused_once_the_start_is_claimed(game_night):
    """The start claimed (the event is running, round 1 not paired yet):
    Leave says to use /tournament drop, Join says it started without you,
    and the sweep pairs round 1 of an event left so (a process died)."""
    async with game_night(seeded=True, managers=["alice"], locales={"bob": "ja"}) as night:
        people = [night.member(n) for n in EIGHT[:4]]
        hall, signup = await signed_up(night, people[0], "claimed", people, rounds=1,
                                       options="target=1")  # fmt: skip
        row = await event(night)
        assert await night.store.tournaments.update_tournament(row, state="running")  # the claim, then a crash
        res = await press(people[1], signup, 1, "leave")
        assert says(answer(res), "tournament.error.leave_started", "ja", id=1), answer(res)
        res = await press(night.member("erin"), signup, 1, "join")
        assert says(answer(res), "tournament.error.join_started", id=1), answer(res)
        await night.wait(35)  # the sweep's repair starts it again
        row = await event(night)
        assert (row.state, row.round) == ("running", 1)
        first = await matches(night, 1)
        assert sorted(u for m in first for u in m.seats) == sorted(p.id for p in people)


# ---------------------------------------------- 5: the words an organiser reads


@on_both_databases
async def test_times_are_each_readers_own_and_a_call_off_says_what_happened(game_night):
    """The start time and the check-in's end are Discord timestamps of the
    date and time (``<t:…:f>``: each reader sees their own time zone), not
    only "in 3 minutes"; an event called off at its start for want of
    players says it ended before it started (it said "Ended by the host"),
    in English and in Japanese."""
    async with game_night(seeded=True, managers=["alice"]) as night:
        alice = night.member("alice")
        for lang, name in (("en", "later"), ("ja", "あとで")):
            await night.settings(lang=lang)
            hall = night.guild.create_text_channel(name)
            signup = await create(night, alice, hall, game="sixtysix", format="swiss",
                                  starts_at="3m", checkin=1)  # fmt: skip
            row = (await night.store.tournaments.guild_tournaments(night.guild.id, limit=1))[0]
            assert row.lang == lang and row.starts_at is not None
            stamp = int(row.starts_at)
            assert f"<t:{stamp}:f>" in signup.content and f"<t:{stamp}:R>" in signup.content
            await press(alice, signup, row.id, "join")  # one player: too few
            await night.wait(130)
            call = posts(hall, "tournament.checkin_call", lang, id=row.id, minutes=1, count=1,
                         when=f"<t:{stamp}:f>")  # fmt: skip
            assert len(call) == 1, [m.content for m in hall.history()]
            await night.wait(60)
            assert (await night.store.tournaments.get_tournament(row.id)).state == "ended"
            assert posts(hall, "tournament.called_off", lang, id=row.id, min=2)
            shown = night.env.backend.get_message(hall.id, signup.id).content
            assert says(shown, "tournament.ended_unstarted", lang), shown


async def test_after_tournament_end_its_games_end_as_normal_games(game_night):
    """/tournament end: the games being played go on as normal games, so
    /game end in one is the usual agreement again (not the organisers')."""
    async with game_night(seeded=True, managers=["alice"]) as night:
        hall, _signup, match = await two_player_match(night, "over")
        bob = night.member("bob")
        thread = next(c for c in hall.threads if c.id == match.thread_id)
        res = await bob.slash(thread, "game end")
        assert says(answer(res), "tournament.error.end_match", id=1)
        res = await night.member("alice").slash(hall, "tournament end")
        assert says(answer(res), "tournament.ok.ended", id=1)
        res = await bob.slash(thread, "game end")
        assert says(answer(res), "end.agreed", n=1, m=2), answer(res)
