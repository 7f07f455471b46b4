"""games/ stays pure: no discord, no Pillow, no database, no bot."""
from __future__ import annotations

import ast
import pathlib

FORBIDDEN = {"discord", "PIL", "aiosqlite", "bot", "sqlite3", "asyncio"}


def test_games_imports_nothing_impure() -> None:
    root = pathlib.Path(__file__).resolve().parents[1] / "games"
    bad = []
    for path in root.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module]
            for name in names:
                if name.split(".")[0] in FORBIDDEN:
                    bad.append(f"{path.name}: {name}")
    assert not bad, bad
