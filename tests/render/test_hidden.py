"""Public pictures never depend on secrets: two states that differ only in
the cup dice or the hands/talon order give byte-identical table pictures."""

from __future__ import annotations

from bot.pictures import forget_pictures, hand_picture, table_picture
from bot.render import _base
from games import core, registry


def _on_one_palette(game: str, players: list[str]) -> None:
    """Every picture compared drawn on one palette: another table of the game
    drawn first keeps its kind's palette (the first picture of a kind is
    drawn in full colour and mapped whole — the same look, other bytes;
    and a palette kept from another test's pictures may be replaced
    half-way). Another table: an identical public view would be the kept
    picture itself; none kept from other tests either)."""
    _base.forget_palettes()
    forget_pictures()
    e = registry.engine(game)
    table_picture(e.view(e.new_game(players, {}, players[0], core.SeededSource("warm")), None))


def _bluff(first_roll: list[int]) -> tuple[object, object]:
    e = registry.engine("bluff")
    s = e.new_game(
        ["alice", "bob", "carol"], {}, "alice", core.ScriptedSource(dice=first_roll + [6, 6, 1, 2])
    )
    e.apply(s, "alice", "roll")
    e.peek(s, "alice")  # type: ignore[attr-defined]
    e.apply(s, "alice", "announce 54")
    e.apply(s, "bob", "roll")
    e.apply(s, "bob", "announce 61")
    return e, s


def test_bluff_public_picture_ignores_cup_dice() -> None:
    _on_one_palette("bluff", ["dora", "ed"])
    pics = []
    for dice in ([3, 1], [6, 5], [2, 1]):
        e, s = _bluff(dice)
        for viewer in (None, "bob", "carol", "alice"):
            pics.append(table_picture(e.view(s, viewer)).png)  # type: ignore[attr-defined]
    assert len(set(pics)) == 1


def test_bluff_hand_shows_the_peeked_dice() -> None:
    e, s = _bluff([3, 1])
    e2, s2 = _bluff([6, 5])
    # alice's dice are no longer under the cup (bob rolled); bob did not peek
    a = hand_picture(e.view(s, "bob")).png  # type: ignore[attr-defined]
    b = hand_picture(e2.view(s2, "bob")).png  # type: ignore[attr-defined]
    assert a == b


def _deck(swap: bool) -> list[str]:
    deck = list(core.CARDS)
    # the trump card (index 12) stays; the hands and talon order change
    if swap:
        deck[0], deck[20] = deck[20], deck[0]
        deck[3], deck[15] = deck[15], deck[3]
        deck[13], deck[23] = deck[23], deck[13]
    return deck


def test_sixtysix_public_picture_ignores_hands_and_talon() -> None:
    _on_one_palette("sixtysix", ["dora", "ed"])
    pics = []
    for swap in (False, True):
        e = registry.engine("sixtysix")
        s = e.new_game(["alice", "bob"], {}, "alice", core.ScriptedSource(decks=[_deck(swap)]))
        for viewer in (None, "alice", "bob"):
            pics.append(table_picture(e.view(s, viewer)).png)
    assert len(set(pics)) == 1
