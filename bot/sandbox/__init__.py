"""``python -m bot sandbox``: play chabudai in the browser without Discord.

The real bot (the same :func:`bot.app.create_bot` as in production) runs
against SimCord's simulated Discord, in-process, with one server, a game
channel and a few simulated members. SimCord's Preview serves the channel on
a loopback-only page with the real buttons, selects and slash commands; each
member has its own page, and (DMs open, the default) a page of their DMs with
the bot, where Sixty-Six hands and Bluff dice arrive and are edited in place
as on Discord. ``--no-dm`` closes the members' DMs: secrets then come
ephemerally and through the table's "Show my hand/dice" button. The
Activity (docs/activity.md) is served beside the pages: each page links its
member to it ("Open the Activity"), logged in through the SDK's mock.

It plays like Discord (docs/sandbox.md):

- a click is answered as soon as the bot has answered it: the computers'
  moves are not part of the click (SimCord would otherwise wait for every
  computer move and think before answering the click); each computer move,
  turn-clock warning, timeout and game end appears on the pages as it is
  committed (the pages are republished whenever the bot changed something);
- the simulated clock moves with real time (the ticker), and the pages tell
  time by it, so a 90-second turn clock reads "in 1 minute";
- a click on a page published a moment before the latest is still the click
  the member meant, when the control they clicked is unchanged;
- a select offers every choice fresh each turn;
- one Ctrl+C (SIGINT) or SIGTERM stops it cleanly.

``--locale`` is the language of the whole sandbox, not only the page's: the
server's language (its ``preferred_locale``, which the bot's public messages
follow while ``/config language`` is automatic) and every member's Discord
locale (their ephemeral answers, ``/rules``, ``/hint``), so ``--locale ja``
shows a Japanese newcomer a Japanese table from the first ``/play``.

The package, one job a module (each imports only those listed after it):

- ``process``: the command line, the terminal (banner, log filters), Ctrl+C;
- ``session``: :func:`open_sandbox`, the bot against SimCord with its server,
  members and pages;
- ``live``: :class:`Live` (one gate, the pages republished, a click on the
  page before) and the ticker that moves the simulated clock;
- ``serving``: what SimCord's pages show, adapted (selects, thread links,
  command mentions in embeds, each member's link to the Activity);
- ``speaking``: ``--locale`` in the interactions and the page's commands.
"""

from bot.sandbox.live import REPUBLISH, TICK, TICK_BUDGET, Live
from bot.sandbox.process import main, parse_args, parse_delay, quiet_terminal
from bot.sandbox.serving import (
    SELECTS,
    activity_links,
    embed_commands,
    fresh_selects,
    thread_links,
)
from bot.sandbox.session import (
    BOT_NAME,
    MEMBERS,
    enter_page,
    name_the_bot,
    open_sandbox,
    park_computers,
)
from bot.sandbox.speaking import commands_speak, members_speak

__all__ = [
    "BOT_NAME",
    "MEMBERS",
    "REPUBLISH",
    "SELECTS",
    "TICK",
    "TICK_BUDGET",
    "Live",
    "activity_links",
    "commands_speak",
    "embed_commands",
    "enter_page",
    "fresh_selects",
    "main",
    "members_speak",
    "name_the_bot",
    "open_sandbox",
    "parse_args",
    "parse_delay",
    "park_computers",
    "quiet_terminal",
    "thread_links",
]
