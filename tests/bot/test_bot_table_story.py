"""The table tells the story (issue 22): the lobby's head-count says what it
means, a seat that left stays in view (its line, its mark on the table and
on the picture, greyed), a computer that took a seat keeps that person's
name on the picture, a DM learns that its game ended, Sixty-Six draws by
itself after a won trick, the replay's last step says the game is over
once, and the hints speak the game's own words."""

from __future__ import annotations

from typing import Any

from simtable import accepted, readings, says

from bot.i18n import t
from games import core, registry, sixtysix
from games.core import SeededSource


def alt_texts(table: Any) -> str:
    """The alt text of the table message's pictures, as Discord stores it."""
    return " ".join(str(a.get("description") or "") for a in table.stored.attachments)


# ------------------------------------------------------------ the lobby


async def test_the_lobby_counts_players_against_what_the_game_needs(game_night):
    async with game_night(locales={"alice": "en"}) as night:
        lobby = await night.table("bluff", players=1, start=False)
        need = t("lobby.need", "en", count=1)
        assert lobby.shows("lobby.players", count=1, max=10, status=need), lobby.content
        assert "Players 1/10 — 1 more needed to start" in lobby.content  # not "(1, 2–10)"
        accepted(await lobby.act("join", by=night.bob))
        assert lobby.shows("lobby.players", count=2, max=10, status=t("lobby.ready", "en"))
        duel = await night.table("sixtysix", players=2, start=False)
        assert "Players 2/2 — ready" in duel.content


async def test_the_lobby_counts_in_japanese(game_night):
    async with game_night() as night:
        lobby = await night.table("sixtysix", players=1, start=False, lang="ja")
        need = t("lobby.need", "ja", count=1)
        assert need == "あと1人で開始できます"
        assert lobby.shows("lobby.players", "ja", count=1, max=2, status=need), lobby.content
        accepted(await lobby.act("join", by=night.bob))
        assert lobby.shows("lobby.players", "ja", count=2, max=2, status="開始できます")


# ------------------------------------------------------- leaving the game


async def turn_of(table: Any, who: Any) -> None:
    """Play the first offered moves until it is ``who``'s turn."""
    for _ in range(200):
        await table.night.settle()
        if table.turn is who:
            return
        await table.play()
    raise AssertionError("never their turn")


async def test_a_leave_stays_in_view_while_the_computers_play_on(game_night):
    async with game_night(seeded=True) as night:
        table = await night.table("yahtzee", players=2, cpus=["easy"])
        bob = night.bob
        await turn_of(table, bob)
        await table.ask(bob, "game leave")
        await night.settle()
        assert table.turn is night.alice  # the computer has played its turn since
        accepted(await table.act("m:roll"))  # alice rolls: three lines since the leave
        log = (await table.row()).ui["log"]
        kinds = [e["kind"] for e in log]
        since = kinds[kinds.index("forfeit") + 1 :]
        assert since.count("roll") + since.count("score") >= 3, kinds
        lines = [x for x in table.content.splitlines() if x.startswith("• ")]
        assert len(lines) == 3
        left = t("ev.yahtzee.forfeit", "en", player="bob")
        assert lines[0] == "• " + left, table.content  # first of the three, not pushed out
        assert any("CPU1" in x for x in lines[1:]), lines
        # the seat is marked on the table and on the picture (greyed "(left)")
        out = t("table.seat_left", "en", player="bob")
        assert table.shows("table.seats_out", players=out), table.content
        assert "bob (left)" in alt_texts(table)


async def test_a_leave_outlasts_two_computers_turns(game_night):
    """Two computers play a dozen Six Dice events after bob leaves: the
    table alice sees next still says he left (it said only their moves)."""
    async with game_night(seeded=True) as night:
        table = await night.table("sixdice", players=2, cpus=["easy", "normal"])
        await turn_of(table, night.bob)
        await table.ask(night.bob, "game leave")
        await night.settle()
        assert table.turn is night.alice
        kinds = [e["kind"] for e in (await table.row()).ui["log"]]
        assert len(kinds[kinds.index("forfeit") + 1 :]) >= 10, kinds
        lines = [x for x in table.content.splitlines() if x.startswith("• ")]
        assert lines[0] == "• " + t("ev.sixdice.forfeit", "en", player="bob"), table.content
        assert len(lines) == 3 and "CPU2" in lines[-1], lines
        accepted(await table.act("m:roll"))  # alice has seen it and plays: it may go
        kinds = [e["kind"] for e in (await table.row()).ui["log"]]
        assert "forfeit" not in kinds and len(kinds) == 12, kinds


async def test_a_removed_seat_and_a_computers_seat_keep_their_names(game_night):
    async with game_night(seeded=True, locales={"alice": "ja"}) as night:
        table = await night.table("sixdice", players=4, lang="ja")
        alice, bob, carol = night.alice, night.bob, night.carol
        await table.command(alice, "game kick", player=bob)
        await table.command(alice, "game kick", player=carol, replace_with_cpu=True)
        await night.settle()
        out = t("table.seat_removed", "ja", player="bob")
        assert table.shows("table.seats_out", "ja", players=out), table.content
        shown = alt_texts(table)
        assert "bob（除外）" in shown, shown
        assert "carol（CPU）" in shown, shown  # whose seat the computer took
        # the last removal's line is the first of the three, the mark stays
        assert says(table.content, "ev.kicked_cpu", "ja", player=carol.mention), table.content


# ------------------------------------------------- Sixty-Six draws by itself

DECKS = [SeededSource(f"table-story-{i}").deck() for i in range(40)]


def sixtysix_move(hand: Any) -> str:
    """A plain player's move from their hand: declare at 66, pass after the
    last trick, else the first card (or marriage) offered."""
    told = hand.reading("sixtysix.private.points")
    buttons = set(hand.button_actions)
    if "m:declare" in buttons and told and int(told["n"]) >= 66:
        return "m:declare"
    if "m:pass" in buttons:
        return "m:pass"
    if hand.choices:
        return hand.choices[0]
    return next(b for b in hand.button_actions if b.startswith("m:") and b != "m:declare")


async def test_sixtysix_is_played_to_the_end_without_a_press_to_draw(game_night):
    async with game_night(decks=DECKS, aux=[1]) as night:
        table = await night.table("sixtysix")
        presses = 0
        while not table.over:
            assert presses < 600, "the game did not end"
            member = table.mover
            hand = night.hand(member)
            assert "m:draw" not in hand.button_actions, hand.content  # never a press to draw
            assert not hand.shows("sixtysix.private.draw")
            # the rule's way to close, while the talon can be closed (docs/rules/sixtysix.md)
            state = sixtysix.from_json((await table.row()).state)
            can_close = not state.closed and bool(state.talon)
            assert (t("sixtysix.btn.ask_draw", "en") in hand.buttons) == can_close, hand.buttons
            move = sixtysix_move(hand)
            accepted(await (hand.act(move) if move.startswith("m:") else hand.choose(move)))
            presses += 1
        (result,) = await night.store.results.all()
    record = core.Record.from_json(result["record"])
    draws = [m for m in record.moves if m.endswith(" draw")]
    assert len(draws) >= 5, record.moves  # every draw in the record, none pressed
    assert sixtysix.outcome(registry.replay(record)) == result["outcome"]  # it replays
    assert presses + len(draws) == len(record.moves)


async def test_sixtysix_stop_before_drawing_keeps_the_right_to_close(game_night):
    async with game_night(decks=DECKS, aux=[1], locales={"alice": "ja"}) as night:
        table = await night.table("sixtysix")
        alice = night.alice
        mine = night.hand(alice)
        accepted(await mine.press(t("sixtysix.btn.ask_draw", "ja")))
        assert t("sixtysix.btn.auto_draw", "ja") in night.hand(alice).buttons
        for _ in range(60):  # plain play until alice wins a trick with the talon open
            hand = night.hand(table.mover)
            if "m:draw" in hand.button_actions:
                break
            move = sixtysix_move(hand)
            accepted(await (hand.act(move) if move.startswith("m:") else hand.choose(move)))
        else:
            raise AssertionError("alice never won a trick")
        assert table.mover is alice and hand.shows("sixtysix.private.draw", "ja")
        assert "m:close" in hand.button_actions  # "引かずに閉じる"
        before = sixtysix.from_json((await table.row()).state)
        accepted(await hand.act("m:close"))
        state = sixtysix.from_json((await table.row()).state)
        assert state.closed and len(state.talon) == len(before.talon)  # nobody drew
        assert (await table.moves())[-1] == "alice close"


async def test_sixtysix_against_a_computer_draws_by_itself(game_night):
    async with game_night(seeded=True) as night:
        table = await night.table("sixtysix", players=1, cpus=["normal"])
        alice = night.alice
        for _ in range(400):
            await night.settle()
            if table.over:
                break
            hand = night.hand(alice)
            assert "m:draw" not in hand.button_actions
            move = sixtysix_move(hand)
            accepted(await (hand.act(move) if move.startswith("m:") else hand.choose(move)))
        assert table.shows("result.title", game="Sixty-Six")
        (result,) = await night.store.results.all()
        record = core.Record.from_json(result["record"])
        assert any(m == "alice draw" for m in record.moves)
        assert sixtysix.outcome(registry.replay(record)) == result["outcome"]
        # the replay's last step: over once, both hands in the third person
        viewer = await replay_to_the_end(night, table, night.alice)
        assert viewer.content.count(t("replay.end", "en")) == 1, viewer.content
        held = ("replay.sixtysix.held", "replay.sixtysix.played_out")
        assert sum(len(readings(viewer.content, k)) for k in held) == 2, viewer.content
        for key in ("sixtysix.private.hand", "sixtysix.private.over", "sixtysix.private.wait"):
            assert not says(viewer.content, key), viewer.content  # no "your …" under a name


async def replay_to_the_end(night: Any, table: Any, by: Any) -> Any:
    """``by`` opens the replay under the result and jumps to its last step."""
    res = await table.press(t("result.btn.replay", "en"), by=by)
    assert res.response is not None and res.response.ephemeral, res
    viewer = night.reply(res, by)
    res = await viewer.press("⏭")
    viewer.message = res.response
    return viewer


async def test_the_replays_last_step_says_the_game_is_over_once(game_night):
    async with game_night(seeded=True, locales={"alice": "ja"}) as night:
        table = await night.table("nine", players=1)
        await table.play_to_the_end()
        viewer = await replay_to_the_end(night, table, night.alice)
        over = t("replay.end", "ja")
        assert viewer.content.count(over) == 1, viewer.content
        assert t("ev.game_over", "ja") not in viewer.content, viewer.content


# ------------------------------------------------------------------ hints


async def test_bluff_hint_after_the_roll_asks_only_for_the_announcement(game_night):
    async with game_night(seeded=True, locales={"alice": "ja"}) as night:
        table = await night.table("bluff", players=1, cpus=["easy"])
        alice = night.alice
        for _ in range(40):  # until alice holds the cup with nothing announced
            await night.settle()
            if (
                table.turn is alice
                and "m:roll" in table.actions
                and "m:reveal" not in table.actions
            ):
                break
            await table.play(by=alice)
        else:
            raise AssertionError("alice never had a fresh cup")
        text = await table.ask(alice, "hint")
        assert says(text, "hint.bluff.first", "ja"), text  # before the roll: roll and announce
        accepted(await table.act("m:roll", by=alice))
        text = await table.ask(alice, "hint")
        assert says(text, "hint.bluff.rolled", "ja"), text
        assert not says(text, "hint.bluff.first", "ja"), text  # not "振って宣言して"


async def test_english_nine_hints_say_agari_like_the_pictures(game_night):
    """One spelling per term (issue 33): the hints say 上がり (agari) as the
    pictures and /rules do, never "Shut!"."""
    async with game_night(seeded=True) as night:
        table = await night.table("nine", players=1)
        text = await table.ask(night.alice, "hint")
        assert says(text, "hint.nine.before"), text
        assert t("pic.agari", "en") in text and "Shut" not in text, text
        accepted(await table.play())
        text = await table.ask(night.alice, "hint")
        assert t("pic.agari", "en") in text and "Shut" not in text, text


# ----------------------------------------------------- the DMs learn the end


async def test_a_sixtysix_hand_learns_that_the_host_ended_the_game(game_night):
    async with game_night(decks=DECKS, aux=[1]) as night:
        table = await night.table("sixtysix")
        alice, bob = night.alice, night.bob
        hand = night.hand(bob)  # bob leads; then alice must answer
        accepted(await hand.choose(sixtysix_move(hand)))
        assert says(night.hand(alice).content, "sixtysix.private.follow")
        await table.command(alice, "game end")  # the host alone: no contest
        await night.settle()
        for who in (alice, bob):
            (dm,) = night.dms(who)  # the same DM, edited
            text = night.hand(who).content
            assert says(text, "private.ended.by", user="alice"), text
            assert not says(text, "sixtysix.private.follow"), text  # not "Answer A♥."
            assert night.hand(who).controls == []  # no card left to press


async def test_a_bluff_cup_learns_who_won(game_night):
    async with game_night(seeded=True, locales={"alice": "ja"}) as night:
        table = await night.table("bluff", players=1, cpus=["easy"], options="losses=1")
        await table.play_to_the_end(prefer=("m:roll",))
        dms = night.dms(night.alice)
        assert dms, "alice never looked under the cup"
        text = night.hand(night.alice).content
        assert says(text, "private.ended.won", "ja"), text
        assert not says(text, "bluff.private.dice", "ja"), text  # no stale cup left as if live
