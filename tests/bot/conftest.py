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
