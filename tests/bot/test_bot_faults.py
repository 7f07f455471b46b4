"""The last fault cases of "never stranded" (issue 24), each injected through
SimCord: an unwritable database while turn clocks are due, a command on a
read-only database, a failed answer to a DM press, a failed end edit, clock
writes and the moves ledger, a lost channel, a full disk under the repair
sweep. Each story checks what the players and the operator see next."""

from __future__ import annotations

from games.core import SeededSource

DICE = SeededSource("faults").roll(2000)
DECKS = [SeededSource(f"faults-{i}").deck() for i in range(4)]
ANSWER = "/interactions/*/*/callback"  # the answer to a press or command
EDIT = "/channels/*/messages/*"  # an edit of a message by id


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
