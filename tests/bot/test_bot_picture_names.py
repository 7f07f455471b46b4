"""People in the pictures by the names they chose (issue 18): the bot hands
every picture the seats' display names, so the table picture, a Sixty-Six
hand and the result picture draw "Bob Smith" — never the engine's
"Bob_Smith" — and an emoji display name loses its emoji cleanly (no □)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from PIL import ImageDraw

from bot.render import _base

ENGINE_NAMES = ("Bob_Smith", "Dice_King")


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Every string the renderers hand to Pillow (text masks uncached first)."""
    _base._text_mask.cache_clear()
    seen: list[str] = []
    original = ImageDraw.ImageDraw.text

    def text(self: ImageDraw.ImageDraw, xy: Any, text: Any, *args: Any, **kwargs: Any) -> Any:
        seen.append(str(text))
        return original(self, xy, text, *args, **kwargs)

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", text)
    yield seen


def _people(night: Any) -> list[Any]:
    """alice, "Bob Smith" (bob) and "🎲 Dice King 🎲" (carol) as Discord shows them."""
    night.users["bob"] = night.env.create_user("bob", global_name="Bob Smith")
    night.users["carol"] = night.env.create_user("carol", global_name="🎲 Dice King 🎲")
    return [night.alice, night.bob, night.carol]


async def _engine_names_have_underscores(table: Any) -> None:
    """Not vacuous: the seats' engine names are the underscored ones."""
    row = await table.row()
    assert "Bob_Smith" in [s["name"] for s in row.seats], row.seats


def _alts(table: Any) -> list[str]:
    return [str(d) for _content, _ids, _options, files in table.spectators_see() for d, _ in files]


@pytest.mark.parametrize("game", ["nine", "yahtzee"])
async def test_table_and_result_pictures_draw_display_names(game_night, drawn, game):
    async with game_night(seeded=True) as night:
        table = await night.table(game, players=_people(night))
        await _engine_names_have_underscores(table)
        await table.play_to_the_end()
        text = "\n".join(drawn)
        assert "Bob Smith" in text and "Dice King" in text
        assert not [n for n in ENGINE_NAMES if n in text]
        assert "□" not in text
        alts = "\n".join(_alts(table))
        assert "Bob Smith" in alts and not [n for n in ENGINE_NAMES if n in alts]
        assert any("Bob Smith" in a for a in _alts(table)[-1:]), "the result picture"


async def test_a_sixty_six_table_draws_display_names(game_night, drawn):
    async with game_night(seeded=True) as night:
        people = _people(night)[1:]  # Bob Smith and Dice King
        table = await night.table("sixtysix", players=people)
        await _engine_names_have_underscores(table)
        assert night.hand(people[0]).attachments  # the hand picture, by DM
        text = "\n".join(drawn)
        assert "Bob Smith" in text and "Dice King" in text
        assert not [n for n in ENGINE_NAMES if n in text]
        assert "Bob Smith" in "\n".join(_alts(table))
