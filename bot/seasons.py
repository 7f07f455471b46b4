"""Seasons: a server's leaderboards and ratings by period.

A server's season length is its ``season`` setting (``/config season``):
``monthly`` (the default), ``quarterly`` or ``off``. A season is named by
the calendar period it covers, in UTC: ``2026-11`` (a month), ``2026-Q4``
(a quarter). A finished game belongs to the season current when it ended
(stored with its result, ``results.season``); ratings per season start
fresh — every player at the rating model's starting values — while the
all-time ratings keep accumulating.
"""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, timedelta

LENGTHS = ("monthly", "quarterly", "off")
DEFAULT = "monthly"

_MONTH = re.compile(r"(\d{4})-(\d{2})")
_QUARTER = re.compile(r"(\d{4})-Q([1-4])")


def length_of(setting: object) -> str:
    """A stored ``season`` setting as a length (unset = monthly)."""
    return setting if isinstance(setting, str) and setting in LENGTHS else DEFAULT


def season_at(when: float, length: str) -> str | None:
    """The season that ``when`` (unix seconds) falls in; ``None`` when off.

    >>> season_at(1_790_000_000, "monthly"), season_at(1_790_000_000, "quarterly")
    ('2026-09', '2026-Q3')
    """
    if length == "off":
        return None
    day = datetime.fromtimestamp(when, UTC)
    if length == "quarterly":
        return f"{day.year}-Q{(day.month - 1) // 3 + 1}"
    return f"{day.year}-{day.month:02d}"


def is_season(name: str) -> bool:
    """Whether ``name`` names a season (``2026-11``, ``2026-Q4``)."""
    m = _MONTH.fullmatch(name)
    if m:
        return 1 <= int(m.group(2)) <= 12
    return _QUARTER.fullmatch(name) is not None


def dates(name: str) -> tuple[date, date]:
    """The first and last day of a season.

    >>> dates("2026-02"), dates("2026-Q4")[1]
    ((datetime.date(2026, 2, 1), datetime.date(2026, 2, 28)), datetime.date(2026, 12, 31))
    """
    m = _MONTH.fullmatch(name)
    if m:
        year, first_month, months = int(m.group(1)), int(m.group(2)), 1
    else:
        q = _QUARTER.fullmatch(name)
        if q is None:
            raise ValueError(f"not a season: {name!r}")
        year, first_month, months = int(q.group(1)), 3 * (int(q.group(2)) - 1) + 1, 3
    first = date(year, first_month, 1)
    after = first_month + months
    nxt = date(year + (after - 1) // 12, (after - 1) % 12 + 1, 1)
    return first, nxt - timedelta(days=1)
