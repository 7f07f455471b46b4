"""bot.ai's worker processes (docs/cpu.md): decisions and table builds run in
another process, the same moves as in a thread; a worker that dies, runs out
of memory or of time is replaced and the job raises ``AIUnavailable``; the
warm-ups are remembered per key (least recently used first out) and
forgotten with the worker that built them; ``CHABUDAI_AI_WORKERS=0`` runs in
threads."""

from __future__ import annotations

import asyncio
import concurrent.futures
import os
import random
import time
from typing import Any

import pytest

from bot import ai, ai_worker
from games import registry
from games import sixtysix as g
from games.core import SeededSource
from games.sixdice import tablecache
from games.sixtysix import ai as sixtysix_ai

SMALL = {"target": 2000, "start": 300}


@pytest.fixture(scope="module")
def pool():
    """The workers of this module's tests (none left behind)."""
    ai.shutdown()
    yield
    ai.shutdown()


@pytest.fixture
def workers(pool, monkeypatch):
    """Workers, and nothing asked of them yet as far as this process knows."""
    monkeypatch.setenv("CHABUDAI_AI_WORKERS", "2")
    monkeypatch.setattr(ai, "_READY", {})
    monkeypatch.setattr(ai, "_WHERE", {})
    return ai


def sixtysix_position(seed: int = 5, plies: int = 4) -> tuple[dict[str, Any], str, list[str]]:
    """A real Sixty-Six decision: a seeded deal after a few greedy moves."""
    state = g.new_game(["A", "B"], {}, None, SeededSource(f"lag-{seed}"))
    for _ in range(plies + 1):
        me = next(p for p in g.to_move(state) if g.legal_moves(state, p))
        legal = g.legal_moves(state, me)
        view = g.view(state, me)
        if _ == plies:
            return view, me, legal
        g.apply(state, me, sixtysix_ai.greedy(view, me, legal))
    raise AssertionError


def run_job(fn, args=(), limit=30.0, pin=None):
    future, _ = ai._pool().submit(fn, args, limit, "a test job", pin)
    return future


async def test_a_decision_in_a_worker_is_the_threads_decision(workers):
    view, me, legal = sixtysix_position()
    assert len(legal) > 1
    move = await ai.choose("sixtysix", view, me, legal, "strong", random.Random(7))
    assert move == sixtysix_ai.choose(view, me, legal, "strong", random.Random(7))
    pid = run_job(os.getpid).result(10)
    assert pid != os.getpid() and pid in ai.worker_pids()
    advice = await ai.hint("sixtysix", view, me, legal)
    assert advice == sixtysix_ai.hint(view, me, legal)
    # an unknown level plays as normal, as before
    assert (
        await ai.choose("nine", *nine_position(), "grandmaster", random.Random(1)) in legal_nine()
    )


def nine_position() -> tuple[dict[str, Any], str, list[str]]:
    eng: Any = registry.engine("nine")
    state = eng.new_game(["A", "B"], {}, "A", SeededSource("nine"))
    me = eng.to_move(state)[0]
    eng.apply(state, me, "roll")
    return eng.view(state, me), me, eng.legal_moves(state, me)


def legal_nine() -> list[str]:
    return nine_position()[2]


async def test_the_workers_start_without_the_bot(workers):
    """A worker is a clean process (forkserver/spawn): no discord imported."""
    import sys

    names = run_job(eval, ("sorted(__import__('sys').modules)",)).result(10)
    assert "discord" in sys.modules and "discord" not in names
    assert "bot.ai_worker" in names and not {"bot.storage", "bot.db.core"} & set(names)


async def test_warm_up_is_built_in_its_pinned_worker_and_remembered(workers):
    ready = ai.start_warm_up("sixdice", SMALL)
    assert ready is not None and not ai.is_ready("sixdice", SMALL)
    await ai.prepare("sixdice", SMALL)
    assert ai.is_ready("sixdice", SMALL) and ready.exception() is None
    key = registry.spec("sixdice").warm_up_key(SMALL)
    home = ai._WHERE[key]
    assert ai._pool().pinned["sixdice"].index == home
    # the jobs of a pinned game run where its tables are
    assert run_job(os.getpid, pin="sixdice").result(10) == ai._pool().slots[home].pid
    eng: Any = registry.engine("sixdice")
    state = eng.new_game(["A", "B"], SMALL, "A", SeededSource("six"))
    eng.apply(state, "A", "roll")
    legal = eng.legal_moves(state, "A")
    move = await ai.choose("sixdice", eng.view(state, "A"), "A", legal, "strong", random.Random(1))
    assert move in legal
    assert ai.start_warm_up("nine", {}) is None and ai.is_ready("nine", {})


async def test_a_dead_worker_is_replaced_and_forgets_its_tables(workers):
    ai.warm_up_now("sixdice", SMALL)
    key = registry.spec("sixdice").warm_up_key(SMALL)
    home = ai._WHERE[key]
    before = ai._pool().slots[home].pid
    with pytest.raises(ai.AIUnavailable):  # the worker dies during the job
        await ai._ask(registry.spec("sixdice"), os._exit, (3,), "a crash")
    assert key not in ai._READY and not ai.is_ready("sixdice", SMALL)  # built again
    await ai.prepare("sixdice", SMALL)
    assert ai.is_ready("sixdice", SMALL)
    assert ai._pool().slots[home].pid not in (None, before)


async def test_a_worker_killed_while_idle_is_replaced(workers):
    pid = run_job(os.getpid).result(10)
    os.kill(pid, 9)
    time.sleep(0.2)
    for _ in range(4):  # whichever worker takes them, they are answered
        assert run_job(os.getpid).result(10) not in (None, pid)


async def test_the_memory_cap_stops_a_greedy_job_and_the_worker_goes_on(workers):
    with pytest.raises(ai_worker.WorkerError) as caught:
        run_job(bytearray, (8 * 1024**3,)).result(30)  # 8 GB: over the 2 GB cap
    assert caught.value.kind == "MemoryError"
    with pytest.raises(ai.AIUnavailable):
        await ai._ask(registry.spec("nine"), bytearray, (8 * 1024**3,), "a greedy job")
    assert run_job(sum, ([1, 2],)).result(10) == 3  # the same worker answers again


async def test_a_job_over_its_time_is_killed(workers):
    future = run_job(time.sleep, (30,), limit=0.3)
    with pytest.raises(ai.WorkerLost, match="ran over"):
        future.result(10)
    assert run_job(sum, ([1, 2],)).result(10) == 3


async def test_the_ai_failing_is_unavailable_and_logged(workers, caplog):
    with pytest.raises(ai.AIUnavailable):
        await ai.choose("sixtysix", {}, "A", ["play AS", "play KS"], "strong", random.Random(1))
    assert any("the sixtysix AI failed" in r.getMessage() for r in caplog.records)


async def test_a_cancelled_wait_does_not_cancel_the_build(workers):
    blocker = run_job(time.sleep, (0.5,), pin="sixdice")  # the sixdice worker is busy
    task = asyncio.ensure_future(ai.prepare("sixdice", SMALL))
    await asyncio.sleep(0.05)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    blocker.result(10)
    ai.warm_up_now("sixdice", SMALL)
    key = registry.spec("sixdice").warm_up_key(SMALL)
    assert ai._READY[key].exception() is None


def test_the_warm_ups_remembered_are_bounded(workers, monkeypatch):
    built: list[str] = []
    monkeypatch.setenv("CHABUDAI_AI_WORKERS", "0")  # threads: the spec's build runs here
    monkeypatch.setattr(ai, "TABLES", 3)
    monkeypatch.setattr(tablecache, "load_or_build", built.append)
    for target in range(1000, 1006):
        ai.warm_up_now("sixdice", {"target": target})
    assert len(ai._READY) == 3 and len(built) == 6
    ai.warm_up_now("sixdice", {"target": 1005})  # remembered: not built again
    ai.warm_up_now("sixdice", {"target": 1000})  # forgotten: built again
    assert len(built) == 7


async def test_threads_when_asked(workers, monkeypatch):
    monkeypatch.setenv("CHABUDAI_AI_WORKERS", "0")
    ai.shutdown()
    view, me, legal = sixtysix_position(6, 7)
    move = await ai.choose("sixtysix", view, me, legal, "strong", random.Random(3))
    assert move == sixtysix_ai.choose(view, me, legal, "strong", random.Random(3))
    assert ai.worker_pids() == [] and ai._POOL is None


def test_the_sixdice_tables_come_back_from_the_disk_cache_unchanged(tmp_path):
    """A built table saved and loaded gives the same numbers and the same
    moves; the second time nothing is built (games.sixdice.tablecache)."""
    from games.sixdice import policy, tablecache

    opts = {"target": 1000, "start": 300}
    policy_caches = (policy.race_table, policy.win_table, policy.points_table)
    for fn in policy_caches:
        fn.cache_clear()
    assert tablecache.load_or_build(opts, tmp_path) is True
    key = policy.rules_key({})
    built = policy.race_table(key, 300, 1000), policy.points_table(key, 300, 1000, 0.0)
    for fn in policy_caches:
        fn.cache_clear()
    assert tablecache.load_or_build(opts, tmp_path) is False
    loaded = policy.race_table(key, 300, 1000), policy.points_table(key, 300, 1000, 0.0)
    assert loaded[0] is not built[0]  # from the file, not the process's cache
    for a, b in zip(built[0].me + built[0].op + built[0].fin, loaded[0].me + loaded[0].op + loaded[0].fin, strict=True):
        assert (a == b).all()
    assert (built[1].table.v == loaded[1].table.v).all()
    # another source or options: another file
    assert tablecache.cache_path({"target": 1050}, tmp_path) != tablecache.cache_path(opts, tmp_path)
    assert len(list(tmp_path.glob("sixdice-*.npz"))) == 1



def test_a_worker_takes_every_live_job_before_a_background_one() -> None:
    """One worker, busy: a review queued first and a move queued after it;
    the move runs first (it was the review in arrival order), the review
    still runs, and while it waits it says its place (behind the move)."""
    pool = ai._Pool(1, 0, lambda index, running: None, 0)
    try:
        busy, _ = pool.submit(time.sleep, (1.0,), 30.0, "a long job", None)
        for _ in range(3000):  # until the worker has it
            if busy.running():
                break
            time.sleep(0.01)
        review, _ = pool.submit(os.getpid, (), 30.0, "a review", None, ai.BACKGROUND)
        move, _ = pool.submit(os.getpid, (), 30.0, "a move", None)
        order: list[str] = []
        review.add_done_callback(lambda _f: order.append("review"))
        move.add_done_callback(lambda _f: order.append("move"))
        assert pool.place(review) == 2 and pool.place(move) == 1  # the move goes first
        concurrent.futures.wait([busy, review, move], timeout=30)
        assert order == ["move", "review"]
        assert review.result() == move.result() and pool.place(review) == 0
    finally:
        pool.close(2.0)
