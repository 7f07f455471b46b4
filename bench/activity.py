"""The Activity's cost (docs/activity.md "Cost"), through SimCord.

    python bench/activity.py [--game nine] [--presses 200] [--viewers 1 50]

One bot (SQLite) serves its Activity on a loopback port; two members play
one table from chat (the first offered control, as bench/interactions.py).
The open Activities are WebSockets of a second process (``--clients``: the
viewers' side, so their reading costs the bot process nothing), one proven
player and the rest spectators, all on the table's channel.

- commit-to-Activity latency: from the commit's announcement on the bus
  (``Bus.publish``) to the frame's arrival at each socket (both processes
  read the same monotonic clock), p50/p99 over every (press, viewer), for
  each ``--viewers`` count; and the bot's side alone: from the
  announcement to the frame written to every socket (p50/p99 per press);
- the CPU a press costs the bot process (``time.process_time``: the bot,
  its followers, the table message's picture, SimCord's simulated Discord)
  with no Activity open against ``max(--viewers)`` open, in alternating
  rounds of the same run.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "bot"))

import aiohttp  # noqa: E402
from aiohttp import web  # noqa: E402

ROUNDS = 2  # alternating rounds of presses without and with Activities open


# ----------------------------------------------------------- the viewers' side


async def clients(url: str, channel: str, code: str, count: int) -> None:
    """``count`` sockets (the first proven by ``code``) until "stop" on
    stdin; then one JSON line: every table frame's (version, arrival)."""
    arrivals: list[tuple[int, int, float]] = []
    async with aiohttp.ClientSession() as session:
        res = await session.post(url + "/activity/api/token", json={"code": code})
        token = (await res.json())["access_token"]
        socks = []
        for n in range(count):
            ws = await session.ws_connect(url + "/activity/api/ws")
            hello = {"op": "hello", "token": token if n == 0 else None, "channel": channel}
            await ws.send_str(json.dumps(hello))
            socks.append(ws)

        async def read(ws: aiohttp.ClientWebSocketResponse) -> None:
            async for msg in ws:
                if msg.type != aiohttp.WSMsgType.TEXT:
                    return
                at = time.perf_counter()
                if msg.data.startswith('{"op":"table"'):
                    frame = json.loads(msg.data)
                    arrivals.append((frame["table"], frame["version"], at))

        readers = [asyncio.create_task(read(ws)) for ws in socks]
        print("ready", flush=True)
        await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
        for ws in socks:
            await ws.close()
        for task in readers:
            task.cancel()
    print(json.dumps(arrivals), flush=True)


# -------------------------------------------------------------- the bot's side


class Viewers:
    """The second process's sockets."""

    def __init__(self, proc: asyncio.subprocess.Process) -> None:
        self.proc = proc

    @classmethod
    async def open(cls, url: str, channel: int, code: str, count: int) -> Viewers:
        proc = await asyncio.create_subprocess_exec(
            sys.executable, __file__, "--clients", url, str(channel), code, str(count),
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
        )  # fmt: skip
        assert proc.stdout is not None
        line = await proc.stdout.readline()
        assert line.strip() == b"ready", line
        return cls(proc)

    async def close(self) -> list[tuple[tuple[int, int], float]]:
        proc = self.proc
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.write(b"stop\n")
        await proc.stdin.drain()
        line = await proc.stdout.read()  # one JSON line, to the end (may exceed a read's limit)
        await proc.wait()
        return [((int(t), int(v)), float(at)) for t, v, at in json.loads(line)]


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[max(0, min(len(ordered) - 1, round(q * (len(ordered) - 1))))]


async def run(game: str, presses: int, viewer_counts: list[int]) -> dict[str, Any]:
    import simcord
    from simtable import first_choice, mover_of, press, table_controls

    from bot.activity import SandboxIdentity, activity_app
    from bot.app import create_bot
    from bot.storage import Store

    out: dict[str, Any] = {"game": game, "presses": presses, "latency": {}, "cpu": {}}
    with tempfile.TemporaryDirectory() as tmp:
        bot = create_bot(Store(Path(tmp) / "bench.sqlite3"))
        published: dict[tuple[int, int], float] = {}  # (table, version) → announced
        bus = bot.tables.bus
        publish = bus.publish

        async def timed_publish(event: Any) -> None:
            published.setdefault((event.after.id, event.after.version), time.perf_counter())
            await publish(event)

        bus.publish = timed_publish  # type: ignore[method-assign]
        try:
            async with simcord.run(bot) as env:
                guild = env.create_guild()
                alice = guild.add_member(env.create_user("alice"))
                bob = guild.add_member(env.create_user("bob"))
                users = [alice, bob]
                names = {u.id: (u.name, "en-US") for u in users}
                identity = SandboxIdentity(names)
                app = activity_app(bot, identity)
                hub = app["activity"]
                written: dict[tuple[int, int], float] = {}  # all sockets written (or queued)
                push = hub.push

                async def timed_push(channel: int, shown: Any, socks: Any = None) -> None:
                    await push(channel, shown, socks)
                    if shown is not None:
                        written[(shown.row.id, shown.row.version)] = time.perf_counter()

                hub.push = timed_push
                runner = web.AppRunner(app, access_log=None)
                await runner.setup()
                site = web.TCPSite(runner, "127.0.0.1", 0)
                await site.start()
                host, port = runner.addresses[0][:2]
                url = f"http://{host}:{port}"
                channel = guild.create_text_channel("bench")
                state: dict[str, Any] = {}

                async def new_table() -> None:
                    res = await alice.slash(channel, "play", game=game)
                    msg = res.response
                    await bob.click(msg, label="Join")
                    await alice.click(msg, label="Start")
                    state["msg"] = msg

                async def presses_of(n: int) -> tuple[float, list[tuple[int, int]]]:
                    """``n`` presses; the bot process's CPU seconds, and the
                    (table, version) each press committed."""
                    versions: list[tuple[int, int]] = []
                    cpu = 0.0
                    done = 0
                    while done < n:
                        msg = state["msg"]
                        if not table_controls(msg):
                            await new_table()
                            continue
                        before = set(published)
                        c0 = time.process_time()
                        await press(mover_of(msg, users), msg, first_choice(msg))
                        await env.settle()
                        cpu += time.process_time() - c0
                        done += 1
                        versions += [k for k in published if k not in before]
                    return cpu, versions

                await new_table()
                await presses_of(10)  # warm up: imports, fonts, pictures' caches
                most = max(viewer_counts)
                cpu = {0: [], most: []}
                for _ in range(ROUNDS):  # alternating: none, then the most viewers
                    for count in (0, most):
                        viewers = None
                        if count:
                            viewers = await Viewers.open(url, channel.id, identity.mint(alice.id), count)
                        spent, _ = await presses_of(presses // ROUNDS)
                        cpu[count].append(spent / (presses // ROUNDS))
                        if viewers is not None:
                            await viewers.close()
                for count in viewer_counts:
                    published.clear()
                    viewers = await Viewers.open(url, channel.id, identity.mint(alice.id), count)
                    await asyncio.sleep(0.2)  # every socket caught up
                    published.clear()
                    _, versions = await presses_of(presses)
                    await asyncio.sleep(0.2)
                    arrivals = await viewers.close()
                    wanted = set(versions)
                    lags = [at - published[v] for v, at in arrivals if v in wanted and v in published]
                    sent = [written[v] - published[v] for v in wanted if v in written and v in published]
                    per_version = dict.fromkeys(wanted, 0)
                    for v, _at in arrivals:
                        if v in per_version:
                            per_version[v] += 1
                    out["latency"][count] = {
                        "samples": len(lags),
                        "p50_ms": statistics.median(lags) * 1000,
                        "p99_ms": pct(lags, 0.99) * 1000,
                        "max_ms": max(lags) * 1000,
                        "missed": sum(1 for v in wanted if per_version[v] < count),
                        "written_p50_ms": statistics.median(sent) * 1000,
                        "written_p99_ms": pct(sent, 0.99) * 1000,
                    }
                out["cpu"] = {
                    "none_ms": statistics.mean(cpu[0]) * 1000,
                    "open_ms": statistics.mean(cpu[most]) * 1000,
                    "rounds": [[a * 1000, b * 1000] for a, b in zip(cpu[0], cpu[most], strict=True)],
                    "viewers": most,
                }
                await runner.cleanup()
        finally:
            await bot.tables.store.close()
    return out


def frame_costs() -> list[str]:
    """A public frame's size, the time to build and encode it, and what
    permessage-deflate would cost per socket (the server sends frames
    uncompressed: one frame goes to many sockets, each would deflate it)."""
    import zlib

    from bot.activity import frames
    from bot.tables.rows import TableRow
    from games import registry
    from games.core import SeededSource

    lines = []
    for game in ("nine", "sixtysix", "yahtzee"):
        eng = registry.engine(game)
        state = eng.new_game(["alice", "bob"], {}, "alice", SeededSource("bench-activity"))
        for _ in range(3):
            mover = eng.to_move(state)[0]
            eng.apply(state, mover, eng.legal_moves(state, mover)[0])
        seats = [{"id": 10, "name": "alice", "display": "alice"},
                 {"id": 11, "name": "bob", "display": "bob"}]  # fmt: skip
        row = TableRow(
            id=1, guild_id=1, channel_id=2, message_id=3, game=game, phase="playing",
            host_id=10, seats=seats, options={}, state=eng.to_json(state), ui={}, seed=None,
            version=5, deadline=None, created_at=0.0, updated_at=0.0,
        )  # fmt: skip
        n = 200
        t0 = time.perf_counter()
        for _ in range(n):
            frame = frames.table_frame(frames.Shown(row, state), None, "en")
            data = json.dumps(frame, ensure_ascii=False, separators=(",", ":")).encode()
        built = (time.perf_counter() - t0) / n
        t0 = time.perf_counter()
        for _ in range(n):
            z = zlib.compressobj(wbits=-15)
            packed = z.compress(data) + z.flush(zlib.Z_SYNC_FLUSH)
        deflate = (time.perf_counter() - t0) / n
        lines.append(
            f"{game}: a public frame {len(data)} bytes, built and encoded in "
            f"{built * 1000:.2f} ms; deflated {len(packed)} bytes in {deflate * 1e6:.0f} µs a socket"
        )
    return lines


def main() -> int:
    if sys.argv[1:2] == ["--clients"]:
        url, channel, code, count = sys.argv[2:6]
        asyncio.run(clients(url, channel, code, int(count)))
        return 0
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="nine")
    parser.add_argument("--presses", type=int, default=200)
    parser.add_argument("--viewers", type=int, nargs="+", default=[1, 50])
    args = parser.parse_args()
    for line in frame_costs():
        print(line)
    out = asyncio.run(run(args.game, args.presses, args.viewers))
    print(f"game {out['game']}, {out['presses']} presses per figure")
    for count, lat in out["latency"].items():
        print(
            f"commit → Activity, {count:>3} viewer(s): p50 {lat['p50_ms']:.2f} ms, "
            f"p99 {lat['p99_ms']:.2f} ms, max {lat['max_ms']:.2f} ms "
            f"({lat['samples']} arrivals, {lat['missed']} commits missed by a socket); "
            f"written to every socket: p50 {lat['written_p50_ms']:.2f} ms, "
            f"p99 {lat['written_p99_ms']:.2f} ms"
        )
    cpu = out["cpu"]
    rounds = "; ".join(f"{a:.2f} / {b:.2f}" for a, b in cpu["rounds"])
    print(
        f"CPU a press (bot process): {cpu['none_ms']:.2f} ms with no Activity, "
        f"{cpu['open_ms']:.2f} ms with {cpu['viewers']} open "
        f"(×{cpu['open_ms'] / cpu['none_ms']:.2f}; rounds none / open: {rounds})"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
