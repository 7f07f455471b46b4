from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from simtable import Harness


@pytest.fixture
async def harness(tmp_path: Path) -> AsyncIterator[Harness]:
    h = Harness(tmp_path / "chabudai.sqlite3")
    yield h
    await h.close()


@pytest.fixture(autouse=True)
def no_bot_errors_logged(caplog: pytest.LogCaptureFixture):
    """A drawing or presenting failure is logged, not raised: fail on it here."""
    yield
    errors = [r for r in caplog.records if r.levelname in ("ERROR", "CRITICAL")]
    assert not errors, [r.getMessage() for r in errors]
