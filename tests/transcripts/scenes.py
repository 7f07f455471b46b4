"""The scripts of the golden transcripts: every command, every game to its
end, a review, a replay and a tournament of each format, and the errors a
player meets. Each scene runs alone on a new server and database (English
or Japanese, :mod:`tests.transcripts.run`), with scripted or seeded dice and
computers without a pause, so its transcript is the same on every run.

A script drives the bot only as people do — slash commands, presses,
choices (the bot tests' :class:`Night` and :class:`Table`) — and notes what
comes next with ``scene.note(…)``; everything the bot answers is recorded.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Script:
    play: Callable[[Any], Awaitable[None]]
    dice: list[int] | None = None
    aux: list[int] | None = None
    decks: list[list[str]] | None = None
    seeded: bool = True
    vary: int = 0
    managers: tuple[str, ...] = ("alice",)
    closed_dms: tuple[str, ...] = ()


SCENES: dict[str, Script] = {}


def scene(**kwargs: Any) -> Callable[[Callable[[Any], Awaitable[None]]], Any]:
    """Register the script under its function's name."""

    def register(play: Callable[[Any], Awaitable[None]]) -> Callable[[Any], Awaitable[None]]:
        SCENES[play.__name__] = Script(play, **kwargs)
        return play

    return register


GAMES = ("sixdice", "bluff", "nine", "yahtzee", "sixtysix")


def word(key: str) -> str:
    """A button's label by its catalogue key (the page objects press it in
    the message's language): a script outlives a change of wording."""
    from bot.i18n import t

    return t(key, "en")


# ------------------------------------------------------------- the commands


@scene()
async def help_and_config(scene: Any) -> None:
    night = scene.night
    alice, bob = night.alice, night.bob
    scene.note("/help, and /rules of every game")
    await night.command(bob, "help")
    for game in GAMES:
        await night.command(bob, "rules", game=game)
    scene.note("/config by alice (Manage Server), whose /help lists the organisers' commands")
    await night.command(alice, "help")
    await night.command(alice, "config show")
    await night.command(alice, "config clock", game="nine", seconds=45)
    await night.command(alice, "config options", game="sixdice", options="target=3000 start=300")
    await night.command(alice, "config bots_rated", value=True)
    await night.command(alice, "config season", value="quarterly")
    role = night.guild.create_role("organisers")
    await night.command(alice, "config tournament_role", role=role)
    await night.command(alice, "config language", value=scene.lang)
    await night.command(alice, "config show")
    scene.note("the defaults back")
    await night.command(alice, "config options", game="sixdice", options="default")
    await night.command(alice, "config tournament_role")
    await night.command(alice, "config season", value="monthly")
    await night.command(alice, "config language", value="auto")
    await night.command(alice, "config show")
    scene.note("/game list with no table, then with one")
    await night.command(alice, "game list")
    await night.table("nine", players=2)
    await night.command(alice, "game list")


# ----------------------------------------------------------------- the games


@scene()
async def sixdice(scene: Any) -> None:
    night = scene.night
    scene.note("Six Dice: alice alone against a computer (normal), a short game")
    table = await alone(night, "sixdice", "normal", options="target=2000 start=300")
    await table.command(night.alice, "hint")
    await table.play_to_the_end(prefer=("m:stop",))


@scene(closed_dms=("carol",))
async def bluff(scene: Any) -> None:
    night = scene.night
    scene.note("Bluff dice: alice, bob and carol (her DMs closed), one life each")
    night.shown = False
    table = await night.table("bluff", players=3, options="losses=1")
    scene.note("carol's dice come as answers only she sees; the table's button shows them again")
    await table.play_to_the_end(policy=bluff_move)


async def bluff_move(table: Any, who: Any) -> Any:
    """Roll when offered; else announce the middle value of those offered
    (the game climbs to a reveal); carol asks the table for her dice once
    before announcing."""
    night = table.night
    if who.name == "carol" and "m:roll" not in table.button_actions and not night.shown:
        night.shown = True
        await table.press(word("bluff.btn.show"), by=who)
    if "m:roll" not in table.button_actions and table.selects:
        options = table.selects[0]["options"]
        return await table.choose(options[len(options) // 2]["value"], by=who)
    return await table.play(by=who, prefer=("m:roll",))


@scene()
async def nine(scene: Any) -> None:
    night = scene.night
    alice, bob = night.alice, night.bob
    scene.note("Nine: alice and bob to the end")
    table = await night.table("nine", players=2)
    await table.command(alice, "game status")
    await table.play_to_the_end()
    await table.command(bob, "game status")
    scene.note("bob asks for a rematch: a new lobby, alice invited; she joins and starts")
    res = await table.press(word("result.btn.rematch"), by=bob)
    assert res.response is not None
    lobby = await newest_table(night, table.channel, "nine")
    await lobby.act("join", by=alice)
    await lobby.act("start", by=alice)
    scene.note("bob asks to end the game, then alice (the host) ends it")
    await table.command(bob, "game end")
    await table.command(alice, "game end")


@scene()
async def yahtzee(scene: Any) -> None:
    night = scene.night
    scene.note("Yahtzee: alice and a computer (easy), thirteen rounds")
    table = await night.table("yahtzee", players=1, cpus=["easy"])
    await table.command(night.alice, "hint")
    await table.play_to_the_end()
    scene.note("the review: alice always scored the first box offered")
    await table.press(word("result.btn.review"), by=night.alice)


@scene(closed_dms=("bob",))
async def sixtysix(scene: Any) -> None:
    night = scene.night
    scene.note("Sixty-Six: alice (her hand in her DMs) and bob (DMs closed), one game point")
    table = await night.table("sixtysix", players=2, options="target=1")
    for _ in range(200):  # bob's moves answer him alone: not the table's presses
        if table.over:
            return
        await from_the_hand(table, table.mover)
    raise AssertionError("the game did not end")


@scene()
async def table_commands(scene: Any) -> None:
    night = scene.night
    alice, bob, carol = night.alice, night.bob, night.carol
    scene.note("a lobby: a computer added and removed, bob joins and leaves, alice cancels")
    lobby = await night.table("sixdice", players=2, start=False, options="target=1000 start=0")
    await lobby.act("cpu:easy", by=alice)
    await lobby.press(word("lobby.btn.cpu_remove"), by=alice)
    await lobby.press(word("lobby.btn.leave"), by=bob)
    await lobby.press(word("lobby.btn.cancel"), by=alice)
    scene.note("a game of three: alice kicks bob (a computer takes his seat), carol leaves")
    table = await night.table("nine", players=3)
    await table.command(alice, "game kick", player=bob, replace_with_cpu=True)
    await night.settle()
    await table.command(carol, "game leave")
    await night.settle()
    await table.play_to_the_end()
    scene.note("a turn clock that runs out")
    table = await night.table("nine", players=2)
    # a player's first move has 3 turn clocks (270 s): the warning 20 s before
    # its end, then the bot plays for alice (it stopped at the start: 95 s)
    await night.wait(250)
    await night.wait(25)
    await night.settle()


# ----------------------------------------------------- after the games


@scene()
async def review_and_replay(scene: Any) -> None:
    night = scene.night
    alice, bob, eve = night.alice, night.bob, night.eve
    scene.note("a game of Nine to review and replay")
    table = await night.table("nine", players=2)
    await table.play_to_the_end()
    scene.note("Review under the result, then /review (bob's last game, then by its number)")
    await table.press(word("result.btn.review"), by=alice)
    await night.command(bob, "review")
    await night.command(eve, "review", result=1)
    scene.note("the record file and the seed")
    await table.press(word("result.btn.record"), by=eve)
    await table.press(word("result.btn.fair"), by=eve)
    scene.note("Replay: step on, to the end, back, to the start, a turn chosen")
    res = await table.press(word("result.btn.replay"), by=eve)
    viewer = night.reply(res, eve)
    for label in ("▶", "▶", "⏭", "◀", "⏮"):
        res = await viewer.press(label)
        viewer.message = res.response
    select = viewer.selects[0]
    await viewer.choose(select["options"][1]["value"])


@scene()
async def stats_boards_history(scene: Any) -> None:
    night = scene.night
    alice, bob, carol, eve = night.alice, night.bob, night.carol, night.eve
    scene.note("two games of Nine first")
    table = await night.table("nine", players=2)
    await table.play_to_the_end()
    table = await night.table("nine", players=[carol, alice, bob])
    await table.play_to_the_end()
    scene.note("/leaderboard")
    await night.command(eve, "leaderboard", game="nine")
    await night.command(eve, "leaderboard", game="nine", by="wins")
    await night.command(eve, "leaderboard", game="nine", scope="all", where="global")
    await night.command(eve, "leaderboard", game="yahtzee")
    scene.note("/stats")
    await night.command(alice, "stats")
    await night.command(eve, "stats", user=bob, game="nine")
    await night.command(eve, "stats")
    scene.note("/history, its record files and replays")
    res = await night.command(eve, "history")
    await night.command(eve, "history", user=carol)
    await night.command(eve, "history", game="yahtzee")
    answer = night.reply(res, eve)
    for select in answer.selects:  # the record file, then the replay, of the last game
        value = select["options"][0]["value"]
        await eve.select(answer.message, [value], custom_id=select["custom_id"])


# -------------------------------------------------------------- tournaments


@scene()
async def tournament_swiss(scene: Any) -> None:
    night = scene.night
    people = [night.member(n) for n in ("alice", "bob", "carol", "dave", "erin")]
    alice, bob = people[0], people[1]
    hall = night.guild.create_text_channel("swiss")
    scene.note("bob may not create a tournament; alice (Manage Server) does")
    await bob.slash(hall, "tournament create", game="nine", format="swiss", rounds=2,
                    table_size=2)  # fmt: skip
    signup = await create(night, alice, hall, game="nine", format="swiss", rounds=2,
                          table_size=2)  # fmt: skip
    for user in people:
        await signup.act("join", by=user)
    await signup.act("join", by=bob)
    await signup.act("start", by=bob)
    await signup.act("start", by=alice)
    scene.note("alice removes erin and pairs round 1 again")
    await alice.slash(hall, "tournament kick", user=people[4])
    await alice.slash(hall, "tournament repair")
    await play_round(night, 1)
    await alice.slash(hall, "tournament standings")
    await play_round(night, 2)
    await night.settle()
    await bob.slash(hall, "tournament standings")
    await bob.slash(hall, "tournament history")


@scene()
async def tournament_round_robin(scene: Any) -> None:
    night = scene.night
    people = [night.member(n) for n in ("alice", "bob", "carol", "dave")]
    hall = night.guild.create_text_channel("round-robin")
    scene.note("Bluff dice, round robin, starting in 3 minutes with a minute of check-in")
    signup = await create(night, people[0], hall, game="bluff", format="round-robin",
                          options="losses=1", table_size=2, starts_at="3m", checkin=1)  # fmt: skip
    await signup.act("join", by=people[1])
    await signup.act("leave", by=people[1])
    for user in people:
        await signup.act("join", by=user)
    scene.note("two minutes later: the check-in opens; dave does not check in")
    await night.wait(125)
    for user in people[:3]:
        await signup.act("checkin", by=user)
    scene.note("the start: three players, a bye each round")
    await night.wait(60)
    await night.settle()
    for number in (1, 2, 3):
        await play_round(night, number)
    await night.settle()


@scene()
async def tournament_knockout(scene: Any) -> None:
    night = scene.night
    people = [night.member(n) for n in ("alice", "bob", "carol", "dave")]
    hall = night.guild.create_text_channel("knockout")
    scene.note("Nine, knockout of four: the semi-finals, the final")
    signup = await create(night, people[0], hall, game="nine", format="knockout",
                          table_size=2)  # fmt: skip
    for user in people:
        await signup.act("join", by=user)
    await signup.act("start", by=people[0])
    for number in (1, 2):
        await play_round(night, number)
    await night.settle()


@scene()
async def tournament_tables(scene: Any) -> None:
    night = scene.night
    people = [night.member(n) for n in ("alice", "bob", "carol", "dave", "erin")]
    alice = people[0]
    hall = night.guild.create_text_channel("nine-night")
    scene.note("Nine at tables of three, computers in the empty seats, two rounds")
    signup = await create(night, alice, hall, game="nine", format="swiss", rounds=2,
                          table_size=3, cpu_fill=True)  # fmt: skip
    for user in people:
        await signup.act("join", by=user)
    await signup.act("start", by=alice)
    await play_round(night, 1)
    scene.note("dave drops out; alice ends the event after round 2 is paired")
    await dave_drops(night, hall)
    await alice.slash(hall, "tournament end")
    await night.settle()
    await alice.slash(hall, "tournament history")


async def dave_drops(night: Any, hall: Any) -> None:
    dave = night.member("dave")
    for match in await night.store.tournaments.matches(1, round=2):
        if dave.id in match.seats and match.thread_id:
            thread = next(t for t in hall.threads if t.id == match.thread_id)
            await dave.slash(thread, "tournament drop")
            return
    await dave.slash(hall, "tournament drop")


# ------------------------------------------------------------------- errors


@scene()
async def errors(scene: Any) -> None:
    night = scene.night
    alice, bob, eve = night.alice, night.bob, night.eve
    scene.note("bad /play: an unknown option, a bad value, options for a game with none")
    await night.command(alice, "play", game="sixdice", options="colour=red")
    await night.command(alice, "play", game="sixdice", options="target=lots")
    await night.command(alice, "play", game="nine", options="target=3")
    scene.note("bad /config: a clock too short, an unknown option")
    await night.command(alice, "config clock", game="nine", seconds=5)
    await night.command(alice, "config options", game="sixdice", options="colour=red")
    scene.note("commands with nothing to act on")
    await night.command(alice, "game status")
    await night.command(alice, "game leave")
    await night.command(alice, "hint")
    await night.command(eve, "review")
    await night.command(eve, "review", result=999)
    await night.command(eve, "tournament standings")
    scene.note("a lobby: bob starts (not the host), joins twice; a second table here")
    lobby = await night.table("nine", players=2, start=False)
    await lobby.act("start", by=bob)
    await lobby.act("join", by=bob)
    await lobby.command(bob, "play", game="nine")
    await lobby.act("start", by=alice)
    table = lobby
    scene.note("out of turn, a stranger's press, a stale button, a wrong move, /hint out of turn")
    await table.press(word("nine.btn.roll"), by=bob)
    await table.press(word("nine.btn.roll"), by=eve)
    await table.command(bob, "hint")
    old, roll = table.snapshot(), table.custom_ids[0]
    await table.press(word("nine.btn.roll"), by=alice)
    await old.press(custom_id=roll, by=alice)
    scene.note("a client sends a move the table never offered (flip 1 + 2 after rolling 9)")
    forged = table.custom_ids[0].rsplit(":", 2)[0] + ":m:flip 1 2"
    await old.press(custom_id=forged, by=alice)
    await table.command(eve, "game end")
    scene.note("bob hosts three lobbies waiting for players and opens a fourth")
    for _ in range(3):
        await night.table("yahtzee", players=[bob], start=False)
    await night.command(bob, "play", game="yahtzee")


# ------------------------------------------------------------------ helpers


async def alone(night: Any, game: str, level: str, *, options: str | None = None) -> Any:
    """``/play vs:computer`` by alice in a new channel: the table, started."""
    from .run import bot_tests

    night._channels += 1
    channel = night.guild.create_text_channel(f"{game}-{night._channels}")
    kwargs = {"options": options} if options else {}
    res = await night.alice.slash(channel, "play", game=game, vs=f"cpu_{level}", **kwargs)
    return bot_tests().Table(night, res.response, game, channel)


async def newest_table(night: Any, channel: Any, game: str) -> Any:
    """The page object of the channel's live table (a rematch's new lobby)."""
    from simcord.results import ResponseMessage

    from .run import bot_tests

    rows = await night.store.tables.live_tables()
    row = next(r for r in rows if r.channel_id == channel.id)
    stored = night.env.backend.get_message(channel.id, row.message_id)
    return bot_tests().Table(night, ResponseMessage(night.env, stored), game, channel)


async def from_the_hand(table: Any, who: Any) -> Any:
    """A Sixty-Six move from the player's DM: declare at 66, pass, exchange,
    draw, a marriage, else the first card."""
    hand = await private(table, who)
    points = hand.reading("sixtysix.private.points") or hand.reading("sixtysix.private.points", "ja")
    if "m:declare" in hand.actions and points and int(points["n"]) >= 66:
        return await hand.act("m:declare")
    for word in ("m:pass", "m:exchange", "m:draw"):
        if word in hand.actions:
            return await hand.act(word)
    values = [o["value"] for o in hand.selects[0]["options"]]
    return await hand.choose(next((v for v in values if v.startswith("marry")), values[0]))


async def private(table: Any, who: Any) -> Any:
    """What only ``who`` sees of the game, to play from: their latest DM, or
    with DMs closed the answer to "Show my hand" (edited in place as the
    game goes on; asked again once it offers nothing)."""
    night = table.night
    if who.name not in night.closed_dms:
        return night.hand(who)
    shown = getattr(night, "shown_hands", {})
    night.shown_hands = shown
    hand = shown.get(who.name)
    if hand is None or not hand.controls:
        res = await table.press(word("sixtysix.btn.show"), by=who)
        hand = shown[who.name] = night.reply(res, who)
    return hand


async def create(night: Any, host: Any, channel: Any, **options: Any) -> Signup:
    """``/tournament create``: the sign-up message, to press."""
    res = await host.slash(channel, "tournament create", **options)
    assert res.response is not None and not res.response.ephemeral, res
    return Signup(night, res.response)


class Signup:
    """A tournament's sign-up message (its buttons: ``ct:<id>:<action>``)."""

    def __init__(self, night: Any, message: Any) -> None:
        self.night = night
        self.message = message

    async def act(self, action: str, *, by: Any) -> Any:
        from simcord.results import ResponseMessage

        env = self.night.env
        now = ResponseMessage(env, env.backend.get_message(self.message.channel_id, self.message.id))
        ids = [c["custom_id"] for row in now.components for c in row["components"]]
        cid = next(i for i in ids if i.startswith("ct:") and i.endswith(f":{action}"))
        return await by.click(now, custom_id=cid)


async def play_round(night: Any, number: int, *, policy: Any = None) -> None:
    """Every open match of round ``number`` played to its end (the first
    offered move, or ``policy``'s)."""
    from simcord.results import ResponseMessage

    from .run import bot_tests

    for match in await night.store.tournaments.matches(1, round=number):
        if match.state != "open" or match.table_id is None:
            continue
        row = await night.store.tables.get_table(match.table_id)
        if row is None or row.message_id is None:
            continue
        stored = night.env.backend.get_message(row.channel_id, row.message_id)
        thread = night.env.backend.get_channel(row.channel_id)
        table = bot_tests().Table(night, ResponseMessage(night.env, stored), row.game, thread)
        await table.play_to_the_end(policy=policy)
        await night.settle()
