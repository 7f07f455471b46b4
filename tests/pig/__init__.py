"""Pig — a sixth game that lives only under tests/, to prove that a game is
added without touching bot/: its engine (:mod:`pig.engine`), its AI
(:mod:`pig.ai`), its spec (:mod:`pig.spec`), its bot plugin
(:mod:`pig.plugin`) and its catalogue entries (:mod:`pig.words`).

Rules: 2–6 players take turns rolling one die, adding the faces to their turn
total; a 1 loses the turn total and ends the turn; "hold" banks it. The first
to reach the target (100) wins.

:func:`install` registers it (the game registry and the catalogues);
:func:`uninstall` takes it away again.
"""

from __future__ import annotations

from bot import games as plugins
from bot.i18n import add_entries, remove_entries
from games import registry
from pig.spec import SPEC
from pig.words import WORDS


def install() -> None:
    registry.register(SPEC)
    for lang, entries in WORDS.items():
        add_entries(lang, entries)


def uninstall() -> None:
    registry.unregister(SPEC.name)
    plugins.forget(SPEC.name)
    for lang, entries in WORDS.items():
        remove_entries(lang, entries)
