"""Sixty-Six through Discord (SimCord): each hand in a DM with exactly its
legal moves, played to 7 game points by DM buttons and selects (marriage,
exchange, close, declaration, a no-score deal and its carry-over), with a
restart mid-deal; the same with one player's DMs closed, played through the
ephemeral fallback and "Show my hand"; "Declare 66" on the table for both."""

from __future__ import annotations

import re
from typing import Any

import pytest
import simcord
from simtable import buttons, controls, open_table
from test_bot_leaks import accepted, dm_messages, mover_id, named_cards, spectator_snapshot

from games import core, registry, sixtysix
from games.core import ScriptedSource, SeededSource

DECKS = [SeededSource(f"bot-sixtysix-{i}").deck() for i in range(60)]


def _stored(env: simcord.Env, message: Any) -> Any:
    channel_id = message.channel_id if hasattr(message, "channel_id") else message.channel.id
    return env.backend.get_message(channel_id, message.id)


def _private_controls(env, message):
    comps = []

    def walk(cs):
        for c in cs or []:
            if c.get("type") in (2, 3):
                comps.append(c)
            walk(c.get("components"))

    walk(_stored(env, message).components)
    return comps


class Policy:
    """Deal 1: never declare or close (both pass: no score). Deal 2: close at
    once. Always marry and exchange when allowed; declare with 66."""

    def __init__(self) -> None:
        self.closed_in = set()

    def choose(self, content: str, ctl: list[dict[str, Any]]) -> tuple[str, str, str | None]:
        deal = int(re.search(r"Deal (\d+)", content).group(1))
        m = re.search(r"Your points this deal: (\d+)", content)
        points = int(m.group(1)) if m else 0
        btn = {c["custom_id"].split(":", 3)[3]: c["custom_id"] for c in ctl if c["type"] == 2}
        sel: dict[str, tuple[str, str]] = {}
        for c in ctl:
            for o in c["options"] if c["type"] == 3 else []:
                sel.setdefault(o["value"].split()[0], (c["custom_id"], o["value"]))
        if "m:declare" in btn and deal >= 2 and points >= 66:
            return ("click", btn["m:declare"], None)
        if "m:pass" in btn:
            return ("click", btn["m:pass"], None)
        if "m:exchange" in btn:
            return ("click", btn["m:exchange"], None)
        if deal == 2 and "m:close" in btn and deal not in self.closed_in:
            self.closed_in.add(deal)
            return ("click", btn["m:close"], None)
        if "m:draw" in btn:
            return ("click", btn["m:draw"], None)
        if "marry" in sel:
            return ("select", *sel["marry"])
        return ("select", *sel["play"])


async def _play(env, harness, msg, members, handles, *, closed_dm=None, restart_at=None):
    policy = Policy()
    steps = 0
    secrets_seen = 0
    while controls(msg):
        assert steps < 900, "the game did not end"
        if restart_at is not None and steps == restart_at:
            await env.restart_bot(harness.bot())
        uid = mover_id(msg.content)
        i = next(k for k, m in enumerate(members) if m.id == uid)
        member, handle = members[i], handles[i]
        if member is closed_dm:
            res = await member.click(msg, label="Show my hand")
            private = res.response
            assert private.ephemeral and "Sixty-Six" in private.content
            actor = member
        else:
            private = dm_messages(env, handle)[-1]
            actor = handle
        ctl = _private_controls(env, private)
        # only this player's own legal moves: never the opponent's cards
        state = sixtysix.from_json((await harness.bots[-1].tables.store.get_table(1)).state)
        legal = sixtysix.legal_moves(state, member.name)
        offered = {o["value"] for c in ctl if c["type"] == 3 for o in c["options"]} | {
            c["custom_id"].split(":", 3)[3][2:] for c in ctl if c["type"] == 2
        }
        assert offered == set(legal), (offered, legal)
        # the public table never names a card still hidden in a hand or the talon
        hidden = set(state.hands[0]) | set(state.hands[1]) | set(state.talon[:-1])
        if state.closed and state.talon:
            hidden.add(state.talon[-1])
        for content, ids, options, files in spectator_snapshot(env, msg.channel_id):
            # the last moves in words may name cards played in earlier deals
            played = {
                m.split()[-1] for m in state.history.moves if m.split()[1] in ("play", "marry")
            }
            lines = content.splitlines()
            told = named_cards("\n".join(x for x in lines if x.startswith("• ")))
            assert not (told & hidden) - played - _public_cards(state), content
            seen = named_cards("\n".join(x for x in lines if not x.startswith("• ")))
            seen |= named_cards(" ".join(ids))
            seen |= named_cards(" ".join(f"{v} {lab}" for v, lab in options))
            seen |= named_cards(" ".join(str(d) for d, _png in files))
            leaked = (seen & hidden) - _public_cards(state)
            assert not leaked, (leaked, content, ids, options, [d for d, _p in files])
            secrets_seen += 1
        kind, cid, value = policy.choose(private.content, ctl)
        if kind == "click":
            res = await actor.click(private, custom_id=cid)
        else:
            res = await actor.select(private, [value], custom_id=cid)
        accepted(res)
        steps += 1
    return steps


def _public_cards(state) -> set[str]:
    """Hidden cards that are public knowledge all the same: this deal's
    turned-up trump card (it lay face up, also after an exchange took it)."""
    return {DECKS[state.deal_no - 1][12]}


@pytest.mark.parametrize("dms_closed", [False, True], ids=["dm", "dms_closed"])
async def test_sixtysix_to_seven_points(harness, dms_closed):
    harness.source = lambda seed: ScriptedSource(decks=DECKS, aux=[1])  # alice deals first
    async with simcord.run(harness.bot()) as env:
        guild = env.create_guild()
        channel = guild.create_text_channel("sixtysix")
        handles = [env.create_user(n) for n in ("alice", "bob", "eve")]
        alice, bob, eve = (guild.add_member(h) for h in handles)
        if dms_closed:
            env.inject_error(
                "POST",
                f"/channels/{handles[1].dm_channel.id}/messages",
                status=403,
                code=50007,
                message="Cannot send messages to this user",
                times=None,
            )
        msg = await open_table(env, channel, alice, [bob], "sixtysix")
        assert set(buttons(msg)) == {"Declare 66", "Show my hand"}
        assert "trump" in msg.content and "talon 12" in msg.content
        first = dm_messages(env, handles[0])
        assert len(first) == 1 and "Sixty-Six" in first[0].content and first[0].attachments
        assert f"<#{channel.id}>" in first[0].content
        assert (dm_messages(env, handles[1]) == []) == dms_closed
        res = await eve.click(msg, label="Show my hand")
        assert res.response.ephemeral and "no hand here" in res.response.content
        steps = await _play(
            env,
            harness,
            msg,
            [alice, bob],
            handles[:2],
            closed_dm=bob if dms_closed else None,
            restart_at=20,
        )
        assert steps > 20
        assert "the game is over" in msg.content
        # one DM per player, edited in place (never a new message per move)
        assert len(dm_messages(env, handles[0])) == 1
        assert "The game is over" in dm_messages(env, handles[0])[0].content
        results = await harness.bots[-1].tables.store.results()
    record = core.Record.from_json(results[0]["record"])
    outcome = sixtysix.outcome(registry.replay(record))
    assert outcome == results[0]["outcome"] and outcome["finished"]
    assert max(outcome["game_points"].values()) >= 7
    moves = " | ".join(record.moves)
    for word in ("marry", "exchange", "close", "declare", "pass", "draw"):
        assert f" {word}" in moves, word
    deals = outcome["deals"]
    assert deals[0]["winner"] is None  # deal 1: both passed
    assert deals[1]["winner"] is not None and deals[1]["game_points"] >= 2  # + the carry


async def test_declare_from_the_table_by_the_player_not_to_move(harness):
    harness.source = lambda seed: ScriptedSource(decks=DECKS, aux=[1])
    async with simcord.run(harness.bot()) as env:
        guild = env.create_guild()
        channel = guild.create_text_channel("sixtysix")
        handles = [env.create_user(n) for n in ("alice", "bob")]
        alice, bob = (guild.add_member(h) for h in handles)
        msg = await open_table(env, channel, alice, [bob], "sixtysix")
        assert mover_id(msg.content) == bob.id  # the non-dealer leads
        accepted(await alice.click(msg, label="Declare 66"))  # alice below 66: bob scores
        assert "alice declared 66!" in msg.content
        assert "bob wins the deal" in msg.content
        row = await harness.bots[-1].tables.store.get_table(1)
        state = sixtysix.from_json(row.state)
        assert state.game_points == [0, 3]  # alice had no trick
        assert "Deal 2" in dm_messages(env, handles[0])[-1].content


async def _shots_until_the_second_lead(path, deck: list[str]) -> list[Any]:
    """One deal by :class:`Policy`, the spectator snapshot after every press,
    until the first card played after the first draw (from then on the hands
    of twin deals may differ)."""
    from simtable import Harness

    harness = Harness(path)
    harness.source = lambda seed: ScriptedSource(decks=[deck], aux=[1])
    shots = []
    try:
        async with simcord.run(harness.bot()) as env:
            guild = env.create_guild()
            channel = guild.create_text_channel("sixtysix")
            handles = [env.create_user(n) for n in ("alice", "bob")]
            members = [guild.add_member(h) for h in handles]
            msg = await open_table(env, channel, members[0], members[1:], "sixtysix")
            shots.append(spectator_snapshot(env, channel))
            policy, drawn = Policy(), False
            while controls(msg):
                handle = handles[[m.id for m in members].index(mover_id(msg.content))]
                private = dm_messages(env, handle)[-1]
                kind, cid, value = policy.choose(private.content, _private_controls(env, private))
                if drawn and kind == "select":
                    break
                if kind == "click":
                    accepted(await handle.click(private, custom_id=cid))
                    drawn = drawn or cid.endswith(":m:draw")
                else:
                    accepted(await handle.select(private, [value], custom_id=cid))
                shots.append(spectator_snapshot(env, channel))
    finally:
        await harness.close()
    return shots


async def test_public_table_does_not_depend_on_the_talon(tmp_path):
    """Twin deals with the same hands and trump card but the talon in another
    order: every spectator snapshot — text, ids, options, picture bytes and
    alt text — is the same through the first trick and the first draw."""
    for k in range(3):
        deck = list(DECKS[k])
        twin = deck[:13] + deck[13:][::-1]
        assert twin[13] != deck[13]
        a = await _shots_until_the_second_lead(tmp_path / f"a{k}.sqlite3", deck)
        b = await _shots_until_the_second_lead(tmp_path / f"b{k}.sqlite3", twin)
        assert len(a) >= 4  # the deal, two cards of the first trick, the draw
        assert any(files for shot in a for *_, files in shot)  # pictures compared too
        assert a == b
