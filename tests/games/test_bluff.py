"""Bluff dice (docs/rules/bluff.md): one test per rule, secrecy, records."""

from __future__ import annotations

import json
import pathlib
import subprocess
import sys
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import games.bluff as bluff
from games.bluff.engine import BluffState
from games.core import Record, RuleError, ScriptedSource, SeededSource, SourceExhausted, dumps
from games.registry import replay

RECORDS = sorted((pathlib.Path(__file__).parents[1] / "records" / "bluff").glob("*.json"))


def match(
    dice: list[int],
    players: tuple[str, ...] = ("a", "b", "c"),
    starter: str = "a",
    **options: Any,
) -> BluffState:
    return bluff.new_game(list(players), options, starter, ScriptedSource(dice))


def play(state: BluffState, *moves: str) -> list[Any]:
    events: list[Any] = []
    for m in moves:
        player, move = m.split(" ", 1)
        events += bluff.apply(state, player, move)
    return events


def refused(state: BluffState, player: str, move: str) -> str:
    before = dumps(bluff.to_json(state))
    with pytest.raises(RuleError) as err:
        bluff.apply(state, player, move)
    assert dumps(bluff.to_json(state)) == before
    return err.value.key


# --------------------------------------------------------------------------
# Ranking


def test_ranking_table_is_21_then_doubles_then_high_to_low() -> None:
    assert bluff.RANKING == (
        "21", "66", "55", "44", "33", "22", "11", "65", "64", "63", "62", "61",
        "54", "53", "52", "51", "43", "42", "41", "32", "31",
    )  # fmt: skip
    assert bluff.stronger("21", "66") and bluff.stronger("11", "65")
    assert bluff.stronger("32", "31") and not bluff.stronger("31", "32")
    assert not bluff.stronger("54", "54")


def test_value_reads_the_larger_die_first() -> None:
    assert bluff.value_of([4, 6]) == "64"
    assert bluff.value_of([1, 2]) == "21"
    assert bluff.value_of([3, 3]) == "33"
    assert {bluff.value_of([a, b]) for a in range(1, 7) for b in range(1, 7)} == set(bluff.RANKING)


# --------------------------------------------------------------------------
# A game


def test_first_player_of_a_game_must_roll() -> None:
    state = match([6, 4])
    assert bluff.legal_moves(state, "a") == ["roll"]
    assert refused(state, "a", "reveal") == "bluff.first_must_roll"
    assert refused(state, "a", "announce 54") == "bluff.first_must_roll"


def test_after_rolling_the_player_must_announce() -> None:
    state = match([6, 4])
    play(state, "a roll")
    legal = bluff.legal_moves(state, "a")
    assert legal == ["announce " + v for v in reversed(bluff.RANKING)]
    assert refused(state, "a", "reveal") == "bluff.announce_after_roll"
    assert refused(state, "a", "roll") == "bluff.announce_after_roll"


def test_only_the_21_values_larger_die_first_can_be_announced() -> None:
    state = match([6, 4])
    play(state, "a roll")
    for bad in ["12", "46", "77", "7", "00", "211"]:
        assert refused(state, "a", f"announce {bad}") == "bluff.not_a_value"
    assert refused(state, "a", "announce") == "move.unknown"
    assert refused(state, "a", "announce 54 55") == "move.unknown"


def test_announcement_must_be_strictly_stronger() -> None:
    state = match([6, 4, 1, 1])
    play(state, "a roll", "a announce 64")
    assert refused(state, "b", "announce 64") == "bluff.not_stronger"
    assert refused(state, "b", "announce 63") == "bluff.not_stronger"
    play(state, "b roll")
    assert bluff.legal_moves(state, "b") == [
        "announce 65",
        *["announce " + v for v in ("11", "22", "33", "44", "55", "66", "21")],
    ]


def test_holder_may_reveal_roll_or_pass() -> None:
    state = match([6, 4])
    play(state, "a roll", "a announce 64")
    legal = bluff.legal_moves(state, "b")
    assert legal[:2] == ["reveal", "roll"] and "announce 65" in legal
    assert bluff.legal_moves(state, "a") == [] and bluff.legal_moves(state, "c") == []
    assert refused(state, "c", "reveal") == "move.not_your_turn"


def test_pass_is_an_announce_without_rolling() -> None:
    state = match([6, 4])
    events = play(state, "a roll", "a announce 64", "b announce 66")
    assert events[-1].kind == "announce" and events[-1].data == {"value": "66", "rolled": False}
    assert state.cup == [6, 4]  # nobody rolled: the same dice
    assert state.history.moves[-1] == "b announce 66"
    assert bluff.view(state, None)["announcements"][-1] == {
        "player": "b",
        "value": "66",
        "rolled": False,
    }


def test_reveal_of_weaker_dice_the_announcer_loses_bluff_called() -> None:
    state = match([3, 1, 5, 5])
    events = play(state, "a roll", "a announce 65", "b reveal")
    reveal = [e for e in events if e.kind == "reveal"][0]
    assert reveal.public and reveal.data["dice"] == [3, 1]
    assert reveal.data["loser"] == "a" and reveal.data["reason"] == "bluff_called"
    assert bluff.outcome(state)["games"] == [{"loser": "a", "reason": "bluff_called"}]


def test_reveal_of_equal_dice_the_revealer_loses_wrong_call() -> None:
    state = match([5, 6])
    play(state, "a roll", "a announce 65", "b reveal")
    assert bluff.outcome(state)["games"] == [{"loser": "b", "reason": "wrong_call"}]


def test_reveal_of_stronger_dice_the_revealer_loses_wrong_call() -> None:
    state = match([2, 1])
    play(state, "a roll", "a announce 31", "b reveal")
    assert bluff.outcome(state)["games"] == [{"loser": "b", "reason": "wrong_call"}]


def test_reveal_compares_the_last_roll_with_the_last_announcement_even_a_pass() -> None:
    state = match([6, 6, 4, 3])
    # a rolls 66 and says 22; b passes with 66 (true: the cup still holds 66)
    play(state, "a roll", "a announce 22", "b announce 66", "c reveal")
    assert bluff.outcome(state)["games"] == [{"loser": "c", "reason": "wrong_call"}]
    state = match([6, 6, 4, 3])
    # b rolls 43 and passes on a lie of 55; c catches b, whose announcement it was
    play(state, "a roll", "a announce 22", "b roll", "b announce 55", "c announce 66", "a reveal")
    assert bluff.outcome(state)["games"] == [{"loser": "c", "reason": "bluff_called"}]


def test_after_21_the_next_player_must_reveal() -> None:
    state = match([1, 2])
    play(state, "a roll", "a announce 21")
    assert bluff.legal_moves(state, "b") == ["reveal"]
    assert refused(state, "b", "roll") == "bluff.reveal_after_21"
    assert refused(state, "b", "announce 21") == "bluff.reveal_after_21"
    play(state, "b reveal")
    assert bluff.outcome(state)["games"] == [{"loser": "b", "reason": "wrong_call"}]


def test_play_goes_in_seat_order_and_wraps() -> None:
    state = match([1, 1], starter="c")
    play(state, "c roll", "c announce 31")
    assert bluff.to_move(state) == ["a"]


# --------------------------------------------------------------------------
# The match


def test_loser_starts_the_next_game() -> None:
    state = match([3, 1])
    events = play(state, "a roll", "a announce 65", "b reveal")
    assert events[-1].kind == "start" and events[-1].data == {"game": 2, "starter": "a"}
    assert bluff.to_move(state) == ["a"] and bluff.legal_moves(state, "a") == ["roll"]
    assert bluff.view(state, None)["announcements"] == []


def test_match_ends_when_a_player_reaches_the_loss_limit() -> None:
    state = match([3, 1, 3, 1], losses=2)
    play(state, "a roll", "a announce 65", "b reveal")
    assert not bluff.is_finished(state)
    events = play(state, "a roll", "a announce 65", "b reveal")
    assert events[-1].kind == "game_over"
    out = bluff.outcome(state)
    assert out["finished"] and out["losses"] == {"a": 2, "b": 0, "c": 0}
    assert out["winners"] == ["b", "c"]  # fewest losses; ties share, seat order
    assert refused(state, "a", "roll") == "move.game_over"
    assert bluff.to_move(state) == [] and bluff.legal_moves(state, "a") == []


def test_default_loss_limit_is_three() -> None:
    state = match([3, 1] * 3, players=("a", "b"))
    for _ in range(3):
        play(state, "a roll", "a announce 65", "b reveal")
    assert bluff.outcome(state)["losses"] == {"a": 3, "b": 0}
    assert bluff.is_finished(state) and bluff.outcome(state)["winners"] == ["b"]


def test_games_option_ends_the_match_after_n_games() -> None:
    state = match([3, 1, 3, 1], players=("a", "b"), games=2)
    play(state, "a roll", "a announce 65", "b reveal")
    play(state, "a roll", "a announce 31", "b reveal")
    out = bluff.outcome(state)
    assert out["finished"] and out["losses"] == {"a": 1, "b": 1} and out["winners"] == ["a", "b"]


def test_with_games_option_the_loss_limit_still_applies() -> None:
    state = match([3, 1], players=("a", "b"), games=5, losses=1)
    play(state, "a roll", "a announce 65", "b reveal")
    assert bluff.is_finished(state)


def test_first_starter_is_chosen_with_randbelow() -> None:
    state = bluff.new_game(["a", "b", "c"], {}, None, ScriptedSource(aux=[3]))
    assert state.history.dealer == "c" and bluff.to_move(state) == ["c"]
    seen = {
        bluff.new_game(["a", "b", "c"], {}, None, SeededSource(str(i))).history.dealer
        for i in range(40)
    }
    assert seen == {"a", "b", "c"}


def test_options_are_validated() -> None:
    with pytest.raises(RuleError):
        bluff.new_game(["a", "b"], {"losses": 0}, "a", ScriptedSource())
    state = bluff.new_game(["a", "b"], {"games": "off", "losses": "2"}, "a", ScriptedSource())
    assert state.history.options == {"losses": 2, "games": None}


@pytest.mark.parametrize(("name", "high"), [("losses", 10), ("games", 100)])
def test_option_limits(name: str, high: int) -> None:
    """docs/rules/bluff.md "House option limits": 1…high accepted, 0 and
    high + 1 refused."""
    for value in (1, high, str(high)):
        state = bluff.new_game(["a", "b"], {name: value}, "a", ScriptedSource())
        assert state.history.options[name] == int(value)
    for value in (0, high + 1, str(high + 1)):
        with pytest.raises(RuleError) as err:
            bluff.new_game(["a", "b"], {name: value}, "a", ScriptedSource())
        assert err.value.key == "option.bad_value" and err.value.args_["option"] == name


def test_forfeit_takes_the_loss_limit_and_ends_the_match() -> None:
    state = match([2, 3, 4, 4])
    play(state, "a roll", "a announce 32", "b roll")
    events = bluff.forfeit(state, "b")
    assert [e.kind for e in events] == ["forfeit", "game_over"]
    out = bluff.outcome(state)
    assert out["losses"] == {"a": 0, "b": 3, "c": 0} and out["winners"] == ["a", "c"]
    assert out["games"] == [{"loser": "b", "reason": "forfeit"}]
    assert state.history.moves[-1] == "b forfeit"
    assert bluff.forfeit(state, "b") == []
    assert all(e.public and "dice" not in e.data for e in events)
    assert bluff.view(state, None)["last_reveal"] is None  # the unrevealed cup stays secret


# --------------------------------------------------------------------------
# Looking under the cup and secrecy


def test_roll_when_the_dice_run_out_changes_nothing() -> None:
    state = match([2, 1])
    play(state, "a roll", "a announce 54")
    before = dumps(bluff.to_json(state))
    with pytest.raises(SourceExhausted):
        play(state, "b roll")
    assert dumps(bluff.to_json(state)) == before
    assert state.history.moves == ["a roll", "a announce 54"]  # not recorded before the dice


def test_roll_alone_does_not_look() -> None:
    state = match([6, 4])
    events = play(state, "a roll")
    assert [(e.kind, e.data, e.visible_to) for e in events] == [("roll", {}, None)]
    assert bluff.view(state, "a")["cup_seen"] is None


def test_peek_shows_the_dice_privately_and_is_not_recorded() -> None:
    state = match([6, 4])
    play(state, "a roll")
    events = bluff.peek(state, "a")
    assert len(events) == 1
    assert events[0].visible_to == ("a",) and events[0].data == {"dice": [6, 4], "value": "64"}
    assert bluff.view(state, "a")["cup_seen"] == [6, 4]
    assert bluff.view(state, "a")["peeked"] is True
    assert bluff.view(state, "b")["cup_seen"] is None
    assert bluff.view(state, None)["cup_seen"] is None
    assert state.history.moves == ["a roll"]


def test_peek_only_by_the_holder_who_just_rolled() -> None:
    state = match([6, 4])
    with pytest.raises(RuleError) as err:
        bluff.peek(state, "a")
    assert err.value.key == "bluff.peek_without_roll"
    play(state, "a roll")
    with pytest.raises(RuleError) as err:
        bluff.peek(state, "b")
    assert err.value.key == "move.not_your_turn"
    play(state, "a announce 64")
    with pytest.raises(RuleError) as err:
        bluff.peek(state, "b")  # b holds the cup but did not roll: a pass sees nothing
    assert err.value.key == "bluff.peek_without_roll"


def test_seen_dice_stay_in_own_view_until_the_cup_is_rolled_again() -> None:
    state = match([6, 4, 2, 2])
    play(state, "a roll")
    bluff.peek(state, "a")
    play(state, "a announce 64", "b announce 65")
    assert bluff.view(state, "a")["cup_seen"] == [6, 4]  # still the cup's dice
    assert bluff.view(state, "a")["peeked"] is False
    play(state, "c roll")
    assert bluff.view(state, "a")["cup_seen"] is None


def test_reveal_shows_the_dice_to_everyone() -> None:
    state = match([5, 3])
    play(state, "a roll", "a announce 54", "b reveal")
    for viewer in (None, "a", "b", "c"):
        rev = bluff.view(state, viewer)["last_reveal"]
        assert rev["dice"] == [5, 3] and rev["value"] == "53" and rev["loser"] == "a"


def test_errors_never_name_the_hidden_dice() -> None:
    state = match([6, 6])
    play(state, "a roll", "a announce 31")
    for move in ["announce 31", "announce 12", "fly", "announce 54 x"]:
        with pytest.raises(RuleError) as err:
            bluff.apply(state, "b", move)
        assert "66" not in str(err.value) + json.dumps(err.value.args_)


SCRIPT = st.lists(st.tuples(st.integers(0, 50), st.booleans()), min_size=1, max_size=12)
DICE = st.lists(st.integers(1, 6), min_size=40, max_size=40)


def _drive(state: BluffState, script: list[tuple[int, bool]]) -> tuple[list[Any], str | None]:
    """Play a move chosen by index (never a reveal) and maybe peek; returns the
    public events and the player who looked at the cup's current dice."""
    public: list[Any] = []
    looker: str | None = None
    for pick, look in script:
        player = bluff.to_move(state)[0]
        legal = [m for m in bluff.legal_moves(state, player) if m != "reveal"]
        if not legal:
            break
        move = legal[pick % len(legal)]
        events = bluff.apply(state, player, move)
        if move == "roll":
            looker = None
            if look:
                events += bluff.peek(state, player)
                looker = player
        public += [e.to_json() for e in events if e.public]
    return public, looker


@given(script=SCRIPT, dice_a=DICE, dice_b=DICE, n=st.integers(2, 5))
def test_non_interference_hidden_dice_change_no_other_view(
    script: list[tuple[int, bool]], dice_a: list[int], dice_b: list[int], n: int
) -> None:
    players = [f"p{i}" for i in range(n)]
    one = bluff.new_game(players, {}, "p0", ScriptedSource(dice_a))
    two = bluff.new_game(players, {}, "p0", ScriptedSource(dice_b))
    pub_one, looker = _drive(one, script)
    pub_two, _ = _drive(two, script)
    assert pub_one == pub_two
    assert json.dumps(pub_one).count("dice") == 0
    assert bluff.view(one, None) == bluff.view(two, None)
    for p in players:
        if p != looker:
            assert bluff.view(one, p) == bluff.view(two, p), p
    if looker is not None:
        assert bluff.view(one, looker)["cup_seen"] == one.cup


# --------------------------------------------------------------------------
# Saving and records


def test_json_round_trip_keeps_the_cup_and_what_was_seen() -> None:
    state = match([6, 4])
    play(state, "a roll")
    bluff.peek(state, "a")
    again = bluff.from_json(json.loads(json.dumps(bluff.to_json(state))))
    assert dumps(bluff.to_json(again)) == dumps(bluff.to_json(state))
    assert bluff.view(again, "a") == bluff.view(state, "a")


@pytest.mark.parametrize("path", RECORDS, ids=[p.stem for p in RECORDS])
def test_record_replays_to_its_expected_outcome(path: pathlib.Path) -> None:
    doc = json.loads(path.read_text(encoding="utf-8"))
    state = replay(Record.from_json(doc))
    assert bluff.outcome(state) == doc["expected"]
    assert doc["expected"]["finished"] is True
    out = subprocess.run(
        [sys.executable, "-m", "games", "replay", str(path)], capture_output=True, text=True
    )
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == doc["expected"]


def test_broken_record_exits_2_naming_the_move(tmp_path: pathlib.Path) -> None:
    src = RECORDS[0].parent / "three_players_two_losses.json"
    doc = json.loads(src.read_text(encoding="utf-8"))
    doc["moves"][3] = "ben announce 63"  # not stronger than ann's 64
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    out = subprocess.run(
        [sys.executable, "-m", "games", "replay", str(path)], capture_output=True, text=True
    )
    assert out.returncode == 2
    assert out.stderr.startswith("move 4 'ben announce 63': ") and out.stderr.count("\n") == 1
    doc = json.loads(src.read_text(encoding="utf-8"))
    doc["dice"] = doc["dice"][:3]
    path.write_text(json.dumps(doc), encoding="utf-8")
    out = subprocess.run(
        [sys.executable, "-m", "games", "replay", str(path)], capture_output=True, text=True
    )
    assert out.returncode == 2 and out.stderr.startswith("move 3 'ben roll': ")
