"""The games' AIs at run time: their tables built and their decisions and
hints computed in worker processes, never on the event loop (docs/cpu.md).

Used by the computer players (:mod:`bot.followers.cpu`) and the coach
(``/hint``). What each game needs is stated in its spec
(:class:`games.registry.GameSpec`: ``ai``, ``warm_up_key``, ``warm_up``).

**Workers** (the default). ``CHABUDAI_AI_WORKERS`` (default 2) processes
(:mod:`bot.ai_worker`: fresh interpreters, so nothing of the bot is copied
or imported there), started on first use, each with its address space capped at
``CHABUDAI_AI_MEMORY_MB`` (default 2048; 0 = no cap) and a lower priority.
A game whose AI builds tables (its spec has a ``warm_up``) is pinned to one
worker, where its builds, decisions and hints all run (its tables live
there); every other job goes to the first free worker. A worker runs one job
at a time. Post-game reviews (:class:`Queued`, :func:`job`) run on workers
of their own (``CHABUDAI_AI_REVIEW_WORKERS``, default 1, at a lower
priority), so a rush of reviews never holds up a computer's move or a hint;
with 0 they share the live workers, each taken only when no live job waits
(docs/cpu.md "Live play first"). A worker that dies (the memory cap, a crash) or runs over its
time (:data:`DECISION_SECONDS`, :data:`BUILD_SECONDS`) is killed and
replaced on the next job; what it had built is forgotten; the job raises
:class:`AIUnavailable` and the caller plays the game's default move (the turn
clock's ``timeout_move``).

**Threads** (``CHABUDAI_AI_WORKERS=0``): the same work in threads of this
process (``asyncio.to_thread``), as before; simple, but a build or a search
holds the GIL and stalls the event loop, and nothing caps its memory.

The warm-ups asked for are remembered per key (:data:`_READY`: the most
recent :data:`TABLES` keys, like the games' own table caches), so
:func:`is_ready` and :func:`prepare` answer from here without asking a
worker.
"""

from __future__ import annotations

import asyncio
import atexit
import concurrent.futures
import hashlib
import itertools
import logging
import os
import pickle
import random
import socket
import subprocess
import sys
import threading
from collections import deque
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from typing import Any

from bot import ai_worker, caches
from bot.tables.rows import TableRow
from games import registry
from games.registry import GameSpec

log = logging.getLogger(__name__)

DEFAULT_WORKERS = 2
DEFAULT_REVIEW_WORKERS = 1
DEFAULT_MEMORY_MB = 2048
DEFAULT_NICE = 10
LIVE, BACKGROUND = 0, 1  # a job's rank: a worker takes every live job before a background one
DECISION_SECONDS = 60.0  # the longest a decision or a hint may run in a worker
BUILD_SECONDS = 900.0  # the longest a table build may run in a worker
JOB_SECONDS = 300.0  # the longest another job (a post-game review) may run in a worker
TABLES = 8  # warm-up keys remembered (least recently used first out)

Ready = concurrent.futures.Future  # a warm-up: done when the tables are built (or failed)

_WORKER_MAIN = "from bot.ai_worker import main; main()"

_LOCK = threading.Lock()
_READY: dict[str, Ready[None]] = {}  # warm-up key -> its build, least recently used first
caches.budget("ai.warm_ups", TABLES, "entries", lambda: (len(_READY), 0))
_WHERE: dict[str, int] = {}  # warm-up key -> the worker that built it


class AIUnavailable(RuntimeError):
    """The AI could not answer: its worker died, ran out of memory or time, or
    the AI failed (logged). The caller falls back to the game's default move."""


class WorkerLost(RuntimeError):
    """The worker running a job died or was killed (the job's exception)."""


def workers() -> int:
    """How many worker processes (``CHABUDAI_AI_WORKERS``; 0 = threads, as
    always where there is no POSIX: the workers need ``pass_fds``)."""
    if os.name != "posix":
        return 0
    return max(0, _setting("CHABUDAI_AI_WORKERS", DEFAULT_WORKERS))


def review_workers() -> int:
    """How many worker processes serve the reviews (``CHABUDAI_AI_REVIEW_WORKERS``,
    default 1), apart from the live workers: a review never holds up a
    computer's move or a hint. 0 = the reviews share the live workers, after
    every live job (docs/cpu.md "Live play first")."""
    return max(0, _setting("CHABUDAI_AI_REVIEW_WORKERS", DEFAULT_REVIEW_WORKERS))


def nice() -> int:
    """How much lower the workers' priority is (``CHABUDAI_AI_NICE``: ``nice``
    steps, 0-19), so the bot's event loop gets a core first."""
    return min(19, max(0, _setting("CHABUDAI_AI_NICE", DEFAULT_NICE)))


def review_nice() -> int:
    """The review workers' ``nice`` (``CHABUDAI_AI_REVIEW_NICE``): by default
    9 steps below the live workers' (19, the lowest), so a live move gets a
    core before a review."""
    return min(19, max(0, _setting("CHABUDAI_AI_REVIEW_NICE", nice() + 9)))


def memory_mb() -> int:
    """Each worker's address-space cap (``CHABUDAI_AI_MEMORY_MB``; 0 = none)."""
    return max(0, _setting("CHABUDAI_AI_MEMORY_MB", DEFAULT_MEMORY_MB))


def _setting(name: str, default: int) -> int:
    text = os.environ.get(name, "").strip()
    if not text:
        return default
    try:
        return int(text)
    except ValueError:
        log.warning("%s=%r is not a whole number: %d instead", name, text, default)
        return default


# --------------------------------------------------------------------------
# The worker pool


@dataclass(eq=False)
class _Job:
    seq: int
    fn: Callable[..., Any]
    args: tuple[Any, ...]
    limit: float  # seconds it may run
    what: str  # for the log
    rank: int = LIVE  # LIVE jobs are taken before BACKGROUND ones
    future: concurrent.futures.Future[Any] = field(default_factory=concurrent.futures.Future)


class _Slot:
    """One worker process (started on demand, replaced when lost) and the
    thread of this process that feeds it one job at a time."""

    def __init__(self, pool: _Pool, index: int) -> None:
        self.pool = pool
        self.index = index
        # the jobs of the games pinned here, one queue a rank (LIVE, BACKGROUND)
        self.queue: tuple[deque[_Job], deque[_Job]] = (deque(), deque())
        self.pins = 0
        self.process: subprocess.Popen[bytes] | None = None
        self.conn: Connection | None = None
        self.thread = threading.Thread(target=self._feed, name=f"ai-worker-{index}", daemon=True)

    @property
    def pid(self) -> int | None:
        return self.process.pid if self.process is not None else None

    def _start(self) -> None:
        """A new worker: a fresh interpreter running :func:`bot.ai_worker.main`
        (nothing of this process is copied or imported there), on one end of a
        socket pair."""
        ours, theirs = socket.socketpair()
        fd = theirs.fileno()
        # this import path: games registered by tests or extensions import there too
        path = os.pathsep.join(p or os.getcwd() for p in sys.path)
        try:
            process = subprocess.Popen(
                [
                    sys.executable,
                    "-c",
                    _WORKER_MAIN,
                    str(fd),
                    str(self.pool.memory_mb),
                    str(self.pool.nice),
                ],
                pass_fds=(fd,),
                stdin=subprocess.DEVNULL,
                env={**os.environ, "PYTHONPATH": path},
            )
        except BaseException:
            ours.close()
            raise
        finally:
            theirs.close()
        self.process, self.conn = process, Connection(ours.detach())

    def _stop(self) -> None:
        """Ask the worker to exit (kill it if it does not)."""
        process, conn = self.process, self.conn
        self.process = self.conn = None
        if conn is not None:
            try:
                conn.send(None)
            except OSError:
                pass
            conn.close()
        if process is not None:
            try:
                process.wait(0.5)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()

    def _kill(self) -> int | None:
        """Kill the worker; its exit code (negative: the signal)."""
        process, conn = self.process, self.conn
        self.process = self.conn = None
        if conn is not None:
            conn.close()
        if process is None:
            return None
        if process.poll() is None:
            process.kill()
        code: int = process.wait()
        return code

    def interrupt(self) -> None:
        """Kill the process (its running job ends as lost)."""
        process = self.process
        if process is not None and process.poll() is None:
            process.kill()

    def _feed(self) -> None:
        try:
            try:
                self._start()  # at once: the first job need not wait for it
            except Exception:
                log.warning("the AI worker %d could not start", self.index, exc_info=True)
            while (job := self.pool.take(self)) is not None:
                if job.future.set_running_or_notify_cancel():
                    self._run(job)
        finally:
            self._stop()

    def _run(self, job: _Job) -> None:
        if self.process is not None and self.process.poll() is not None:
            pid, code = self.pid, self._kill()
            log.warning(
                "the AI worker %d (pid %s) died while idle (exit %s)", self.index, pid, code
            )
            self.pool.on_lost(self.index, None)
        try:
            if self.process is None:
                self._start()
            assert self.conn is not None
            self.conn.send((job.fn, job.args))
        except (pickle.PicklingError, TypeError, AttributeError) as err:  # nothing was sent
            job.future.set_exception(err)
            return
        except Exception as err:  # the process could not start, or the pipe broke
            self._lost(job, f"could not take the job ({err!r})")
            return
        conn = self.conn
        if not wait([conn], timeout=job.limit):
            self._lost(job, f"ran over its {job.limit:g} s")
            return
        try:
            ok, value = conn.recv()
        except (EOFError, OSError):  # its end closed: it died
            self._lost(job, "died")
            return
        if ok:
            job.future.set_result(value)
        else:
            job.future.set_exception(value)

    def _lost(self, job: _Job, how: str) -> None:
        pid = self.pid
        code = self._kill()
        reason = f"the AI worker {self.index} (pid {pid}) {how} during {job.what}"
        if code is not None and code < 0:
            reason += f" (signal {-code})"
        if self.pool.closed:
            log.debug("%s (shutting down)", reason)
        else:
            log.warning("%s; a new one takes over", reason)
        self.pool.on_lost(self.index, job.future)  # before anyone waiting hears of it
        job.future.set_exception(WorkerLost(reason))


class _Pool:
    """The worker processes and their queues: a pinned game's jobs wait in its
    worker's own queue, the rest in a shared one; a free worker takes the
    oldest live job it may run, and a background job (a review) only when no
    live job waits for it."""

    def __init__(
        self,
        size: int,
        memory_mb: int,
        on_lost: Callable[[int, concurrent.futures.Future[Any] | None], None],
        priority: int | None = None,
    ) -> None:
        self.memory_mb = memory_mb
        self.nice = nice() if priority is None else priority
        self.on_lost = on_lost
        self.cond = threading.Condition()
        self.shared: tuple[deque[_Job], deque[_Job]] = (deque(), deque())
        self.pinned: dict[str, _Slot] = {}
        self.closed = False
        self.seq = itertools.count()
        self.slots = [_Slot(self, i) for i in range(size)]
        for slot in self.slots:
            slot.thread.start()

    def submit(
        self,
        fn: Callable[..., Any],
        args: tuple[Any, ...],
        limit: float,
        what: str,
        pin: str | None,
        rank: int = LIVE,
    ) -> tuple[concurrent.futures.Future[Any], int | None]:
        """Queue a job of ``rank``; its future, and the worker it is pinned
        to (if any)."""
        with self.cond:
            if self.closed:
                raise RuntimeError("the AI workers are shut down")
            job = _Job(next(self.seq), fn, args, limit, what, rank)
            if pin is None:
                self.shared[rank].append(job)
                index = None
            else:
                slot = self.pinned.get(pin)
                if slot is None:
                    slot = self.pinned[pin] = min(self.slots, key=lambda s: (s.pins, s.index))
                    slot.pins += 1
                slot.queue[rank].append(job)
                index = slot.index
            self.cond.notify_all()
        return job.future, index

    def take(self, slot: _Slot) -> _Job | None:
        """The next job for ``slot``: of the highest rank waiting, the older
        of its own queue's and the shared queue's; waiting for one; ``None``
        once closed."""
        with self.cond:
            while True:
                if self.closed:
                    return None
                for rank in (LIVE, BACKGROUND):
                    own, shared = slot.queue[rank], self.shared[rank]
                    if own and (not shared or own[0].seq < shared[0].seq):
                        return own.popleft()
                    if shared:
                        return shared.popleft()
                self.cond.wait()

    def place(self, future: concurrent.futures.Future[Any]) -> int:
        """Where the job of ``future`` stands: 0 once a worker has it (or it
        is over), else its place in line (1: the next its worker takes): the
        jobs of its rank queued before it, and every live job waiting if it
        is a background one (those go first)."""
        with self.cond:
            queues = [*self.shared, *(q for slot in self.slots for q in slot.queue)]
            home = next((q for q in queues if any(j.future is future for j in q)), None)
            if home is None:
                return 0
            job = next(j for j in home if j.future is future)
            ahead = sum(1 for other in home if other.seq < job.seq)
            if job.rank == BACKGROUND:
                ahead += len(self.shared[LIVE]) + sum(len(s.queue[LIVE]) for s in self.slots)
            return ahead + 1

    def close(self, grace: float) -> None:
        """Stop: queued jobs are cancelled, running ones get ``grace`` seconds."""
        with self.cond:
            self.closed = True
            queues = [*self.shared, *(q for slot in self.slots for q in slot.queue)]
            left = [job for q in queues for job in q]
            for q in queues:
                q.clear()
            self.cond.notify_all()
        for job in left:
            job.future.cancel()
        for slot in self.slots:
            slot.thread.join(grace)
        for slot in self.slots:  # a job still running past the grace
            if slot.thread.is_alive():
                slot.interrupt()
                slot.thread.join(5)


_POOL: _Pool | None = None
_REVIEWS: _Pool | None = None  # the review workers (CHABUDAI_AI_REVIEW_WORKERS)
_POOL_LOCK = threading.Lock()


def _pool() -> _Pool:
    global _POOL
    with _POOL_LOCK:
        if _POOL is None:
            _POOL = _Pool(max(1, workers()), memory_mb(), _forget_worker)
        return _POOL


def _review_pool() -> _Pool:
    """The review workers, started with the first review: one shared queue,
    oldest first, at the lowest priority; they hold no warm-up (a review
    loads the tables it needs itself, from the disk cache)."""
    global _REVIEWS
    with _POOL_LOCK:
        if _REVIEWS is None:
            _REVIEWS = _Pool(review_workers(), memory_mb(), _no_warm_ups, review_nice())
        return _REVIEWS


def _no_warm_ups(index: int, running: concurrent.futures.Future[Any] | None) -> None:
    """A review worker was lost: it held no warm-up to forget."""


def _forget_worker(index: int, running: concurrent.futures.Future[Any] | None) -> None:
    """Worker ``index`` was lost (with the job of ``running``): what it had
    built is gone (a build still queued for it runs on its successor)."""
    with _LOCK:
        for key, where in list(_WHERE.items()):
            if where != index:
                continue
            ready = _READY.get(key)
            if ready is None or ready.done() or ready is running:
                _READY.pop(key, None)
                _WHERE.pop(key, None)


def _pin(spec: GameSpec) -> str | None:
    """A game whose AI builds tables runs on the worker that holds them."""
    return spec.name if spec.warm_up is not None else None


def shutdown(grace: float = 2.0) -> None:
    """Stop the workers (a running job gets ``grace`` seconds) and forget
    every warm-up (tests, a mode switch, exit); the next AI job starts new
    workers."""
    global _POOL, _REVIEWS
    with _POOL_LOCK:
        pools, _POOL, _REVIEWS = (_POOL, _REVIEWS), None, None
    for pool in pools:
        if pool is not None:
            pool.close(grace)
    with _LOCK:
        _READY.clear()
        _WHERE.clear()


atexit.register(shutdown, 0.0)


def worker_pids() -> list[int]:
    """The process ids of the running workers, the review workers' last
    (tests, operators)."""
    pools = [pool for pool in (_POOL, _REVIEWS) if pool is not None]
    return [slot.pid for pool in pools for slot in pool.slots if slot.pid is not None]


# --------------------------------------------------------------------------
# Warm-ups


def start_warm_up(game: str, options: Mapping[str, Any]) -> Ready[None] | None:
    """Start building what ``game``'s AI needs for these options, once per
    options key, off the event loop (a computer joining a lobby starts it, so
    its first move does not wait for the build). ``None`` = nothing to build."""
    spec = registry.spec(game)
    key = spec.warm_up_key(options)
    if key is None or spec.warm_up is None:
        return None
    with _LOCK:
        ready = _READY.pop(key, None)
        if ready is None:
            ready = _build(spec, key, dict(options))
        _READY[key] = ready  # the most recently used last
        while len(_READY) > TABLES:
            oldest = next(iter(_READY))
            del _READY[oldest]
            _WHERE.pop(oldest, None)
    return ready


def _build(spec: GameSpec, key: str, options: dict[str, Any]) -> Ready[None]:
    game = spec.name
    build = spec.warm_up
    assert build is not None

    def done(ready: Ready[None]) -> None:
        if ready.cancelled():
            return
        err = ready.exception()
        if err is None:
            log.info("the %s AI is ready (%s)", game, key)
        elif (
            isinstance(err, (WorkerLost, MemoryError)) or getattr(err, "kind", "") == "MemoryError"
        ):
            log.warning("the %s AI's tables could not be built (%s): %s", game, key, err)
        else:
            log.error("the %s AI's tables could not be built (%s): %s", game, key, _trace(err))

    if workers() == 0:
        ready: Ready[None] = concurrent.futures.Future()

        def run() -> None:
            ready.set_running_or_notify_cancel()
            try:
                build(options)
            except BaseException as err:
                ready.set_exception(err)
            else:
                ready.set_result(None)

        ready.add_done_callback(done)
        threading.Thread(target=run, name=f"warm-up-{game}", daemon=True).start()
        return ready
    ready, index = _pool().submit(build, (options,), BUILD_SECONDS, f"{game} warm-up", _pin(spec))
    if index is not None:
        _WHERE[key] = index
    ready.add_done_callback(done)
    return ready


def is_ready(game: str, options: Mapping[str, Any]) -> bool:
    """Whether ``game``'s AI can decide at once (its tables are built)."""
    ready = start_warm_up(game, options)
    return ready is None or ready.done()


async def prepare(game: str, options: Mapping[str, Any]) -> None:
    """What a game's AI needs before deciding, waited for off the event loop
    (a failed build is logged; the decision then builds what it needs or
    falls back)."""
    ready = start_warm_up(game, options)
    if ready is not None and not ready.done():
        try:
            # shielded: a cancelled waiter must not cancel a build others wait for
            await asyncio.shield(asyncio.wrap_future(ready))
        except asyncio.CancelledError:
            raise
        except Exception:
            pass


def warm_up_now(game: str, options: Mapping[str, Any]) -> None:
    """Build ``game``'s AI tables now (blocking; tests and threads)."""
    ready = start_warm_up(game, options)
    if ready is not None:
        concurrent.futures.wait([ready])


# --------------------------------------------------------------------------
# Decisions and hints


def rng_for(row: TableRow, name: str) -> random.Random:
    """The computer's random source: deterministic per table, move and player,
    independent of the dice (a hash of the seed, never the seed itself)."""
    digest = hashlib.sha256(f"cpu:{row.seed}:{row.version}:{name}".encode()).digest()
    return random.Random(digest)


async def _ask(
    spec: GameSpec,
    fn: Callable[..., Any],
    args: tuple[Any, ...],
    what: str,
    seconds: float | None = None,
) -> Any:
    """Run a live AI job (a worker, or a thread) for at most ``seconds`` in a
    worker (default :data:`DECISION_SECONDS`); any failure is logged and
    raised as :class:`AIUnavailable`."""

    async def run() -> Any:
        if workers() == 0:
            return await asyncio.to_thread(fn, *args)
        limit = DECISION_SECONDS if seconds is None else seconds
        future, _index = _pool().submit(fn, args, limit, what, _pin(spec))
        return await asyncio.wrap_future(future)

    return await _answer(spec, run())


async def _answer(spec: GameSpec, running: Awaitable[Any]) -> Any:
    """What an AI job gave; any failure logged and raised as :class:`AIUnavailable`."""
    try:
        return await running
    except asyncio.CancelledError:
        raise
    except (WorkerLost, MemoryError) as err:
        log.warning("the %s AI could not answer (%s): the default move instead", spec.name, err)
        raise AIUnavailable(str(err)) from err
    except ai_worker.WorkerError as err:
        if err.kind == "MemoryError":
            log.warning("the %s AI ran out of memory: the default move instead", spec.name)
        else:
            log.error("the %s AI failed: %s", spec.name, _trace(err))
        raise AIUnavailable(str(err)) from err
    except Exception as err:
        log.exception("the %s AI failed", spec.name)
        raise AIUnavailable(str(err)) from err


async def choose(
    game: str, view: dict[str, Any], name: str, legal: list[str], level: str, rng: random.Random
) -> str:
    """The AI's move, computed in a worker (a strong decision can take a
    second). :class:`AIUnavailable` if it cannot answer."""
    spec = registry.spec(game)
    if spec.ai is None:
        raise LookupError(f"{game} has no computer player")
    args = (spec.ai, view, name, list(legal), level, rng)
    move: str = await _ask(spec, ai_worker.decide, args, f"a {game} decision")
    return move


async def choose_while_building(
    game: str, view: dict[str, Any], name: str, legal: list[str], rng: random.Random
) -> str:
    """A move while the game's tables are still being built (the first game
    at these options since the bot started, before the disk cache has them):
    the ``easy`` level, which needs no tables, in a thread of this process —
    the game's pinned worker is busy with the build — so a computer never
    holds a table up for a build (issue 25)."""
    spec = registry.spec(game)
    if spec.ai is None:
        raise LookupError(f"{game} has no computer player")
    args = (spec.ai, view, name, list(legal), "easy", rng)
    try:
        move: str = await asyncio.to_thread(ai_worker.decide, *args)
    except Exception as err:
        log.exception("the %s AI failed", game)
        raise AIUnavailable(str(err)) from err
    return move


async def hint(game: str, view: dict[str, Any], name: str, legal: list[str]) -> dict[str, Any]:
    """The coach's advice (the strong player's move and its numbers), in a
    worker. :class:`AIUnavailable` if it cannot answer."""
    spec = registry.spec(game)
    if spec.ai is None:
        raise LookupError(f"{game} has no computer player")
    args = (spec.ai, view, name, list(legal))
    advice: dict[str, Any] = await _ask(spec, ai_worker.advise, args, f"a {game} hint")
    return advice


class Queued:
    """A background job (a post-game review) handed to the AI: queued at
    once for the review workers (or, with ``CHABUDAI_AI_REVIEW_WORKERS=0``,
    for the live workers after every live job); :meth:`place` says where it
    stands, :meth:`result` waits for it."""

    def __init__(
        self,
        game: str,
        fn: Callable[..., Any],
        args: tuple[Any, ...],
        what: str,
        seconds: float | None = None,
    ) -> None:
        self.spec = registry.spec(game)
        self.fn, self.args = fn, args
        self.pool: _Pool | None = None
        self.future: concurrent.futures.Future[Any] | None = None
        self.error: Exception | None = None
        if workers() == 0:
            return  # a thread, started when it is awaited
        limit = JOB_SECONDS if seconds is None else seconds
        try:
            if review_workers() > 0:
                self.pool = _review_pool()
                self.future, _index = self.pool.submit(fn, args, limit, what, None, BACKGROUND)
            else:
                self.pool = _pool()
                pin = _pin(self.spec)
                self.future, _index = self.pool.submit(fn, args, limit, what, pin, BACKGROUND)
        except Exception as err:  # shut down
            self.error = err

    def place(self) -> int:
        """0: a worker is on it (or it is over); n: the n-th in line."""
        if self.pool is None or self.future is None:
            return 0
        return self.pool.place(self.future)

    async def result(self) -> Any:
        """The job's value; :class:`AIUnavailable` if the AI cannot answer."""
        return await _answer(self.spec, self._wait())

    async def _wait(self) -> Any:
        if self.error is not None:
            raise self.error
        if self.future is None:
            return await asyncio.to_thread(self.fn, *self.args)
        return await asyncio.wrap_future(self.future)


async def job(
    game: str,
    fn: Callable[..., Any],
    args: tuple[Any, ...],
    what: str,
    seconds: float | None = None,
) -> Any:
    """Another pure job of a game's (the post-game review, :mod:`games.review`),
    never before a live one: on the review workers (a thread with
    ``CHABUDAI_AI_WORKERS=0``), for at most ``seconds`` in a worker (default
    :data:`JOB_SECONDS`). :class:`AIUnavailable` if it cannot answer.
    :class:`Queued` is the same with its place in line."""
    return await Queued(game, fn, args, what, seconds).result()


def _trace(err: BaseException) -> str:
    trace = getattr(err, "trace", "")
    return f"{err}\n{trace}" if trace else str(err)
