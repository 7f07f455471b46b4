"""Several processes in one simulated Discord: three independent bot stacks
(each its own database pool, table locks, turn-clock sweeper and computer
players) on one PostgreSQL database. Discord sends each stack the presses of
its own servers (shards) and every DM to the stack of shard 0; the stacks
share nothing but the database (and Discord's REST, by which any of them
edits any message). Checked with the moves ledger: no move lost, none
doubled, versions contiguous, each turn clock fired once, a stack killed
between a commit and its message edit leaves a message that is redrawn."""

from __future__ import annotations

import asyncio
from collections import Counter
from typing import Any

from simtable import on_postgres, taken

from bot.app import ChabudaiBot
from bot.tables.rows import Ledger
from bot.tables.service import ledger_moves

DECKS_SEEDED = True


async def start_stack(night: Any, gateway: ChabudaiBot) -> ChabudaiBot:
    """A bot stack of its own on the night's database, not connected to the
    gateway: it answers what it is routed and reaches Discord by REST."""
    bot = night.harness.bot()
    bot.cpu_delay = night.cpu_delay
    bot.sync_commands = "never"
    bot.http = gateway.http  # Discord's REST, as every process has it
    bot._connection = gateway._connection
    await bot.setup_hook()  # opens its own pool, loads its sweeper and computers
    return bot


async def stop_stack(bot: ChabudaiBot) -> None:
    """The process ends: its loops and tasks stop, its pool closes (its
    table locks go with its connections)."""
    for name in list(bot.cogs):
        await bot.remove_cog(name)
    await bot.ops.stop()
    await bot.tables.store.close()


def route(gateway: ChabudaiBot, stacks: dict[int | None, Any]) -> Counter[int]:
    """Discord's routing: a server's presses to the stack of its shard, DMs
    (no server) to the stack of shard 0. Counts the presses per stack."""
    routed: Counter[int] = Counter()

    def presses_for(interaction: Any) -> Any:
        bot = stacks[interaction.guild_id]
        routed[id(bot)] += 1
        return bot.presses

    gateway.presses_for = presses_for  # type: ignore[method-assign]
    return routed


async def step66(night: Any, cards: Any) -> Any:
    """The Sixty-Six player to move makes a move from their DM (the first
    card, else Draw / the first button that is no declaration)."""
    hand = night.hand(cards.mover)
    if hand.choices:
        return await hand.choose(hand.choices[0])
    label = next(b for b in hand.buttons if "66" not in b)
    return await hand.press(label)


def check_ledger(ledger: list[dict], states: dict[int, list[str]]) -> None:
    """Versions contiguous from 1 per table (none lost, none doubled) and the
    ledger's moves exactly each game's moves."""
    by_table: dict[int, list[dict]] = {}
    for line in ledger:
        by_table.setdefault(line["table_id"], []).append(line)
    for table_id, lines in by_table.items():
        versions = [line["version"] for line in lines]
        assert versions == list(range(1, len(lines) + 1)), (table_id, versions)
        if table_id in states:
            moves = ledger_moves(lines)
            assert moves == states[table_id], table_id


@on_postgres
async def test_three_stacks_on_one_database(game_night):
    async with game_night(seeded=True) as night:
        second, third = night.server("second server"), night.server("third server")
        gateway = night.bot  # stack 0, the one SimCord's gateway is connected to
        one = await start_stack(night, gateway)
        two = await start_stack(night, gateway)
        stacks: dict[int | None, Any] = {
            None: gateway,  # DMs arrive on shard 0
            night.guild.id: gateway,
            second.guild.id: one,
            third.guild.id: two,
        }
        routed = route(gateway, stacks)
        try:
            # a table in each server; Sixty-Six in servers owned by stacks 1 and 2
            nine = await night.table("nine", players=2)
            cards = await second.table("sixtysix", players=2)
            dice = await third.table("sixdice", players=2, options="target=3000 start=500")
            for _ in range(6):
                for table in (nine, dice):
                    if not table.over:
                        assert taken(await table.play(prefer=("m:stop",)))
                if not cards.over:  # a DM press: stack 0 moves a table of stack 1's server
                    await step66(night, cards)
            # concurrent presses on one table from two stacks: the table's
            # own channel (stack 1) and the mover's DM (stack 0)
            # one due turn clock, fired by the three stacks' sweepers at once:
            # one of them plays the default move, the others find it done
            assert not nine.over
            row = await nine.row()
            assert row is not None
            row.deadline = gateway.tables.clock() - 1
            assert await night.store.tables.save_table(row, now=row.updated_at, ledger=Ledger("ui", "command"))
            now = gateway.tables.clock()
            await asyncio.gather(
                *(bot.sweeper.fire(row.id, now) for bot in (gateway, one, two))
            )
            fired = [
                line
                for line in await night.store.tables.ledger(row.id)
                if line["origin"] == "clock"
            ]
            assert len(fired) == 1, fired

            # stack 1 dies between a commit and its message edit: the move is
            # stored, nothing after it happens
            dead = one.tables.bus

            async def killed(change: Any) -> None:
                return None

            dead.publish = killed  # type: ignore[method-assign]
            before = await cards.row()
            assert before is not None
            await cards.press("Show my hand", by=cards.mover)  # channel press: stack 1
            shown = night.reply(await cards.press("Show my hand", by=cards.mover), cards.mover)
            if shown.choices:  # the hand shown in the channel: stack 1 commits the card
                await shown.choose(shown.choices[0])
            else:
                await shown.press(next(b for b in shown.buttons if "66" not in b))
            stored = await cards.row()
            assert stored is not None and stored.version > before.version  # committed
            assert stored.shown < stored.version  # … and never shown
            await stop_stack(one)
            # a fresh process for stack 1's servers; at start it redraws what
            # is behind (as do the others' repair sweeps)
            fresh = await start_stack(night, gateway)
            stacks[second.guild.id] = fresh
            await night.wait(35)  # a repair sweep of every stack has run
            stored = await cards.row()
            assert stored is not None and stored.shown == stored.version
            assert any(f":{stored.version}:" in cid for cid in cards.custom_ids) or not cards.controls

            # turn clocks: three sweepers, each deadline fired once
            await night.settings(**{"clock.nine": 30})
            if not nine.over:
                assert taken(await nine.play())
                await night.wait(45)
            ledger = await night.store.tables.ledger()
            clocks = Counter(
                (line["table_id"], line["version"]) for line in ledger if line["origin"] == "clock"
            )
            assert all(n == 1 for n in clocks.values())
            states = {}
            for table in (nine, cards, dice):
                row = await table.row()
                if row is not None and row.state is not None:
                    states[row.id] = list(row.state["history"]["moves"])
            for result in await night.store.results.all():
                states[result["table_id"]] = list(result["record"]["moves"])
            check_ledger(ledger, states)
            processes = {line["process"] for line in ledger}
            assert processes  # written by whichever stack committed
            assert {line["origin"] for line in ledger} >= {"press", "clock"}
            assert all(routed[id(bot)] > 0 for bot in (gateway, one, two))
        finally:
            for bot in (stacks[second.guild.id], two):
                if bot.tables.store.is_open:
                    await stop_stack(bot)
