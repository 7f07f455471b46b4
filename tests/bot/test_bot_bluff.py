"""Bluff dice through Discord (SimCord): the cup holder's buttons, the dice in
the roller's DM, a pass without rolling, a correct and a wrong call, a match
to the loss limit, a restart mid-cup, and DMs closed (the ephemeral
fallback and "Show my dice")."""

from __future__ import annotations

from simtable import accepted, exactly, privately, says

from games import bluff, core, registry

# game 1: alice 6 5 (looks); bob passes without rolling; carol calls: bluff
# game 2: bob 3 1 without looking; carol 4 4 (looks); alice reveals: wrong call
# game 3: alice 2 1; bob must reveal: wrong call, bob's second loss ends it
DICE = [6, 5, 3, 1, 4, 4, 2, 1]
ANNOUNCE = [f"announce {v}" for v in bluff.RANKING]  # strongest first


async def test_bluff_match_with_dms_restart_and_calls(game_night):
    async with game_night(dice=DICE, aux=[1]) as night:  # alice starts the first game
        table = await night.table("bluff", players=3, options="losses=2")
        alice, bob, carol, eve = night.alice, night.bob, night.carol, night.eve
        assert table.shows("table.turn", player=alice.mention)
        # the first player of a game must roll: Roll, Roll without looking, Show my dice
        assert set(table.buttons) == {"Roll", "Roll without looking", "Show my dice"}
        accepted(await table.press("Roll", by=alice))
        (dm,) = night.dms(alice)
        assert says(dm.content, "bluff.private.dice", value="65") and dm.attachments
        assert says(dm.content, "private.header", game="Bluff dice", channel=table.channel.mention)
        assert night.dms(bob) == [] and night.dms(carol) == []
        # after a roll: announce only, any value (weakest 31 … 21), strongest first
        assert table.choices == ANNOUNCE
        assert exactly(table.choice_labels[0], "bluff.value.top", value="21")
        assert "Reveal" not in table.buttons

        # a restart with the cup in alice's hand: she still sees her dice
        await night.restart()
        res = await table.press("Show my dice", by=alice)
        assert privately(res, "bluff.private.dice", value="65")
        assert privately(await table.press("Show my dice", by=bob), "bluff.private.not_seen")
        assert privately(await table.press("Show my dice", by=eve), "private.no_hand")
        accepted(await table.choose("announce 65", by=alice))

        # bob: exactly the stronger values, and a pass without rolling
        assert set(table.buttons) == {"Reveal", "Roll", "Roll without looking", "Show my dice"}
        assert table.choices == ANNOUNCE[:7]
        accepted(await table.choose("announce 66", by=bob))
        assert table.shows("ev.bluff.pass", player="bob", value="66")
        accepted(await table.press("Reveal", by=carol))
        assert says(
            table.content,
            ("ev.bluff.reveal", "ev.bluff.bluff_called"),
            player="carol",
            dice="6 5",
            value="65",
            announcer="bob",
            announced="66",
            loser="bob",
        )
        assert table.attachments  # the dice picture, now public
        assert table.shows("bluff.status.losses", limit=2, table="alice 0 · bob 1 · carol 0")

        # game 2: bob rolls without looking, nobody is told the dice
        accepted(await table.press("Roll without looking", by=bob))
        assert night.dms(bob) == []
        assert privately(await table.press("Show my dice", by=bob), "bluff.private.not_seen")
        accepted(await table.choose("announce 41", by=bob))
        accepted(await table.press("Roll", by=carol))
        assert says(night.dms(carol)[-1].content, "bluff.private.dice", value="44")
        accepted(await table.choose("announce 44", by=carol))
        accepted(await table.press("Reveal", by=alice))
        assert table.shows("ev.bluff.wrong_call", loser="alice")

        # game 3: 21 forces a reveal
        accepted(await table.press("Roll", by=alice))
        accepted(await table.choose("announce 21", by=alice))
        assert set(table.buttons) == {"Reveal", "Show my dice"}
        assert table.choices == []
        accepted(await table.press("Reveal", by=bob))
        assert table.shows("result.title", game="Bluff dice")
        assert table.over
        results = await night.store.results.all()
    assert len(results) == 1
    record = core.Record.from_json(results[0]["record"])
    assert record.moves[:4] == [
        "alice roll",
        "alice announce 65",
        "bob announce 66",
        "carol reveal",
    ]
    outcome = bluff.outcome(registry.replay(record))
    assert outcome == results[0]["outcome"]
    assert outcome["losses"] == {"alice": 1, "bob": 2, "carol": 0}
    assert [g["reason"] for g in outcome["games"]] == ["bluff_called", "wrong_call", "wrong_call"]
    assert outcome["winners"] == ["carol"]
    assert table.shows("result.line_win", player=carol.mention)


async def test_bluff_with_dms_closed_uses_the_ephemeral_fallback(game_night):
    async with game_night(dice=DICE, aux=[1], closed_dms=["alice"]) as night:
        table = await night.table("bluff", players=3, options="losses=1")
        alice, bob, carol = night.alice, night.bob, night.carol
        res = accepted(await table.press("Roll", by=alice))
        private = [f for f in res.followups if f.ephemeral]
        assert len(private) == 1 and private[0].attachments
        assert says(private[0].content, "bluff.private.dice", value="65")
        assert night.dms(alice) == []
        # the channel, as a spectator sees it, does not know the dice yet
        public = [ln for ln in table.content.splitlines() if not says(ln, "seed.hash.dice")]
        assert not any("65" in line or "6 5" in line for line in public), public
        assert all("65" not in cid for cid in table.custom_ids)
        # the table's button opens it again, for alice only
        res = await table.press("Show my dice", by=alice)
        assert privately(res, "bluff.private.dice", value="65")
        accepted(await table.choose("announce 65", by=alice))
        accepted(await table.choose("announce 66", by=bob))
        accepted(await table.press("Reveal", by=carol))
        assert table.shows("result.title", game="Bluff dice")
        assert table.shows("ev.bluff.reveal", dice="6 5", value="65")
