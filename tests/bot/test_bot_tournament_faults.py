"""Tournaments, faults at the edges (issue 27): sizes a game cannot seat,
members who left the server, forged sign-up presses, an unwritable
database when a round should advance, the organiser's re-pair, abandoned
matches and the standings' last edit, and what players are told. Each
story through SimCord; each failed on the code before its fix."""

from __future__ import annotations

from typing import Any

from simtable import says
from test_bot_tournament import EIGHT, answer, create, event, matches, posts, press

from bot.i18n import t


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
        assert await night.store.guild_tournaments(night.guild.id) == []
        res = await alice.slash(hall, "tournament create", game="nine", format="swiss",
                                table_size=2)  # fmt: skip
        assert res.response is not None and not res.response.ephemeral, res
