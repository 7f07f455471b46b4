"""The table tells the story (issue 22): the lobby's head-count says what it
means, a seat that left stays in view (its line, its mark on the table and
on the picture, greyed), a computer that took a seat keeps that person's
name on the picture, a DM learns that its game ended, Sixty-Six draws by
itself after a won trick, the replay's last step says the game is over
once, and the hints speak the game's own words."""

from __future__ import annotations

from typing import Any

from simtable import accepted, says

from bot.i18n import t


def alt_texts(table: Any) -> str:
    """The alt text of the table message's pictures, as Discord stores it."""
    return " ".join(str(a.get("description") or "") for a in table.stored.attachments)


# ------------------------------------------------------------ the lobby


async def test_the_lobby_counts_players_against_what_the_game_needs(game_night):
    async with game_night(locales={"alice": "en"}) as night:
        lobby = await night.table("bluff", players=1, start=False)
        need = t("lobby.need", "en", count=1)
        assert lobby.shows("lobby.players", count=1, max=10, status=need), lobby.content
        assert "Players 1/10 — 1 more needed to start" in lobby.content  # not "(1, 2–10)"
        accepted(await lobby.act("join", by=night.bob))
        assert lobby.shows("lobby.players", count=2, max=10, status=t("lobby.ready", "en"))
        duel = await night.table("sixtysix", players=2, start=False)
        assert "Players 2/2 — ready" in duel.content


async def test_the_lobby_counts_in_japanese(game_night):
    async with game_night() as night:
        lobby = await night.table("sixtysix", players=1, start=False, lang="ja")
        need = t("lobby.need", "ja", count=1)
        assert need == "あと1人で開始できます"
        assert lobby.shows("lobby.players", "ja", count=1, max=2, status=need), lobby.content
        accepted(await lobby.act("join", by=night.bob))
        assert lobby.shows("lobby.players", "ja", count=2, max=2, status="開始できます")


# ------------------------------------------------------- leaving the game


async def turn_of(table: Any, who: Any) -> None:
    """Play the first offered moves until it is ``who``'s turn."""
    for _ in range(200):
        await table.night.settle()
        if table.turn is who:
            return
        await table.play()
    raise AssertionError("never their turn")


async def test_a_leave_stays_in_view_while_the_computers_play_on(game_night):
    async with game_night(seeded=True) as night:
        table = await night.table("yahtzee", players=2, cpus=["easy"])
        bob = night.bob
        await turn_of(table, bob)
        await table.ask(bob, "game leave")
        await night.settle()
        assert table.turn is night.alice  # the computer has played its turn since
        accepted(await table.act("m:roll"))  # alice rolls: three lines since the leave
        log = (await table.row()).ui["log"]
        kinds = [e["kind"] for e in log]
        since = kinds[kinds.index("forfeit") + 1 :]
        assert since.count("roll") + since.count("score") >= 3, kinds
        lines = [x for x in table.content.splitlines() if x.startswith("• ")]
        assert len(lines) == 3
        left = t("ev.yahtzee.forfeit", "en", player="bob")
        assert lines[0] == "• " + left, table.content  # first of the three, not pushed out
        assert any("CPU1" in x for x in lines[1:]), lines
        # the seat is marked on the table and on the picture (greyed "(left)")
        out = t("table.seat_left", "en", player="bob")
        assert table.shows("table.seats_out", players=out), table.content
        assert "bob (left)" in alt_texts(table)


async def test_a_removed_seat_and_a_computers_seat_keep_their_names(game_night):
    async with game_night(seeded=True, locales={"alice": "ja"}) as night:
        table = await night.table("sixdice", players=4, lang="ja")
        alice, bob, carol = night.alice, night.bob, night.carol
        await table.command(alice, "game kick", player=bob)
        await table.command(alice, "game kick", player=carol, replace_with_cpu=True)
        await night.settle()
        out = t("table.seat_removed", "ja", player="bob")
        assert table.shows("table.seats_out", "ja", players=out), table.content
        shown = alt_texts(table)
        assert "bob（除外）" in shown, shown
        assert "carol（CPU）" in shown, shown  # whose seat the computer took
        # the last removal's line is the first of the three, the mark stays
        assert says(table.content, "ev.kicked_cpu", "ja", player=carol.mention), table.content
