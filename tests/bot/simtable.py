"""A SimCord table harness: start the bot on a file database, play by
pressing the buttons and selects a user would see."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import simcord

from bot.app import ChabudaiBot, create_bot
from bot.store import Store
from games.core import ScriptedSource, Source

SEED = "test-seed-0123456789abcdef"


class Clock:
    def __init__(self) -> None:
        self.now = 1_700_000_000.0

    def __call__(self) -> float:
        return self.now


class Harness:
    """Builds bots that share one database file and one scripted dice list."""

    def __init__(
        self, path: Path, dice: list[int] | None = None, aux: list[int] | None = None
    ) -> None:
        self.path = path
        self.dice = list(dice or [])
        self.aux = list(aux or [])
        self.clock = Clock()
        self.bots: list[ChabudaiBot] = []
        self.games = 0
        self.vary = 0  # > 0: each new game starts that many faces further on

    def source(self, seed: str) -> Source:
        start = self.games * self.vary
        self.games += 1
        return ScriptedSource(dice=self.dice[start:] + self.dice[:start], aux=self.aux)

    def bot(self) -> ChabudaiBot:
        bot = create_bot(
            Store(self.path),
            clock=self.clock,
            seed_factory=lambda: SEED,
            source_factory=self.source,
        )
        self.bots.append(bot)
        return bot

    async def close(self) -> None:
        for bot in self.bots:
            await bot.tables.store.close()


def walk(components: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    for c in components:
        yield c
        yield from walk(c.get("components") or [])


def controls(message: Any) -> list[dict[str, Any]]:
    """Buttons (type 2) and selects (type 3) of a ResponseMessage."""
    return [c for c in walk(message.components) if c.get("type") in (2, 3)]


def buttons(message: Any) -> dict[str, str]:
    """label → custom id of the message's buttons."""
    return {c["label"]: c["custom_id"] for c in controls(message) if c["type"] == 2}


def select_values(message: Any) -> list[str]:
    out: list[str] = []
    for c in controls(message):
        if c["type"] == 3:
            out.extend(o["value"] for o in c["options"])
    return out


def custom_ids(message: Any) -> list[str]:
    return [c["custom_id"] for c in controls(message)]


async def open_table(
    env: simcord.Env,
    channel: Any,
    host: Any,
    others: list[Any],
    game: str,
    options: str | None = None,
) -> Any:
    """/play, everyone joins, the host starts; returns the table message."""
    kwargs = {"game": game}
    if options:
        kwargs["options"] = options
    res = await host.slash(channel, "play", **kwargs)
    msg = res.response
    assert msg is not None and not msg.ephemeral, res
    for user in others:
        r = await user.click(msg, label="Join")
        assert r.response is None or not r.response.ephemeral
    await host.click(msg, label="Start")
    return msg


TURN = re.compile(r"Turn: <@(\d+)>")


def mover_of(message: Any, users: list[Any]) -> Any:
    match = TURN.search(message.content)
    assert match, message.content
    return next(u for u in users if u.id == int(match.group(1)))


async def press(user: Any, message: Any, choice: tuple[str, str, str | None]) -> Any:
    """``("click", custom_id, None)`` or ``("select", custom_id, value)``."""
    kind, cid, value = choice
    if kind == "click":
        return await user.click(message, custom_id=cid)
    assert value is not None
    return await user.select(message, [value], custom_id=cid)


def first_choice(message: Any, prefer: tuple[str, ...] = ()) -> tuple[str, str, str | None]:
    """A simple policy: a preferred button if shown, else the first select's
    first option, else the first button."""
    ctl = controls(message)
    for word in prefer:
        for c in ctl:
            if c["type"] == 2 and c["custom_id"].split(":", 3)[3] == word:
                return ("click", c["custom_id"], None)
    for c in ctl:
        if c["type"] == 3:
            return ("select", c["custom_id"], c["options"][0]["value"])
    c = next(c for c in ctl if c["type"] == 2)
    return ("click", c["custom_id"], None)


async def play_out(
    env: simcord.Env,
    harness: Harness,
    message: Any,
    users: list[Any],
    policy: Any = first_choice,
    *,
    restart_at: int | None = None,
    limit: int = 600,
) -> int:
    """Play until no controls are left; restart the bot after ``restart_at``
    presses. Every press must be accepted (no ephemeral refusal)."""
    for step in range(limit):
        if not controls(message):
            return step
        if restart_at is not None and step == restart_at:
            await env.restart_bot(harness.bot())
        user = mover_of(message, users)
        res = await press(user, message, policy(message))
        assert res.response is None or not res.response.ephemeral, res.response.content
    raise AssertionError("the game did not end")


def snapshot(env: simcord.Env, message: Any) -> dict[str, Any]:
    """The message payload as a client shows it now (components included)."""
    import copy

    from simcord.backend import serializers

    stored = env.backend.get_message(message.channel_id, message.id)
    return copy.deepcopy(dict(serializers.message_payload(env.backend, stored)))


async def press_from_snapshot(user: Any, env: simcord.Env, old: dict[str, Any], cid: str) -> Any:
    """A press from a client still showing an older copy of the message: the
    second click of a double click, or a stale window. SimCord's public
    ``click`` only presses components that exist now, so this goes one level
    down and sends the old message payload, as Discord does."""
    from simcord.actors import _dispatch_actor_interaction
    from simcord.builders import ChannelHandle
    from simcord.enums import ComponentType, InteractionType

    channel_id = int(old["channel_id"])
    channel = ChannelHandle(env, user.guild, env.backend.get_channel(channel_id))
    return await _dispatch_actor_interaction(
        user,
        InteractionType.MESSAGE_COMPONENT,
        channel,
        {"custom_id": cid, "component_type": ComponentType.BUTTON},
        extra={"message": old},
        source_message_id=int(old["id"]),
    )
