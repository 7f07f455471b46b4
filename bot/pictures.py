"""The pictures of any game, through its plugin (:mod:`bot.games`).

- :func:`table_picture` — the table as ``view`` shows it (public view or a
  player's view); ``None`` when the game draws no picture.
- :func:`hand_picture` — a player's private picture (Sixty-Six hand, Bluff
  dice under the cup as that player saw them).
- :func:`result_picture` — final standings and settlement, with a score chart
  where the game wants one and ``history`` is given.

People are drawn by the names they chose: ``names`` maps each seat's engine
name to its display name (:func:`display_names`); the renderers read it from
``view["display_names"]`` (never a secret: the names the table shows anyway).
A table's UI state (``ui``) reaches the picture through the game's plugin
(:meth:`bot.games.base.GamePlugin.picture_view`: Yahtzee's held dice), so
the picture and the buttons show the same thing.

Pure functions of their inputs. A table or hand picture whose view did
not change since it was last drawn (a Bluff player looking under the cup, a
table repaired or shown again) is not drawn again: the last :data:`KEPT`
are kept in memory, by what they are drawn from (:func:`forget_pictures`
empties them).

Where they are drawn (:func:`draw_cheapest`): a kind of picture that costs
little — its recent pictures' mean under :data:`ON_LOOP_MS` of CPU, as a
table or hand picture drawn on its kind's kept palette does (1-3 ms, up to
5 while a busy machine or new dice angles make it dearer) or a result
picture (3-4 ms) — is drawn on the event loop's thread; any other (the
first pictures of a kind, a kind whose pictures grew dear or failed;
cards, boards, replays) in a worker thread. A thread is no free lunch for
a small picture: the hand-over and the two threads taking turns at the
interpreter's lock cost the process more CPU than the picture itself
(bench/scale.py: 15-17 % of the CPU a press, issue 25), and the press
waits for it either way.
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping
from typing import Any, TypeVar

from bot import caches
from bot.games import plugin
from bot.i18n import t
from bot.render import Picture
from bot.render import _base as b
from bot.render import result as result_render
from bot.render import stats as stats_render
from bot.ui import result_words

__all__ = [
    "Picture",
    "board_picture",
    "display_names",
    "forget_pictures",
    "hand_picture",
    "result_picture",
    "stats_picture",
    "table_picture",
]

Names = Mapping[str, str]
T = TypeVar("T")

ON_LOOP_MS = 8.0  # CPU ms: a kind of picture whose recent mean is under this is drawn on the loop
RECENT = 0.2  # the weight of the newest picture in its kind's mean
_cost: dict[str, float] = {}  # kind → recent mean CPU ms a picture (measured where it was drawn)


def _timed(kind: str, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """``fn(*args, **kwargs)``, its CPU time on this thread noted in its
    kind's recent mean (one that raises makes its kind dear: the next few
    go to a thread)."""
    start = time.thread_time()
    try:
        got = fn(*args, **kwargs)
    except BaseException:
        _cost[kind] = 2 * ON_LOOP_MS
        raise
    spent = 1e3 * (time.thread_time() - start)
    mean = _cost.get(kind)
    _cost[kind] = spent if mean is None else mean + RECENT * (spent - mean)
    return got


async def draw_cheapest(kind: str, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """``fn(*args, **kwargs)`` — a picture of ``kind`` (e.g. ``"nine-table"``)
    drawn on the event loop's thread when its kind is cheap (recent mean
    under :data:`ON_LOOP_MS`), else in a worker thread."""
    mean = _cost.get(kind)
    if mean is not None and mean < ON_LOOP_MS:
        return _timed(kind, fn, *args, **kwargs)
    return await asyncio.to_thread(_timed, kind, fn, *args, **kwargs)


def display_names(seats: Iterable[Mapping[str, Any]]) -> dict[str, str]:
    """Engine name → display name of each seat ("Bob_Smith" → "Bob Smith")."""
    return {str(s["name"]): str(s.get("display") or s["name"]) for s in seats}


def named(view: dict[str, Any], names: Names | None) -> dict[str, Any]:
    """``view`` with the display names the renderers draw (a shallow copy;
    the engine's view is left as it was)."""
    if not names:
        return view
    return {**view, "display_names": dict(names)}


def shown_view(
    view: dict[str, Any], *, names: Names | None = None, ui: dict[str, Any] | None = None
) -> dict[str, Any]:
    """The view the table picture is drawn from: the public view, what the
    table's UI state shows on it (``ui``) and the display names."""
    game = str(view["game"])
    if ui is not None:
        view = plugin(game).picture_view(view, ui)
    return named(view, names)


KEPT = 64  # table and hand pictures kept (a few KB to 35 KB each)…
KEPT_BYTES = 2 << 20  # …and their bytes and keys at most
_kept: OrderedDict[str, Picture | None] = OrderedDict()
_kept_size = [0]  # the bytes of _kept's pictures and keys
_kept_lock = threading.Lock()  # pictures are drawn on worker threads


def _weight(key: str, picture: Picture | None) -> int:
    return len(key) + (0 if picture is None else len(picture.png) + len(picture.alt)) + 200


caches.budget("pictures", KEPT_BYTES, "bytes", lambda: (len(_kept), _kept_size[0]))


def forget_pictures() -> None:
    """Forget the kept pictures (the next of each is drawn again)."""
    with _kept_lock:
        _kept.clear()
        _kept_size[0] = 0


def _kept_or_drawn(what: list[Any], draw: Callable[[], Picture | None]) -> Picture | None:
    """The picture drawn from ``what`` last time (kept in memory only),
    else ``draw()`` (kept)."""
    try:  # everything the picture depends on (views are JSON: they are stored)
        key = json.dumps([*what, b.emoji_drawn()], sort_keys=True, default=repr)
    except (TypeError, ValueError):
        return draw()
    with _kept_lock:
        if key in _kept:
            _kept.move_to_end(key)
            return _kept[key]
    picture = draw()
    with _kept_lock:
        if key in _kept:  # drawn meanwhile on another thread
            return _kept[key]
        _kept[key] = picture
        _kept_size[0] += _weight(key, picture)
        while len(_kept) > KEPT or _kept_size[0] > KEPT_BYTES:
            _kept_size[0] -= _weight(*_kept.popitem(last=False))
    return picture


def table_picture(
    view: dict[str, Any],
    *,
    lang: str = "en",
    names: Names | None = None,
    ui: dict[str, Any] | None = None,
) -> Picture | None:
    """The table of ``view["game"]`` as ``view`` shows it (with the table's
    UI state ``ui``, e.g. the dice a Yahtzee player holds); the same
    picture again, not drawn, when nothing it is drawn from changed."""
    game = str(view["game"])
    shown = shown_view(view, names=names, ui=ui)

    def draw() -> Picture | None:
        drawn = b.drawn(f"{game}-table", lambda: plugin(game).table_image(shown, lang))
        return None if drawn is None else Picture(*drawn, f"{game}-table.png")

    return _kept_or_drawn(["table", shown, lang], draw)


def hand_picture(
    view: dict[str, Any], *, lang: str = "en", names: Names | None = None
) -> Picture | None:
    """A player's private picture: a Sixty-Six hand, Bluff dice under the
    cup (the same picture again when that player's view did not change)."""
    game = str(view["game"])
    shown = named(view, names)

    def draw() -> Picture | None:
        drawn = b.drawn(f"{game}-hand", lambda: plugin(game).hand_image(shown, lang))
        return None if drawn is None else Picture(*drawn, f"{game}-hand.png")

    return _kept_or_drawn(["hand", shown, lang], draw)


def result_picture(
    view: dict[str, Any],
    outcome: dict[str, Any],
    *,
    lang: str = "en",
    history: list[dict[str, int]] | None = None,
    names: Names | None = None,
) -> Picture:
    """Final standings and settlement; a score chart for the games that
    want one, when ``history`` (per-turn score snapshots, oldest first) is
    given."""
    game = str(view["game"])
    the = plugin(game)
    rows = the.result_rows(view, outcome)
    chart = history if the.result_chart and history else None
    shown = named(view, names)
    notes = result_words.notes_of(shown, outcome, lang)  # others by their display names
    drawable = {p: b.safe_text(b.who(shown, p)) or b.NO_NAME for p in view["players"]}
    drawn = result_words.notes_of(named(view, drawable), outcome, lang)  # no emoji
    said = {}  # each player's figures in words, for the alt text
    for p, main, settled in rows:
        parts = [result_words.figure_text(game, main, lang) or main]
        if settled is not None:
            parts.append(result_words.points_text(settled, game, lang))
        if notes.get(p):
            parts.append(notes[p])
        said[p] = t("list.sep", lang).join(parts)
    img, alt = result_render.result(
        shown,
        outcome,
        lang,
        rows,
        chart,
        notes=drawn,
        legend=the.result_legend(view, lang),
        words=said,
    )
    return Picture(b.encode(img, kind=f"{game}-result"), alt, f"{game}-result.png")


def stats_picture(card: dict[str, Any], *, lang: str = "en") -> Picture:
    """A player's ``/stats`` card (:func:`bot.render.stats.stats_card`)."""
    img, alt = stats_render.stats_card(card, lang)
    return Picture(b.encode(img), alt, "stats.png")


def board_picture(board: dict[str, Any], *, lang: str = "en") -> Picture:
    """A ``/leaderboard`` (:func:`bot.render.stats.board_picture`)."""
    img, alt = stats_render.board_picture(board, lang)
    return Picture(b.encode(img), alt, "leaderboard.png")
