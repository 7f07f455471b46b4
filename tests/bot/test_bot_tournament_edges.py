"""Tournaments, the last edges (issue 26): what happens around a match and
an event when something is out of the ordinary. Each story through SimCord:
a database that cannot be written while an event is due to start (the
sweep backs off as the turn-clock sweeper does), a hand-made Rematch press
under a match's result, ``/game end`` inside a match, a join at the moment
the event starts, and the words an organiser reads."""

from __future__ import annotations

from typing import Any

from test_bot_faults import read_only
from test_bot_tournament import EIGHT, create, event, matches, posts, press

from bot.followers.clock import BACKOFF_MAX

# ------------------------------------------ 1: an unwritable database, backed off


async def test_an_unwritable_database_backs_the_tournament_sweep_off(game_night, caplog):
    """An event due to start while the database cannot be written for ten
    minutes: the operator is told once and reminded every few minutes (it
    was a warning every 5 s sweep, 120 of them), the sweep tries less and
    less often, and once writes work the event starts, once."""
    async with game_night(seeded=True, managers=["alice"]) as night:
        people = [night.member(n) for n in EIGHT[:4]]
        hall = night.guild.create_text_channel("read-only")
        signup = await create(night, people[0], hall, game="sixtysix", format="swiss",
                              rounds=1, options="target=1", starts_at="1m")  # fmt: skip
        for user in people:
            await press(user, signup, 1, "join")
        store = night.store
        tries = 0
        seed = store.seed_entrants

        async def counted(*args: Any, **kwargs: Any) -> Any:
            nonlocal tries
            tries += 1
            return await seed(*args, **kwargs)

        store.seed_entrants = counted
        caplog.clear()
        async with read_only(night):
            await night.wait(60 + 600)
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
