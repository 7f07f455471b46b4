"""The database core (docs/bot.md, "Storage"): :mod:`bot.db.core` (the
interface and what differs between backends), :mod:`bot.db.sqlite`,
:mod:`bot.db.postgres`, their schemas, and :mod:`bot.db.copy`. The queries
live with the concerns that own them, each in its ``repo.py``."""
