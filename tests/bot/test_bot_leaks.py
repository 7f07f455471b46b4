"""Nothing public reveals a secret: seeded Bluff and Sixty-Six games played
through Discord, with everything a spectator can see captured after every
press (message text, custom ids, select options, attachment bytes and alt
text) and the bot's log records.

- Twin runs: the same game played twice by a policy that sees only public
  things, with different secrets (other dice under the cup here; another
  talon order in test_bot_sixtysix.py). Until the secret can become public
  (a reveal; a card played after a draw) every spectator snapshot — picture
  bytes included — must be identical.
- Sixty-Six: no public text, id, option or alt text ever names a card that
  sits in a hand unplayed (nor the talon), and neither does any log record.

Also the helpers the Bluff and Sixty-Six bot tests share.
"""

from __future__ import annotations

import logging
import random
import re
from typing import Any

import simcord
from simtable import controls, open_table

from games import bluff
from games.core import CARDS

# ----------------------------------------------------------------- helpers


def accepted(res: Any) -> Any:
    """The press was accepted: no ephemeral refusal as the answer."""
    assert res.response is None or not res.response.ephemeral or res.followups == [], (
        res.response.content
    )
    if res.response is not None and res.response.ephemeral:
        text = res.response.content
        assert not any(
            w in text for w in ("not your turn", "out of date", "not in this game", "does not")
        ), text
    return res


def dm_messages(env: simcord.Env, handle: Any) -> list[Any]:
    """The bot's messages in a user's DM, oldest first."""
    return [m for m in handle.dm_channel.history() if m.author.id != handle.id]


def spectator_snapshot(env: simcord.Env, channel: Any) -> list[tuple[Any, ...]]:
    """Every channel message as anyone without a seat sees it."""
    out = []
    channel_id = getattr(channel, "id", channel)
    for stored in sorted(env.backend.messages.get(channel_id, {}).values(), key=lambda m: m.id):
        if not stored.visible_to(None):
            continue
        files = []
        for a in stored.attachments:
            files.append((a.get("description"), env.backend.cdn.get(a["url"])))
        ids, options = [], []
        for c in _walk(stored.components):
            if c.get("custom_id"):
                ids.append(c["custom_id"])
            for o in c.get("options") or []:
                options.append((o.get("value"), o.get("label")))
        out.append((stored.content, tuple(ids), tuple(options), tuple(files)))
    return out


def _walk(components: list[dict[str, Any]]) -> Any:
    for c in components or []:
        yield c
        yield from _walk(c.get("components") or [])


def public_texts(env: simcord.Env, channel: Any) -> list[str]:
    """Every public word of the channel now: text, ids, options, alt text."""
    words = []
    for content, ids, options, files in spectator_snapshot(env, channel):
        words.append(content)
        words.extend(ids)
        words.extend(f"{v} {lab}" for v, lab in options)
        words.extend(str(d) for d, _png in files)
    return words


def mover_id(content: str) -> int | None:
    m = re.search(r"Turn: <@(\d+)>", content)
    return int(m.group(1)) if m else None


# ------------------------------------------------------------------- Bluff


async def _bluff_run(harness: Any, dice: list[int], seed: int) -> list[Any]:
    """One match by a public-only policy; the spectator snapshot after every
    press up to the first reveal."""
    harness.dice = dice
    harness.aux = [1 + seed % 3]
    rng = random.Random(seed)
    shots: list[Any] = []
    async with simcord.run(harness.bot()) as env:
        guild = env.create_guild()
        channel = guild.create_text_channel("bluff")
        users = [guild.add_member(env.create_user(n)) for n in ("ann", "ben", "cat")]
        msg = await open_table(env, channel, users[0], users[1:], "bluff", "losses=1")
        shots.append(spectator_snapshot(env, channel))
        for _ in range(40):
            ctl = controls(msg)
            if not ctl:
                break
            user = next(u for u in users if u.id == mover_id(msg.content))
            moves = [c for c in ctl if c["type"] == 2 and not c["custom_id"].endswith(":show")]
            selects = [c for c in ctl if c["type"] == 3]
            if selects and (not moves or rng.random() < 0.6):
                c = selects[0]
                value = c["options"][-1 if rng.random() < 0.7 else 0]["value"]
                await user.select(msg, [value], custom_id=c["custom_id"])
            else:
                c = rng.choice(moves)
                await user.click(msg, custom_id=c["custom_id"])
            if "revealed" in msg.content:
                break
            shots.append(spectator_snapshot(env, channel))
    return shots


async def test_bluff_public_messages_do_not_depend_on_the_dice(tmp_path, caplog):
    from simtable import Harness

    caplog.set_level(logging.DEBUG, logger="bot")
    for seed in range(6):
        rng = random.Random(100 + seed)
        a = [rng.randint(1, 6) for _ in range(200)]
        b = [(x % 6) + 1 for x in a]  # every die different
        ha = Harness(tmp_path / f"a{seed}.sqlite3")
        hb = Harness(tmp_path / f"b{seed}.sqlite3")
        try:
            caplog.clear()
            shots_a = await _bluff_run(ha, a, seed)
            logs_a = [r.getMessage() for r in caplog.records if r.name.startswith("bot")]
            caplog.clear()
            shots_b = await _bluff_run(hb, b, seed)
            logs_b = [r.getMessage() for r in caplog.records if r.name.startswith("bot")]
        finally:
            await ha.close()
            await hb.close()
        assert len(shots_a) >= 2
        assert shots_a == shots_b[: len(shots_a)] or shots_b == shots_a[: len(shots_b)]
        n = min(len(logs_a), len(logs_b))
        assert logs_a[:n] == logs_b[:n]
    assert bluff.RANKING[0] == "21"


# -------------------------------------------------------------- Sixty-Six

CARD_WORDS = {
    c: (
        c,
        {"9": "9", "T": "10", "J": "J", "Q": "Q", "K": "K", "A": "A"}[c[0]]
        + "♠♥♦♣"["SHDC".index(c[1])],
    )
    for c in CARDS
}


def named_cards(text: str) -> set[str]:
    """The cards a text names, in notation (``QS``) or in words (``Q♠``)."""
    out = set()
    for card, (notation, sign) in CARD_WORDS.items():
        if re.search(rf"(?<![0-9A-Za-z]){re.escape(notation)}(?![0-9A-Za-z])", text):
            out.add(card)
        if re.search(rf"(?<![0-9]){re.escape(sign)}", text):
            out.add(card)
    return out
