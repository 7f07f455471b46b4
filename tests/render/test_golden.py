"""Golden-image tests: every fixed case renders within a small tolerance of
its stored PNG (regenerate with ``python -m tests.render.regen``)."""

from __future__ import annotations

import io

import numpy as np
import pytest
from PIL import Image

from bot.render import _base

from .golden import GOLDEN, render_case
from .views import golden_cases

CASES = sorted(golden_cases())


def _pixels(png: bytes) -> np.ndarray:
    return np.asarray(Image.open(io.BytesIO(png)).convert("RGB"), dtype=np.int16)


@pytest.mark.parametrize("name", CASES)
def test_matches_golden(name: str) -> None:
    if "emoji" in name and not _base.EMOJI:
        pytest.skip("no colour emoji font here (scripts/test-deps.sh installs it)")
    path = GOLDEN / f"{name}.png"
    assert path.exists(), f"missing golden {path.name}: run python -m tests.render.regen"
    pic = render_case(name)
    got, want = _pixels(pic.png), _pixels(path.read_bytes())
    assert got.shape == want.shape, f"{name}: size {got.shape} != golden {want.shape}"
    diff = np.abs(got - want).max(axis=2)
    # small tolerance: anti-aliasing/quantisation noise, not a changed picture
    assert (diff > 40).mean() < 0.002, f"{name}: {(diff > 40).mean():.2%} of pixels differ"
    assert diff.mean() < 1.5


@pytest.mark.parametrize("name", CASES)
def test_picture_budget_and_alt(name: str) -> None:
    pic = render_case(name)
    assert pic.png.startswith(b"\x89PNG")
    assert len(pic.png) <= 150 * 1024
    assert 10 < len(pic.alt) <= 1024
    assert pic.filename.endswith(".png")
    img = Image.open(io.BytesIO(pic.png))
    assert "A" not in img.getbands() and "transparency" not in img.info  # opaque


def test_tolerance_catches_a_change() -> None:
    """The comparison is not vacuous: another case's picture fails it."""
    a = _pixels(render_case("nine_mid").png)
    b = _pixels((GOLDEN / "nine_over.png").read_bytes())
    if a.shape == b.shape:
        assert (np.abs(a - b).max(axis=2) > 40).mean() >= 0.002
