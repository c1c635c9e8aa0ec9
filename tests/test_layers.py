"""The layers of docs/design.md#layers hold, read from the source (issue 20): every import of
`src/boardlab`, lazy ones inside functions included, points down

    games -> render -> core <- agents <- learn, arena <- faces (cli, web, interop, bench,
                                                               testing)

with no cycle between the layers, and no file outside `games/` names a game."""

from __future__ import annotations

import ast
import re
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

from boardlab.core.registry import game_names

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "boardlab"

LAYER_OF = {"core": "core", "render": "render", "games": "games", "agents": "agents",
            "learn": "learn", "arena": "arena", "cli": "cli", "web": "web",
            "interop": "interop", "bench": "bench", "templates": "cli", "testing": "testing",
            "__main__": "cli"}
"""First part of a module name below `boardlab` -> its layer; the faces are four layers
(`templates/`, the files `boardlab new-game` writes, belongs to the command line); the
contract kit a game package runs on itself (`testing.py`) is a face too."""
FACES = {"cli", "web", "interop", "bench", "testing"}
BELOW_FACES = {"core", "render", "games", "agents", "learn", "arena"}
MAY_IMPORT = {
    "core": {"core"},                       # core draws and plays nothing, imports no game
    "render": {"core"},                     # the drawing library: game-independent
    "games": {"core", "render"},            # a game may draw with the library
    "agents": {"core"},                     # never a game, never learn
    "learn": {"core", "agents"},
    "arena": {"core", "agents"},
    **dict.fromkeys(FACES, BELOW_FACES | FACES),  # the faces may import anything
}
"""Which layers each layer may import (besides itself). `boardlab/__init__.py` re-exports
core and counts as core."""

@dataclass(frozen=True)
class Import:
    source: str  # the importing module, e.g. boardlab.agents.mcts
    target: str  # the imported module, or the package a name is taken from
    name: str | None  # the name taken with `from target import name`
    line: int
    type_checking: bool  # inside `if TYPE_CHECKING:` (never executed)

    @property
    def where(self) -> str:
        return f"{self.source.replace('.', '/')}.py:{self.line}"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(path: Path) -> list[Import]:
    source = module_name(path)
    package = source if path.name == "__init__.py" else source.rpartition(".")[0]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    guarded = {id(node) for branch in ast.walk(tree) if isinstance(branch, ast.If)
               and "TYPE_CHECKING" in ast.unparse(branch.test)
               for statement in branch.body for node in ast.walk(statement)}
    found = []
    for node in ast.walk(tree):  # every import, at the top or inside a function
        if isinstance(node, ast.Import):
            found += [Import(source, alias.name, None, node.lineno, id(node) in guarded)
                      for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            target = node.module or ""
            if node.level:
                base = package.split(".")[:len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            found += [Import(source, target, alias.name, node.lineno, id(node) in guarded)
                      for alias in node.names]
    return [i for i in found if i.target == "boardlab" or i.target.startswith("boardlab.")]


MODULES = {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}
IMPORTS = [i for path in MODULES.values() for i in imports_of(path)]


def layer(module: str) -> str:
    parts = module.split(".")
    if len(parts) == 1:
        return "core"  # boardlab/__init__.py: the public names of core
    return LAYER_OF.get(parts[1], parts[1])


def imported_module(item: Import) -> str:
    """The module an import loads: `from pkg import sub` loads pkg.sub where it is one."""
    if item.name and f"{item.target}.{item.name}" in MODULES:
        return f"{item.target}.{item.name}"
    return item.target


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one node (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in edges.get(node, ()):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return found


def test_every_subpackage_has_a_layer():
    tops = {module.split(".")[1] for module in MODULES if module.count(".") >= 1}
    assert tops <= set(LAYER_OF), f"give {sorted(tops - set(LAYER_OF))} a layer in LAYER_OF"


def test_the_allowed_layer_graph_has_no_cycle():
    edges = {a: {b for b in allowed if b != a} for a, allowed in MAY_IMPORT.items()}
    below_faces = {a: b - FACES for a, b in edges.items() if a not in FACES}
    assert cycles(below_faces) == []


def test_imports_point_down_the_layers():
    wrong = [f"{i.where}: {layer(i.source)} imports {imported_module(i)} ({layer(i.target)})"
             for i in IMPORTS
             if layer(i.target) != layer(i.source)
             and layer(i.target) not in MAY_IMPORT[layer(i.source)]]
    assert wrong == [], "\n".join(wrong)


def test_core_draws_and_plays_nothing():
    above = {"render", "games", "agents", "learn", "arena"} | FACES
    wrong = [f"{i.where}: {i.target}" for i in IMPORTS
             if layer(i.source) == "core" and layer(i.target) in above]
    assert wrong == [], "\n".join(wrong)


def test_no_import_cycle_between_layers():
    edges: dict[str, set[str]] = defaultdict(set)
    for i in IMPORTS:
        if not i.type_checking:
            edges[layer(i.source)].add(layer(i.target))
    for node in edges:
        edges[node].discard(node)
    assert cycles(edges) == []


def test_no_import_cycle_among_the_faces_modules():
    """The faces call down into each other's commands (cli.py adds `bench`, `uci`...), never
    back up: interop/uci.py once imported interop/cli.py and the other way round. A package's
    `__init__` and its own modules may use each other (that is the package's inside)."""
    def inside(a: str, b: str) -> bool:
        return a.startswith(b + ".") or b.startswith(a + ".")

    edges: dict[str, set[str]] = defaultdict(set)
    for i in IMPORTS:
        target = imported_module(i)
        if (layer(i.source) in FACES and layer(target) in FACES and not i.type_checking
                and target != i.source
                and not inside(i.source, target)):
            edges[i.source].add(target)
    assert cycles(edges) == []


def test_no_module_takes_a_private_name_from_another_package():
    """A helper two agents share is public, in core or in the agents' own module; only a
    game's own modules share private helpers (a game is one package)."""
    def owner(module: str) -> str:
        parts = module.split(".")
        return ".".join(parts[:3]) if layer(module) == "games" else module

    wrong = [f"{i.where}: {i.name} from {i.target}" for i in IMPORTS
             if i.name and i.name.startswith("_") and not i.name.startswith("__")
             and owner(i.source) != owner(i.target)]
    assert wrong == [], "\n".join(wrong)


# --- no file outside games/ names a game ------------------------------------------------------

GAME_WORDS_BESIDES_NAMES = ("othello", "sequence")
"""Words that name a game without being a registered name: OpenSpiel's name for Reversi, and
the English word that is also a game's name (a series of moves is a `series` or a `line`)."""
NOT_READ = ("games", "models")
"""Folders of src/boardlab whose files may name games: the game packages themselves and the
shipped weights (named by game); Python's `__pycache__` folders are not read either."""


def game_words() -> list[str]:
    """Every registered game's name (also written with `_` or nothing for its `-`), and
    GAME_WORDS_BESIDES_NAMES, lower case."""
    words = set(GAME_WORDS_BESIDES_NAMES)
    for name in game_names():
        words |= {name, name.replace("-", "_"), name.replace("-", "")}
    return sorted(word.lower() for word in words)


def text_of(path: Path) -> str | None:
    """The file's text, or None for a binary file (a NUL byte, or not UTF-8)."""
    data = path.read_bytes()
    if b"\0" in data:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def names_of_games_in(root: Path = PACKAGE) -> list[str]:
    """`file:line: text` for every line of every text file under `root` outside NOT_READ that
    contains a game word, case-insensitive, in code, docstrings, comments, help strings and
    the web page alike: what `grep -rni` finds."""
    pattern = re.compile("|".join(map(re.escape, game_words())), re.IGNORECASE)
    found = []
    for path in sorted(root.rglob("*")):
        relative = path.relative_to(root)
        if (not path.is_file() or relative.parts[0] in NOT_READ
                or "__pycache__" in relative.parts):
            continue
        text = text_of(path)
        for number, line in enumerate((text or "").splitlines(), 1):
            if pattern.search(line):
                found.append(f"{relative.as_posix()}:{number}: {line.strip()}")
    return found


def test_no_file_outside_games_names_a_game():
    """Game knowledge lives in the game's package: an example in a docstring or a help string
    is built from the registry (`game_names()`) or written as GAME / NAME:param=value."""
    found = names_of_games_in()
    assert found == [], "name no game outside games/ (see GAME_WORDS_BESIDES_NAMES):\n" + \
        "\n".join(found)


def test_the_game_name_check_reads_every_text_file_but_no_game_package(tmp_path):
    name = game_names()[0]
    files = {
        "agents/probe.py": f'"""Plays {name.upper()}, in prose."""\nfrom typing import Sequence\n',
        "web/static/probe.js": "const x = 1;\n// like OpenSpiel's othello\n",
        "web/static/probe.html": "<p>nothing to see</p>\n",
        "docs.md": "clean\nclean\na sequence of moves\n",
        "notes.txt": f"help: game spec, e.g. {name}:param=1\n",
        f"games/{name}/game.py": f'name = "{name}"\n',
        f"models/{name}-dqn.metrics.csv": f"{name}\n",
        f"agents/__pycache__/probe.{name}.pyc": f"{name}\n",
        "agents/weights.bin": f"\0{name}",
        f"web/games/{name}.md": f"{name}\n",  # only the top folder games/ is a game's
    }
    for relative, text in files.items():
        (tmp_path / relative).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / relative).write_text(text, encoding="utf-8")
    where = [line.partition(": ")[0] for line in names_of_games_in(tmp_path)]
    assert where == ["agents/probe.py:1", "agents/probe.py:2", "docs.md:3", "notes.txt:1",
                     f"web/games/{name}.md:1", "web/static/probe.js:2"], where


# --- one layout for a game package (docs/new-game.md) ---------------------------------------

def test_every_game_of_boardlab_keeps_game_and_state_in_game_py_beside_its_rules_page():
    from boardlab.core.registry import make_game

    wrong = []
    for name in game_names():
        game = make_game(name)
        module = type(game).__module__
        if not module.startswith("boardlab.games."):
            continue  # a game from another distribution lays itself out
        state_module = type(game.initial_state(0)).__module__
        folder = PACKAGE.parent / Path(*module.split(".")[:-1])
        if not module.endswith(".game") or state_module != module:
            wrong.append(f"{name}: Game in {module}, State in {state_module}, not <package>.game")
        if not (folder / "README.md").is_file():
            wrong.append(f"{name}: no rules page {folder / 'README.md'}")
    assert wrong == [], "\n".join(wrong)


PROCESS_SETTINGS = re.compile(r"\b(set_num_threads|set_num_interop_threads|matplotlib\.use)\(")
ENTRY_POINTS = {
    "boardlab.cli": "the `boardlab` command",
    "boardlab.learn.cli": "`boardlab train`",
    "boardlab.learn.actors": "an actor process's main",
    "boardlab.learn.az_selfplay": "a self-play worker process's setup",
}
"""Modules that own a process (a command, or the main of a worker process they start), and so
may set what holds for the whole process; `bench/` measures thread counts on purpose."""
SCOPED = {
    "boardlab.core.weights": "`one_torch_thread`: a move's forwards on one thread, the "
                             "caller's setting restored when the move is over",
}
"""Modules that change a process setting for one block only and restore it after."""


def test_process_wide_settings_are_set_only_by_entry_points():
    found = [f"{name}: {line.strip()}" for name, path in MODULES.items()
             if name not in ENTRY_POINTS and name not in SCOPED
             and not name.startswith("boardlab.bench")
             for line in path.read_text(encoding="utf-8").splitlines()
             if PROCESS_SETTINGS.search(line) and not line.lstrip().startswith("#")]
    assert not found, found
