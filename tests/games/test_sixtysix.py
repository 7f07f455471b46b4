"""Sixty-Six (docs/rules/sixtysix.md): one test per rule, a scenario per row of the
declaration table, property tests and record replays."""

from __future__ import annotations

import json
import pathlib
import random
import subprocess
import sys
from collections.abc import Sequence
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games import sixtysix as g
from games.core import (
    CARDS,
    RuleError,
    ScriptedSource,
    SeededSource,
    SourceExhausted,
    dumps,
    record_of,
)
from games.registry import replay
from games.sixtysix.engine import POINTS

P = ["ann", "bob"]
RECORDS = pathlib.Path(__file__).resolve().parents[1] / "records" / "sixtysix"


def deck(nd: list[str], d: list[str], trump: str, talon: Sequence[str] = ()) -> list[str]:
    """A deck in dealing order: non-dealer's six, dealer's six, trump card,
    talon from the top (filled up with the unused cards in CARDS order)."""
    used = [*nd, *d, trump, *talon]
    rest = [c for c in CARDS if c not in used]
    out = nd[:3] + d[:3] + nd[3:] + d[3:] + [trump] + list(talon) + rest
    assert sorted(out) == sorted(CARDS)
    return out


PLAIN = list(CARDS)

# bob (non-dealer) strong in spades and hearts, ann (dealer) weak; trump clubs.
STRONG = deck(
    ["AS", "TS", "KS", "QS", "AH", "TH"],
    ["9S", "JS", "9H", "JH", "9D", "JD"],
    "JC",
    ["KH", "QH", "AD", "TD", "KD", "QD", "AC", "TC", "KC", "QC", "9C"],
)
# bob (non-dealer) will close with a middling hand; ann holds the trumps.
CLOSER = deck(
    ["AS", "AH", "9D", "JD", "9H", "JH"], ["9S", "TH", "AC", "TC", "KS", "QS"], "JC", ["KD", "QD"]
)


def start(*decks: list[str], dealer: str = "ann", **options: Any) -> g.State:
    return g.new_game(P, options, dealer, ScriptedSource(decks=[*decks, PLAIN, PLAIN, PLAIN]))


def run(state: g.State, *moves: str) -> list[Any]:
    events: list[Any] = []
    for text in moves:
        who, move = text.split(" ", 1)
        events += g.apply(state, who, move)
    return events


def points(state: g.State) -> dict[str, int]:
    return dict(zip(P, state.points, strict=True))


def last_deal(state: g.State) -> dict[str, Any]:
    return g.outcome(state)["deals"][-1]  # type: ignore[no-any-return]


def rule(key: str, state: g.State, who: str, move: str) -> None:
    before = dumps(g.to_json(state))
    with pytest.raises(RuleError) as err:
        g.apply(state, who, move)
    assert err.value.key == key, (err.value.key, str(err.value))
    assert dumps(g.to_json(state)) == before


# the first five tricks of STRONG with bob winning four, ann the fifth
FIVE_TRICKS = (
    "bob play AS",
    "ann play 9S",
    "bob draw",  # bob 11; bob KH, ann QH
    "bob play TS",
    "ann play JS",
    "bob draw",  # bob 23; bob AD, ann TD
    "bob marry KS",
    "ann play 9H",
    "bob draw",  # bob 20 + 4 → 47; bob KD, ann QD
    "bob play QS",
    "ann play JH",
    "bob draw",  # bob 52; bob AC, ann TC
    "bob play KH",
    "ann play TC",  # ann trumps: 14
)


# --------------------------------------------------------------------------
# Cards and the deal


def test_deck_has_24_cards_worth_120() -> None:
    assert len(CARDS) == 24 and sum(POINTS[c] for c in CARDS) == 120
    assert [POINTS[r + "S"] for r in "ATKQJ9"] == [11, 10, 4, 3, 2, 0]


def test_strength_a_ten_k_q_j_nine() -> None:
    order = ["AS", "TS", "KS", "QS", "JS", "9S"]
    for hi, lo in zip(order, order[1:], strict=False):
        s = start(
            deck([lo, "9H", "JH", "QH", "KH", "AH"], [hi, "9D", "JD", "QD", "KD", "AD"], "9C")
        )
        run(s, f"bob play {lo}", f"ann play {hi}")
        assert s.tricks == [1, 0], (hi, lo)


def test_trump_beats_led_suit_and_off_suit_loses() -> None:
    s = start(STRONG)
    run(s, "bob play AH", "ann play JD")  # off-suit: leader wins
    assert s.tricks == [0, 1]
    s = start(
        deck(["AH", "9S", "JS", "QS", "KS", "AS"], ["9C", "9H", "JH", "QH", "KH", "TH"], "JC")
    )
    run(s, "bob play AH", "ann play 9C")  # lowest trump beats the ace
    assert s.tricks == [1, 0]


def test_deal_order_three_three_three_three_trump_talon() -> None:
    d = list(CARDS)
    s = g.new_game(P, {}, "ann", ScriptedSource(decks=[d]))
    assert s.hands[1] == sorted(d[0:3] + d[6:9], key=CARDS.index)  # bob, non-dealer
    assert s.hands[0] == sorted(d[3:6] + d[9:12], key=CARDS.index)
    assert s.talon == d[13:] + [d[12]]
    assert s.trump == d[12][1]
    v = g.view(s, None)
    assert v["trump_card"] == d[12] and v["talon"] == 12


def test_non_dealer_leads_first() -> None:
    s = start(STRONG)
    assert g.to_move(s) == ["bob"]
    rule("move.not_your_turn", s, "ann", "play 9S")


def test_first_dealer_random_by_randbelow() -> None:
    for aux, dealer in ((1, "ann"), (2, "bob")):
        s = g.new_game(P, {}, None, ScriptedSource(decks=[PLAIN], aux=[aux]))
        assert s.history.dealer == dealer and g.view(s, None)["dealer"] == dealer
        assert record_of("sixtysix", s).dealer == dealer


def test_dealer_alternates_every_deal() -> None:
    s = start(PLAIN, PLAIN, PLAIN, target=21)
    dealers = []
    for _ in range(3):
        dealers.append(g.view(s, None)["dealer"])
        nondealer = g.to_move(s)[0]
        run(s, f"{nondealer} declare")
    assert dealers == ["ann", "bob", "ann"]


def test_each_deal_takes_a_new_deck() -> None:
    other = deck(["AS", "TS", "KS", "QS", "AH", "TH"], ["9S", "JS", "9H", "JH", "9D", "JD"], "AD")
    s = g.new_game(P, {}, "ann", ScriptedSource(decks=[PLAIN, other]))
    run(s, "bob declare")
    assert s.trump == "D"  # ann is the non-dealer of deal 2
    assert s.hands[0] == sorted(["AS", "TS", "KS", "QS", "AH", "TH"], key=CARDS.index)


# --------------------------------------------------------------------------
# Play, drawing, following


def test_free_play_while_talon_open() -> None:
    s = start(STRONG)
    run(s, "bob play AS")
    assert g.legal_moves(s, "ann") == [f"play {c}" for c in s.hands[0]] + ["declare"]
    run(s, "ann play 9H")  # not following spades is fine
    assert s.tricks == [0, 1]


def test_draw_winner_first_one_move_draws_both() -> None:
    s = start(STRONG)
    run(s, "bob play AS", "ann play 9S")
    assert g.to_move(s) == ["bob"] and g.legal_moves(s, "bob") == ["draw", "close", "declare"]
    events = run(s, "bob draw")
    assert "KH" in s.hands[1] and "QH" in s.hands[0]
    assert len(s.hands[0]) == len(s.hands[1]) == 6 and len(s.talon) == 10
    assert [e.data for e in events if e.kind == "drawn"] == [{"card": "KH"}, {"card": "QH"}]
    assert all(not e.public for e in events if e.kind == "drawn")
    assert s.history.moves[-1] == "bob draw"


def test_between_trick_and_draw_only_draw_or_close() -> None:
    s = start(STRONG)
    run(s, "bob play AS", "ann play 9S")
    rule("sixtysix.draw_or_close", s, "bob", "play TS")
    rule("sixtysix.draw_or_close", s, "bob", "marry KS")
    rule("sixtysix.draw_or_close", s, "bob", "exchange")
    rule("move.not_your_turn", s, "ann", "draw")
    assert g.legal_moves(s, "ann") == ["declare"]


def test_follow_suit_once_talon_closed() -> None:
    s = start(STRONG)
    run(s, "bob close", "bob play AS")
    assert g.legal_moves(s, "ann") == ["play 9S", "play JS", "declare"]
    rule("sixtysix.must_follow", s, "ann", "play 9H")
    rule("sixtysix.not_in_hand", s, "ann", "play AD")


def test_follow_suit_once_talon_gone() -> None:
    s = start(STRONG)
    run(s, *FIVE_TRICKS, "ann draw", "ann play 9D", "bob play AD", "bob draw")
    assert s.talon == []
    run(s, "bob play AH")
    assert g.legal_moves(s, "ann") == ["play QH", "declare"]


def test_off_suit_allowed_when_unable_to_follow() -> None:
    s = start(STRONG)
    run(s, "bob close", "bob play AS", "ann play 9S", "bob play TS", "ann play JS", "bob play KS")
    assert g.legal_moves(s, "ann") == [f"play {c}" for c in s.hands[0]] + ["declare"]


STRICT = deck(["JS", "AH", "9D", "JD", "QD", "KD"], ["9S", "QS", "AS", "9C", "TH", "TC"], "JC")


def test_strict_must_win_if_able() -> None:
    for strict, expect in ((False, ["9S", "QS", "AS"]), (True, ["QS", "AS"])):
        s = start(STRICT, strict=strict)
        run(s, "bob close", "bob play JS")
        assert g.legal_moves(s, "ann") == [f"play {c}" for c in expect] + ["declare"]
    rule("sixtysix.must_win", s, "ann", "play 9S")


def test_strict_must_trump_if_unable_to_follow() -> None:
    s = start(STRICT, strict=True)
    run(s, "bob close", "bob play 9D")
    assert g.legal_moves(s, "ann") == ["play 9C", "play TC", "declare"]
    rule("sixtysix.must_trump", s, "ann", "play AS")
    s = start(STRICT)
    run(s, "bob close", "bob play 9D")
    assert len(g.legal_moves(s, "ann")) == 7


def test_strict_following_suit_comes_first() -> None:
    s = start(STRICT, strict=True)
    run(s, "bob close", "bob play AH")  # ann can follow (TH) but not win: no trumping
    assert g.legal_moves(s, "ann") == ["play TH", "declare"]
    rule("sixtysix.must_follow", s, "ann", "play 9C")


def test_strict_off_while_talon_open() -> None:
    s = start(STRICT, strict=True)
    run(s, "bob play JS")
    assert len(g.legal_moves(s, "ann")) == 7


def play_out_without_declaring(s: g.State) -> None:
    """Play the current deal to its last trick: first legal card, always draw."""
    while s.phase != "speak" and s.deal_no == 1:
        who = g.to_move(s)[0]
        legal = g.legal_moves(s, who)
        move = "draw" if "draw" in legal else next(m for m in legal if m.startswith("play"))
        g.apply(s, who, move)


def test_last_trick_ten_only_when_talon_ran_out() -> None:
    s = start(PLAIN)
    play_out_without_declaring(s)
    assert s.phase == "speak" and s.bonus is not None
    assert sum(s.points) == 130 and sum(s.tricks) == 12
    # worked by hand (docs/rules/sixtysix.md "A worked deal"): ann takes the last trick
    assert s.points == [102, 28] and s.bonus == 0
    assert s.points[s.bonus] == sum(POINTS[c] for c in s.won[s.bonus]) + 10
    # closed: no 10 for the last trick (STRONG closed, bob takes all six: 75 = 55 + 20)
    s = start(STRONG)
    run(
        s,
        "bob close",
        "bob play AS",
        "ann play 9S",
        "bob play TS",
        "ann play JS",
        "bob marry KS",
        "ann play 9H",
        "bob play QS",
        "ann play JH",
        "bob play AH",
        "ann play 9D",
        "bob play TH",
        "ann play JD",
    )
    assert last_deal(s)["card_points"] == {"ann": 0, "bob": 75}


def out_of_decks(state: g.State, who: str, move: str) -> None:
    """``move`` ends the deal but the record has no deck left: it raises and
    changes nothing (the next deck is drawn before anything changes)."""
    before = dumps(g.to_json(state))
    with pytest.raises(SourceExhausted):
        g.apply(state, who, move)
    assert dumps(g.to_json(state)) == before


def test_deal_end_without_a_next_deck_changes_nothing() -> None:
    def one_deck(first: list[str], **options: Any) -> g.State:
        return g.new_game(P, options, "ann", ScriptedSource(decks=[first]))

    s = one_deck(STRONG)
    out_of_decks(s, "ann", "declare")
    s = one_deck(PLAIN)
    play_out_without_declaring(s)
    run(s, "bob pass")
    out_of_decks(s, "ann", "pass")
    assert s.passed == [False, True] and s.history.moves[-1] == "bob pass"
    s = one_deck(STRONG)
    closed = ["bob close", "bob play AS", "ann play 9S", "bob play TS", "ann play JS"]
    closed += ["bob marry KS", "ann play 9H", "bob play QS", "ann play JH", "bob play AH"]
    run(s, *closed, "ann play 9D", "bob play TH")
    out_of_decks(s, "ann", "play JD")  # the closed deal's last trick
    # a deal that ends the game needs no deck
    s = one_deck(STRONG, target=3)
    run(s, "ann declare")
    assert g.is_finished(s) and s.history.moves == ["ann declare"]


# --------------------------------------------------------------------------
# Marriages


def test_marriage_scores_20_and_leads_the_king() -> None:
    s = start(STRONG)
    events = run(s, "bob marry KS")
    assert s.points == [0, 20] and s.trick == [(1, "KS")]
    assert g.view(s, None)["marriages"] == [{"player": "bob", "suit": "S", "points": 20}]
    assert [e.kind for e in events] == ["marriage", "play"]
    assert s.history.moves == ["bob marry KS"]


def test_marriage_in_trump_scores_40_and_leads_the_queen() -> None:
    s = start(
        deck(["KC", "QC", "9S", "JS", "9H", "JH"], ["AS", "TS", "AH", "TH", "9D", "JD"], "AC")
    )
    run(s, "bob marry QC")
    assert s.points == [0, 40] and s.trick == [(1, "QC")] and "KC" in s.hands[1]


def test_marriage_only_on_lead() -> None:
    s2 = start(
        deck(["AS", "9H", "JH", "9D", "JD", "TD"], ["KS", "QS", "9S", "JS", "TS", "AH"], "JC")
    )
    run(s2, "bob play AS")
    rule("sixtysix.marriage_on_lead", s2, "ann", "marry KS")


def test_marriage_needs_both_cards() -> None:
    s = start(STRONG)
    rule("sixtysix.not_in_hand", s, "bob", "marry KH")
    s = start(
        deck(["AS", "TS", "KS", "JS", "AH", "TH"], ["9S", "QS", "9H", "JH", "9D", "JD"], "JC")
    )
    rule("sixtysix.marriage_needs_pair", s, "bob", "marry KS")
    rule("sixtysix.marriage_card", s, "bob", "marry AS")


def test_marriage_counts_at_once_and_after_closing() -> None:
    s = start(STRONG)
    run(s, "bob close", "bob marry QS")
    assert s.points == [0, 20] and s.tricks == [0, 0]


# --------------------------------------------------------------------------
# Exchange


EXCH = deck(["AS", "TS", "9C", "KH", "QH", "JD"], ["9S", "JS", "9H", "JH", "9D", "QD"], "AC")


def test_exchange_trump_nine_for_trump_card() -> None:
    s = start(EXCH)
    run(s, "bob play AS", "ann play 9S", "bob draw", "bob exchange")
    assert "AC" in s.hands[1] and "9C" not in s.hands[1]
    assert s.talon[-1] == "9C" and g.view(s, None)["trump_card"] == "9C"
    assert s.phase == "lead" and g.to_move(s) == ["bob"]


def test_exchange_needs_a_trick_won() -> None:
    rule("sixtysix.exchange_no_trick", start(EXCH), "bob", "exchange")


def test_exchange_needs_the_trump_nine() -> None:
    s = start(STRONG)
    run(s, "bob play AS", "ann play 9S", "bob draw")
    rule("sixtysix.exchange_no_nine", s, "bob", "exchange")


def test_exchange_not_after_closing() -> None:
    s = start(EXCH)
    run(s, "bob play AS", "ann play 9S", "bob close")
    rule("sixtysix.exchange_closed", s, "bob", "exchange")


def test_exchange_only_on_lead() -> None:
    s = start(EXCH)
    run(s, "bob play AS", "ann play 9S", "bob draw", "bob play TS")
    rule("move.not_your_turn", s, "bob", "exchange")


def test_exchange_with_two_cards_left_and_not_once_taken() -> None:
    # bob wins every trick by leading his best cards; 9C stays in his hand
    nd = ["AS", "TS", "9C", "AH", "TH", "AD"]
    d = ["9S", "JS", "9H", "JH", "9D", "JD"]
    s = start(deck(nd, d, "AC", ["QS", "QH", "QD", "KS", "KH", "KD", "TD", "TC", "KC", "QC", "JC"]))
    leads = ["AS", "TS", "AH", "TH", "AD"]
    answers = ["9S", "JS", "9H", "JH", "9D"]
    for lead, ans in zip(leads, answers, strict=True):
        run(s, f"bob play {lead}", f"ann play {ans}", "bob draw")
    assert len(s.talon) == 2 and "exchange" in g.legal_moves(s, "bob")
    run(s, "bob exchange")
    assert s.talon == ["JC", "9C"]
    s2 = start(
        deck(nd, d, "AC", ["QS", "QH", "QD", "KS", "KH", "KD", "TD", "TC", "KC", "QC", "JC"])
    )
    for lead, ans in zip(leads, answers, strict=True):
        run(s2, f"bob play {lead}", f"ann play {ans}", "bob draw")
    run(s2, "bob play QS", "ann play JD", "bob draw")  # ann takes the AC
    assert s2.talon == [] and "AC" in s2.hands[0]
    rule("sixtysix.exchange_no_trump_card", s2, "bob", "exchange")


# --------------------------------------------------------------------------
# Closing


def test_non_dealer_may_close_before_first_lead() -> None:
    s = start(STRONG)
    assert "close" in g.legal_moves(s, "bob")
    run(s, "bob close")
    v = g.view(s, None)
    assert v["closed"] and v["closer"] == "bob" and v["trump_card"] is None and v["talon"] == 12


def test_close_before_draw_nobody_draws() -> None:
    s = start(STRONG)
    run(s, "bob play AS", "ann play 9S", "bob close")
    assert len(s.hands[0]) == len(s.hands[1]) == 5 and len(s.talon) == 12
    assert s.phase == "lead" and g.to_move(s) == ["bob"]
    rule("sixtysix.draw_not_now", s, "bob", "draw")


def test_close_after_draw() -> None:
    s = start(STRONG)
    run(s, "bob play AS", "ann play 9S", "bob draw", "bob close")
    assert s.closed and len(s.hands[1]) == 6 and len(s.talon) == 10


def test_close_only_on_lead_or_before_draw() -> None:
    s = start(STRONG)
    run(s, "bob play AS")
    rule("move.not_your_turn", s, "bob", "close")
    rule("sixtysix.close_on_lead", s, "ann", "close")


def test_close_refused_when_talon_gone() -> None:
    s = start(STRONG)
    run(s, *FIVE_TRICKS, "ann draw", "ann play 9D", "bob play AD", "bob draw")
    rule("sixtysix.close_talon_gone", s, "bob", "close")


# --------------------------------------------------------------------------
# Declaring and the declaration table


def test_either_player_may_declare_at_any_moment() -> None:
    s = start(STRONG)
    assert g.legal_moves(s, "ann") == ["declare"] and "declare" in g.legal_moves(s, "bob")
    run(s, "bob play AS")
    assert "declare" in g.legal_moves(s, "bob") and "declare" in g.legal_moves(s, "ann")
    run(s, "ann play 9S")
    assert g.legal_moves(s, "ann") == ["declare"]


def test_declaration_mid_trick_card_counts_for_nobody() -> None:
    s = start(STRONG)
    run(s, "bob play AS", "ann declare")
    assert last_deal(s) == {"winner": "bob", "game_points": 3, "card_points": {"ann": 0, "bob": 0}}


def test_table_declarer_66_opponent_33_scores_1() -> None:
    s = start(STRONG)
    run(
        s,
        *FIVE_TRICKS,
        "ann draw",  # ann KC, bob QC
        "ann play TD",
        "bob play TH",
        "ann draw",  # ann 14 + 20 = 34; ann 9C, bob JC
        "ann play 9D",
        "bob play AD",  # bob 63
        "bob play AH",
        "ann play QH",
    )  # bob 77
    assert points(s) == {"ann": 34, "bob": 77} and s.tricks == [2, 6]
    run(s, "bob declare")
    assert last_deal(s) == {
        "winner": "bob",
        "game_points": 1,
        "card_points": {"ann": 34, "bob": 77},
    }


def test_table_boundaries_exactly_66_against_exactly_33_scores_1() -> None:
    s = start(STRONG)
    run(
        s,
        *FIVE_TRICKS,  # bob 52, ann 14
        "ann draw",  # ann KC, bob QC
        "ann play QH",
        "bob play AH",  # bob 52 + 14 = 66
        "bob draw",  # bob 9C, ann JC: the talon is gone
        "bob play TH",
        "ann play JC",  # ann cannot follow and trumps: 14 + 12 = 26
        "ann play KC",
        "bob play QC",  # bob must follow clubs: ann 26 + 7 = 33
    )
    assert points(s) == {"ann": 33, "bob": 66}
    run(s, "bob declare")
    assert last_deal(s)["winner"] == "bob" and last_deal(s)["game_points"] == 1


def test_table_declarer_66_opponent_trick_below_33_scores_2() -> None:
    s = start(STRONG)
    run(
        s,
        *FIVE_TRICKS,
        "ann draw",
        "ann play 9D",
        "bob play AD",
        "bob draw",  # bob 63; bob 9C, ann JC
        "bob play AH",
        "ann play QH",
    )  # bob 77
    assert points(s) == {"ann": 14, "bob": 77} and s.tricks == [1, 6]
    run(s, "bob declare")
    assert last_deal(s)["winner"] == "bob" and last_deal(s)["game_points"] == 2


def test_table_declarer_66_opponent_no_trick_scores_3() -> None:
    s = start(STRONG)
    run(
        s, *FIVE_TRICKS[:12], "bob play AH", "ann play 9D", "bob draw", "bob play TH", "ann play JD"
    )
    assert points(s) == {"ann": 0, "bob": 75} and s.tricks == [0, 6]
    run(s, "bob declare")
    assert last_deal(s)["winner"] == "bob" and last_deal(s)["game_points"] == 3


def test_table_opponent_no_trick_but_marriage_still_3() -> None:
    # ann (non-dealer) shows 20 in hearts but never takes a trick
    s = start(
        deck(["KH", "QH", "9S", "JS", "9D", "JD"], ["AH", "TH", "AS", "TS", "KS", "QS"], "JC"),
        dealer="bob",
    )
    run(
        s,
        "ann marry QH",
        "bob play AH",
        "bob draw",  # ann 20; bob 14
        "bob play TS",
        "ann play 9S",
        "bob draw",  # bob 24
        "bob marry KS",
        "ann play JS",
        "bob draw",  # bob 44 + 6 = 50
        "bob play QS",
        "ann play 9D",
        "bob draw",  # bob 53
        "bob play TH",
        "ann play KH",
    )  # bob 67
    assert points(s) == {"ann": 20, "bob": 67} and s.tricks == [0, 5]
    run(s, "bob declare")
    assert last_deal(s)["winner"] == "bob" and last_deal(s)["game_points"] == 3


def test_table_declarer_below_66_opponent_scores_2() -> None:
    s = start(STRONG)
    run(s, *FIVE_TRICKS)
    assert points(s) == {"ann": 14, "bob": 52}
    run(s, "bob declare")  # while ann is about to draw
    assert last_deal(s) == {
        "winner": "ann",
        "game_points": 2,
        "card_points": {"ann": 14, "bob": 52},
    }


def test_table_declarer_below_66_with_a_player_without_trick_gives_3() -> None:
    s = start(STRONG)
    run(s, "ann declare")  # nobody has a trick yet
    assert last_deal(s)["winner"] == "bob" and last_deal(s)["game_points"] == 3
    s = start(STRONG)
    run(s, "bob play AS", "ann play 9S", "bob declare")  # bob 11, ann no trick
    assert last_deal(s)["winner"] == "ann" and last_deal(s)["game_points"] == 3


# --------------------------------------------------------------------------
# No declaration: closed deals, the closer's deemed declaration, no-score deals


def test_closed_deal_ends_with_closers_deemed_declaration() -> None:
    s = start(STRONG)
    run(
        s,
        "bob close",
        "bob play AS",
        "ann play 9S",
        "bob play TS",
        "ann play JS",
        "bob marry KS",
        "ann play 9H",
        "bob play QS",
        "ann play JH",
        "bob play AH",
        "ann play 9D",
        "bob play TH",
    )
    assert s.deal_no == 1
    run(s, "ann play JD")  # the last trick ends the deal: no speak phase
    assert s.deal_no == 2 and s.deals[-1]["reason"] == "closed" and s.deals[-1]["declarer"] == "bob"
    assert last_deal(s) == {"winner": "bob", "game_points": 3, "card_points": {"ann": 0, "bob": 75}}


def test_closer_below_66_when_opponent_had_no_trick_gives_3() -> None:
    s = start(CLOSER)
    run(
        s,
        "bob close",
        "bob play AS",
        "ann play 9S",
        "bob play AH",
        "ann play TH",
        "bob play 9D",
        "ann play AC",
        "ann play TC",
        "bob play JD",
        "ann play KS",
        "bob play 9H",
        "ann play QS",
        "bob play JH",
    )
    # by the table alone ann would score 2 (both took tricks); the closing rule gives 3
    assert last_deal(s) == {
        "winner": "ann",
        "game_points": 3,
        "card_points": {"ann": 32, "bob": 32},
    }


def test_closer_declaring_below_66_when_opponent_had_no_trick_gives_3() -> None:
    s = start(CLOSER)
    run(
        s,
        "bob close",
        "bob play AS",
        "ann play 9S",
        "bob play AH",
        "ann play TH",
        "bob play 9D",
        "ann play AC",
    )
    assert s.tricks == [1, 2]
    run(s, "bob declare")
    assert last_deal(s)["winner"] == "ann" and last_deal(s)["game_points"] == 3


def test_closer_below_66_when_opponent_had_a_trick_uses_the_table() -> None:
    s = start(CLOSER)
    run(
        s,
        "bob play 9D",
        "ann play AC",
        "ann draw",  # ann 11; ann KD, bob QD
        "ann play 9S",
        "bob play AS",
        "bob close",  # bob 11, closes before drawing
        "bob play AH",
        "ann play TH",  # bob 32
        "bob play JD",
        "ann play KD",  # ann 17
        "ann play TC",
        "bob play QD",  # ann 30
        "ann play KS",
        "bob play 9H",
        "ann play QS",
        "bob play JH",
    )  # ann 39
    assert last_deal(s) == {
        "winner": "ann",
        "game_points": 2,
        "card_points": {"ann": 39, "bob": 32},
    }


def test_unclosed_deal_both_pass_scores_nothing_and_carries() -> None:
    s = start(PLAIN, PLAIN, PLAIN, PLAIN, target=21)
    play_out_without_declaring(s)
    first = g.to_move(s)
    assert first == ["ann", "bob"]
    run(s, "bob pass")
    assert g.to_move(s) == ["ann"] and g.legal_moves(s, "bob") == []
    rule("sixtysix.passed", s, "bob", "declare")
    run(s, "ann pass")
    assert last_deal(s)["winner"] is None and last_deal(s)["game_points"] == 0
    assert s.carry == 1 and s.game_points == [0, 0] and s.deal_no == 2
    # deal 2 (dealer bob): ann declares at once → bob 3 + 1 carried
    run(s, "ann declare")
    assert last_deal(s) == {"winner": "bob", "game_points": 4, "card_points": {"ann": 0, "bob": 0}}
    assert s.carry == 0
    run(s, "bob declare")  # deal 3: back to plain 3
    assert last_deal(s)["game_points"] == 3 and s.game_points == [3, 4]


def test_carry_grows_with_each_no_score_deal_in_a_row() -> None:
    s = start(PLAIN, PLAIN, PLAIN, target=21)
    for deal in (1, 2):
        while s.phase != "speak":
            who = g.to_move(s)[0]
            legal = g.legal_moves(s, who)
            g.apply(s, who, "draw" if "draw" in legal else legal[0])
        run(s, "ann pass", "bob pass")
        assert s.carry == deal
    nondealer = g.to_move(s)[0]
    run(s, f"{nondealer} declare")
    assert last_deal(s)["game_points"] == 5


def test_after_last_trick_either_may_declare_first() -> None:
    s = start(PLAIN)
    play_out_without_declaring(s)
    pts = list(s.points)
    run(s, "ann declare")
    assert s.deals[-1]["declarer"] == "ann" and last_deal(s)["card_points"] == dict(
        zip(P, pts, strict=True)
    )
    s = start(PLAIN)
    play_out_without_declaring(s)
    run(s, "ann pass", "bob declare")
    assert s.deals[-1]["declarer"] == "bob"


def test_pass_only_after_the_last_trick() -> None:
    s = start(STRONG)
    rule("sixtysix.pass_before_last", s, "bob", "pass")
    rule("sixtysix.pass_before_last", s, "ann", "pass")
    s = start(PLAIN)
    play_out_without_declaring(s)
    rule("sixtysix.declare_or_pass", s, "ann", "draw")


# --------------------------------------------------------------------------
# The game


def test_first_to_target_wins_the_game() -> None:
    s = start(STRONG, PLAIN, target=5)
    run(
        s,
        *FIVE_TRICKS,
        "ann draw",
        "ann play 9D",
        "bob play AD",
        "bob draw",
        "bob play AH",
        "ann play QH",
        "bob declare",
    )  # bob 2
    assert not g.is_finished(s)
    run(s, "ann declare")  # deal 2: bob 3 → 5
    out = g.outcome(s)
    assert out == {
        "finished": True,
        "game_points": {"ann": 0, "bob": 5},
        "winner": "bob",
        "deals": [
            {"winner": "bob", "game_points": 2, "card_points": {"ann": 14, "bob": 77}},
            {"winner": "bob", "game_points": 3, "card_points": {"ann": 0, "bob": 0}},
        ],
    }
    assert g.to_move(s) == [] and g.legal_moves(s, "ann") == []
    rule("move.game_over", s, "ann", "declare")


def test_default_target_is_seven() -> None:
    s = start(*([PLAIN] * 3))
    run(s, "bob declare", "ann declare")  # ann 3, then (ann non-dealer) bob 3
    assert not g.is_finished(s)
    run(s, "bob declare")  # ann 6
    run(s, "bob declare")
    assert g.is_finished(s) and g.outcome(s)["winner"] == "ann" and s.game_points == [9, 3]


def test_forfeit_opponent_wins() -> None:
    s = start(STRONG)
    events = g.forfeit(s, "bob")
    assert g.is_finished(s) and g.outcome(s)["winner"] == "ann"
    assert [e.kind for e in events] == ["forfeit", "game_over"]
    assert s.history.moves[-1] == "bob forfeit" and "forfeit" not in g.legal_moves(s, "ann")
    assert g.outcome(replay(record_of("sixtysix", s))) == g.outcome(s)
    s = start(STRONG)
    run(s, "bob play AS", "bob forfeit")  # also as a move, off turn, mid-trick
    assert g.outcome(s) == {
        "finished": True,
        "game_points": {"ann": 0, "bob": 0},
        "winner": "ann",
        "deals": [],
    }
    with pytest.raises(RuleError):
        g.forfeit(s, "ann")
    with pytest.raises(RuleError):
        g.forfeit(start(STRONG), "carl")


def test_new_game_validates_players_and_options() -> None:
    for players in (["a"], ["a", "a"], ["a b", "c"], ["a", "b", "c"]):
        with pytest.raises(RuleError) as err:
            g.new_game(players, {}, None, SeededSource("x"))
        assert err.value.key == "game.players"
    with pytest.raises(RuleError):
        g.new_game(P, {"target": 0}, None, SeededSource("x"))
    s = g.new_game(P, {"strict": "on", "target": "3"}, "ann", SeededSource("x"))
    assert s.options == {"target": 3, "strict": True, "show_points": True}


def test_target_limits() -> None:
    """docs/rules/sixtysix.md "House option limits": 1…21 game points."""
    for value in (1, 21, "21"):
        s = g.new_game(P, {"target": value}, "ann", SeededSource("x"))
        assert s.options["target"] == int(value)
    for value in (0, 22, "22"):
        with pytest.raises(RuleError) as err:
            g.new_game(P, {"target": value}, "ann", SeededSource("x"))
        assert err.value.key == "option.bad_value" and err.value.args_["option"] == "target"


def test_unknown_moves_are_refused() -> None:
    s = start(STRONG)
    for bad in ("", "play", "play XX", "play as", "marry", "draw now", "DECLARE", "declare 66"):
        rule("move.unknown", s, "bob", bad)
    rule("move.not_a_player", s, "carl", "declare")
    assert g.canonical(" play  AS ") == "play AS" == g.canonical(g.canonical("play AS"))


# --------------------------------------------------------------------------
# Views


def test_views_show_own_hand_and_points_only() -> None:
    s = start(STRONG)
    run(s, "bob play AS", "ann play 9S", "bob draw", "bob marry KS")
    pub, ann, bob = g.view(s, None), g.view(s, "ann"), g.view(s, "bob")
    for v in (pub, ann, bob):
        assert v["trump"] == "C" and v["trump_card"] == "JC" and v["talon"] == 10
        assert v["trick"] == [{"player": "bob", "card": "KS"}]
        assert v["tricks"] == {"ann": 0, "bob": 1} and v["to_move"] == ["ann"]
        assert v["marriages"] == [{"player": "bob", "suit": "S", "points": 20}]
    assert "hand" not in pub and "points" not in pub
    assert bob["hand"] == s.hands[1] and bob["points"] == 31 and ann["points"] == 0
    assert ann["hand"] == s.hands[0]
    text = json.dumps(ann)
    assert not any(c in text for c in s.hands[1] if c not in ("KS",))
    hidden_talon = s.talon[:-1]
    assert not any(c in json.dumps(pub) for c in hidden_talon)
    quiet = start(STRONG, show_points=False)
    assert "points" not in g.view(quiet, "bob")


def shuffle_hidden(s: g.State, me: int, rng: random.Random) -> g.State:
    """A state that differs from ``s`` only in cards ``me`` cannot see."""
    t = g.clone(s)
    o = 1 - me
    # The trump card under the talon was seen face up by both players, also
    # when a close has turned it down since (the view's face_down_trump).
    open_trump = bool(t.talon)
    face_down = t.talon[:-1] if open_trump else list(t.talon)
    pool = t.hands[o] + face_down
    rng.shuffle(pool)
    n = len(t.hands[o])
    t.hands[o] = sorted(pool[:n], key=CARDS.index)
    rest = pool[n:]
    t.talon = rest + ([t.talon[-1]] if open_trump else [])
    return t


@settings(max_examples=40)
@given(seed=st.integers(0, 10**6), steps=st.integers(0, 60), me=st.integers(0, 1))
def test_hidden_cards_do_not_leak_into_views(seed: int, steps: int, me: int) -> None:
    rng = random.Random(seed)
    s = g.new_game(P, {"target": 21}, None, SeededSource(str(seed)))
    for _ in range(steps):
        who = g.to_move(s)[0]
        legal = [m for m in g.legal_moves(s, who) if m != "declare"] or ["declare"]
        g.apply(s, who, rng.choice(legal))
    t = shuffle_hidden(s, me, rng)
    assert g.view(t, None) == g.view(s, None)
    assert g.view(t, P[me]) == g.view(s, P[me])


# --------------------------------------------------------------------------
# Properties of random play


def reference_award(info: dict[str, Any], declarer: int) -> tuple[int, int]:
    """The declaration table, written out independently of the engine."""
    o = 1 - declarer
    pts, tricks = info["points"], info["tricks"]
    if info["closer"] == declarer and pts[declarer] < 66 and not info["opp_trick_at_close"]:
        return o, 3
    if pts[declarer] >= 66:
        return declarer, 3 if tricks[o] == 0 else 2 if pts[o] < 33 else 1
    return o, 3 if 0 in tricks else 2


def check_cards(s: g.State) -> None:
    cards = s.hands[0] + s.hands[1] + s.talon + [c for _, c in s.trick] + s.won[0] + s.won[1]
    assert sorted(cards) == sorted(CARDS)


@pytest.mark.parametrize("strict", [False, True])
@pytest.mark.parametrize("show_points", [False, True])
@settings(max_examples=15)
@given(
    seed=st.integers(0, 10**9),
    declare_rate=st.sampled_from([0.0, 0.02, 0.1]),
    close_rate=st.sampled_from([0.0, 0.02, 1.0]),
    target=st.sampled_from([2, 7]),
)
def test_random_games_keep_every_rule(
    strict: bool, show_points: bool, seed: int, declare_rate: float, close_rate: float, target: int
) -> None:
    """Random games: cards conserved, every deal ends, points and game points
    add up by an independent count of the events and the declaration table."""
    rng = random.Random(seed)
    s = g.new_game(
        P,
        {"strict": strict, "show_points": show_points, "target": target},
        None,
        SeededSource(str(seed)),
    )
    info: dict[str, Any] = {}

    def new_info() -> None:
        info.update(
            points=[0, 0],
            tricks=[0, 0],
            trick_points=0,
            closer=None,
            opp_trick_at_close=False,
            talon_out=False,
        )

    new_info()
    expected_total = [0, 0]
    moves = 0
    while not g.is_finished(s):
        check_cards(s)
        if moves % 5 == 0:
            pub = g.view(s, None)
            assert "hand" not in pub and "points" not in pub
            for i, name in enumerate(P):
                mine = g.view(s, name)
                assert mine["hand"] == s.hands[i] and mine["moves"] == g.legal_moves(s, name)
                assert ("points" in mine) is show_points
        movers = g.to_move(s)
        who = rng.choice(movers)
        legal = g.legal_moves(s, who)
        other = P[1 - P.index(who)]
        if rng.random() < declare_rate / 4 and g.legal_moves(s, other):
            who, move = other, "declare"
        elif "declare" in legal and s.points[P.index(who)] >= 66 and rng.random() < 0.5:
            move = "declare"
        else:
            choices = [m for m in legal if m != "declare"]
            if "close" in choices and len(choices) > 1 and rng.random() >= close_rate:
                choices.remove("close")
            move = rng.choice(choices) if choices and rng.random() >= declare_rate else "declare"
        p = P.index(who)
        pre_closer = s.closer
        events = g.apply(s, who, move)
        moves += 1
        assert moves < 3000
        if move == "close":
            info["closer"] = p
            info["opp_trick_at_close"] = info["tricks"][1 - p] > 0
        assert pre_closer == info["closer"] or move == "close"
        for e in events:
            if e.kind == "trick":
                w = P.index(e.data["winner"])
                pts = sum(POINTS[c] for _, c in e.data["cards"])
                info["tricks"][w] += 1
                info["points"][w] += pts
                info["trick_points"] += pts
            elif e.kind == "marriage":
                info["points"][p] += e.data["points"]
                assert e.data["points"] == (40 if e.data["suit"] == s.trump else 20)
            elif e.kind == "last_trick":
                assert info["closer"] is None
                info["points"][P.index(str(e.player))] += 10
                info["talon_out"] = True
                assert info["trick_points"] == 120  # every card was won
            elif e.kind == "deal_end":
                d = e.data
                assert d["card_points"] == dict(zip(P, info["points"], strict=True))
                if d["reason"] == "no_score":
                    assert info["talon_out"] and d["winner"] is None
                else:
                    declarer = P.index(d["declarer"])
                    if d["reason"] == "closed":
                        assert declarer == info["closer"] and sum(info["tricks"]) * 2 + 12 >= 24
                    w, base = reference_award(info, declarer)
                    assert d["winner"] == P[w]
                    assert d["game_points"] >= base
                    expected_total[w] += d["game_points"]
                new_info()
    out = g.outcome(s)
    assert out["game_points"] == dict(zip(P, expected_total, strict=True))
    assert (
        max(expected_total) >= target
        and out["winner"] == P[expected_total.index(max(expected_total))]
    )
    # the carry-over: each scoring deal gets 1 per no-score deal just before it
    carry = 0
    for d in out["deals"]:
        if d["winner"] is None:
            carry += 1
        else:
            assert d["game_points"] - carry in (1, 2, 3)
            carry = 0
    assert g.outcome(replay(record_of("sixtysix", s))) == out


@settings(max_examples=20)
@given(seed=st.integers(0, 10**6), steps=st.integers(0, 80))
def test_json_round_trip_and_clone(seed: int, steps: int) -> None:
    rng = random.Random(seed)
    s = g.new_game(P, {"strict": seed % 2 == 0}, None, SeededSource(str(seed)))
    for _ in range(steps):
        if g.is_finished(s):
            break
        who = rng.choice(g.to_move(s))
        g.apply(s, who, rng.choice(g.legal_moves(s, who)))
    doc = json.loads(json.dumps(g.to_json(s)))
    assert doc["schema"] == 1 and doc["game"] == "sixtysix"
    assert dumps(g.to_json(g.from_json(doc))) == dumps(g.to_json(s))
    c = g.clone(s)
    assert dumps(g.to_json(c)) == dumps(g.to_json(s))
    before = dumps(g.to_json(s))
    # play the clone on (across deals): the original never changes
    for _ in range(40):
        if g.is_finished(c):
            break
        who = g.to_move(c)[0]
        g.apply(c, who, g.legal_moves(c, who)[-1 if rng.random() < 0.2 else 0])
    assert dumps(g.to_json(s)) == before


def test_clone_source_draws_the_same_next_deck() -> None:
    s = g.new_game(P, {}, "ann", SeededSource("same"))
    c = g.clone(s)
    assert c.source.deck() == s.source.deck()


# --------------------------------------------------------------------------
# Records


def record_files() -> list[pathlib.Path]:
    return sorted(p for p in RECORDS.glob("*.json") if not p.name.endswith(".expected.json"))


def test_there_are_multi_deal_records() -> None:
    files = record_files()
    assert len(files) >= 3
    for path in files:
        assert len(json.loads(path.read_text())["decks"]) >= 2


@pytest.mark.parametrize("path", record_files(), ids=lambda p: p.stem)
def test_record_replays_to_expected_outcome(path: pathlib.Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "games", "replay", str(path)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    expected = json.loads(path.with_name(path.stem + ".expected.json").read_text())
    if "error" in expected:
        assert proc.returncode == 2 and proc.stderr.strip() == expected["error"]
    else:
        assert proc.returncode == 0, proc.stderr
        assert json.loads(proc.stdout) == expected
