"""Standings that explain themselves, through SimCord: the chat standings
name the tie-break where it decides and say what it counts; a shared place
is marked and shares its medal on the podium; the knockout bracket shows
the game's own result (never a settlement's negative chips); a bye is no
game played; an answer about oneself says "you".

Every expectation is worked out here from the stored matches (points,
Buchholz, places by the rules of docs/tournaments.md), not by the code
under test."""

from __future__ import annotations

import re
from collections import defaultdict
from typing import Any

from simtable import exactly, readings, says
from test_bot_tournament import EIGHT, answer, create, event, matches, play_match, posts, press

from bot.i18n import t


def _rows(text: str, key: str, lang: str) -> list[dict[str, str]]:
    """The lines of ``text`` that are the plural sentence ``key``, "(1 game)"
    or "(2 games)"."""
    return readings(text, key, lang, count=1) + readings(text, key, lang)


def _pts(value: float, lang: str) -> str:
    return t("tournament.pts", lang, n=f"{value:g}", count=value)


def _oracle(played: list[Any]) -> tuple[dict[int, float], dict[int, float], dict[int, float]]:
    """Points, Buchholz and Sonneborn–Berger of every player, summed from
    the stored matches as docs/tournaments.md defines them."""
    points: dict[int, float] = defaultdict(float)
    for m in played:
        for u, p in m.points.items():
            points[u] += p
    buchholz: dict[int, float] = defaultdict(float)
    sb: dict[int, float] = defaultdict(float)
    for m in played:
        if len(m.seats) != 2:
            continue
        a, b = m.seats
        buchholz[a] += points[b]
        buchholz[b] += points[a]
        sb[a] += m.points[a] * points[b]
        sb[b] += m.points[b] * points[a]
    return points, buchholz, sb


async def test_equal_points_name_the_tiebreak_that_decides(game_night):
    """Six players, two rounds of Swiss Sixty-Six: four or so end on equal
    points. The chat standings showed "1. alice — 1 pts (2 games)" with no
    tie-break, so players on equal points looked arbitrarily ordered: now
    each line on shared points names the tie-breaks down to the one that
    separates it from its neighbour, a shared place reads "3=" (「3位タイ」),
    a legend line says what each tie-break shown counts, and 1 point is
    "1 pt" — in English and in Japanese."""
    six = EIGHT[:6]
    async with game_night(seeded=True, managers=["alice"], locales={"frank": "ja"}) as night:
        people = [night.member(n) for n in six]
        hall = night.guild.create_text_channel("swiss-six")
        signup = await create(night, people[0], hall, game="sixtysix", format="swiss",
                              rounds=2, options="target=1")  # fmt: skip
        for user in people:
            await press(user, signup, 1, "join")
        await press(people[0], signup, 1, "start")
        for number in (1, 2):
            for m in await matches(night, number):
                if m.state == "open":
                    await play_match(night, m, "sixtysix")
        await night.settle()
        assert (await event(night)).state == "finished"
        played = [m for r in (1, 2) for m in await matches(night, r)]
        points, buchholz, sb = _oracle(played)
        name = {e.user_id: e.name for e in await night.store.tournaments.entrants(1)}
        key = {u: (points[u], buchholz[u], sb[u]) for u in name}
        # competition ranking: 1 + how many are strictly better
        place = {u: 1 + sum(key[v] > key[u] for v in name) for u in name}
        shared = {p for p in place.values() if list(place.values()).count(p) > 1}
        told_apart = [u for u in name if any(points[v] == points[u] and key[v] != key[u]
                                             for v in name)]  # fmt: skip
        assert told_apart, "nobody on equal points told apart by a tie-break: proves nothing"

        for user, lang in ((people[1], "en"), (people[5], "ja")):
            res = await user.slash(hall, "tournament standings")
            text = answer(res)
            with_tb = readings(text, "tournament.standings.line_tb", lang)
            named = {line["name"] for line in with_tb}
            # (a line with tie-breaks reads as a plain one too, its points running on)
            plain = [line for line in readings(text, "tournament.standings.line", lang)
                     if line["name"] not in named]  # fmt: skip
            assert len(plain) + len(with_tb) == 6, text
            label = t("pic.tournament.tb.buchholz", lang)
            used: set[int] = set()
            for line in plain + with_tb:
                u = next(v for v, n in name.items() if n == line["name"])
                want = "tournament.standings.place_shared" if place[u] in shared else (
                    "tournament.standings.place")  # fmt: skip
                assert exactly(line["place"], want, lang, n=place[u]), (line, place[u])
                assert line["points"] == _pts(points[u], lang)
                # on shared points: the tie-breaks down to the deepest one that
                # tells two neighbours apart (none when nothing does)
                group = sorted((v for v in name if points[v] == points[u]), key=key.get,
                               reverse=True)  # fmt: skip
                depth = max(
                    (1 if buchholz[a] != buchholz[c] else 2 if sb[a] != sb[c] else 0)
                    for a, c in zip(group, group[1:], strict=False)
                ) if len(group) > 1 else 0  # fmt: skip
                if depth == 0:
                    assert line["name"] not in named, line  # alone, or nothing decides
                    continue
                used.add(depth)
                assert line["name"] in named, line
                value = f"{buchholz[u]:g}"
                assert line["tiebreaks"].startswith(
                    t("tournament.standings.tiebreak", lang, label=label, value=value)
                ), (line, value)
                sb_label = t("pic.tournament.tb.sonneborn_berger", lang)
                assert (sb_label in line["tiebreaks"]) == (depth == 2), line
            # one line saying what each tie-break shown counts
            legends = [t("pic.tournament.legend.buchholz", lang),
                       t("pic.tournament.legend.sonneborn_berger", lang)]  # fmt: skip
            assert [x in text.splitlines() for x in legends] == [bool(used), 2 in used]
            if lang == "en":
                assert "1 pts" not in text and "pts pts" not in text


async def test_a_knockout_bracket_shows_the_games_result_and_the_podium_shares_third(game_night):
    """Six players of a Nine knockout: the bracket showed each match's
    settlement (Nine's chips: the loser's negative, "bob -12"); now it shows
    who went through and the game's own result — the face-up sum — in the
    picture and its alt text. Both semi-final losers are 3rd: the podium
    gave one bronze (the first three lines), now both. The top seeds'
    byes are no game played."""
    async with game_night(seeded=True, managers=["alice"]) as night:
        people = [night.member(n) for n in EIGHT[:6]]
        hall = night.guild.create_text_channel("nine-knockout")
        signup = await create(night, people[0], hall, game="nine", format="knockout")
        for user in people:
            await press(user, signup, 1, "join")
        await press(people[0], signup, 1, "start")
        for number in (1, 2, 3):
            for m in await matches(night, number):
                if m.state == "open":
                    await play_match(night, m, "nine")
        await night.settle()
        row = await event(night)
        assert row.state == "finished"
        played = [m for r in (1, 2, 3) for m in await matches(night, r) if m.state == "finished"]
        byes = [m.seats[0] for m in await matches(night, 1) if m.state == "bye"]
        assert len(byes) == 2 and len(played) == 5

        podium = posts(hall, "tournament.podium", game=t("game.nine", "en"))
        assert len(podium) == 1
        semis = await matches(night, 2)
        losers = [u for m in semis for u in m.seats if m.points[u] == 0.0]
        assert len(losers) == 2

        # the bracket: every played match's face-up sums, as the result stored them
        bracket = next(a for a in podium[0].attachments if a.filename == "bracket.png")
        alt = bracket.description or ""
        assert not re.search(r"[-−]\d", alt), alt  # no negative "score"
        for m in played:
            result = await night.store.results.get_result(m.result_id)
            assert result is not None
            by_id = {int(s["id"]): s["name"] for s in result["seats"]}
            remaining = result["outcome"]["remaining"]
            for u in m.seats:
                words = t("result.figure.nine", "en", value=str(remaining[by_id[u]]))
                assert words in alt, (words, alt)
        # both semi-final losers are 3rd, and both get the bronze
        content = podium[0].content
        assert content.count("🥉") == 2 and content.count("🥈") == 1 and content.count("🥇") == 1
        assert all(f"🥉 <@{u}>" in content for u in losers)
        # a bye is no game: the top seeds played one match fewer than their wins
        table = {s.player: s for s in await night.bot.tournaments.service.standings(row)}
        for u in byes:
            games = sum(u in m.seats for m in played)
            assert table[u].games == games


async def test_an_answer_about_yourself_says_you(game_night):
    """``/tournament drop`` by someone not in the event answered "@bob is
    not playing in this tournament" — to bob. Now: "You are not in this
    tournament."; a drop that works says "You dropped out", an organiser
    who removes themselves "You removed yourself"."""
    async with game_night(seeded=True, managers=["alice"], locales={"dave": "ja"}) as night:
        alice, bob, carol, dave = (night.member(n) for n in ("alice", "bob", "carol", "dave"))
        hall = night.guild.create_text_channel("second-person")
        signup = await create(night, alice, hall, game="sixtysix", format="swiss", rounds=1)
        for user in (carol, dave):
            await press(user, signup, 1, "join")
        res = await bob.slash(hall, "tournament drop")
        text = answer(res)
        assert exactly(text, "tournament.error.not_in", "en"), text
        assert bob.mention not in text
        # an organiser removing themselves is told "you" too
        await press(alice, signup, 1, "join")
        res = await alice.slash(hall, "tournament kick", user=alice)
        text = answer(res)
        assert exactly(text, "tournament.ok.kicked_self_signup", "en", id=1), text  # before the start
        assert alice.mention not in text
        res = await dave.slash(hall, "tournament drop")
        text = answer(res)
        assert exactly(text, "tournament.ok.dropped_signup", "ja", id=1), text
        assert dave.mention not in text
        # about someone else it names them
        res = await alice.slash(hall, "tournament kick", user=bob)
        assert says(answer(res), "tournament.error.not_in_user", user=bob.mention)


async def test_the_tables_tiebreak_is_named_in_the_games_unit(game_night):
    """Nine at a table of three: the tie-break of tables read "Score sum"
    though Nine's results are chips. The standings picture's column and
    its alt text now say "Chips", with the legend saying what it counts;
    the chat standings name it in the same word where it decides."""
    async with game_night(seeded=True, managers=["alice"], locales={"carol": "ja"}) as night:
        people = [night.member(n) for n in EIGHT[:3]]
        hall = night.guild.create_text_channel("nine-chips")
        signup = await create(night, people[0], hall, game="nine", format="swiss", rounds=1,
                              table_size=3)  # fmt: skip
        for user in people:
            await press(user, signup, 1, "join")
        await press(people[0], signup, 1, "start")
        for m in await matches(night, 1):
            await play_match(night, m, "nine")
        await night.settle()
        assert (await event(night)).state == "finished"
        for user, lang in ((people[1], "en"), (people[2], "ja")):
            res = await user.slash(hall, "tournament standings")
            shown = res.followups[-1] if res.followups else res.response
            (picture,) = [f for f in shown.attachments if f.filename == "standings.png"]
            alt = picture.description or ""
            assert t("pic.tournament.legend.score_sum.chips", lang) in alt, alt
            assert t("pic.tournament.tb.score_sum", lang) not in alt  # "Score sum"
            scores = {u: m.scores[u] for m in await matches(night, 1) for u in m.seats}
            # each row's chips, signed as the settlement paid them (the oracle:
            # the stored match's score of each player)
            for value in scores.values():
                signed = f"{int(value):+d}" if value > 0 else f"{int(value)}"
                said = t("pic.tournament.alt_tb.score_sum.chips", lang, value=signed,
                         count=abs(value))  # fmt: skip
                assert said in alt, (said, alt)


async def test_a_long_standings_message_keeps_whole_lines_and_its_legend(game_night):
    """Forty players with long names, four matches of round 1 played: the
    standings are more than Discord's 2000 characters. They were cut in the
    middle of a line (and the legend lost); now as many whole lines as fit,
    then "…and 12 more players" (the picture has them all), then the
    legend whole."""
    async with game_night(seeded=True, managers=["alice"]) as night:
        alice = night.member("alice")
        people = [alice] + [night.member(f"a-rather-long-player-name-{i:02}") for i in range(39)]
        hall = night.guild.create_text_channel("big-swiss")
        signup = await create(night, alice, hall, game="sixtysix", format="swiss", rounds=3,
                              options="target=1")  # fmt: skip
        for user in people:
            await press(user, signup, 1, "join")
        await press(alice, signup, 1, "start")
        for m in (await matches(night, 1))[:4]:
            await play_match(night, m, "sixtysix")
        res = await people[5].slash(hall, "tournament standings")
        text = answer(res)
        assert len(text) <= 2000
        lines = text.splitlines()
        with_tb = _rows(text, "tournament.standings.line_tb", "en")
        named = {line["name"] for line in with_tb}
        plain = [line for line in _rows(text, "tournament.standings.line", "en")
                 if line["name"] not in named]  # fmt: skip
        shown = len(with_tb) + len(plain)
        assert len(plain) == 4 and 10 < shown < 40  # the winners, then the 0-point rows
        more = readings(text, "tournament.standings.more", "en", count=40 - shown)
        assert len(more) == 1, lines[-4:]
        # every line whole: the title, the rows, "…and n more", the legend
        # (Buchholz tells the 0-point players apart: who lost to a winner has 1)
        assert lines[-1] == t("pic.tournament.legend.buchholz", "en")
        assert len(lines) == 1 + shown + 1 + 1


async def test_two_players_sharing_first_both_get_gold(game_night):
    """A one-round event of four: both matches are won, so the two winners
    are equal on everything (1 point, Buchholz 0, Sonneborn–Berger 0) and
    share 1st, the two losers 3rd. The podium gives both winners a gold,
    nobody silver, both losers a bronze (1, 1, 3, 3 — standard competition
    ranking); /tournament history names both as winners (it named one).
    (An event whose only match nobody played to a result has no winner at
    all: test_bot_tournament_referee.)"""
    async with game_night(seeded=True, managers=["alice"]) as night:
        alice = night.member("alice")
        people = [night.member(n) for n in ("bob", "carol", "dave", "erin")]
        hall = night.guild.create_text_channel("shared-first")
        signup = await create(night, alice, hall, game="sixtysix", format="swiss", rounds=1,
                              options="target=1")  # fmt: skip
        for user in people:
            await press(user, signup, 1, "join")
        await press(alice, signup, 1, "start")
        for match in await matches(night, 1):
            await play_match(night, match, "sixtysix")
        await night.settle()
        row = await event(night)
        assert row.state == "finished"
        winners = [u for m in await matches(night, 1) for u, p in m.points.items() if p == 1.0]
        losers = [p.id for p in people if p.id not in winners]
        assert len(winners) == 2
        (podium,) = posts(hall, "tournament.podium", game=t("game.sixtysix", "en"))
        content = podium.content
        assert all(f"🥇 <@{u}>" in content for u in winners), content
        assert all(f"🥉 <@{u}>" in content for u in losers), content
        assert "🥈" not in content
        assert len(_rows(content, "tournament.standings.line", "en")) == 4
        assert (
            "1= " in content and "3= " in content
        )  # the shared places, as the standings write them
        res = await people[0].slash(hall, "tournament history")
        text = answer(res)
        both = t("list.sep", "en").join(
            f"<@{u}>" for u in sorted(winners, key=[p.id for p in people].index)
        )
        assert says(text, "tournament.history.winner", count=2, user=both), text
