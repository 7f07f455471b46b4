"""``python -m bot sandbox --locale ja`` speaks Japanese (issue 18): the
server's language and every member's locale follow ``--locale``, so the first
``/play`` opens a Japanese table and a member's own answers are Japanese; the
default stays English. In process, without a browser (``open_sandbox``'s
``ready`` hands over the simulated members)."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any

import pytest

from bot.i18n import t
from bot.sandbox import open_sandbox, parse_args

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bot"))
from simtable import says  # noqa: E402


async def first_play(tmp_path: Path, locale: str) -> dict[str, Any]:
    """The sandbox with ``locale``: a member's /play, another's Join, /rules."""
    stop = asyncio.Event()
    seen: dict[str, Any] = {}

    async def ready(info: dict[str, Any]) -> None:
        try:
            alice, bob = info["actors"][:2]
            channel = info["table_channel"]
            res = await alice.slash(channel, "play", game="nine")
            seen["lobby"] = str(res.response.content)
            rules = await bob.slash(channel, "rules", game="nine")
            seen["rules"] = rules.response
            status = await bob.slash(channel, "game status")
            seen["status"] = str(status.response.content)
        finally:
            stop.set()

    kwargs: dict[str, Any] = {} if locale == "default" else {"locale": locale}
    await asyncio.wait_for(
        open_sandbox(str(tmp_path / "sandbox.sqlite3"), ready=ready, stop=stop, **kwargs),
        timeout=120,
    )
    return seen


@pytest.mark.parametrize(("locale", "lang"), [("ja", "ja"), ("default", "en")])
async def test_the_sandbox_speaks_its_locale(tmp_path, locale, lang):
    seen = await first_play(tmp_path, locale)
    game = t("game.nine", lang)
    assert says(seen["lobby"], "lobby.title", lang, game=game), seen["lobby"]
    assert says(seen["lobby"], "lobby.hint", lang), seen["lobby"]
    assert seen["rules"].ephemeral
    (embed,) = seen["rules"].embeds
    assert embed.title == t("rules.title", lang, game=game), embed.title
    assert says(seen["status"], "status.lobby", lang, game=game), seen["status"]


def test_the_locale_option_names_the_whole_sandbox():
    args = parse_args(["--locale", "ja"])
    assert args.locale == "ja"
    assert parse_args([]).locale == "en-US"
