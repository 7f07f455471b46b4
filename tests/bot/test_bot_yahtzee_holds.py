"""Yahtzee holds on Discord (SimCord), issue 18: what the picture marks
"keep" and what the die buttons hold always agree, after every roll and
every toggle of a whole game; held dice stay held across a reroll (as in a
real game) and are released when the player scores."""

from __future__ import annotations

import random
from typing import Any

from simtable import pattern, taken

from bot.pictures import shown_view
from games import registry
from games.core import SeededSource

DICE = SeededSource("bot-yahtzee-holds").roll(3000)
ENG = registry.engine("yahtzee")


def held_buttons(table: Any) -> list[bool] | None:
    """Which die buttons the table shows as held (``None``: no die buttons)."""
    dice = {
        int(c["custom_id"].split(":", 3)[3][2:]): c["style"] == 3  # 3: success (held)
        for c in table.controls
        if c["type"] == 2 and c["custom_id"].split(":", 3)[3].startswith("k:")
    }
    return [dice[i] for i in range(5)] if dice else None


def alt_marks(table: Any) -> list[bool] | None:
    """The held dice as the picture's own alt text says (``5*``: kept), or
    ``None`` when it names no dice."""
    [attachment] = table.stored.attachments
    m = pattern("pic.rolled_plain").search(attachment["description"] or "")
    if m is None:
        return None
    return [word.rstrip(".。;").endswith("*") for word in m.group("dice").split()[:5]]


async def picture_marks(table: Any) -> tuple[list[int], list[bool], int]:
    """The dice, the "keep" marks of the view the table picture is drawn
    from (the public view with the table's UI state), and the rerolls left."""
    row = await table.row()
    view = ENG.view(ENG.from_json(row.state), None)
    shown = shown_view(view, ui=row.ui)
    return list(view["dice"]), list(shown["kept"]), int(view["rolls_left"])


async def agree(table: Any) -> tuple[list[int], list[bool]]:
    """The picture and the buttons show the same holds; returns the dice and
    the holds."""
    dice, marks, left = await picture_marks(table)
    buttons = held_buttons(table)
    if buttons is None:  # no dice to hold: nothing is marked "keep" either
        assert not any(marks), (dice, marks)
        assert not left or not dice
    else:
        assert buttons == marks, (dice, buttons, marks)
        assert left > 0
    if dice:
        assert alt_marks(table) == marks, (table.stored.attachments, marks)
    return dice, marks


async def test_holds_and_picture_agree_through_a_whole_game(game_night):
    rng = random.Random(18)
    async with game_night(dice=DICE, aux=[2]) as night:
        table = await night.table("yahtzee", players=2)
        rolls = kept_over = toggles = 0
        while not table.over:
            mover = table.mover
            row = await table.row()
            legal = ENG.legal_moves(ENG.from_json(row.state), mover.name)
            dice, held = await agree(table)
            if legal == ["roll"]:
                assert taken(await table.press("Roll", by=mover))
                rolls += 1
                dice, held = await agree(table)
                assert not any(held)  # a turn's first roll holds nothing
                continue
            if held_buttons(table) is not None and rng.random() < 0.75:
                # toggle a few dice, checking after each press, then reroll
                for i in rng.sample(range(5), rng.randint(1, 3)):
                    assert taken(await table.act(f"k:{i}", by=mover))
                    toggles += 1
                    dice, held = await agree(table)
                kept = sorted(d for d, h in zip(dice, held, strict=True) if h)
                move = " ".join(["keep", *map(str, kept)])
                assert f"m:{move}" in table.button_actions  # Reroll keeps what is held
                assert taken(await table.act(f"m:{move}", by=mover))
                rolls += 1
                after, held_after = await agree(table)
                left = (await picture_marks(table))[2]
                if left:  # what was held stays held, and kept its faces
                    assert sorted(d for d, h in zip(after, held_after, strict=True) if h) == kept
                    kept_over += bool(kept)
                else:  # the last roll: nothing left to reroll, nothing held
                    assert not any(held_after)
                continue
            # score the first box offered: every hold is released
            select = table.selects[0]
            assert taken(await table.choose(select["options"][0]["value"], by=mover))
            if table.over:
                break
            dice, held = await agree(table)
            assert not dice and not any(held)
        assert table.shows("result.title", game="Yahtzee")
    assert rolls > 26 and toggles > 20 and kept_over > 5, (rolls, toggles, kept_over)
