"""Traps and fairness at the table (issue 18), through Discord (SimCord):
Declare 66 below 66 asks the declarer first, privately; a failed
declaration reads as one."""

from __future__ import annotations

import re

from simtable import privately, refused, says, taken
from test_bot_sixtysix import DECKS, Policy, make

from bot.i18n import t
from games import registry, sixtysix
from games.core import seed_hash


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
        # a threshold of 0: no "needs 0 to start", but that a stop starts
        zero = await night.table("sixdice", options="target=1000 start=0", lang="en")
        assert zero.shows("sixdice.status.not_started_stop"), zero.content
        assert not zero.shows("sixdice.status.not_started", need="0")
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


async def play_a_few_turns(table, presses: int = 8) -> None:
    """Six Dice: each player rolls and banks as soon as the rules allow."""
    for _ in range(presses):
        assert taken(await table.play(prefer=("m:stop",)))


async def stored_players(night) -> list[dict]:
    (result,) = await night.store.results.all(game="sixdice")
    return (await night.store.results.get_result(result["id"]))["players"]


async def test_the_host_alone_ends_a_running_game_as_no_contest(game_night):
    """A host's /game end of a running game is unrated, nobody wins, nothing
    is settled: the message shows the standings as they stood."""
    async with game_night(seeded=True) as night:
        table = await night.table("sixdice", options="start=0")
        alice, bob = night.alice, night.bob
        await play_a_few_turns(table)
        scores = (await table.row()).state["scores"]
        assert any(scores.values())
        await table.command(alice, "game end")
        assert table.shows("result.no_contest", user=alice.mention), table.content
        assert table.shows("result.header_as_it_stood")
        assert not table.shows("result.line_win") and not table.shows("result.ended_by")
        for user in (alice, bob):  # the scores as they stood
            assert table.shows("result.line", player=user.mention, points=f"{scores[user.name]:,}")
        assert table.attachments  # the table as it stood
        players = await stored_players(night)
        assert [(p["won"], p["points"], p["rated"]) for p in players] == [(False, 0, False)] * 2
        assert await night.store.boards.ratings("sixdice", [alice.id, bob.id]) == {}
        (entry, *_) = await night.store.boards.stats(alice.id, game="sixdice", guild_id=None)
        assert (entry["wins"], entry["points"]) == (0, 0) and "rating" not in entry
        board = await night.store.boards.leaderboard("sixdice", guild_id=None, by="wins")
        assert all(row["wins"] == 0 for row in board)


async def test_a_game_ended_by_everyone_is_settled_and_rated(game_night):
    """bob agrees first (the table says so, in its language), then the
    host's /game end ends it with a result: settled as it stands, rated."""
    async with game_night(seeded=True, locales={"bob": "ja"}) as night:
        table = await night.table("sixdice", options="start=0", lang="ja")
        alice, bob = night.alice, night.bob
        await play_a_few_turns(table)
        res = await table.command(bob, "game end")
        assert privately(res, "end.agreed", "ja", n=1, m=2)
        assert table.shows("table.end_votes", "ja", players="bob", n=1, m=2)
        assert not table.over  # agreeing alone ends nothing
        await table.command(alice, "game end")
        assert table.shows("result.ended_agreed", "ja")
        assert table.shows("result.line_win", "ja")
        players = await stored_players(night)
        assert sum(p["won"] for p in players) == 1 and all(p["rated"] for p in players)
        assert set(await night.store.boards.ratings("sixdice", [alice.id, bob.id])) == {alice.id, bob.id}


async def test_an_agreement_lapses(game_night):
    """An agreement stands for a while only: after it lapsed, the host's
    /game end is no contest again; someone without a seat cannot agree."""
    async with game_night(seeded=True) as night:
        table = await night.table("sixdice", options="start=0")
        alice, bob, eve = night.alice, night.bob, night.eve
        await play_a_few_turns(table, 2)
        assert refused(await table.command(eve, "game end"), "error.end_not_allowed")
        assert privately(await table.command(bob, "game end"), "end.agreed", n=1, m=2)
        row = await table.row()
        votes = row.ui["end_votes"]
        votes[str(bob.id)] -= 601  # agreed eleven minutes ago
        await night.store.tables.patch_ui({row.id: {"end_votes": votes}})
        await table.command(alice, "game end")
        assert table.shows("result.no_contest", user=alice.mention)


async def test_an_ended_game_without_a_settlement_shows_how_it_stood(game_night):
    """Yahtzee has no settlement as it stands: the host's /game end leaves
    no result, and the message shows the standings as they stood."""
    async with game_night(dice=[1, 2, 3, 4, 6, 5, 5, 5, 5, 5], aux=[1]) as night:
        table = await night.table("yahtzee", lang="ja")
        alice, bob = night.alice, night.bob
        assert taken(await table.press("Roll", by=alice))
        assert taken(await table.play(by=alice))  # a box scored
        state = registry.engine("yahtzee").from_json((await table.row()).state)
        total = registry.engine("yahtzee").settle(state).points["alice"]
        assert total > 0
        await table.command(alice, "game end")
        assert table.shows("result.abandoned", "ja", user=alice.mention)
        assert table.shows("result.header_as_it_stood", "ja")
        assert table.shows("result.line", "ja", player=alice.mention, points=str(total))
        assert table.shows("result.line", "ja", player=bob.mention, points="0")
        assert not table.shows("result.line_win", "ja")
        assert await night.store.results.all() == []


async def test_only_a_game_played_from_the_hand_says_so(game_night):
    """Bluff's moves are on the table (only its dice are private): its turn
    line does not send anyone to their DMs."""
    async with game_night(seeded=True) as night:
        table = await night.table("bluff", players=2)
        assert table.shows("table.turn", player=table.mover.mention)
        assert not table.shows("table.turn_private")


async def test_without_shown_points_every_declaration_is_asked_alike(game_night):
    """With show_points off the players keep count alone: the question
    names no points (it would tell them), and comes for every declaration."""
    async with game_night(decks=DECKS, aux=[1]) as night:
        table = await night.table("sixtysix", options="show_points=off")
        res = await table.press("Declare 66", by=night.alice)
        assert privately(res, "sixtysix.confirm.declare_blind", goal=66)
        assert not says(res.response.content, "sixtysix.confirm.declare")
        assert (await table.row()).state["history"]["moves"] == []


# ---------------------------------------------------------------- fair dice (issue 22)


def verify(*args: str) -> tuple[int, dict]:
    import json
    import subprocess
    import sys

    out = subprocess.run(
        [sys.executable, "-m", "games", "verify", *args, "--count", "3"],
        capture_output=True,
        text=True,
        check=False,
    )
    return out.returncode, (json.loads(out.stdout) if out.stdout.strip() else {})


async def test_fair_dice_a_player_checks_with_what_they_were_shown(game_night):
    """One short 🎲 Fair dice line: the same 8 hex digits on the table and in
    /game status, no seed in the chat at the end — the result's 🔑 Seed
    button answers it privately — and the check works with exactly the
    digits shown (``games verify`` took only the whole hash: "match": false)."""
    async with game_night(seeded=True, locales={"bob": "ja"}) as night:
        table = await night.table("nine")
        (shown,) = re.findall(r"`([0-9a-f]{8,})`", table.content)
        assert len(shown) == 8 and table.shows("seed.hash.dice", hash=shown)
        (row,) = await night.store.tables.live_tables()
        seed, whole = row.seed, seed_hash(row.seed)
        assert whole.startswith(shown)
        text = await table.ask(night.bob, "game status")
        assert says(text, "seed.hash.dice", "ja", hash=shown) and whole not in text, text
        await table.play_to_the_end()
        content = table.content
        assert seed not in content and whole not in content, content
        button = t("result.btn.fair")
        assert table.shows("seed.result.dice", hash=shown, button=button), content
        assert "python -m" not in content
        res = await table.press(button, by=night.eve)  # anyone who sees the result
        answer = res.response
        assert answer.ephemeral and says(answer.content, "result.fair.dice", seed=seed, hash=shown)
        res = await table.press(button, by=night.bob)
        assert says(res.response.content, "result.fair.dice", "ja", seed=seed, hash=shown)
        assert seed not in table.content  # still nothing public
        res = await table.command(night.alice, "rules", game="nine")
        how = {f.name: f.value for f in res.response.embeds[0].fields}[t("rules.verify")]
        assert "python -m" not in how and "8" in how and button in how
    # what the player was shown is enough to check
    assert verify(seed, shown) == (0, verify(seed, whole)[1] | {"prefix": True})
    code, doc = verify(seed, shown)
    assert code == 0 and doc["match"] is True and doc["prefix"] is True
    code, doc = verify(seed, whole)
    assert code == 0 and doc["match"] is True and doc["prefix"] is False
    wrong = format((int(shown, 16) + 1) % 16**8, "08x")
    assert verify(seed, wrong)[1]["match"] is False
    assert verify(seed, shown[:4])[0] == 2  # too short to prove anything: refused
