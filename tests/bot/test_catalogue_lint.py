"""The catalogues' house style (issue 18, "Japanese" and "English"; the
glossary is docs/i18n.md): the same keys and placeholders in English and
Japanese (plural variants counted as one key), Japanese typography, one
word per idea, and English plurals that agree with their number."""

from __future__ import annotations

import re
import string

import pytest

from bot.i18n import PLURAL_FORMS, catalogue, t

JP = r"[\u3040-\u30ff\u3400-\u9fff\uff01-\uff5e\u3000-\u303f]"  # kana, kanji, full-width, 、。「」
KANA_KANJI = r"[\u3040-\u30ff\u3400-\u9fff]"
PARTICLES = r"(?:から|まで|より|が|を|に|の|は|と|で|へ|も)"

# one word per idea (docs/i18n.md "Glossary"): the variant not chosen → the chosen one
REJECTED = {
    r"(?<!シックス)(?<!ブラフ)ダイス": "サイコロ",
    r"テーブル": "卓",
    r"ゲーム点": "ゲームポイント",
    r"クローズ": "山札を閉じる",
    r"退席": "退出",
    r"(?<!ト)レート(?!ィ)": "レーティング",
    r"表札": "めくり札",
    r"残り以外": "残したサイコロ以外",
    # the bot plays a timed-out turn: it is not shogi (指す)
    r"指[さしすせそ]": "自動で進めます",
    r"番目の手番": "第{n}手番",
    r"開始時(?!の)": "開始局面",
    r"確率の見積もり": "勝率{chance}（試算）",
    r"勝つ確率": "勝率",
    # Bluff's lost games of a match are lives lost, one word everywhere
    r"負け数|[}\d]敗": "失ったライフ",
    # a game of dice or cards is a ゲーム; 対局 is go's and shogi's
    r"対局": "ゲーム",
    # …and so is its end: 終局 is go's and shogi's ("ゲーム終了：bobの勝ち。" beside "— 終局")
    r"終局": "ゲーム終了",
    # Yahtzee's words are /rules' ones: 残す (the Keep buttons) and 欄 (the boxes)
    r"キープ": "残す",
    r"枠": "欄",
}

# (rule, pattern): what no Japanese value may contain
TYPOGRAPHY = [
    ("an ASCII comma in Japanese text (write 、)", rf"{JP}\s*,|,\s*{JP}"),
    ("a space before a particle", rf"(?:\}}|\d|{KANA_KANJI}) +{PARTICLES}(?![\u3040-\u309f])"),
    ("a space between a placeholder and Japanese text", rf"\}} +{KANA_KANJI}|{KANA_KANJI} +\{{"),
    ("a space after 。", r"。 "),
    ("a space before a percent sign", r"[\d}] +[%％]"),
    ("ASCII parentheses around Japanese text (write （）)", rf"\([^()]*{KANA_KANJI}[^()]*\)"),
    ("a space after 、", r"、 "),
    ("a space between Japanese text and code", rf"{KANA_KANJI} +`|` +{KANA_KANJI}"),
    ("a space between bold text and Japanese text", rf"\*\* +{KANA_KANJI}|{KANA_KANJI} +\*\*"),
    ("an ASCII colon (write ：)", r"__COLON__"),
    ("a space after ：", r"： "),
    ("a middle dot · between Japanese items (write 、 or ・)", r"·"),
    ("a slash command written by hand (write {cmd[game end]})", r"__SLASH__"),
]

# Placeholders, code spans, Discord's <…> markup, links and emoji shortcodes
# are not text: the rules below read what is left.
_NOT_TEXT = [
    (re.compile(r"\{[^{}]*\}"), "{}"),
    (re.compile(r"`[^`]*`"), "``"),
    (re.compile(r"<[^<>]*>"), "<>"),
    (re.compile(r"\]\([^()]*\)"), "]"),  # a masked link's address
    (re.compile(r"https?://\S+"), ""),
    (re.compile(r":[a-z0-9_]+:"), ""),
    (re.compile(r"「[\x21-\x7e ]+」"), "「」"),  # what to type, in a command's description
]


def text_only(text: str) -> str:
    """``text`` without its placeholders, code, markup, links and shortcodes."""
    for pattern, repl in _NOT_TEXT:
        text = pattern.sub(repl, text)
    return text


# A slash command in words: ``/play``, ``/{play}``, ``/game end``. Replies
# name commands with ``{cmd[path]}`` (bot.i18n: the command's name in the
# reader's language, clickable where Discord allows).
SLASH = re.compile(r"(?<![\w/:.<})])/(?:[a-z]|\{|[\u3040-\u30ff\u3400-\u9fff])")
# an ASCII colon in Japanese text: write ： (docs/i18n.md), or nothing
COLON = re.compile(r":")


def breaks_rule(rule: str, pattern: str, text: str) -> bool:
    """Whether Japanese ``text`` breaks ``rule``."""
    if pattern == "__COLON__":
        return bool(COLON.search(text_only(text)))
    if pattern == "__SLASH__":
        return bool(SLASH.search(re.sub(r"https?://\S+", "", text)))
    return bool(re.search(pattern, text))


# Latin words a Japanese text may hold (outside names, placeholders and code):
# proper names and units. Everything else is said in Japanese, or shown as
# code (`target=5000`) when the reader must type it.
ENGLISH_ALLOWED = {"CPU", "SHA", "Discord", "English", "chabudai", "ms", "OpenSkill", "BGA"}
LATIN_WORD = re.compile(r"[A-Za-z][A-Za-z'-]*[A-Za-z]")


def english_words(text: str) -> list[str]:
    """The Latin words of 3+ letters in a Japanese ``text`` that are not
    names, placeholders, code or allowed (``ENGLISH_ALLOWED``)."""
    words = LATIN_WORD.findall(text_only(text))
    return [w for w in words if len(w) >= 3 and w not in ENGLISH_ALLOWED]


def base_key(key: str) -> str:
    """``unit.game.one`` → ``unit.game``; other keys stay."""
    head, _, tail = key.rpartition(".")
    return head if tail in PLURAL_FORMS else key


def placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def variants(lang: str) -> dict[str, list[str]]:
    """Each base key → the texts of its variants in ``lang``."""
    out: dict[str, list[str]] = {}
    for key, text in catalogue(lang).items():
        out.setdefault(base_key(key), []).append(text)
    return out


def test_the_same_keys_and_placeholders_in_english_and_japanese():
    en, ja = variants("en"), variants("ja")
    assert set(en) == set(ja), sorted(set(en) ^ set(ja))
    for key in en:
        names = {frozenset(placeholders(v)) for v in en[key] + ja[key]}
        assert len(names) == 1, (key, names)
        assert all(v.strip() for v in en[key] + ja[key]), key


def test_plural_variants_are_complete():
    """English has .one and .other; Japanese (no plural) needs only .other."""
    for lang in ("en", "ja"):
        found: dict[str, set[str]] = {}
        for key in catalogue(lang):
            if base_key(key) != key:
                found.setdefault(base_key(key), set()).add(key.rpartition(".")[2])
        for key, have in found.items():
            assert "other" in have and (lang != "en" or "one" in have), (lang, key, have)
            assert key not in catalogue(lang), (lang, key, "both plain and plural")


def japanese_breaks() -> list[tuple[str, str, str]]:
    """(key, rule, text) for every Japanese value that breaks a rule."""
    out = []
    for key, text in catalogue("ja").items():
        if key.startswith(("cmd.", "rules.example.players")):
            # slash command names follow Discord's rules; the example's two
            # names are split on the space
            rules = [r for r in TYPOGRAPHY if "particle" not in r[0]] if key.startswith(
                "cmd."
            ) else []
        else:
            rules = TYPOGRAPHY
        for rule, pattern in rules:
            if breaks_rule(rule, pattern, text):
                out.append((key, rule, text))
        if ".alt" in key and re.search(r"[()\[\]]", text_only(text)):
            out.append((key, "ASCII brackets in alt text (write （）)", text))
        for pattern, chosen in REJECTED.items():
            if re.search(pattern, text):
                out.append((key, f"glossary: write {chosen}", text))
    return out


def test_japanese_typography_and_glossary():
    breaks = japanese_breaks()
    assert not breaks, "\n".join(f"{k}: {rule}: {text}" for k, rule, text in breaks)


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        ("{player} が振りました。", "a space before a particle"),
        ("21 が宣言されました", "a space before a particle"),
        ("山札 {n} 枚", "a space between a placeholder and Japanese text"),
        ("1枚, 2枚", "an ASCII comma in Japanese text (write 、)"),
        ("終わり。 次へ", "a space after 。"),
        ("確率 44.1 %", "a space before a percent sign"),
        ("自動(現在は英語)", "ASCII parentheses around Japanese text (write （）)"),
        ("手番です。、 次へ", "a space after 、"),
        ("**{player}** が振りました", "a space between bold text and Japanese text"),
        ("精度 **{accuracy}**", "a space between bold text and Japanese text"),
        ("手番: {player}", "an ASCII colon (write ：)"),
        ("{dice} = {total}: 合計", "an ASCII colon (write ：)"),
        ("手番： {player}", "a space after ："),
        ("もう一度 `/play` してください", "a space between Japanese text and code"),
        ("アリス · ボブ", "a middle dot · between Japanese items (write 、 or ・)"),
        ("`/play` してください", "a slash command written by hand (write {cmd[game end]})"),
        ("`/{play}` で卓を立てます", "a slash command written by hand (write {cmd[game end]})"),
        ("/game end に投票", "a slash command written by hand (write {cmd[game end]})"),
    ],
)
def test_the_lint_finds_each_break(text, rule):
    pattern = dict(TYPOGRAPHY)[rule]
    assert breaks_rule(rule, pattern, text), (text, rule)


@pytest.mark.parametrize(
    "text",
    [
        "{player}が振りました。",
        "山札{n}枚",
        "1枚、2枚",
        "確率44.1%",
        "自動（現在は英語）",
        "**{player}**が振りました",
        "手番：{player}",
        "{change:+}点、<t:1700000000:R>まで",
        "{cmd[play]}で始めてください",
        "[卓を見る](https://discord.com/channels/1/2/3)",
    ],
)
def test_the_lint_passes_good_japanese(text):
    assert not [rule for rule, p in TYPOGRAPHY if breaks_rule(rule, p, text)], text


def test_no_english_word_in_japanese():
    """A Japanese message holds no English word outside names, placeholders
    and code (``ENGLISH_ALLOWED``: proper names and units)."""
    found = [
        (k, english_words(v), v)
        for k, v in catalogue("ja").items()
        if not k.startswith("cmd.") or k.endswith(".desc")  # a command's name is Discord's
    ]
    found = [(k, w, v) for k, w, v in found if w]
    assert not found, "\n".join(f"{k}: {w}: {v}" for k, w, v in found)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("{games}戦（1 loss）", ["loss"]),
        ("`/{game} {end}` に投票してください", []),
        ("オプション kinds", ["kinds"]),
        ("オプション`kinds`、CPU（ふつう）、Discordのid", []),
        ("ハッシュ `{hash}`（詳しくは /rules にあります）", ["rules"]),
    ],
)
def test_the_english_word_lint(text, words):
    assert english_words(text) == words


def test_no_slash_command_by_hand_in_english_either():
    """English replies name commands with ``{cmd[path]}`` too: the same
    placeholders in both languages, and a clickable mention where Discord
    has the command's id."""
    found = [
        (k, v)
        for k, v in catalogue("en").items()
        if not k.startswith("cmd.") and SLASH.search(re.sub(r"https?://\S+", "", v))
    ]
    assert not found, "\n".join(f"{k}: {v}" for k, v in found)


def test_the_glossary_is_written_down():
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[2] / "docs" / "i18n.md").read_text(encoding="utf-8")
    for chosen in set(REJECTED.values()):
        assert chosen in doc, chosen


@pytest.mark.parametrize(
    ("key", "args", "one", "many"),
    [
        ("unit.game", {}, "1 game", "2 games"),
        ("unit.win", {}, "1 win", "2 wins"),
        ("unit.life_lost", {}, "1 life lost", "2 lives lost"),
        ("unit.trick", {}, "1 trick", "2 tricks"),
        ("sixdice.btn.roll", {}, "Roll 1 die", "Roll 2 dice"),
    ],
)
def test_english_plurals_agree_with_their_number(key, args, one, many):
    assert t(key, "en", count=1, **args) == one
    assert t(key, "en", count=2, **args) == many
    assert t(key, "ja", count=1, **args) == t(key, "ja", count=2, **args).replace("2", "1")


def test_no_english_text_hedges_its_number():
    """"game point(s)", "1 games": a number's noun agrees, by the plural keys."""
    for key, text in catalogue("en").items():
        assert "(s)" not in text, (key, text)


@pytest.mark.parametrize(
    ("key", "args", "one"),
    [  # read in the golden transcripts: "(1 minutes)", "The last 1 finished game"
        ("tournament.checkin_call", {"id": 3, "when": "soon", "minutes": 1}, "(1 minute)"),
        ("history.title", {"n": 1}, "**Recently finished: 1 game**"),
    ],
)
def test_a_count_of_one_reads_in_the_singular(key, args, one):
    text = t(key, "en", count=1, **args)
    assert one in text, text
    assert t(key, "en", count=2, **{**args, **{k: 2 for k in ("minutes", "n") if k in args}}) != text


def test_english_controls_are_in_english():
    """An English button or menu says it in English ("Hot dice! Roll all 6
    again"); the seeds' Japanese terms stay in the log and /rules."""
    for key, text in catalogue("en").items():
        if ".btn." in key or ".select." in key or ".option." in key or ".move." in key:
            assert not re.search(KANA_KANJI, text), (key, text)
    assert t("sixdice.btn.roll_hot", "en", count=6) == "Hot dice! Roll all 6 again"
    assert "振りきり" in t("sixdice.btn.roll_hot", "ja", count=6)


def test_no_developer_words_in_a_reply():
    """Players, not developers (issue 22): no ``python -m`` and no seed or
    hash in full in any reply; the fair-dice check lives in /rules and
    docs/fair-dice.md."""
    for lang in ("en", "ja"):
        for key, text in catalogue(lang).items():
            assert "python -m" not in text and "python3 " not in text, (lang, key, text)
            assert not re.search(r"[0-9a-f]{32}", text), (lang, key, text)


# Joins in bot/ that build no text a person reads (SQL, logs, the moves
# ledger, command-line output): path:line is not checked, the reason says why.
JOINS_NOT_READ = {
    "bot/__main__.py": "command-line output",
    "bot/deploy.py": "a shard list in the environment",
    "bot/ops.py": "the health check's words for operators",
    "bot/sandbox/process.py": "the sandbox's command line",
    "bot/db/copy.py": "SQL",
    "bot/db/core.py": "SQL",
    "bot/db/postgres.py": "SQL",
    "bot/db/sqlite.py": "SQL",
    "bot/results/repo.py": "SQL",
    "bot/tables/repo.py": "SQL",
    "bot/tournament/repo.py": "SQL",
    "bot/tables/service.py": "the moves ledger (docs: '; '-separated moves)",
}


def test_code_joins_what_people_read_in_their_language():
    """Names and items a person reads are joined with ``list.sep`` /
    ``list.dot`` (、 in Japanese), never a literal ", " or " · " (issue 22:
    「alice, bob」 in a Japanese line)."""
    import ast
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    found = []
    for path in sorted((root / "bot").rglob("*.py")):
        rel = path.relative_to(root).as_posix()
        if rel in JOINS_NOT_READ:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            func = getattr(node, "func", None)
            if (
                isinstance(node, ast.Call)
                and isinstance(func, ast.Attribute)
                and func.attr == "join"
                and isinstance(func.value, ast.Constant)
                and isinstance(func.value.value, str)
                and func.value.value.strip() in (",", "·", ";", "、")
            ):
                found.append(f"{rel}:{node.lineno} {func.value.value!r}.join")
    assert not found, found


# ----------------------------------------------- the tour's rules (issue 33)

# Keys left out of the rules below (none: the review's and the tournaments'
# words, rewritten beside these rules, follow them too)
OTHERS: tuple[str, ...] = ()


def own_keys(lang: str) -> dict[str, str]:
    return {k: v for k, v in catalogue(lang).items() if not k.startswith(OTHERS)}


# a number and its percent sign stay together in English too ("44.1%")
SPACE_PERCENT = re.compile(r"[\d}] +%")


def test_no_space_before_a_percent_sign_in_english():
    found = [(k, v) for k, v in own_keys("en").items() if SPACE_PERCENT.search(v)]
    assert not found, "\n".join(f"{k}: {v}" for k, v in found)


# ー is the long vowel of katakana (ヤッツィー); as a dash it reads as one:
# after anything but katakana, or standing alone between spaces
LONG_VOWEL_AS_DASH = re.compile(r"(?<![\u30a1-\u30fa\u30fc])ー|(?:^|\s)ー(?:\s|$)")


@pytest.mark.parametrize(
    ("text", "bad"),
    [
        ("ヤッツィー — 結果", False),
        ("シックスティー・シックス", False),
        ("結果ー合計", True),
        ("ヤッツィー ー 結果", True),
        ("{game}ー結果", True),
    ],
)
def test_the_dash_lint(text, bad):
    assert bool(LONG_VOWEL_AS_DASH.search(text)) == bad, text


def test_no_long_vowel_mark_as_a_dash_in_japanese():
    found = [(k, v) for k, v in own_keys("ja").items() if LONG_VOWEL_AS_DASH.search(v)]
    assert not found, "\n".join(f"{k}: {v}" for k, v in found)


CLOSING = ("。", "！", "？", "」", "』", "）", "…")


def unfinished_japanese() -> list[tuple[str, str, str]]:
    """(key, English line, Japanese line): an English sentence ends with a
    full stop where its Japanese line does not end with 。 (or another
    closing mark), line by line where both have as many lines."""
    out = []
    ja = own_keys("ja")
    for key, en in own_keys("en").items():
        if key.startswith("cmd.") or key not in ja:
            continue
        en_lines, ja_lines = en.strip().splitlines(), ja[key].strip().splitlines()
        pairs = list(zip(en_lines, ja_lines, strict=False))
        if len(en_lines) != len(ja_lines):
            pairs = [(en_lines[-1], ja_lines[-1])]
        for e, j in pairs:
            sentence = e.rstrip("*").endswith(".") and not e.endswith("\\.")  # "3\\.": a list's number
            if sentence and not j.rstrip("*").endswith(CLOSING):
                out.append((key, e, j))
    return out


def test_a_japanese_sentence_ends_with_a_closing_mark():
    found = unfinished_japanese()
    assert not found, "\n".join(f"{k}: {e} | {j}" for k, e, j in found)


def test_bold_is_bold_in_commonmark_too():
    """``**`` that a CommonMark reader leaves literal (the sandbox's page
    shows 「シードは**🔑 シード**で」 so): every catalogue text, its
    placeholders as plain words, the buttons it names filled in."""
    from markdown_it import MarkdownIt

    md = MarkdownIt()
    found = []
    for lang in ("en", "ja"):
        button = t("result.btn.fair", lang)  # the one button label with an emoji
        for key, text in own_keys(lang).items():
            if "**" not in text:
                continue
            filled_in = {re.sub(r"\{[^{}]*\}", "X", text)}
            if key.startswith(SEED_BUTTON_KEYS):
                filled_in.add(fill_button(text, button))
            for filled in filled_in:
                if "**" in md.render(filled):
                    found.append((lang, key, text))
    assert not found, "\n".join(f"{lang} {k}: {v}" for lang, k, v in found)


# the texts whose {button} is the result's 🔑 Seed (bot/ui/present.py, bot/commands/rules.py)
SEED_BUTTON_KEYS = ("seed.result.", "rules.verify.")


def fill_button(text: str, button: str) -> str:
    """``text`` with ``{button}`` as the 🔑 button and other placeholders as words."""
    return re.sub(r"\{[^{}]*\}", "X", text.replace("{button}", button))


# One spelling per term in English (docs/i18n.md: the seeds' terms stay
# Japanese, glossed once in brackets): never an English stand-in for the term
# nor its romanization outside the gloss.
EN_STAND_INS = {
    r"\bShut!": "上がり (agari)",
    r"(?<!\()\b[Aa]gari\b": "上がり (agari)",
    r"(?<!\()\b[Dd]obon\b": "ドボン (dobon)",
    r"(?<!\()\b[Bb]uta\b": "ブタ (buta)",
    r"(?<!\()\b[Ss]honben\b": "ションベン",
    r"(?<!\()\b[Gg]ucchon\b": "グッチョン",
    r"(?<!\()\bgifts?\b": "御祝儀 (gift)",
    r"御祝儀(?! \(gift\))(?!\*\* \(gift\))": "御祝儀 (gift)",
}


@pytest.mark.parametrize(
    ("text", "bad"),
    [
        ("Shut! (agari): ×2", True),
        ("Dobon", True),
        ("1 Dobon", True),
        ("Chance of Dobon with 2 dice", True),
        ("御祝儀 ×1: 5 chips", True),
        ("a gift", True),
        ("上がり (agari): ×2", False),
        ("ドボン (dobon)", False),
        ("1 ドボン", False),
        ("御祝儀 (gift) ×1: 5 chips", False),
    ],
)
def test_the_spelling_lint(text, bad):
    assert bool([p for p in EN_STAND_INS if re.search(p, text)]) == bad, text


def test_one_english_spelling_per_seed_term():
    found = [
        (k, chosen, v)
        for k, v in own_keys("en").items()
        if not k.startswith(("cmd.", "choice."))
        for p, chosen in EN_STAND_INS.items()
        if re.search(p, text_only(v))
    ]
    assert not found, "\n".join(f"{k}: write {c}: {v}" for k, c, v in found)


def test_nine_says_left_only_of_a_player_who_left():
    """"left" is a player's leaving (the table's "(left)", "left the game");
    the cards still up are the face-up sum, never "left"."""
    found = []
    for key, text in own_keys("en").items():
        if "nine" not in key or key.startswith("cmd."):
            continue
        words = text_only(text)
        for m in re.finditer(r"\b[Ll]eft\b", words):
            if not words[m.end() :].startswith(" the game"):
                found.append((key, text))
    assert not found, "\n".join(f"{k}: {v}" for k, v in found)


def test_the_settlement_is_counted_in_chips_everywhere():
    """Nine's and Six Dice's settlement is in chips (``unit.chip``, docs/i18n.md
    "Result units"): /rules and the options say so too, never "units"."""
    found = [(k, v) for k, v in own_keys("en").items() if re.search(r"\bunits?\b", text_only(v))]
    assert not found, "\n".join(f"{k}: {v}" for k, v in found)


# the texts drawn in pictures (bot/render: pic.*; the result's notes under a
# name: result.<game>.*, result.left, result.figure.*): no Markdown there
DRAWN = re.compile(r"pic\.|result\.(?:nine|sixdice|sixtysix|bluff|yahtzee|figure|left)")


def test_no_markdown_in_words_drawn_in_pictures():
    found = [
        (lang, k, v)
        for lang in ("en", "ja")
        for k, v in own_keys(lang).items()
        if DRAWN.match(k) and re.search(r"\*\*|`", v)
    ]
    assert not found, "\n".join(f"{lang} {k}: {v}" for lang, k, v in found)


def test_no_dash_beside_katakana_in_japanese_words_drawn_in_pictures():
    """The font draws — as ー: 「ヤッツィー — 結果」 read 「ヤッツィーー結果」."""
    dash = re.compile(r"[\u30a1-\u30fa\u30fc] ?[—―]|[—―] ?[\u30a1-\u30fa\u30fc]")
    found = [(k, v) for k, v in own_keys("ja").items() if DRAWN.match(k) and dash.search(v)]
    assert not found, "\n".join(f"{k}: {v}" for k, v in found)


# A Japanese line that ends a sentence — a verb's polite end (です, ます,
# ました, ません, でした, ください) — ends with 。 too (or another closing
# mark), whether or not its English line has a full stop ("🎲 aliceの出目
# （8回）は運の良い上位23%でした", 「…それぞれ下のスレッドで対戦します」).
# Not sentences: titles and labels, and the pieces put inside another
# sentence (the key says where).
SENTENCE_END = re.compile(r"(?:です|ます|ました|ません|でした|ください)$")
NOT_A_SENTENCE = {
    "lobby.title": "a heading: **ナイン** — 卓が開きました",
    "lobby.need": "inside the players line's brackets (あと1人で開始できます)",
    "lobby.ready": "inside the players line's brackets (開始できます)",
    "pic.not_seen": "a label drawn in a picture",
    "pic.stats.no_trend": "a label drawn in a picture",
    # the Activity's page (web/activity/): a badge, a panel's heading, a status
    "activity.ui.your_turn": "a badge beside the game's name (あなたの番です)",
    "activity.ui.private": "a panel's heading (あなただけに見えています)",
    "activity.ui.lobby": "a status line where the table would be",
    "activity.ui.rolls_left": "a label beside the dice",
    "activity.ui.closed": "a label beside the trump card",
}


def unended_japanese_sentences() -> list[tuple[str, str]]:
    out = []
    for key, text in own_keys("ja").items():
        if key.startswith("cmd.") or base_key(key) in NOT_A_SENTENCE:
            continue
        for line in text.strip().splitlines():
            if SENTENCE_END.search(line.rstrip("*").rstrip()):
                out.append((key, line))
    return out


def test_every_japanese_sentence_ends_with_a_closing_mark():
    found = unended_japanese_sentences()
    assert not found, "\n".join(f"{k}: {line}" for k, line in found)


@pytest.mark.parametrize(
    ("line", "bad"),
    [
        ("🎲 aliceの出目（8回）は運の良い上位23%でした", True),
        ("まだ参加者はいません。**参加**を押すと参加できます", True),
        ("第1回戦：2試合。それぞれ下のスレッドで対戦します。", False),
        ("ラウンド{round}・1回目の出目", False),
    ],
)
def test_the_sentence_end_lint(line, bad):
    assert bool(SENTENCE_END.search(line.rstrip("*").rstrip())) == bad, line


# The words about any player's play (a review lists everyone's mistakes,
# read by each of them and by onlookers) never say "your" or あなた: alice
# read bob's "Round 11, your 2nd roll". The pictures of the presser's own
# mistakes say "You:" (review.caption.moves), and only the presser gets them.
ABOUT_ANY_PLAYER = ("review.at.", "review.mistake", "review.luck.", "review.player", "review.summary")
SECOND_PERSON = re.compile(r"\b(?:[Yy]our?|[Yy]ou're|[Yy]ours)\b|あなた")


def test_words_about_any_player_are_not_in_the_second_person():
    found = [
        (lang, k, v)
        for lang in ("en", "ja")
        for k, v in own_keys(lang).items()
        if k.startswith(ABOUT_ANY_PLAYER) and SECOND_PERSON.search(text_only(v))
    ]
    assert not found, "\n".join(f"{lang} {k}: {v}" for lang, k, v in found)


def test_nine_counts_the_cards_still_up_as_the_face_up_sum():
    """ "carol left the game (45 face up)" (JA 「表向き45」) beside "face-up
    sum 45" everywhere else: one word for one figure."""
    found = [
        (lang, k, v)
        for lang, bad in (("en", r"\} face up"), ("ja", r"表向き\{"))
        for k, v in own_keys(lang).items()
        if "nine" in k and re.search(bad, v)
    ]
    assert not found, "\n".join(f"{lang} {k}: {v}" for lang, k, v in found)
