"""``python -m bot`` / ``chabudai``: run the bot.

Reads ``DISCORD_TOKEN`` (required) and ``CHABUDAI_DB`` (a SQLite file, by
default ``data/chabudai.sqlite3``, or a ``postgresql://`` URL) from the
environment or a ``.env`` file.
``CHABUDAI_SHARDS`` (``0-3/8``: these shard ids of this many) makes it hold
only those Discord shards, so several processes can share the servers;
unset, one process holds them all. ``python -m bot sandbox`` runs it against
a simulated Discord in a browser (see :mod:`bot.sandbox`).

Operations (no token needed): ``python -m bot migrate [--db FILE|URL]``
brings the database's schema up to date (the deploy step; the bot also
migrates at start unless started ``--no-migrate``, which refuses a database
whose schema is older than the code); ``python -m bot copy-db SRC DST`` copies
a whole database into an empty one, SQLite or PostgreSQL either way, ids and
versions kept so the buttons already posted keep working;
``python -m bot healthcheck`` asks the running bot's ``/healthz`` (the
container's healthcheck). ``python -m bot sync`` (a token needed) syncs the
slash commands now; at start they are synced only when they changed.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import logging
import os
import sys
from typing import IO, TYPE_CHECKING

if TYPE_CHECKING:
    import discord

    from bot.deploy import Shards

DEFAULT_DB = "data/chabudai.sqlite3"
HEALTH_TIMEOUT = 5.0  # seconds ``python -m bot healthcheck`` waits for /healthz
QUIET = ("discord.gateway", "discord.webhook", "discord.state", "discord.client")

NO_TOKEN = """\
chabudai: DISCORD_TOKEN is not set.

Create a bot at https://discord.com/developers/applications (New Application →
Bot → Reset Token), copy its token, and put it in the environment or in a .env
file next to where you run the bot:

    DISCORD_TOKEN=your-token-here

Then invite the bot with the "bot" and "applications.commands" scopes
(OAuth2 → URL Generator) and run `python -m bot` again.
"""


class _Process(logging.Filter):
    """Every log line says which process and which shards wrote it
    (``pid=1234 shards=0-3/8``): several processes share one log."""

    def __init__(self, shards: str) -> None:
        super().__init__()
        self.shards = shards

    def filter(self, record: logging.LogRecord) -> bool:
        record.shards = self.shards
        return True


FORMAT = "%(asctime)s %(levelname)s pid=%(process)d shards=%(shards)s %(name)s: %(message)s"


class _Redact(logging.Filter):
    """Never let a token reach a log line, whatever logs it."""

    def __init__(self, secrets: list[str]) -> None:
        super().__init__()
        self.secrets = [s for s in secrets if s]

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if any(s in message for s in self.secrets):
            for s in self.secrets:
                message = message.replace(s, "[redacted]")
            record.msg, record.args = message, None
        return True


def setup_logging(token: str, shards: str = "all", stream: IO[str] | None = None) -> None:
    """The root logger: one line per record on ``stream`` (standard error),
    each naming the process and its shards, never a token."""
    level = os.environ.get("CHABUDAI_LOG_LEVEL", "INFO").upper()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(logging.Formatter(FORMAT))
    handler.addFilter(_Process(shards))
    handler.addFilter(_Redact([token]))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    logging.getLogger("discord.http").setLevel(logging.WARNING)
    # discord.py logs whole gateway events and webhook bodies at DEBUG — DM
    # interactions carry a player's hand: never below INFO, whatever the level
    for name in QUIET:
        logging.getLogger(name).setLevel(max(logging.INFO, logging.getLogger(name).level))


USAGE = (
    "usage: python -m bot [--no-migrate]\n"
    "       python -m bot sandbox [--db FILE|URL] [--port N]\n"
    "       python -m bot migrate [--db FILE|URL]\n"
    "       python -m bot copy-db SRC DST\n"
    "       python -m bot sync [--db FILE|URL]\n"
    "       python -m bot healthcheck\n"
)


def shown(target: str) -> str:
    """A database as a log line names it: a URL may carry a password, so
    the server, not the credentials."""
    from bot.db.core import is_postgres_url

    return target.split("@")[-1] if is_postgres_url(target) else target


def configured_db() -> str:
    """``CHABUDAI_DB`` (environment or ``.env``), else the default file."""
    from dotenv import load_dotenv

    load_dotenv()
    return os.environ.get("CHABUDAI_DB", "").strip() or DEFAULT_DB


async def _migrate(target: str) -> int:
    from bot.storage import open_store

    store = open_store(target)
    await store.open()  # migrates, under the schema lock
    try:
        return await store.schema_version()
    finally:
        await store.close()


def migrate_main(args: list[str]) -> int:
    """``python -m bot migrate``: bring the schema up to date, print its version."""
    import sqlite3

    parser = argparse.ArgumentParser(
        prog="python -m bot migrate",
        description="Apply the database migrations (the bot's deploy step) and exit.",
    )
    parser.add_argument("--db", help="a SQLite file or a postgresql:// URL (default: CHABUDAI_DB)")
    opts = parser.parse_args(args)
    target = opts.db or configured_db()
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    try:
        version = asyncio.run(_migrate(target))
    except (sqlite3.Error, OSError) as err:
        sys.stderr.write(f"chabudai: cannot migrate {shown(target)}: {err}\n")
        return 1
    print(f"chabudai: {shown(target)} is at schema version {version}")
    return 0


async def _copy(source: str, destination: str) -> dict[str, int]:
    from bot.storage import open_store

    src = open_store(source)
    await src.open()
    try:
        dst = open_store(destination)
        await dst.open()
        try:
            return await dst.import_rows(await src.export_rows())
        finally:
            await dst.close()
    finally:
        await src.close()


def copy_main(args: list[str]) -> int:
    """``python -m bot copy-db SRC DST``: every row of SRC into the empty DST."""
    import sqlite3

    from bot.db.core import NotEmpty

    parser = argparse.ArgumentParser(
        prog="python -m bot copy-db",
        description=(
            "Copy a whole chabudai database (SQLite file or postgresql:// URL) into an"
            " empty one, keeping table ids and versions. Stop the bot first."
        ),
    )
    parser.add_argument("source", metavar="SRC", help="the database to copy")
    parser.add_argument("destination", metavar="DST", help="an empty (or new) database")
    opts = parser.parse_args(args)
    if opts.source == opts.destination:
        sys.stderr.write("chabudai: SRC and DST are the same database\n")
        return 2
    try:
        counts = asyncio.run(_copy(opts.source, opts.destination))
    except NotEmpty as err:
        sys.stderr.write(f"chabudai: will not copy into {shown(opts.destination)}: {err}\n")
        return 2
    except (sqlite3.Error, OSError) as err:
        sys.stderr.write(f"chabudai: copy failed, nothing written: {err}\n")
        return 1
    moved = ", ".join(f"{n} {name}" for name, n in counts.items())
    print(f"chabudai: copied {shown(opts.source)} to {shown(opts.destination)}: {moved}")
    return 0


def sync_main(args: list[str]) -> int:
    """``python -m bot sync``: log in, sync the slash commands to Discord
    whatever the stored hash says (and store the new one), exit. Plays no
    game: no turn clocks, no computer players, no gateway connection."""
    import sqlite3

    import discord

    parser = argparse.ArgumentParser(
        prog="python -m bot sync",
        description=(
            "Sync the slash commands to Discord now (the bot syncs them at start"
            " only when they changed). Needs DISCORD_TOKEN."
        ),
    )
    parser.add_argument("--db", help="a SQLite file or a postgresql:// URL (default: CHABUDAI_DB)")
    opts = parser.parse_args(args)
    target = opts.db or configured_db()
    token = os.environ.get("DISCORD_TOKEN", "").strip()
    if not token:
        sys.stderr.write(NO_TOKEN)
        return 2
    setup_logging(token)
    from bot.app import create_bot
    from bot.storage import open_store

    bot = create_bot(open_store(target), sync_commands="only")
    try:
        asyncio.run(run_sync(bot, token))
    except discord.LoginFailure:
        sys.stderr.write("chabudai: Discord refused the token (DISCORD_TOKEN)\n")
        return 1
    except (discord.HTTPException, sqlite3.Error, OSError) as err:
        sys.stderr.write(f"chabudai: sync failed: {err}\n")
        return 1
    print("chabudai: slash commands synced")
    return 0


async def run_sync(bot: discord.Client, token: str) -> None:
    """Log ``bot`` in (its ``setup_hook`` syncs: ``sync_commands="only"``)
    and close it."""
    async with bot:
        await bot.login(token)


def healthcheck_main(args: list[str]) -> int:
    """``python -m bot healthcheck``: 0 when the bot's ``/healthz`` (where
    ``CHABUDAI_HTTP`` or ``CHABUDAI_METRICS_PORT`` says, asked on this
    machine) answers ``200``, else 1 with the reason — a container's
    ``HEALTHCHECK`` (the slim image has no curl: Python's urllib)."""
    import urllib.error
    import urllib.request

    from bot.deploy import configured_address

    if args:
        sys.stderr.write(USAGE)
        return 2
    try:
        where = configured_address()
    except ValueError as err:
        sys.stderr.write(f"chabudai: {err}\n")
        return 2
    if where is None:
        sys.stderr.write("chabudai: /healthz is off (set CHABUDAI_HTTP or CHABUDAI_METRICS_PORT)\n")
        return 1
    host, port = where
    if host in ("0.0.0.0", "::", ""):  # every interface: ask the loopback one
        host = "127.0.0.1" if host != "::" else "::1"
    url = f"http://{'[' + host + ']' if ':' in host else host}:{port}/healthz"
    try:
        with urllib.request.urlopen(url, timeout=HEALTH_TIMEOUT) as res:
            print(f"chabudai: {res.read().decode(errors='replace').strip()}")
            return 0
    except urllib.error.HTTPError as err:  # 503: what is wrong
        reason = err.read().decode(errors="replace").strip()
        sys.stderr.write(f"chabudai: unhealthy ({err.code}): {reason}\n")
    except (urllib.error.URLError, OSError) as err:
        sys.stderr.write(f"chabudai: no answer from {url}: {err}\n")
    return 1


def configured_activity() -> tuple[str, str] | None:
    """``CHABUDAI_ACTIVITY`` and the OAuth2 client (environment or ``.env``); ``ValueError``."""
    from dotenv import load_dotenv

    from bot.deploy import configured_activity as read

    load_dotenv()
    return read()


def configured_shards() -> Shards | None:
    """``CHABUDAI_SHARDS`` (environment or ``.env``) parsed; ``ValueError``."""
    from dotenv import load_dotenv

    from bot.deploy import configured_shards as parse

    load_dotenv()
    return parse()


async def _schema_problem(target: str) -> str | None:
    """Why the bot may not start on ``target`` without migrating (``None``: it may)."""
    import sqlite3

    from bot.db.core import SchemaBehind
    from bot.storage import open_store

    store = open_store(target, migrate=False)
    try:
        await store.open()
    except SchemaBehind as err:
        return f"chabudai: not starting (--no-migrate): {err}\n"
    except (sqlite3.Error, OSError) as err:
        return f"chabudai: cannot open {shown(target)}: {err}\n"
    await store.close()
    return None


def main(argv: list[str] | None = None) -> int:
    """Start the bot; exit 2 without a token. ``sandbox`` plays it locally
    in a browser against a simulated Discord (no token needed); ``migrate``
    and ``copy-db`` are operations on the database (no token either)."""
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["sandbox"]:
        from bot.sandbox import main as sandbox_main

        return sandbox_main(args[1:])
    if args[:1] == ["migrate"]:
        return migrate_main(args[1:])
    if args[:1] == ["copy-db"]:
        return copy_main(args[1:])
    if args[:1] == ["sync"]:
        return sync_main(args[1:])
    if args[:1] == ["healthcheck"]:
        return healthcheck_main(args[1:])
    migrate = args != ["--no-migrate"]
    if args and migrate:
        sys.stderr.write(USAGE)
        return 2
    target = configured_db()
    token = os.environ.get("DISCORD_TOKEN", "").strip()
    if not token:
        sys.stderr.write(NO_TOKEN)
        return 2
    try:
        shards = configured_shards()
        activity = configured_activity()
    except ValueError as err:
        sys.stderr.write(f"chabudai: {err}\n")
        return 2
    from bot.deploy import shards_label

    setup_logging(token, shards_label(shards))
    from bot.app import create_bot
    from bot.storage import open_store

    if not migrate:
        problem = asyncio.run(_schema_problem(target))
        if problem is not None:
            sys.stderr.write(problem)
            return 2
    logging.getLogger("chabudai").info("database: %s", shown(target))
    if shards is not None:
        logging.getLogger("chabudai").info(
            "shards: %s (%d of %d)", shards, len(shards.ids), shards.count
        )
    served = {"activity": activity} if activity is not None else {}  # CHABUDAI_ACTIVITY
    bot = create_bot(open_store(target, migrate=migrate), shards=shards, **served)
    tune_gc()
    tune_malloc()
    bot.run(token, log_handler=None)
    return 0


GC_YOUNG = 20_000  # new container objects between collections of the youngest (Python: 700)


def tune_gc() -> None:
    """The garbage collector for a long-running bot: what is loaded at start
    (modules, fonts, the games' tables) is kept out of every later
    collection (``gc.freeze``), and the youngest objects are collected every
    :data:`GC_YOUNG` new ones, not every 700 — a press makes thousands of
    short-lived objects (JSON, payloads), freed by their reference counts
    long before a collection; the rare cycles wait a little longer. Measured
    in bench/scale.py: collections took ~1.2 ms of CPU a press, ~0.6 with
    this (issue 25)."""
    gc.freeze()
    gc.set_threshold(GC_YOUNG, 10, 10)


# glibc's allocator (docs/operations.md, "Memory"): pictures are drawn on worker
# threads, and each thread allocating got an arena of its own (8 a core), each
# keeping the megabytes a picture freed; and a freed large block raised the size
# under which blocks come from those arenas instead of being mapped and given back
MALLOC_ARENAS = 2  # arenas at most (the event loop's and the drawing threads')
MMAP_THRESHOLD = 128 << 10  # bytes: a block this large is mapped, given back when freed
_M_MMAP_THRESHOLD, _M_ARENA_MAX = -3, -8  # mallopt's parameters (malloc.h)


def tune_malloc() -> bool:
    """Cap glibc's malloc arenas (:data:`MALLOC_ARENAS`) and fix its mmap
    threshold (:data:`MMAP_THRESHOLD`) before the bot starts its threads.
    Measured in bench/scale.py (sqlite1): RSS max 213 → 180 MB with the
    arenas capped alone. ``False`` where the C library is not glibc."""
    import ctypes
    import ctypes.util

    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        mallopt = libc.mallopt
    except (OSError, AttributeError):
        return False
    return bool(mallopt(_M_ARENA_MAX, MALLOC_ARENAS)) and bool(
        mallopt(_M_MMAP_THRESHOLD, MMAP_THRESHOLD)
    )


if __name__ == "__main__":
    sys.exit(main())
