"""Results say what the numbers mean (issue 22, "Results say what the numbers
mean"; issue 23 item 5): every place of a finished game states its unit and
why, in words and on the picture, in English and Japanese; Bluff counts
lives lost, one word everywhere; two winners "win"; a computer in a kicked
player's seat reads naturally and every place in /history has its rank; no
message names ``<@None>``; the result picture's text meets WCAG AA."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from simtable import readings, says

from bot import pictures
from bot.games import plugin
from bot.i18n import t
from bot.render import _base as b
from bot.render import result as result_render
from bot.tables.rows import TableRow
from bot.turns import first_turn_seconds
from bot.ui import present
from games import registry

LANGS = ("en", "ja")
GAMES = ("nine", "sixdice", "bluff", "yahtzee", "sixtysix")

# each game's unit at the start of a place's points ("+16 chips", 「失ったライフ2」)
UNIT = {
    ("nine", "en"): r"[+-][\d,]+ chips?\b",
    ("nine", "ja"): r"[+-][\d,]+チップ",
    ("sixdice", "en"): r"[+-][\d,]+ chips?\b",
    ("sixdice", "ja"): r"[+-][\d,]+チップ",
    ("bluff", "en"): r"\d+ (life|lives) lost",
    ("bluff", "ja"): r"失ったライフ\d+",
    ("yahtzee", "en"): r"[\d,]+ points?\b",
    ("yahtzee", "ja"): r"[\d,]+点",
    ("sixtysix", "en"): r"\d+ game points?\b",
    ("sixtysix", "ja"): r"\d+ゲームポイント",
}
# why, beside the unit: the game's own figure or the deals won
WHY = {
    ("nine", "en"): "face-up sum",
    ("nine", "ja"): "表の合計",
    ("sixdice", "en"): " points",
    ("sixdice", "ja"): "点",
    ("sixtysix", "en"): "deal ",
    ("sixtysix", "ja"): "ディール",
}


PLACE = re.compile(r"\d+(?:\\?\. |位　)(?P<player><@\d+>|CPU\d+ ?[(（][^)）]*[)）]) (?:🏆 )?(?P<points>.+)")


def places(text: str, lang: str) -> list[dict[str, str]]:
    """The places of a result message (the winners' and the others'): the
    lines under its header, each a person or a computer and its points."""
    lines = text.splitlines()
    header = next(i for i, ln in enumerate(lines) if ln == t("result.header", lang))
    out = []
    for line in lines[header + 1 :]:
        m = PLACE.fullmatch(line)
        if m:
            out.append(m.groupdict())
    return out


async def finished_table(night, game: str, lang: str):
    players = 2 if game == "sixtysix" else 1
    cpus = () if game == "sixtysix" else ("easy",) * (2 if game == "bluff" else 1)
    table = await night.table(game, players=players, cpus=cpus, lang=lang)
    await table.play_to_the_end()
    return table


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", GAMES)
async def test_every_place_states_its_unit_and_why(game_night, game, lang):
    async with game_night(seeded=True) as night:
        table = await finished_table(night, game, lang)
        found = places(table.content, lang)
        assert len(found) >= 2, table.content
        for place in found:
            points = place["points"]
            assert re.match(UNIT[game, lang], points), (points, table.content)
            assert not re.fullmatch(r"[+-]?[\d,]+", points)  # never a bare number
        if (game, lang) in WHY:  # the game's own figure (Nine, Six Dice) or the deals won
            winner = readings(table.content, "result.line_win", lang)[0]["points"]
            assert WHY[game, lang] in winner, winner
        # the picture: its columns named, a legend saying how they count
        [file] = table.stored.attachments
        described = file["description"] if isinstance(file, dict) else file.description
        options = registry.engine(game).OPTIONS
        legend = plugin(game).result_legend({"options": {o.name: o.default for o in options}}, lang)
        assert legend[:40] in described, described
        assert not re.search(r"\d ×", described)  # no bare marks ("0 ×", "0 ×4")


@pytest.mark.parametrize("lang", LANGS)
def test_the_result_picture_explains_its_figures(lang):
    """Six Dice's "not started" and Nine's ×4 are words, not marks."""
    from tests.render.views import finished, sixdice_history

    e, s, hist = sixdice_history(5, ["alice", "ぼぶ太郎", "carol"])
    pic = pictures.result_picture(e.view(s, None), e.outcome(s), lang=lang, history=hist)
    assert t("result.sixdice.not_started", lang, n=5) in pic.alt
    assert "0 ×" not in pic.alt and t("pic.settlement", lang) == (
        "Chips" if lang == "en" else "チップ"
    )
    e, s = finished("nine", ["alice", "ぼぶ太郎", "carol"], 15)  # 上がり holding a token
    pic = pictures.result_picture(e.view(s, None), e.outcome(s), lang=lang)
    assert t("result.nine.agari_tokens", lang, count=1, mult=4) in pic.alt
    assert "0 ×4" not in pic.alt


@pytest.mark.parametrize("lang", LANGS)
def test_sixty_six_says_how_each_deal_was_won(lang):
    from tests.render.views import sixtysix_deals

    view, outcome = sixtysix_deals()
    pic = pictures.result_picture(view, outcome, lang=lang)
    bob = "🎲 Bob Smith 🎲"
    for said in (
        t("result.sixtysix.schneider", lang, other=bob),
        t("result.sixtysix.schwarz", lang, other=bob),
        t("result.sixtysix.short_declared", lang, other=bob, points=52),
        t("result.sixtysix.closed", lang),
        t("result.sixtysix.carry", lang, count=1),
        t("unit.game_point", lang, count=7),
    ):
        assert said in pic.alt, (said, pic.alt)


async def test_bluff_counts_lives_lost_in_stats_and_history(game_night):
    async with game_night(seeded=True, locales={"alice": "ja"}) as night:
        table = await night.table("bluff", players=[night.bob, night.alice], options="losses=1")
        await table.play_to_the_end(prefer=("m:reveal", "m:roll"))
        [result] = await night.store.results.all(game="bluff")
        for user, lang in ((night.bob, "en"), (night.alice, "ja")):
            lost = -result["settlement"][str(user.id)]
            text = await night.ask(user, "stats", game="bluff")
            game = t("game.bluff", lang)
            line = next(ln for ln in text.splitlines() if says(ln, "stats.line", lang, game=game))
            assert says(line, "stats.line", lang, points=t("unit.life_lost", lang, count=lost))
            assert not re.search(r"\bloss|敗", line.split(game)[-1]), line
            history = await night.ask(user, "history")
            assert t("unit.life_lost", lang, count=lost) in history, history
            assert "loss" not in history
            if lang == "ja":  # no English word outside names
                words = re.sub(r"<[^>]*>|\(http[^)]*\)|`[^`]*`|alice|bob|CPU", "", history)
                assert not re.search(r"[A-Za-z]{3,}", words), history


@pytest.mark.parametrize("lang", LANGS)
def test_two_winners_win(lang):
    from bot.render.result import winners_line

    names = ["CPU1 (easy)", "CPU2 (easy)"]
    both = t("list.and", lang, rest=names[0], last=names[1])
    assert winners_line(names, lang) == t("pic.wins_many", lang, player=both)
    assert winners_line(names, lang) == (
        "CPU1 (easy) and CPU2 (easy) win" if lang == "en" else "CPU1 (easy)とCPU2 (easy)の勝ち"
    )
    view = {"game": "bluff", "players": ["alice", "CPU1", "CPU2"], "options": {"losses": 3}}
    outcome = {"finished": True, "losses": {"alice": 3, "CPU1": 0, "CPU2": 0}}
    outcome["winners"] = ["CPU1", "CPU2"]
    pic = pictures.result_picture(view, outcome, lang=lang)
    assert winners_line(["CPU1", "CPU2"], lang) in pic.alt
    assert "・" not in pic.alt and "CPU2 wins" not in pic.alt
    from tests.render.views import finished

    e, s = finished("yahtzee", ["alice", "ぼぶ太郎", "carol"], 15)  # a tie: two winners
    assert e.outcome(s)["winners"] == ["alice", "carol"]
    table = pictures.table_picture(e.view(s, None), lang=lang)
    assert table is not None and winners_line(["alice", "carol"], lang) in table.alt, table.alt


@pytest.mark.parametrize("lang", LANGS)
async def test_a_computer_in_a_kicked_seat_and_every_place_in_history(game_night, lang):
    other = "en" if lang == "ja" else "ja"
    locales = {"alice": lang, "eve": other}
    async with game_night(seeded=True, settings={"lang": lang}, locales=locales) as night:
        table = await night.table("nine", players=2)
        await table.command(night.alice, "game kick", player=night.bob, replace_with_cpu=True)
        await table.play_to_the_end()
        cpu = t("kick.cpu_display", lang, name="bob", level=t("cpu.level.normal", lang))
        assert cpu == ("CPU (normal) in bob's seat" if lang == "en" else "bobの席のCPU（普通）")
        history = await night.ask(night.alice, "history")
        [line] = readings(history, "history.line", lang)
        shown = line["players"].split(t("list.sep", lang))
        assert len(shown) == 2, line
        ranks = {says(p, "history.place", lang, player=cpu) for p in shown}
        assert ranks == {True, False}, shown  # the computer has its place and rank
        assert all(says(p, "history.place", lang) for p in shown), shown  # each a rank
        assert ") (" not in history and "）（" not in history  # no double brackets
        # a reader of the other language reads the computer in theirs
        theirs = t("kick.cpu_display", other, name="bob", level=t("cpu.level.normal", other))
        assert theirs in await night.ask(night.eve, "history")


@pytest.mark.parametrize("lang", LANGS)
async def test_history_ranks_a_computer_that_won(game_night, lang):
    async with game_night(seeded=True, locales={"alice": lang}) as night:
        table = await night.table("bluff", players=1, cpus=("easy",), options="losses=1")
        await table.play_to_the_end(prefer=("m:reveal", "m:roll"))
        answer = await night.ask(night.alice, "history")
        [line] = readings(answer, "history.line", lang)
        shown = line["players"].split(t("list.sep", lang))
        assert t("history.title", lang, n=1, count=1) in answer  # "the last 1 finished game"
        found = [readings(p, "history.place", lang)[0] for p in shown]
        assert sorted(int(p["rank"]) for p in found) == [1, 2], shown
        assert t("history.cpu", lang) == "history.cpu"  # no unranked "(computer)" line


def row_of(game: str, phase: str = "lobby") -> TableRow:
    return TableRow(1, 1, 1, 1, game, phase, 7, [], {}, None, {}, None, 1, None, 0.0, 0.0)


@pytest.mark.parametrize("lang", LANGS)
async def test_no_message_names_nobody(lang):
    """A table closed or a game ended by nobody (the clock, the bot) never
    says ``<@None>``; by someone, it names them."""
    for msg in (
        present.cancelled_message(row_of("nine"), lang, by=None),
        await present.abandoned_message(row_of("sixdice", "playing"), lang, by=None),
    ):
        assert "None" not in msg.content and "<@" not in msg.content, msg.content
    msg = await present.abandoned_message(row_of("sixdice", "playing"), lang, by=None)
    assert says(msg.content, "result.abandoned_idle", lang, n=3)
    msg = present.cancelled_message(row_of("nine"), lang, by=42)
    assert says(msg.content, "lobby.cancelled", lang, user="<@42>")
    assert present.mention(None) is None and present.mention(5) == "<@5>"


async def test_a_game_nobody_plays_says_so_and_names_nobody(game_night):
    async with game_night(seeded=True) as night:
        table = await night.table("sixdice")
        turn = registry.spec("sixdice").turn_seconds
        # nobody plays for three turn clocks (two players' first turns, longer)
        for wait in (first_turn_seconds(turn), first_turn_seconds(turn), turn):
            await night.wait(wait + 5)
        assert await table.row() is None
        assert "None" not in table.content, table.content
        assert table.shows("result.abandoned_idle", game="Six Dice", n=3), table.content


def test_every_mention_in_the_bot_is_guarded():
    """Every ``<@{…}>`` the bot writes names a seat or a user id that is
    there: a user who may be nobody goes through ``present.mention``."""
    root = Path(__file__).resolve().parents[2] / "bot"
    found = []
    for path in root.rglob("*.py"):
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if re.search(r"<@\{(by|ended_by|user_id)\}", line):
                found.append(f"{path.relative_to(root)}:{n}: {line.strip()}")
    assert [f for f in found if "def mention" not in f and "None if" not in f] == []


TEXT_ON = {  # (text colour, background) of the result picture, by name in bot.render._base
    "grey caption on the table": ("INK_DIM", "TABLE"),
    "grey caption on a panel": ("INK_DIM", "PANEL"),
    "grey caption on the winner's row": ("INK_DIM", "WIN_ROW"),
    "negative on the table": ("NEGATIVE", "TABLE"),
    "negative on a panel": ("NEGATIVE", "PANEL"),
    "positive on the table": ("GREEN", "TABLE"),
    "positive on the winner's row": ("GREEN", "WIN_ROW"),
    "name on the winner's row": ("INK", "WIN_ROW"),
    "winners on the table": ("HILITE", "TABLE"),
}


@pytest.mark.parametrize("pair", sorted(TEXT_ON))
def test_result_text_meets_wcag_aa(pair):
    fg, bg = (getattr(b, name) for name in TEXT_ON[pair])
    assert b.contrast(fg, bg) >= 4.5, f"{pair}: {b.contrast(fg, bg):.2f}:1"
    assert b.AA == 4.5  # WCAG AA for text
    source = Path(result_render.__file__).read_text(encoding="utf-8")
    assert "b.RED" not in source and "fill=(70, 100, 64)" not in source  # drawn from these


def test_the_old_red_and_winner_row_did_not():
    """What the picture drew before: red 2.4:1 on the table, grey 3.2:1 on
    the winner's row (the test above is not vacuous)."""
    assert b.contrast(b.RED, b.TABLE) < 4.5
    assert b.contrast(b.INK_DIM, (70, 100, 64)) < 4.5


def test_negative_numbers_on_the_table_are_drawn_readable():
    """Six Dice's negative scores and Bluff's count of lives lost are text on
    the dark wood: drawn in NEGATIVE (AA), not RED (2.4:1)."""
    from bot.render import bluff, sixdice

    old = {  # how each drew its negatives
        sixdice: "b.RED if sc < 0",
        bluff: "str(n), b.SMALL, b.RED",
        result_render: "b.RED if s < 0",
    }
    for module, drawn in old.items():
        source = Path(module.__file__).read_text(encoding="utf-8")
        assert "b.NEGATIVE" in source and drawn not in source, module.__name__


def test_bluff_says_lives_lost_in_every_english_word():
    """The status line, the picture, the option, the rules: lives, never
    "losses" (a player who won the match may have lost a life)."""
    from bot.i18n import catalogue

    en = catalogue("en")
    keys = [k for k in en if k.startswith(("bluff.status.losses", "pic.losses", "opt.bluff."))]
    keys += ["pic.figure.bluff", "pic.legend.bluff", "rules.bluff.summary", "rules.bluff.scoring"]
    for key in keys:
        words = re.sub(r"\{\w+\}|option losses|`losses`", "", en[key])  # the option's name
        assert not re.search(r"\bloss(es)?\b", words, re.I), (key, en[key])
    assert t("unit.life_lost", "en", count=1) == "1 life lost"
    assert t("unit.life_lost", "en", count=2) == "2 lives lost"
    assert t("unit.life_lost", "ja", count=2) == "失ったライフ2"


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("key", ["result.line", "result.line_win", "board.line", "board.line_wins"])
def test_places_are_not_numbered_again_as_a_list(key, lang):
    """A line that starts "1. " is an ordered list to Discord's Markdown, which
    numbers it again: tied places "1. 1. 3." read "1. 2. 3." beside a
    picture that shows 1, 1, 3. English escapes the dot; Japanese writes 1位."""
    line = t(key, lang, rank=1, player="x", name="x", points="3", value="3", games="2", wins="1")
    assert not re.match(r"\d+\. ", line), line
