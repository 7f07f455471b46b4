"""Players, not developers; Japanese as a native speaker writes it (issue 22),
through Discord (SimCord): what a Japanese server's tables, DMs and replies
actually show — lines the code assembles included (joins of names, a status
and its dice, the log) — keeps the catalogue's rules (tests/bot/
test_catalogue_lint.py: no space after 。 or 、, no space between bold text
and Japanese, ： not an ASCII colon, 、 between names, no English word outside
names and code); replies name commands as the reader's language does; a bare
house option teaches the syntax."""

from __future__ import annotations

import re
from typing import Any

import pytest
from simtable import refused, says, taken, walk
from test_catalogue_lint import TYPOGRAPHY, breaks_rule, english_words

from bot.i18n import command, t

# rules that hold for any Japanese text a person reads (the slash rule is the
# catalogue's: a filled-in {cmd[…]} is `/あそぶ`, checked below by name)
RULES = [(rule, p) for rule, p in TYPOGRAPHY if "slash command" not in rule]
KANA = re.compile(r"[\u3040-\u30ff]")
ALT = "\u2063"  # marks a picture's alt text among the texts read (invisible)


def texts_of(stored: Any) -> list[str]:
    """Every text a person reads in one stored message: its content, its
    embeds, its pictures' alt texts and its controls' words."""
    out = [stored.content or ""]
    for e in stored.embeds:
        out += [e.get("title") or "", e.get("description") or ""]
        out += [f.get("name", "") + "\n" + f.get("value", "") for f in e.get("fields") or []]
        out.append((e.get("footer") or {}).get("text") or "")
    out += [ALT + (a.get("description") or "") for a in stored.attachments]
    for c in walk(stored.components):
        out += [c.get("label") or "", c.get("placeholder") or ""]
        out += [o.get("label", "") + " " + (o.get("description") or "") for o in c.get("options") or []]
    return [x for x in out if x.strip()]


class Reader:
    """Everything the bot has shown so far, every message and every version
    of it (a table message is edited: each press's copy is read)."""

    def __init__(self, night: Any) -> None:
        self.night = night
        self.seen: dict[str, str] = {}  # text → where

    def read(self, where: str = "") -> None:
        backend = self.night.env.backend
        for channel_id, messages in backend.messages.items():
            for stored in messages.values():
                if stored.author_id != self.night.bot.user.id:
                    continue
                for text in texts_of(stored):
                    self.seen.setdefault(text, where or str(channel_id))

    def answer(self, res: Any) -> None:
        """An interaction's answers (ephemeral ones too)."""
        for msg in [res.response, *(getattr(res, "followups", None) or [])]:
            if msg is None:
                continue
            text = [msg.content or ""]
            for e in getattr(msg, "embeds", None) or []:
                text += [e.title or "", e.description or ""]
                text += [f"{f.name}\n{f.value}" for f in e.fields]
            for x in text:
                if x.strip():
                    self.seen.setdefault(x, "reply")

    def japanese(self) -> list[str]:
        return [x for x in self.seen if KANA.search(x)]


def problems(text: str, names: list[str]) -> list[str]:
    """What a Japanese ``text`` breaks: the catalogue's typography, an
    English word outside names and code, a command named in English."""
    plain = text  # a name reads as a Japanese word does: "alice, bob" is a list
    for name in sorted(names, key=len, reverse=True):
        plain = re.sub(rf"(?<![A-Za-z]){re.escape(name)}(?![A-Za-z])", "名前", plain)
    found = [rule for rule, p in RULES if breaks_rule(rule, p, plain)]
    words = english_words(plain)
    if words:
        found.append(f"English words {words}")
    if re.search(r"/(?:play|game|rules|help|hint|history|review|stats|leaderboard|config)\b", text):
        found.append("a command named in English")
    if text.startswith(ALT) and re.search(r"[()]", text):
        found.append("ASCII brackets in a picture's alt text (write （）)")
    return found


def names_of(night: Any) -> list[str]:
    out = []
    for member in night.players:
        out += [member.name, getattr(member, "display_name", member.name)]
    return out + ["CPU"]


async def play_through(
    night: Any, reader: Reader, game: str, lang: str = "ja", **kwargs: Any
) -> Any:
    table = await night.table(game, lang=lang, **kwargs)
    reader.read(f"{game} start")

    async def policy(tab: Any, who: Any) -> Any:
        res = await tab.play(by=who, prefer=("m:stop", "m:reveal", "m:roll"))
        reader.read(game)
        reader.answer(res)
        return res

    reader.answer(await table.command(night.alice, "game status"))
    reader.answer(await table.command(night.alice, "hint"))
    await table.play_to_the_end(policy=policy)
    reader.read(f"{game} end")
    return table


@pytest.mark.slow
async def test_a_japanese_game_night_reads_as_japanese(game_night):
    """Five games on a Japanese server with Japanese players, the commands
    around them: every Japanese text shown keeps the rules."""
    async with game_night(
        seeded=True, locales={"alice": "ja", "bob": "ja"}, managers=("alice",)
    ) as night:
        reader = Reader(night)
        await play_through(night, reader, "nine")
        await play_through(night, reader, "sixdice", options="target=1000 start=0")
        await play_through(night, reader, "bluff", options="losses=1")
        await play_through(night, reader, "yahtzee", players=1)
        await play_through(night, reader, "sixtysix", options="target=1")
        for hand in (night.dms(night.alice) + night.dms(night.bob)):
            reader.seen.setdefault(hand.content or "", "dm")
        reader.answer(await night.command(night.alice, "review"))
        for name in ("help", "history", "stats"):
            reader.answer(await night.command(night.alice, name))
        reader.answer(await night.command(night.alice, "leaderboard", game="nine"))
        for game in ("nine", "bluff", "sixtysix", "sixdice", "yahtzee"):
            reader.answer(await night.command(night.alice, "rules", game=game))
        reader.answer(await night.command(night.alice, "game status"))  # no table here
        reader.answer(await night.command(night.alice, "game list"))
        reader.answer(await night.command(night.alice, "config show"))
        names = names_of(night)
        assert len(reader.japanese()) > 50
        bad: dict[tuple[str, str], str] = {}  # (where, rule) → the first line that breaks it
        for text in reader.japanese():
            for line in text.splitlines() if not text.startswith(ALT) else [text]:
                for rule in problems(line, names) if KANA.search(line) else []:
                    bad.setdefault((reader.seen[text].split()[0], rule), line)
        assert not bad, "\n".join(f"[{w}] {rule}: {line}" for (w, rule), line in bad.items())


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("手番です。 次はbobの番", ["a space after 。"]),
        ("**alice** が勝ちました", ["a space between bold text and Japanese text"]),
        ("勝者：alice, bob", ["an ASCII comma in Japanese text (write 、)"]),
        ("aliceの成績：1戦（1 loss）", ["English words ['loss']"]),
        ("卓はありません。`/play` で始めてください", ["a command named in English"]),
        ("手番: alice", ["an ASCII colon (write ：)"]),
        (ALT + "ナイン。aliceの合計 (16)", ["ASCII brackets in a picture's alt text (write （）)"]),
    ],
)
def test_the_reader_finds_todays_breaks(text, found):
    """Lines as a Japanese tour read them before issue 22 (code-built and
    catalogue alike) each break a rule; names (alice, bob) are not English."""
    assert [p for p in problems(text, ["alice", "bob"]) if p in found or p.startswith("English")] == found


async def test_replies_name_commands_in_the_readers_language(game_night):
    """No table here: the answer names /play as the reader's client does
    (`/あそぶ` in Japanese, the name /help teaches), never `/play`."""
    async with game_night(locales={"alice": "ja"}) as night:
        ja = await night.ask(night.alice, "game status")
        en = await night.ask(night.bob, "game status")
        assert says(ja, "error.no_table_here", "ja"), ja
        assert command("play", "ja") in ja and "/play" not in ja, ja
        assert f"/{t('cmd.play.name', 'ja')}" in ja
        assert says(en, "error.no_table_here") and "/play" in en, en
        help_text = "\n".join(
            f.value for f in (await night.command(night.alice, "help")).response.embeds[0].fields
        )
        assert command("play", "ja") in help_text  # /help teaches the same name


@pytest.mark.parametrize("lang", ["en", "ja"])
async def test_a_bare_house_option_teaches_the_syntax(game_night, lang):
    """``options='losses 2'`` answers "write options as name=value, e.g.
    losses=3", not 'option “losses” cannot be “on”'; nothing is opened."""
    async with game_night(locales={"alice": lang}) as night:
        channel = night.guild.create_text_channel("options")
        res = await night.alice.slash(channel, "play", game="bluff", options="losses 2")
        reason = t("rule.option.needs_value", lang, option="losses", example="losses=3")
        assert refused(res, "error.bad_options", lang, reason=reason), res.response.content
        text = res.response.content
        assert "`losses=3`" in text
        assert not says(text, "rule.option.bad_value", lang, option="losses", value="on")
        assert await night.store.tables.live_tables() == []
        # a wrong value is still a wrong value; a flag without one is fine
        res = await night.alice.slash(channel, "play", game="bluff", options="losses=x")
        assert says(res.response.content, "rule.option.bad_value", lang, option="losses", value="x")
        res = await night.alice.slash(channel, "play", game="sixdice", options="four_and_pair_is_nikoniko")
        assert taken(res) or not res.response.ephemeral, res.response.content


@pytest.mark.parametrize("lang", ["en", "ja"])
async def test_game_status_links_the_table_by_name(game_night, lang):
    """/game status shows "[Nine table](…)" (「[ナインの卓](…)」), not a bare URL."""
    async with game_night(seeded=True, locales={"alice": lang}) as night:
        table = await night.table("nine")
        text = await table.ask(night.alice, "game status")
        label = t("link.table", lang, game=t("game.nine", lang))
        assert f"[{label}]({table.link})" in text, text
        assert not re.search(r"(?<!\()https://\S+", text), text  # every URL behind its label


async def test_an_unknown_option_lists_the_known_ones_as_code(game_night):
    """「使えるもの：`kinds`、`target`…」: option names are what to type, shown
    as code and joined with 、 — no bare English word in the Japanese answer."""
    async with game_night(locales={"alice": "ja"}) as night:
        channel = night.guild.create_text_channel("options")
        res = await night.alice.slash(channel, "play", game="sixdice", options="colour=red")
        text = res.response.content
        assert "`kinds`、`" in text or "、`kinds`" in text, text
        assert not problems(text, ["colour", "red"]), (text, problems(text, ["colour", "red"]))


async def test_no_developer_words_at_an_english_table(game_night):
    """An English game night: no ``python -m``, no seed and no whole hash
    on any table, result, DM or ping (the seed only in the 🔑 Seed answer)."""
    from games.core import seed_hash

    async with game_night(seeded=True) as night:
        reader = Reader(night)
        for game in ("nine", "bluff"):
            options = {"options": "losses=1"} if game == "bluff" else {}
            await play_through(night, reader, game, "en", **options)
        (result,) = (await night.store.results.all())[:1]
        seed = result["seed"]
        shown = list(reader.seen)
        assert len(shown) > 20
        for text in shown:
            assert "python -m" not in text and seed not in text, text
            assert seed_hash(seed) not in text, text


def test_a_trump_card_is_labelled_in_each_languages_own_spacing():
    """「10♠（切り札）を出す」, never 「10♠ （切り札）」; "10♠ (trump)" in English."""
    from bot.games import plugin

    the = plugin("sixtysix")
    assert the.card_label("TS", "S", "ja") == "10♠（切り札）"
    assert the.card_label("TS", "S", "en") == "10♠ (trump)"
    assert the.card_label("TS", "H", "ja") == "10♠"
