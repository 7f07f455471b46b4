"""The last fault cases of "never stranded" (issue 24), each injected through
SimCord: an unwritable database while turn clocks are due, a command on a
read-only database, a failed answer to a DM press, a failed end edit, clock
writes and the moves ledger, a lost channel, a full disk under the repair
sweep. Each story checks what the players and the operator see next."""

from __future__ import annotations

from games import registry
from games.core import SeededSource

DICE = SeededSource("faults").roll(2000)
DECKS = [SeededSource(f"faults-{i}").deck() for i in range(4)]
ANSWER = "/interactions/*/*/callback"  # the answer to a press or command
EDIT = "/channels/*/messages/*"  # an edit of a message by id
TURN = registry.spec("nine").turn_seconds


def fail(night, method: str, path: str, *, status=500, code=0, times=1) -> None:
    night.env.inject_error(method, path, status=status, code=code, times=times)


# ------------------------------------------------ 3: a failed answer to a DM


async def test_a_failed_answer_to_a_dm_press_still_updates_the_other_dm(game_night):
    """Alice's press in her Sixty-Six DM gets 10062: her DM is edited by id,
    and Bob's DM shows her card and his moves all the same."""
    async with game_night(decks=DECKS, aux=[2]) as night:  # bob deals: alice leads
        table = await night.table("sixtysix")
        mover = table.mover
        other = night.bob if mover is night.alice else night.alice
        hand = night.hand(mover)
        theirs = night.hand(other).content
        card = next(c for c in hand.choices if c.startswith("play "))
        fail(night, "POST", ANSWER, status=404, code=10062)
        await hand.choose(card)
        assert (await table.moves())[-1] == f"{mover.name} {card}"
        assert night.hand(other).content != theirs  # Bob's DM follows the move
        assert night.hand(other).choices  # and offers his moves
        assert not any(c == card for c in night.hand(mover).choices)  # hers is edited by id


# ------------------------------------------- 5: one write path, one ledger


def contiguous(lines) -> bool:
    """A table's ledger: versions 1, 2, 3 … with no gap and none twice."""
    return [line["version"] for line in lines] == list(range(1, len(lines) + 1))


async def test_the_ledger_is_contiguous_after_every_kind_of_change(game_night):
    """A press, a turn clock, a computer, a kick, an abandon, an end, and a
    table in a channel the bot lost (the clock's saves of an unreachable
    table used to skip the ledger: versions 1, 2, 3, 4, 6)."""
    async with game_night(dice=DICE, aux=[6, 2, 6, 2, 6, 2, 6, 2]) as night:
        kinds: dict[str, set[str]] = {}

        async def check(table_id: int) -> None:
            lines = await night.store.ledger(table_id)
            assert contiguous(lines), lines
            for line in lines:
                kinds.setdefault(line["origin"], set()).add(line["move"].split()[-1])

        # a press, a turn clock, a kick for a computer (which moves), an abandon
        nine = await night.table("nine")
        nine_id = (await nine.row()).id
        await nine.press("Roll", by=night.alice)
        await night.wait(TURN + 5)  # alice's flip by the clock
        await nine.command(night.alice, "game kick", player=night.bob, replace_with_cpu=True)
        await night.settle()
        await nine.command(night.alice, "game end")  # no contest: abandoned
        assert await nine.row() is None
        await check(nine_id)
        # an end: both agree, Six Dice settles as it stands
        six = await night.table("sixdice")
        six_id = (await six.row()).id
        await six.command(night.alice, "game end")
        await six.command(night.bob, "game end")
        assert await six.row() is None and await six.results()
        await check(six_id)
        # a channel the bot lost: the clock keeps it, then abandons it
        lost = await night.table("nine", players=[night.carol, night.dave])
        lost_id = (await lost.row()).id
        for method in ("PATCH", "POST"):
            fail(night, method, f"/channels/{lost.channel.id}/messages*", status=403,
                 code=50001, times=None)  # fmt: skip
        for _ in range(3):
            await night.wait(TURN + 5)
        assert await lost.row() is None
        await check(lost_id)
        assert {"press", "clock", "cpu", "command"} <= set(kinds), kinds
        assert {"abandoned", "finished", "seats"} <= set().union(*kinds.values()), kinds
        assert "clock" in kinds["clock"]  # the unreachable table's clock, kept


async def test_a_lobby_that_cannot_be_posted_leaves_a_ledger_line(game_night):
    async with game_night() as night:
        fail(night, "POST", ANSWER, status=503)
        await night.command(night.alice, "play", game="nine")
        assert await night.store.live_tables() == []
        lines = await night.store.ledger()
        assert [line["move"] for line in lines] == ["opened", "cancelled"], lines
