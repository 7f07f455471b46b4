"""The SimCord plumbing under the bot tests' fixture layer (conftest.py):
a bot factory on one database file, the controls of a message, a press from
an older copy of a message, what a spectator sees, and catalogue sentences
as patterns (``says(text, "error.stale")``)."""

from __future__ import annotations

import copy
import re
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import simcord

from bot.app import ChabudaiBot, create_bot
from bot.db.schema_sqlite import MIGRATIONS
from bot.i18n import catalogue, fill_names
from bot.storage import open_store
from games.core import CARDS, ScriptedSource, SeededSource, Source

SEED = "test-seed-0123456789abcdef"

# ``@on_both_databases``: the test runs on SQLite and on PostgreSQL (see the
# ``backend`` fixture in conftest.py)
BACKENDS = [
    pytest.param("sqlite", id="sqlite"),
    pytest.param("postgres", id="postgres", marks=pytest.mark.postgres),
]
on_both_databases = pytest.mark.parametrize("backend", BACKENDS, indirect=True)
# ``@on_postgres``: what only PostgreSQL has (locks and notices across processes)
on_postgres = pytest.mark.parametrize("backend", BACKENDS[1:], indirect=True)


class Clock:
    def __init__(self) -> None:
        self.now = 1_700_000_000.0

    def __call__(self) -> float:
        return self.now


class Harness:
    """Builds bots that share one database (a file, or a PostgreSQL URL) and
    one scripted dice list (and decks); ``seeded``: real seeded dice and
    cards instead."""

    def __init__(
        self, path: Path | str, dice: list[int] | None = None, aux: list[int] | None = None
    ) -> None:
        self.path = path
        self.dice = list(dice or [])
        self.aux = list(aux or [])
        self.decks: list[list[str]] = []
        self.seeded = False
        self.clock: Any = Clock()
        self.bots: list[ChabudaiBot] = []
        self.games = 0
        self.vary = 0  # > 0: each new game starts that many faces further on

    def source(self, seed: str) -> Source:
        if self.seeded:
            return SeededSource(seed)
        start = self.games * self.vary
        self.games += 1
        dice = self.dice[start:] + self.dice[:start]
        return ScriptedSource(dice=dice, decks=self.decks, aux=self.aux)

    def bot(self) -> ChabudaiBot:
        bot = create_bot(
            open_store(self.path),
            clock=self.clock,
            seed_factory=lambda: SEED,
            source_factory=self.source,
        )
        self.bots.append(bot)
        return bot

    async def close(self) -> None:
        for bot in self.bots:
            await bot.tables.store.close()


# ------------------------------------------------------------- the catalogue


Key = str | tuple[str, ...]


def pattern(key: Key, lang: str = "en", /, **args: Any) -> re.Pattern[str]:
    """The catalogue text of ``key`` as a pattern: the placeholders given in
    ``args`` filled in (with their format, ``{points:+}``), the others
    matching anything on one line (and captured by name). A tuple of keys:
    those sentences one after the other (``"Reveal. Bluff called."``)."""
    keys = (key,) if isinstance(key, str) else key
    template = " ".join(_text(k, lang, args) for k in keys)
    # a command's or option's name ({cmd[game end]}) is the reader's words for it
    template = fill_names(template, lang)
    out, pos, seen = [], 0, set()
    for m in re.finditer(r"\{(\w+)(?::([^}]*))?\}", template):
        out.append(re.escape(template[pos : m.start()]))
        name, spec = m.group(1), m.group(2) or ""
        if name in args:
            out.append(re.escape(format(args[name], spec)))
        elif name in seen:
            out.append(rf"(?P={name})")
        else:  # a placeholder at the very end takes the rest of the line
            lazy = "" if m.end() == len(template) else "?"
            out.append(rf"(?P<{name}>[^\n]*{lazy})")
            seen.add(name)
        pos = m.end()
    out.append(re.escape(template[pos:]))
    return re.compile("".join(out))


def _text(key: str, lang: str, args: dict[str, Any]) -> str:
    """The template of ``key``; a plural key's variant for ``args["count"]``
    (``.other`` when no count is given)."""
    found = catalogue(lang)
    if key in found:
        return found[key]
    if args.get("count") == 1 and key + ".one" in found:
        return found[key + ".one"]
    return found[key + ".other"]


def says(text: str | None, key: Key, lang: str = "en", /, **args: Any) -> bool:
    """Whether ``text`` holds the catalogue sentence ``key`` (with ``args``)."""
    return bool(text) and pattern(key, lang, **args).search(text or "") is not None


def exactly(text: str | None, key: Key, lang: str = "en", /, **args: Any) -> bool:
    """Whether ``text`` is the catalogue sentence ``key`` and nothing else."""
    return text is not None and pattern(key, lang, **args).fullmatch(text) is not None


def readings(text: str | None, key: str, lang: str = "en", /, **args: Any) -> list[dict[str, str]]:
    """The placeholders of every line of ``text`` that is the sentence ``key``."""
    p = pattern(key, lang, **args)
    return [m.groupdict() for line in (text or "").splitlines() if (m := p.fullmatch(line))]


def reading(text: str | None, key: str, lang: str = "en", /, **args: Any) -> dict[str, str] | None:
    """The placeholders of the sentence ``key`` in ``text`` (``None``: not there)."""
    m = pattern(key, lang, **args).search(text or "")
    return m.groupdict() if m else None


# What an ephemeral answer to an accepted press never says.
REFUSALS = ("error.", "rule.", "config.bad", "lobby.host_only", "lobby.already_in")
REFUSALS += ("lobby.full", "lobby.too_few", "cpu.none")


def refusal(text: str | None) -> str | None:
    """The catalogue key of the refusal ``text`` says, if any."""
    # each language's own keys, every plural variant it has (English
    # ``.one`` and ``.other``, Japanese ``.other`` alone), named without it
    for lang in ("en", "ja"):
        for key in catalogue(lang):
            if key.startswith(REFUSALS) and says(text, key, lang):
                return key.removesuffix(".one").removesuffix(".other")
    return None


def accepted(res: Any) -> Any:
    """The press was accepted: no refusal (an answer only the presser sees is
    fine: their dice, their hand)."""
    assert res.response is None or not res.response.ephemeral or res.followups == [], (
        res.response.content
    )
    if res.response is not None and res.response.ephemeral:
        assert refusal(res.response.content) is None, res.response.content
    return res


def taken(res: Any) -> bool:
    """The press moved the table on: no answer for the presser alone."""
    return res.response is None or not res.response.ephemeral


def privately(res: Any, key: str, lang: str = "en", /, **args: Any) -> bool:
    """The press (or command) got an answer for the presser alone saying ``key``."""
    r = res.response
    return r is not None and r.ephemeral and says(r.content, key, lang, **args)


def refused(res: Any, key: str, lang: str = "en", /, **args: Any) -> bool:
    """The press (or command) was refused, for the presser alone, with ``key``."""
    assert key.startswith(REFUSALS), f"{key} is no refusal"
    return privately(res, key, lang, **args)


# -------------------------------------------------------------- components


def walk(components: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    for c in components or []:
        yield c
        yield from walk(c.get("components") or [])


def controls(message: Any) -> list[dict[str, Any]]:
    """Buttons (type 2) and selects (type 3) of a ResponseMessage."""
    return [c for c in walk(message.components) if c.get("type") in (2, 3)]


def table_controls(message: Any) -> list[dict[str, Any]]:
    """The table's own controls (``cb:``/``cs:``): none left once the game is
    over — a result message keeps only its own buttons (``cr:``)."""
    return [c for c in controls(message) if c["custom_id"].startswith(("cb:", "cs:"))]


TURN = re.compile(r"Turn: <@(\d+)>")


def mover_of(message: Any, users: list[Any]) -> Any:
    """The user an English table names as the one to move (for the bench)."""
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


# ------------------------------------------------------ older copies, spectators


def snapshot(env: simcord.Env, message: Any) -> dict[str, Any]:
    """The message payload as a client shows it now (components included)."""
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


def spectator_snapshot(env: simcord.Env, channel_id: int) -> list[tuple[Any, ...]]:
    """Every channel message as anyone without a seat sees it: text, custom
    ids, select options, and each attachment's alt text and bytes."""
    out = []
    for stored in sorted(env.backend.messages.get(channel_id, {}).values(), key=lambda m: m.id):
        if not stored.visible_to(None):
            continue
        files = []
        for a in stored.attachments:
            files.append((a.get("description"), env.backend.cdn.get(a["url"])))
        ids, options = [], []
        for c in walk(stored.components):
            if c.get("custom_id"):
                ids.append(c["custom_id"])
            for o in c.get("options") or []:
                options.append((o.get("value"), o.get("label")))
        out.append((stored.content, tuple(ids), tuple(options), tuple(files)))
    return out


CARD_WORDS = {
    c: (
        c,
        {"9": "9", "T": "10", "J": "J", "Q": "Q", "K": "K", "A": "A"}[c[0]]
        + "♠♥♦♣"["SHDC".index(c[1])],
    )
    for c in CARDS
}


def named_cards(text: str) -> set[str]:
    """The cards a text names, in notation (``QS``) or in words (``Q♠``)."""
    out = set()
    for card, (notation, sign) in CARD_WORDS.items():
        if re.search(rf"(?<![0-9A-Za-z]){re.escape(notation)}(?![0-9A-Za-z])", text):
            out.add(card)
        if re.search(rf"(?<![0-9]){re.escape(sign)}", text):
            out.add(card)
    return out


# ------------------------------------------------------------- old databases


def downgrade_to_v1(path: Any) -> None:
    """Make the database look like one written by the first release: every
    index, table and column that a later migration added, dropped."""
    with sqlite3.connect(path) as db:
        first = set(
            re.findall(r"CREATE (?:TABLE|INDEX) (\w+)", MIGRATIONS[0])
        ) | {"schema_version", "sqlite_sequence"}
        for kind, name in db.execute(
            "SELECT type, name FROM sqlite_master WHERE type IN ('table', 'index')"
            " AND name NOT LIKE 'sqlite_autoindex%'"
        ).fetchall():
            if name not in first:
                db.execute(f"DROP {kind.upper()} IF EXISTS {name}")  # its table's went with it
        for table in ("tables", "results", "result_players", "ratings", "guild_settings"):
            body = re.search(rf"CREATE TABLE {table} \((.*?)\n    \);", MIGRATIONS[0], re.S)
            assert body, table
            columns = {line.split()[0] for line in body.group(1).splitlines() if line.strip()}
            for (name,) in db.execute(f"SELECT name FROM pragma_table_info('{table}')"):
                if name not in columns:
                    db.execute(f"ALTER TABLE {table} DROP COLUMN {name}")
        db.execute("DELETE FROM schema_version WHERE version > 1")
