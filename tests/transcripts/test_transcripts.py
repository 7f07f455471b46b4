"""Golden transcripts: everything the bot says in every scene, in English
and in Japanese, compared with the files in ``golden/`` — an approval test
of the bot's words. A difference fails with the diff; when the change is
meant, ``python -m tests.transcripts.regen`` writes the files again and the
diff is read in review (docs/transcripts.md)."""

from __future__ import annotations

import asyncio
import difflib
import re

import pytest

from .run import GOLDEN, LANGS, play
from .scenes import SCENES

CASES = [pytest.param(scene, lang, id=f"{lang}-{scene}") for lang in LANGS for scene in SCENES]
SHOWN = 120  # diff lines in a failure's message


def difference(name: str, old: str | None, new: str) -> str | None:
    """``None`` when the transcripts agree; else what a failure says: the
    unified diff (its first lines) and what to do."""
    if old == new:
        return None
    if old is None:
        head = f"{name} has no golden file yet"
        diff: list[str] = []
    else:
        head = f"{name} differs from its golden file"
        diff = list(
            difflib.unified_diff(
                old.splitlines(), new.splitlines(), f"golden/{name}", "now", lineterm="", n=3
            )
        )
    more = f"\n… and {len(diff) - SHOWN} more lines of diff" if len(diff) > SHOWN else ""
    return (
        f"{head}: run python -m tests.transcripts.regen and read the diff"
        f" (git diff tests/transcripts/golden)\n" + "\n".join(diff[:SHOWN]) + more
    )


@pytest.mark.parametrize(("scene", "lang"), CASES)
def test_transcript_matches_its_golden_file(scene: str, lang: str) -> None:
    path = GOLDEN / lang / f"{scene}.txt"
    old = path.read_text(encoding="utf-8") if path.exists() else None
    new = asyncio.run(play(scene, lang))
    problem = difference(f"{lang}/{scene}.txt", old, new)
    if problem is not None:
        pytest.fail(problem, pytrace=False)


def test_every_golden_file_is_a_scene() -> None:
    """No golden file left behind by a scene that is gone or renamed."""
    files = {f"{p.parent.name}/{p.stem}" for p in GOLDEN.glob("*/*.txt")}
    assert files == {f"{lang}/{scene}" for lang in LANGS for scene in SCENES}


VOLATILE = re.compile(
    r"(?<![0-9])[0-9]{15,21}(?![0-9])"  # a snowflake id
    r"|\bc[bsrqt]:[0-9]+:"  # a custom id
    r"|<t:[0-9]"  # an absolute Discord timestamp
    r"|</[^>:]+:[0-9]+>"  # a command mention with its id
)


def test_the_files_name_what_varies_from_run_to_run() -> None:
    """No id, custom id or absolute time in a golden file: they would differ
    on every machine, and mean nothing to a reader."""
    found = [
        f"{p.parent.name}/{p.name}:{n}: {line}"
        for p in sorted(GOLDEN.glob("*/*.txt"))
        for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), start=1)
        if VOLATILE.search(line)
    ]
    assert not found, found[:10]


def test_a_difference_shows_the_diff_and_the_command() -> None:
    old = "alice › /help\n  Hello\n"
    new = "alice › /help\n  Hi\n"
    said = difference("en/help.txt", old, new)
    assert said is not None
    assert "python -m tests.transcripts.regen" in said
    assert "-  Hello" in said and "+  Hi" in said
    assert difference("en/help.txt", old, old) is None
