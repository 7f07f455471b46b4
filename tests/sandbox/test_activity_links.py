"""The sandbox's "Open the Activity" links (docs/sandbox.md "The Activity"),
in process, over HTTP as the browser reads them:

- every page loads the link's script, which SimCord's pages would not run
  inline (``script-src 'self'``);
- the channel page links each of its members to the game channel's
  Activity; a member's DM page links that member alone (no one else's code
  on their page), to the game channel too;
- a link's code (in the fragment) gets its own member's token from the
  Activity's ``api/token``, and that token is its member's; a code changed by
  one character is refused.
"""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import aiohttp

from bot.sandbox import open_sandbox


def links_in(script: str) -> dict[str, str]:
    found = re.search(r"^const links = (.*);$", script, re.M)
    assert found, script
    return dict(json.loads(found.group(1)))


async def test_each_page_links_its_members_to_the_activity(tmp_path: Path) -> None:
    stop = asyncio.Event()
    seen: dict[str, Any] = {}

    async def ready(info: dict[str, Any]) -> None:
        try:
            ids = seen["ids"] = {name: str(i) for name, i in info["members"].items()}
            async with aiohttp.ClientSession() as http:
                for page, url in (("channel", info["url"]), ("bob's DMs", info["dm_urls"]["bob"])):
                    base = url.split("#")[0].rstrip("/")
                    index = await (await http.get(base + "/")).text()
                    assert '<script src="/activity-link.js"' in index, page
                    seen[page] = links_in(await (await http.get(base + "/activity-link.js")).text())
                for page in ("channel", "bob's DMs"):
                    links = seen[page]
                    for link in links.values():
                        parts = urlsplit(link)
                        query = parse_qs(parts.query)
                        assert query["sdk"] == ["mock"] and query["channel"] == [
                            str(info["channel"])
                        ], link
                        assert query["guild"] == [str(info["guild"])], link
                        assert parts.fragment.startswith("code=") and "code" not in query, link
                        assert link.startswith(info["activity_url"]), link
                # a link's code proves its member, and no one else
                api = info["activity_url"] + "api/token"
                for name in ("alice", "bob"):
                    code = urlsplit(seen["channel"][ids[name]]).fragment.removeprefix("code=")
                    answer = await http.post(api, json={"code": code})
                    assert answer.status == 200, name
                    token = (await answer.json())["access_token"]
                    # the socket that says hello with it is the member's
                    async with http.ws_connect(info["activity_url"] + "api/ws") as ws:
                        await ws.send_json(
                            {
                                "op": "hello",
                                "token": token,
                                "channel": str(info["channel"]),
                                "since": None,
                            }
                        )
                        welcome = await ws.receive_json(timeout=10)
                    seen.setdefault("users", {})[name] = welcome["user"]
                    forged = code[:-1] + ("0" if code[-1] != "0" else "1")
                    assert (await http.post(api, json={"code": forged})).status == 401
        except BaseException as err:  # seen by the test, not lost in the sandbox's task
            seen["error"] = err
        finally:
            stop.set()

    await asyncio.wait_for(
        open_sandbox(str(tmp_path / "s.sqlite3"), ready=ready, stop=stop, tick=0.05), timeout=120
    )
    if "error" in seen:
        raise seen["error"]
    members = ("alice", "bob", "carol", "dave")
    assert len(seen["channel"]) == len(members), seen["channel"]
    assert len(seen["bob's DMs"]) == 1, seen["bob's DMs"]
    assert seen["users"]["alice"]["name"] == "alice" and seen["users"]["bob"]["name"] == "bob"
    assert seen["users"]["alice"]["id"] == seen["ids"]["alice"]
    # bob's DM page holds bob's link alone: the code that proves bob
    (dm_link,) = seen["bob's DMs"].values()
    assert dm_link == seen["channel"][seen["ids"]["bob"]]
