"""Tournaments through SimCord (issue 26): events whose matches are real
tables, each in a thread of its own under the tournament's channel, and
whose standings move by themselves as the games end.

The stories: an 8-player Swiss Sixty-Six of 3 rounds to the final standings
with a restart mid-round and a no-show who forfeits through the turn
clock; a 6-player knockout with byes; a 9-player Nine with tables of 3 and
computers filling the empty seats; a host re-pairing a round; and (on
PostgreSQL) two processes finishing a round's last two matches at the same
moment — the round advances exactly once.
"""

from __future__ import annotations

import asyncio
from typing import Any

from conftest import Night, Table
from simcord.results import ResponseMessage
from simtable import on_postgres, says
from test_bot_stacks import start_stack, stop_stack

from bot.tournament import pairing
from bot.tournament.rows import MatchRow, TournamentRow

EIGHT = ("alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi")
CLOCK = 30  # the matches' turn clock (seconds): the shortest /config allows


async def create(night: Night, host: Any, channel: Any, **options: Any) -> Any:
    """``/tournament create`` in ``channel``; the sign-up message."""
    res = await host.slash(channel, "tournament create", **options)
    assert res.response is not None and not res.response.ephemeral, res
    return res.response


async def press(user: Any, signup: Any, tournament_id: int, action: str) -> Any:
    return await user.click(signup, custom_id=f"ct:{tournament_id}:{action}")


async def event(night: Night, tournament_id: int = 1) -> TournamentRow:
    row = await night.store.tournaments.get_tournament(tournament_id)
    assert row is not None
    return row


async def matches(night: Night, round_no: int, tournament_id: int = 1) -> list[MatchRow]:
    return await night.store.tournaments.matches(tournament_id, round=round_no)


async def table_of(night: Night, match: MatchRow, game: str) -> Table:
    """The page object of a match's table, in its thread."""
    assert match.thread_id is not None and match.table_id is not None, match
    thread = next(c for c in _threads(night) if c.id == match.thread_id)
    row = await night.store.tables.get_table(match.table_id)
    assert row is not None and row.message_id is not None, match
    stored = night.env.backend.get_message(thread.id, row.message_id)
    return Table(night, ResponseMessage(night.env, stored), game, thread)


async def table_of_result(night: Night, match: MatchRow) -> Any:
    """The message of a finished match's table (its result now)."""
    result = await night.store.results.get_result(match.result_id)
    assert result is not None and result["message_id"] is not None
    stored = night.env.backend.get_message(result["channel_id"], result["message_id"])
    return ResponseMessage(night.env, stored)


def _threads(night: Night) -> list[Any]:
    return [t for c in night.guild.channels.values() for t in c.threads]


async def play_match(
    night: Night, match: MatchRow, game: str, *, absent: Any = None, limit: int = 400
) -> int:
    """The match's players make the first offered move until the game ends;
    ``absent`` never presses (the turn clock runs out for them). Presses."""
    table = await table_of(night, match, game)
    for step in range(limit):
        if table.over or await night.store.tables.get_table(match.table_id) is None:
            return step
        who = table.turn
        if who is None or isinstance(who, str):
            await night.settle()
            continue
        if absent is not None and who.id == absent.id:
            await night.wait(CLOCK + 1)
            continue
        if absent is not None:  # a card from the hand: the game goes on to her turns
            res = await _play_a_card(night, who)
            continue
        res = await table.play(by=who)
        if res.response is not None and res.response.ephemeral:
            sure = [c for c in _controls(res.response) if ":y:" in c["custom_id"]]
            if sure:  # "Declare anyway"
                await who.click(res.response, custom_id=sure[0]["custom_id"])
    raise AssertionError("the match did not end")


async def _play_a_card(night: Night, who: Any) -> Any:
    """Sixty-Six: ``who`` plays a card from the hand in their DM (no
    declaration, no closing: the deal goes on)."""
    hand = night.hand(who)
    for c in hand.controls:
        action = c["custom_id"].split(":", 3)[-1]
        if c["type"] == 3:
            return await hand.choose(c["options"][0]["value"])
        if action.startswith("m:play") or action.startswith("m:") and action not in (
            "m:declare", "m:close"
        ):
            return await hand.owner.click(hand.message, custom_id=c["custom_id"])
    raise AssertionError(f"no card to play: {hand.controls}")


def _controls(message: Any) -> list[dict[str, Any]]:
    from simtable import controls

    return controls(message)


def answer(res: Any) -> str:
    """What the user was told (a deferred answer's follow-up, or the answer)."""
    if res.followups:
        return str(res.followups[-1].content)
    assert res.response is not None, res
    return str(res.response.content)


def posts(channel: Any, key: str, lang: str = "en", /, **args: Any) -> list[Any]:
    return [m for m in channel.history() if says(m.content, key, lang, **args)]


async def test_an_eight_player_swiss_sixty_six_to_the_final_standings(game_night):
    """Sign-up, Start, three rounds of four matches each in its own thread,
    the standings redrawn in place after each match; round 2 with a restart
    in the middle and heidi not showing (she forfeits through the turn
    clock); the final standings and the podium at the end."""
    async with game_night(seeded=True, managers=["alice"]) as night:
        people = [night.member(n) for n in EIGHT]
        hall = night.guild.create_text_channel("tournament")
        signup = await create(night, people[0], hall, game="sixtysix", format="swiss",
                              rounds=3, options="target=1", clock=CLOCK)  # fmt: skip
        assert says(signup.content, "tournament.title", game="Sixty-Six", format="Swiss")
        for user in people:
            await press(user, signup, 1, "join")
        again = await press(people[1], signup, 1, "join")  # twice: told, nothing changes
        assert says(again.response.content, "tournament.error.already_in")
        stored = night.env.backend.get_message(hall.id, signup.id)
        assert says(stored.content, "tournament.players", count=8)
        refused = await press(people[1], signup, 1, "start")  # not the host
        assert says(refused.response.content, "tournament.error.host_only")
        await press(people[0], signup, 1, "start")

        row = await event(night)
        assert (row.state, row.round, row.rounds) == ("running", 1, 3)
        first = await matches(night, 1)
        assert len(first) == 4 and all(m.state == "open" and m.thread_id for m in first)
        assert len({m.thread_id for m in first}) == 4  # a thread per match
        for m in first:  # seated, started, on the event's turn clock, the players pinged
            live = await night.store.tables.get_table(m.table_id)
            assert live is not None and live.phase == "playing"
            assert [s["id"] for s in live.seats] == m.seats
            assert live.deadline is not None and live.deadline - night.clock() <= CLOCK
            thread = next(c for c in hall.threads if c.id == m.thread_id)
            pinged = posts(thread, "tournament.match.ping", round=1, number=m.number)
            assert len(pinged) == 1 and all(f"<@{u}>" in pinged[0].content for u in m.seats)
        for m in first:
            await play_match(night, m, "sixtysix")
        assert (await event(night)).round == 2
        standings = (await event(night)).standings_message_id
        assert standings is not None  # one standings message, edited in place

        second = await matches(night, 2)
        heidi = night.member("heidi")
        second.sort(key=lambda m: heidi.id in m.seats)  # hers last
        await play_match(night, second[0], "sixtysix")
        await night.restart()  # mid-round: the tables and the event are in the database
        for m in second[1:]:
            await play_match(night, m, "sixtysix", absent=heidi if heidi.id in m.seats else None)
        noshow = next(m for m in await matches(night, 2) if heidi.id in m.seats)
        assert noshow.points[heidi.id] == 0.0  # she forfeited through the clock
        other = next(u for u in noshow.seats if u != heidi.id)
        assert noshow.points[other] == 1.0

        assert (await event(night)).round == 3
        for m in await matches(night, 3):
            await play_match(night, m, "sixtysix")
        await night.settle()

        row = await event(night)
        assert row.state == "finished" and row.round == 3
        played = [m for r in (1, 2, 3) for m in await matches(night, r)]
        assert all(m.state == "finished" for m in played) and len(played) == 12
        pairs = [frozenset(m.seats) for m in played]
        assert len(set(pairs)) == 12  # Swiss: nobody met twice
        assert sum(sum(m.points.values()) for m in played) == 12  # a point a match
        table = await night.bot.tournaments.service.standings(row)
        assert [s.games for s in table] == [3] * 8
        assert table[0].points >= table[-1].points
        podium = posts(hall, "tournament.podium", game="Sixty-Six")
        assert len(podium) == 1 and f"<@{table[0].player}>" in podium[0].content
        final = night.env.backend.get_message(hall.id, standings)
        assert says(final.content, "tournament.standings.title", game="Sixty-Six", round=3)
        # every match is a normal finished game: its record and result are stored
        assert len(await night.store.results.all(game="sixtysix")) == 12
        assert [m.result_id is not None for m in played].count(True) == 12
        # the standings as anyone can ask for them
        res = await people[3].slash(hall, "tournament standings")
        assert says(res.response.content, "tournament.standings.final", game="Sixty-Six")
        res = await people[3].slash(hall, "tournament history")
        assert says(res.response.content, "tournament.history.title")
        assert pairing.FORMATS  # the pairing module the event ran on


async def test_a_six_player_knockout_with_byes_for_the_top_seeds(game_night):
    """Six players: a bracket of eight, the two top seeds (by rating) have
    a bye in round 1; the winners meet until one is left: three rounds, the
    bracket picture with the standings."""
    async with game_night(seeded=True, managers=["alice"]) as night:
        people = [night.member(n) for n in EIGHT[:6]]
        hall = night.guild.create_text_channel("knockout")
        signup = await create(night, people[0], hall, game="sixtysix", format="knockout",
                              options="target=1")  # fmt: skip
        for user in people:
            await press(user, signup, 1, "join")
        await press(people[0], signup, 1, "start")
        row = await event(night)
        assert (row.state, row.rounds) == ("running", 3)
        first = await matches(night, 1)
        byes = [m for m in first if m.state == "bye"]
        seeds = {e.user_id: e.seed for e in await night.store.tournaments.entrants(1)}
        assert sorted(seeds[m.seats[0]] for m in byes) == [1, 2]  # the top seeds
        assert sum(m.state == "open" for m in first) == 2
        round_post = posts(hall, "tournament.round.title", round=1, rounds=3)
        assert len(round_post) == 1 and all(f"<@{m.seats[0]}>" in round_post[0].content for m in byes)
        for number in (1, 2, 3):
            current = await matches(night, number)
            assert (await event(night)).round == number
            for m in current:
                if m.state == "open":
                    await play_match(night, m, "sixtysix")
        await night.settle()
        row = await event(night)
        assert row.state == "finished"
        final = (await matches(night, 3))[0]
        assert final.state == "finished" and len(final.seats) == 2
        ended = await table_of_result(night, final)
        ids = [c["custom_id"] for c in _controls(ended)]
        assert ids and not any(i.endswith(":rematch") for i in ids)  # no Rematch in an event
        champion = next(u for u, p in final.points.items() if p == 1.0)
        table = await night.bot.tournaments.service.standings(row)
        assert table[0].player == champion and table[0].place == 1
        assert [s.place for s in table] == [1, 2, 3, 3, 5, 5]  # out in the same round: one place
        podium = posts(hall, "tournament.podium", game="Sixty-Six")
        assert len(podium) == 1
        pictures = [a.filename for a in podium[0].attachments]
        assert pictures == ["standings.png", "bracket.png"]
        assert all(a.description for a in podium[0].attachments)  # alt text


async def test_nine_at_tables_of_three_with_computers_in_the_empty_seats(game_night):
    """Nine players of Nine at tables of three; one drops out after round 1,
    so round 2 seats 3 + 3 + 2 and a computer takes the empty seat; place
    points 4 / 2.5 / 1 per table."""
    async with game_night(seeded=True, managers=["alice"]) as night:
        names = (*EIGHT, "ivan")
        people = [night.member(n) for n in names]
        hall = night.guild.create_text_channel("nine-night")
        signup = await create(night, people[0], hall, game="nine", format="swiss", rounds=2,
                              table_size=3, cpu_fill=True)  # fmt: skip
        assert says(signup.content, "tournament.tables_of", count=3)
        assert says(signup.content, "tournament.cpu_fill")
        for user in people:
            await press(user, signup, 1, "join")
        await press(people[0], signup, 1, "start")
        first = await matches(night, 1)
        assert [len(m.seats) for m in first] == [3, 3, 3]
        for m in first:
            await play_match(night, m, "nine")
        for m in await matches(night, 1):
            assert sorted(m.points.values()) == [1.0, 2.5, 4.0]
        # ivan drops out between rounds: round 2 is 3 + 3 + 2, filled
        assert (await event(night)).round == 2
        ivan = night.member("ivan")
        second = await matches(night, 2)
        assert ivan.id in {u for m in second for u in m.seats}  # paired before he went
        at = next(m for m in second if ivan.id in m.seats)  # from his match's thread
        thread = next(c for c in hall.threads if c.id == at.thread_id)
        res = await ivan.slash(thread, "tournament drop")
        assert says(answer(res), "tournament.ok.dropped", user=ivan.mention, id=1)
        for m in await matches(night, 2):
            if m.state == "open":
                await play_match(night, m, "nine")
        await night.settle()
        row = await event(night)
        assert row.state == "finished"
        mine = next(m for m in await matches(night, 2) if ivan.id in m.seats)
        assert mine.points[ivan.id] == 1.0  # his seat forfeited: last place
        table = await night.bot.tournaments.service.standings(row)
        assert len(table) == 9 and table[0].points >= 5.0


async def test_nine_tables_of_three_fill_an_empty_seat_with_a_computer(game_night):
    """Eight players at tables of three: 3 + 3 + 2, and with cpu_fill the
    table of two gets a computer (normal), who plays its turns."""
    async with game_night(seeded=True, managers=["alice"]) as night:
        people = [night.member(n) for n in EIGHT]
        hall = night.guild.create_text_channel("nine-eight")
        signup = await create(night, people[0], hall, game="nine", format="swiss", rounds=1,
                              table_size=3, cpu_fill=True)  # fmt: skip
        for user in people:
            await press(user, signup, 1, "join")
        await press(people[0], signup, 1, "start")
        first = await matches(night, 1)
        assert sorted(len(m.seats) for m in first) == [2, 3, 3]
        short = next(m for m in first if len(m.seats) == 2)
        table = await night.store.tables.get_table(short.table_id)
        assert table is not None and [bool(s.get("bot")) for s in table.seats].count(True) == 1
        for m in first:
            await play_match(night, m, "nine")
        await night.settle()
        assert (await event(night)).state == "finished"
        done = next(m for m in await matches(night, 1) if m.id == short.id)
        assert set(done.points) == set(short.seats)  # the computer earns no points


async def test_the_host_pairs_a_round_again_before_it_is_played(game_night):
    """Five players of Sixty-Six: round 1 is two matches and a bye. The host
    removes dave before anyone has pressed, then pairs the round again:
    two matches of the four left, no bye; the old tables are closed. Once a
    game of the round has a move, the round cannot be paired again."""
    async with game_night(seeded=True, managers=["alice"]) as night:
        people = [night.member(n) for n in EIGHT[:5]]
        hall = night.guild.create_text_channel("repair")
        signup = await create(night, people[0], hall, game="sixtysix", format="swiss",
                              rounds=2, options="target=1")  # fmt: skip
        for user in people:
            await press(user, signup, 1, "join")
        await press(people[0], signup, 1, "start")
        first = await matches(night, 1)
        assert sorted(m.state for m in first) == ["bye", "open", "open"]
        old_tables = [m.table_id for m in first if m.table_id]
        dave = night.member("dave")
        refused = await people[1].slash(hall, "tournament repair")  # bob is not the host
        assert says(refused.response.content, "tournament.error.host_only")
        res = await people[0].slash(hall, "tournament kick", user=dave)
        assert says(answer(res), "tournament.ok.kicked", user=dave.mention, id=1)
        res = await people[0].slash(hall, "tournament repair")
        assert says(answer(res), "tournament.ok.repaired", round=1)
        again = await matches(night, 1)
        assert [m.state for m in again] == ["open", "open"]
        assert dave.id not in {u for m in again for u in m.seats}
        assert [await night.store.tables.get_table(t) for t in old_tables] == [None, None]
        assert (await event(night)).round == 1
        assert posts(hall, "tournament.repaired", round=1)
        # a move at one of the new tables: too late to pair again
        table = await table_of(night, again[0], "sixtysix")
        await _play_a_card(night, table.mover)
        res = await people[0].slash(hall, "tournament repair")
        assert says(answer(res), "tournament.error.round_started")
        assert [m.id for m in await matches(night, 1)] == [m.id for m in again]


@on_postgres
async def test_two_processes_finish_a_rounds_last_two_matches_at_once(game_night):
    """Two bot processes on one PostgreSQL database: each finishes one of
    round 1's two matches at the same moment (a player leaves, through its
    own table service and tournament desk). Both record their match and
    both see the round complete; round 2 is paired and opened exactly once:
    two matches, two threads, one announcement."""
    async with game_night(seeded=True, managers=["alice"]) as night:
        people = [night.member(n) for n in EIGHT[:4]]
        hall = night.guild.create_text_channel("two-processes")
        signup = await create(night, people[0], hall, game="sixtysix", format="swiss",
                              rounds=2, options="target=1")  # fmt: skip
        for user in people:
            await press(user, signup, 1, "join")
        await press(people[0], signup, 1, "start")
        first = await matches(night, 1)
        assert [m.state for m in first] == ["open", "open"]
        gateway = night.bot
        other = await start_stack(night, gateway)
        try:
            # "the same moment": each process has recorded its match before
            # either looks whether the round is complete
            both = asyncio.Barrier(2)
            claims: list[bool] = []
            for desk in (gateway.tournaments, other.tournaments):
                advance = desk.service.advance

                async def at_once(row: TournamentRow, advance: Any = advance) -> Any:
                    await asyncio.wait_for(both.wait(), 10)
                    return await advance(row)

                desk.service.advance = at_once
                claim = desk.store.tournaments.claim_round

                async def counted(row: TournamentRow, *args: Any, claim: Any = claim, **kw: Any) -> bool:
                    won = await claim(row, *args, **kw)
                    claims.append(won)
                    return won

                desk.store.tournaments.claim_round = counted
            row_a, row_b = await event(night), await event(night)
            # the second seat of each match leaves, one in each process, at once
            await asyncio.gather(
                gateway.tournaments.forfeit(row_a, first[0].seats[1]),
                other.tournaments.forfeit(row_b, first[1].seats[1]),
            )
            await night.settle()
            assert sorted(claims) == [False, True]  # both asked; one paired the round
            row = await event(night)
            assert (row.state, row.round) == ("running", 2)
            second = await matches(night, 2)
            assert len(second) == 2 and all(m.state == "open" for m in second)
            assert len(await matches(night, 1)) == 2
            assert all(m.state == "finished" for m in await matches(night, 1))
            assert len(posts(hall, "tournament.round.title", round=2, rounds=2)) == 1
            threads = [t for t in hall.threads if says(t.name, "tournament.thread", round=2)]
            assert len(threads) == 2  # no spare thread left by the loser of the claim
            tables = [await night.store.tables.get_table(m.table_id) for m in second]
            assert all(t is not None for t in tables)
            # the winners of round 1 meet in round 2
            winners = {m.seats[0] for m in first}
            assert any(set(m.seats) == winners for m in second)
        finally:
            await stop_stack(other)


async def test_a_round_paired_but_not_opened_is_opened_at_start_up(game_night):
    """The pairings are stored before any thread is made: when Discord
    refuses the threads (or the process dies) between the two, the matches
    wait 'paired', and the next start's repair opens them — each once."""
    async with game_night(seeded=True, managers=["alice"]) as night:
        people = [night.member(n) for n in EIGHT[:4]]
        hall = night.guild.create_text_channel("crash")
        signup = await create(night, people[0], hall, game="sixtysix", format="swiss",
                              rounds=1, options="target=1")  # fmt: skip
        for user in people:
            await press(user, signup, 1, "join")
        night.env.inject_error("POST", f"/channels/{hall.id}/threads", status=403, code=50001,
                               message="Missing Access", times=None)  # fmt: skip
        await press(people[0], signup, 1, "start")
        assert [m.state for m in await matches(night, 1)] == ["paired", "paired"]
        assert hall.threads == []
        night.env.backend.faults.clear()
        await night.restart()
        await night.wait(6)  # the sweep's first run: the start-up repair
        opened = await matches(night, 1)
        assert [m.state for m in opened] == ["open", "open"]
        assert len(hall.threads) == 2
        await night.wait(60)  # later sweeps find nothing to open
        assert len(hall.threads) == 2
        for m in opened:
            await play_match(night, m, "sixtysix")
        assert (await event(night)).state == "finished"


async def test_a_start_time_and_a_check_in_window(game_night):
    """``starts_at: 3m`` with ``checkin: 1``: the check-in opens a minute
    before the start; who has not checked in by then is dropped and round 1
    pairs the others."""
    async with game_night(seeded=True, managers=["alice"]) as night:
        people = [night.member(n) for n in EIGHT[:5]]
        hall = night.guild.create_text_channel("later")
        signup = await create(night, people[0], hall, game="sixtysix", format="round-robin",
                              options="target=1", starts_at="3m", checkin=1)  # fmt: skip
        assert says(signup.content, "tournament.checkin_rule", count=1)
        for user in people:
            await press(user, signup, 1, "join")
        assert "ct:1:checkin" not in str(signup.components)  # no check-in before its time
        await night.wait(100)
        assert (await event(night)).state == "signup"
        await night.wait(30)
        assert (await event(night)).state == "checkin"
        assert posts(hall, "tournament.checkin_call", id=1, count=1)
        for user in people[:4]:  # erin does not check in
            await press(user, signup, 1, "checkin")
        await night.wait(60)
        row = await event(night)
        assert (row.state, row.round, row.rounds) == ("running", 1, 3)  # round robin of 4
        erin = night.member("erin")
        statuses = {e.user_id: e.status for e in await night.store.tournaments.entrants(1)}
        assert statuses[erin.id] == "dropped"
        assert erin.id not in {u for m in await matches(night, 1) for u in m.seats}


async def test_bad_values_are_refused_and_change_nothing(game_night):
    async with game_night(managers=["alice"], locales={"bob": "ja"}) as night:
        alice, bob = night.alice, night.bob
        hall = night.guild.create_text_channel("bad")
        cases = [
            ({"game": "nine", "format": "swiss", "table_size": 9}, "tournament.error.bad_table_size"),
            ({"game": "sixtysix", "format": "swiss", "table_size": 3},
             "tournament.error.bad_table_size"),
            ({"game": "nine", "format": "knockout", "table_size": 3},
             "tournament.error.knockout_two"),
            ({"game": "sixtysix", "format": "swiss", "rounds": 99}, "tournament.error.bad_rounds"),
            ({"game": "sixtysix", "format": "swiss", "clock": 5}, "tournament.error.bad_clock"),
            ({"game": "sixtysix", "format": "swiss", "starts_at": "soon"},
             "tournament.error.bad_start"),
            ({"game": "sixtysix", "format": "swiss", "options": "target=99"}, "error.bad_options"),
            ({"game": "sixtysix", "format": "swiss", "checkin": 500},
             "tournament.error.bad_checkin"),
        ]  # fmt: skip
        for options, key in cases:
            res = await alice.slash(hall, "tournament create", **options)
            assert res.response.ephemeral and says(res.response.content, key), (options, res)
        res = await bob.slash(hall, "tournament create", game="sixtysix", format="swiss")
        assert says(res.response.content, "tournament.error.no_permission", "ja")
        res = await bob.slash(hall, "tournament drop")
        assert says(answer(res), "tournament.error.none_here", "ja")
        res = await bob.slash(hall, "tournament standings", id=77)
        assert says(answer(res), "tournament.error.not_found", "ja")
        assert await night.store.tournaments.guild_tournaments(night.guild.id) == []
        # a role the server names may create them (/config tournament_role)
        role = night.guild.create_role("organisers")
        await night.settings(tournament_role=role.id)
        carol = night.guild.add_member(night.env.create_user("carol"), roles=[role])
        signup = await create(night, carol, hall, game="sixtysix", format="swiss")
        assert says(signup.content, "tournament.host", host=carol.mention)
