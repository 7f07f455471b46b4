"""The shape of the code, enforced: no runtime import cycles in bot/ or
games/, imports pointing down the layers of bot/, and no game named in bot/
outside that game's own modules.

Every import counts — at module level or inside a function — except those
under ``if TYPE_CHECKING:`` (type hints only, never run); those count too
for the import graph as a type checker sees it, which has no loop either:
nothing below the app imports the app's modules even for a type hint (it
types against :class:`bot.host.Host`).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from games import registry

ROOT = Path(__file__).resolve().parents[1]

# bot/'s layers, bottom first. A module may import its own layer and the
# layers below it, never above. Every module of bot/ must be listed.
LAYERS: list[tuple[str, tuple[str, ...]]] = [
    # storage (the database core, each concern's rows and repository, the
    # store that holds them), words, small shared helpers
    (
        "base",
        (
            "bot",
            "bot.db",
            "bot.db.*",
            "bot.tables",
            "bot.tables.rows",
            "bot.tables.repo",
            "bot.tables.kept",
            "bot.results",
            "bot.results.rows",
            "bot.results.repo",
            "bot.reviews",
            "bot.reviews.repo",
            "bot.settings",
            "bot.settings.repo",
            "bot.tournament.rows",
            "bot.tournament.repo",
            "bot.storage",
            "bot.i18n",
            "bot.i18n.translator",
            "bot.ratings",
            "bot.seasons",
            "bot.deploy",
            "bot.caches",
        ),
    ),
    ("helpers", ("bot.model", "bot.turns", "bot.tournament", "bot.tournament.pairing",
                 "bot.tournament.rules", "bot.tournament.swiss", "bot.tournament.roundrobin",
                 "bot.tournament.knockout", "bot.tournament.tables", "bot.tournament.standings")),
    # drawing: pictures, then what a message holds, then each game's plugin,
    # then whole messages — never the service, clocks or computer players
    ("render", ("bot.render", "bot.render.*")),
    ("controls", ("bot.ui", "bot.ui.controls", "bot.ui.components")),
    ("plugins", ("bot.games", "bot.games.*", "bot.ui.result_words")),
    ("pictures", ("bot.pictures",)),
    ("messages", ("bot.ui.present", "bot.ui.secrets", "bot.ui.replay")),
    # the one commit path and what it announces
    ("events", ("bot.events", "bot.results.build")),
    # the service (the one write path), the lobby and the presses on it, and
    # what the followers and commands see of the bot (bot.host: types only)
    ("service", ("bot.tables.service", "bot.lobby", "bot.presses", "bot.game_commands",
                 "bot.host", "bot.tournament.service")),
    ("ai", ("bot.ai", "bot.ai_worker")),
    # what reacts to a commit (they import the service, never the reverse)
    ("followers", ("bot.followers", "bot.followers.*")),
    ("commands", ("bot.commands", "bot.commands.*")),
    (
        "app",
        (
            "bot.app",
            "bot.ops",
            "bot.__main__",
            "bot.sandbox",
            "bot.sandbox.*",
            "bot.activity",  # the Activity's server (docs/activity.md)
            "bot.activity.*",
        ),
    ),
]


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def modules(*packages: str) -> dict[str, Path]:
    out = {}
    for package in packages:
        for path in sorted((ROOT / package).rglob("*.py")):
            out[module_name(path)] = path
    return out


def runtime_imports(
    path: Path, mod: str, known: set[str], *, type_hints: bool = False
) -> set[str]:
    """The modules of ``known`` that ``mod`` imports when it runs (with
    ``type_hints``, those under ``if TYPE_CHECKING:`` as well)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip: set[int] = set()
    for node in ast.walk(tree if not type_hints else ast.Module(body=[], type_ignores=[])):
        if isinstance(node, ast.If):
            test = node.test
            name = (
                test.id
                if isinstance(test, ast.Name)
                else test.attr
                if isinstance(test, ast.Attribute)
                else ""
            )
            if name == "TYPE_CHECKING":
                for sub in node.body:
                    skip.update(id(n) for n in ast.walk(sub))
    package = mod if path.name == "__init__.py" else mod.rsplit(".", 1)[0]
    out: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")
                up = up[: len(up) - (node.level - 1)]
                base = ".".join(up + ([base] if base else []))
            subs = [f"{base}.{a.name}" for a in node.names]
            names = [n for n in subs if n in known] or [base]
        else:
            continue
        for name in names:
            while name and name not in known:
                name = name.rsplit(".", 1)[0] if "." in name else ""
            if name and name != mod:
                out.add(name)
    return out


def graph(*packages: str, type_hints: bool = False) -> dict[str, set[str]]:
    found = modules(*packages)
    known = set(found)
    return {
        mod: runtime_imports(path, mod, known, type_hints=type_hints)
        for mod, path in found.items()
    }


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected sets of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in edges[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                out.append(sorted(group))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


def layer_of(mod: str) -> int:
    for number, (_name, patterns) in enumerate(LAYERS):
        for pattern in patterns:
            if mod == pattern or (pattern.endswith(".*") and mod.startswith(pattern[:-1])):
                return number
    raise LookupError(mod)


def test_no_runtime_import_cycles() -> None:
    assert cycles(graph("bot", "games")) == []


def test_the_cycle_finder_finds_a_cycle_inside_a_function(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("import b\n")
    (tmp_path / "b.py").write_text("def f():\n    import a\n")
    (tmp_path / "c.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import a\n"
    )
    known = {"a", "b", "c"}
    edges = {m: runtime_imports(tmp_path / f"{m}.py", m, known) for m in known}
    assert edges["c"] == set()  # type hints only
    assert cycles(edges) == [["a", "b"]]


def test_every_bot_module_has_a_layer() -> None:
    unplaced = []
    for mod in modules("bot"):
        try:
            layer_of(mod)
        except LookupError:
            unplaced.append(mod)
    assert not unplaced, f"add these modules to LAYERS: {unplaced}"


APP = ("bot.app", "bot.ops", "bot.__main__", "bot.sandbox", "bot.activity")


def _below_app(mod: str) -> bool:
    """A module of bot/ below the app layer (one not placed yet counts:
    test_every_bot_module_has_a_layer says so)."""
    try:
        return layer_of(mod) < layer_of("bot.app")
    except LookupError:
        return mod not in APP


def test_nothing_below_the_app_imports_it_even_for_type_hints() -> None:
    """Followers, commands and components type against bot.host.Host (and
    bot.ui.components.ComponentHost), never bot.app's class."""
    found = [
        f"{mod} imports {dep}"
        for mod, deps in graph("bot", type_hints=True).items()
        if _below_app(mod)
        for dep in sorted(deps)
        if not _below_app(dep)
    ]
    assert not found, found


def test_no_import_cycle_even_for_type_hints() -> None:
    """The import graph as a type checker sees it has no loop either, the
    app's modules included (bot.ops types the bot by a Protocol)."""
    assert cycles(graph("bot", "games", type_hints=True)) == []


def test_the_type_hint_graph_counts_type_checking_imports(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("import b\n")
    (tmp_path / "b.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import a\n"
    )
    known = {"a", "b"}
    hints = {m: runtime_imports(tmp_path / f"{m}.py", m, known, type_hints=True) for m in known}
    assert cycles(hints) == [["a", "b"]]


def test_imports_point_down_the_layers() -> None:
    edges = graph("bot")
    upward = [
        f"{mod} ({LAYERS[layer_of(mod)][0]}) imports {dep} ({LAYERS[layer_of(dep)][0]})"
        for mod, deps in edges.items()
        for dep in sorted(deps)
        if layer_of(dep) > layer_of(mod)
    ]
    assert not upward, upward


def test_games_never_import_bot() -> None:
    edges = graph("games", "bot")
    assert not [
        (mod, dep)
        for mod, deps in edges.items()
        if mod.startswith("games")
        for dep in deps
        if dep.startswith("bot")
    ]


def _own_modules(game: str) -> set[str]:
    """The modules of bot/ that belong to one game: its plugin and pictures."""
    return {f"bot.games.{game}", f"bot.render.{game}"}


@pytest.mark.parametrize("game", registry.builtin_names())
def test_no_game_is_named_outside_its_own_modules(game: str) -> None:
    """No ``if game == "nine"`` and no dict keyed by a game's name in bot/:
    what differs per game is a fact of its spec or its plugin."""
    named = []
    for mod, path in modules("bot").items():
        if mod in _own_modules(game):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        # a key read from a record's data (``data["nine"]``: Sixty-Six's
        # trump nine) is not a game's name
        keys = {id(n.slice) for n in ast.walk(tree) if isinstance(n, ast.Subscript)}
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and node.value == game and id(node) not in keys:
                named.append(f"{mod}:{node.lineno}")
    assert not named, named


# --------------------------------------------------------------- storage
#
# Each concern owns its storage (docs/bot.md, "Storage"): SQL is written only
# in the database core (bot/db/) and in the concerns' repositories (a
# ``repo.py`` beside the code of its concern); a repository is imported by
# its own concern's modules and by the store that holds them all
# (bot.storage), never across concerns.

SQL = re.compile(
    r"\b(SELECT\s+[\w*(]|INSERT\s+INTO\s|UPDATE\s+\w+\s+SET\s|DELETE\s+FROM\s|CREATE\s+(UNIQUE\s+)?"
    r"(TABLE|INDEX)\s|ALTER\s+TABLE\s|ON\s+CONFLICT\b)"
)


def is_storage(mod: str) -> bool:
    return mod == "bot.db" or mod.startswith("bot.db.") or mod.endswith(".repo")


def sql_outside_storage(paths: dict[str, Path]) -> list[str]:
    """Modules outside the core and the repositories with SQL in a string
    (docstrings and comments aside: a docstring may name a statement)."""
    found = []
    for mod, path in paths.items():
        if is_storage(mod):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docs = {
            id(node.body[0].value)
            for node in ast.walk(tree)
            if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
            and node.body
            and isinstance(node.body[0], ast.Expr)
            and isinstance(node.body[0].value, ast.Constant)
        }
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and id(node) not in docs
                and SQL.search(node.value)
            ):
                found.append(f"{mod}:{node.lineno}: {node.value[:60]!r}")
    return found


def concern_of(mod: str) -> str:
    """``bot.tournament.repo`` → ``bot.tournament``."""
    return mod.rsplit(".", 1)[0]


def repositories_imported_across(edges: dict[str, set[str]]) -> list[str]:
    return [
        f"{mod} imports {dep}"
        for mod, deps in edges.items()
        for dep in sorted(deps)
        if dep.endswith(".repo")
        and mod != "bot.storage"
        and not mod.startswith(concern_of(dep) + ".")
    ]


def test_sql_is_written_only_in_the_core_and_the_repositories() -> None:
    assert sql_outside_storage(modules("bot")) == []


def test_a_repository_is_imported_only_by_its_concern_and_the_store() -> None:
    assert repositories_imported_across(graph("bot", type_hints=True)) == []


def test_the_storage_rules_find_what_they_forbid(tmp_path: Path) -> None:
    (tmp_path / "bot" / "tables").mkdir(parents=True)
    (tmp_path / "bot" / "results").mkdir(parents=True)
    for mod in ("bot/__init__", "bot/tables/__init__", "bot/results/__init__"):
        (tmp_path / f"{mod}.py").write_text('"""A package."""\n')
    (tmp_path / "bot" / "tables" / "repo.py").write_text('Q = "SELECT id FROM tables"\n')
    (tmp_path / "bot" / "tables" / "service.py").write_text(
        '"""SELECT x in a docstring is words."""\nfrom bot.tables import repo\n'
    )
    (tmp_path / "bot" / "results" / "repo.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from bot.tables.repo import Q\n"
    )
    (tmp_path / "bot" / "results" / "boards.py").write_text(
        'def f(c):\n    return c.fetch("SELECT user_id, MAX(points) FROM result_players")\n'
    )
    paths = {module_name_in(tmp_path, p): p for p in sorted(tmp_path.rglob("*.py"))}
    known = set(paths)
    edges = {m: runtime_imports(p, m, known, type_hints=True) for m, p in paths.items()}
    assert [f.split(":")[0] for f in sql_outside_storage(paths)] == ["bot.results.boards"]
    assert repositories_imported_across(edges) == ["bot.results.repo imports bot.tables.repo"]


def module_name_in(root: Path, path: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
