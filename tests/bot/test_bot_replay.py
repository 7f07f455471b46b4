"""The replay viewer: "Replay" under a result (or on /history) opens an
ephemeral step-through of the stored record — ⏮ ◀ ▶ ⏭ and a select of
turns — each step the public picture and the move's event lines.

"Never shows a hand before the end", precisely: at every step before the
last, the viewer's picture is byte for byte the public table picture of the
record replayed to that step (``view(state, None)``), its alt text is no
player's hand picture's alt text at that step, and no line of the message
comes from a player's private view (the hand sentence
``sixtysix.private.hand``, the revealing line ``replay.revealed``). Only
the last step — the game is over — adds each player's private lines.
"""

from __future__ import annotations

import copy

import pytest
from simtable import press_from_snapshot, reading, readings, refused, says, snapshot, taken

from bot.pictures import display_names, hand_picture, table_picture
from games import registry
from games.core import Record

GAMES = [
    ("nine", 2, (), None, ()),
    ("sixdice", 2, (), "target=3000 start=500", ("m:stop",)),
    ("yahtzee", 2, (), None, ()),
    ("bluff", 1, ("easy", "easy"), "losses=1", ()),
    ("sixtysix", 1, ("easy",), None, ()),
]


async def from_the_hand(table, who):
    """A Sixty-Six player's move from their DM: pass or draw when offered,
    else marry or play the first card offered (never "Declare 66")."""
    hand = table.night.hand(who)
    buttons = hand.button_actions
    for action in ("m:pass", "m:draw"):
        if action in buttons:
            return await hand.act(action)
    plays = [v for v in hand.choices if v.split()[0] in ("marry", "play")]
    if plays:
        return await hand.choose(plays[0])
    return await hand.act(next(a for a in buttons if a != "m:declare"))


async def play_sixtysix(table) -> None:
    """The person plays from their hand (:func:`from_the_hand`), the
    computer answers, until the game is over; who moves is read from the
    stored state."""
    night = table.night
    for _ in range(600):
        if table.over:
            return
        row = await table.row()
        if row is None:
            break
        state = registry.engine("sixtysix").from_json(row.state)
        movers = registry.engine("sixtysix").to_move(state)
        people = [m for m in night.players if m.name in movers]
        if not people:
            await night.settle()
            continue
        res = await from_the_hand(table, people[0])
        assert taken(res), res.response.content
    assert table.over


def state_at(record: dict, step: int):
    """The record replayed to ``step`` moves, independently of the viewer."""
    doc = dict(record, moves=record["moves"][:step])
    return registry.replay(Record.from_json(doc))


def position(screen) -> tuple[int, int]:
    got = reading(screen.content, "replay.title")
    assert got is not None, screen.content
    return int(got["step"]), int(got["last"])


async def open_viewer(night, table, by):
    res = await table.press("Replay", by=by)
    assert res.response is not None and res.response.ephemeral, res
    return night.reply(res, by)


async def test_sixtysix_replay_shows_no_hand_before_the_end(game_night) -> None:
    async with game_night(seeded=True) as night:
        table = await night.table("sixtysix", players=1, cpus=("easy",))
        await play_sixtysix(table)
        assert table.over
        [listed] = await night.store.results.all()
        stored = await night.store.results.get_result(listed["id"])
        record = stored["record"]
        viewer = await open_viewer(night, table, night.eve)  # anyone who sees the result
        step, last = position(viewer)
        assert (step, last) == (0, len(record["moves"])) and last > 10
        seen = 0
        while True:
            state = state_at(record, step)
            eng = registry.engine("sixtysix")
            [picture] = viewer.attachments
            png = await picture.read()
            public = table_picture(eng.view(state, None), names=display_names(stored["seats"]))
            assert png == public.png, f"step {step}: not the public picture"
            hands = {p: hand_picture(eng.view(state, p)) for p in record["players"]}
            if step < last:
                assert picture.description == public.alt
                assert all(picture.description != h.alt for h in hands.values())
                assert not says(viewer.content, "sixtysix.private.hand")
                assert not says(viewer.content, "replay.revealed")
            else:
                assert says(viewer.content, "replay.end")
                assert says(viewer.content, "replay.revealed")
                held = ("replay.sixtysix.held", "replay.sixtysix.played_out")
                assert sum(len(readings(viewer.content, k)) for k in held) == 2  # both hands
                assert not says(viewer.content, "sixtysix.private.hand")  # never "your hand"
            seen += 1
            if step == last:
                break
            res = await viewer.press("▶")
            viewer.message = res.response  # the same ephemeral message, edited
            new_step, _ = position(viewer)
            assert new_step == step + 1
            step = new_step
        assert seen == last + 1


@pytest.mark.parametrize(
    ("game", "count", "cpus", "options", "prefer"), GAMES, ids=[g[0] for g in GAMES]
)
async def test_replay_of_each_game_to_the_end(
    game_night, game, count, cpus, options, prefer
) -> None:
    async with game_night(seeded=True) as night:
        table = await night.table(game, players=count, cpus=cpus, options=options)
        if game == "sixtysix":
            await play_sixtysix(table)
        else:
            await table.play_to_the_end(prefer=prefer)
        [listed] = await night.store.results.all()
        stored = await night.store.results.get_result(listed["id"])
        last = len(stored["record"]["moves"])
        viewer = await open_viewer(night, table, night.alice)
        assert position(viewer) == (0, last)
        assert says(viewer.content, "replay.start")
        # step by step to the end: each step one on, a picture, the move in words
        for step in range(1, last + 1):
            res = await viewer.press("▶")
            viewer.message = res.response
            assert position(viewer) == (step, last)
            assert len(viewer.attachments) == 1
            body = viewer.content.splitlines()[1:]
            assert body and (body[0].startswith("• ") or says(body[0], "replay.moved"))
            assert says(viewer.content, "replay.end") == (step == last)
        pressable = [
            c.get("label") for c in viewer.controls if c["type"] == 2 and not c.get("disabled")
        ]
        assert pressable == ["⏮", "◀"]  # at the end: back only
        res = await viewer.press("⏮")
        viewer.message = res.response
        assert position(viewer) == (0, last)
        res = await viewer.press("⏭")
        viewer.message = res.response
        assert position(viewer) == (last, last)
        # the end's picture: the public picture of the finished game
        end = state_at(stored["record"], last)
        assert registry.engine(game).is_finished(end) == stored["outcome"]["finished"]
        [picture] = viewer.attachments
        want = table_picture(
            registry.engine(game).view(end, None), names=display_names(stored["seats"])
        )
        assert await picture.read() == want.png
        res = await viewer.press("◀")
        viewer.message = res.response
        assert position(viewer) == (last - 1, last)
        # the select of turns: the first turn is the first move
        [select] = viewer.selects
        first_turn = select["options"][1]["value"] if select["options"][0]["value"] == "0" else None
        res = await viewer.night.alice.select(
            viewer.message, [select["options"][0]["value"]], custom_id=select["custom_id"]
        )
        viewer.message = res.response
        step, _ = position(viewer)
        assert step == int(select["options"][0]["value"])
        if first_turn is not None:
            res = await night.alice.select(
                viewer.message, [first_turn], custom_id=select["custom_id"]
            )
            viewer.message = res.response
            assert position(viewer) == (int(first_turn), last)


async def test_the_viewer_works_after_a_restart(game_night) -> None:
    async with game_night(seeded=True) as night:
        table = await night.table("nine", players=2)
        await table.play_to_the_end()
        viewer = await open_viewer(night, table, night.bob)
        res = await viewer.press("▶")
        viewer.message = res.response
        assert position(viewer)[0] == 1
        await night.restart()
        res = await viewer.press("▶")  # the same ephemeral message, a new bot
        viewer.message = res.response
        assert position(viewer)[0] == 2
        res = await viewer.press("⏮")
        viewer.message = res.response
        assert position(viewer)[0] == 0


async def test_a_forged_step_changes_nothing(game_night) -> None:
    async with game_night(seeded=True) as night:
        table = await night.table("nine", players=2)
        await table.play_to_the_end()
        [stored] = await night.store.results.all()
        viewer = await open_viewer(night, table, night.bob)
        before = viewer.content
        payload = copy.deepcopy(snapshot(night.env, viewer.message))
        forged = f"cr:{stored['id']}:replay:x:next"  # a client sending a step that is no number
        payload["components"][0]["components"][0]["custom_id"] = forged
        res = await press_from_snapshot(night.bob, night.env, payload, forged)
        assert refused(res, "error.replay_step")
        assert viewer.content == before
