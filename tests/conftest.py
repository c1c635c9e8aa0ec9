"""The test run is an entry point like `boardlab`: one torch/BLAS thread per process (see
`boardlab.cli.main`), set before any test imports torch."""

import os
from pathlib import Path

import pytest

os.environ.setdefault("OMP_NUM_THREADS", "1")


def make_nested_venv(where: Path, also: tuple[Path, ...] = ()) -> Path:
    """A fresh virtual environment at `where` that sees this test run's packages (torch,
    numba, pip, setuptools, ...) and none of its own: the Python of the new environment.

    `python -m venv --system-site-packages` is not that inside a user's venv: the nested one
    sees the *base* interpreter's site-packages (an old setuptools, no wheel), not the venv's.
    So the new environment is isolated, and one `.pth` file appends this environment's
    site-packages folders to its path. A `.pth` line adds a folder without running the `.pth`
    files inside it, so this run's editable install of BoardLab (a finder started from such a
    file) stays out, and what a test installs into the new environment comes first. `also`:
    more folders to append (the checkout's `src`, to see the BoardLab under test)."""
    import site
    import subprocess
    import sys
    import sysconfig

    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(where)], check=True)
    python = where / "bin" / "python"
    own = subprocess.run([str(python), "-c",
                          "import sysconfig; print(sysconfig.get_path('purelib'))"],
                         check=True, capture_output=True, text=True).stdout.strip()
    outer = [sysconfig.get_path("purelib"), sysconfig.get_path("platlib"), *site.getsitepackages()]
    if site.ENABLE_USER_SITE:
        outer.append(site.getusersitepackages())
    folders = list(dict.fromkeys(folder for folder in [*outer, *map(str, also)]
                                 if os.path.isdir(folder)))
    (Path(own) / "_outer_environment.pth").write_text("\n".join(folders) + "\n")
    return python


@pytest.fixture(scope="session")
def nested_venv():
    """`make_nested_venv`, for the tests that install a package into an environment."""
    return make_nested_venv
