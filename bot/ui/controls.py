"""What a message's controls are, without Discord: :class:`Button` and
:class:`Select` descriptions whose ``action`` the component layer puts in the
custom id (``cb:<table>:<version>:<action>``). Actions:

- ``m:<move>`` — a button that plays the move in notation (``m:roll``,
  ``m:flip 3 9``);
- ``m`` — a select whose chosen value is the move (``m.<tag>`` when a
  message has several such selects: custom ids must differ);
- anything else is a lobby action or the game's own UI action (Yahtzee
  ``k:<i>`` toggles a held die).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

MAX_OPTIONS = 25  # Discord's limit for a select


@dataclass(frozen=True)
class Button:
    action: str
    label: str
    style: str = "secondary"  # primary | secondary | success | danger
    row: int | None = None
    disabled: bool = False


@dataclass(frozen=True)
class Select:
    action: str
    placeholder: str
    options: list[tuple[str, str]] = field(default_factory=list)  # (value, label)
    row: int | None = None
    disabled: bool = False


Control = Button | Select


def movers_only(control: Control) -> bool:
    """A control only the player to move can use: a move (``m:…``, a move
    select), Bluff's roll without looking (``blind``) or Yahtzee's hold
    toggles (``k:…``); not a hand's "show" nor a vote, which anyone seated
    may press at any time."""
    return control.action in ("m", "blind") or control.action.startswith(("m:", "m.", "k:"))


def waiting_for_computer(controls: list[Control], open_moves: set[str]) -> list[Control]:
    """The controls while a computer is to move: its moves shown greyed out
    (the table's layout stays as it will be; nobody presses them by mistake),
    but for a move a person may make out of turn (``open_moves``: Sixty-Six's
    declaration, "at any moment of the deal"); the others as they are."""
    return [
        dataclasses.replace(c, disabled=True)
        if movers_only(c) and not (c.action.startswith("m:") and c.action[2:] in open_moves)
        else c
        for c in controls
    ]


@dataclass(frozen=True)
class ResultAction:
    """A button under a finished game's result message (custom id
    ``cr:<result>:<action>``): its label's catalogue key and style. The app
    answers a press through the handler registered for ``action``
    (:meth:`bot.app.ChabudaiBot.on_result_action`)."""

    action: str
    label_key: str
    style: str = "secondary"


# The result message's buttons, in order; a feature adds its own here and
# registers its handler in the app.
RESULT_ACTIONS: list[ResultAction] = [
    ResultAction("record", "result.btn.record"),
    ResultAction("review", "result.btn.review"),
    ResultAction("replay", "result.btn.replay"),  # bot/commands/history.py
    ResultAction("fair", "result.btn.fair"),  # the seed, privately: bot/commands/rules.py
    ResultAction("rematch", "result.btn.rematch", "primary"),  # bot/commands/rematch.py
]


@dataclass(frozen=True)
class Standing:
    """One player's place in a finished game."""

    player: str
    rank: int  # 1 = winner; equal ranks share a place
    won: bool
    points: int  # settlement points (Yahtzee: final total)
    best: int | None = None
