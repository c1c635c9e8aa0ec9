"""Game pages: one per game BoardLab ships, in the nav, each with its start position pictured.

A game another distribution registers (a plug-in, such as the template game installed next to
BoardLab) documents itself in its own package: our docs owe it no page."""
from __future__ import annotations

from importlib.metadata import entry_points
from pathlib import Path

import pytest
from docs_hook import settings_tables_hook

from boardlab.core.registry import GAME_GROUP

ROOT = Path(__file__).resolve().parents[2]


def own_games() -> list[str]:
    """The games whose entry points BoardLab's own distribution declares."""
    return sorted(point.name for point in entry_points(group=GAME_GROUP)
                  if point.dist is not None and point.dist.name == "boardlab")


def _hook():
    return settings_tables_hook()


@pytest.mark.parametrize("name", own_games())
def test_every_registered_game_has_a_page_in_the_nav(name: str) -> None:
    assert (ROOT / "docs" / "games" / f"{name}.md").is_file()
    assert f"games/{name}.md" in (ROOT / "mkdocs.yml").read_text(encoding="utf-8")


@pytest.mark.parametrize("name", own_games())
def test_every_game_page_pictures_its_start_position(name: str) -> None:
    page = ROOT / "docs" / "games" / f"{name}.md"
    if not page.is_file():
        pytest.skip(f"no page for {name} (the test above fails)")
    html = _hook().render(page.read_text(encoding="utf-8"))
    assert f"<!-- board: {name} -->" not in html and "<svg" in html


def test_a_board_has_no_blank_line_that_would_end_its_html_block() -> None:
    html = _hook().board_html("jungle")
    assert html.startswith("<div") and html.endswith("</div>") and "\n\n" not in html
