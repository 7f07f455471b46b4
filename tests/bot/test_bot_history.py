"""Finished games: the buttons under a result message."""

from __future__ import annotations

import json
import subprocess
import sys

from simtable import says


async def test_the_record_button_gives_a_record_that_replays(game_night, tmp_path) -> None:
    async with game_night(seeded=True) as night:
        table = await night.table("nine", players=2)
        await table.play_to_the_end()
        assert table.over
        assert "Record file" in table.buttons  # under the result
        [stored] = await night.store.results()
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
            capture_output=True, text=True, check=True,
        )
        assert json.loads(out.stdout.strip().splitlines()[-1]) == stored["outcome"]


async def test_a_result_button_for_a_missing_result_changes_nothing(game_night) -> None:
    async with game_night(seeded=True) as night:
        table = await night.table("nine", players=2)
        await table.play_to_the_end()
        cid = table.id_of("Record file")
        await night.store._x("DELETE FROM result_players")  # type: ignore[attr-defined]
        await night.store._x("DELETE FROM results")  # type: ignore[attr-defined]
        res = await night.eve.click(table.message, custom_id=cid)
        assert says(res.response.content, "error.no_result")
