"""A table opened already seated (``bot.lobby.Lobby.open_seated``, what a
tournament's match is): no interaction — the table message appears in its
channel (a thread) with the game started, its players play it to the end by
pressing buttons, its own turn clock runs over the server's, a second one
in the same channel is refused and changes nothing, and a tournament's
result offers no Rematch."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest
from conftest import Night, Table
from simcord.builders import ChannelHandle
from simcord.results import ResponseMessage
from simtable import accepted, taken
from test_bot_table_story import sixtysix_move

from bot.i18n import t
from bot.model import human_seat
from games import core, registry
from games.core import SeededSource

DICE = SeededSource("bot-seated").roll(3000)
DECKS = [SeededSource(f"bot-seated-{i}").deck() for i in range(60)]
TOURNAMENT = {"tournament": {"id": 3, "match": 17}}


def thread(night: Night, name: str) -> Any:
    """A thread under the server's channel, as a tournament opens one."""
    backend = night.env.backend
    made = backend.create_thread(night.channel.id, name, night.bot.user.id)
    return ChannelHandle(night.env, night.guild, made)


def seats(*members: Any) -> list[dict[str, Any]]:
    """People's seats in this order, as bot.model.human_seat makes them."""
    out: list[dict[str, Any]] = []
    for member in members:
        person = SimpleNamespace(id=member.id, display_name=member.name)
        out.append(human_seat(person, {s["name"] for s in out}, "en-US"))
    return out


def posted(night: Night, channel: Any) -> list[Any]:
    """The bot's messages in ``channel``, oldest first."""
    return [m for m in channel.history() if m.author.id == night.bot.user.id]


def table_in(night: Night, channel: Any, game: str) -> Table:
    """The table message the bot posted in ``channel`` (its only message
    with table controls), as a page object."""
    (message,) = [m for m in posted(night, channel) if m.components]
    stored = night.env.backend.get_message(channel.id, message.id)
    return Table(night, ResponseMessage(night.env, stored), game, channel)


async def open_seated(
    night: Night, channel: Any, game: str, *, options: dict[str, Any] | None = None, **kwargs: Any
) -> Any:
    """``Lobby.open_seated`` with the game's house options parsed, as a
    tournament calls it; the world settled after it."""
    row = await night.bot.lobby.open_seated(
        guild_id=night.guild.id,
        channel_id=channel.id,
        game=game,
        host_id=night.alice.id,
        options=core.parse_options(registry.spec(game).options, options or {}),
        lang="en",
        **kwargs,
    )
    await night.settle()
    return row


async def test_a_seated_sixtysix_in_a_thread_is_played_to_the_end(game_night):
    async with game_night(decks=DECKS, aux=[1]) as night:
        alice, bob = night.alice, night.bob
        match = thread(night, "round 1")
        row = await open_seated(night, match, "sixtysix", seats=seats(alice, bob), ui=TOURNAMENT)
        assert row is not None and row.phase == "playing" and row.channel_id == match.id
        assert row.ui["tournament"] == {"id": 3, "match": 17}
        table = table_in(night, match, "sixtysix")
        assert table.mover in (alice, bob), table.content  # started: someone is to move
        assert "join" not in table.actions and "start" not in table.actions
        assert (await table.row()).message_id == table.message.id
        # each player was sent their hand in a DM, as at a table started by Start
        assert night.hand(alice).shows("sixtysix.private.hand", n=1)
        presses = 0
        while not table.over:
            assert presses < 600, "the game did not end"
            hand = night.hand(table.mover)
            move = sixtysix_move(hand)
            accepted(await (hand.act(move) if move.startswith("m:") else hand.choose(move)))
            presses += 1
        (result,) = await night.store.results.all()
        assert core.Record.from_json(result["record"]).players == [alice.name, bob.name]
        # a tournament's game: its result offers no Rematch (the other buttons stay)
        assert t("result.btn.rematch", "en") not in table.buttons, table.buttons
        assert t("result.btn.record", "en") in table.buttons


async def test_a_seated_nine_with_a_computer_keeps_its_own_turn_clock(game_night):
    async with game_night(dice=DICE, aux=[6, 2, 1]) as night:
        await night.settings(**{"clock.nine": 300})  # the server's clock: not this table's
        alice, bob = night.alice, night.bob
        match = thread(night, "table 1")
        seated = [*seats(alice, bob), {"bot": True, "level": "easy"}]
        row = await open_seated(night, match, "nine", seats=seated, clock_seconds=45)
        assert row is not None and [s["name"] for s in row.seats][2] == "CPU1"
        table = table_in(night, match, "nine")
        mover = table.mover
        now = int(night.clock())
        assert table.shows("clock.deadline", time=f"<t:{now + 45}:R>"), table.content
        before = await table.moves()
        await night.wait(40)
        assert await table.moves() == before  # 40 s: not yet
        await night.wait(10)
        moves = await table.moves()
        assert moves[len(before)].startswith(f"{mover.name} ")  # the clock moved for them
        assert table.shows("ev.timeout", player=mover.name, count=1, max=3)
        await table.play_to_the_end()
        (result,) = await night.store.results.all()
        assert core.Record.from_json(result["record"]).players == [alice.name, bob.name, "CPU1"]
        # not a tournament's table: its result offers Rematch as any other
        assert t("result.btn.rematch", "en") in table.buttons


async def test_a_second_seated_table_in_the_channel_is_refused(game_night):
    async with game_night(dice=DICE, aux=[6, 2]) as night:
        alice, bob, carol = night.alice, night.bob, night.carol
        match = thread(night, "table 2")
        first = await open_seated(night, match, "nine", seats=seats(alice, bob))
        assert first is not None
        table = table_in(night, match, "nine")
        row = await table.row()
        messages = len(match.history())
        second = await open_seated(
            night, match, "nine", seats=[*seats(carol), {"bot": True, "level": "easy"}]
        )
        assert second is None
        assert await table.row() == row  # nothing changed
        assert len(match.history()) == messages
        assert taken(await table.play(by=table.mover))  # and the first table plays on


async def test_seats_the_game_cannot_take_change_nothing(game_night):
    async with game_night(dice=DICE, aux=[6, 2]) as night:
        alice = night.alice
        match = thread(night, "table 3")
        with pytest.raises(ValueError):  # Sixty-Six seats two
            await open_seated(night, match, "sixtysix", seats=seats(alice, night.bob, night.carol))
        with pytest.raises(ValueError):  # no such computer
            await open_seated(night, match, "nine", seats=[{"bot": True, "level": "godlike"}])
        with pytest.raises(ValueError):
            await open_seated(night, match, "nine", seats=seats(alice) * 2)  # twice
        assert await night.store.tables.table_in_channel(match.id) is None
        assert not posted(night, match)


async def test_a_seated_table_that_cannot_be_posted_is_removed(game_night):
    async with game_night(dice=DICE, aux=[6, 2]) as night:
        match = thread(night, "table 4")
        night.env.inject_error(
            "POST", f"/channels/{match.id}/messages", status=403, code=50013,
            message="Missing Permissions", times=1,
        )  # fmt: skip
        row = await open_seated(night, match, "nine", seats=seats(night.alice, night.bob))
        assert row is None
        assert await night.store.tables.table_in_channel(match.id) is None  # the thread is free
        assert await open_seated(night, match, "nine", seats=seats(night.alice)) is not None
