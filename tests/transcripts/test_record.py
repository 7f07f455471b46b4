"""The recorder of the golden transcripts on hand-made messages: what it
names, how it prints a message, and that one step prints the same however
the bot interleaved its conversations."""

from __future__ import annotations

from datetime import UTC, datetime
from types import SimpleNamespace
from typing import Any

from .record import EPHEMERAL, LOADING, Recorder, span

START = datetime(2026, 1, 1, tzinfo=UTC)
T = int(START.timestamp())
BOT, ALICE, BOB = 900000000000000001, 900000000000000002, 900000000000000003
GAMES, NINE, DM_ALICE, THREAD, GUILD = (900000000000000010 + n for n in range(5))


def channel(name: str | None, kind: int = 0, **fields: Any) -> Any:
    base = {"is_thread": False, "parent_id": None, "recipient_ids": []}
    return SimpleNamespace(name=name, type=kind, **(base | fields))


class Backend:
    def __init__(self) -> None:
        self.bot_user = SimpleNamespace(id=BOT)
        self.users = {ALICE: SimpleNamespace(name="alice"), BOB: SimpleNamespace(name="bob")}
        self.channels = {
            GAMES: channel("games"),
            NINE: channel("nine-1"),
            DM_ALICE: channel(None, 1, recipient_ids=[ALICE, BOT]),
            THREAD: channel("Round 1 · match 2", 11, is_thread=True, parent_id=GAMES),
        }
        self.guilds = {GUILD: SimpleNamespace(roles={})}
        self.messages: dict[int, dict[int, Any]] = {}
        self.subscribers: list[Any] = []


def recorder() -> Recorder:
    env = SimpleNamespace(backend=Backend(), now=lambda: START)
    return Recorder(env)


def message(mid: int, where: int, content: str = "", **fields: Any) -> Any:
    base = {
        "author_id": BOT,
        "flags": 0,
        "embeds": [],
        "components": [],
        "attachments": [],
        "interaction_metadata": None,
    }
    return SimpleNamespace(id=mid, channel_id=where, content=content, **(base | fields))


def test_spans_from_the_scenes_start() -> None:
    assert [span(s) for s in (0, 45, 1800, 3725, -10)] == [
        "T+0s",
        "T+45s",
        "T+30m",
        "T+1h2m5s",
        "T-10s",
    ]


def test_ids_times_and_command_mentions_are_named() -> None:
    rec = recorder()
    rec.backend.messages[NINE] = {777000000000000001: message(777000000000000001, NINE)}
    text = (
        f"<@{ALICE}> and <@!{BOB}> in <#{NINE}>: </game end:123456789012345678> "
        f"before <t:{T + 90}:R> (<t:{T + 600}>), "
        f"https://discord.com/channels/{GUILD}/{NINE}/777000000000000001 "
        "ref 555000000000000001, 555000000000000002, 555000000000000001"
    )
    assert rec.clean(text) == (
        "@alice and @bob in #nine-1: </game end> before <t:T+1m30s:R> (<t:T+10m>), "
        "https://discord.com/channels/server/nine-1/#m1 ref <id1>, <id2>, <id1>"
    )
    assert rec.clean("room 101, 2026-01-01, 1700000000") == "room 101, 2026-01-01, 1700000000"


def test_a_message_is_printed_with_its_controls_pictures_and_reader() -> None:
    rec = recorder()
    rows = [
        {
            "type": 1,
            "components": [
                {"type": 2, "label": "Roll", "style": 1, "custom_id": "cb:1:2:m:roll"},
                {"type": 2, "label": "Stop", "style": 3, "custom_id": "cb:1:2:m:stop",
                 "disabled": True},  # fmt: skip
                {"type": 2, "label": "Seed", "style": 2, "emoji": {"name": "🔑"},
                 "custom_id": "cr:1:fair"},  # fmt: skip
            ],
        },
        {
            "type": 1,
            "components": [
                {
                    "type": 3,
                    "custom_id": "cs:1:2:m",
                    "placeholder": "Set aside…",
                    "options": [
                        {"label": "1 5", "value": "take 1 5", "description": "150 points"},
                        {"label": "1", "value": "take 1", "default": True},
                    ],
                }
            ],
        },
    ]
    files = [{"filename": "nine-table.png", "description": "Nine. alice's turn."},
             {"filename": "chabudai-nine-1.json"}]  # fmt: skip
    meta = {"user": {"id": str(BOB)}}
    rec.later(message(11, NINE, f"Turn: <@{ALICE}>", components=rows, attachments=files))
    rec.later(message(12, NINE, "It is not your turn.", flags=EPHEMERAL,
                      interaction_metadata=meta))  # fmt: skip
    rec.later(message(13, DM_ALICE, "Your dice"))
    rec.later(message(14, THREAD, "Round 1"))
    assert rec.text().splitlines() == [  # one step: by conversation
        "#games › Round 1 · match 2 · bot → #m1",
        "  Round 1",
        "#nine-1 · bot → #m2",
        "  Turn: @alice",
        "  [Roll · primary] [Stop · success, disabled] [🔑 Seed]",
        "  [select: Set aside…]",
        "    · 1 5 — 150 points",
        "    · 1 (chosen)",
        '  picture: nine-table.png — alt: "Nine. alice\'s turn."',
        "  file: chabudai-nine-1.json",
        "#nine-1 · ephemeral → bob · #m3",
        "  It is not your turn.",
        "DM alice · bot → #m4",
        "  Your dice",
    ]


def test_a_step_prints_the_same_however_its_conversations_interleave() -> None:
    """The table's edits and the hall's standings come in either order; each
    conversation keeps its own order; an edit that changes nothing is left
    out; a "thinking…" answered in the same step is left out."""
    texts = []
    for order in ((0, 1, 2, 3, 4, 5), (3, 0, 4, 1, 5, 2)):
        rec = recorder()
        table = [message(1, NINE, "Turn: alice"), message(1, NINE, "Turn: bob"),
                 message(1, NINE, "Turn: bob")]  # fmt: skip
        hall = [message(2, GAMES, "Standings: 0"), message(3, GAMES, "", flags=LOADING),
                message(3, GAMES, "Round 2 is paired")]  # fmt: skip
        events = table + hall
        for n in order:
            rec.later(events[n])
        texts.append(rec.text())
    assert texts[0] == texts[1]
    assert texts[0].splitlines() == [
        "#games · bot → #m1",
        "  Standings: 0",
        "#games · bot → #m2",
        "  Round 2 is paired",
        "#nine-1 · bot → #m3",
        "  Turn: alice",
        "#nine-1 · bot → #m3 (edit 1)",
        "  Turn: bob",
    ]


def test_thinking_is_shown_while_nothing_else_came() -> None:
    rec = recorder()
    rec.later(message(5, GAMES, "", flags=LOADING))
    rec.note("later")
    rec.later(message(5, GAMES, "The review"))
    rec.later(message(5, GAMES, ""), deleted=True)
    assert rec.text().splitlines() == [
        "#games · bot → #m1",
        "  (thinking…)",
        "",
        "== later",
        "#games · bot → #m1 (edit 1)",
        "  The review",
        "#games · #m1 deleted",
    ]
