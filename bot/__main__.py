"""``python -m bot`` / ``chabudai``: run the bot.

Reads ``DISCORD_TOKEN`` (required) and ``CHABUDAI_DB`` (a SQLite file, by
default ``data/chabudai.sqlite3``, or a ``postgresql://`` URL) from the
environment or a ``.env`` file.
``python -m bot sandbox`` runs it against a simulated Discord in a browser
(see :mod:`bot.sandbox`).
"""

from __future__ import annotations

import logging
import os
import sys

DEFAULT_DB = "data/chabudai.sqlite3"
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


def setup_logging(token: str) -> None:
    level = os.environ.get("CHABUDAI_LOG_LEVEL", "INFO").upper()
    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    handler.addFilter(_Redact([token]))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    logging.getLogger("discord.http").setLevel(logging.WARNING)
    # discord.py logs whole gateway events and webhook bodies at DEBUG — DM
    # interactions carry a player's hand: never below INFO, whatever the level
    for name in QUIET:
        logging.getLogger(name).setLevel(max(logging.INFO, logging.getLogger(name).level))


def main(argv: list[str] | None = None) -> int:
    """Start the bot; exit 2 without a token. ``sandbox`` plays it locally
    in a browser against a simulated Discord (no token needed)."""
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["sandbox"]:
        from bot.sandbox import main as sandbox_main

        return sandbox_main(args[1:])
    if args:
        sys.stderr.write("usage: python -m bot [sandbox [--db FILE|URL] [--port N]]\n")
        return 2
    from dotenv import load_dotenv

    load_dotenv()
    token = os.environ.get("DISCORD_TOKEN", "").strip()
    if not token:
        sys.stderr.write(NO_TOKEN)
        return 2
    setup_logging(token)
    from bot.app import create_bot
    from bot.storage import open_store
    from bot.store import is_postgres_url

    target = os.environ.get("CHABUDAI_DB", "").strip() or DEFAULT_DB
    # a URL may carry a password: name the server, not the credentials
    shown = target.split("@")[-1] if is_postgres_url(target) else target
    logging.getLogger("chabudai").info("database: %s", shown)
    bot = create_bot(open_store(target))
    bot.run(token, log_handler=None)
    return 0


if __name__ == "__main__":
    sys.exit(main())
