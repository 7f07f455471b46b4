"""A tournament's first moves (docs/tournaments.md, "First move"): the
pairing decides who sits first, and the match's table gives that seat the
first move — it used to deal with no first player, so the game drew one
(5 of 12 tables of the docs' 8-player Swiss started with the second seat;
a round robin had one player move first in 4 of 5 games).

Through SimCord: who the table names to move when it opens, and who made
the first move in the stored record of each finished game.
"""

from __future__ import annotations

import itertools
from collections import Counter
from typing import Any

from test_bot_tournament import EIGHT, create, event, matches, play_match, press, table_of

from bot.store import MatchRow


def vary_seeds(night: Any, name: str) -> None:
    """Each game its own seed (a night's games share one): a dealer drawn
    at random differs from game to game, as in a real event."""
    seeds = (f"{name}-{i}" for i in itertools.count())
    night.bot.lobby.service.seed_factory = lambda: next(seeds)


async def first_mover(night: Any, match: MatchRow) -> int:
    """Who made the first move of a finished match, read from its stored
    record (the moves start with the mover's seat name)."""
    result = await night.store.get_result(match.result_id)
    assert result is not None, match
    moves = result["record"]["moves"]
    assert moves, result["record"]
    name = moves[0].split(" ", 1)[0]
    table = await night.store.get_table(match.table_id) if match.table_id else None
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
