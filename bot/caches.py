"""What the bot keeps in memory to go faster, and each keep's bound.

Every cache of the bot is named here with its bound (:func:`budget`): in
bytes where what it holds varies in size (pictures, sprites, masks, the
palettes' mapped pieces), in entries where each entry's size is fixed and
measured (docs/operations.md, "Memory", gives each cache's bound, why that
number and what a miss costs; tests/test_caches.py checks that table
against this registry and each bound against a workload that would pass
it). :func:`report` says what each holds now (bench/scale.py prints it).

:func:`sized` is the byte-bounded cache of drawn sprites and layers
(:class:`SizedLRU`), safe on the worker threads pictures are drawn on."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from functools import wraps
from typing import Any, TypeVar, cast

F = TypeVar("F", bound=Callable[..., Any])


@dataclass(frozen=True)
class Budget:
    """One cache: its name (docs/operations.md's row), its bound (``unit``:
    ``"bytes"`` or ``"entries"``) and what it holds now (entries, bytes —
    0 where only entries are counted)."""

    name: str
    bound: int
    unit: str
    held: Callable[[], tuple[int, int]]


BUDGETS: dict[str, Budget] = {}


def budget(name: str, bound: int, unit: str, held: Callable[[], tuple[int, int]]) -> None:
    """Name a cache and its bound (the latest registration of a name wins:
    a module imported again)."""
    if unit not in ("bytes", "entries"):
        raise ValueError(f"{name}: a bound in bytes or entries, not {unit!r}")
    BUDGETS[name] = Budget(name, bound, unit, held)


def lru(name: str, fn: Any) -> None:
    """Name a ``functools.lru_cache``: bound by its ``maxsize`` entries."""
    maxsize = fn.cache_parameters()["maxsize"]
    if maxsize is None:
        raise ValueError(f"{name}: an unbounded cache")
    budget(name, int(maxsize), "entries", lambda: (fn.cache_info().currsize, 0))


def image_bytes(img: Any) -> int:
    """What a Pillow picture's pixels take (and its object, ~200 bytes)."""
    return int(img.width * img.height * len(img.getbands())) + 200


class SizedLRU:
    """A least-recently-used mapping bounded by the bytes its values weigh
    (``size`` of each). A hit is one dict lookup and a move to the end,
    both done in C without a lock (cachetools' ``LRUCache``, with a lock
    around it, cost 1.8 µs a hit against lru_cache's 0.3: a picture looks
    up a hundred sprites and masks); a miss takes the lock to add and drop."""

    def __init__(self, bound: int, size: Callable[[Any], int]) -> None:
        self.bound = bound
        self.size = size
        self.held = 0  # bytes
        self.data: OrderedDict[Any, tuple[Any, int]] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key: Any) -> Any:
        """The value kept for ``key``, or :data:`MISSING`."""
        got = self.data.get(key)
        if got is None:
            return MISSING
        try:
            self.data.move_to_end(key)
        except KeyError:  # dropped meanwhile by another thread
            pass
        return got[0]

    def put(self, key: Any, value: Any) -> None:
        weight = self.size(value)
        if weight > self.bound:  # larger than the whole budget: not kept
            return
        with self.lock:
            old = self.data.pop(key, None)
            if old is not None:
                self.held -= old[1]
            self.data[key] = (value, weight)
            self.held += weight
            while self.held > self.bound:
                self.held -= self.data.popitem(last=False)[1][1]

    def clear(self) -> None:
        with self.lock:
            self.data.clear()
            self.held = 0

    def __len__(self) -> int:
        return len(self.data)


MISSING = object()


def sized(name: str, bound: int, size: Callable[[Any], int] = image_bytes) -> Callable[[F], F]:
    """A function's results kept by its arguments (positional and keyword,
    as ``functools.lru_cache`` keys them) until they weigh ``bound`` bytes
    in all (``size`` of each), the least recently used dropped first
    (:class:`SizedLRU`); a result weighing more than ``bound`` alone is not
    kept. The function gets ``cache_clear()`` and ``cache``."""

    def wrap(fn: F) -> F:
        cache = SizedLRU(bound, size)

        @wraps(fn)
        def kept(*args: Any, **kwargs: Any) -> Any:
            key = (args, tuple(sorted(kwargs.items()))) if kwargs else args
            value = cache.get(key)
            if value is MISSING:
                value = fn(*args, **kwargs)
                cache.put(key, value)
            return value

        kept.cache = cache  # type: ignore[attr-defined]
        kept.cache_clear = cache.clear  # type: ignore[attr-defined]
        budget(name, bound, "bytes", lambda: (len(cache), cache.held))
        return cast(F, kept)

    return wrap


def report() -> dict[str, dict[str, int | str]]:
    """Each cache's bound and what it holds now."""
    out: dict[str, dict[str, int | str]] = {}
    for name, b in sorted(BUDGETS.items()):
        entries, held = b.held()
        out[name] = {"entries": entries, "bytes": held, "bound": b.bound, "unit": b.unit}
    return out
