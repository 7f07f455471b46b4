"""``python -m tests.render.regen``: rewrite the golden PNGs."""

from __future__ import annotations

from .golden import GOLDEN, render_case
from .views import golden_cases


def main() -> None:
    GOLDEN.mkdir(exist_ok=True)
    for name in golden_cases():
        pic = render_case(name)
        (GOLDEN / f"{name}.png").write_bytes(pic.png)
        print(f"{name}.png  {len(pic.png) / 1024:.1f} KB  {pic.alt[:80]}")


if __name__ == "__main__":
    main()
