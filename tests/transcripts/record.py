"""The recorder of a golden transcript: everything the bot says in a SimCord
run, and everything the people there do, as text a diff can be read in.

It listens at SimCord's backend, under the bot: every message the bot makes,
edits or deletes (channel messages, threads, DMs, answers only one person
sees) and every interaction a person sends (a slash command, a press, a
choice). Each event is a block::

    alice › /play game:nine
    #nine-1 · bot → #m1
      Nine — a table for 2 …
      [Join · success] [Leave] [Start · primary, disabled]
      picture: table.png — alt: "…"
    alice ⟶ press [Start] on #m1
    #nine-1 · bot → #m1 (edit 1)
      …
    #nine-1 · ephemeral → bob · #m2
      …

What changes from run to run, or means nothing to a reader, is named
instead: snowflakes become the names of what they stand for (``@alice``,
``#nine-1``, ``#m3``; anything else ``<id1>``), Discord timestamps are
given relative to the scene's start (``<t:T+30m:R>``), command mentions
lose their ids (``</play>``), custom ids are never printed (a control is its
label, emoji and style). An edit that changes nothing a reader sees is left
out; an edit that does prints the whole new state of the message.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from copy import deepcopy
from datetime import datetime
from types import SimpleNamespace
from typing import Any

BUTTON_STYLES = {1: "primary", 2: "", 3: "success", 4: "danger", 5: "link", 6: "premium"}
EPHEMERAL = 1 << 6
LOADING = 1 << 7

SNOWFLAKE = re.compile(r"(?<![0-9])[0-9]{15,21}(?![0-9])")
USER = re.compile(r"<@!?([0-9]+)>")
ROLE = re.compile(r"<@&([0-9]+)>")
CHANNEL = re.compile(r"<#([0-9]+)>")
COMMAND = re.compile(r"</([^:>]+):[0-9]+>")
STAMP = re.compile(r"<t:(-?[0-9]+)(?::([tTdDfFR]))?>")


def span(seconds: float) -> str:
    """``T+0s``, ``T+45s``, ``T+30m``, ``T+1h2m5s``, ``T-10s``."""
    sign = "+" if seconds >= 0 else "-"
    left = int(round(abs(seconds)))
    h, rest = divmod(left, 3600)
    m, s = divmod(rest, 60)
    parts = [f"{h}h" if h else "", f"{m}m" if m else "", f"{s}s" if s or not left else ""]
    return f"T{sign}{''.join(parts)}"


class Recorder:
    """Listens to one SimCord env; ``text()`` is the transcript so far."""

    def __init__(self, env: Any, *, start: datetime | None = None) -> None:
        self.env = env
        self.backend = env.backend
        self.start = (start or env.now()).timestamp()
        self.lines: list[str] = []
        self.names: dict[int, str] = {}  # snowflake → what a reader calls it
        self.others = 0
        self.shown: dict[int, str] = {}  # message id → its body as last printed
        self.edits: dict[int, int] = {}
        self.messages = 0
        self.pending: list[tuple[Any, bool]] = []  # the step's messages, to print

    # ------------------------------------------------------------ listening

    def attach(self) -> None:
        """Wrap the backend's message operations and listen for interactions."""
        backend = self.backend
        commit, edit, delete = backend.commit_message, backend.edit_message, backend.delete_message
        bulk = backend.bulk_delete_messages

        def commit_message(message: Any, **kwargs: Any) -> Any:
            stored = commit(message, **kwargs)
            if backend.messages.get(stored.channel_id, {}).get(stored.id) is stored:
                self.later(stored)
            return stored

        def edit_message(channel_id: int, message_id: int, fields: dict[str, Any]) -> Any:
            stored = edit(channel_id, message_id, fields)
            self.later(stored)
            return stored

        def delete_message(channel_id: int, message_id: int) -> None:
            stored = backend.messages.get(channel_id, {}).get(message_id)
            delete(channel_id, message_id)
            if stored is not None:
                self.later(stored, deleted=True)

        def bulk_delete_messages(channel_id: int, message_ids: Iterable[int]) -> list[int]:
            ids = list(message_ids)
            before = {i: backend.messages.get(channel_id, {}).get(i) for i in ids}
            gone = bulk(channel_id, ids)
            for message_id in gone:
                if before.get(message_id) is not None:
                    self.later(before[message_id], deleted=True)
            return gone

        backend.commit_message = commit_message
        backend.edit_message = edit_message
        backend.delete_message = delete_message
        backend.bulk_delete_messages = bulk_delete_messages
        backend.subscribers.insert(0, self.event)

    def event(self, name: str, payload: Any) -> None:
        if name == "INTERACTION_CREATE":
            self.interaction(payload)

    # -------------------------------------------------------------- writing

    def later(self, stored: Any, *, deleted: bool = False) -> None:
        """Keep what a message looks like now, to print at the end of the step."""
        copy = SimpleNamespace(
            id=stored.id,
            channel_id=stored.channel_id,
            author_id=stored.author_id,
            flags=stored.flags,
            content=stored.content,
            embeds=deepcopy(stored.embeds),
            components=deepcopy(stored.components),
            attachments=deepcopy(stored.attachments),
            interaction_metadata=deepcopy(stored.interaction_metadata),
        )
        self.pending.append((copy, deleted))

    def flush(self) -> None:
        """Print the step's messages: what one action (or the clock) set off.

        The bot does some of it at once (a computer's move at one table, the
        standings of the event, the answer to the press), so their order
        from run to run is not fixed; the order within one conversation (a
        channel, a thread, a DM, what one person alone sees there) is. The
        step is printed conversation by conversation, in the order of their
        names, each in its own order; an answer's "thinking…" is left out
        when the answer came in the same step."""
        pending, self.pending = self.pending, []
        # "thinking…" shows only when an answer takes a while (how long, varies):
        # a deferred answer is printed once it is there
        last = {m.id: n for n, (m, _gone) in enumerate(pending)}
        pending = [
            (m, gone)
            for n, (m, gone) in enumerate(pending)
            if not (m.flags & LOADING and not gone and last[m.id] > n)
        ]
        keyed = [(self.conversation(m), n, m, gone) for n, (m, gone) in enumerate(pending)]
        for _key, _n, message, gone in sorted(keyed, key=lambda k: (k[0], k[1])):
            if gone:
                self.deleted(message)
            else:
                self.message(message)

    def conversation(self, stored: Any) -> str:
        where = self.where(stored.channel_id)
        if stored.flags & EPHEMERAL:
            to = ((stored.interaction_metadata or {}).get("user") or {}).get("id")
            return f"{where} · {self.name(int(to)) if to else '?'}"
        return where

    def note(self, text: str) -> None:
        """A line of the script's own (a scene's heading), not the bot's words."""
        self.flush()
        self.lines.append("")
        self.lines.append(f"== {text}")

    def text(self) -> str:
        self.flush()
        return "\n".join(self.lines).strip("\n") + "\n"

    def interaction(self, payload: dict[str, Any]) -> None:
        user = (payload.get("member") or {}).get("user") or payload.get("user") or {}
        who = self.name(int(user["id"])) if user.get("id") else "someone"
        data = payload.get("data") or {}
        kind = payload.get("type")
        if kind == 2:  # a slash command
            words = [f"/{data.get('name', '?')}"]
            words += self.options(data.get("options") or [])
            line = f"{who} › {' '.join(words)}"
        elif kind == 3:  # a press or a choice
            message = payload.get("message") or {}
            where = self.message_name(int(message["id"])) if message.get("id") else "?"
            control = self.control(message.get("components") or [], data.get("custom_id", ""))
            if data.get("values") is not None:
                chosen = [self.option(control, v) for v in data["values"]]
                label = self.clean(str(control.get("placeholder") or "select")) if control else "?"
                line = f"{who} ⟶ choose {', '.join(chosen)} in [{label}] on {where}"
            else:
                line = f"{who} ⟶ press {self.button(control) if control else '[?]'} on {where}"
        elif kind == 5:
            line = f"{who} ⟶ submit a form"
        else:
            return
        self.flush()
        self.lines.append("")
        self.lines.append(line)

    def options(self, options: list[dict[str, Any]]) -> list[str]:
        words = []
        for o in options:
            if o.get("type") in (1, 2):  # a subcommand (group)
                words.append(str(o["name"]))
                words += self.options(o.get("options") or [])
            else:
                value = o.get("value")
                if o.get("type") in (6, 7, 8, 9) and value is not None:  # user, channel, role
                    value = self.name(int(value))
                words.append(f"{o['name']}:{self.clean(str(value))}")
        return words

    def control(self, rows: list[dict[str, Any]], custom_id: str) -> dict[str, Any] | None:
        for row in rows:
            for c in [row, *(row.get("components") or [])]:
                if c.get("custom_id") == custom_id:
                    return c
        return None

    def option(self, select: dict[str, Any] | None, value: str) -> str:
        for o in (select or {}).get("options") or []:
            if o.get("value") == value:
                return f'"{self.clean(str(o.get("label", value)))}"'
        return f'"{self.clean(value)}"'

    def message(self, stored: Any) -> None:
        body = self.body(stored)
        seen = self.shown.get(stored.id)
        if seen == body:
            return
        if seen is None:
            suffix = ""
        else:
            self.edits[stored.id] = self.edits.get(stored.id, 0) + 1
            suffix = f" (edit {self.edits[stored.id]})"
        self.shown[stored.id] = body
        self.lines.append(f"{self.header(stored)}{suffix}")
        self.lines.extend(body.splitlines())

    def deleted(self, stored: Any) -> None:
        if stored.id not in self.shown:
            return
        self.lines.append(f"{self.where(stored.channel_id)} · {self.message_name(stored.id)} deleted")

    # ------------------------------------------------------------- a message

    def header(self, stored: Any) -> str:
        name = self.message_name(stored.id)
        where = self.where(stored.channel_id)
        author = "bot" if stored.author_id == self.backend.bot_user.id else self.name(stored.author_id)
        if stored.flags & EPHEMERAL:
            meta = stored.interaction_metadata or {}
            to = (meta.get("user") or {}).get("id")
            reader = self.name(int(to)) if to else "?"
            return f"{where} · ephemeral → {reader} · {name}"
        return f"{where} · {author} → {name}"

    def body(self, stored: Any) -> str:
        lines: list[str] = []
        if stored.flags & LOADING:
            lines.append("(thinking…)")
        if stored.content:
            lines.extend(self.clean(stored.content).splitlines() or [""])
        for embed in stored.embeds or []:
            lines.extend(self.embed(embed))
        for row in stored.components or []:
            lines.extend(self.row(row))
        for a in stored.attachments or []:
            lines.append(self.attachment(a))
        return "\n".join("  " + line if line else "" for line in lines)

    def embed(self, embed: dict[str, Any]) -> list[str]:
        out = []
        if (embed.get("author") or {}).get("name"):
            out.append(f"embed author: {self.clean(embed['author']['name'])}")
        if embed.get("title"):
            out.append(f"embed title: {self.clean(embed['title'])}")
        if embed.get("description"):
            out.append("embed description:")
            out.extend("  " + line for line in self.clean(embed["description"]).splitlines())
        for f in embed.get("fields") or []:
            out.append(f"embed field: {self.clean(f.get('name', ''))}")
            out.extend("  " + line for line in self.clean(f.get("value", "")).splitlines())
        for part in ("image", "thumbnail"):
            if (embed.get(part) or {}).get("url"):
                out.append(f"embed {part}: {self.clean(embed[part]['url'])}")
        if (embed.get("footer") or {}).get("text"):
            out.append(f"embed footer: {self.clean(embed['footer']['text'])}")
        return out

    def row(self, row: dict[str, Any]) -> list[str]:
        children = row.get("components") or [] if row.get("type") == 1 else [row]
        buttons = [self.button(c) for c in children if c.get("type") == 2]
        out = [" ".join(buttons)] if buttons else []
        for c in children:
            if c.get("type") in (3, 5, 6, 7, 8):
                label = self.clean(str(c.get("placeholder") or "select"))
                flags = ", disabled" if c.get("disabled") else ""
                out.append(f"[select: {label}{flags}]")
                for o in c.get("options") or []:
                    text = f"  · {self.clean(str(o.get('label', '')))}"
                    if (o.get("emoji") or {}).get("name"):
                        text = f"  · {o['emoji']['name']} {text[4:]}"
                    if o.get("description"):
                        text += f" — {self.clean(o['description'])}"
                    if o.get("default"):
                        text += " (chosen)"
                    out.append(text)
            elif c.get("type") not in (2, 3, 5, 6, 7, 8):
                out.append(f"[component of type {c.get('type')}]")
        return out

    def button(self, c: dict[str, Any]) -> str:
        words = []
        if (c.get("emoji") or {}).get("name"):
            words.append(str(c["emoji"]["name"]))
        if c.get("label"):
            words.append(self.clean(str(c["label"])))
        text = " ".join(words) or "?"
        style = BUTTON_STYLES.get(int(c.get("style") or 2), str(c.get("style")))
        if style == "link":
            text += f" → {self.clean(str(c.get('url', '')))}"
        marks = [m for m in (style, "disabled" if c.get("disabled") else "") if m]
        return f"[{text}{' · ' + ', '.join(marks) if marks else ''}]"

    def attachment(self, a: dict[str, Any]) -> str:
        name = str(a.get("filename", "?"))
        alt = a.get("description")
        kind = "picture" if name.lower().endswith((".png", ".jpg", ".gif", ".webp")) else "file"
        return f'{kind}: {name}' + (f' — alt: "{self.clean(str(alt))}"' if alt else "")

    # --------------------------------------------------------------- naming

    def where(self, channel_id: int) -> str:
        channel = self.backend.channels.get(channel_id)
        if channel is None:
            return f"#{self.name(channel_id)}"
        if channel.type in (1, 3):  # a DM
            people = [self.name(u) for u in channel.recipient_ids if u != self.backend.bot_user.id]
            return f"DM {', '.join(people) or '?'}"
        if channel.is_thread and channel.parent_id is not None:
            return f"{self.where(channel.parent_id)} › {self.clean(channel.name or '')}"
        return f"#{channel.name}"

    def message_name(self, message_id: int) -> str:
        if message_id not in self.names:
            self.messages += 1
            self.names[message_id] = f"#m{self.messages}"
        return self.names[message_id]

    def name(self, snowflake: int) -> str:
        """What a reader calls ``snowflake``: a user's, channel's, role's or
        server's name, a message's number, else a stable placeholder."""
        if snowflake in self.names:
            return self.names[snowflake]
        backend = self.backend
        found: str | None = None
        if snowflake == backend.bot_user.id:
            found = "bot"
        elif snowflake in backend.users:
            found = backend.users[snowflake].name
        elif snowflake in backend.channels:
            found = backend.channels[snowflake].name or "channel"
        elif snowflake in backend.guilds:
            found = "server"
        else:
            for guild in backend.guilds.values():
                role = guild.roles.get(snowflake) if hasattr(guild, "roles") else None
                if role is not None:
                    found = f"&{role.name}"
                    break
        if found is None:
            if any(snowflake in msgs for msgs in backend.messages.values()):
                return self.message_name(snowflake)
            self.others += 1
            found = f"<id{self.others}>"
        self.names[snowflake] = found
        return found

    def clean(self, text: str) -> str:
        """``text`` with every volatile id and time named."""
        text = USER.sub(lambda m: "@" + self.name(int(m.group(1))), text)
        text = ROLE.sub(lambda m: "@" + self.name(int(m.group(1))).lstrip("&"), text)
        text = CHANNEL.sub(lambda m: "#" + self.name(int(m.group(1))), text)
        text = COMMAND.sub(lambda m: f"</{m.group(1)}>", text)
        text = STAMP.sub(self.stamp, text)
        return SNOWFLAKE.sub(lambda m: self.name(int(m.group(0))), text)

    def stamp(self, m: re.Match[str]) -> str:
        style = f":{m.group(2)}" if m.group(2) else ""
        return f"<t:{span(int(m.group(1)) - self.start)}{style}>"
