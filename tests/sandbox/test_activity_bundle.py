"""The Activity's built client (bot/activity/static/, committed so that
``pip install -e .`` needs no npm) is built from the sources as they are
(web/activity/): each built file names in its first line the SHA-256 of the
sources it was built from, and this test recomputes it — a change to
web/activity/src/**, style.css, index.html, build.mjs or package-lock.json
without ``scripts/build-activity.sh`` fails here."""

from __future__ import annotations

import hashlib
import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
WEB = ROOT / "web" / "activity"
STATIC = ROOT / "bot" / "activity" / "static"
BUILT = [STATIC / "index.html", STATIC / "assets" / "main.js", STATIC / "assets" / "style.css"]
BANNER = re.compile(r"chabudai-activity-source ([0-9a-f]{64})")


def source_digest() -> str:
    """A second reading of build.mjs's ``sourceDigest``: every source's path
    (relative to web/activity, "/"-separated) and bytes, sorted by path."""
    inputs = [p for p in (WEB / "src").rglob("*") if p.is_file()]
    inputs += [WEB / name for name in ("style.css", "index.html", "build.mjs", "package-lock.json")]
    digest = hashlib.sha256()
    for name in sorted(p.relative_to(WEB).as_posix() for p in inputs):
        digest.update(name.encode() + b"\0")
        digest.update((WEB / name).read_bytes())
        digest.update(b"\0")
    return digest.hexdigest()


def test_the_built_client_is_built_from_the_current_sources() -> None:
    want = source_digest()
    for path in BUILT:
        first = path.read_text(encoding="utf-8").split("\n", 1)[0]
        found = BANNER.search(first)
        assert found, (
            f"{path.relative_to(ROOT)} has no source banner: run scripts/build-activity.sh"
        )
        assert found.group(1) == want, (
            f"{path.relative_to(ROOT)} was built from other sources than web/activity/ now:"
            " run scripts/build-activity.sh and commit bot/activity/static/"
        )


def test_the_page_is_the_source_page() -> None:
    built = (STATIC / "index.html").read_text(encoding="utf-8").split("\n", 1)[1]
    assert built == (WEB / "index.html").read_text(encoding="utf-8")


def test_the_built_client_is_installed_with_the_package() -> None:
    """pyproject's package-data takes the built files into a wheel (a
    non-editable install serves them too)."""
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"][
        "package-data"
    ]
    patterns = data.get("bot.activity", [])
    for path in BUILT:
        rel = path.relative_to(ROOT / "bot" / "activity")
        assert any(rel.match(p) for p in patterns), f"{rel} is not in package-data"
