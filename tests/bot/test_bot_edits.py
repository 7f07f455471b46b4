"""Discord's edit budget (about 5 edits of a channel's messages per 5 s): a
computer's move that another computer's move follows within one edit
interval is not drawn on its own — one edit of the table message shows
both (bot/followers/screen.py, docs/operations.md). Computers that pause
as long as an edit interval or more have each move drawn."""

from __future__ import annotations

import pytest
from simtable import accepted

from bot.followers.screen import EDIT_INTERVAL, Screen


async def edits_per_press(game_night, monkeypatch, delay: float) -> tuple[list[int], str]:
    """Nine, alice against one computer: after each of alice's presses, how
    many times the table message was edited by id (her own press is the
    answer to it, not an edit by id). Her roll is followed by no computer
    move; her flip by the computer's roll and flip."""
    edits: list[int] = []
    real = Screen.edit

    async def counted(self, row, msg, *, live=True):
        edits.append(row.version)
        return await real(self, row, msg, live=live)

    monkeypatch.setattr(Screen, "edit", counted)
    async with game_night(seeded=True, cpu_delay=delay) as night:
        table = await night.table("nine", players=1, cpus=["easy"])
        chains = []
        for _ in range(8):
            if table.over:
                break
            before = len(edits)
            accepted(await table.play(by=night.alice))
            await night.settle()
            chains.append(len(edits) - before)
            if not table.over:
                # the message shows the stored table: nothing is left behind
                row = await table.row()
                assert night.bot.tables.shown_version(row) == row.version
                assert table.turn == night.alice, table.content
    return chains, table.content


async def test_a_computers_two_moves_in_a_row_are_one_edit(game_night, monkeypatch):
    chains, _content = await edits_per_press(game_night, monkeypatch, 0.0)
    # before: 2 edits after each flip (the computer's roll, then its flip)
    assert max(chains) == 1 and 1 in chains and 0 in chains, chains


@pytest.mark.parametrize("delay", [EDIT_INTERVAL, 1.5])
async def test_computers_that_pause_have_each_move_drawn(game_night, monkeypatch, delay):
    chains, _content = await edits_per_press(game_night, monkeypatch, delay)
    assert 2 in chains, chains
