"""What the operator sets for one process, read without loading the bot
(``python -m bot healthcheck`` runs every 30 s in a container: it must
start fast): where ``/healthz`` and ``/metrics`` are served
(``CHABUDAI_HTTP``, ``CHABUDAI_METRICS_PORT``) and which Discord shards the
process holds (``CHABUDAI_SHARDS``). See ``docs/operations.md``.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

ENV = "CHABUDAI_HTTP"  # host:port, or :port
PORT_ENV = "CHABUDAI_METRICS_PORT"  # a port (every interface); CHABUDAI_HTTP wins
SHARDS_ENV = "CHABUDAI_SHARDS"
ACTIVITY_ENV = "CHABUDAI_ACTIVITY"  # 1: serve the Activity (docs/activity.md)
CLIENT_ID_ENV = "DISCORD_CLIENT_ID"
CLIENT_SECRET_ENV = "DISCORD_CLIENT_SECRET"


def parse_address(value: str) -> tuple[str, int]:
    """``host:port`` or ``:port`` (every interface) → (host, port)."""
    host, sep, port = value.strip().rpartition(":")
    if not sep or not port.isdigit() or int(port) > 65535:
        raise ValueError(f"{ENV} must be host:port or :port, not {value!r}")
    host = host.strip("[]")  # [::1]:8080
    return host or "0.0.0.0", int(port)


def configured_address() -> tuple[str, int] | None:
    """Where to serve ``/healthz`` and ``/metrics``: ``CHABUDAI_HTTP``
    (``host:port``), else ``CHABUDAI_METRICS_PORT`` (a port, every
    interface), else ``None`` (off). ``ValueError`` for a bad value."""
    value = os.environ.get(ENV, "").strip()
    if value:
        return parse_address(value)
    port = os.environ.get(PORT_ENV, "").strip()
    if not port:
        return None
    if not port.isdigit() or int(port) > 65535:
        raise ValueError(f"{PORT_ENV} must be a port number, not {port!r}")
    return "0.0.0.0", int(port)


def configured_activity() -> tuple[str, str] | None:
    """``CHABUDAI_ACTIVITY=1``: the application's OAuth2 client id and
    secret (``DISCORD_CLIENT_ID``, ``DISCORD_CLIENT_SECRET``), served on
    ``CHABUDAI_HTTP``'s address; ``None`` when off. ``ValueError`` (saying
    what is missing) when on without them."""
    value = os.environ.get(ACTIVITY_ENV, "").strip().lower()
    if value in ("", "0", "off", "false", "no"):
        return None
    if value not in ("1", "on", "true", "yes"):
        raise ValueError(f"{ACTIVITY_ENV} must be 1 or 0, not {value!r}")
    client_id = os.environ.get(CLIENT_ID_ENV, "").strip()
    secret = os.environ.get(CLIENT_SECRET_ENV, "").strip()
    given = ((CLIENT_ID_ENV, client_id), (CLIENT_SECRET_ENV, secret))
    missing = [name for name, v in given if not v]
    if missing:
        raise ValueError(f"{ACTIVITY_ENV}=1 needs {' and '.join(missing)} (docs/activity.md)")
    if not client_id.isdigit():
        raise ValueError(f"{CLIENT_ID_ENV} must be the application's id (digits)")
    if configured_address() is None:
        raise ValueError(f"{ACTIVITY_ENV}=1 needs {ENV} (host:port): the Activity is served there")
    return client_id, secret


@dataclass(frozen=True)
class Shards:
    """The Discord shards one process holds: ``ids`` of ``count``."""

    ids: tuple[int, ...]
    count: int

    def __str__(self) -> str:
        """As ``CHABUDAI_SHARDS`` writes it, runs as ranges: ``0-3/8``, ``0,2/4``."""
        runs: list[str] = []
        ids = sorted(self.ids)
        start = prev = ids[0]
        for i in [*ids[1:], None]:
            if i is not None and i == prev + 1:
                prev = i
                continue
            runs.append(str(start) if start == prev else f"{start}-{prev}")
            if i is not None:
                start = prev = i
        return f"{','.join(runs)}/{self.count}"


def parse_shards(value: str) -> Shards:
    """``CHABUDAI_SHARDS``: shard ids (``N``, ``A-B``, comma-separated) of a
    shard count — ``0-3/8``, ``0,2/4``, ``5/8``. ``ValueError`` (saying what
    is wrong) for anything else."""
    text = value.strip()
    ids_part, sep, count_part = text.partition("/")
    usage = f"{SHARDS_ENV} must be shard ids of a count, like 0-3/8, 0,2/4 or 5/8"
    if not sep or not count_part.strip().isdigit():
        raise ValueError(f"{usage}; not {value!r}")
    count = int(count_part)
    if count < 1:
        raise ValueError(f"{SHARDS_ENV}: the shard count must be at least 1, not {count}")
    ids: list[int] = []
    for item in ids_part.split(","):
        low, dash, high = item.strip().partition("-")
        if not low.strip().isdigit() or (dash and not high.strip().isdigit()):
            raise ValueError(f"{usage}; {item.strip()!r} is not a shard id or a range")
        a, b = int(low), int(high) if dash else int(low)
        if a > b:
            raise ValueError(f"{SHARDS_ENV}: the range {a}-{b} is backwards")
        ids.extend(range(a, b + 1))
    outside = [i for i in ids if i >= count]
    if outside:
        raise ValueError(
            f"{SHARDS_ENV}: shard {outside[0]} does not exist with {count} shard(s)"
            f" (ids go from 0 to {count - 1})"
        )
    if len(set(ids)) != len(ids):
        raise ValueError(f"{SHARDS_ENV}: a shard is named twice in {value!r}")
    return Shards(tuple(ids), count)


def configured_shards() -> Shards | None:
    """``CHABUDAI_SHARDS`` parsed, ``None`` when unset (one process, every
    shard); ``ValueError`` for a bad value."""
    value = os.environ.get(SHARDS_ENV, "").strip()
    return parse_shards(value) if value else None


def shards_label(shards: Shards | None) -> str:
    """The shards as a log line and a metric name them (``all`` when unsharded)."""
    return "all" if shards is None else str(shards)
