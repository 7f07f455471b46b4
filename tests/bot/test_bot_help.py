"""``/help``: what the bot does, every game of the registry in one line with
its player counts, how to start, where secrets arrive, the rules, privacy —
in the asker's language, for them alone."""

from __future__ import annotations

from pathlib import Path

import pig
import pytest
from simtable import says

from bot.i18n import COMMAND_IDS, command, t
from games import registry


def answer(res):
    """The /help embed (for the asker alone)."""
    assert res.response is not None and res.response.ephemeral, res
    [embed] = res.response.embeds
    return embed


def field(embed, key, lang):
    return next(f.value for f in embed.fields if f.name == t(key, lang))


def players(game, lang):
    spec = registry.spec(game)
    if spec.min_players == spec.max_players:
        return t("help.players_one", lang, count=spec.min_players)
    return t("help.players", lang, min=spec.min_players, max=spec.max_players)


@pytest.mark.parametrize("lang", ["en", "ja"])
async def test_help_in_the_askers_language(game_night, lang):
    async with game_night(locales={"alice": lang}) as night:
        embed = answer(await night.command(night.alice, "help"))
        assert embed.title == t("help.title", lang)
        assert embed.description == t("help.about", lang)
        games = field(embed, "help.games", lang).splitlines()
        assert len(games) == len(registry.names()) == 5
        for game, line in zip(registry.names(), games, strict=True):
            assert says(
                line, "help.game_line", lang,
                game=t(f"game.{game}", lang), players=players(game, lang),
                what=t(f"help.game.{game}", lang),
            )  # fmt: skip
        start = field(embed, "help.start.title", lang)
        assert f"/{t('cmd.play.name', lang)}" in start and t("lobby.btn.join", lang) in start
        assert says(field(embed, "help.secrets.title", lang), "help.secrets", lang)
        rules = field(embed, "help.rules.title", lang)
        assert f"/{t('cmd.rules.name', lang)}" in rules
        assert says(field(embed, "help.privacy.title", lang), "help.privacy", lang)


async def test_help_counts_players_from_the_specs(game_night):
    """Sixty-Six is for exactly two; Bluff from two to ten — as the specs say."""
    async with game_night() as night:
        embed = answer(await night.command(night.bob, "help"))
        lines = field(embed, "help.games", "en").splitlines()
        sixtysix = next(line for line in lines if t("game.sixtysix") in line)
        assert "(2 players)" in sixtysix
        bluff = next(line for line in lines if t("game.bluff") in line)
        assert f"({registry.spec('bluff').min_players}–{registry.spec('bluff').max_players}" in bluff


async def test_help_lists_a_game_added_to_the_registry(game_night):
    """A sixth game (Pig, from tests/: no one-line description of its own)
    is listed by its name and its spec's player counts; nothing in bot/
    names it."""
    pig.install()
    try:
        async with game_night() as night:
            embed = answer(await night.command(night.alice, "help"))
            lines = field(embed, "help.games", "en").splitlines()
        assert len(lines) == 6
        line = next(line for line in lines if t("game.pig") in line)
        assert line == f"**{t('game.pig')}** ({players('pig', 'en')})"
        assert "help." not in line and "rules." not in line  # no raw catalogue key
    finally:
        pig.uninstall()


async def test_help_works_in_a_dm(game_night):
    async with game_night() as night:
        res = await night.alice.user.slash("help")
        assert answer(res).title == t("help.title")


# ------------------------------------------------ the rules in the project

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "docs" / "rules"


@pytest.mark.parametrize("game", registry.builtin_names())
def test_every_game_has_its_complete_rules_in_the_project(game):
    """docs/rules/<game>.md carries the rules (not only the engine's notes):
    its players, every house option with its default, its notation; the
    index links it; /help's player counts and the page's agree."""
    page = (RULES / f"{game}.md").read_text(encoding="utf-8")
    assert "## The rules" in page and "## How the engine plays them" in page
    for section in ("### House options", "### Notation"):
        assert section in page, section
    spec = registry.spec(game)
    for option in spec.options:
        assert f"`{option.name}`" in page, option.name
    assert f"({game}.md)" in (RULES / "README.md").read_text(encoding="utf-8")
    low, high = spec.min_players, spec.max_players
    index_row = next(
        line for line in (RULES / "README.md").read_text(encoding="utf-8").splitlines()
        if f"({game}.md)" in line
    )
    assert (f"| {low}–{high} |" if low != high else f"| {low} |") in index_row


def test_the_notation_page_names_every_move_word():
    page = (RULES / "notation.md").read_text(encoding="utf-8")
    for word in ("roll", "take", "stop", "announce", "reveal", "flip", "keep", "score",
                 "play", "marry", "exchange", "draw", "close", "declare", "pass", "forfeit"):
        assert f"`{word}" in page, word
    for key in ("game", "options", "players", "dealer", "dice", "decks", "moves", "mishaps"):
        assert f"| `{key}` |" in page, key


def test_no_project_file_points_outside_the_project():
    """The project carries its own rules: no file refers to the specs outside
    it (../shared)."""
    skip = {".git", ".venv", "chabudai.egg-info", "__pycache__", ".pytest_cache", ".ruff_cache",
            ".mypy_cache", "data"}
    found = []
    for path in ROOT.rglob("*"):
        if skip & set(path.relative_to(ROOT).parts) or not path.is_file():
            continue
        if path.suffix not in {".md", ".py", ".toml", ".json", ".yaml", ".yml", ".txt", ""}:
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue
        if path == Path(__file__).resolve():
            continue  # this test names what it looks for
        if "../shared" in text or "shared/RULES" in text or "shared/seeds" in text:
            found.append(str(path.relative_to(ROOT)))
    assert found == [], found


def tree_paths(bot) -> list[str]:
    """Every slash command of the bot's tree, walked here on its own."""
    out = []
    for item in bot.tree.get_commands():
        subs = getattr(item, "commands", None)
        if subs is None:
            out.append(item.name)
        else:
            out.extend(f"{item.name} {sub.name}" for sub in subs)
    return out


@pytest.mark.parametrize("lang", ["en", "ja"])
async def test_help_lists_every_command_of_the_tree(game_night, lang):
    """/help lists every command the bot has (it left out /history, /review,
    /leaderboard, /stats and /game end), each by its name in the reader's
    language — the name the replies use — with its description; English
    names are Discord's clickable mentions."""
    async with game_night(locales={"alice": lang}, managers=["alice"]) as night:  # sees all
        embed = answer(await night.command(night.alice, "help"))
        headings = (t("help.commands", lang), t("help.commands_organisers", lang), "\u200b")
        listed = "\n".join(f.value for f in embed.fields if f.name in headings)
        paths = tree_paths(night.bot)
        assert {"history", "review", "leaderboard", "stats", "game end"} <= set(paths)
        assert len(paths) >= 15
        for path in paths:
            assert command(path, lang) in listed, (path, listed)
            desc = t("cmd." + path.replace(" ", ".") + ".desc", lang)
            assert says(listed, "help.command_line", lang, command=command(path, lang), what=desc)
        assert all(len(f.value) <= 1024 for f in embed.fields)
        if lang == "ja":  # the names /help teaches are Japanese, and so are the replies'
            assert f"/{t('cmd.play.name', 'ja')}`" in listed and "/play`" not in listed
            res = await night.command(night.alice, "game status")  # no table here
            text = res.response.content
            assert command("play", "ja") in text and "/play" not in text, text
        else:  # a clickable mention once the commands are synced
            assert f"</game end:{COMMAND_IDS['game']}>" in listed, listed


@pytest.mark.parametrize("lang", ["en", "ja"])
async def test_organiser_commands_are_listed_to_organisers_only(game_night, lang):
    """/help offered /tournament kick, repair, end and /config to every
    member, who cannot run them. A member reads that organisers have them;
    a member with Manage Server, or with the server's tournament role, gets
    them under their own heading."""
    async with game_night(locales={"alice": lang, "bob": lang}, managers=["alice"]) as night:
        organiser_only = ["tournament kick", "tournament repair", "tournament end",
                          "tournament create", "config clock", "game list"]  # fmt: skip
        everyone = ["tournament standings", "tournament drop", "play", "game end", "review"]

        def listed(embed):
            return "\n".join(f"{f.name}\n{f.value}" for f in embed.fields)

        member = listed(answer(await night.command(night.bob, "help")))
        for path in organiser_only:
            assert command(path, lang) not in member, (path, member)
        for path in everyone:
            assert command(path, lang) in member, (path, member)
        assert says(member, "help.organisers_only", lang)
        manager = listed(answer(await night.command(night.alice, "help")))
        assert t("help.commands_organisers", lang) in manager
        for path in organiser_only + everyone:
            assert command(path, lang) in manager, (path, manager)
        # the tournament role's members are organisers too
        role = night.guild.create_role("organisers")
        await night.settings(tournament_role=role.id)
        carol = night.guild.add_member(night.env.create_user("carol"), roles=[role])
        res = await carol.slash(night.channel, "help")
        assert t("help.commands_organisers", "en") in listed(answer(res))
        assert command("tournament repair", "en") in listed(answer(res))
