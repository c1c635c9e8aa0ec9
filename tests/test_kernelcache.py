"""numba's disk cache stays fresh when a file a cached kernel calls into changes
(core/kernelcache.py): the kernel's stamp carries a fingerprint of the files it imports, so a
changed fingerprint makes numba ignore the saved index and compile again, and an unchanged
one loads the saved code."""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
from pathlib import Path

from boardlab.core.kernelcache import files_fingerprint, imported_files

SRC = Path(__file__).resolve().parents[1] / "src"

FILES = {
    "__init__.py": "",
    "callee.py": """\
from numba import njit

BONUS = {bonus}


@njit(cache=True)
def bonus():
    return BONUS
""",
    "stamped.py": """\
from numba import njit

from boardlab.core.kernelcache import fresh_cache

from .callee import bonus


@njit(cache=True)
def total(x):
    return x + bonus()


fresh_cache(__name__)
""",
    "plain.py": """\
from numba import njit

from .callee import bonus


@njit(cache=True)
def total(x):  # the same kernel, as numba alone caches it
    return x + bonus()
""",
}
"""A package `probe`: two copies of a cached kernel calling a cached kernel of another file,
one stamped by fresh_cache."""
RUN = """\
import json, sys
sys.path.insert(0, sys.argv[1])
from probe import plain, stamped
for module in (stamped, plain):
    kernel = module.total
    print(json.dumps([module.__name__.split(".")[-1], kernel(1),
                      sum(kernel.stats.cache_hits.values()),
                      sum(kernel.stats.cache_misses.values())]))
"""


def write_probe(root: Path, bonus: int) -> None:
    (root / "probe").mkdir(exist_ok=True)
    for name, text in FILES.items():
        (root / "probe" / name).write_text(text.format(bonus=bonus))


def run(root: Path) -> dict[str, tuple[int, int, int]]:
    """Each copy's (total(1), cache hits, cache misses), in a fresh process."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(root / "cache"),
           "PYTHONPATH": os.pathsep.join([str(SRC), os.environ.get("PYTHONPATH", "")])}
    out = subprocess.run([sys.executable, "-c", RUN, str(root)], env=env, check=True,
                         capture_output=True, text=True, timeout=300).stdout
    return {name: (value, hits, misses)
            for name, value, hits, misses in map(json.loads, out.splitlines())}


def test_an_edit_to_a_called_file_recompiles_a_stamped_kernel_once(tmp_path):
    write_probe(tmp_path, bonus=1)
    assert run(tmp_path) == {"stamped": (2, 0, 1), "plain": (2, 0, 1)}  # compiled, saved
    assert run(tmp_path) == {"stamped": (2, 1, 0), "plain": (2, 1, 0)}  # same files: loaded

    write_probe(tmp_path, bonus=5)  # an edit to callee.py only, not to the kernels' files
    edited = run(tmp_path)
    assert edited["stamped"] == (6, 0, 1)  # another fingerprint: the index is stale, compiled
    # numba alone loads the stale code (should this fail, numba now notices called files
    # itself, and core/kernelcache.py may go)
    assert edited["plain"] == (2, 1, 0)
    assert run(tmp_path)["stamped"] == (6, 1, 0)  # the same fingerprint again: loaded


def test_the_fingerprint_covers_the_files_a_search_reads():
    module = "boardlab.games.xiangqi.search"
    importlib.import_module(module)
    names = {path.relative_to(SRC / "boardlab").as_posix() for path in imported_files(module)}
    assert {"games/xiangqi/search.py", "games/xiangqi/kernels.py", "games/xiangqi/rules.py",
            "games/xiangqi/heuristics.py", "games/alphabeta.py", "core/alphabeta.py",
            "core/kernelcache.py"} <= names
    assert not any(name.startswith(("agents/", "learn/", "web/")) for name in names)


def test_every_cached_kernel_of_the_games_is_stamped_with_its_files():
    """Every module of games/ with cached kernels ends with `fresh_cache(__name__)`."""
    unstamped = []
    for path in sorted((SRC / "boardlab" / "games").rglob("*.py")):
        if "cache=True" not in path.read_text(encoding="utf-8"):
            continue
        name = ".".join(path.relative_to(SRC).with_suffix("").parts)
        module = importlib.import_module(name)
        fingerprint = files_fingerprint(imported_files(name))
        for value in vars(module).values():
            cache_file = getattr(getattr(value, "_cache", None), "_cache_file", None)
            if cache_file is not None and value.py_func.__module__ == name:
                stamp = cache_file._source_stamp
                if not (isinstance(stamp, tuple) and stamp[1:] == (fingerprint,)):
                    unstamped.append(f"{name}.{value.__name__}")
    assert unstamped == [], unstamped
