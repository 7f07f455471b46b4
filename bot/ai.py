"""The games' AIs at run time: their tables built once per process in a
background thread, their decisions and hints computed off the event loop.

Used by the computer players (:mod:`bot.followers.cpu`) and the coach
(``/hint``). What each game needs is stated in its spec
(:class:`games.registry.GameSpec`: ``ai``, ``warm_up_key``, ``warm_up``).
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import random
import threading
from collections.abc import Mapping
from typing import Any

from bot.store import TableRow
from games import registry

log = logging.getLogger(__name__)

_LOCK = threading.Lock()
_READY: dict[str, threading.Event] = {}


def start_warm_up(game: str, options: Mapping[str, Any]) -> threading.Event | None:
    """Start building what ``game``'s AI needs for these options, once per
    process and options, in a background thread (a computer joining a lobby
    starts it, so its first move does not wait for the build). ``None`` =
    nothing to build."""
    spec = registry.spec(game)
    key = spec.warm_up_key(options)
    if key is None or spec.warm_up is None:
        return None
    build = spec.warm_up
    opts = dict(options)
    with _LOCK:
        ready = _READY.get(key)
        if ready is None:
            ready = _READY[key] = threading.Event()

            def run(done: threading.Event = ready) -> None:
                try:
                    build(opts)
                    log.info("the %s AI is ready (%s)", game, key)
                except Exception:
                    log.exception("the %s AI's tables could not be built", game)
                finally:
                    done.set()

            threading.Thread(target=run, name=f"warm-up-{game}", daemon=True).start()
    return ready


def is_ready(game: str, options: Mapping[str, Any]) -> bool:
    """Whether ``game``'s AI can decide at once (its tables are built)."""
    ready = start_warm_up(game, options)
    return ready is None or ready.is_set()


async def prepare(game: str, options: Mapping[str, Any]) -> None:
    """What a game's AI needs before deciding, waited for off the event loop."""
    ready = start_warm_up(game, options)
    if ready is not None and not ready.is_set():
        await asyncio.to_thread(ready.wait)


def rng_for(row: TableRow, name: str) -> random.Random:
    """The computer's random source: deterministic per table, move and player,
    independent of the dice (a hash of the seed, never the seed itself)."""
    digest = hashlib.sha256(f"cpu:{row.seed}:{row.version}:{name}".encode()).digest()
    return random.Random(digest)


async def choose(
    game: str, view: dict[str, Any], name: str, legal: list[str], level: str, rng: random.Random
) -> str:
    """The AI's move, computed in a thread (a strong decision can take a second)."""
    module = registry.spec(game).ai_module()
    level = level if level in module.LEVELS else "normal"
    move: str = await asyncio.to_thread(module.choose, view, name, list(legal), level, rng)
    return move


async def hint(game: str, view: dict[str, Any], name: str, legal: list[str]) -> dict[str, Any]:
    """The coach's advice (the strong player's move and its numbers), in a thread."""
    module = registry.spec(game).ai_module()
    advice: dict[str, Any] = await asyncio.to_thread(module.hint, view, name, list(legal))
    return advice


def warm_up_now(game: str, options: Mapping[str, Any]) -> None:
    """Build ``game``'s AI tables now (blocking; tests and threads)."""
    ready = start_warm_up(game, options)
    if ready is not None:
        ready.wait()
