"""Documentation checks: relative links resolve, and the site builds strictly."""
from __future__ import annotations

import re
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


@pytest.mark.e2e  # builds the site with mkdocs
def test_site_builds_with_strict_mkdocs(tmp_path: Path) -> None:
    pytest.importorskip("mkdocs",
                        reason="mkdocs is not installed (pip install mkdocs mkdocs-material)")
    pytest.importorskip("material", reason="mkdocs-material is not installed")
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(tmp_path / "site")],
        cwd=ROOT, capture_output=True, text=True,
    )
    assert result.returncode == 0, result.stderr


BLOCK = re.compile(r'```(bash|python)(?: title="([^"]+)")?\n(.*?)```', re.S)
"""A fenced bash or python block; with a title it is a file the reader saves under that name."""
TUTORIAL_SECONDS = 60


def tutorial_blocks(page: Path) -> list[tuple[str, str, str]]:
    """(language, file name or "", code) for every bash/python block of `page`, in order."""
    return BLOCK.findall(page.read_text(encoding="utf-8"))


def run_blocks(blocks: list[tuple[str, str, str]], folder: Path) -> None:
    """Run the blocks in `folder` as a reader would; fail naming the first block that breaks.

    A titled block is a file: if an earlier command wrote it (`boardlab new-agent`), the page
    must show exactly what that command wrote; otherwise the test saves it as the reader would.
    """
    for number, (language, filename, code) in enumerate(blocks, 1):
        if filename:
            path = folder / filename
            if path.exists():
                assert path.read_text(encoding="utf-8") == code, (
                    f"block {number} shows {filename}, but the command before it wrote another "
                    "text: update the page")
            else:
                path.write_text(code, encoding="utf-8")
            continue
        command = ["bash", "-e", "-c", code] if language == "bash" else [sys.executable, "-c", code]
        result = subprocess.run(command, cwd=folder, capture_output=True, text=True, timeout=60)
        assert result.returncode == 0, f"block {number} failed:\n{code}\n{result.stderr}"


@pytest.mark.e2e  # runs the tutorial's commands
def test_every_tutorial_code_block_runs_in_order(tmp_path: Path) -> None:
    import time

    blocks = tutorial_blocks(ROOT / "docs" / "tutorial.md")
    assert any(not name for _, name, _ in blocks), "docs/tutorial.md has no commands to run"
    started = time.perf_counter()
    run_blocks(blocks, tmp_path)
    # The page promises a quick start; a slow tutorial is a doc bug.
    assert time.perf_counter() - started < 3 * TUTORIAL_SECONDS


def test_a_titled_block_that_differs_from_the_written_file_fails(tmp_path: Path) -> None:
    (tmp_path / "bot.py").write_text("x = 1\n", encoding="utf-8")
    with pytest.raises(AssertionError, match="shows bot.py"):
        run_blocks([("python", "bot.py", "x = 2\n")], tmp_path)


def test_a_titled_block_is_saved_as_a_file_and_later_blocks_use_it(tmp_path: Path) -> None:
    run_blocks([("python", "hello.py", "print('hi')\n"), ("bash", "", "python hello.py\n")],
               tmp_path)
    assert (tmp_path / "hello.py").read_text(encoding="utf-8") == "print('hi')\n"


def test_a_failing_block_fails_the_tutorial_test(tmp_path: Path) -> None:
    with pytest.raises(AssertionError, match="block 1 failed"):
        run_blocks([("bash", "", "false\n")], tmp_path)
