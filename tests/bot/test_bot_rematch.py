"""The Rematch button under a finished game's result: a new lobby in the
same channel with the same seats (people invited to press Join again,
computers seated), the same house options and host, and a new seed."""

from __future__ import annotations

import pig
import pytest
from conftest import Table
from simtable import refused, says, taken

from bot.i18n import t
from games.core import seed_hash

NEW_SEED = "rematch-seed-0123456789abcdef"

# game, people, computers, options, the moves the players prefer
GAMES = [
    ("nine", 2, (), None, ()),
    ("sixdice", 2, (), "target=3000 start=500", ("m:stop",)),
    ("yahtzee", 2, (), None, ()),
    ("bluff", 1, ("easy", "strong"), "losses=1", ()),
    ("sixtysix", 1, ("normal",), None, ()),
    ("pig", 2, (), "target=20", ()),
]


async def hold_at_eight(table, who):
    """Pig: roll until the turn holds 8 points, then hold."""
    row = await table.row()
    label = "Hold" if "Hold" in table.buttons and row.state["turn_total"] >= 8 else "Roll"
    return await table.press(label, by=who)


async def from_the_hand(table, who):
    """Sixty-Six: each player moves from their hand (the DM): declare with
    66 or more, else pass, draw, or play the first card offered."""
    hand = table.night.hand(who)
    told = hand.reading("sixtysix.private.points")
    buttons = hand.button_actions
    if "m:declare" in buttons and told and int(told["n"]) >= 66:
        return await hand.act("m:declare")
    for action in ("m:pass", "m:draw"):
        if action in buttons:
            return await hand.act(action)
    plays = [v for v in hand.choices if v.startswith(("play", "marry"))]
    if plays:
        return await hand.choose(plays[0])
    return await hand.act(next(a for a in buttons if a != "m:declare"))


POLICIES = {"pig": hold_at_eight, "sixtysix": from_the_hand}


async def finished(night, game, people, cpus=(), options=None, prefer=()) -> Table:
    table = await night.table(game, players=people, cpus=cpus, options=options)
    policy = POLICIES.get(game)
    await table.play_to_the_end(prefer=prefer, policy=policy)
    assert table.over
    return table


async def rematch(table, by) -> Table:
    """``by`` presses Rematch; the new lobby, posted in the same channel."""
    res = await table.press("Rematch", by=by)
    assert res.response is not None and not res.response.ephemeral, res.response
    assert res.response.channel_id == table.channel.id
    return Table(table.night, res.response, table.game, table.channel)


@pytest.fixture
def with_pig():
    pig.install()
    yield
    pig.uninstall()


@pytest.mark.parametrize(
    ("game", "people", "cpus", "options", "prefer"), GAMES, ids=[g[0] for g in GAMES]
)
async def test_a_rematch_after_every_game(request, game_night, game, people, cpus, options, prefer):
    if game == "pig":
        request.getfixturevalue("with_pig")
    async with game_night(seeded=True) as night:
        table = await finished(night, game, people, cpus, options, prefer)
        [listed] = await night.store.results.all()
        old = await night.store.results.get_result(listed["id"])
        old_seats = old["seats"]
        assert [s["name"] for s in old_seats] == old["record"]["players"]
        presser = night.bob if people > 1 else night.alice  # not the host, when there is one
        night.bot.tables.seed_factory = lambda: NEW_SEED
        lobby = await rematch(table, presser)
        row = await lobby.row()
        assert row is not None and row.phase == "lobby" and row.game == game
        # the same host, options; a new seed whose hash is shown
        assert row.host_id == night.alice.id == old["host_id"]
        assert lobby.shows("lobby.host", host=night.alice.mention)
        assert row.options == old["record"]["options"]
        assert row.seed == NEW_SEED != old["seed"]
        # the new seed's hash on the lobby (however much of it the lobby shows)
        assert seed_hash(NEW_SEED)[:8] in lobby.content
        assert seed_hash(old["seed"])[:8] not in lobby.content
        # computers stay at their levels; the presser sits; the others are invited
        assert [(s["name"], s["level"]) for s in row.seats if s.get("bot")] == [
            (s["name"], s["level"]) for s in old_seats if s.get("bot")
        ]
        assert [s["level"] for s in row.seats if s.get("bot")] == list(cpus)
        humans = [s["id"] for s in row.seats if not s.get("bot")]
        assert humans == [presser.id]
        if people > 1:
            assert lobby.shows("lobby.invited", players=night.alice.mention)
            assert taken(await lobby.press("Join", by=night.alice))
            assert not lobby.shows("lobby.invited")
        row = await lobby.row()
        assert [s["id"] for s in row.seats] == [s["id"] for s in old_seats]  # the old order
        assert taken(await lobby.press("Start", by=night.alice))
        row = await lobby.row()
        assert row.phase == "playing" and len(row.seats) == people + len(cpus)
        assert len(await night.store.tables.live_tables()) == 1


async def test_a_rematch_is_refused_while_the_channel_has_a_table(game_night):
    async with game_night(seeded=True) as night:
        table = await finished(night, "nine", 2)
        res = await table.command(night.carol, "play", game="yahtzee")
        assert res.response is not None and not res.response.ephemeral
        before = await night.store.tables.live_tables()
        res = await table.press("Rematch", by=night.alice)
        assert refused(res, "error.table_exists", game=t("game.yahtzee"))
        after = await night.store.tables.live_tables()
        assert [(r.id, r.game, r.version) for r in after] == [
            (r.id, r.game, r.version) for r in before
        ]


async def test_a_rematch_after_a_restart(game_night):
    async with game_night(seeded=True) as night:
        table = await finished(night, "bluff", 1, ("strong", "easy"), "losses=1")
        await night.restart()
        lobby = await rematch(table, night.alice)
        row = await lobby.row()
        assert [s["name"] for s in row.seats] == ["alice", "CPU1", "CPU2"]
        assert [s.get("level") for s in row.seats] == [None, "strong", "easy"]
        assert lobby.shows("cpu.display", name="CPU1", level=t("cpu.level.strong"))
        assert taken(await lobby.press("Start", by=night.alice))


async def test_only_a_player_of_the_game_may_ask(game_night):
    async with game_night(seeded=True) as night:
        table = await finished(night, "nine", 2)
        res = await table.press("Rematch", by=night.eve)
        assert refused(res, "error.rematch_not_a_player")
        assert await night.store.tables.live_tables() == []
        assert table.over  # the result message is unchanged


async def test_a_rematch_in_japanese_and_a_declined_invitation(game_night):
    async with game_night(seeded=True, settings={"lang": "ja"}, locales={"carol": "ja"}) as night:
        table = await finished(night, "nine", 3)
        assert table.shows("result.title", "ja", game=t("game.nine", "ja"))
        lobby = await rematch(table, night.carol)
        assert lobby.shows("lobby.invited", "ja", players=f"{night.alice.mention}、{night.bob.mention}")
        assert "再戦" in table.buttons
        assert taken(await lobby.press("Leave", by=night.bob))  # bob declines
        assert lobby.shows("lobby.invited", "ja", players=night.alice.mention)
        res = await lobby.press("Leave", by=night.bob)
        assert refused(res, "error.not_in_game")


async def test_invited_seats_are_held(game_night):
    async with game_night(seeded=True) as night:
        table = await finished(night, "sixtysix", 2)  # two players at most
        lobby = await rematch(table, night.bob)
        res = await lobby.press("Join", by=night.eve)
        assert refused(res, "error.seats_held")
        assert [s["id"] for s in (await lobby.row()).seats] == [night.bob.id]
        assert taken(await lobby.press("Join", by=night.alice))
        assert says(lobby.content, "lobby.players", count=2, min=2, max=2,
                    players=f"{night.alice.mention}, {night.bob.mention}")  # fmt: skip


async def test_a_kicked_player_is_not_invited_and_their_computer_stays(game_night):
    async with game_night(seeded=True) as night:
        table = await night.table("nine", players=4)
        await table.command(night.alice, "game kick", player=night.carol)
        await table.command(night.alice, "game kick", player=night.dave, replace_with_cpu=True)
        await table.play_to_the_end()
        lobby = await rematch(table, night.bob)
        assert lobby.shows("lobby.invited", players=night.alice.mention)  # not carol
        row = await lobby.row()
        assert [(s["name"], s.get("level")) for s in row.seats] == [("bob", None), ("CPU1", "normal")]
        assert taken(await lobby.press("Join", by=night.alice))
        assert [s["name"] for s in (await lobby.row()).seats] == ["alice", "bob", "CPU1"]
        res = await lobby.press("Join", by=night.carol)  # not invited, but a seat is free
        assert taken(res)
