"""numba's disk cache, kept fresh when a kernel's other files change.

`@njit(cache=True)` saves a kernel's machine code on disk (in NUMBA_CACHE_DIR, or
`__pycache__` beside the file) under a stamp of the one file that defines the kernel, and a
later process loads that code for as long as the file is unchanged. But the code also holds
what the kernel took from other files when it compiled: the numba functions it calls
(games/alphabeta.py's move ordering, a game's kernels.py) and the constants it reads (a game's
rules.py tables, heuristics.py weights, core/alphabeta.py's WIN_VALUE). numba does not notice
an edit there, and would run stale code.

`fresh_cache(__name__)`, called once at the end of a module that defines cached kernels, mixes
into the stamp of each of them a fingerprint of the module's file and of every file of its
top package that it imports, directly or through those (`imported_files`). An edit to any of
them changes the fingerprint; numba then finds the stamp in its index changed, treats the
index as stale and compiles again, once, saving the new code under the new stamp. Nothing is
left to delete by hand; an edit costs one compile of the kernels whose files it touched.
tests/test_kernelcache.py edits a called file and watches the caller recompile.

This sets one attribute of numba's cache object (`dispatcher._cache._cache_file._source_stamp`,
compared with the stamp saved in the index since numba 0.4x; still so in 0.68).
"""

from __future__ import annotations

import ast
import hashlib
import importlib.util
import sys
from collections.abc import Iterable, Iterator
from functools import lru_cache
from pathlib import Path
from typing import Any


def fresh_cache(module_name: str) -> str:
    """Stamps every cached kernel that module `module_name` defines with the fingerprint of
    `imported_files(module_name)`, and returns the fingerprint. Call it at the end of the
    module (`fresh_cache(__name__)`), before any of its kernels first runs."""
    fingerprint = files_fingerprint(imported_files(module_name))
    stamp_kernels(module_name, fingerprint)
    return fingerprint


def stamp_kernels(module_name: str, fingerprint: str) -> None:
    """Makes each cached kernel of the module valid only under `fingerprint`: its stamp is
    numba's own (the hash of its file) and the fingerprint."""
    for kernel in vars(sys.modules[module_name]).values():
        cache: Any = getattr(kernel, "_cache", None)
        cache_file = getattr(cache, "_cache_file", None)  # None: a kernel without cache=True
        if cache_file is None or kernel.py_func.__module__ != module_name:
            continue  # not cached, or imported from another module (stamped there)
        if kernel.overloads:
            raise RuntimeError(f"{module_name}.{kernel.__name__} ran before fresh_cache(): "
                               "call it at the end of the module")
        cache_file._source_stamp = (cache._impl.locator.get_source_stamp(), fingerprint)


def imported_files(module_name: str) -> list[Path]:
    """The file of module `module_name` (imported) and those of the modules of its top package
    (`boardlab`) that it imports at its top level, directly or through them; sorted. Imports
    inside functions or under `if TYPE_CHECKING:` are left out: a kernel reads nothing of
    theirs."""
    top = module_name.partition(".")[0]
    found: dict[str, Path] = {}
    todo = [module_name]
    while todo:
        name = todo.pop()
        path = getattr(sys.modules.get(name), "__file__", None)
        if name in found or path is None:
            continue
        found[name] = Path(path)
        todo += [imported for imported in _imports(name, path)
                 if imported.partition(".")[0] == top]
    return sorted(set(found.values()))


def files_fingerprint(paths: Iterable[Path]) -> str:
    """A hash of the files' contents, in the order given."""
    digest = hashlib.sha256()
    for path in paths:
        digest.update(_file_hash(path, path.stat().st_mtime_ns, path.stat().st_size))
    return digest.hexdigest()


@lru_cache(maxsize=None)
def _file_hash(path: Path, mtime_ns: int, size: int) -> bytes:
    """(mtime and size are part of the memo's key: an edited file is read again.)"""
    return hashlib.sha256(path.read_bytes()).digest()


def _imports(name: str, path: str) -> list[str]:
    """The modules that module `name` (in file `path`) imports at its top level: for
    `from package import x`, `package.x` where that is a module, else `package`."""
    package = name if Path(path).name == "__init__.py" else name.rpartition(".")[0]
    found = []
    for node in _top_level(ast.parse(Path(path).read_text(encoding="utf-8")).body):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = importlib.util.resolve_name("." * node.level + (node.module or ""), package)
            found += [f"{base}.{alias.name}" if f"{base}.{alias.name}" in sys.modules else base
                      for alias in node.names]
    return found


def _top_level(statements: list[ast.stmt]) -> Iterator[ast.stmt]:
    """The statements that run when the module loads: those of its body, and inside its `if`
    and `try` blocks, but not under `if TYPE_CHECKING:`."""
    for statement in statements:
        yield statement
        if isinstance(statement, ast.If):
            if "TYPE_CHECKING" not in ast.unparse(statement.test):
                yield from _top_level(statement.body)
            yield from _top_level(statement.orelse)
        elif isinstance(statement, ast.Try):
            for block in (statement.body, statement.orelse, statement.finalbody,
                          *(handler.body for handler in statement.handlers)):
                yield from _top_level(block)
