"""Turn clocks as data: how long a turn or a lobby lasts, and the deadline a
table gets when it is saved.

Every table has at most one deadline (``tables.deadline``, unix seconds): a
lobby expires after :data:`LOBBY_IDLE` seconds without a change; a game
gives the player to move :func:`turn_seconds` (server setting
``clock.<game>``, else the game's own default) from the last move. The
bookkeeping (whose clock, warned or not, timeouts in a row per player) lives
in ``tables.clock`` next to the deadline. The sweeper that fires deadlines is
a follower (:mod:`bot.followers.clock`).
"""

from __future__ import annotations

from typing import Any

from bot.model import is_cpu
from bot.storage import Store
from bot.tables.rows import TableRow
from games import registry

LOBBY_IDLE = 600  # seconds a lobby may sit without a change
WARN_BEFORE = 20  # seconds left when the player is warned
MAX_TIMEOUTS = 3  # timeouts in a row that remove a player
MIN_TURN, MAX_TURN = 30, 3600  # what /config accepts
MAX_IDLE = 3  # turn clocks in a row with no person acting that end a game, unrated
MAX_AUTO_MOVES = 4  # moves one timeout may play (Six Dice: take, roll, take, stop)
# A computer to move is due at once; its own process moves it within a
# second or two (bot.followers.cpu). Only when it has not moved this long
# after its due time — its process died mid-think — does another process
# claim the table and move it (the durable computer turn).
CPU_OVERDUE = 15.0
# A sweeper asks the database at least this often (seconds), so only a
# deadline due sooner needs telling other processes about.
RECHECK = 60.0
# ui key: when the table's channel was first found unreachable (set by
# bot.followers.screen; the game then ends one turn clock later, as its
# players are told, so no first turn lengthens it)
UNREACHABLE = "unreachable"
# A player's first turn of a game reads the table first (a newcomer reads
# the picture, the buttons and perhaps /rules): it gets FIRST_TURN_FACTOR
# turn clocks, and at least FIRST_TURN_MIN seconds.
FIRST_TURN_FACTOR = 3
FIRST_TURN_MIN = 180
# ui key: a table's own turn clock in seconds, over the server's (a
# tournament's match: bot.lobby.Lobby.open_seated)
TABLE_CLOCK = "turn_seconds"


async def turn_seconds(store: Store, guild_id: int | None, game: str) -> int:
    """The turn clock of ``game`` on this server (``/config clock``)."""
    if guild_id is not None:
        value = await store.settings.guild_setting(guild_id, f"clock.{game}")
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    return registry.spec(game).turn_seconds


async def table_seconds(store: Store, row: TableRow) -> int:
    """The turn clock of one table: its own (``ui[TABLE_CLOCK]``, a
    tournament's, set when it was opened), else the server's."""
    own = row.ui.get(TABLE_CLOCK)
    if isinstance(own, int) and not isinstance(own, bool) and own > 0:
        return own
    return await turn_seconds(store, row.guild_id, row.game)


def first_turn_seconds(seconds: int) -> int:
    """The clock of a player's first turn of a game, for a turn clock of
    ``seconds``: three of them, and at least three minutes.

    >>> first_turn_seconds(90), first_turn_seconds(30), first_turn_seconds(120)
    (270, 180, 360)
    """
    return max(FIRST_TURN_FACTOR * seconds, FIRST_TURN_MIN)


def has_moved(state: Any, player: str) -> bool:
    """Whether ``player`` made a move of this game yet (the record's moves
    are ``"PLAYER MOVE"``; a move the clock made for them counts)."""
    return any(m.partition(" ")[0] == player for m in state.history.moves)


def arm(
    row: TableRow, state: Any, *, now: float, seconds: int, actor: str | None, human: bool = False
) -> None:
    """Set the next deadline of ``row`` before it is saved.

    ``actor`` made the move (their timeouts in a row start again at 0);
    ``human``: a person made it (the turn clocks in a row that ran out with
    nobody acting, ``idle``, start again at 0). A lobby gets
    :data:`LOBBY_IDLE`; a game ``seconds`` for the player to move, or
    :func:`first_turn_seconds` when they have not moved in this game yet
    (not on a table with its own clock, :data:`TABLE_CLOCK`, nor on one
    whose channel is lost, :data:`UNREACHABLE`); a finished game none.
    """
    if row.phase == "lobby":
        row.deadline = now + LOBBY_IDLE
        row.clock = {}
        return
    eng = registry.engine(row.game)
    timeouts = dict(row.clock.get("timeouts") or {})
    if actor is not None:
        timeouts.pop(actor, None)
    idle = 0 if human else int(row.clock.get("idle") or 0)
    movers = eng.to_move(state)
    if eng.is_finished(state) or not movers:
        row.deadline = None
        row.clock = {"timeouts": timeouts}
        return
    player = movers[0]
    row.clock = {"player": player, "warned": False, "timeouts": timeouts}
    if idle:
        row.clock["idle"] = idle
    # a table with its own clock (a tournament's match) keeps it to the second
    lost = row.ui.get(UNREACHABLE) is not None  # (None once the channel is back)
    first = not (has_moved(state, player) or row.ui.get(TABLE_CLOCK) or lost)
    row.deadline = now + (first_turn_seconds(seconds) if first else seconds)


def wake_time(row: TableRow) -> float | None:
    """When a sweeper must next look at ``row`` for its deadline: its lobby's
    expiry or its turn clock's warning."""
    if row.deadline is None:
        return None
    return row.deadline - (WARN_BEFORE if row.phase == "playing" else 0)


def next_cpu(row: TableRow, state: Any) -> tuple[dict[str, Any], list[str]] | None:
    """The computer player who moves now and its legal moves, if any."""
    spec = registry.spec(row.game)
    eng = spec.engine
    if eng.is_finished(state):
        return None
    seats = {s["name"]: s for s in row.seats}
    movers = eng.to_move(state)
    for name in movers:
        seat = seats.get(name)
        if is_cpu(seat):
            legal = eng.legal_moves(state, name)
            if legal:
                assert seat is not None
                return seat, legal
    if spec.interject is not None:  # a move out of turn (Sixty-Six: declare 66)
        for seat in row.seats:
            if is_cpu(seat) and seat["name"] not in movers:
                legal = eng.legal_moves(state, seat["name"])
                if legal and spec.interject(eng.view(state, seat["name"]), seat["name"], legal):
                    return seat, legal
    return None
