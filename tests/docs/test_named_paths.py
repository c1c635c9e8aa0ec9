"""Every repository path the project's own text names exists (issue 32).

Read: the docstrings and comments of every Python file under `src/`, the games' rules pages
(`src/boardlab/games/**/README.md`), the pages under `docs/`, `benchmarks/*.md` and
`README.md`, code blocks included.

What counts as a path:
- a token of names joined by `/` that ends in a file extension BoardLab uses (`docs/x.md`,
  `src/boardlab/core/game.py`, `games/jungle/rules.py`, `../pieces.py`), or that starts
  with a top-level folder and ends in `/` (`tests/games/`). It must exist relative to the
  repository root, to `src/` or `src/boardlab/`, or to the folder of the file that names it
  or any folder above that one; a token with `*` must match at least one file;
- a bare file name of a source kind (`.py`, `.md`, `.ipynb`, `.toml`, `.yml`), such as
  `kernels.py` "beside this file": some file of the repository must have that name. Bare
  names of outputs (`out.json`, `boardlab.sqlite`, `bench.json`) are what a command writes,
  not references, and are not checked;
- an anchor on a Markdown page (`docs/design.md#speed-targets`) must be one of that page's
  headings, so the sections that docstrings and rules pages cite stay where they point.

Not paths: URLs; tokens with a folder in capitals (`DIR/weights.pt`, `A/snap-3000.pt`:
placeholders), with `...`, or inside a diff header line (`--- a/src/...`); and the examples
in ALLOWED.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
import unicodedata
from collections.abc import Iterator
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "src" / "boardlab"

EXTENSIONS = ("py", "md", "txt", "toml", "yml", "yaml", "json", "csv", "ipynb", "pt", "npz",
              "png", "svg", "js", "html", "css", "tmpl", "cfg", "sh", "sqlite", "ckpt")
"""File extensions that make a token a file path."""
SOURCE_SUFFIXES = {".py", ".md", ".ipynb", ".toml", ".yml", ".yaml"}
"""A bare file name (no `/`) is checked only for these: the rest are a command's outputs."""
TOP_FOLDERS = ("src", "tests", "docs", "benchmarks", "examples", "experiments")
"""Top-level folders a folder reference (`tests/games/`) may start with."""

_START = r"(?<![\w./:~$@*…-])"  # a path starts a token: not in a word, URL, $VAR/ or …/
TOKEN = re.compile(
    _START + r"((?:\.\.?/)*[\w.*-]+(?:/[\w.*-]+)*\.(?:" + "|".join(EXTENSIONS) + r"))"
    r"(#[\w-]+)?(?![\w/-])"
    "|" + _START + r"((?:" + "|".join(TOP_FOLDERS) + r")/(?:[\w.-]+/)*)(?![\w*-])")
URL = re.compile(r"[a-z][\w+.-]*://\S+", re.IGNORECASE)
DIFF_HEADER = re.compile(r"^\s*(---|\+\+\+) [ab]/")
PLACEHOLDER_FOLDER = re.compile(r"(^|/)[A-Z][A-Z0-9_]*/")

ALLOWED = {
    "path/to/": "the shape of a user's own agent file (`path/to/mybot.py:MyBot`)",
    "smartbot.py": "a file the tutorial's reader writes (docs/tutorial.md)",
    "broken.py": "a file the tutorial's reader writes (docs/tutorial.md)",
    "measure.py": "a script printed on the page that names it (Reversi rules page)",
    "measure_perft.py": "a script printed on the Xiangqi rules page",
    "mcts_speed.py": "a script printed on the page that names it (docs/agents/mcts.md)",
    "results.md": "the report `boardlab arena --report DIR` writes",
    "src/boardlab_my_game/": "the package `boardlab new-game` writes (docs/new-game.md)",
    "tests/test_contract.py": "the test `boardlab new-game` writes in the new package",
    "Sequence/sequence_model.py": "a file of the COMP90054 framework's repositories, not ours",
    "./new.sh": "a script the reader writes to serve a checkout as an engine (docs/interop.md)",
    "./old.sh": "a script the reader writes to serve a checkout as an engine (docs/interop.md)",
}
"""Tokens (or the start of tokens) that are examples, not references to this repository."""


# --- what the project's text says ------------------------------------------------------------

def python_text(path: Path) -> Iterator[tuple[int, str]]:
    """(line number, line) of every docstring (any statement that is a lone string, so
    attribute docstrings too) and every comment of a Python file."""
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines()
    for node in ast.walk(ast.parse(text)):
        if (isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
                and isinstance(node.value.value, str) and node.end_lineno is not None):
            for number in range(node.lineno, node.end_lineno + 1):
                yield number, lines[number - 1]
    for token in tokenize.generate_tokens(io.StringIO(text).readline):
        if token.type == tokenize.COMMENT:
            yield token.start[0], token.string


def documents() -> list[Path]:
    """Every file whose text is read: Python under src/, then the Markdown pages."""
    pages = (sorted(PACKAGE.glob("games/**/README.md")) + sorted((ROOT / "docs").rglob("*.md"))
             + sorted((ROOT / "benchmarks").glob("*.md")) + [ROOT / "README.md"])
    return sorted((ROOT / "src").rglob("*.py")) + [page for page in pages if page.is_file()]


def text_of(path: Path) -> Iterator[tuple[int, str]]:
    if path.suffix == ".py":
        yield from python_text(path)
    else:
        yield from enumerate(path.read_text(encoding="utf-8").splitlines(), 1)


def paths_in(line: str) -> list[tuple[str, str]]:
    """(path, anchor or "") for every path token of one line that is not an example."""
    if DIFF_HEADER.match(line):
        return []
    found = []
    for match in TOKEN.finditer(URL.sub(" ", line)):
        path, anchor = (match.group(1), match.group(2) or "") if match.group(1) else (
            match.group(3), "")
        if ("..." in path or PLACEHOLDER_FOLDER.search(path)
                or any(path.startswith(allowed) for allowed in ALLOWED)):
            continue
        if "/" not in path and ("*" in path or Path(path).suffix not in SOURCE_SUFFIXES):
            continue
        found.append((path, anchor.lstrip("#")))
    return found


# --- does it exist ---------------------------------------------------------------------------

@cache
def names_in_repository() -> frozenset[str]:
    """The file names of the working tree, leaving out hidden folders, caches and builds."""
    names = set()
    for path in ROOT.rglob("*"):
        parts = path.relative_to(ROOT).parts
        if any(part.startswith(".") or part == "__pycache__" or part.endswith(".egg-info")
               for part in parts[:-1]):
            continue
        if path.is_file():
            names.add(path.name)
    return frozenset(names)


def bases(document: Path) -> list[Path]:
    """Where a path named in `document` may start: the root, src/, src/boardlab/, the
    document's folder and the folders above it."""
    above = [document.parent, *document.parent.parents]
    return [ROOT, ROOT / "src", PACKAGE] + [folder for folder in above
                                            if folder == ROOT or ROOT in folder.parents]


def resolve(document: Path, path: str) -> Path | None:
    """The file or folder `path`, named in `document`, stands for; None if there is none."""
    if "/" not in path:
        return ROOT if path in names_in_repository() else None
    for base in bases(document):
        if "*" in path:
            match = next(iter(sorted(base.glob(path))), None)
            if match is not None:
                return match
        elif (base / path).exists():
            return (base / path).resolve()
    return None


def slug(heading: str) -> str:
    """A heading's anchor as MkDocs writes it (Python-Markdown's `toc` slugify); for headings
    of letters, digits, spaces and simple punctuation GitHub writes the same."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading).replace("`", "")
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    text = re.sub(r"[^\w\s-]", "", text).strip().lower()
    return re.sub(r"[-\s]+", "-", text)


@cache
def anchors_of(page: Path) -> frozenset[str]:
    """The anchors of a Markdown page's headings (outside fenced code blocks)."""
    anchors, fenced = set(), False
    for line in page.read_text(encoding="utf-8").splitlines():
        if line.lstrip().startswith("```"):
            fenced = not fenced
        elif not fenced and re.match(r"#{1,6} ", line):
            anchors.add(slug(line.lstrip("#")))
    return frozenset(anchors)


def broken_paths() -> list[str]:
    """`file:line: message` for every named path that does not exist, or anchor that a page
    does not have."""
    broken = []
    for document in documents():
        where = document.relative_to(ROOT).as_posix()
        for number, line in text_of(document):
            for path, anchor in dict.fromkeys(paths_in(line)):  # each once a line
                target = resolve(document, path)
                if target is None:
                    broken.append(f"{where}:{number}: names `{path}`, which does not exist")
                elif anchor and target.suffix == ".md" and anchor not in anchors_of(target):
                    broken.append(f"{where}:{number}: names `{path}#{anchor}`, but "
                                  f"{target.relative_to(ROOT).as_posix()} has no such heading")
    return broken


# --- the tests -------------------------------------------------------------------------------

def test_every_path_the_docs_and_docstrings_name_exists():
    broken = broken_paths()
    assert broken == [], ("paths that do not exist (fix the reference, or add an example to "
                          "ALLOWED in tests/docs/test_named_paths.py):\n" + "\n".join(broken))


def test_what_counts_as_a_path():
    line = ("see docs/design.md#speed, `games/jungle/rules.py`, ../pieces.py, tests/games/ and "
            "kernels.py; not https://x.org/a/b.md, out.json, path/to/mybot.py, $OUT/r.json, "
            "DIR/weights.pt, .../search/weights.pt or notes/")
    assert paths_in(line) == [("docs/design.md", "speed"), ("games/jungle/rules.py", ""),
                              ("../pieces.py", ""), ("tests/games/", ""), ("kernels.py", "")]
    assert paths_in("+++ b/src/boardlab/arena/store.py") == []


def test_a_missing_file_or_heading_is_found(tmp_path):
    page = PACKAGE / "games" / "reversi" / "README.md"
    assert resolve(page, "../alphabeta.py") == PACKAGE / "games" / "alphabeta.py"
    assert resolve(page, "core/game.py") == PACKAGE / "core" / "game.py"
    assert resolve(page, "tests/games/*/perft_start.txt") is not None
    assert resolve(page, "tests/games/reversi/test_nothing.py") is None
    assert resolve(page, "no_such_module.py") is None
    (tmp_path / "p.md").write_text("# A page\n## Speed: `bench` (ratios)\n```\n# not one\n```\n")
    assert anchors_of(tmp_path / "p.md") == {"a-page", "speed-bench-ratios"}
