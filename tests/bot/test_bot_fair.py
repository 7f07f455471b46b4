"""Traps and fairness at the table (issue 18), through Discord (SimCord):
Declare 66 below 66 asks the declarer first, privately; a failed
declaration reads as one."""

from __future__ import annotations

from simtable import privately, says, taken
from test_bot_sixtysix import DECKS, Policy, make

from bot.i18n import t
from games import sixtysix


async def moves_and_version(table) -> tuple[list[str], int]:
    row = await table.row()
    return list(row.state["history"]["moves"]), row.version


async def test_a_wrong_declaration_asks_first_and_cancel_changes_nothing(game_night):
    async with game_night(decks=DECKS, aux=[1]) as night:
        table = await night.table("sixtysix")
        alice, bob = night.alice, night.bob
        assert table.mover is bob  # alice, not to move, may declare at any moment
        before = await moves_and_version(table)
        content, dms = table.content, [m.content for m in night.dms(bob)]

        res = await table.press("Declare 66", by=alice)
        assert privately(res, "sixtysix.confirm.declare", points=0, goal=66)
        question = night.reply(res, alice)
        assert question.buttons == ["Declare anyway", "Cancel"]
        # the question's ids carry the table, its version and the move: no secret
        assert question.actions == ["y:declare", "dismiss"]
        assert await moves_and_version(table) == before
        assert table.content == content and [m.content for m in night.dms(bob)] == dms

        res = await question.press("Cancel")
        assert says(res.response.content, "ui.cancelled")
        assert await moves_and_version(table) == before
        assert table.content == content and [m.content for m in night.dms(bob)] == dms

        # from the hand in the DM too: asked again, then declared
        res = await night.hand(alice).act("m:declare")
        assert privately(res, "sixtysix.confirm.declare", points=0)
        assert await moves_and_version(table) == before
        await night.reply(res, alice.user).press("Declare anyway")  # in the DM
        moves, _ = await moves_and_version(table)
        assert moves[len(before[0])] == "alice declare"
        assert table.shows(
            "ev.sixtysix.declared_lost.other", player="alice", points=0, winner="bob", count=3
        )
        assert not table.shows("ev.sixtysix.declare", player="alice")
        state = sixtysix.from_json((await table.row()).state)
        assert state.game_points == [0, 3]
        assert night.hand(alice).shows("sixtysix.private.hand", n=2)  # the DM moved on


async def test_the_question_in_the_players_language(game_night):
    async with game_night(decks=DECKS, aux=[1], locales={"alice": "ja"}) as night:
        table = await night.table("sixtysix")
        res = await table.press("Declare 66", by=night.alice)
        assert privately(res, "sixtysix.confirm.declare", "ja", points=0, goal=66)
        question = night.reply(res, night.alice)
        res = await question.press("それでも宣言する")
        assert table.shows("ev.sixtysix.declared_lost.other", player="alice", winner="bob")


async def test_a_right_declaration_goes_at_once(game_night):
    """With 66 card points or more, Declare 66 declares at once (no question)."""
    async with game_night(decks=DECKS, aux=[1]) as night:
        table = await night.table("sixtysix")
        policy = Policy()
        for _ in range(200):
            hand = night.hand(table.mover)
            told = hand.reading("sixtysix.private.points")
            if told and int(told["n"]) >= 66 and "m:declare" in hand.button_actions:
                break
            await make(hand, policy.choose(hand))
        else:
            raise AssertionError("nobody reached 66")
        who = table.mover
        name = who.name
        res = await hand.act("m:declare")
        assert taken(res) and not privately(res, "sixtysix.confirm.declare")
        assert (await table.row()).state["history"]["moves"][-1] == f"{name} declare"
        assert any(
            table.shows(f"ev.sixtysix.declared_won.{form}", player=name, points=told["n"])
            for form in ("one", "other")
        )


async def test_six_dice_names_the_start_threshold_and_the_last_turn(game_night):
    """The status names what a player needs: 500 in one turn to start, and on
    the last turn of a played-out round the points needed to win."""
    async with game_night(seeded=True) as night:
        table = await night.table("sixdice", options="target=1000 start=500")
        assert table.shows("sixdice.status.not_started", need="500")
        ja = await night.table("sixdice", options="target=1000 start=500", lang="ja")
        assert ja.shows("sixdice.status.not_started", "ja", need="500")
        seen = 0
        for _ in range(300):
            row = await table.row()
            if row is None:
                break
            state = row.state
            if state["ending"]:
                me = table.mover.name
                leader = max((p for p in state["order"] if p != me), key=state["scores"].get)
                need = state["scores"][leader] - state["scores"][me] + 1  # two players
                key = "sixdice.status.last_turn" if need > 0 else "sixdice.status.last_turn_ahead"
                assert table.shows(key, **({"need": f"{need:,}"} if need > 0 else {}))
                seen += 1
            else:
                assert not table.shows("sixdice.status.last_turn")
            stop = "m:stop" in table.actions and state["turn_total"] >= 400
            assert taken(await table.play(prefer=("m:stop",) if stop else ("m:roll",)))
        assert seen, "the round was never played out"


async def test_the_table_message_is_short_and_the_history_is_in_game_status(game_night):
    """Less is more: the Sixty-Six table shows the turn (and where to play),
    two status lines and the last three events; /game status has them all."""
    async with game_night(decks=DECKS, aux=[1]) as night:
        table = await night.table("sixtysix")
        policy = Policy()
        for _ in range(14):
            hand = night.hand(table.mover)
            await make(hand, policy.choose(hand))
        lines = table.content.splitlines()
        events = [line for line in lines if line.startswith("• ")]
        assert len(events) == 3, table.content
        assert len(lines) <= 9, table.content  # title, turn, 2 status, 3 events, clock, seed
        assert table.shows("table.turn_private", player=table.mover.mention, button="Show my hand")
        assert table.turn is table.mover
        assert not table.shows("sixtysix.status.trick")  # the picture shows the trick
        answer = await table.ask(night.eve, "game status")
        assert says(answer, "status.history")
        told = [line for line in answer.splitlines() if line.startswith("• ")]
        assert len(told) > 3 and told[-3:] == events
        # the status of a Japanese asker, in Japanese
        night.speaks(night.eve, "ja")
        assert says(await table.ask(night.eve, "game status"), "status.history", "ja")


async def test_closed_dms_are_told_once(game_night):
    """bob takes no DMs: he is told once, in the channel, where to play
    instead — not on every turn; alice, whose DMs work, is never told."""
    async with game_night(decks=DECKS, aux=[1], closed_dms=["bob"]) as night:
        table = await night.table("sixtysix", lang="ja")
        bob, alice = night.bob, night.alice
        policy = Policy()
        for _ in range(12):
            member = table.mover
            if member is bob:
                res = await table.press("Show my hand", by=bob)
                hand = night.reply(res, bob)
            else:
                hand = night.hand(member)
            await make(hand, policy.choose(hand))
        (told,) = table.posts("private.dms_closed", "ja")
        button = t("sixtysix.btn.show", "ja")  # the table's language
        assert says(told.content, "private.dms_closed", "ja", player=bob.mention, button=button)
        assert not table.posts("private.dms_closed", "ja", player=alice.mention)
        assert (await table.row()).ui["dm_told"] == [str(bob.id)]
