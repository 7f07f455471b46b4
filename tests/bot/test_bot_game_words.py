"""The games' words at the moment they are read (issue 33's tour): Bluff
logs a roll once and asks for "a stronger value" only when there is one to
beat; Sixty-Six's "Stop before drawing" switch and its lead prompt offer a
close only while the talon can be closed (docs/rules/sixtysix.md,
"Closing"); a Japanese result's bold reads as bold in CommonMark too (the
sandbox's Preview), not as literal ``**``."""

from __future__ import annotations

import re

from markdown_it import MarkdownIt
from simtable import accepted, says

from bot.i18n import t
from games import sixtysix
from games.core import SeededSource

DECKS = [SeededSource(f"words-sixtysix-{i}").deck() for i in range(4)]


def log_lines(text: str) -> list[str]:
    return [line[2:] for line in text.splitlines() if line.startswith("• ")]


def roll_word(lang: str) -> str:
    """The stem of "roll" in ``lang``, from the Roll button ("roll", 振)."""
    label = t("bluff.btn.roll", lang)
    return label.lower() if lang == "en" else label[0]


async def test_bluff_logs_one_roll_once_and_asks_for_a_value_first(game_night):
    for lang in ("en", "ja"):
        async with game_night(dice=[6, 5, 4, 3, 2, 1], aux=[1]) as night:
            table = await night.table("bluff", options="losses=2", lang=lang)
            alice, bob = night.alice, night.bob
            accepted(await table.act("m:roll", by=alice))
            # nothing announced yet in this game: a value, not "a stronger" one
            assert not table.shows("bluff.status.must_announce", lang), table.content
            assert table.shows("bluff.status.must_announce_first", lang), table.content
            accepted(await table.choose("announce 65", by=alice))
            # alice's one roll is told once: by its own line, not again by the announcement
            told = [line for line in log_lines(table.content) if "alice" in line]
            rolls = sum(line.lower().count(roll_word(lang)) for line in told)
            assert rolls == 1, told
            assert any(says(line, "ev.bluff.announce", lang, value="65") for line in told), told
            # bob rolls: now there is an announcement to beat
            accepted(await table.act("m:roll", by=bob))
            assert table.shows("bluff.status.must_announce", lang), table.content
            assert not table.shows("bluff.status.must_announce_first", lang)


async def test_sixtysix_offers_to_stop_before_drawing_only_while_the_talon_can_be_closed(
    game_night,
):
    """Nobody closes: the switch and the lead's "close" stay while the talon
    has cards, and go once it is gone (the last trick and the speak phase)."""
    async with game_night(decks=DECKS, aux=[1]) as night:  # alice deals
        table = await night.table("sixtysix")
        switch = {t("sixtysix.btn.ask_draw"), t("sixtysix.btn.auto_draw")}
        seen_open = seen_gone = 0
        for _ in range(40):
            if table.over:
                break
            state = sixtysix.from_json((await table.row()).state)
            if state.deal_no > 1:
                break
            can_close = not state.closed and len(state.talon) > 0  # the rule, read again
            for user in (night.alice, night.bob):
                hand = night.hand(user)
                assert bool(switch & set(hand.buttons)) == can_close, (hand.buttons, state.talon)
                if hand.shows("sixtysix.private.lead"):  # "… or close"
                    assert can_close, hand.content
                elif not can_close and user is table.mover and state.phase == "lead":
                    assert hand.shows("sixtysix.private.lead_talon_shut"), hand.content
            seen_open += can_close
            seen_gone += not can_close
            hand = night.hand(table.mover)
            if "m:pass" in hand.button_actions:
                break
            values = [v for v in hand.choices if v.startswith("play ")]
            accepted(await hand.choose(values[0]))
        assert seen_open and seen_gone  # both sides of the rule were looked at


BOLD_LEFT = re.compile(r"\*\*")


async def test_a_japanese_result_has_no_literal_bold_marks(game_night):
    """The result message's seed line names the 🔑 button: a CommonMark
    reader (the sandbox's Preview) shows it without ``**`` left over, and
    so does Discord."""
    md = MarkdownIt()
    async with game_night(seeded=True, locales={"alice": "ja", "bob": "ja"}) as night:
        table = await night.table("nine", lang="ja")
        while not table.over:
            accepted(await table.play())
        shown = md.renderInline(table.content)
        assert "**" not in shown, [ln for ln in shown.splitlines() if "**" in ln]
        assert t("result.btn.fair", "ja") in table.content
        res = await table.command(night.alice, "rules", game="nine")
        (embed,) = res.response.embeds
        for field in embed.fields:
            assert "**" not in md.renderInline(field.value), field.value


async def test_a_game_ended_without_a_result_points_to_its_own_button(game_night):
    """A game ended as no contest has no result; its message said "the
    seed is under 🔑 Seed" above no button at all. It names the button only
    where it is: the message of an ended game carries it (the seed of an
    abandoned game can be checked too), with the short hash."""
    for lang in ("en", "ja"):
        async with game_night(seeded=True) as night:
            table = await night.table("nine", lang=lang)
            (short,) = re.findall(r"`([0-9a-f]{8})`", table.content)
            await table.command(night.alice, "game end")  # the host: no contest
            assert table.shows("result.abandoned", lang), table.content
            button = t("result.btn.fair", lang)
            assert button in table.buttons, table.buttons
            assert table.shows("seed.result.dice", lang, hash=short, button=button), table.content
