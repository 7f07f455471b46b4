"""While a computer is to move, the table shows its move controls greyed out
(nobody presses them by mistake and waits for "not your turn"); what anyone
seated may press at any time — a hand's "show", Sixty-Six's declaration —
stays live; and with a person to move the same controls are live."""

from __future__ import annotations

from typing import Any

import pytest

from bot.tables.rows import TableRow
from bot.ui import present
from bot.ui.controls import Button, Select, movers_only
from games import registry
from games.core import SeededSource

GAMES = ("nine", "sixdice", "bluff", "yahtzee", "sixtysix")


def _row(game: str, cpu_to_move: bool) -> TableRow:
    eng = registry.engine(game)
    state = eng.new_game(["p1", "p2"], {}, None, SeededSource(f"{game}-seed"))
    first = eng.to_move(state)[0]
    seats = []
    for n, name in enumerate(["p1", "p2"], 1):
        seat: dict[str, Any] = {"id": n, "name": name, "display": name}
        if (name == first) == cpu_to_move:
            seat.update(id=-n, bot=True, level="easy", display=f"CPU{n} (easy)")
        seats.append(seat)
    return TableRow(7, 1, 2, 3, game, "playing", 1, seats, {}, eng.to_json(state), {}, "s", 4,
                    None, 0.0, 0.0)  # fmt: skip


def _controls(view: Any) -> list[tuple[str, bool]]:
    """(action, disabled) of each control of a table message."""
    out = []
    for child in view.children:
        item = getattr(child, "item", child)
        out.append((child.action, bool(item.disabled)))
    return out


@pytest.mark.parametrize("game", GAMES)
async def test_a_computers_moves_are_greyed_out_and_a_persons_are_not(game: str) -> None:
    waiting = await present.table_message(_row(game, cpu_to_move=True), "en")
    playing = await present.table_message(_row(game, cpu_to_move=False), "en")
    assert waiting.view is not None and playing.view is not None
    theirs = _controls(waiting.view)
    assert any(movers_only(_spec(a)) for a, _ in theirs)  # the game shows its moves
    if game == "sixtysix":  # a hand is shown to its owner whoever is to move
        assert ("show", False) in theirs
    for action, disabled in theirs:
        if game == "sixtysix" and action == "m:declare":
            # a person may declare 66 at any moment of the deal (RULES)
            assert not disabled
            continue
        assert disabled == movers_only(_spec(action)), (game, action)
    assert not any(disabled for _, disabled in _controls(playing.view))


def _spec(action: str) -> Button:
    return Button(action, "")


def test_what_only_the_player_to_move_may_press():
    assert movers_only(Button("m:roll", "")) and movers_only(Button("k:2", ""))
    assert movers_only(Select("m", "")) and movers_only(Select("m.x1", ""))
    assert movers_only(Button("blind", ""))
    assert not movers_only(Button("show", "")) and not movers_only(Button("y:stop", ""))
