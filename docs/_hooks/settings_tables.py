"""MkDocs hook: agents' parameter tables and games' boards, generated from the code at build time.

A line `<!-- settings: minimax -->` (a registered agent) or
`<!-- settings: examples/mybot.py:MyBot -->` (an agent file, path from the repository root) on a
page becomes a table of every parameter: its name, its default as typed on the command line,
and the doc string written under the field. The table is read from the code on every build,
so a page cannot fall behind its agent; tests/docs/test_agent_pages.py checks the same tables.

A line `<!-- board: jungle -->` becomes the game's start position drawn as SVG by the game's
own renderer (`State.svg()`), the picture a notebook shows.
"""

from __future__ import annotations

import ast
import dataclasses
import importlib.util
import inspect
import logging
import re
import sys
import textwrap
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
MARKER = re.compile(r"^<!-- settings: (\S+) -->[ \t]*$", re.M)
LOG = logging.getLogger("mkdocs.hooks.boardlab")
"""Under mkdocs's logger, so a warning here fails `mkdocs build --strict`."""
BOARD = re.compile(r"^<!-- board: (\S+) -->[ \t]*$", re.M)


def settings_class(spec: str) -> type | None:
    """The Settings dataclass of `spec` (an agent name or `path.py:Class`), None if it has none."""
    from boardlab.core.registry import agent_class

    if ":" in spec:
        path, _, class_name = spec.partition(":")
        loader = importlib.util.spec_from_file_location(f"docs_agent_{class_name}", ROOT / path)
        if loader is None or loader.loader is None:
            raise ValueError(f"settings marker {spec!r}: cannot load {path}")
        module = importlib.util.module_from_spec(loader)
        sys.modules[loader.name] = module  # inspect finds the source through sys.modules
        loader.loader.exec_module(module)
        cls = getattr(module, class_name)
    else:
        cls = agent_class(spec)
    found = getattr(cls, "Settings", None)
    return found if dataclasses.is_dataclass(found) else None


def field_docs(settings: type) -> dict[str, str]:
    """Each field's doc string (the string literal on the line after it), joined into one line."""
    tree = ast.parse(textwrap.dedent(inspect.getsource(settings)))
    body = tree.body[0].body if tree.body and isinstance(tree.body[0], ast.ClassDef) else []
    docs: dict[str, str] = {}
    for node, after in zip(body, body[1:]):
        if (isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name)
                and isinstance(after, ast.Expr) and isinstance(after.value, ast.Constant)
                and isinstance(after.value.value, str)):
            docs[node.target.id] = " ".join(after.value.value.split())
    return docs


def default_text(field: dataclasses.Field) -> str:
    """A default as a user types it after the colon: true/false, numbers, text, (empty)."""
    if field.default is not dataclasses.MISSING:
        value: Any = field.default
    elif field.default_factory is not dataclasses.MISSING:
        value = field.default_factory()
    else:
        return "(required)"
    if isinstance(value, bool):
        return "`true`" if value else "`false`"
    if value == "":
        return "(empty)"
    return f"`{value}`"


def settings_rows(spec: str) -> list[tuple[str, str, str]]:
    """(name, default, meaning) for every parameter of `spec`, in declaration order."""
    settings = settings_class(spec)
    if settings is None:
        return []
    docs = field_docs(settings)
    return [(f.name, default_text(f), docs.get(f.name, ""))
            for f in dataclasses.fields(settings) if f.init]


def settings_table(spec: str) -> str:
    try:
        rows = settings_rows(spec)
    except Exception as error:  # a page naming an agent that is gone: say so, fail strict builds
        LOG.warning("settings marker %r: %s: %s", spec, type(error).__name__, error)
        return f"(The parameters of `{spec}` could not be read: {error}.)"
    if not rows:
        return "This agent takes no parameters."
    lines = ["| parameter | default | meaning |", "|---|---|---|"]
    lines += [f"| `{name}` | {default} | {_cell(doc)} |" for name, default, doc in rows]
    return "\n".join(lines)


def _cell(text: str) -> str:
    """Doc text safe in a Markdown table cell: `|` would end the cell, `<game>` read as HTML."""
    return text.replace("&", "&amp;").replace("|", "&#124;").replace("<", "&lt;").replace(">", "&gt;")


def board_html(game_spec: str) -> str:
    """The start position of `game_spec` as an inline SVG block."""
    from boardlab.core.registry import make_game

    svg = make_game(game_spec).initial_state(seed=0).svg()
    # A blank line would end the raw HTML block and hand the rest to Markdown.
    lines = [line for line in svg.splitlines() if line.strip()]
    return '<div class="boardlab-board" style="max-width: 420px">\n' + "\n".join(lines) + "\n</div>"


def render(markdown: str) -> str:
    """`markdown` with every settings marker replaced by its table, every board by its SVG."""
    markdown = MARKER.sub(lambda match: settings_table(match.group(1)), markdown)
    return BOARD.sub(lambda match: board_html(match.group(1)), markdown)


def on_page_markdown(markdown: str, **kwargs: Any) -> str:
    return render(markdown)
