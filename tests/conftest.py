from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "default",
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.register_profile("thorough", max_examples=1000, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))

# The computer players' AI runs in worker processes here as in the bot
# (bot/ai.py), but not below the test processes' priority: they keep both
# cores busy, and niced workers would wait behind them.
os.environ.setdefault("CHABUDAI_AI_NICE", "0")
