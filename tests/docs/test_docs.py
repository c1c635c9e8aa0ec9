"""Documentation checks: relative links resolve, and the site builds strictly."""
from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


def _pages() -> list[Path]:
    return sorted((ROOT / "docs").rglob("*.md")) + [ROOT / "README.md"]


def _broken_links(page: Path) -> list[str]:
    broken = []
    for target in LINK.findall(page.read_text(encoding="utf-8")):
        # External links and in-page anchors are not files we can check offline.
        if re.match(r"^[a-z]+:", target) or target.startswith("#"):
            continue
        path = target.split("#", 1)[0]
        if path and not (page.parent / path).exists():
            broken.append(target)
    return broken


@pytest.mark.parametrize("page", _pages(), ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_points_to_an_existing_file(page: Path) -> None:
    assert _broken_links(page) == [], f"{page} links to missing files"


def test_site_builds_with_strict_mkdocs(tmp_path: Path) -> None:
    pytest.importorskip("mkdocs", reason="mkdocs is not installed (pip install mkdocs mkdocs-material)")
    pytest.importorskip("material", reason="mkdocs-material is not installed")
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(tmp_path / "site")],
        cwd=ROOT, capture_output=True, text=True,
    )
    assert result.returncode == 0, result.stderr


BLOCK = re.compile(r"```(bash|python)\n(.*?)```", re.S)


def test_every_tutorial_code_block_runs_in_order(tmp_path: Path) -> None:
    blocks = BLOCK.findall((ROOT / "docs" / "tutorial.md").read_text(encoding="utf-8"))
    assert blocks, "docs/tutorial.md has no bash or python blocks"
    for number, (language, code) in enumerate(blocks, 1):
        command = ["bash", "-e", "-c", code] if language == "bash" else [sys.executable, "-c", code]
        result = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, timeout=60)
        assert result.returncode == 0, f"tutorial block {number} failed:\n{code}\n{result.stderr}"
