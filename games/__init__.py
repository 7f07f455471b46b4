"""chabudai's game rules: pure engines, no I/O, no discord, no Pillow.

Each game is a package (``games.sixdice``, ``games.bluff``, ``games.nine``,
``games.yahtzee``, ``games.sixtysix``) that follows the engine contract of
:mod:`games.core` and states its facts in a spec (:mod:`games.registry`).
"""
