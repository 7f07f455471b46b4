"""Turn clocks: deadlines in the database, a sweeper, default moves.

Every table has at most one deadline (``tables.deadline``, unix seconds):

- a lobby expires after :data:`LOBBY_IDLE` seconds without a change;
- a game gives the player to move :func:`turn_seconds` (server setting
  ``clock.<game>``, else :data:`DEFAULT_TURN`) from the last move. At
  :data:`WARN_BEFORE` seconds left the table message shows a warning and the
  player is mentioned once; at the deadline the bot plays the sensible default
  move for them (:func:`choose`) and says so. After :data:`MAX_TIMEOUTS`
  timeouts in a row the player is removed with the engine's ``forfeit``.

The bookkeeping (whose clock, warned or not, timeouts in a row per player)
lives in ``tables.clock`` next to the deadline, so a restarted bot continues
every clock where it was. The :class:`Clocks` cog runs the sweeper: every
:data:`SWEEP_EVERY` seconds it loads the tables due and fires each one under
the table lock and the row version, so a deadline fires exactly once even
when several are due together or two processes sweep at the same time.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord
from discord.ext import commands, tasks

from bot import ping, private
from bot.i18n import t
from bot.store import TableRow
from bot.ui import present
from bot.ui.games import ui_for
from games import core, registry

if TYPE_CHECKING:
    from bot.app import ChabudaiBot
    from bot.tables import TableService

log = logging.getLogger(__name__)

DEFAULT_TURN = {"sixdice": 90, "bluff": 90, "nine": 90, "yahtzee": 90, "sixtysix": 120}
LOBBY_IDLE = 600  # seconds a lobby may sit without a change
WARN_BEFORE = 20  # seconds left when the player is warned
MAX_TIMEOUTS = 3  # timeouts in a row that remove a player
SWEEP_EVERY = 5.0  # seconds between sweeps
MIN_TURN, MAX_TURN = 30, 3600  # what /config accepts
RECHECK = 60.0  # at most this long without asking the database
MAX_AUTO_MOVES = 4  # moves one timeout may play (Six Dice: roll, take, stop)


async def turn_seconds(store: Any, guild_id: int | None, game: str) -> int:
    """The turn clock of ``game`` on this server (``/config clock``)."""
    if guild_id is not None:
        value = await store.guild_setting(guild_id, f"clock.{game}")
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    return DEFAULT_TURN.get(game, 90)


async def arm(
    service: TableService, row: TableRow, state: Any = None, *, actor: str | None = None
) -> None:
    """Set the next deadline of ``row`` before it is saved.

    ``actor`` made the move (their timeouts in a row start again at 0).
    A lobby gets :data:`LOBBY_IDLE`; a game the turn clock of the player to
    move; a finished game none.
    """
    now = service.clock()
    if row.phase == "lobby":
        row.deadline = now + LOBBY_IDLE
        row.clock = {}
        _hint(service, row.deadline)
        return
    eng = registry.engine(row.game)
    if state is None:
        assert row.state is not None
        state = eng.from_json(row.state)
    timeouts = dict(row.clock.get("timeouts") or {})
    if actor is not None:
        timeouts.pop(actor, None)
    movers = eng.to_move(state)
    if eng.is_finished(state) or not movers:
        row.deadline = None
        row.clock = {"timeouts": timeouts}
        return
    row.clock = {"player": movers[0], "warned": False, "timeouts": timeouts}
    row.deadline = now + await turn_seconds(service.store, row.guild_id, row.game)
    _hint(service, row.deadline - WARN_BEFORE)


def _hint(service: TableService, when: float) -> None:
    hint = getattr(service, "clock_hint", None)  # set by the Clocks cog
    if hint is not None:
        hint(when)


def clock_lines(row: TableRow, lang: str) -> list[str]:
    """The clock on the table message: when the turn runs out, and the warning."""
    if row.phase != "playing" or row.deadline is None or not row.clock.get("player"):
        return []
    player = row.clock["player"]
    seat = next((s for s in row.seats if s["name"] == player), None)
    who = present.seat_line(seat) if seat else player
    lines = [t("clock.deadline", lang, time=f"<t:{int(row.deadline)}:R>")]
    if row.clock.get("warned"):
        lines.append(t("clock.warning", lang, player=who, seconds=WARN_BEFORE))
    return lines


# ------------------------------------------------------------ default moves


def choose(
    game: str, state: Any, player: str, legal: list[str], played: list[str]
) -> tuple[str, bool]:
    """The default move of a player who ran out of time: ``(move, last)``;
    ``last`` = the timeout ends with this move.

    Six Dice: take the best-scoring dice, then stop if allowed, else roll.
    Yahtzee: roll if needed, then score the best box. Nine: roll if needed,
    then the flip leaving the smallest sum. Bluff: reveal (a first player
    rolls and announces the weakest value). Sixty-Six: declare with 66 or
    more, pass after the last trick, draw, else the lowest legal card.
    """
    if game == "sixdice":
        from games.sixdice import score_dice

        takes = [m for m in legal if m.startswith("take ")]
        if takes:
            options = state.history.options
            return max(takes, key=lambda m: (score_dice(_faces(m), options) or 0, len(m))), False
        if "stop" in legal:
            return "stop", True
        return "roll", bool(played and played[-1].startswith("take "))
    if game == "yahtzee":
        from games.yahtzee import potential_scores

        options = potential_scores(state, player)
        if options:
            best = max(options, key=lambda o: (o["points"], -legal.index(o["move"])))
            return str(best["move"]), True
        return ("roll" if "roll" in legal else legal[0]), False
    if game == "nine":
        flips = [m for m in legal if m.startswith("flip ")]
        if flips:
            return max(flips, key=lambda m: (sum(_faces(m)), -len(m))), True
        return ("roll" if "roll" in legal else legal[0]), False
    if game == "bluff":
        from games.bluff.engine import STRENGTH

        if "reveal" in legal:
            return "reveal", True
        if "roll" in legal and not played:
            return "roll", False
        announces = [m for m in legal if m.startswith("announce ")]
        return min(announces, key=lambda m: STRENGTH[m.split()[1]]), True
    if game == "sixtysix":
        from games.sixtysix.engine import GOAL, POINTS, POWER

        me = state.history.players.index(player)
        if "declare" in legal and state.points[me] >= GOAL:
            return "declare", True
        if "pass" in legal:
            return "pass", True
        if "draw" in legal:
            return "draw", False
        plays = [m for m in legal if m.startswith("play ")]
        if plays:
            return min(plays, key=lambda m: (POINTS[m[5:]], POWER[m[5:]], m)), True
        rest = [m for m in legal if m not in ("close", "declare", "exchange")]
        return (rest or legal)[0], True
    return legal[0], True


def _faces(move: str) -> list[int]:
    return [int(w) for w in move.split()[1:]]


def play_for(eng: Any, state: Any, player: str) -> tuple[list[core.Event], list[str]]:
    """Apply the default moves of ``player`` (see :func:`choose`)."""
    events: list[core.Event] = []
    played: list[str] = []
    for _ in range(MAX_AUTO_MOVES):
        legal = eng.legal_moves(state, player)
        if not legal:
            break
        move, last = choose(eng.NAME, state, player, legal, played)
        events += eng.apply(state, player, move)
        played.append(move)
        if last:
            break
    return events, played


# ------------------------------------------------------------------ sweeper


class Sweeper:
    """Fires due deadlines of one bot process."""

    def __init__(self, bot: ChabudaiBot) -> None:
        self.bot = bot
        self.service = bot.tables
        # When the next thing may be due (unix seconds); None = ask the
        # database. Lets an idle sweep skip the query; deadlines set by this
        # process lower it through :meth:`hint`, others are seen within
        # RECHECK seconds.
        self.next_due: float | None = None

    def hint(self, when: float) -> None:
        """A deadline (or its warning) at ``when`` was just set."""
        if self.next_due is not None:
            self.next_due = min(self.next_due, when)

    async def sweep(self, *, force: bool = False) -> int:
        """Fire every deadline that is due (or due for its warning); returns
        how many tables were looked at."""
        now = self.service.clock()
        if not force and self.next_due is not None and now < self.next_due:
            return 0
        store = self.service.store
        due = await store.due_tables(now + WARN_BEFORE)
        for row in due:
            try:
                await self.fire(row.id, now)
            except Exception:
                log.exception("table %d: the turn clock failed", row.id)
        upcoming = await store.next_deadline(now)
        if upcoming is None:
            self.next_due = now + RECHECK
        else:
            # inside the warning window only the deadline itself is left
            soon = upcoming if upcoming <= now + WARN_BEFORE else upcoming - WARN_BEFORE
            self.next_due = min(soon, now + RECHECK)
        return len(due)

    async def fire(self, table_id: int, now: float) -> None:
        service = self.service
        async with service.lock(table_id):
            row = await service.store.get_table(table_id)
            if row is None or row.deadline is None:
                return
            if row.deadline > now:
                if (
                    row.phase == "playing"
                    and not row.clock.get("warned")
                    and row.deadline - now <= WARN_BEFORE
                ):
                    await self.warn(row)
                return
            if row.phase == "lobby":
                await self.expire_lobby(row)
            else:
                await self.timeout(row)

    async def warn(self, row: TableRow) -> None:
        old = dict(row.clock)
        row.clock = {**old, "warned": True}
        if not await self.service.store.set_clock(row, old):
            return  # another sweeper (or a move) was first
        lang = row.ui.get("lang", "en")
        await self._edit(row, await present.table_message(row, lang))
        player = row.clock.get("player")
        seat = next((s for s in row.seats if s["name"] == player), None)
        if seat is None or seat.get("bot"):
            return
        channel = self.bot.get_partial_messageable(row.channel_id, guild_id=row.guild_id)
        try:
            await channel.send(
                t(
                    "clock.ping",
                    lang,
                    player=f"<@{seat['id']}>",
                    seconds=WARN_BEFORE,
                    link=_link(row),
                ),
                allowed_mentions=discord.AllowedMentions(users=True, roles=False, everyone=False),
            )
        except discord.HTTPException:
            log.warning("table %d: could not send the clock warning", row.id)

    async def expire_lobby(self, row: TableRow) -> None:
        if not await self.service.store.delete_table(row):
            return
        lang = row.ui.get("lang", "en")
        text = t("lobby.expired", lang, game=t(f"game.{row.game}", lang), minutes=LOBBY_IDLE // 60)
        await self._edit(row, present.TableMessage(text))
        log.info("table %d: lobby expired", row.id)

    async def timeout(self, row: TableRow) -> None:
        service = self.service
        eng: Any = registry.engine(row.game)
        assert row.state is not None
        state = eng.from_json(row.state)
        movers = eng.to_move(state)
        if not movers:
            row.deadline = None
            await service.store.save_table(row, now=service.clock())
            return
        owner = row.clock.get("player")
        player = str(owner) if owner in movers else str(movers[0])
        timeouts = dict(row.clock.get("timeouts") or {})
        count = int(timeouts.get(player, 0)) + 1
        if count >= MAX_TIMEOUTS:
            note = {"kind": "timeout_removed", "player": player, "data": {"count": count}}
            events = eng.forfeit(state, player)
            timeouts.pop(player, None)
        else:
            events, _played = play_for(eng, state, player)
            note = {
                "kind": "timeout",
                "player": player,
                "data": {"count": count, "max": MAX_TIMEOUTS},
            }
            timeouts[player] = count
        row.clock = {**row.clock, "timeouts": timeouts}
        row.ui.setdefault("log", []).append(note)
        log.info("table %d: %s timed out (%d in a row)", row.id, player, count)
        await self.commit(row, state, events)

    async def commit(self, row: TableRow, state: Any, events: list[core.Event]) -> None:
        """Like :meth:`TableService.commit`, without an interaction to answer."""
        service = self.service
        eng: Any = registry.engine(row.game)
        before = ping.mover(row)  # who was to move (row.state is still the old state)
        build = await service.store_move(row, state, events)
        if build is None:
            return
        msg = await service.draw(row, build)
        await self._edit(row, msg)
        await self._private(row, state, events)
        await ping.turn_changed(
            self.bot, service.store, row, before, live=not eng.is_finished(state)
        )
        service.kick_cpu(row.id)  # a computer player may be next (bot.cpu)

    async def _private(self, row: TableRow, state: Any, events: list[core.Event]) -> None:
        if not private.is_hidden(row.game):
            return
        lang = row.ui.get("lang", "en")
        mode = getattr(ui_for(row.game), "private_mode", "edit")
        by_name = {s["name"]: s for s in row.seats}
        changed = False
        for name in private.targets(row, state, events):
            seat = by_name.get(name)
            if seat is None or seat.get("bot"):
                continue
            msg = await private.private_message(row, state, seat, seat.get("lang") or lang)
            _sent, moved = await private._to_dm(self.bot, row, seat, msg, mode)
            changed = changed or moved
        if changed and row.phase == "playing":
            await self.service.store.set_ui(row)

    async def _edit(self, row: TableRow, msg: present.TableMessage) -> None:
        if row.message_id is None:
            return
        channel = self.bot.get_partial_messageable(row.channel_id, guild_id=row.guild_id)
        try:
            await channel.get_partial_message(row.message_id).edit(**msg.edit_kwargs())
        except discord.HTTPException:
            log.warning("table %d: could not edit the table message", row.id)


def _link(row: TableRow) -> str:
    from bot.tables import message_link

    return message_link(row.guild_id, row.channel_id, row.message_id)


class Clocks(commands.Cog):
    """Runs the sweeper while the bot is up (a ``discord.ext.tasks`` loop; its
    first run at start-up fires whatever fell due while the bot was down)."""

    def __init__(self, bot: ChabudaiBot) -> None:
        self.bot = bot
        self.sweeper = Sweeper(bot)

    async def cog_load(self) -> None:
        self.bot.tables.clock_hint = self.sweeper.hint  # type: ignore[attr-defined]
        self.sweep_loop.start()

    async def cog_unload(self) -> None:
        self.sweep_loop.cancel()
        self.bot.tables.clock_hint = None  # type: ignore[attr-defined]

    @tasks.loop(seconds=SWEEP_EVERY)
    async def sweep_loop(self) -> None:
        try:
            await self.sweeper.sweep()
        except Exception:
            log.exception("the turn-clock sweeper failed")
