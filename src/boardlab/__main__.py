"""`python -m boardlab ...`: the `boardlab` command, for a Python that has BoardLab on its path
but not the script on PATH (an engine command line, a second checkout named by PYTHONPATH)."""

import sys

from .cli import main

sys.exit(main())
