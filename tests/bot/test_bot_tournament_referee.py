"""The referee of tests/tournament/test_referee.py on whole events played
through SimCord (issue 33): each event is run to its end by the real bot —
sign-up, start, matches in threads played to their results, members who
leave the server, drops, kicks, a check-in drop — and then recomputed from
what is stored (the matches, the results' places, the seeds) by the
oracle, which reads docs/tournaments.md alone: every match's points from
its result, every two-player Swiss round (the bye, the fewest rematches by
brute force, the first move), the knockout's bracket, the tables' sizes and
their round 1, the number of rounds, the standings (places, points,
Buchholz, Sonneborn–Berger, Wins, the game's own results, games played),
and what players read: the final standings' places ("3=" shared), the
podium's medals (a shared place shares its medal), the bracket's alt text
(who went through, never a negative score).
"""

from __future__ import annotations

import importlib.util
import math
import re
import sys
from collections.abc import Awaitable, Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

from simtable import says
from test_bot_tournament import (
    CLOCK,
    EIGHT,
    answer,
    create,
    event,
    matches,
    play_match,
    posts,
    press,
)
from test_bot_tournament_pairing import first_mover, vary_seeds

from bot.i18n import t
from bot.tournament.rows import MatchRow


def _oracle() -> Any:
    """The oracle module (tests/tournament/test_referee.py), by its path: the
    two test folders are not packages."""
    name = "tournament_referee_oracle"
    if name not in sys.modules:
        path = Path(__file__).resolve().parents[1] / "tournament" / "test_referee.py"
        spec = importlib.util.spec_from_file_location(name, path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


REF = _oracle()
PODIUM = ("🥇", "🥈", "🥉")
Hook = Callable[[int, Any], Awaitable[None]]


# --------------------------------------------------------------------------
# Running an event to its end


async def run_event(
    night: Any,
    hall: Any,
    people: list[Any],
    *,
    game: str,
    fmt: str,
    tid: int = 1,
    before: Hook | None = None,
    absent: Any = None,
    **options: Any,
) -> Any:
    """``people[0]`` creates the event in ``hall``, everyone joins, the host
    starts it, and every open match is played until the event is over.
    ``before(round, row)`` runs once as each round opens (a member leaves,
    a player drops…); ``absent`` never presses (the turn clock plays)."""
    host = people[0]
    signup = await create(night, host, hall, game=game, format=fmt, **options)
    for user in people:
        await press(user, signup, tid, "join")
    await press(host, signup, tid, "start")
    seen: set[int] = set()
    for _ in range(60):
        row = await event(night, tid)
        if row.state != "running":
            return row
        if row.round not in seen:
            seen.add(row.round)
            if before is not None:
                await before(row.round, row)
                continue
        for m in await matches(night, row.round, tid):
            fresh = await night.store.tournaments.get_match(m.id)
            if fresh.state == "open" and await night.store.tables.get_table(fresh.table_id):
                who = absent if absent is not None and absent.id in fresh.seats else None
                await play_match(night, fresh, game, absent=who)
        await night.settle()
    raise AssertionError("the event did not end")


# --------------------------------------------------------------------------
# The oracle on what is stored


def o_match_points(m: MatchRow, result: dict[str, Any] | None, size: int) -> dict[int, Fraction]:
    """A match's points from its stored result, by the doc ("How a round
    advances", 1): the places of everyone who sat, computers included —
    two-player 1 / ½ / 0, tables the place points; no result (abandoned,
    an organiser's end): nobody scores; a player missing from the result
    (removed: a forfeit) nothing, and the one left wins."""
    people = [u for u in m.seats if u > 0]
    if result is None:
        return dict.fromkeys(people, Fraction(0))
    ranked = [(int(s["id"]), int(s["rank"])) for s in result["seats"] if "rank" in s]
    if len(ranked) == 1:
        win = Fraction(1) if size == 2 else Fraction(4)
        return {u: win if u == ranked[0][0] else Fraction(0) for u in people}
    ranks = [r for _, r in ranked]
    places = [1 + sum(1 for q in ranks if q < r) for r in ranks]
    if size == 2:
        (a, ra), (b, rb) = ranked
        pts = {a: Fraction(1), b: Fraction(0)} if ra < rb else {a: Fraction(0), b: Fraction(1)}
        if ra == rb:
            pts = {a: Fraction(1, 2), b: Fraction(1, 2)}
    else:
        pts = dict(
            zip([u for u, _ in ranked], REF.o_place_points(len(ranked), places), strict=True)
        )
    return {u: pts.get(u, Fraction(0)) for u in people}


async def referee(night: Any, tid: int, *, asked: int | None = None, void: set[int] = frozenset()) -> dict[str, Any]:  # fmt: skip
    """Recompute the event ``tid`` from what is stored and compare; returns
    what the checks read (for a test's own further checks). ``void``: the
    match ids an organiser ended (nobody scores there)."""
    row = await event(night, tid)
    size = row.table_size
    entrants = await night.store.tournaments.entrants(tid)
    names = {e.user_id: e.name for e in entrants}
    status = {e.user_id: e.status for e in entrants}
    seeded = sorted((e for e in entrants if e.seed is not None), key=lambda e: e.seed)
    order = [e.user_id for e in seeded]
    stored = await night.store.tournaments.matches(tid)
    least = night.bot.tournaments.service.min_seats(row)
    # the rounds: settled at the start from the players seeded then
    assert row.rounds == REF.o_rounds(row.format, len(order), size, asked, least) or (
        row.format != "swiss" and row.rounds == 0
    ), (row.rounds, row.format, len(order), asked)
    history: list[Any] = []
    for m in sorted(stored, key=lambda m: (m.round, m.number)):
        if m.state == "bye":
            want = {m.seats[0]: Fraction(1) if size == 2 else Fraction(4)}
        elif m.state == "finished":
            result = await night.store.results.get_result(m.result_id) if m.result_id else None
            want = o_match_points(m, None if m.id in void else result, size)
            if result is not None and m.id not in void:
                figures = {int(s["id"]): float(s.get("points") or 0) for s in result["seats"]}
                for u in m.scores:  # the game's own figure, as its result gives it
                    assert math.isclose(m.scores[u], figures.get(u, 0.0)), (m, figures)
                stayed = all(status[u] in ("joined", "checked_in") for u in m.seats)
                if size == 2 and len(m.seats) == 2 and stayed:  # (a forfeit is a leaver's move)
                    assert await first_mover(night, m) == m.seats[0], (
                        m
                    )  # the first seat moves first
        else:
            continue  # still being played (an event ended by its host)
        got = {u: Fraction(v).limit_denominator(100) for u, v in m.points.items()}
        assert got == want, (m, want)
        seats = tuple(m.seats)
        points = tuple(want.get(u, Fraction(0)) for u in seats)
        scores = tuple(m.scores.get(u, 0.0) for u in seats)
        history.append(REF.Played(m.round, seats, points, scores))
    rounds = sorted({m.round for m in history})
    # every round's pairing against the doc's rules
    for r in rounds:
        before = [m for m in history if m.round < r]
        tables = [m.seats for m in history if m.round == r]
        seated = [p for s in tables for p in s if p > 0]
        ev = REF.Event(row.format, order, size, least, before)
        if size == 2 and row.format == "swiss":
            REF.check_swiss_round(ev, r, seated, tables)
        elif size == 2 and row.format == "knockout":
            still = {e.user_id for e in entrants if e.status in ("joined", "checked_in")}
            REF.check_knockout_round(ev, r, sorted(set(seated) | still), tables)
        elif size > 2 and not row.cpu_fill:
            assert sorted((len(s) for s in tables), reverse=True) == REF.o_table_sizes(
                len(seated), size, least
            ), (r, tables)
            if r == 1:
                assert [set(s) for s in tables] == REF.o_snake(
                    [p for p in order if p in seated], [len(s) for s in tables]
                ), tables
    # the standings: everyone still in and everyone who played is listed
    table = await night.bot.tournaments.service.standings(row)
    listed = [s.player for s in table]
    played = {p for m in history for p in m.seats if p > 0}
    still = {
        e.user_id for e in entrants if e.status in ("joined", "checked_in") and e.seed is not None
    }
    assert set(listed) == played | still, (listed, played, still)
    by_seed = sorted(listed, key=lambda p: order.index(p) if p in order else len(order))
    want = REF.o_standings(row.format, by_seed, history, size == 2)
    assert [s.player for s in table] == sorted(
        by_seed, key=lambda p: (want[p][0], by_seed.index(p))
    )
    for s in table:
        place, pts, breaks, games = want[s.player]
        assert (s.place, s.games) == (place, games), (s, want[s.player])
        assert math.isclose(s.points, float(pts)), (s, pts)
        assert all(math.isclose(a, float(b)) for a, b in zip(s.tiebreaks, breaks, strict=True)), (
            s,
            breaks,
        )
    return {"row": row, "places": {p: want[p][0] for p in by_seed}, "names": names,
            "history": history, "order": order}  # fmt: skip


def check_final_words(night: Any, hall: Any, seen: dict[str, Any]) -> None:
    """The final standings' places as the chat reads them (3= shared) and
    the podium: everyone placed 1st-3rd with their place's medal."""
    row, places, names = seen["row"], seen["places"], seen["names"]
    lang = row.lang
    board = night.env.backend.get_message(hall.id, row.standings_message_id).content
    # a line is "{place} {name} — …" (en) or "{place}　{name} — …" (ja)
    lines = [
        {"place": m["place"], "name": m["name"]}
        for line in board.splitlines()[1:]
        if (m := re.match(r"(?P<place>\S+)[ 　](?P<name>.+?) — ", line))
    ]
    assert len(lines) == len(places), board
    shared = {p for p in places if sum(q == places[p] for q in places.values()) > 1}
    for p, place in places.items():
        key = "tournament.standings.place_shared" if p in shared else "tournament.standings.place"
        label = t(key, lang, n=place)
        assert any(x["name"] == names[p] and x["place"] == label for x in lines), (p, label, board)
    podium = posts(hall, "tournament.podium", lang)
    assert len(podium) == 1, [m.content for m in hall.history()]
    text = podium[0].content.splitlines()[0]
    medals = re.findall(r"(🥇|🥈|🥉) <@(\d+)>", text)
    want = sorted((PODIUM[place - 1], str(p)) for p, place in places.items() if place <= 3)
    assert sorted(medals) == want, (text, places)


def check_bracket(seen: dict[str, Any], podium: Any) -> None:
    """The bracket's alt text: each played match says who went through
    (the oracle's winner), and no figure is negative."""
    alt = next(a.description for a in podium.attachments if a.filename == "bracket.png")
    names, order = seen["names"], seen["order"]
    seed = {p: i for i, p in enumerate(order)}
    assert not re.search(r"(?<![\w])[-−]\d", alt), alt
    for m in seen["history"]:
        if len(m.seats) == 2:
            winner = REF.o_knockout_winner(m, seed)
            loser = next(p for p in m.seats if p != winner)
            assert f"{names[winner]} ({seed[winner] + 1}) beat {names[loser]}" in alt, (m, alt)


# --------------------------------------------------------------------------
# The events


async def test_a_seven_player_swiss_with_a_leaver_and_a_kick(game_night):
    """Seven players of Sixty-Six, four rounds: erin leaves the server as
    round 2 opens (her match forfeits, she is never paired again), the host
    kicks frank as round 3 opens. Every round, the standings and the
    podium agree with the referee."""
    async with game_night(seeded=True, managers=["alice"]) as night:
        people = [night.member(n) for n in EIGHT[:7]]
        vary_seeds(night, "swiss7")
        hall = night.guild.create_text_channel("swiss-seven")

        async def before(round_no: int, row: Any) -> None:
            if round_no == 2:
                night.guild.remove_member(night.member("erin"))
            if round_no == 3:
                res = await people[0].slash(hall, "tournament kick", user=night.member("frank"))
                assert says(
                    answer(res), "tournament.ok.kicked", user=night.member("frank").mention, id=1
                )

        row = await run_event(night, hall, people, game="sixtysix", fmt="swiss", before=before,
                              rounds=4, options="target=1")  # fmt: skip
        assert row.state == "finished"
        seen = await referee(night, 1, asked=4)
        gone = {night.member("erin").id, night.member("frank").id}
        for m in seen["history"]:
            if m.round >= 4:
                assert not gone & set(m.seats), m
        check_final_words(night, hall, seen)


async def test_a_round_robin_with_a_drop_gives_byes_and_agrees(game_night):
    """Five players of Sixty-Six in a round robin; carol drops as round 3
    opens: her later opponents get byes, the schedule is unchanged."""
    async with game_night(seeded=True, managers=["alice"]) as night:
        people = [night.member(n) for n in EIGHT[:5]]
        vary_seeds(night, "rr5")
        hall = night.guild.create_text_channel("round-robin")

        async def before(round_no: int, row: Any) -> None:
            if round_no == 3:
                carol = night.member("carol")
                await carol.slash(hall, "tournament drop")

        row = await run_event(night, hall, people, game="sixtysix", fmt="round-robin",
                              before=before, options="target=1")  # fmt: skip
        assert row.state == "finished" and row.rounds == 5
        seen = await referee(night, 1)
        pairs = [frozenset(m.seats) for m in seen["history"] if len(m.seats) == 2]
        assert len(pairs) == len(set(pairs))  # a round robin never repeats a pair
        check_final_words(night, hall, seen)


async def test_a_six_player_knockout_agrees_with_the_referee(game_night):
    """Six players of Sixty-Six in a knockout: the bracket, who went
    through, the shared 3rd (two bronzes) and 5th."""
    async with game_night(seeded=True, managers=["alice"]) as night:
        people = [night.member(n) for n in EIGHT[:6]]
        vary_seeds(night, "ko6")
        hall = night.guild.create_text_channel("knockout")
        row = await run_event(night, hall, people, game="sixtysix", fmt="knockout",
                              options="target=1")  # fmt: skip
        assert row.state == "finished"
        seen = await referee(night, 1)
        assert sorted(seen["places"].values()) == [1, 2, 3, 3, 5, 5]
        check_final_words(night, hall, seen)
        check_bracket(seen, posts(hall, "tournament.podium")[0])


async def test_a_nine_swiss_at_tables_and_a_round_robin_at_tables(game_night):
    """Seven players of Nine in tables of 3 (a Swiss of two rounds) and six
    in a round robin of tables of 3, in two channels: sizes, round 1 by
    seed, place points, the chips tie-break, shared places and medals."""
    async with game_night(seeded=True, managers=["alice"]) as night:
        vary_seeds(night, "nine")
        people = [night.member(n) for n in (*EIGHT[:7],)]
        east = night.guild.create_text_channel("nine-swiss")
        row = await run_event(night, east, people, game="nine", fmt="swiss", rounds=2,
                              table_size=3)  # fmt: skip
        assert row.state == "finished"
        seen = await referee(night, 1, asked=2)
        check_final_words(night, east, seen)
        west = night.guild.create_text_channel("nine-round-robin")
        row = await run_event(night, west, people[:6], game="nine", fmt="round-robin", tid=2,
                              table_size=3)  # fmt: skip
        assert row.state == "finished"
        seen = await referee(night, 2)
        check_final_words(night, west, seen)


async def test_events_of_exactly_two_players(game_night):
    """Two players, each format: one match (a knockout final, a Swiss of
    one round, a round robin of one), each agreeing with the referee."""
    async with game_night(seeded=True, managers=["alice"]) as night:
        vary_seeds(night, "two")
        people = [night.member(n) for n in EIGHT[:2]]
        for tid, fmt in enumerate(("swiss", "round-robin", "knockout"), start=1):
            hall = night.guild.create_text_channel(f"two-{fmt}")
            row = await run_event(night, hall, people, game="sixtysix", fmt=fmt, tid=tid,
                                  options="target=1")  # fmt: skip
            assert row.state == "finished" and row.round == 1, row
            seen = await referee(night, tid)
            assert sorted(seen["places"].values()) == [1, 2]
            check_final_words(night, hall, seen)


# --------------------------------------------------------------------------
# Edges a player meets


async def test_a_second_live_event_in_one_channel_is_refused(game_night):
    """The commands act on "the event of this channel" (drop, kick, repair,
    end, standings): a second live event in the same channel made that
    ambiguous — a /tournament drop in a match thread of #1 reached #2, the
    newest. A second /tournament create there is refused, naming the live
    one (in the user's language), and nothing is stored; once #1 is over a
    new event may open in the channel."""
    async with game_night(seeded=True, managers=["alice"], locales={"alice": "ja"}) as night:
        alice = night.member("alice")
        hall = night.guild.create_text_channel("one-channel")
        await create(night, alice, hall, game="sixtysix", format="swiss")
        res = await alice.slash(hall, "tournament create", game="sixtysix", format="knockout")
        assert res.response is not None and res.response.ephemeral, res
        assert says(res.response.content, "tournament.error.channel_busy", "ja", id=1), res
        assert await night.store.tournaments.get_tournament(2) is None
        elsewhere = night.guild.create_text_channel("another-channel")
        await create(night, alice, elsewhere, game="sixtysix", format="knockout")
        assert (await event(night, 2)).channel_id == elsewhere.id
        res = await alice.slash(hall, "tournament end")
        assert says(answer(res), "tournament.ok.ended", "ja", id=1)
        await create(night, alice, hall, game="sixtysix", format="round-robin")
        assert (await event(night, 3)).channel_id == hall.id


async def test_an_event_whose_only_match_is_abandoned_has_no_winner(game_night):
    """Two players who never move: their only match is abandoned after three
    turn clocks, nobody scores, and the event is over. The referee agrees
    (both 0, sharing the place) — but nobody won: the podium says so and
    gives no medal (it gave both a gold), and /tournament history names no
    winner (it named both)."""
    async with game_night(seeded=True, managers=["alice"], locales={"bob": "ja"}) as night:
        alice, bob = night.member("alice"), night.member("bob")
        hall = night.guild.create_text_channel("nobody-plays")
        signup = await create(night, alice, hall, game="sixtysix", format="swiss",
                              options="target=1", clock=CLOCK)  # fmt: skip
        for user in (alice, bob):
            await press(user, signup, 1, "join")
        await press(alice, signup, 1, "start")
        for _ in range(5):
            await night.wait(CLOCK + 1)
            await night.settle()
        row = await event(night)
        assert row.state == "finished", row
        (match,) = await matches(night, 1)
        assert match.result_id is None and set(match.points.values()) == {0.0}
        seen = await referee(night, 1)
        assert set(seen["places"].values()) == {1}
        over = posts(hall, "tournament.podium_none", game="Sixty-Six")
        assert len(over) == 1, [m.content for m in hall.history()]
        assert not posts(hall, "tournament.podium") and "🥇" not in over[0].content
        res = await bob.slash(hall, "tournament history")
        text = answer(res)
        assert says(text, "tournament.history.no_winner", "ja"), text
        assert alice.mention not in text and bob.mention not in text, text


async def test_everyone_leaves_the_server_mid_event(game_night):
    """Four players; after one match of round 1 all four leave the server:
    the other match is abandoned by the clock, nobody is left to pair, the
    event ends with its standings (as the referee computes them) — and its
    sign-up message does not invite anyone to press Join (it read "No
    players yet: press **Join**" on a finished event)."""
    async with game_night(seeded=True, managers=["alice"]) as night:
        people = [night.member(n) for n in EIGHT[:4]]
        hall = night.guild.create_text_channel("empty-room")
        signup = await create(night, people[0], hall, game="sixtysix", format="swiss", rounds=3,
                              options="target=1", clock=CLOCK)  # fmt: skip
        for user in people:
            await press(user, signup, 1, "join")
        await press(people[0], signup, 1, "start")
        first = await matches(night, 1)
        await play_match(night, first[0], "sixtysix")
        for user in people:
            night.guild.remove_member(user)
        for _ in range(5):
            await night.wait(CLOCK + 1)
            await night.settle()
        row = await event(night)
        assert (row.state, row.round) == ("finished", 1), row
        seen = await referee(night, 1, asked=3)
        check_final_words(night, hall, seen)
        shown = night.env.backend.get_message(hall.id, signup.id).content
        assert not says(shown, "tournament.players_none"), shown
        assert says(shown, "tournament.players_gone"), shown


async def test_a_knockout_whose_final_is_forfeited(game_night):
    """Four players of Sixty-Six in a knockout; a finalist drops out during
    the final (/tournament drop in its thread): the other is champion, the
    one who dropped is 2nd, both semi-final losers share 3rd with a bronze
    each — as the referee computes it — and the bracket shows who went
    through, without a figure for the forfeited final."""
    async with game_night(seeded=True, managers=["alice"]) as night:
        people = [night.member(n) for n in EIGHT[:4]]
        vary_seeds(night, "ko-forfeit")
        hall = night.guild.create_text_channel("forfeit-final")
        quitter: list[int] = []

        async def before(round_no: int, row: Any) -> None:
            if round_no == 2:
                (final,) = await matches(night, 2)
                quitter.append(final.seats[1])
                leaver = next(p for p in people if p.id == final.seats[1])
                thread = next(c for c in hall.threads if c.id == final.thread_id)
                res = await leaver.slash(thread, "tournament drop")
                assert says(answer(res), "tournament.ok.dropped", id=1), answer(res)

        row = await run_event(night, hall, people, game="sixtysix", fmt="knockout", before=before,
                              options="target=1")  # fmt: skip
        assert row.state == "finished" and row.round == 2
        seen = await referee(night, 1)
        (final,) = [m for m in seen["history"] if m.round == 2]
        champion = next(p for p in final.seats if p != quitter[0])
        assert seen["places"][champion] == 1 and seen["places"][quitter[0]] == 2
        assert sorted(seen["places"].values()) == [1, 2, 3, 3]
        check_final_words(night, hall, seen)
        check_bracket(seen, posts(hall, "tournament.podium")[0])


async def test_a_japanese_server_with_japanese_names_and_a_check_in_drop(game_night):
    """A Japanese server, players with Japanese names, a check-in one of
    them misses (dropped and told): a Swiss of the rest to its end, the
    referee's standings, the Japanese places (「3位タイ」) and medals."""
    names = ("さくら", "たろう", "はなこ", "じろう", "ゆき", "けんた")
    async with game_night(seeded=True, managers=["さくら"], settings={"lang": "ja"}) as night:
        people = [night.member(n) for n in names]
        vary_seeds(night, "ja")
        hall = night.guild.create_text_channel("大会")
        host = people[0]
        signup = await create(night, host, hall, game="sixtysix", format="swiss", rounds=3,
                              options="target=1", starts_at="3m", checkin=1)  # fmt: skip
        for user in people:
            await press(user, signup, 1, "join")
        await night.wait(125)  # the check-in opens
        for user in people[:-1]:
            await press(user, signup, 1, "checkin")
        await night.wait(60)
        row = await event(night)
        assert row.state == "running", row
        told = posts(hall, "tournament.checkin_dropped", "ja", players=people[-1].mention, id=1)
        assert len(told) == 1
        for _ in range(10):
            row = await event(night)
            if row.state != "running":
                break
            for m in await matches(night, row.round):
                if m.state == "open":
                    await play_match(night, m, "sixtysix")
            await night.settle()
        assert row.state == "finished" and row.lang == "ja"
        seen = await referee(night, 1, asked=3)
        assert people[-1].id not in seen["places"]
        assert set(seen["names"].values()) >= set(names[:-1])
        check_final_words(night, hall, seen)


async def test_bluff_at_tables_counts_lives_lost_fewer_first(game_night):
    """Six players of Bluff in tables of 3, two rounds: the tie-break is the
    lives lost (fewer is better, stored as minus the lives): the referee's
    standings, and the picture's words give the lives as a count, never a
    negative number."""
    async with game_night(seeded=True, managers=["alice"]) as night:
        people = [night.member(n) for n in EIGHT[:6]]
        vary_seeds(night, "bluff")
        hall = night.guild.create_text_channel("bluff-night")
        row = await run_event(night, hall, people, game="bluff", fmt="swiss", rounds=2,
                              table_size=3)  # fmt: skip
        assert row.state == "finished"
        seen = await referee(night, 1, asked=2)
        check_final_words(night, hall, seen)
        (podium,) = posts(hall, "tournament.podium", game="Bluff dice")
        alt = next(a.description for a in podium.attachments if a.filename == "standings.png")
        lives = [int(x) for x in re.findall(r"(-?\d+) (?:life|lives) lost", alt)]
        assert len(lives) == 6 and min(lives) >= 0, alt
        lost = {p: -sum(m.scores[m.seats.index(p)] for m in seen["history"] if p in m.seats)
                for p in seen["places"]}  # fmt: skip
        ranked = sorted(seen["places"], key=seen["places"].__getitem__)
        points = {p: sum(m.points[m.seats.index(p)] for m in seen["history"] if p in m.seats)
                  for p in ranked}  # fmt: skip
        for a, b in zip(ranked, ranked[1:], strict=False):
            if points[a] == points[b]:
                assert lost[a] <= lost[b], (a, b, lost)  # fewer lives lost first


async def test_the_organiser_leaves_the_server_mid_event(game_night):
    """alice creates and plays a five-player Swiss of three rounds and
    leaves the server as round 2 opens: her round 2 match is played for by
    the clock and forfeited, she is paired no more, the event runs itself to
    its end, and its standings agree with the referee."""
    async with game_night(seeded=True, managers=["alice"]) as night:
        people = [night.member(n) for n in EIGHT[:5]]
        alice = people[0]
        vary_seeds(night, "host-gone")
        hall = night.guild.create_text_channel("host-gone")

        async def before(round_no: int, row: Any) -> None:
            if round_no == 2:
                night.guild.remove_member(alice)

        row = await run_event(night, hall, people, game="sixtysix", fmt="swiss", rounds=3,
                              before=before, absent=alice, options="target=1", clock=CLOCK)  # fmt: skip
        assert (row.state, row.round) == ("finished", 3), row
        seen = await referee(night, 1, asked=3)
        assert not [m for m in seen["history"] if m.round == 3 and alice.id in m.seats]
        check_final_words(night, hall, seen)
