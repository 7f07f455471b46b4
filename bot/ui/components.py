"""Buttons and selects that survive restarts (``discord.ui.DynamicItem``).

Custom ids carry only the table id, the row version the message was drawn
from, and the action — never a secret:

- ``cb:<table>:<version>:<action>`` a button,
- ``cs:<table>:<version>:<action>`` a select (the chosen value is the move);
- ``cr:<result>:<action>[:<arg>]`` a button under a finished game's result
  (rematch, record, replay step…), answered by the app's handler for
  ``action``.
- ``cq:<result>:<action>`` a select about results: the chosen value is the
  action's ``arg`` (a replay's step), or with result ``0`` the result id
  itself (``/history``'s "record file of…" and "replay…").

Both classes are registered with the client at start-up, so a message sent
before a restart keeps working; every press goes to
:meth:`bot.presses.Presses.press` (of the process that answers it:
``presses_for``). What they need of the bot is :class:`ComponentHost`.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable
from typing import Any, Protocol

import discord

from bot.ui.controls import RESULT_ACTIONS, Button, Control, Select

log = logging.getLogger(__name__)

_STYLES = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}


class Replies(Protocol):
    async def reply(self, interaction: discord.Interaction[Any], key: str, **args: Any) -> None:
        """An ephemeral answer in the user's language."""
        ...


class Presser(Protocol):
    async def press(
        self,
        interaction: discord.Interaction[Any],
        table_id: int,
        version: int,
        action: str,
        values: list[str],
    ) -> None:
        """A button or select on a table message (or a private message)."""
        ...


class ComponentHost(Protocol):
    """What the buttons and selects need of the bot (``interaction.client``):
    :class:`bot.host.Host` extends it; :class:`bot.app.ChabudaiBot` is one."""

    @property
    def tables(self) -> Replies: ...

    def presses_for(self, interaction: discord.Interaction[Any]) -> Presser:
        """What answers a press on a table (the process's own presses)."""
        ...

    async def on_result_action(
        self, interaction: discord.Interaction[Any], result_id: int, action: str, arg: str
    ) -> None: ...

    async def on_press_failed(
        self, interaction: discord.Interaction[Any], what: str, error: BaseException
    ) -> None: ...


def custom_id(kind: str, table_id: int, version: int, action: str) -> str:
    """``cb:12:3:m:roll`` (at most 100 characters, Discord's limit)."""
    cid = f"{kind}:{table_id}:{version}:{action}"
    if len(cid) > 100:
        raise ValueError(f"custom id too long: {cid!r}")
    return cid


async def guarded(interaction: discord.Interaction[Any], what: str, work: Awaitable[None]) -> None:
    """Run a press's handler; if it raises, the app's one failure handler
    logs it and answers the presser (``ComponentHost.on_press_failed``)."""
    try:
        await work
    except Exception as err:
        client: ComponentHost = interaction.client
        await client.on_press_failed(interaction, what, err)


class TableButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"cb:(?P<table>[0-9]+):(?P<version>[0-9]+):(?P<action>.+)",
):
    def __init__(
        self, table_id: int, version: int, action: str, button: discord.ui.Button[Any]
    ) -> None:
        super().__init__(button)
        self.table_id = table_id
        self.version = version
        self.action = action

    @classmethod
    def build(cls, table_id: int, version: int, spec: Button) -> TableButton:
        button: discord.ui.Button[Any] = discord.ui.Button(
            label=spec.label[:80],
            style=_STYLES[spec.style],
            custom_id=custom_id("cb", table_id, version, spec.action),
            row=spec.row,
            disabled=spec.disabled,
        )
        return cls(table_id, version, spec.action, button)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: Any, /
    ) -> TableButton:
        assert isinstance(item, discord.ui.Button)
        return cls(int(match["table"]), int(match["version"]), match["action"], item)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        client: ComponentHost = interaction.client
        presses = client.presses_for(interaction)
        await guarded(
            interaction, f"table {self.table_id} button {self.action}",
            presses.press(interaction, self.table_id, self.version, self.action, []),
        )  # fmt: skip


class TableSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=r"cs:(?P<table>[0-9]+):(?P<version>[0-9]+):(?P<action>.+)",
):
    def __init__(
        self, table_id: int, version: int, action: str, select: discord.ui.Select[Any]
    ) -> None:
        super().__init__(select)
        self.table_id = table_id
        self.version = version
        self.action = action

    @classmethod
    def build(cls, table_id: int, version: int, spec: Select) -> TableSelect:
        select: discord.ui.Select[Any] = discord.ui.Select(
            placeholder=spec.placeholder[:150],
            custom_id=custom_id("cs", table_id, version, spec.action),
            options=[
                discord.SelectOption(label=label[:100], value=value[:100])
                for value, label in spec.options[:25]
            ],
            row=spec.row,
            disabled=spec.disabled,
        )
        return cls(table_id, version, spec.action, select)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: Any, /
    ) -> TableSelect:
        assert isinstance(item, discord.ui.Select)
        return cls(int(match["table"]), int(match["version"]), match["action"], item)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        client: ComponentHost = interaction.client
        values = list(self.item.values)
        await guarded(
            interaction, f"table {self.table_id} select {self.action}",
            client.presses_for(interaction).press(
                interaction, self.table_id, self.version, self.action, values
            ),
        )  # fmt: skip


def build_view(table_id: int, version: int, controls: list[Control]) -> discord.ui.View | None:
    """A persistent view (no timeout) of the given controls, or ``None``."""
    if not controls:
        return None
    view = discord.ui.View(timeout=None)
    for spec in controls:
        if isinstance(spec, Button):
            view.add_item(TableButton.build(table_id, version, spec))
        else:
            view.add_item(TableSelect.build(table_id, version, spec))
    return view


class ResultButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"cr:(?P<result>[0-9]+):(?P<action>[a-z_]+)(?::(?P<arg>.*))?",
):
    """A button about a stored result; ``arg`` is the action's own (a replay
    step). Never carries a secret: the result id is public."""

    def __init__(
        self, result_id: int, action: str, arg: str, button: discord.ui.Button[Any]
    ) -> None:
        super().__init__(button)
        self.result_id = result_id
        self.action = action
        self.arg = arg

    @classmethod
    def build(
        cls,
        result_id: int,
        action: str,
        label: str,
        *,
        arg: str = "",
        style: str = "secondary",
        row: int | None = None,
        disabled: bool = False,
    ) -> ResultButton:
        cid = f"cr:{result_id}:{action}" + (f":{arg}" if arg else "")
        if len(cid) > 100:
            raise ValueError(f"custom id too long: {cid!r}")
        button: discord.ui.Button[Any] = discord.ui.Button(
            label=label[:80], style=_STYLES[style], custom_id=cid, row=row, disabled=disabled
        )
        return cls(result_id, action, arg, button)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: Any, /
    ) -> ResultButton:
        assert isinstance(item, discord.ui.Button)
        return cls(int(match["result"]), match["action"], match["arg"] or "", item)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        client: ComponentHost = interaction.client
        await guarded(
            interaction, f"result {self.result_id} button {self.action}",
            client.on_result_action(interaction, self.result_id, self.action, self.arg),
        )  # fmt: skip


class ResultSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=r"cq:(?P<result>[0-9]+):(?P<action>[a-z_]+)",
):
    """A select about stored results (``cq:<result>:<action>``): the chosen
    value is the action's ``arg`` (a replay's step), or — with result ``0``
    — the result id itself (``/history``: pick a game). Never a secret."""

    def __init__(self, result_id: int, action: str, select: discord.ui.Select[Any]) -> None:
        super().__init__(select)
        self.result_id = result_id
        self.action = action

    @classmethod
    def build(
        cls,
        result_id: int,
        action: str,
        placeholder: str,
        options: list[discord.SelectOption],
        *,
        row: int | None = None,
    ) -> ResultSelect:
        select: discord.ui.Select[Any] = discord.ui.Select(
            placeholder=placeholder[:150],
            custom_id=f"cq:{result_id}:{action}",
            options=options[:25],
            row=row,
        )
        return cls(result_id, action, select)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: Any, /
    ) -> ResultSelect:
        assert isinstance(item, discord.ui.Select)
        return cls(int(match["result"]), match["action"], item)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        what = f"result {self.result_id} select {self.action}"
        await guarded(interaction, what, self._picked(interaction))

    async def _picked(self, interaction: discord.Interaction[Any]) -> None:
        client: ComponentHost = interaction.client
        value = str(self.item.values[0]) if self.item.values else ""
        if self.result_id == 0:  # a pick among several results: the value is one
            if not value.isdigit():
                await client.tables.reply(interaction, "error.no_result")
                return
            await client.on_result_action(interaction, int(value), self.action, "")
            return
        await client.on_result_action(interaction, self.result_id, self.action, value)


def result_view(result_id: int, labels: dict[str, str]) -> discord.ui.View:
    """The buttons under a result message (:data:`RESULT_ACTIONS`, in their
    order) that ``labels`` labels (action → translated label): an action
    left out is not offered."""
    view = discord.ui.View(timeout=None)
    for spec in RESULT_ACTIONS:
        if spec.action not in labels:
            continue
        view.add_item(
            ResultButton.build(result_id, spec.action, labels[spec.action], style=spec.style)
        )
    return view


ENDED_TABLE = "t"  # the 🔑 Seed of a game ended without a result: cr:0:fair:t<table id>


def ended_view(table_id: int, label: str) -> discord.ui.View:
    """The 🔑 Seed button under a game that ended without a result (no
    result to name: its table's id, as ``arg``)."""
    view = discord.ui.View(timeout=None)
    view.add_item(ResultButton.build(0, "fair", label, arg=f"{ENDED_TABLE}{table_id}"))
    return view


class LaunchButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"ca:(?P<table>[0-9]+):0:open",
):
    """The "Open the Activity" button on a table message (``ca:<table>:0:open``,
    the table scheme with no version: it changes nothing; only where
    the bot serves the Activity, ``docs/activity.md``): answered with
    Discord's launch-activity response, which opens the app's Activity in
    the presser's client."""

    def __init__(self, table_id: int, button: discord.ui.Button[Any]) -> None:
        super().__init__(button)
        self.table_id = table_id

    @classmethod
    def build(cls, table_id: int, label: str) -> LaunchButton:
        button: discord.ui.Button[Any] = discord.ui.Button(
            label=label[:80], style=discord.ButtonStyle.secondary, custom_id=f"ca:{table_id}:0:open"
        )
        return cls(table_id, button)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: Any, /
    ) -> LaunchButton:
        assert isinstance(item, discord.ui.Button)
        return cls(int(match["table"]), item)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await guarded(interaction, f"table {self.table_id} activity", launch(interaction))


async def launch(interaction: discord.Interaction[Any]) -> None:
    """Open the Activity for the presser (an interaction's launch-activity
    response); if Discord refuses it (the app has no Activity set up), the
    presser is told so."""
    try:
        await interaction.response.launch_activity()
    except discord.HTTPException as err:
        log.warning("the Activity could not be launched (%s/%s)", err.status, err.code)
        client: ComponentHost = interaction.client
        await client.tables.reply(interaction, "activity.launch_failed")


def with_launch(view: discord.ui.View | None, table_id: int, label: str) -> discord.ui.View:
    """``view`` (or a new one) with the "Open the Activity" button, where it
    fits (a view full already stays as it is)."""
    out = view if view is not None else discord.ui.View(timeout=None)
    try:
        out.add_item(LaunchButton.build(table_id, label))
    except ValueError:  # 25 items, or every row full
        pass
    return out


DYNAMIC_ITEMS = (TableButton, TableSelect, ResultButton, ResultSelect)
