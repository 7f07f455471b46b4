"""Who plays whom: pairings, standings and tie-breaks of a tournament, as
pure functions of the players and the matches played so far.

Nothing here reads a clock, a database or Discord: the same players and the
same history give the same round, so a restarted bot, a second process or a
test pairs exactly as the first did (docs/tournaments.md).

Words used throughout:

* ``players`` — player ids, in *seed order* (the best rating first). For
  :func:`pair_round` only the *active* ones (a dropped or kicked player is
  left out); for :func:`standings` everyone to be listed.
* ``history`` — every :class:`Match` played so far, each round's matches in
  the order :func:`pair_round` returned them (store a table index; a
  knockout's bracket is read from round 1's order).
* a *table* is a tuple of player ids in seat order; a 1-tuple is a bye.
* ``table_size`` 2 is a two-player event (one opponent, a first move to
  balance, 1 / ½ / 0 points); 3 or more is an event of tables with place
  points (:func:`place_points`).

This module is the one callers import: :func:`pair_round` hands a round to
its format's module, and every public name is here. Beside it, one job a
module: :mod:`bot.tournament.rules` (the records and the rules every format
shares: points, byes, tie-breaks, table sizes, rounds, the history read
back), :mod:`bot.tournament.swiss` (two-player Swiss: the bye and the
matching), :mod:`bot.tournament.roundrobin` (the circle method),
:mod:`bot.tournament.knockout` (the bracket), :mod:`bot.tournament.tables`
(rounds of three or more seats) and :mod:`bot.tournament.standings`
(standings and the end).
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.tournament.knockout import _knockout_pairs, _knockout_tables, bracket, bracket_order
from bot.tournament.roundrobin import _circle
from bot.tournament.rules import (
    DRAW,
    FIRST,
    FORMATS,
    LAST,
    LOSS,
    MAX_ROUNDS,
    WIN,
    Match,
    Standing,
    Table,
    _check,
    bye,
    bye_points,
    knockout_winner,
    place_points,
    players_for,
    result_points,
    rounds_for,
    table_sizes,
    tiebreak_names,
    two_player,
)
from bot.tournament.standings import finished, standings
from bot.tournament.swiss import _swiss_pairs
from bot.tournament.tables import REACH, _mixing_tables, _standing_tables

__all__ = [
    "DRAW",
    "FIRST",
    "FORMATS",
    "LAST",
    "LOSS",
    "MAX_ROUNDS",
    "REACH",
    "WIN",
    "Match",
    "Standing",
    "Table",
    "bracket",
    "bracket_order",
    "bye",
    "bye_points",
    "finished",
    "knockout_winner",
    "pair_round",
    "place_points",
    "players_for",
    "result_points",
    "rounds_for",
    "standings",
    "table_sizes",
    "tiebreak_names",
    "two_player",
]


def pair_round(
    format: str,
    round_no: int,
    players: Sequence[int],
    history: Sequence[Match],
    *,
    table_size: int,
    min_seats: int,
    seed: int = 0,
) -> list[Table]:
    """The tables of round ``round_no``: each a tuple of player ids in seat
    order (two-player: the first seat moves first); a 1-tuple is a bye.

    ``players`` are the active players in seed order; ``history`` the
    matches so far (those of round ``round_no`` and later are ignored, so
    re-pairing a round gives the same tables). Returns ``[]`` when no table
    can be seated: fewer than two players (fewer than ``min_seats`` at
    tables), or a knockout already decided.

    Two-player Swiss — a minimum-cost perfect matching (Edmonds' blossom
    algorithm): the fewest rematches any pairing of the round has (none
    while one avoids them), then score groups, top half against bottom
    half; the bye first to the lowest-ranked player without one (higher up
    only if that has fewer rematches; nobody a second bye before everyone
    had one); the first move to whoever had it less often (then to whoever
    did not have it last). See :func:`_swiss_matching`.

    Round robin — the circle method over the round-1 players sorted by id
    (a fixed schedule: a restart, a re-pair or a dropped player never
    changes who meets whom). A dropped player's games become byes for the
    opponents they were due to meet. At tables: round 1 by seed snake (as
    below), then each round seats together the players who have met least
    (``seed`` orders equal choices).

    Knockout — round 1 in the standard bracket (seed 1 against the last,
    seeds 1 and 2 in opposite halves), the bracket filled to a power of two
    with byes for the top seeds; later rounds pair the winners of
    neighbouring matches (:func:`knockout_winner`); a winner who dropped
    gives the opponent a bye. Seats in seed order. The bracket is read from
    round 1's matches in ``history`` in their order, so round 1 must be there
    whole (byes included). At tables: each table's winner goes through and
    the winners are seated again by seed; a final short of ``min_seats`` is
    filled with the best of those out (latest out first).

    Tables (3+ seats) — :func:`table_sizes` tables; round 1 by seed snake
    (1, 2, 3 / 3, 2, 1 … across the tables), later rounds by standing: the
    best-placed player left heads each table, each further seat goes to
    whoever of the next :data:`REACH` tables' worth by standing has met that
    table least. Seat order gives the first seat to whoever sat early least
    often.
    """
    _check(format, table_size)
    if round_no < 1:
        raise ValueError(f"round {round_no}: rounds count from 1")
    if len(set(players)) != len(players):
        raise ValueError("a player is listed twice")
    past = [m for m in history if m.round < round_no]
    active = list(players)
    min_seats = max(2, min_seats)
    if two_player(table_size):
        if len(active) < 2:
            return []
        if format == "swiss":
            return _swiss_pairs(round_no, active, past)
        if format == "round-robin":
            return _circle(round_no, active, past)
        return _knockout_pairs(round_no, active, past)
    if len(active) < min_seats:
        return []
    if format == "knockout":
        return _knockout_tables(round_no, active, past, table_size, min_seats)
    if format == "round-robin":
        return _mixing_tables(round_no, active, past, table_size, min_seats, seed)
    return _standing_tables(round_no, active, past, table_size, min_seats)
