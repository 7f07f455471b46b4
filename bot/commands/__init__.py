"""Slash commands (cogs): ``/play`` and ``/game``, ``/leaderboard`` and
``/stats`` (:mod:`.tables`), ``/config``, ``/rules`` and ``/hint``."""
