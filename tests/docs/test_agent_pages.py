"""Agent pages: one per registered agent, each documenting every parameter its Settings has."""
from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest
from docs_hook import settings_tables_hook

from boardlab.core.registry import agent_class, agent_names

ROOT = Path(__file__).resolve().parents[2]
AGENTS = ROOT / "docs" / "agents"


def _hook():
    return settings_tables_hook()


def _documented_parameters(page: Path) -> set[str]:
    """Parameter names in the first cell of the page's tables, after the build-time hook ran."""
    text = _hook().render(page.read_text(encoding="utf-8"))
    return set(re.findall(r"^\|\s*`([A-Za-z_][A-Za-z0-9_]*)`\s*\|", text, re.M))


def _field_names(settings: type) -> set[str]:
    if not dataclasses.is_dataclass(settings):
        return set()
    return {f.name for f in dataclasses.fields(settings) if f.init}


@pytest.mark.parametrize("name", agent_names())
def test_every_registered_agent_has_a_page_in_the_nav(name: str) -> None:
    assert (AGENTS / f"{name}.md").is_file(), f"docs/agents/{name}.md is missing"
    assert f"agents/{name}.md" in (ROOT / "mkdocs.yml").read_text(encoding="utf-8")


@pytest.mark.parametrize("name", agent_names())
def test_every_parameter_of_an_agent_is_on_its_page(name: str) -> None:
    page = AGENTS / f"{name}.md"
    if not page.is_file():
        pytest.skip(f"no page for {name} (the test above fails)")
    missing = _field_names(agent_class(name).Settings) - _documented_parameters(page)
    assert not missing, f"docs/agents/{name}.md does not document {sorted(missing)}"


def test_the_template_agent_page_documents_every_parameter_of_examples_mybot() -> None:
    settings = _hook().settings_class("examples/mybot.py:MyBot")
    missing = _field_names(settings) - _documented_parameters(AGENTS / "mybot.md")
    assert not missing


def test_a_settings_marker_becomes_a_table_of_names_defaults_and_docs() -> None:
    table = _hook().render("<!-- settings: minimax -->")
    assert "| `depth` | `3` | Deepest iteration in plies" in table
    assert "| `tt` | `true` |" in table
    assert "| `eval` | (empty) |" in table


def test_an_agent_without_parameters_is_said_to_take_none() -> None:
    assert _hook().render("<!-- settings: random -->") == "This agent takes no parameters."


def test_doc_text_that_looks_like_html_is_escaped_in_the_table() -> None:
    # qlearning's weights doc names models/<game>-qlearning.npz: unescaped, <game> vanishes.
    table = _hook().render("<!-- settings: qlearning -->")
    assert "&lt;game&gt;" in table and "<game>" not in table


def test_a_marker_naming_an_unknown_agent_warns_instead_of_crashing_the_build(caplog) -> None:
    with caplog.at_level("WARNING"):
        text = _hook().render("<!-- settings: no-such-agent -->")
    assert "could not be read" in text
    assert "no-such-agent" in caplog.text
