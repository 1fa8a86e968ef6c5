import pytest

import helpers

# Lines that test modules add for the end of the run (test_cross.py's
# summary counts).
SUMMARY = []


@pytest.fixture(scope="session")
def parad():
    return helpers.parad_path()


def pytest_terminal_summary(terminalreporter):
    for line in SUMMARY:
        terminalreporter.write_line(line)
