"""Ratings per game with OpenSkill (Plackett–Luce: multi-player results)."""

from __future__ import annotations

from openskill.models import PlackettLuce

_MODEL = PlackettLuce()


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
    """The displayed rating: a conservative estimate, mu − 3σ."""
    return mu - 3 * sigma
