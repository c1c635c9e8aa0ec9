"""docs/_hooks/settings_tables.py (the MkDocs hook that writes parameter tables and board
pictures), loaded once for the docs tests; it is not a package, so it is loaded by path."""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[2]


def settings_tables_hook() -> ModuleType:
    name = "boardlab_docs_settings_tables"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, ROOT / "docs/_hooks/settings_tables.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]
