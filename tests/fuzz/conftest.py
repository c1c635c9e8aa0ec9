"""The fuzz folder's counter: every test adds the inputs it generated (fuzz_support.COUNTER);
the total is printed at the end of the run and checked by test_fuzz_total.py, which this
conftest moves to the end of the session so that it sees every other fuzz test's count."""

from __future__ import annotations

import pytest

from fuzz_support import COUNTER


def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config,
                                  items: list[pytest.Item]) -> None:
    last = [item for item in items if item.path.name == "test_fuzz_total.py"]
    rest = [item for item in items if item.path.name != "test_fuzz_total.py"]
    items[:] = rest + last


def pytest_terminal_summary(terminalreporter, exitstatus: int, config: pytest.Config) -> None:
    if not COUNTER.by_door:
        return
    reporter = terminalreporter
    reporter.write_sep("-", f"fuzz: {COUNTER.fuzzed} generated inputs (round-trip texts and "
                            "kills listed apart)")
    for door, count in sorted(COUNTER.by_door.items()):
        reporter.write_line(f"  {door:32} {count:7}")
