"""Finished games: the buttons under a result message and /history."""

from __future__ import annotations

import json
import subprocess
import sys

from simtable import on_both_databases, reading, readings, refused, says

from games.core import seed_hash


async def test_the_record_button_gives_a_record_that_replays(game_night, tmp_path) -> None:
    async with game_night(seeded=True) as night:
        table = await night.table("nine", players=2)
        await table.play_to_the_end()
        assert table.over
        assert "Record file" in table.buttons  # under the result
        [stored] = await night.store.results.all()
        res = await table.press("Record file", by=night.eve)  # anyone who sees it
        assert res.response is not None
        assert res.response.ephemeral
        [file] = res.response.attachments
        assert file.filename == f"chabudai-nine-{stored['id']}.json"
        doc = json.loads(await file.read())
        assert doc == stored["record"]
        path = tmp_path / file.filename
        path.write_bytes(await file.read())  # as downloaded, unchanged
        out = subprocess.run(
            [sys.executable, "-m", "games", "replay", str(path)],
            capture_output=True,
            text=True,
            check=True,
        )
        assert json.loads(out.stdout.strip().splitlines()[-1]) == stored["outcome"]


async def test_a_result_button_for_a_missing_result_changes_nothing(game_night) -> None:
    async with game_night(seeded=True) as night:
        table = await night.table("nine", players=2)
        await table.play_to_the_end()
        cid = table.id_of("Record file")
        await night.store.db._x("DELETE FROM result_players")  # type: ignore[attr-defined]
        await night.store.db._x("DELETE FROM results")  # type: ignore[attr-defined]
        res = await night.eve.click(table.message, custom_id=cid)
        assert says(res.response.content, "error.no_result")


@on_both_databases
async def test_history_lists_the_last_games_with_links_seeds_and_places(game_night) -> None:
    async with game_night(seeded=True) as night:
        bob = night.member("Bob Smith")  # display name ≠ engine name (Bob_Smith)
        first = await night.table("nine", players=[night.alice, bob])
        await first.play_to_the_end()
        second = await night.table("nine", players=[night.alice, night.carol])
        await second.play_to_the_end()
        other = night.server("elsewhere")
        away = await other.table("nine", players=[other.alice, other.dave])
        await away.play_to_the_end()
        stored = {r["id"]: r for r in await night.store.results.all()}
        answer = await night.ask(night.eve, "history")  # anyone in the server
        lines = readings(answer, "history.line")
        assert [int(x["id"]) for x in lines] == sorted(
            (i for i, r in stored.items() if r["guild_id"] == night.guild.id), reverse=True
        )  # newest first, this server's only
        for line, table in zip(lines, (second, first), strict=True):
            result = stored[int(line["id"])]
            assert line["hash"] == seed_hash(result["seed"])[:8]  # the fair-dice digits, no seed
            # a link to the result message: the table message became it
            assert says(line["link"], "history.link", url=table.link)
            assert line["date"].startswith("<t:") and line["date"].endswith(":d>")
            places = await night.store.results.get_result(int(line["id"]))
            shown = {"alice": "alice", "Bob_Smith": "Bob Smith", "carol": "carol"}
            for p in places["players"]:
                assert says(
                    line["players"], "history.place", rank=p["rank"], player=shown[p["name"]]
                )
        assert "Bob_Smith" not in answer and "Bob Smith" in answer
        only_carol = await night.ask(night.eve, "history", user=night.carol)
        assert [x["id"] for x in readings(only_carol, "history.line")] == [lines[0]["id"]]
        assert says(await night.ask(night.eve, "history", game="yahtzee"), "history.empty")


async def test_a_record_from_history_replays_and_its_seed_verifies(game_night, tmp_path) -> None:
    async with game_night(seeded=True) as night:
        table = await night.table("nine", players=2)
        await table.play_to_the_end()
        [stored] = await night.store.results.all()
        res = await night.command(night.bob, "history")
        answer = night.reply(res, night.bob)
        picked = await answer.choose(str(stored["id"]))  # the record select
        [file] = picked.response.attachments
        path = tmp_path / file.filename
        path.write_bytes(await file.read())
        out = subprocess.run(
            [sys.executable, "-m", "games", "replay", str(path)],
            capture_output=True,
            text=True,
            check=True,
        )
        assert json.loads(out.stdout.strip().splitlines()[-1]) == stored["outcome"]
        shown = reading(res.response.content, "history.line")["hash"]  # the fair-dice digits
        seed = stored["seed"]  # in the record file and under the result's 🔑 Seed
        assert seed_hash(seed).startswith(shown) and len(shown) == 8 and seed not in answer.content
        out = subprocess.run(
            [sys.executable, "-m", "games", "verify", seed, seed_hash(seed), "--count", "20"],
            capture_output=True,
            text=True,
            check=True,
        )
        checked = json.loads(out.stdout)
        assert checked["match"] is True
        dice = stored["record"]["dice"]
        assert checked["dice"][: len(dice)] == dice[:20]  # the seed's dice are the game's


async def test_replay_from_history(game_night) -> None:
    async with game_night(seeded=True) as night:
        table = await night.table("yahtzee", players=2)
        await table.play_to_the_end()
        [stored] = await night.store.results.all()
        res = await night.command(night.carol, "history")
        answer = night.reply(res, night.carol)
        select = next(s for s in answer.selects if s["custom_id"] == "cq:0:replay")
        opened = await night.carol.select(
            answer.message, [str(stored["id"])], custom_id=select["custom_id"]
        )
        assert opened.response.ephemeral
        got = reading(opened.response.content, "replay.title")
        assert (int(got["step"]), int(got["last"])) == (0, len(stored["record"]["moves"]))


async def test_history_in_dms_shows_your_own_games_only(game_night) -> None:
    async with game_night(seeded=True) as night:
        mine = await night.table("nine", players=[night.alice, night.bob])
        await mine.play_to_the_end()
        theirs = await night.table("nine", players=[night.carol, night.bob])
        await theirs.play_to_the_end()
        alice = night.alice.user
        res = await alice.slash("history")
        lines = readings(res.response.content, "history.line")
        [stored_mine] = [
            r for r in await night.store.results.all() if str(night.alice.id) in r["settlement"]
        ]
        assert [int(x["id"]) for x in lines] == [stored_mine["id"]]
        res = await alice.slash("history", user=night.carol.user)
        assert refused(res, "error.history_dm")
