"""examples/tour.ipynb runs from top to bottom and shows what it promises."""
from __future__ import annotations

import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.e2e  # executes the notebook in a Jupyter kernel

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOK = ROOT / "examples" / "tour.ipynb"
BUDGET_SECONDS = 60


def _ensure_python3_kernel() -> None:
    """CI installs ipykernel with the dev extras; its kernel spec may still be missing in a
    fresh virtual environment, so install it for this user as a reader would."""
    from jupyter_client.kernelspec import KernelSpecManager

    if "python3" not in KernelSpecManager().find_kernel_specs():
        subprocess.run([sys.executable, "-m", "ipykernel", "install", "--user"], check=True,
                       capture_output=True)


@pytest.fixture(scope="module")
def executed(tmp_path_factory: pytest.TempPathFactory):
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    pytest.importorskip("ipykernel")
    pytest.importorskip("matplotlib")
    _ensure_python3_kernel()
    # Run a copy beside a copy of mybot.py, so the run writes nothing into the checkout.
    folder = tmp_path_factory.mktemp("tour")
    shutil.copy(ROOT / "examples" / "mybot.py", folder / "mybot.py")
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    for cell in notebook.cells:  # the outputs stored in the file must not count as this run's
        if cell.cell_type == "code":
            cell.outputs = []
    started = time.perf_counter()
    nbclient.NotebookClient(notebook, timeout=BUDGET_SECONDS, kernel_name="python3",
                            resources={"metadata": {"path": str(folder)}}).execute()
    return notebook, time.perf_counter() - started


def _outputs(notebook) -> list[dict]:
    return [output for cell in notebook.cells if cell.cell_type == "code"
            for output in cell.outputs]


def test_the_tour_notebook_runs_without_an_error_within_its_budget(executed) -> None:
    notebook, seconds = executed
    assert not [o for o in _outputs(notebook) if o.output_type == "error"]
    assert seconds < BUDGET_SECONDS


def test_the_tour_notebook_draws_boards_as_svg(executed) -> None:
    notebook, _ = executed
    svgs = [o for o in _outputs(notebook) if "image/svg+xml" in o.get("data", {})]
    assert len(svgs) >= 5  # jungle twice, reversi, xiangqi, minichess, the replayed match


def test_the_tour_notebook_shows_a_tournament_table_and_a_ratings_plot(executed) -> None:
    notebook, _ = executed
    tables = [o["data"]["text/markdown"] for o in _outputs(notebook)
              if "text/markdown" in o.get("data", {})]
    assert tables and "mybot.py:MyBot" in tables[0] and "95% CI" in tables[0]
    assert any("image/png" in o.get("data", {}) for o in _outputs(notebook))


def test_the_tour_notebook_is_stored_with_the_python3_kernel() -> None:
    nbformat = pytest.importorskip("nbformat")
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    nbformat.validate(notebook)
    assert notebook.metadata["kernelspec"]["name"] == "python3"
