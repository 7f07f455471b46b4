"""Sixty-Six through Discord (SimCord): each hand in a DM with exactly its
legal moves, played to 7 game points by DM buttons and selects (marriage,
exchange, close, declaration, a no-score deal and its carry-over), with a
restart mid-deal; the same with one player's DMs closed, played through the
ephemeral fallback and "Show my hand"; "Declare 66" on the table for both."""

from __future__ import annotations

from typing import Any

import pytest
from simtable import accepted, named_cards, privately, says

from bot.i18n import t
from games import core, registry, sixtysix
from games.core import SeededSource

DECKS = [SeededSource(f"bot-sixtysix-{i}").deck() for i in range(60)]


class Policy:
    """Deal 1: never declare or close (both pass: no score). Deal 2: close at
    once. Always marry and exchange when allowed; declare with 66."""

    def __init__(self) -> None:
        self.closed_in = set()

    def choose(self, hand: Any) -> str:
        """The move for the hand shown: a button's action (``m:draw``) or a
        select's value (``play QS``)."""
        deal = int(hand.reading("sixtysix.private.hand")["n"])
        told = hand.reading("sixtysix.private.points")
        points = int(told["n"]) if told else 0
        buttons = set(hand.button_actions)
        sel: dict[str, str] = {}
        for value in hand.choices:
            sel.setdefault(value.split()[0], value)
        if "m:declare" in buttons and deal >= 2 and points >= 66:
            return "m:declare"
        if "m:pass" in buttons:
            return "m:pass"
        if "m:exchange" in buttons:
            return "m:exchange"
        if deal == 2 and "m:close" in buttons and deal not in self.closed_in:
            self.closed_in.add(deal)
            return "m:close"
        if "m:draw" in buttons:
            return "m:draw"
        if "marry" in sel:
            return sel["marry"]
        return sel["play"]


async def make(hand: Any, move: str) -> Any:
    return accepted(await (hand.act(move) if move.startswith("m:") else hand.choose(move)))


def public_cards(state) -> set[str]:
    """Hidden cards that are public knowledge all the same: this deal's
    turned-up trump card (it lay face up, also after an exchange took it)."""
    return {DECKS[state.deal_no - 1][12]}


async def play_to_seven(table, *, closed_dm=None, restart_at=None) -> int:
    """Each player moves from their hand (the DM, or "Show my hand"), offered
    exactly their legal moves, while the public channel never names a hidden
    card; returns the number of moves."""
    night, policy, steps = table.night, Policy(), 0
    while not table.over:
        assert steps < 900, "the game did not end"
        if steps == restart_at:
            await night.restart()
        member = table.mover
        if member is closed_dm:
            res = await table.press("Show my hand", by=member)
            assert privately(res, "private.header", game="Sixty-Six")
            hand = night.reply(res, member)
        else:
            hand = night.hand(member)
        # only this player's own legal moves: never the opponent's cards
        state = sixtysix.from_json((await table.row()).state)
        legal = sixtysix.legal_moves(state, member.name)
        moves = [action for action in hand.button_actions if action.startswith("m:")]
        offered = set(hand.choices) | {action[2:] for action in moves}  # not the draw switch
        assert offered == set(legal), (offered, legal)
        # the public table never names a card still hidden in a hand or the talon
        hidden = set(state.hands[0]) | set(state.hands[1]) | set(state.talon[:-1])
        if state.closed and state.talon:
            hidden.add(state.talon[-1])
        for content, ids, options, files in table.spectators_see():
            # the last moves in words may name cards played in earlier deals
            played = {
                m.split()[-1] for m in state.history.moves if m.split()[1] in ("play", "marry")
            }
            lines = content.splitlines()
            told = named_cards("\n".join(x for x in lines if x.startswith("• ")))
            assert not (told & hidden) - played - public_cards(state), content
            seen = named_cards("\n".join(x for x in lines if not x.startswith("• ")))
            seen |= named_cards(" ".join(ids))
            seen |= named_cards(" ".join(f"{v} {lab}" for v, lab in options))
            seen |= named_cards(" ".join(str(d) for d, _png in files))
            leaked = (seen & hidden) - public_cards(state)
            assert not leaked, (leaked, content, ids, options, [d for d, _p in files])
        await make(hand, policy.choose(hand))
        steps += 1
    return steps


@pytest.mark.parametrize("closed_dms", [[], ["bob"]], ids=["dm", "dms_closed"])
async def test_sixtysix_to_seven_points(game_night, closed_dms):
    async with game_night(decks=DECKS, aux=[1], closed_dms=closed_dms) as night:  # alice deals
        table = await night.table("sixtysix")
        alice, bob, eve = night.alice, night.bob, night.eve
        assert set(table.buttons) == {"Declare 66", "Show my hand"}
        assert table.shows("sixtysix.status.deal", talon=t("sixtysix.status.talon", n=12))
        (first,) = night.dms(alice)
        assert first.attachments
        channel = table.channel.mention
        assert says(first.content, "private.header", game="Sixty-Six", channel=channel)
        assert (night.dms(bob) == []) == bool(closed_dms)
        assert privately(await table.press("Show my hand", by=eve), "private.no_hand")
        steps = await play_to_seven(table, closed_dm=bob if closed_dms else None, restart_at=20)
        assert steps > 20
        assert table.shows("result.title", game="Sixty-Six")
        # one DM per player, edited in place (never a new message per move)
        (last,) = night.dms(alice)
        assert says(last.content, "sixtysix.private.over")
        results = await night.store.results.all()
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


async def test_declare_from_the_table_by_the_player_not_to_move(game_night):
    async with game_night(decks=DECKS, aux=[1]) as night:
        table = await night.table("sixtysix")
        alice, bob = night.alice, night.bob
        assert table.mover is bob  # the non-dealer leads
        res = await table.press("Declare 66", by=alice)  # alice below 66: asked first
        assert privately(res, "sixtysix.confirm.declare", points=0)
        accepted(await night.reply(res, alice).press("Declare anyway"))  # bob scores
        assert table.shows("ev.sixtysix.declared_lost.other", player="alice", winner="bob")
        state = sixtysix.from_json((await table.row()).state)
        assert state.game_points == [0, 3]  # alice had no trick
        assert night.hand(alice).shows("sixtysix.private.hand", n=2)


async def shots_until_the_second_lead(game_night, deck: list[str]) -> list[Any]:
    """One deal by :class:`Policy`, the spectator snapshot after every press,
    until the first card played after the first draw (from then on the hands
    of twin deals may differ)."""
    async with game_night(decks=[deck], aux=[1]) as night:
        table = await night.table("sixtysix")
        shots = [table.spectators_see()]
        policy, drawn = Policy(), False
        while not table.over:
            hand = night.hand(table.mover)
            move = policy.choose(hand)
            if drawn and not move.startswith("m:"):
                break
            await make(hand, move)
            # the draw after the first trick is made by itself (no press)
            drawn = drawn or len(sixtysix.from_json((await table.row()).state).talon) < 12
            shots.append(table.spectators_see())
    return shots


async def test_public_table_does_not_depend_on_the_talon(game_night):
    """Twin deals with the same hands and trump card but the talon in another
    order: every spectator snapshot — text, ids, options, picture bytes and
    alt text — is the same through the first trick and the first draw."""
    for k in range(3):
        deck = list(DECKS[k])
        twin = deck[:13] + deck[13:][::-1]
        assert twin[13] != deck[13]
        a = await shots_until_the_second_lead(game_night, deck)
        b = await shots_until_the_second_lead(game_night, twin)
        assert len(a) >= 3  # the deal, two cards of the first trick (and its draw, by itself)
        assert any(files for shot in a for *_, files in shot)  # pictures compared too
        assert a == b


async def test_a_hand_shown_ephemerally_is_edited_in_place(game_night):
    """DMs closed: the hand "Show my hand" answered with follows the game —
    the opponent's moves edit it in place (no new message, nothing to press)
    while its interaction lives, and it learns the end."""
    async with game_night(decks=DECKS, aux=[1], closed_dms=["bob"]) as night:  # alice deals
        table = await night.table("sixtysix")
        alice, bob = night.alice, night.bob
        res = await table.press("Show my hand", by=bob)
        shown = night.reply(res, bob)
        policy = Policy()
        edits = 0
        for _ in range(12):
            if table.mover is alice:
                before = (shown.content, shown.controls)
                await make(night.hand(alice), policy.choose(night.hand(alice)))
                edits += (shown.content, shown.controls) != before
            else:  # bob plays from the very hand he was shown
                await make(shown, policy.choose(shown))
            state = sixtysix.from_json((await table.row()).state)
            legal = sixtysix.legal_moves(state, "bob")
            offered = set(shown.choices) | {a[2:] for a in shown.button_actions if a.startswith("m:")}
            assert offered == set(legal), (offered, legal)  # always bob's moves now
        assert edits >= 3
        await table.command(alice, "game end")
        await night.settle()
        assert not shown.controls or shown.shows("private.ended.by", user="alice") or "alice" in shown.content
