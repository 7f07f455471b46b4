"""Per-user Discord locales for SimCord.

SimCord 3.2 sends every interaction with ``locale="en-US"`` and
``guild_locale="en-US"``. :func:`locales` patches the payload builder so a
test can give a user a locale (``{user.id: "ja"}``) and a guild its
``preferred_locale`` as its ``guild_locale``, as Discord does.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import simcord.interactions as sim_interactions


@contextmanager
def locales(by_user: dict[int, str]) -> Iterator[dict[int, str]]:
    original = sim_interactions.base_payload

    def patched(backend: Any, **kwargs: Any) -> Any:
        record, payload = original(backend, **kwargs)
        payload["locale"] = by_user.get(kwargs["user_id"], "en-US")
        if kwargs.get("guild_id") is not None:
            payload["guild_locale"] = backend.get_guild(kwargs["guild_id"]).preferred_locale
        return record, payload

    sim_interactions.base_payload = patched  # type: ignore[assignment]
    try:
        yield by_user
    finally:
        sim_interactions.base_payload = original  # type: ignore[assignment]


class EnvClock:
    """The bot's clock (unix seconds) following SimCord's virtual time once
    ``env`` is set; ``skew`` moves it without advancing SimCord."""

    def __init__(self) -> None:
        self.env: Any = None
        self.skew = 0.0

    def __call__(self) -> float:
        base = 1_700_000_000.0 if self.env is None else self.env.now().timestamp()
        return base + self.skew
