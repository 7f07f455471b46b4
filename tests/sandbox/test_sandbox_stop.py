"""Ctrl+C stops the sandbox (issue 23): one SIGINT to a running
``python -m bot sandbox`` ends it cleanly within seconds, exit status 0, no
traceback — the database connection's thread no longer keeps it alive. And
its terminal shows only what concerns a player: no voice or intent warnings
from discord.py at start."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path


def start(tmp_path: Path) -> tuple[subprocess.Popen[str], list[str]]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "bot", "sandbox", "--db", str(tmp_path / "s.sqlite3"), "--tick", "0.05"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    lines: list[str] = []
    assert proc.stdout is not None
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        lines.append(line)
        if "Ctrl+C" in line:
            break
    threading.Thread(target=lambda: lines.extend(proc.stdout), daemon=True).start()  # type: ignore[arg-type]
    return proc, lines


def test_one_sigint_stops_the_sandbox_cleanly(tmp_path: Path) -> None:
    proc, lines = start(tmp_path)
    try:
        assert any("Ctrl+C" in line for line in lines), "".join(lines)
        time.sleep(1.0)  # the clock ticking, the pages served
        sent = time.monotonic()
        proc.send_signal(signal.SIGINT)
        code = proc.wait(timeout=5)
        took = time.monotonic() - sent
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    time.sleep(0.2)  # the reader thread drains the rest
    out = "".join(lines)
    assert code == 0, out
    assert took < 5, (took, out)
    assert "chabudai sandbox stopped." in out
    assert "Traceback" not in out, out
    # nothing at start that does not concern a player
    for unrelated in ("PyNaCl", "davey", "Guilds intent", "TestBot"):
        assert unrelated not in out, out
