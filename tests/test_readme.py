"""The README's two commands stay true: CI runs exactly its test command,
and that command brings what the suite drives (nothing is skipped on a
fresh Debian/Ubuntu machine)."""
from __future__ import annotations

import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parent.parent


def readme_commands() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    return [block.strip() for block in re.findall(r"```sh\n(.*?)```", text, re.S)]


def test_ci_runs_exactly_the_readme_test_command() -> None:
    run, test = readme_commands()[:2]
    assert "pytest" in test and "bot" in run
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").strip().splitlines()
    assert ci[-1].strip() == test


def test_the_test_command_installs_what_the_tests_drive() -> None:
    test = readme_commands()[1]
    assert test.startswith("sh scripts/test-deps.sh && ")
    deps = (ROOT / "scripts" / "test-deps.sh").read_text(encoding="utf-8")
    for program in ("chromium", "postgresql"):
        assert program in deps
