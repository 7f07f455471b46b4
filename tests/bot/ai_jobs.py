"""Jobs the bot tests hand to the AI workers in place of the real ones:
imported there by reference (this folder is on the workers' path), so they
are plain functions of a module, never closures."""

from __future__ import annotations

import time
from typing import Any

from games.review import review_json


def slow_review(seconds: float, record: dict[str, Any], humans: list[str]) -> dict[str, Any]:
    """The real review, after ``seconds`` of the worker's time: a review of a
    long Sixty-Six match (docs/review.md "Speed": up to 20 s)."""
    time.sleep(seconds)
    return review_json(record, humans)
