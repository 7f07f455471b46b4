"""A live table as stored, and a line of its moves ledger."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any


@dataclass
class TableRow:
    """One live table as stored (JSON columns decoded)."""

    id: int
    guild_id: int | None
    channel_id: int
    message_id: int | None
    game: str
    phase: str
    host_id: int
    seats: list[dict[str, Any]]
    options: dict[str, Any]
    state: dict[str, Any] | None
    ui: dict[str, Any]
    seed: str | None
    version: int
    deadline: float | None
    created_at: float
    updated_at: float
    clock: dict[str, Any] = field(default_factory=dict)
    shown: int = -1  # the version last shown on the table message
    cpu_due: float | None = None  # a computer is to move by then (claimed if overdue)

    def seat_of(self, user_id: int) -> dict[str, Any] | None:
        for seat in self.seats:
            if seat["id"] == user_id:
                return seat
        return None


@dataclass(frozen=True)
class Ledger:
    """One line of the moves ledger: what a stored change did (the moves in
    notation, or the lobby action or the kind of removal), who and where
    from; written in the transaction that stores the change, one per
    (table, version)."""

    move: str
    origin: str
    actor: str | None = None


TABLE_COLS = (
    "id, guild_id, channel_id, message_id, game, phase, host_id, seats, options, state, ui, "
    "seed, version, deadline, created_at, updated_at, clock, shown, cpu_due"
)


def decode(r: Sequence[Any], state: Any = None) -> TableRow:
    """A table's row as read (``state``: its state JSON parsed already)."""
    return TableRow(
        id=r[0],
        guild_id=r[1],
        channel_id=r[2],
        message_id=r[3],
        game=r[4],
        phase=r[5],
        host_id=r[6],
        seats=json.loads(r[7]),
        options=json.loads(r[8]),
        state=state if state is not None else json.loads(r[9]) if r[9] is not None else None,
        ui=json.loads(r[10]),
        seed=r[11],
        version=r[12],
        deadline=r[13],
        created_at=r[14],
        updated_at=r[15],
        clock=json.loads(r[16]),
        shown=r[17],
        cpu_due=r[18],
    )
