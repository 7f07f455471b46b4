"""A tournament's pairing as the players meet it (docs/tournaments.md,
"Pairing"), through SimCord:

- first moves: the pairing decides who sits first, and the match's table
  gives that seat the first move — it used to deal with no first player, so
  the game drew one (5 of 12 tables of the docs' 8-player Swiss started with
  the second seat; a round robin had one player move first in 4 of 5
  games). Read from who the table names to move when it opens, and who made
  the first move in the stored record of each finished game;
- the organiser's number of Swiss rounds kept to the most the players can
  play without a rematch, and said so;
- a rematch forced by players leaving, said as such in the match's thread.
"""

from __future__ import annotations

import itertools
from collections import Counter
from typing import Any

import pytest
from simtable import says
from test_bot_tournament import (
    EIGHT,
    answer,
    create,
    event,
    matches,
    play_match,
    posts,
    press,
    table_of,
)

from bot.tournament.rows import MatchRow


def vary_seeds(night: Any, name: str) -> None:
    """Each game its own seed (a night's games share one): a dealer drawn
    at random differs from game to game, as in a real event."""
    seeds = (f"{name}-{i}" for i in itertools.count())
    night.bot.lobby.service.seed_factory = lambda: next(seeds)


async def first_mover(night: Any, match: MatchRow) -> int:
    """Who made the first move of a finished match, read from its stored
    record (the moves start with the mover's seat name)."""
    result = await night.store.results.get_result(match.result_id)
    assert result is not None, match
    moves = result["record"]["moves"]
    assert moves, result["record"]
    name = moves[0].split(" ", 1)[0]
    table = await night.store.tables.get_table(match.table_id) if match.table_id else None
    seats = result["seats"] or (table.seats if table is not None else [])
    found = [int(s["id"]) for s in seats if s.get("name") == name]
    assert len(found) == 1, (name, seats)
    return found[0]


async def test_a_swiss_rounds_tables_give_the_first_seat_the_first_move(game_night):
    """Eight players of Sixty-Six, two rounds: at every table the player the
    table names to move first is the pairing's first seat, and the game's
    record starts with their move (in Sixty-Six the other seat deals)."""
    async with game_night(seeded=True, managers=["alice"]) as night:
        people = [night.member(n) for n in EIGHT]
        vary_seeds(night, "swiss")
        hall = night.guild.create_text_channel("first-moves")
        signup = await create(night, people[0], hall, game="sixtysix", format="swiss",
                              rounds=2, options="target=1")  # fmt: skip
        for user in people:
            await press(user, signup, 1, "join")
        await press(people[0], signup, 1, "start")
        for round_no in (1, 2):
            assert (await event(night)).round == round_no
            current = await matches(night, round_no)
            assert len(current) == 4
            for m in current:
                table = await table_of(night, m, "sixtysix")
                assert table.turn is not None and table.turn.id == m.seats[0], (m.seats, table.turn)
            for m in current:
                await play_match(night, m, "sixtysix")
            for m in await matches(night, round_no):
                assert m.state == "finished"
                assert await first_mover(night, m) == m.seats[0]
        await night.settle()
        assert (await event(night)).state == "finished"


async def test_a_round_robin_gives_everyone_the_first_move_in_half_their_games(game_night):
    """Five players of Sixty-Six in a round robin (five rounds, a bye each):
    each plays four games and moves first in exactly two of them, as the
    docs promise for an odd count (it was one player first in 4 of 5 games)."""
    async with game_night(seeded=True, managers=["alice"]) as night:
        people = [night.member(n) for n in EIGHT[:5]]
        vary_seeds(night, "round-robin")
        hall = night.guild.create_text_channel("round-robin")
        signup = await create(night, people[0], hall, game="sixtysix", format="round-robin",
                              options="target=1")  # fmt: skip
        for user in people:
            await press(user, signup, 1, "join")
        await press(people[0], signup, 1, "start")
        assert (await event(night)).rounds == 5
        for round_no in range(1, 6):
            assert (await event(night)).round == round_no
            for m in await matches(night, round_no):
                if m.state == "open":
                    await play_match(night, m, "sixtysix")
        await night.settle()
        assert (await event(night)).state == "finished"
        firsts: Counter[int] = Counter()
        games: Counter[int] = Counter()
        for round_no in range(1, 6):
            for m in await matches(night, round_no):
                if len(m.seats) == 2:
                    firsts[await first_mover(night, m)] += 1
                    games.update(m.seats)
        assert all(games[p.id] == 4 for p in people), games
        assert {p.id: firsts[p.id] for p in people} == {p.id: 2 for p in people}


async def test_more_swiss_rounds_than_the_players_allow_are_cut_and_said(game_night):
    """Nine rounds asked, four players: three rounds are played (after them
    every pairing would repeat one), the channel is told "rounds 9 → 3", and
    nobody meets an opponent twice. It played nine, with rematches."""
    async with game_night(seeded=True, managers=["alice"]) as night:
        people = [night.member(n) for n in EIGHT[:4]]
        hall = night.guild.create_text_channel("too-many-rounds")
        signup = await create(night, people[0], hall, game="sixtysix", format="swiss",
                              rounds=9, options="target=1")  # fmt: skip
        assert says(signup.content, "tournament.rounds", count=9)
        # the organiser reads at once that fewer than 9 players play fewer rounds
        assert says(signup.content, "tournament.rounds_cap", need=9)
        for user in people:
            await press(user, signup, 1, "join")
        await press(people[0], signup, 1, "start")
        assert (await event(night)).rounds == 3
        edited = night.env.backend.get_message(hall.id, signup.id)
        assert says(edited.content, "tournament.running", round=1, rounds=3)
        assert not says(edited.content, "tournament.rounds_cap")
        told = posts(hall, "tournament.rounds_clamped", id=1, asked=9, rounds=3, count=4)
        assert len(told) == 1
        assert posts(hall, "tournament.round.title", round=1, rounds=3)
        for round_no in (1, 2, 3):
            assert (await event(night)).round == round_no
            for m in await matches(night, round_no):
                await play_match(night, m, "sixtysix")
        await night.settle()
        row = await event(night)
        assert (row.state, row.round) == ("finished", 3)
        played = [frozenset(m.seats) for r in (1, 2, 3) for m in await matches(night, r)]
        assert len(played) == 6 == len(set(played))  # everyone met everyone once


async def test_a_rematch_forced_by_players_leaving_is_said_in_its_thread(game_night):
    """Six players, five rounds; two leave during round 2, so rounds 3-5 pair
    four players who have met some of each other already: no pairing avoids
    every rematch. Each rematch's thread says so (with the round they met
    in), a fresh pair's thread does not — and each round has the fewest
    rematches any pairing of it has."""
    async with game_night(seeded=True, managers=["alice"]) as night:
        people = [night.member(n) for n in EIGHT[:6]]
        hall = night.guild.create_text_channel("leavers")
        signup = await create(night, people[0], hall, game="sixtysix", format="swiss",
                              rounds=5, options="target=1")  # fmt: skip
        for user in people:
            await press(user, signup, 1, "join")
        await press(people[0], signup, 1, "start")
        assert (await event(night)).rounds == 5
        for m in await matches(night, 1):
            await play_match(night, m, "sixtysix")
        second = await matches(night, 2)
        assert len(second) == 3
        leavers = [second[0].seats[0], second[1].seats[0]]  # from two different matches
        for user_id, m in zip(leavers, second, strict=False):
            leaver = next(p for p in people if p.id == user_id)
            thread = next(c for c in hall.threads if c.id == m.thread_id)
            res = await leaver.slash(thread, "tournament drop")
            assert says(answer(res), "tournament.ok.dropped", user=leaver.mention, id=1)
        await play_match(night, second[2], "sixtysix")
        rematches = 0
        for round_no in (3, 4, 5):
            assert (await event(night)).round == round_no
            current = await matches(night, round_no)
            assert len(current) == 2 and not {u for m in current for u in m.seats} & set(leavers)
            before = [m for r in range(1, round_no) for m in await matches(night, r)]
            for m in current:
                met = sorted(b.round for b in before if set(b.seats) == set(m.seats))
                thread = next(c for c in hall.threads if c.id == m.thread_id)
                pings = [x.content for x in thread.history()
                         if says(x.content, "tournament.match.ping", round=round_no)]  # fmt: skip
                assert len(pings) == 1
                if met:
                    rematches += 1
                    rounds = ", ".join(str(r) for r in met)
                    assert says(pings[0], "tournament.match.rematch", rounds=rounds), pings
                else:
                    assert not says(pings[0], "tournament.match.rematch"), pings
            for m in current:
                await play_match(night, m, "sixtysix")
        await night.settle()
        assert (await event(night)).state == "finished"
        # two or three pairs of the four met in rounds 1-2; three rounds of
        # four use the three ways to pair them or repeat one: two rematches at least
        assert rematches >= 2


async def test_a_seated_table_of_every_game_gives_the_first_move_to_first(game_night):
    """``Lobby.open_seated(first=…)`` for every game, every seat: the table
    names that seat to move (Sixty-Six: the other seat deals, as the
    non-dealer leads; the other games: that seat deals and starts). A seat
    that is not at the table is refused before anything is stored."""
    from test_bot_seated import open_seated, seats, table_in, thread

    async with game_night(seeded=True) as night:
        vary_seeds(night, "every-game")
        people = [night.alice, night.bob, night.carol]
        opened = 0
        for game in ("sixtysix", "nine", "sixdice", "yahtzee", "bluff"):
            at = people[:2] if game == "sixtysix" else people
            for first in at:
                opened += 1
                here = thread(night, f"{game} {opened}")
                row = await open_seated(night, here, game, seats=seats(*at), first=first.id)
                assert row is not None and row.phase == "playing"
                table = table_in(night, here, game)
                assert table.turn is not None and table.turn.id == first.id, (game, first, table.turn)
        outsider = thread(night, "outsider")
        with pytest.raises(ValueError):
            await open_seated(night, outsider, "nine", seats=seats(*people[:2]), first=people[2].id)
        assert await night.store.tables.table_in_channel(outsider.id) is None
