"""Bluff dice — computer players and the coach (docs/ai_dice.md).

Uniform AI API: :data:`LEVELS`, :func:`choose` (from the player's view only,
deterministic given ``rng``), :func:`hint`.

A computer player sees its dice the way a person does: the bot calls
``games.bluff.peek(state, player)`` for it right after it rolls, so its view
then holds ``cup_seen``. Nothing else about the cup reaches it.

Probabilities are exact over the 21 roll classes (doubles 1/36, the others
2/36): :func:`chance_at_least` is P(a fresh roll ≥ a value).

``strong`` — for the announcement it faces it estimates the chance that the
dice really are at least that good (:func:`chance_true`): exact when it saw
the dice itself; for a fresh roll by the announcer, the exact prior against
the chance the announcer had to lie (its roll could not beat the previous
announcement), a weakest-possible announcement being the typical lie; for a
passed cup, conditioned on the roller's own announcement. It reveals when
that chance is below 50 %; it passes the cup without rolling (announcing the
weakest legal value) when the dice as they are carry that value with a
chance ≥ :data:`PASS_SURE` (e.g. it saw them); else it rolls. After rolling
it announces its roll if that beats the last announcement, else lies with
the weakest legal value (the most believable lie). :func:`losses` is the
coach's estimate of the chance to lose with each option (a simple model of
the next player, :func:`reveal_chance`), shown in the hint.

``normal`` — does not model lying: it judges the announcement it faces by
the plain odds that fresh dice reach it (:func:`plain_true`:
:func:`chance_at_least`, or exact when it saw the dice), whoever announced
it and whatever came before; reveals below 50 %, else rolls; never passes
the cup. So it reveals an opening 65 (27.8 % for fresh dice) that strong
believes (nobody is forced to lie on the first announcement). It announces
like strong. ``easy`` — reveals a third of the time at random, else rolls;
announces its roll when it can, else a random legal value.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from typing import Any

from games.bluff.engine import RANKING, STRENGTH, STRONGER, stronger, value_of

LEVELS = ("easy", "normal", "strong")
PASS_SURE = 1.0  # pass without rolling only when the dice surely carry the weakest legal value
LATER_LOSS = 0.15  # chance to lose a game that goes on past our announcement
LIE_WEAKEST = 0.6  # a liar's chance to pick the weakest legal value

# Exact chance of each value: doubles 1/36, the others 2/36 (21 = 1-2 or 2-1).
CHANCE: dict[str, float] = {v: (1 if v[0] == v[1] else 2) / 36 for v in RANKING}


def chance_at_least(value: str) -> float:
    """P(a fresh roll is at least ``value``).

    >>> chance_at_least("21"), round(chance_at_least("31"), 6), round(chance_at_least("65"), 4)
    (0.05555555555555555, 1.0, 0.4444)
    """
    return sum(p for v, p in CHANCE.items() if STRENGTH[v] >= STRENGTH[value])


def chance_below(value: str | None) -> float:
    """P(a fresh roll is not stronger than ``value``) (0 for no value)."""
    if value is None:
        return 0.0
    return sum(p for v, p in CHANCE.items() if STRENGTH[v] <= STRENGTH[value])


def reveal_chance(value: str) -> float:
    """How likely the next player reveals an announcement of ``value``:
    certain after 21, else falling smoothly as the value becomes likely."""
    if value == "21":
        return 1.0
    return 1.0 / (1.0 + math.exp(12.0 * (chance_at_least(value) - 0.45)))


def _previous(announcements: Sequence[Mapping[str, Any]], i: int) -> str | None:
    return str(announcements[i - 1]["value"]) if i > 0 else None


def _fresh_true(value: str, previous: str | None) -> float:
    """Chance that a freshly rolled cup announced as ``value`` (after
    ``previous``) is at least ``value``: truth ~ P(roll ≥ value) against a
    forced lie ~ P(roll ≤ previous) × the liar's chance to pick ``value``."""
    truth = chance_at_least(value)
    legal = STRONGER[previous]
    pick = LIE_WEAKEST if value == legal[0] else (1 - LIE_WEAKEST) / max(1, len(legal) - 1)
    lie = chance_below(previous) * pick
    return truth / (truth + lie) if truth + lie > 0 else 1.0


def chance_true(view: Mapping[str, Any], value: str | None = None) -> float:
    """The chance that the cup's dice are at least ``value`` (default: the
    last announcement), from what the viewer knows."""
    anns = view["announcements"]
    if not anns:
        return 1.0
    if value is None:
        value = str(anns[-1]["value"])
    seen = view.get("cup_seen")
    if seen:
        return 1.0 if not stronger(value, value_of(seen)) else 0.0
    # the announcement made by whoever last rolled these dice
    i = len(anns) - 1
    while i > 0 and not anns[i]["rolled"]:
        i -= 1
    rolled_value = str(anns[i]["value"])
    credible = _fresh_true(rolled_value, _previous(anns, i))
    if not stronger(value, rolled_value):
        # at most what the roller claimed: true if the roller told the truth,
        # else only if the lie's dice (≤ the value before it) still reach it
        prev = _previous(anns, i)
        below = chance_below(prev)
        lie_part = 0.0
        if below > 0 and prev is not None and not stronger(value, prev):
            lie_part = (below - chance_below(value) + CHANCE[value]) / below
        return credible + (1 - credible) * lie_part
    # stronger than the roller's claim: the claim (if true) conditions the roll
    return credible * chance_at_least(value) / chance_at_least(rolled_value)


def plain_true(view: Mapping[str, Any]) -> float:
    """The normal player's chance that the last announcement is true: exact
    when the viewer saw the dice, else the plain odds that fresh dice reach
    it (:func:`chance_at_least`), with no model of the announcer."""
    last = view["last_announcement"]
    if last is None:
        return 1.0
    value = str(last["value"])
    seen = view.get("cup_seen")
    if seen:
        return 1.0 if not stronger(value, value_of(seen)) else 0.0
    return chance_at_least(value)


def _announce_loss(value: str, true_chance: float) -> float:
    r = reveal_chance(value)
    return r * (1.0 - true_chance) + (1.0 - r) * LATER_LOSS


def losses(view: Mapping[str, Any]) -> dict[str, float]:
    """Estimated chance to lose this game for ``reveal``, ``roll`` and a pass
    (``announce`` of the weakest legal value without rolling)."""
    last = view["last_announcement"]
    value = str(last["value"]) if last else None
    out: dict[str, float] = {}
    if value is None:
        return out
    out["reveal"] = chance_true(view)
    if value == "21":
        return out
    weakest = STRONGER[value][0]
    roll = 0.0
    for v, p in CHANCE.items():
        if stronger(v, value):
            roll += p * _announce_loss(v, 1.0)
        else:
            roll += p * _announce_loss(weakest, 0.0)
    out["roll"] = roll
    out[f"announce {weakest}"] = _announce_loss(weakest, chance_true(view, weakest))
    return out


def _announce(view: Mapping[str, Any], legal: list[str], rng: random.Random, level: str) -> str:
    seen = view.get("cup_seen")
    last = view["last_announcement"]
    if seen:
        mine = value_of(seen)
        if last is None or stronger(mine, str(last["value"])):
            return f"announce {mine}"
    if level == "easy":
        return rng.choice(legal)
    return legal[0]  # the weakest legal value: the most believable lie


def choose(view: dict[str, Any], me: str, legal: list[str], level: str, rng: random.Random) -> str:
    """A move from ``legal`` for ``me`` at ``level``, from the view only."""
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}")
    if len(legal) == 1:
        return legal[0]
    if view["phase"] == "announce":
        return _announce(view, legal, rng, level)
    if level == "easy":
        return "reveal" if rng.random() < 1 / 3 else "roll"
    if level == "normal":
        return "reveal" if plain_true(view) < 0.5 else "roll"
    weakest = next((m for m in legal if m.startswith("announce")), None)
    if weakest and chance_true(view, weakest.split()[1]) >= PASS_SURE:
        return weakest  # pass without rolling: the dice surely carry it
    return "reveal" if chance_true(view) < 0.5 else "roll"


def hint(view: dict[str, Any], me: str, legal: list[str]) -> dict[str, Any]:
    """The strong move with the chance that the announcement is true and the
    estimated chance to lose with each option."""
    move = choose(view, me, legal, "strong", random.Random(0)) if legal else ""
    last = view["last_announcement"]
    numbers: dict[str, Any] = {"announcement": last["value"] if last else None}
    if last:
        numbers["chance_true"] = round(chance_true(view), 4)
        numbers["chance_at_least"] = round(chance_at_least(str(last["value"])), 4)
    if view["phase"] == "choose":
        numbers["loss"] = {m: round(v, 4) for m, v in losses(view).items()}
    if view.get("cup_seen"):
        numbers["dice"] = value_of(view["cup_seen"])
    return {"move": move, "reason": "hint.bluff", "numbers": numbers}
