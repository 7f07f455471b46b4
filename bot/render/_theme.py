"""The look of every picture: its sizes, the colours of the wooden table
and the paper, the players' colours, and the WCAG contrast they meet."""

from __future__ import annotations

# Pictures are designed 640 px wide. Discord shows an attachment at most
# ~550 px wide, so the smallest text (17 px here) stays ≥ 14 px on screen.
WIDTH = 640
SMALL = 17
BODY = 20
LARGE = 26
HUGE = 40

# Colours: a dark wooden table (ちゃぶ台) that reads on Discord's dark and
# light themes alike, cream ink, paper for score sheets.
Color = tuple[int, int, int]
TABLE: Color = (74, 50, 36)
TABLE_EDGE: Color = (120, 86, 58)
PANEL: Color = (58, 39, 28)
INK: Color = (247, 238, 222)
INK_DIM: Color = (196, 178, 156)
PAPER: Color = (250, 246, 236)
PAPER_LINE: Color = (200, 190, 170)
PAPER_INK: Color = (40, 32, 26)
PAPER_DIM: Color = (150, 140, 128)
RED: Color = (214, 40, 40)
GOLD: Color = (244, 190, 60)
GREEN: Color = (96, 200, 120)
BLUE: Color = (110, 170, 250)
HILITE: Color = (255, 214, 102)
# Text on the dark wood meets WCAG AA (4.5:1, tests/bot/test_bot_results_words.py):
# a negative number is a light red (RED itself is 2.4:1 on TABLE: stamps and
# marks only), and a winner's row is a dark green under INK_DIM and GREEN.
NEGATIVE: Color = (255, 128, 118)  # 4.8:1 on TABLE, 5.8:1 on PANEL
WIN_ROW: Color = (44, 72, 44)  # INK_DIM 4.9:1, GREEN 4.8:1 on it
AA = 4.5  # WCAG AA contrast for text

# Player colours for charts (Okabe–Ito, colour-blind safe, plus two more).
PLAYER_COLOURS: tuple[Color, ...] = (
    (230, 159, 0),
    (86, 180, 233),
    (0, 158, 115),
    (240, 228, 66),
    (213, 94, 0),
    (204, 121, 167),
    (255, 255, 255),
    (160, 160, 160),
)

# What a name with no character the font can draw (all emoji) shows.
NO_NAME = "?"


def luminance(c: Color) -> float:
    """Relative luminance (WCAG 2)."""

    def lin(v: int) -> float:
        x = v / 255
        return x / 12.92 if x <= 0.04045 else ((x + 0.055) / 1.055) ** 2.4

    r, g, b_ = (lin(v) for v in c)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b_


def contrast(a: Color, b_: Color) -> float:
    """The WCAG 2 contrast ratio of two colours (1 to 21)."""
    la, lb = sorted((luminance(a), luminance(b_)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


# Colours that must come out exact (pips, suits, marks); the renderers add
# theirs at import. The rest of the palette adapts to each picture.
KEY_COLOURS: list[Color] = [
    TABLE,
    TABLE_EDGE,
    PANEL,
    INK,
    INK_DIM,
    PAPER,
    PAPER_LINE,
    PAPER_INK,
    PAPER_DIM,
    RED,
    GOLD,
    GREEN,
    BLUE,
    HILITE,
    NEGATIVE,
    WIN_ROW,
    *PLAYER_COLOURS,
    (0, 0, 0),
    (255, 255, 255),
]
