"""The test run is an entry point like `boardlab`: one torch/BLAS thread per process (see
`boardlab.cli.main`), set before any test imports torch."""

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")
