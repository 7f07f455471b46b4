"""Tournaments, faults at the edges (issue 27): sizes a game cannot seat,
members who left the server, forged sign-up presses, an unwritable
database when a round should advance, the organiser's re-pair, abandoned
matches and the standings' last edit, and what players are told. Each
story through SimCord; each failed on the code before its fix."""

from __future__ import annotations

from typing import Any

from conftest import snapshot_with
from simtable import press_from_snapshot, privately, says, snapshot
from test_bot_faults import read_only
from test_bot_tournament import answer, create, event, matches, press

from bot.followers.clock import BACKOFF_MAX


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
        import discord

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
        assert await night.store.entrants(1) == [] and await night.store.entrants(2) == []
        for m in (first, second):
            assert night.env.backend.get_message(m.channel_id, m.id).content == shown[m.id]
        res = await press(dave, second, 2, "join")  # the real button still works
        assert [e.user_id for e in await night.store.entrants(2)] == [dave.id]


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
        assert match.state == "open" and await night.store.get_table(match.table_id) is None
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
