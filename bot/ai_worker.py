"""The AI worker process: where the computer players' tables are built and
their moves searched (:mod:`bot.ai` starts it, feeds it and replaces it).

A worker is a fresh interpreter (``python -c "from bot.ai_worker import
main; main()" FD MEMORY_MB NICE``), so it copies and imports nothing of the
bot: no discord, no database, no event loop, whatever the bot's main script.
It serves one job at a time over its end of a socket pair (file descriptor
``FD``, a :class:`multiprocessing.connection.Connection`): ``(function,
args)`` in (functions by reference, imported here), ``(True, result)`` or
``(False, WorkerError)`` out; ``None`` or the other end closing ends it.

- Its address space is capped (``RLIMIT_AS``, ``CHABUDAI_AI_MEMORY_MB``): a
  table that does not fit raises :class:`MemoryError` here, never in the bot.
- It runs at a lower priority (``nice``) and with one BLAS thread, so the
  bot's event loop gets a core first.
- It ignores Ctrl-C: the bot stops it.

Only the standard library and ``games`` here: no discord, no asyncio.
"""

from __future__ import annotations

import importlib
import os
import signal
import sys
import traceback
from multiprocessing.connection import Connection
from typing import Any

ONE_THREAD = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")


class WorkerError(Exception):
    """An exception raised by a job in the worker, as the bot receives it:
    its type name, its message and the worker's traceback text."""

    def __init__(self, kind: str, message: str, trace: str = "") -> None:
        super().__init__(kind, message, trace)
        self.kind = kind
        self.message = message
        self.trace = trace

    def __str__(self) -> str:
        return f"{self.kind}: {self.message}" if self.message else self.kind


def limit_memory(megabytes: int) -> None:
    """Cap this process's address space (``RLIMIT_AS``); 0 = no cap."""
    if megabytes <= 0:
        return
    try:
        import resource
    except ImportError:  # not on this platform
        return
    cap = megabytes * 1024 * 1024
    _soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    if hard != resource.RLIM_INFINITY:
        cap = min(cap, hard)
    resource.setrlimit(resource.RLIMIT_AS, (cap, hard))


def serve(conn: Connection, memory_mb: int, nice: int) -> None:
    """The worker's loop: one job at a time until the pipe closes or ``None``."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for name in ONE_THREAD:  # before numpy is imported (the AI modules import it)
        os.environ.setdefault(name, "1")
    if nice:
        try:
            os.nice(nice)
        except (AttributeError, OSError):
            pass
    limit_memory(memory_mb)
    while True:
        try:
            job = conn.recv()
        except (EOFError, OSError):
            return
        if job is None:
            return
        reply: tuple[bool, Any]
        try:
            fn, args = job
            reply = (True, fn(*args))
        except Exception as err:  # MemoryError (the cap), or the AI's own error
            reply = (False, WorkerError(type(err).__name__, str(err), traceback.format_exc()))
            del err
        try:
            conn.send(reply)
        except (EOFError, OSError):
            return
        except Exception as err:  # a result that does not pickle
            conn.send((False, WorkerError(type(err).__name__, str(err), traceback.format_exc())))


def main() -> None:
    """The worker process's entry point: ``FD MEMORY_MB NICE`` on the command line."""
    fd, memory_mb, nice = (int(arg) for arg in sys.argv[1:4])
    serve(Connection(fd), memory_mb, nice)


# The jobs the bot sends (by reference: they are imported here, not pickled)


def decide(ai: str, view: dict[str, Any], me: str, legal: list[str], level: str, rng: Any) -> str:
    """``<ai>.choose`` (a level the AI does not know plays as ``normal``)."""
    module = importlib.import_module(ai)
    level = level if level in module.LEVELS else "normal"
    move: str = module.choose(view, me, legal, level, rng)
    return move


def advise(ai: str, view: dict[str, Any], me: str, legal: list[str]) -> dict[str, Any]:
    """``<ai>.hint``."""
    advice: dict[str, Any] = importlib.import_module(ai).hint(view, me, legal)
    return advice
