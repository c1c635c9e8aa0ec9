"""Names and spec strings -> games and agents.

Games and agents are found through the entry-point groups `boardlab.games` and
`boardlab.agents`, so `core` imports no game and another package can add either. A user's own
agent needs no registration at all: `path/to/mybot.py:MyBot` or `package.module:MyBot`,
parameters after a second colon (`mybot.py:MyBot:depth=4`).
"""

from __future__ import annotations

import dataclasses
import importlib
import importlib.util
import sys
import types
import typing
from functools import lru_cache
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

from .agent import Agent
from .game import Game, ParseError

GAME_GROUP = "boardlab.games"
AGENT_GROUP = "boardlab.agents"


@lru_cache(maxsize=None)
def _entry_points(group: str) -> dict[str, Any]:
    return {ep.name: ep for ep in entry_points(group=group)}


def game_names() -> list[str]:
    return sorted(_entry_points(GAME_GROUP))


def agent_names() -> list[str]:
    return sorted(_entry_points(AGENT_GROUP))


def game_class(name: str) -> type[Game]:
    found = _entry_points(GAME_GROUP).get(name)
    if found is None:
        raise ParseError(f"unknown game {name!r}; games: {', '.join(game_names()) or 'none'}"
                         + ("" if game_names() else " (is boardlab installed? pip install -e .)"))
    return found.load()


def agent_class(name: str) -> type[Agent]:
    found = _entry_points(AGENT_GROUP).get(name)
    if found is None:
        raise ParseError(
            f"unknown agent {name!r}; agents: {', '.join(agent_names()) or 'none'}, "
            "or your own as path/to/file.py:ClassName"
        )
    return found.load()


# --- spec strings -------------------------------------------------------------------------------

def split_params(text: str, where: str) -> dict[str, str]:
    """`a=1,b=x` -> {'a': '1', 'b': 'x'}; ParseError naming `where` if malformed."""
    params: dict[str, str] = {}
    if not text:
        return params
    for item in text.split(","):
        key, eq, value = item.partition("=")
        key = key.strip()
        if not eq or not key.isidentifier():
            raise ParseError(f"{where}: parameter {item!r} is not of the form name=value")
        if key in params:
            raise ParseError(f"{where}: parameter {key!r} given twice")
        params[key] = value.strip()
    return params


def build_settings(settings_class: type, params: dict[str, str], where: str) -> Any:
    """Coerce text parameters to the types of `settings_class`'s fields and build it."""
    if not dataclasses.is_dataclass(settings_class):
        if params:
            raise ParseError(f"{where} takes no parameters")
        return None
    hints = typing.get_type_hints(settings_class)
    known = {f.name: f for f in dataclasses.fields(settings_class) if f.init}
    values: dict[str, Any] = {}
    for key, text in params.items():
        if key not in known:
            listing = ", ".join(f"{k} (default {_default_text(f)})" for k, f in known.items())
            raise ParseError(f"{where}: unknown parameter {key!r}; it takes: {listing or 'none'}")
        values[key] = coerce(text, hints[key], f"{where}: parameter {key}")
    try:
        return settings_class(**values)
    except (TypeError, ValueError) as error:
        raise ParseError(f"{where}: {error}") from None


def _default_text(field: dataclasses.Field) -> str:
    if field.default is not dataclasses.MISSING:
        return repr(field.default)
    if field.default_factory is not dataclasses.MISSING:
        return repr(field.default_factory())
    return "required"


def coerce(text: str, kind: Any, where: str) -> Any:
    """Text -> a value of type `kind` (int, float, bool, str, Literal, or X | None)."""
    origin = typing.get_origin(kind)
    if origin in (typing.Union, types.UnionType):
        options = [k for k in typing.get_args(kind) if k is not type(None)]
        if text.lower() in ("none", "") and len(options) < len(typing.get_args(kind)):
            return None
        for option in options:
            try:
                return coerce(text, option, where)
            except ParseError:
                continue
        raise ParseError(f"{where}: cannot read {text!r} as {kind}")
    if origin is typing.Literal:
        allowed = typing.get_args(kind)
        for value in allowed:
            if str(value) == text:
                return value
        raise ParseError(f"{where}: {text!r} is not one of {', '.join(map(str, allowed))}")
    if kind is bool:
        lowered = text.lower()
        if lowered in ("1", "true", "yes", "on"):
            return True
        if lowered in ("0", "false", "no", "off"):
            return False
        raise ParseError(f"{where}: {text!r} is not a boolean (true/false)")
    if kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            raise ParseError(f"{where}: {text!r} is not a{'n' if kind is int else ''} "
                             f"{kind.__name__}") from None
    if kind is str:
        return text
    raise ParseError(f"{where}: parameters of type {kind} cannot be given as text")


def make_game(spec: str) -> Game:
    """A game spec, `NAME` or `NAME:param=value,...` -> a Game."""
    if not isinstance(spec, str) or not spec.strip():
        raise ParseError("empty game spec")
    name, _, param_text = spec.strip().partition(":")
    cls = game_class(name)
    settings = build_settings(cls.Settings, split_params(param_text, f"game {name!r}"),
                              f"game {name!r}")
    return cls(settings)


def make_agent(spec: str, game: Game) -> Agent:
    """An agent spec -> an Agent for `game`. See the module docstring for the forms."""
    if not isinstance(spec, str) or not spec.strip():
        raise ParseError("empty agent spec")
    spec = spec.strip()
    cls, param_text = _resolve_agent(spec)
    settings = build_settings(cls.Settings, split_params(param_text, f"agent {spec!r}"),
                              f"agent {spec!r}")
    agent = cls(game, settings)
    agent.spec = spec
    return agent


def _resolve_agent(spec: str) -> tuple[type[Agent], str]:
    parts = spec.split(":")
    head = parts[0]
    if head.endswith(".py") or "/" in head or (len(parts) > 1 and "=" not in parts[1]
                                               and "." in head):
        if len(parts) < 2 or not parts[1].isidentifier():
            raise ParseError(f"agent {spec!r}: write a user agent as path/to/file.py:ClassName "
                             "or package.module:ClassName")
        cls = _load_user_class(head, parts[1], spec)
        return cls, ":".join(parts[2:])
    return agent_class(head), ":".join(parts[1:])


def _load_user_class(where: str, class_name: str, spec: str) -> type[Agent]:
    try:
        if where.endswith(".py"):
            path = Path(where)
            if not path.is_file():
                raise ParseError(f"agent {spec!r}: no file {where}")
            module_name = f"boardlab_user_{abs(hash(str(path.resolve())))}"
            module = sys.modules.get(module_name)
            if module is None:
                loader_spec = importlib.util.spec_from_file_location(module_name, path)
                assert loader_spec is not None and loader_spec.loader is not None
                module = importlib.util.module_from_spec(loader_spec)
                sys.modules[module_name] = module
                try:
                    loader_spec.loader.exec_module(module)
                except BaseException:
                    del sys.modules[module_name]
                    raise
        else:
            module = importlib.import_module(where)
    except ParseError:
        raise
    except (Exception, SystemExit) as error:  # a file calling exit() must not end the arena
        raise ParseError(f"agent {spec!r}: importing {where} failed: "
                         f"{type(error).__name__}: {error}") from None
    cls = getattr(module, class_name, None)
    if cls is None:
        raise ParseError(f"agent {spec!r}: {where} has no {class_name}")
    if not (isinstance(cls, type) and issubclass(cls, Agent)):
        raise ParseError(f"agent {spec!r}: {class_name} in {where} is not a boardlab Agent "
                         "(subclass boardlab.Agent and define act(state, clock))")
    return cls


def agent_summary(cls: type) -> str:
    """What an agent is, in one sentence, for `boardlab agents`: the first sentence of the
    class's own docstring (a subclass that says what it is, dueling-dqn, speaks for itself),
    else of its module's, on one line."""
    own = cls.__dict__.get("__doc__")
    module = sys.modules.get(cls.__module__)
    return first_sentence(own or (module.__doc__ if module else None) or "")


def first_sentence(text: str) -> str:
    """`text`'s first sentence, its lines joined: up to the first `.`, `?` or `!` that is
    outside brackets, double quotes and backticks (so not `et al.` in `(Mnih et al. 2015)`)
    and followed by the end or by a space and something other than a lower-case letter or a
    digit (so not the `...` of `4, 6, 8, ... until`, nor `e.g. this`). The whole first
    paragraph when no sentence ends in it."""
    paragraph = " ".join(text.strip().split("\n\n", 1)[0].split())
    depth = 0
    quoted = {'"': False, "`": False}
    for i, char in enumerate(paragraph):
        if char in "([{":
            depth += 1
        elif char in ")]}":
            depth = max(0, depth - 1)
        elif char in quoted:
            quoted[char] = not quoted[char]
        elif char in ".?!" and not depth and not any(quoted.values()):
            after = paragraph[i + 1:]
            if not after or (after[0] == " " and not after[1:2].islower()
                              and not after[1:2].isdigit()):
                return paragraph[:i + 1]
    return paragraph


def describe_settings(settings_class: type) -> list[tuple[str, str, str]]:
    """(name, default, one-line doc) for each parameter, for `boardlab agents`."""
    if not dataclasses.is_dataclass(settings_class):
        return []
    docs = _field_docs(settings_class)
    return [(f.name, _default_text(f), docs.get(f.name, ""))
            for f in dataclasses.fields(settings_class) if f.init]


def _field_docs(settings_class: type) -> dict[str, str]:
    """Field docstrings: the string literal on the line after each field; a subclass's own
    text for a field it redefines replaces its base class's."""
    import ast
    import inspect
    import textwrap

    docs: dict[str, str] = {}
    for cls in reversed(settings_class.__mro__):
        if not dataclasses.is_dataclass(cls):
            continue
        try:
            tree = ast.parse(textwrap.dedent(inspect.getsource(cls)))
        except (OSError, TypeError, SyntaxError):
            continue
        body = tree.body[0].body if tree.body and isinstance(tree.body[0], ast.ClassDef) else []
        for node, after in zip(body, body[1:]):
            if (isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name)
                    and isinstance(after, ast.Expr) and isinstance(after.value, ast.Constant)
                    and isinstance(after.value.value, str)):
                docs[node.target.id] = " ".join(after.value.value.split())  # all, one line
    return docs
