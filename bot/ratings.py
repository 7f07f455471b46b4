"""Ratings per game with OpenSkill (Plackett–Luce: multi-player results),
and the number people read (docs/ratings.md).

A player's skill is stored as OpenSkill's ``(mu, sigma)``; what is shown is
its *ordinal* — the conservative estimate ``mu − 3σ``, 0 for a newcomer —
on a chess-like scale: ``display = max(0, round(1500 + K · ordinal))``.
With ``K`` = 30 a gap means about what it means in chess (200 points: the
stronger wins 77–85 % of two-player games by OpenSkill's own prediction,
Elo says 76 %) and settled players spread like a chess club's (simulated:
1636–2287 from the 5th to the 95th percentile, SD 198; ``bench/ratings.py``).
A rating is *provisional* ("1540?", as on lichess) until its player has
:data:`PROVISIONAL_GAMES` rated games of that game (of that season, for a
season's rating).
"""

from __future__ import annotations

from openskill.models import PlackettLuce

_MODEL = PlackettLuce()

BASE = 1500  # a newcomer's displayed rating (ordinal 0)
K = 30  # display points per point of ordinal (docs/ratings.md)
PROVISIONAL_GAMES = 10  # rated games before the rating loses its "?"


def rate(
    ranks: dict[int, int], current: dict[int, tuple[float, float]]
) -> dict[int, tuple[float, float]]:
    """New ``(mu, sigma)`` per user after one game (``ranks``: user → place,
    1 = first; equal places tie). Users without a rating start fresh.

    >>> new = rate({1: 1, 2: 2}, {})
    >>> new[1][0] > 25 > new[2][0]
    True
    """
    users = list(ranks)
    if len(users) < 2:
        return {}
    teams = []
    for uid in users:
        mu, sigma = current.get(uid, (_MODEL.mu, _MODEL.sigma))
        teams.append([_MODEL.rating(mu=mu, sigma=sigma)])
    rated = _MODEL.rate(teams, ranks=[ranks[u] for u in users])
    return {uid: (team[0].mu, team[0].sigma) for uid, team in zip(users, rated, strict=True)}


def ordinal(mu: float, sigma: float) -> float:
    """The conservative estimate the boards rank by: mu − 3σ (0 for a newcomer)."""
    return mu - 3 * sigma


def display(value: float) -> int:
    """An ordinal as people read it: 1500-based, whole, never negative.

    >>> display(0.0), display(-2.6), display(-0.01), display(16.5), display(-80.0)
    (1500, 1422, 1500, 1995, 0)
    """
    return max(0, round(BASE + K * value))


def provisional(games: int | None) -> bool:
    """Whether a rating after ``games`` rated games is still provisional."""
    return (games or 0) < PROVISIONAL_GAMES


def shown(value: float, games: int | None) -> str:
    """The rating as written everywhere (boards, /stats, the card): the
    display number, with "?" while provisional.

    >>> shown(-2.6, 1), shown(16.5, 10)
    ('1422?', '1995')
    """
    return f"{display(value)}{'?' if provisional(games) else ''}"
