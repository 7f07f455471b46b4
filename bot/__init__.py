"""chabudai's Discord application (discord.py): the only layer with I/O.

- :mod:`bot.app` builds the bot (``create_bot``), shared by ``python -m bot``,
  the tests and a sandbox.
- :mod:`bot.storage` is the store: the database core (:mod:`bot.db`: SQLite
  or PostgreSQL, numbered migrations) and one repository per concern, each
  a ``repo.py`` beside the code that owns it; all SQL lives there.
- :mod:`bot.tables.service` is the one path every change goes through: load →
  check → apply → commit → present; :mod:`bot.presses` interprets a press or
  a ``/game`` command, :mod:`bot.lobby` opens and seats tables.
- :mod:`bot.ui` holds slash commands, components and one small module per game
  mapping a view and the legal moves to buttons and selects.
- :mod:`bot.i18n` holds every user-facing string (``en`` and ``ja``).
- :mod:`bot.render` draws the pictures (Pillow), pure functions of views.
"""
