"""Bluff dice through Discord (SimCord): the cup holder's buttons, the dice in
the roller's DM, a pass without rolling, a correct and a wrong call, a match
to the loss limit, a restart mid-cup, and DMs closed (the ephemeral
fallback and "Show my dice")."""

from __future__ import annotations

import simcord
from simtable import buttons, controls, custom_ids, open_table, select_values
from test_bot_leaks import accepted, dm_messages

from games import bluff, core, registry

# game 1: alice 6 5 (looks); bob passes without rolling; carol calls: bluff
# game 2: bob 3 1 without looking; carol 4 4 (looks); alice reveals: wrong call
# game 3: alice 2 1; bob must reveal: wrong call, bob's second loss ends it
DICE = [6, 5, 3, 1, 4, 4, 2, 1]


def _select_labels(message):
    return [o["label"] for c in controls(message) if c["type"] == 3 for o in c["options"]]


async def _three(env, name="bluff"):
    guild = env.create_guild()
    channel = guild.create_text_channel(name)
    handles = [env.create_user(n) for n in ("alice", "bob", "carol", "eve")]
    members = [guild.add_member(h) for h in handles]
    return channel, handles, members


async def _announce(member, msg, value):
    cid = next(c["custom_id"] for c in controls(msg) if c["type"] == 3)
    return accepted(await member.select(msg, [f"announce {value}"], custom_id=cid))


async def test_bluff_match_with_dms_restart_and_calls(harness):
    harness.dice = DICE
    harness.aux = [1]  # alice starts the first game
    async with simcord.run(harness.bot()) as env:
        channel, (ha, hb, hc, he), (alice, bob, carol, eve) = await _three(env)
        msg = await open_table(env, channel, alice, [bob, carol], "bluff", "losses=2")
        assert f"Turn: <@{alice.id}>" in msg.content
        # the first player of a game must roll: Roll, Roll without looking, Show my dice
        assert set(buttons(msg)) == {"Roll", "Roll without looking", "Show my dice"}
        accepted(await alice.click(msg, label="Roll"))
        dms = dm_messages(env, ha)
        assert len(dms) == 1 and "**65**" in dms[0].content and dms[0].attachments
        assert "Bluff dice" in dms[0].content and f"<#{channel.id}>" in dms[0].content
        assert dm_messages(env, hb) == [] and dm_messages(env, hc) == []
        # after a roll: announce only, any value (weakest 31 … 21), strongest first
        values = select_values(msg)
        assert values == [f"announce {v}" for v in bluff.RANKING]
        assert _select_labels(msg)[0].startswith("21 — Mäxchen, the top")
        assert "Reveal" not in buttons(msg)

        # a restart with the cup in alice's hand: she still sees her dice
        await env.restart_bot(harness.bot())
        res = await alice.click(msg, label="Show my dice")
        assert res.response.ephemeral and "**65**" in res.response.content
        res = await bob.click(msg, label="Show my dice")
        assert res.response.ephemeral and "not looked" in res.response.content
        res = await eve.click(msg, label="Show my dice")
        assert res.response.ephemeral and "no hand here" in res.response.content
        await _announce(alice, msg, "65")

        # bob: exactly the stronger values, and a pass without rolling
        assert set(buttons(msg)) == {"Reveal", "Roll", "Roll without looking", "Show my dice"}
        assert select_values(msg) == [f"announce {v}" for v in bluff.RANKING[:7]]
        await _announce(bob, msg, "66")
        assert "passed the cup without rolling: 66" in msg.content
        accepted(await carol.click(msg, label="Reveal"))
        assert "carol revealed 6 5 (65) against bob's 66. Bluff called: bob loses." in msg.content
        assert msg.attachments  # the dice picture, now public
        assert "Losses (limit 2): alice 0 · bob 1 · carol 0" in msg.content

        # game 2: bob rolls without looking, nobody is told the dice
        accepted(await bob.click(msg, label="Roll without looking"))
        assert dm_messages(env, hb) == []
        res = await bob.click(msg, label="Show my dice")
        assert "not looked" in res.response.content
        await _announce(bob, msg, "41")
        accepted(await carol.click(msg, label="Roll"))
        assert "**44**" in dm_messages(env, hc)[-1].content
        await _announce(carol, msg, "44")
        accepted(await alice.click(msg, label="Reveal"))
        assert "Wrong call: alice loses." in msg.content

        # game 3: 21 forces a reveal
        accepted(await alice.click(msg, label="Roll"))
        await _announce(alice, msg, "21")
        assert set(buttons(msg)) == {"Reveal", "Show my dice"}
        assert select_values(msg) == []
        accepted(await bob.click(msg, label="Reveal"))
        assert "the game is over" in msg.content
        assert controls(msg) == []
        results = await harness.bots[-1].tables.store.results()
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
    assert "🏆" in msg.content and f"<@{carol.id}> 🏆" in msg.content


async def test_bluff_with_dms_closed_uses_the_ephemeral_fallback(harness):
    harness.dice = DICE
    harness.aux = [1]
    async with simcord.run(harness.bot()) as env:
        channel, (ha, hb, hc, _he), (alice, bob, carol, _eve) = await _three(env)
        env.inject_error(
            "POST",
            f"/channels/{ha.dm_channel.id}/messages",
            status=403,
            code=50007,
            message="Cannot send messages to this user",
            times=None,
        )
        msg = await open_table(env, channel, alice, [bob, carol], "bluff", "losses=1")
        res = accepted(await alice.click(msg, label="Roll"))
        private = [f for f in res.followups if f.ephemeral]
        assert len(private) == 1 and "**65**" in private[0].content and private[0].attachments
        assert dm_messages(env, ha) == []
        # the channel, as a spectator sees it, does not know the dice yet
        public = [line for line in msg.content.splitlines() if "seed" not in line]
        assert not any("65" in line or "6 5" in line for line in public), public
        assert all("65" not in cid for cid in custom_ids(msg))
        # the table's button opens it again, for alice only
        res = await alice.click(msg, label="Show my dice")
        assert res.response.ephemeral and "**65**" in res.response.content
        await _announce(alice, msg, "65")
        await _announce(bob, msg, "66")
        accepted(await carol.click(msg, label="Reveal"))
        assert "the game is over" in msg.content
        assert "revealed 6 5 (65)" in msg.content
