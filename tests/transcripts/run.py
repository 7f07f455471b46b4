"""One scene of the golden transcripts, played through SimCord.

A scene is a script (:mod:`tests.transcripts.scenes`) run on the bot tests'
own game night (``tests/bot/conftest.py``: :class:`Night`, its tables and
players; ``tests/bot/simtable.py``: the bot factory on one database), here
outside pytest's fixtures, so that ``python -m tests.transcripts.regen`` and
the test run the very same code. English scenes: English users on an
English server. Japanese: every user's Discord in Japanese, the server's
preferred locale Japanese and its public language (``/config``) Japanese.
"""

from __future__ import annotations

import importlib.util
import logging
import sys
import tempfile
from pathlib import Path
from types import ModuleType
from typing import Any

GOLDEN = Path(__file__).parent / "golden"
LANGS = ("en", "ja")
BOT_TESTS = Path(__file__).resolve().parents[1] / "bot"


def bot_tests() -> ModuleType:
    """``tests/bot/conftest.py`` as a module of its own (its classes, not
    its fixtures): pytest imports it as ``conftest`` only when it collects
    the bot tests, which this may run without."""
    if str(BOT_TESTS) not in sys.path:
        sys.path.insert(0, str(BOT_TESTS))
    name = "transcripts_bot_conftest"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, BOT_TESTS / "conftest.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


class Errors(logging.Handler):
    """The bot's logged errors (a drawing or presenting failure is logged,
    not raised): a scene that logs one fails, as the bot tests do."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.seen: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.seen.append(f"{record.name}: {record.getMessage()}")


async def play(scene: str, lang: str) -> str:
    """The transcript of ``scene`` in ``lang``."""
    import simcord

    from .record import Recorder
    from .scenes import SCENES

    conftest = bot_tests()
    from simlocale import EnvClock
    from simlocale import locales as locales_of_users
    from simtable import Harness

    script = SCENES[scene]
    errors = Errors()
    logging.getLogger().addHandler(errors)
    with tempfile.TemporaryDirectory(prefix="transcript-") as tmp:
        harness = Harness(Path(tmp) / "chabudai.sqlite3")
        try:
            clock = EnvClock()
            harness.clock = clock
            harness.dice = list(conftest.NIGHT_DICE if script.dice is None else script.dice)
            if script.aux is not None:
                harness.aux = list(script.aux)
            if script.decks is not None:
                harness.decks = [list(d) for d in script.decks]
            harness.seeded = script.seeded
            harness.vary = script.vary
            bot = harness.bot()
            bot.cpu_delay = 0.0
            people = {name: lang for name in PEOPLE} if lang == "ja" else {}
            with locales_of_users({}) as by_user:
                async with simcord.run(bot, settle_timeout=conftest.SETTLE) as env:
                    clock.env = env
                    guild = env.create_guild("game night", preferred_locale=_locale(lang))
                    night = conftest.Night(
                        harness,
                        env,
                        clock,
                        by_user=by_user,
                        guild=guild,
                        managers=script.managers,
                        user_locales=people,
                        closed_dms=script.closed_dms,
                    )
                    if lang == "ja":
                        await night.settings(lang="ja")
                    recorder = Recorder(env)
                    recorder.attach()
                    try:
                        await script.play(Scene(night, recorder, lang))
                        await night.settle()
                    except BaseException as error:
                        tail = "\n".join(recorder.text().splitlines()[-60:])
                        error.add_note(f"the transcript of {scene} ({lang}) so far, its end:\n{tail}")
                        raise
        finally:
            logging.getLogger().removeHandler(errors)
            await harness.close()
    assert not errors.seen, errors.seen
    head = f"# {scene} ({LANG_NAMES[lang]}) — written by python -m tests.transcripts.regen"
    return f"{head}\n\n{recorder.text()}"


LANG_NAMES = {"en": "English", "ja": "Japanese"}


def _locale(lang: str) -> str:
    return {"en": "en-US", "ja": "ja"}[lang]


PEOPLE = ("alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi", "ivan", "eve")


class Scene:
    """What a script has: the night, the recorder (for its headings), the
    language."""

    def __init__(self, night: Any, recorder: Any, lang: str) -> None:
        self.night = night
        self.recorder = recorder
        self.lang = lang

    def note(self, text: str) -> None:
        self.recorder.note(text)
