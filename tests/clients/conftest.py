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


def pytest_configure(config):
    # futhark-data 1.0.3 reads `empty(...)` with numpy.product, which numpy
    # 1.25 deprecates (and numpy 2 removes: the CI installs numpy<2).
    config.addinivalue_line("filterwarnings", "ignore:`product` is deprecated:DeprecationWarning")
